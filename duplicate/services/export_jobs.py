"""An export job's life on the workers' side: its file built (`tasks.export_session`, which hands over the builder,
`exports.build`: the exports read this package's rankings, and it never imports them back), the jobs whose worker is
gone marked failed, old jobs purged (Celery beat)."""

import datetime

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import ExportJob


def export_mark_stuck(jobs=None) -> int:
    """Mark failed, with the reason, the jobs (all by default) waiting or running that have not moved for
    DUPLICATE_EXPORT_STUCK_SECONDS: their worker is gone. Their page then offers to start them again. Run by each
    job's page and periodically by Celery beat; how many were marked."""
    jobs = ExportJob.objects.all() if jobs is None else jobs
    return jobs.filter(
        status__in=(ExportJob.Status.PENDING, ExportJob.Status.RUNNING), updated_at__lt=ExportJob.stuck_before()
    ).update(
        status=ExportJob.Status.FAILED,
        error=_("la préparation s'est arrêtée sans finir (le service qui prépare les fichiers a été interrompu)."),
        finished_at=timezone.now(),
    )


def export_purge() -> int:
    """Delete the export jobs, with their files, older than DUPLICATE_EXPORT_RETENTION_HOURS (stuck ones too);
    how many went."""
    cutoff = timezone.now() - datetime.timedelta(hours=settings.DUPLICATE_EXPORT_RETENTION_HOURS)
    deleted, _by_model = ExportJob.objects.filter(created_at__lt=cutoff).delete()
    return deleted


def export_run(*, job_id: int, build):
    """Build the job's file with `build(session, kind, progress)`. Safe to run twice (a task given again to another
    worker after its first one died): a job already done, or deleted meanwhile, is left as it is; one started before
    is built again."""
    job = (
        ExportJob.objects.select_related("session", "session__edition", "session__rule_set")
        .defer("content")
        .filter(pk=job_id)
        .first()
    )
    if job is None or job.status == ExportJob.Status.DONE:
        return
    jobs = ExportJob.objects.filter(pk=job.pk)
    jobs.update(status=ExportJob.Status.RUNNING, progress=0, error="", updated_at=timezone.now())

    def progress(done, total):
        jobs.update(progress=int(done * 100 / max(total, 1)), updated_at=timezone.now())

    try:
        content = build(job.session, job.kind, progress)
    except Exception as error:  # a failed export must say so on the page instead of spinning forever
        jobs.update(status=ExportJob.Status.FAILED, error=str(error)[:300], finished_at=timezone.now())
        raise
    now = timezone.now()
    jobs.update(status=ExportJob.Status.DONE, progress=100, content=content, updated_at=now, finished_at=now)
