"""The Celery app: configured from the CELERY_* Django settings, tasks found in each app's tasks.py."""

import os

from celery import Celery
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
