"""The files a session is downloaded as: its results (CSV, XLSX, the federation's file), built at once for a small
session and by a worker for a large one, and its game file, for another session to play."""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from .. import exports, tasks
from ..models import ExportJob, Session
from ..services import export_jobs, export_requests, sheet
from .access import get_session_for_organiser

EXPORT_LABELS = [("csv", "CSV"), ("xlsx", "XLSX"), ("federation", gettext_lazy("Fichier fédéral"))]


def export_asked(request, kinds=exports.KINDS) -> str | None:
    """The file a ranking's page is asked for (`?export=csv`), None for the page itself; a 404 for a kind the page
    does not offer."""
    kind = request.GET.get("export")
    if kind and kind not in kinds:
        raise Http404
    return kind or None


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def export(request, pk, kind):
    """A small session's file comes at once. A large one's is built by a worker: a GET shows the button, which
    POSTs to start the job (or find the one already built from the same results) and follow its progress."""
    session = get_session_for_organiser(request, pk)
    if kind not in exports.KINDS:
        raise Http404
    if export_requests.export_inline(session):
        return exports.response(session, kind)
    if request.method in ("GET", "HEAD"):
        return render(request, "duplicate/export_job.html", _export_context(session, kind, job=None))
    try:
        job = export_requests.export_request(session=session, kind=kind, user=request.user, task=tasks.export_session)
    except export_requests.ExportUnavailable as error:
        context = _export_context(session, kind, job=None) | {"unavailable": str(error)}
        return render(request, "duplicate/export_job.html", context, status=503)
    if job is None:  # no worker to be reached, the file built here instead
        return exports.response(session, kind)
    return redirect("duplicate:export_job", pk=session.pk, job_pk=job.pk)


@login_required
@require_safe
def export_job(request, pk, job_pk):
    session = get_session_for_organiser(request, pk)
    export_jobs.export_mark_stuck(session.export_jobs.filter(pk=job_pk))
    job = get_object_or_404(ExportJob.objects.defer("content"), session=session, pk=job_pk)
    template = "duplicate/export_job.html#status" if request.htmx else "duplicate/export_job.html"
    return render(request, template, _export_context(session, job.kind, job=job))


def _export_context(session, kind, job):
    return {
        "session": session,
        "job": job,
        "kind": kind,
        "label": dict(EXPORT_LABELS)[kind],
        "limit": settings.DUPLICATE_EXPORT_INLINE_MAX_PLAYERS,
        "stuck_minutes": max(1, round(settings.DUPLICATE_EXPORT_STUCK_SECONDS / 60)),
        # The session changed since this file was built: another one may be prepared.
        "stale": job is not None and job.session_version != session.changes_made(),
    }


@login_required
@require_safe
def export_download(request, pk, job_pk):
    session = get_session_for_organiser(request, pk)
    job = get_object_or_404(ExportJob, session=session, pk=job_pk, status=ExportJob.Status.DONE)
    return exports.download(bytes(job.content), job.kind, exports.filename(session, job.kind))


@login_required
@require_safe
def session_game(request, pk):
    """ "Fichier de partie": the session's game as JSON (README), for another club or another session to play."""
    session = get_object_or_404(Session.objects.visible_to(request.user).select_related("edition", "rule_set"), pk=pk)
    return exports.game_download(sheet.game_document(session), exports.session_slug(session))
