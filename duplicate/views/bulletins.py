"""The bulletins of a move at the console: a player's row, the keyboard's table-and-score line, and the poll that
brings in what the players send from their phones."""

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from ..errors import Conflict, DuplicateError
from ..forms import ResultForm
from ..models import Player, Result, Round
from ..services import bulletins as bulletin_services
from ..services import results
from .access import get_session_for_organiser
from .console import console_url, organiser_action, page_context, players_page
from .inputs import query_int, valid_data


@organiser_action
def result_enter(request, session, number, player_pk):
    """The arbiter enters a bulletin: a score or the move played, and marks (zero, avertissement, pénalité)."""
    round_ = get_object_or_404(Round, session=session, number=number)
    player = get_object_or_404(Player, session=session, pk=player_pk)
    note = ""
    try:
        data = valid_data(ResultForm(request.POST, max_penalty=session.rules_engine.max_penalty))
        if "score" in request.POST and data["score"] is None and not data["move"].strip():
            # Both boxes emptied: the bulletin the row showed is taken back. A row that showed none takes nothing
            # back, even if a score came in meanwhile (a phone, another console): the row shows it instead.
            current = round_.results.exclude(score=None).filter(player=player).first()
            if data["saved_score"] is None:
                if current is not None:
                    raise Conflict(
                        _("%(name)s a déjà %(score)d (envoyé depuis son téléphone ou une autre console).")
                        % {"name": player.name, "score": current.score}
                    )
                raise DuplicateError(_("Tapez un score ou un coup."))
            results.result_clear(round_=round_, player=player, by=request.user)
            note = _("Bulletin effacé.")
        with transaction.atomic():  # a refused mark leaves the bulletin's score as it was
            enter_result(data, round_, player, by=request.user)
            if data["warning"] is not None or data["penalty"] is not None or data["zero"]:
                results.result_mark(
                    round_=round_,
                    player=player,
                    zero=data["zero"],
                    warning=data["warning"],
                    penalty=data["penalty"],
                    by=request.user,
                )
    except DuplicateError as error:
        if not request.htmx:
            raise
        # The row again with the reason beside the score, and what was typed kept in its box; after a conflict,
        # what the server holds.
        typed = request.POST
        if isinstance(error, Conflict):
            held = round_.results.filter(player=player).first()
            typed = {"score": "" if held is None or held.score is None else held.score, "move": ""}
        context = {"typed": typed, "row_error": str(error)}
        return _result_row(request, session, round_, player, status=error.status, **context)
    if not request.htmx:
        if note:
            messages.success(request, f"{player.name} : {note}")
        return redirect(console_url(request, session))
    bulletins = bulletin_services.bulletins(round_)
    return _result_row(request, session, round_, player, answer="result-answer", row_note=note, bulletins=bulletins)


@organiser_action
def bulletin_enter(request, session, number):
    """A bulletin at the keyboard: table, score or move, Enter. The page's script clears the form at once for the
    next bulletin and sends this one on its own; the answer is one line for the entry log, with the player's row
    and the count of bulletins redrawn."""
    round_ = get_object_or_404(Round, session=session, number=number)
    table, entry = request.POST.get("table", "")[:10], request.POST.get("entry", "")[:40]
    context = {
        "session": session,
        "entry_round": round_,
        **page_context(query_int(request, "joueurs") or 1),
        "table": table,
        "table_is_number": table.strip().isascii() and table.strip().isdigit(),
        "entry": entry,
    }
    try:
        player, result = bulletin_services.bulletin_enter(round_=round_, table=table, entry=entry, by=request.user)
    except DuplicateError as error:
        if not request.htmx:
            raise
        context["bulletin_error"] = str(error)
        return render(request, "duplicate/session.html#bulletin-line", context, status=error.status)
    if not request.htmx:
        return redirect(console_url(request, session))
    done = _("%(name)s : %(score)d.") % {"name": player.name, "score": result.score}
    if player.table is not None:
        done = _("Table %(table)s, %(name)s : %(score)d.") % {
            "table": player.table,
            "name": player.name,
            "score": result.score,
        }
    context |= {"bulletin_done": done, "player": player, "result": result, "oob": True}
    context["bulletins"] = bulletin_services.bulletins(round_)
    return render(request, "duplicate/session.html#bulletin-answer", context)


@login_required
@require_safe
def console_poll(request, pk, number):
    """The console follows what the players send from their phones (and a second arbiter types): polled every
    3 s, 204 while the session has not changed and no result of the move was written since the last poll;
    otherwise the count of bulletins and the rows changed since then, which the page swaps in unless the arbiter
    is typing in them. The bulletins of the move being played do not bump the session's version: their rows'
    times say they came."""
    session = get_session_for_organiser(request, pk)
    since = query_int(request, "depuis", digits=10)  # a time in seconds
    # A few seconds of margin: the web processes' clocks may differ a little.
    changed = Result.objects.filter(round__session=session, round__number=number)
    if since is not None:
        changed = changed.filter(updated_at__gte=datetime.datetime.fromtimestamp(since - 5, tz=datetime.UTC))
    if request.GET.get("v") == str(session.version) and (since is None or not changed.exists()):
        return HttpResponse(status=204)
    round_ = get_object_or_404(Round, session=session, number=number)
    players = list(session.players.all())
    page, _pages, shown = players_page(request, players)
    context = {
        "session": session,
        "entry_round": round_,
        **page_context(page),
        "now": timezone.now(),
        "bulletins": bulletin_services.bulletins(round_, players),
        # The rows of the console's page only: the others are not on it.
        "changed": changed.filter(player__in=[player.pk for player in shown]).select_related("player"),
        "oob": True,
    }
    return render(request, "duplicate/session.html#poll-answer", context)


def _result_row(request, session, round_, player, status=200, answer="result-row", **extra):
    """The player's row as the server holds it, alone or in the `answer` partial that draws it with others."""
    result = round_.results.filter(player=player).first()
    page = page_context(query_int(request, "joueurs") or 1)
    context = {"session": session, "entry_round": round_, "player": player, "result": result, **page, **extra}
    return render(request, f"duplicate/session.html#{answer}", context, status=status)


def enter_result(data, round_, player, by=None):
    """A bulletin's score or move (a `ResultForm`'s values); `by` the arbiter who typed it, None when the player
    sent it from his page."""
    move = data["move"].strip()
    if move:
        # A bulletin with both says the same twice: when the two disagree, the arbiter checks it. A score box that
        # still holds the score saved before was not written on this bulletin.
        written = data["score"] if data["score"] != data["saved_score"] else None
        results.result_set(round_=round_, player=player, move=move, written=written, by=by)
    elif data["score"] is not None:
        results.result_set(round_=round_, player=player, score=data["score"], by=by)
