"""The scoring tools on a duplicate session's current move (the last one drawn). The typed counter: "Inscrire pour
le joueur" records the counted points as the chosen player's score, "Placer comme top" places the typed word as the
move's top. The grid (`top_grid`): "Placer ce top" and "Inscrire pour le joueur" on the session's board, every
earlier top placed (`TopBoardStore`)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from scoring.views import counter_page, grid_page

from ..boards import TopBoardStore, inscribe, move_entries
from ..errors import DuplicateError
from ..services import rounds
from .access import get_session_for_organiser


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def session_counter(request, pk):
    """The counter page's buttons act on the session's current move; it answers as the counter does."""
    session = get_session_for_organiser(request, pk)
    current = session.current_round()
    refused = {}  # the service's own status (409 once the session is finished), where counter_page would say 400

    def inscribe_points(state, result):
        if _counted(result) is None:
            raise DuplicateError(_("Rien à inscrire : tapez d'abord un coup complet."))
        player_value = request.POST.get("player", "")
        return inscribe(round_=current, player_value=player_value, score=result.score, by=request.user)

    def place_top(state, result):
        return _place_top(current, state, result, request.POST.get("position", ""), by=request.user)

    response = counter_page(
        request,
        template_name="duplicate/counter.html",
        edition_code=session.edition.code,
        rules_code=session.rule_set.code,
        actions={"inscribe": _button(request, refused, inscribe_points), "top": _button(request, refused, place_top)},
        extra_context={
            "duplicate_session": session,
            "current_round": current,
            # Read once the template draws the buttons, not for each letter typed.
            "entries": SimpleLazyObject(lambda: move_entries(session, current)),
            "chosen_player": request.POST.get("player", ""),
            "position": request.POST.get("position", "")[:3],
            "grid_url": reverse("duplicate:top_grid", args=[session.pk]),
        },
    )
    response.status_code = refused.get("status", response.status_code)
    return response


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def top_grid(request, pk):
    """The grid page over the session's board; its buttons act on the current move, as the counter's do."""
    session = get_session_for_organiser(request, pk)
    return grid_page(request, TopBoardStore(session, by=request.user, player_pk=request.POST.get("player")))


def _button(request, refused: dict, run):
    """A counter action over `run(state, result)`, which returns the message of what it did: the message goes on
    a fresh counter. A `DuplicateError` comes back as the counter's refusal, its status kept in `refused`."""

    def act(state, result, detail):
        try:
            messages.success(request, run(state, result))
        except DuplicateError as error:
            refused["status"] = error.status
            return str(error)
        return HttpResponseClientRedirect(request.path) if request.htmx else redirect(request.path)

    return act


def _counted(result) -> int | None:
    """The counter's total, None while it has none (nothing typed, a word refused, more than seven tiles)."""
    if result is None or isinstance(result, dict) or result.too_many_tiles:
        return None
    return result.score


def _place_top(round_, state, result, position: str, *, by) -> str:
    """The typed counter knows no squares: the top is the starting square typed beside the button and the main
    word, its blanks in lowercase as notation writes them. The session's board scores it, not the counter."""
    if round_ is None:
        raise DuplicateError(_("Faites d'abord le tirage du premier coup."))
    word = "".join(tile.shown for tile in state.words[0].tiles)
    if not word or state.has_errors:
        raise DuplicateError(_("Tapez d'abord le mot du top."))
    position = "".join(position.split())
    if not position:
        raise DuplicateError(_("Donnez la case de départ du top : H4 pour un mot horizontal, 4H pour un mot vertical."))
    rounds.round_set_top(round_=round_, top_text=f"{position} {word}", by=by)
    message = _("Top du coup %(number)d : %(top)s, %(score)d points.") % {
        "number": round_.number,
        "top": round_.top,
        "score": round_.top_score,
    }
    counted = _counted(result)
    if counted is not None and counted != round_.top_score:
        message += " " + _("Le compteur donnait %(counted)d points : la grille de la séance fait foi.") % {
            "counted": counted
        }
    return message
