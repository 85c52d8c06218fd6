"""gunicorn's settings for the site (README, "Running it for a club"): `gunicorn clubsite.wsgi -c gunicorn.conf.py`.

The site is loaded once, in the master process (`preload_app`), which makes it ready there (its URLs and views, and
the top finder through `manage.py prepare_search` in-process: each word list's index, the compiled kernel) before it
forks the workers: each starts with them in memory, shared with the others, and searches once before its first
request; so does a worker started again after a timeout or a crash. Issue 22: each worker paid its first search
with them, 4 s on a warm machine, and the first draw of an evening 30 s on a machine whose cache was empty, beyond
gunicorn's timeout (the worker was killed, the move lost). A code update then needs a restart of the master
(`systemctl restart`), not a HUP, which would keep the code it loaded.
"""

import gc

preload_app = True


def when_ready(server):
    """Before the workers are forked (the socket is bound: a request meanwhile waits instead of being refused)."""
    from django.core.management import call_command
    from django.db import connections
    from django.urls import resolve

    # The site's URLs resolved once, which imports every view and the API: a third of a second of each worker's first
    # request otherwise.
    resolve("/")
    try:
        call_command("prepare_search")
    except Exception:  # the site still serves: its first searches then load what this did not
        server.log.exception("The top finder could not be made ready before the workers start")
    finally:
        # A connection opened here would be shared by every worker forked after: each opens its own.
        connections.close_all()
    # What the master holds stays out of the workers' garbage collections, which would otherwise write into (and
    # so copy) every page of it in each worker.
    gc.freeze()


def post_worker_init(worker):
    """Each worker searches once before its first request, with what it was forked with (some 20 ms): its database
    connection opened and its first queries of the engine's rows made, which its first search paid otherwise (twice
    the time of the next ones)."""
    from django.core.management import call_command

    try:
        call_command("prepare_search", verbosity=0)
    except Exception:  # a worker that cannot search yet still serves the rest, and its searches load what they need
        worker.log.exception("The worker could not search before its first request")
