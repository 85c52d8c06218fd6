"""The sheets API: "Enregistrer dans mon compte" of the sheet kept in the browser, which copies one of its games into
the member's account. The page calls it with the member's session and its CSRF token; a script may with a token."""

import functools

from django.http import JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from ninja import Router, Status
from ninja.decorators import decorate_view
from ninja.errors import HttpError

from clubsite.api_auth import MEMBER
from clubsite.schemas import ErrorOut
from clubsite.throttling import MemberThrottle

from . import local, services
from .schemas import LocalGameIn, LocalGameOut

router = Router(tags=["Feuilles de marque"], auth=MEMBER)
ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 413: ErrorOut, 422: ErrorOut, 429: ErrorOut}


def _body_at_most(size: int):
    """Refuse a body over `size` bytes (413) before it is read, judged on its declared length, then on what came."""

    def decorator(run):
        @functools.wraps(run)
        def checked(request, *args, **kwargs):
            declared = request.META.get("CONTENT_LENGTH") or "0"
            if not declared.isdecimal() or int(declared) > size or len(request.body) > size:
                message = _("Partie trop volumineuse : %(size)d Ko au plus.") % {"size": size // 1024}
                return JsonResponse({"detail": message}, status=413)
            return run(request, *args, **kwargs)

        return checked

    return decorator


@router.post(
    "/sheets/local-games",
    response={201: LocalGameOut, **ERRORS},
    url_name="sheets_local_game",
    summary="Copier une partie de la feuille du navigateur dans son compte",
    # Members only (a visitor is refused before any count): each counted by account, DJANGO_RATE_SHEET_COPY_MEMBER.
    throttle=[MemberThrottle("member_sheet_copy")],
)
@decorate_view(_body_at_most(local.MAX_BODY_BYTES))
def local_game_save(request, payload: LocalGameIn):
    """The game becomes one of the member's games, each line written through the sheet's own rules; a refused line
    refuses the whole game (422, its French sentence), nothing written. Answers the copy's id and address."""
    try:
        game = services.game_import_local(owner=request.user, local=local.check_local_game(payload))
    except services.SheetError as error:
        raise HttpError(422, str(error)) from error
    return Status(201, {"id": game.pk, "url": reverse("sheets:game", args=[game.pk])})
