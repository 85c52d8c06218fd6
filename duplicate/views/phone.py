"""A player's own page on his phone, reached by his personal link: the move, his entry, his place; in a game alone
against the tops (an automatic game, a replay), its buttons too."""

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from ninja.errors import Throttled

from clubsite import throttling

from ..errors import DuplicateError, SessionClosed
from ..forms import ResultForm
from ..models import Round
from ..services import rankings, replays, rounds, sessions
from .access import get_player_by_key
from .bulletins import enter_result
from .inputs import valid_data
from .room import room_board_context


@require_http_methods(["GET", "HEAD", "POST"])
def player_page(request, key):
    if request.method == "POST":
        # An entry and the page that answers it: a 503 while drawing the page takes the entry back.
        with transaction.atomic():
            return _player_page(request, key)
    return _player_page(request, key)


def _player_page(request, key):
    """A player's own page on his phone: the move's draw and phase, the timer, his entry while writing is open,
    then his score against the top; the grid; his total, gap and place as the room's screen shows them (the moves
    closed). It polls itself (htmx, every 3 s), and is redrawn only when the move's phase changes (204
    otherwise), so a score being typed is not wiped out. His entry sent from the page (htmx) is answered with the
    page's region; without JavaScript, with the page again."""
    player, current = get_player_by_key(key)
    session = player.session
    now = timezone.now()
    if request.method == "GET" and request.htmx and request.GET.get("etat") == _player_stamp(session, current, now):
        return HttpResponse(status=204)
    error, error_field, status = "", "", 200
    if request.method == "POST":
        try:
            _player_action(request, session, current, player)
        except Throttled as stopped:  # "Coup suivant" past the rate of draws: its top shown, no draw
            error, status = throttling.Refusal(stopped.wait), 429
        except DuplicateError as caught:
            error, status = str(caught), caught.status
            if current is not None and not session.player_entry_refusal(current, now, current=current):
                # The move is still open: the score or the move typed is what was wrong; it stays in its box.
                error_field = "move" if request.POST.get("move", "").strip() else "score"
        else:
            if not request.htmx:
                return redirect("duplicate:player", key=key)
            if session.automatic:  # its top revealed, or its next move drawn: read again
                player, current = get_player_by_key(key)
                session, now = player.session, timezone.now()
    context = _player_context(session, player, current, now)
    context |= {
        "error": error,
        "error_field": error_field,
        "typed": {"score": request.POST.get("score", "")[:10], "move": request.POST.get("move", "")[:40]},
    }
    template = "duplicate/player.html#live" if request.htmx else "duplicate/player.html"
    return throttling.answered(render(request, template, context, status=status), error)


def _player_context(session, player, current, now) -> dict:
    player_rounds = Round.objects.with_result_of(player)
    current_result = next((result for round_, result in player_rounds if current and round_.pk == current.pk), None)
    ranking = rankings.room_ranking(session)
    return {
        "session": session,
        "player": player,
        "row": ranking.row_of(player),
        "in_progress": current if ranking.closed is not None else None,
        "rounds": player_rounds,
        "current": current,
        "current_result": current_result,
        "against_top": _against_top(current, current_result),
        "entry_refusal": session.player_entry_refusal(current, now, current=current) if current else "",
        "phase": session.phase(current, now),
        "stamp": _player_stamp(session, current, now),
        **room_board_context(session),
        "now": now,
        **_replay_context(session),
    }


def _replay_context(session) -> dict:
    """A replay's page: the session it replays, whether its moves are all drawn (the button then ends the game),
    and at the end where the total would have ranked in the room."""
    if not session.replay_of_id:
        return {}
    return {
        "replayed": session.replay_of,
        "replay_over": session.finished_at is None and replays.replay_is_over(session),
        "standing": replays.replay_standing(session),
    }


def _player_stamp(session, current, now) -> str:
    """What the player's page shows of the move, in a few characters: it changes with a new draw, the timer, the
    deadline passing, the top, the end of the session (not with the other players' bulletins)."""
    if current is None:
        return f"0-{int(bool(session.finished_at))}"
    timer = int(session.timer_started_at.timestamp()) if session.timer_started_at else 0
    return "-".join(
        str(part)
        for part in (current.number, int(bool(current.top)), timer, session.phase(current, now)[0], current.top_score)
    )


def _against_top(current, result) -> dict | None:
    """The player's score on the move beside the top, once the top is revealed."""
    if current is None or current.top_score is None or result is None or result.score is None:
        return None
    return {"score": result.score, "top": current.top_score, "gap": result.score - current.top_score}


def _player_action(request, session, current, player):
    """A player's buttons: his score or move while the move is open for writing; in an automatic game also
    "Voir le top" (which closes it) and "Coup suivant"."""
    action = request.POST.get("action", "")
    if session.automatic and action == "next":
        if current and not current.top:
            rounds.round_reveal_top(round_=current)
        if session.replay_of_id and replays.replay_is_over(session):
            sessions.session_finish(session=session)  # its place in the room follows
            return
        rounds.round_add(session=session, before_search=lambda: throttling.count(request, "draw"))
        rounds.timer_start(session=session)
        return
    if not session.players_enter_scores or current is None:
        raise PermissionDenied(_("Dans cette séance, l'arbitre saisit les scores."))
    if session.automatic and action == "reveal":
        rounds.round_reveal_top(round_=current)
        return
    if session.finished_at:
        raise SessionClosed(_("La séance est terminée : les scores ne changent plus."))
    refusal = session.player_entry_refusal(current, timezone.now(), current=current)
    if refusal:
        raise DuplicateError(refusal)
    data = valid_data(ResultForm(request.POST, max_penalty=session.rules_engine.max_penalty))
    if data["score"] is None and not data["move"].strip():
        raise DuplicateError(_("Tapez votre score, ou votre coup comme « H4 VAGUE »."))
    if session.automatic:
        replays.automatic_entry_check(current, score=data["score"], move=data["move"].strip())
    enter_result(data, current, player)
    if session.automatic:
        rounds.round_reveal_top(round_=current)
