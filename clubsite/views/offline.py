"""The service worker, at the site's root (/sw.js) so that its scope is every page: static/js/service_worker.js, with
what it keeps before it (clubsite/offline.py)."""

import json
from pathlib import Path

from django.contrib.staticfiles.finders import find
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.http import HttpResponse
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control, quote_etag
from django.views.decorators.http import require_http_methods

from .. import offline


@require_http_methods(["GET", "HEAD"])
def service_worker(request):
    """The worker and what it keeps: the offline pages' addresses, every static file's, and the version naming them.
    The browser asks for it again at each visit (no-cache, revalidated by its ETag, the version): a new version of
    the site makes it keep the pages anew and drop the old ones."""
    version = offline.site_version()
    kept = {
        "version": version,
        "pages": [reverse(name) for name in offline.OFFLINE_PAGES],
        "assets": [staticfiles_storage.url(name) for name in offline.static_files()],
        "staticUrl": staticfiles_storage.base_url,
        # collectstatic's names carry each file's hash: such an address never serves other bytes.
        "immutableStatic": isinstance(staticfiles_storage, ManifestFilesMixin),
    }
    source = Path(find(offline.WORKER_SOURCE)).read_text(encoding="utf-8")
    response = HttpResponse(
        f"self.OFFLINE = {json.dumps(kept)};\n{source}", content_type="application/javascript; charset=utf-8"
    )
    patch_cache_control(response, no_cache=True)
    response["Service-Worker-Allowed"] = "/"
    response["ETag"] = quote_etag(version)
    return get_conditional_response(request, etag=response["ETag"], response=response)
