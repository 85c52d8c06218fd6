from celery import shared_task
from django.db import InterfaceError, OperationalError

from . import exports
from .services import export_jobs


# A database that drops the worker's connection mid-export (a restart, a failover): tried again a little later,
# on a new connection, up to three times (2, 4, 8 s).
@shared_task(autoretry_for=(OperationalError, InterfaceError), retry_backoff=2, max_retries=3)
def export_session(job_id: int) -> None:
    """Build a large session's export file; the job row carries its progress and the file. Safe to run twice."""
    export_jobs.export_run(job_id=job_id, build=exports.build)


@shared_task
def export_mark_stuck() -> int:
    """Run every minute by Celery beat (clubsite/celery.py): mark failed the jobs whose worker is gone."""
    return export_jobs.export_mark_stuck()


@shared_task
def export_purge() -> int:
    """Run periodically by Celery beat (clubsite/celery.py): delete old export files and their jobs."""
    return export_jobs.export_purge()
