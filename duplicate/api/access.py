"""How the duplicate API checks access and refuses: the access checks an operation starts with, and a service's
refusal as the status it answers. The ways in (a token, a logged-in session) are the site's: `clubsite.api_auth`."""

from django.utils.translation import gettext as _
from ninja.errors import HttpError

from clubsite.schemas import ErrorOut

from ..errors import DuplicateError
from ..models import Round, Session

ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut, 413: ErrorOut, 422: ErrorOut}


def session_for(request, pk, *, write=False) -> Session:
    """Organisers read and write; the club's members and the session's players read (403 on a write). Anyone
    else, another club's organiser included, gets the 404 of an unknown id: nobody can probe which ids exist."""
    sessions = Session.objects.visible_to(request.user).select_related("club", "edition", "rule_set")
    session = sessions.filter(pk=pk).first()
    if session is None:
        raise HttpError(404, _("Séance introuvable."))
    if write and not session.is_organiser(request.user):
        raise HttpError(403, _("Seuls les organisateurs de la séance peuvent la modifier."))
    return session


def round_for_organiser(request, pk, number) -> Round:
    """Move `number` of a session the caller runs, with its session, in one query (the path every score sent
    takes); otherwise the refusals of `session_for` (404, 403), then a 404 for a move that does not exist."""
    round_ = Round.objects.writable_by(request.user, pk, number)
    if round_ is None:
        session = session_for(request, pk, write=True)
        round_ = Round.objects.filter(session=session, number=number).first()
        if round_ is None:
            raise HttpError(404, _("Le coup %(number)d n'est pas tiré dans cette séance.") % {"number": number})
    return round_


def refused(error: DuplicateError):
    """422 for a refused value; a finished session's 409 (nothing may change until it is reopened)."""
    raise HttpError(error.status if error.status != 400 else 422, str(error))
