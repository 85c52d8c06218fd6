"""Settings for bench_duplicate's gunicorn: the site's own production settings, unchanged, except that
`collectstatic` writes to a throwaway directory (BENCH_STATIC_ROOT) instead of the project's staticfiles/, and
that the URLs add the write path's bare endpoint (bench/_stack_urls.py).

With DEBUG off the pages' {% static %} tags need collectstatic's manifest; the bench makes one there so the
HTML pages render as they do in production, without touching the working tree. Not a bench itself (the
runner only picks bench_*.py modules).
"""

import os

from clubsite.settings import *  # noqa: F403

STATIC_ROOT = os.environ["BENCH_STATIC_ROOT"]
ROOT_URLCONF = "bench._stack_urls"
