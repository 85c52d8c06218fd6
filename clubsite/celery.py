"""The Celery app: configured from the CELERY_* Django settings, tasks found in each app's tasks.py."""

import gc
import os

from celery import Celery, signals
from celery.schedules import crontab

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")

app = Celery("clubsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Run by `celery -A clubsite beat` (README, "Running it for a club"). Tasks are named, not imported: clubsite
# imports none of the apps.
app.conf.beat_schedule = {
    "duplicate-export-mark-stuck": {"task": "duplicate.tasks.export_mark_stuck", "schedule": crontab()},
    "duplicate-export-purge": {"task": "duplicate.tasks.export_purge", "schedule": crontab(minute=17)},
}


@signals.worker_init.connect
def prepare_search(**kwargs):
    """The top finder made ready in the worker's main process (`manage.py prepare_search`, named like the tasks
    above), before its pool's processes are forked: each starts with it in memory, as gunicorn's workers do (issue
    22). Not in `worker_process_init`: each process would pay it, within the 4 s a new one has to say it is up
    (`worker_proc_alive_timeout`) before it is killed, and the solo pool never sends that signal."""
    from django.core.management import call_command
    from django.db import connections

    try:
        call_command("prepare_search")  # an error is logged by Celery, and the worker starts all the same
    finally:
        connections.close_all()  # each process of the pool opens its own
    gc.freeze()  # kept out of the pool processes' garbage collections, which would copy its pages in each
