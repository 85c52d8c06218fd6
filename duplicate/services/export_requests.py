"""Asking for a session's results file: built within the request for a small session, else by a worker
(`tasks.export_session`, which the caller hands over: the tasks call the services, which never import them back), a
job already done or under way for the same results being reused."""

from django.conf import settings
from django.db.models import Q
from django.utils.translation import gettext as _

from clubsite import queue

from ..errors import DuplicateError
from ..models import ExportJob, Session
from .export_jobs import export_mark_stuck


def export_inline(session: Session) -> bool:
    """Whether the session is small enough for its file to be built within the request."""
    return session.players.count() <= settings.DUPLICATE_EXPORT_INLINE_MAX_PLAYERS


class ExportUnavailable(DuplicateError):
    """No worker can be reached to build the file (the broker is down), and the session is too large to build it
    within the request."""

    status = 503


def export_request(*, session: Session, kind: str, user, task) -> ExportJob | None:
    """The job building the session's file: one already done or under way for the same results (the session's
    changes) is reused, so that pressing the button again or from another tab builds nothing twice; otherwise a
    new one, queued at once (its row is committed first: the view runs outside any transaction) for a worker to
    fill: `task` is sent the job's id. When the broker cannot be reached, no job is left waiting for a task never
    queued: None when the session is small enough for the caller to build the file itself, else
    ExportUnavailable."""
    version = session.changes_made()
    export_mark_stuck(session.export_jobs.all())
    under_way = Q(status__in=(ExportJob.Status.PENDING, ExportJob.Status.RUNNING))
    job = (
        session.export_jobs.filter(Q(status=ExportJob.Status.DONE) | under_way, kind=kind, session_version=version)
        .defer("content")
        .first()
    )
    if job is not None:
        return job
    job = ExportJob.objects.create(session=session, kind=kind, session_version=version, requested_by=user)
    try:
        queue.send(task, job.pk)
    except queue.QueueUnavailable:
        job.delete()
        if session.players.count() <= settings.DUPLICATE_EXPORT_FALLBACK_MAX_PLAYERS:
            return None
        raise ExportUnavailable(
            _(
                "Les exports sont momentanément indisponibles : le service qui prépare les fichiers ne répond pas. "
                "Réessayez dans quelques minutes."
            )
        ) from None
    return job
