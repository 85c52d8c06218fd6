"""What the service worker keeps for a visit without the network (issue 25): the pages, their static files, and the
version that names them (the worker itself: static/js/service_worker.js, served by clubsite/views/offline.py).

The version changes with anything the kept pages are made of, so that a browser keeps them anew at its next visit
with the network: the static files, the templates and the catalog, read once per process (again on every request
under DEBUG, where they change without a restart); and the rows the pages show, by a stamp each app registers from
its `AppConfig.ready()`, since clubsite imports none of them (an edition's letter values changed in the admin). Every
process computes the same version: nothing here is state another process needs.
"""

import functools
import hashlib
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.finders import FileSystemFinder

# The pages a visitor can open offline once he has visited the site, by URL name: the counter (typed and grid), the
# score sheet kept in the browser, the help. The worker keeps each as a visitor without an account sees it.
OFFLINE_PAGES = ["counter", "grid", "sheets:local", "help", "help_points", "help_sheet", "help_letters"]

# The worker's own source is served at the site's root, not kept among the pages' files.
WORKER_SOURCE = "js/service_worker.js"
# What collectstatic leaves out.
_IGNORED = ["CVS", ".*", "*~"]

_stamps: dict[str, Callable[[], str]] = {}


def register_stamp(key: str, stamp: Callable[[], str]) -> None:
    """Called from an app's `ready()`: `stamp()` must change whenever rows its offline pages show change."""
    _stamps[key] = stamp


def static_files() -> list[str]:
    """The site's own static files (STATICFILES_DIRS, the admin's aside), which the pages load: their names."""
    return sorted(name for name, _storage in FileSystemFinder().list(_IGNORED) if name != WORKER_SOURCE)


def site_version() -> str:
    """The version of what the worker keeps: it names the worker's cache, and the worker changes with it."""
    # Under runserver (DEBUG) the files change without a restart.
    files = _digest_of_files() if settings.DEBUG else _files_digest()
    rows = "|".join(f"{key}={stamp()}" for key, stamp in sorted(_stamps.items()))
    return hashlib.sha256(f"{files}|{rows}".encode()).hexdigest()[:16]


def _digest_of_files() -> str:
    """A digest of the static files, the templates and the catalog, paths and contents."""
    roots = [
        *settings.STATICFILES_DIRS,
        *(folder for engine in settings.TEMPLATES for folder in engine.get("DIRS", ())),
        *settings.LOCALE_PATHS,
    ]
    digest = hashlib.sha256()
    for root in map(Path, roots):
        for path in sorted(path for path in root.rglob("*") if path.is_file()):
            digest.update(f"{path.relative_to(root)}\n".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


_files_digest = functools.cache(_digest_of_files)  # once per process: a deployment restarts them
