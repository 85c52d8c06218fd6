"""The game on paper: the organiser's sheet (a line a move, a column a player, any cell corrected), the recap
whoever may see the session reads or prints, a player's own recap, and playing a finished session again."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from ..errors import DuplicateError
from ..models import Player, Round, Session
from ..recap import player_recap as build_player_recap
from ..services import replays, results
from ..services import sheet as sheet_services
from .access import get_player_for_recap, get_session_for_organiser
from .console import organiser_action
from .inputs import query_int, query_page

SHEET_PAGE_PLAYERS = 20


@login_required
@require_safe
def session_sheet(request, pk):
    """The whole game as seed 000's duplicate sheet, a line a move and a column a player (20 a page): any cell
    of any move can be corrected; totals, solos and places follow."""
    session = get_object_or_404(Session.objects.visible_to(request.user), pk=pk)
    if not session.is_organiser(request.user):
        return redirect("duplicate:recap", pk=session.pk)  # a member reads the recap; he corrects nothing
    session = get_session_for_organiser(request, pk)
    return render(request, "duplicate/sheet.html", _sheet_context(request, session))


def _sheet_context(request, session, **extra):
    sheet = sheet_services.game_sheet(session, reader=request.user)
    page, pages = query_page(request, "joueurs", len(sheet.columns), SHEET_PAGE_PLAYERS)
    columns = sheet.columns[(page - 1) * SHEET_PAGE_PLAYERS : page * SHEET_PAGE_PLAYERS]
    failed = extra.get("cell_error") or {}

    def cell(i, round_, column):
        refused = failed.get("number") == round_.number and failed.get("player") == column.player.pk
        _round, result, points = column.cells[i]
        return column, result, points, failed if refused else None

    lines = [(round_, [cell(i, round_, column) for column in columns]) for i, round_ in enumerate(sheet.rounds)]
    return {
        "session": session,
        "sheet": sheet,
        "columns": columns,
        "lines": lines,
        "page": page,
        "pages": pages,
        **extra,
    }


@organiser_action
def sheet_cell(request, session, number, player_pk):
    """One cell of the game's sheet: the score or the move of a player on a move, whichever move it is."""
    round_ = get_object_or_404(Round, session=session, number=number)
    player = get_object_or_404(Player, session=session, pk=player_pk)
    entry = request.POST.get("entry", "")[:40]
    try:
        if not entry.strip() and results.result_clear(round_=round_, player=player, by=request.user):
            # A cell emptied takes back the bulletin typed by mistake.
            done = _("Coup %(number)d, %(name)s : bulletin effacé.") % {"number": number, "name": player.name}
            return _sheet_done(request, session, done)
        result = results.entry_enter(round_=round_, player=player, entry=entry, by=request.user)
    except DuplicateError as error:
        # The sheet again, the refused cell keeping what was typed with the reason under it.
        cell_error = {"number": number, "player": player.pk, "typed": entry, "message": str(error)}
        context = _sheet_context(request, session, cell_error=cell_error)
        template = "duplicate/sheet.html#sheet" if request.htmx else "duplicate/sheet.html"
        return render(request, template, context, status=error.status)
    done = _("Coup %(number)d, %(name)s : %(score)d.") % {"number": number, "name": player.name, "score": result.score}
    return _sheet_done(request, session, done)


def _sheet_done(request, session, done):
    if not request.htmx:
        messages.success(request, done)
        return redirect(f"{reverse('duplicate:sheet', args=[session.pk])}?joueurs={query_int(request, 'joueurs') or 1}")
    return render(request, "duplicate/sheet.html#sheet", _sheet_context(request, session, sheet_done=done))


@login_required
@require_safe
def session_recap(request, pk):
    """The game's recap, to read or print on A4: each move's draw, top, square and score; each player's scores,
    marks, solos and place. Anyone who may see the session reads it: its organisers, its club, its players."""
    session = get_object_or_404(
        Session.objects.visible_to(request.user).select_related("club", "edition", "rule_set"), pk=pk
    )
    return _recap(request, session)


def _recap(request, session, replay_error="", status=200):
    sheet = sheet_services.game_sheet(session, reader=request.user)
    solo_names = {}
    for column in sheet.columns:
        for number in column.solo_numbers:
            solo_names[number] = column.player.name
    context = {
        "session": session,
        "sheet": sheet,
        "moves": [(round_, solo_names.get(round_.number)) for round_ in sheet.rounds],
        "is_organiser": session.is_organiser(request.user),
        # The players whose own recap the reader may open from his name: all of them for an organiser, his seat.
        "recap_links": set(
            Player.objects.recap_readable_by(request.user).filter(session=session).values_list("pk", flat=True)
        ),
        "replay_error": replay_error,
    }
    return render(request, "duplicate/recap.html", context, status=status)


@login_required
@require_POST
def session_replay(request, pk):
    """ "Rejouer cette séance": whoever may read a finished session plays its draws again, alone against its tops,
    on a page of his own (a personal automatic game)."""
    source = get_object_or_404(
        Session.objects.visible_to(request.user).select_related("club", "edition", "rule_set"), pk=pk
    )
    try:
        replay = replays.session_replay(source=source, creator=request.user)
    except DuplicateError as error:
        return _recap(request, source, replay_error=str(error), status=409)
    return redirect("duplicate:player", key=replay.players.get().key)


@login_required
@require_safe
def player_recap(request, pk, player_pk):
    """One player's recap: each move's draw and top beside his move and score, his running total and percentage
    of the tops, solos, avertissements and penalties, his place; the board replayed move by move (?coup=N, the
    page's script switching moves in place); a chart of his percentage beside the room's average and the
    winner's. While the session is played, the moves closed only, as the room's screens count them."""
    player = get_player_for_recap(request, pk, player_pk)
    recap = build_player_recap(player.session, player)
    numbers = [row.round.number for row in recap.rows]
    wanted = query_int(request, "coup")
    context = {
        "session": player.session,
        "player": player,
        "recap": recap,
        # The move the replay shows first: ?coup=N (the buttons' and the table's links without JavaScript).
        "shown_number": _nearest(wanted, numbers),
        "first_number": numbers[0] if numbers else None,
        "last_number": numbers[-1] if numbers else None,
        "is_organiser": player.session.is_organiser(request.user),
    }
    return render(request, "duplicate/player_recap.html", context)


def _nearest(wanted: int | None, numbers: list[int]) -> int | None:
    """The move ?coup=N asks for, brought within the moves there are (past the last: the last); the first when
    it names none."""
    if not numbers:
        return None
    if wanted is None:
        return numbers[0]
    return min(max(wanted, numbers[0]), numbers[-1])
