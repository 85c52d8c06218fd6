"""The room's screens for a projector, reached by the session's public link with no account: the room's screen
(draw, timer, top, grid and ranking) and the live ranking alone."""

import functools

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.http import require_safe

from ..models import Session
from ..services import board, rankings


@require_safe
def ranking_live(request, public_key):
    """The ranking for a projector, polled by htmx: 204 (nothing to swap) while the session has not changed."""
    session = get_object_or_404(Session, public_key=public_key)
    if request.htmx and request.GET.get("v") == str(session.version):
        return HttpResponse(status=204)
    # As on the room's screen, the moves closed only: the places do not move while bulletins come in.
    ranking = rankings.room_ranking(session)
    context = {
        "session": session,
        "ranking": ranking.named(),
        "tops_total": ranking.tops_total,
        "rounds": ranking.moves,
        "in_progress": session.current_round() if ranking.closed is not None else None,
        "now": timezone.now(),
    }
    template = "duplicate/ranking.html#board" if request.htmx else "duplicate/ranking.html"
    return render(request, template, context)


@require_safe
def room(request, public_key):
    """The room's screen for a projector, full screen, polled by htmx (204 while nothing changed): the draw and
    the timer during a move, the top once revealed, the grid with the last top, and the ranking of the moves
    closed (a move closes when the next is drawn), which never moves while bulletins are being entered."""
    session = get_object_or_404(Session, public_key=public_key)
    if request.htmx and request.GET.get("v") == _room_stamp(session):
        return HttpResponse(status=204)
    current = session.current_round()
    ranking = rankings.room_ranking(session)
    context = {
        "session": session,
        "current": current,
        "ranking": ranking.named(),
        "tops_total": ranking.tops_total,
        "closed": ranking.closed,
        **room_board_context(session),
        "shown_top": current if current and current.top else None,
        "phase": session.phase(current, timezone.now()),
        "stamp": _room_stamp(session),
        "now": timezone.now(),
    }
    return render(request, "duplicate/room.html#room" if request.htmx else "duplicate/room.html", context)


def _room_stamp(session) -> str:
    """What the room's screen shows, in a few characters: the session's version, and whether the move's time has
    run out (the phase then changes with no write)."""
    expired = session.deadline is not None and timezone.now() > session.deadline
    return f"{session.version}.{int(expired)}"


def room_board_context(session) -> dict:
    """The grid the room's screens show, which their templates keep in the shared cache (`{% cache %}`) for each
    version of the session (every top placed bumps it): the tops are replayed and the grid drawn only then."""
    return {
        "board_rows": functools.partial(board.room_board, session),
        "board_seconds": settings.DUPLICATE_ROOM_CACHE_SECONDS,
    }
