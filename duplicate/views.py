import datetime
import functools

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from clubsite.actions import object_action
from clubsite.models import Club
from scoring.boards import board_rows
from scoring.engine.tracking import track
from scoring.views import grid_page

from . import exports, services
from .boards import TopBoardStore
from .forms import AgainForm, PlayerForm, PlayersForm, ResultForm, SeasonForm, SessionForm, TournamentForm
from .models import ExportJob, Player, Result, Round, Season, Session, Tournament
from .recap import player_recap as build_player_recap

EXPORT_LABELS = [("csv", "CSV"), ("xlsx", "XLSX"), ("federation", gettext_lazy("Fichier fédéral"))]


def _get_session_for_organiser(request, pk) -> Session:
    """The session if the member runs it; 403 for someone who may read it (a member of its club, a player);
    404 for anyone else, another club's organiser included, as for an id that does not exist."""
    sessions = Session.objects.visible_to(request.user).select_related("club", "edition", "rule_set")
    session = get_object_or_404(sessions, pk=pk)
    if not session.is_organiser(request.user):
        raise PermissionDenied(_("Seuls les organisateurs de la séance la mènent."))
    return session


def _nearest(wanted: int | None, numbers: list[int]) -> int | None:
    """The move ?coup=N asks for, brought within the moves there are (past the last: the last); the first when
    it names none."""
    if not numbers:
        return None
    if wanted is None:
        return numbers[0]
    return min(max(wanted, numbers[0]), numbers[-1])


def _get_player_for_recap(request, pk, player_pk) -> Player:
    """A player of the session whose recap the member may read (his own seat, or any in a session he runs), his
    session loaded; 404 for anyone else, as for an id that does not exist."""
    players = Player.objects.recap_readable_by(request.user).select_related(
        "session", "session__club", "session__edition", "session__rule_set"
    )
    player = get_object_or_404(players, pk=player_pk)
    if player.session_id != pk:  # compared here: an id beyond the column would reach the database's integer
        raise Http404
    return player


def _get_player_by_key(key) -> tuple[Player, Round | None]:
    """A player's own page is reached through his personal link (or from his account): the player, his session
    loaded, and the move being played."""
    found = Player.objects.by_key(key)
    if found is None:
        raise Http404
    return found


@login_required
@require_safe
def session_list(request):
    # A room of his ahead of another of his rooms in the same simultané is listed without its link (it is sealed).
    sealed = Session.objects.sealed_from(request.user).filter(pk=OuterRef("pk"))
    organised = (
        Session.objects.organised_by(request.user)
        .filter(automatic=False)
        .annotate(sealed=Exists(sealed))
        .select_related("club")
    )
    played = (
        Player.objects.filter(member=request.user, session__automatic=False)
        .select_related("session")
        .order_by("-session__date")
    )
    # His games alone against the tops (automatic games and replays), apart: he neither runs nor joins a room there.
    alone = (
        Player.objects.filter(member=request.user, session__automatic=True)
        .select_related("session__replay_of")
        .order_by("-session__date", "-session__pk")
    )
    # The sessions of his clubs a member may review (their recap), besides those he runs or plays in; the rooms of
    # his federation body's simultanés are listed on their simultané's page.
    clubs = (
        Session.objects.visible_to(request.user)
        .filter(club__in=Club.objects.for_user(request.user))
        .exclude(pk__in=organised.values("pk"))
        .exclude(pk__in=played.values("session"))
        .select_related("club")[:50]
    )
    context = {"organised": organised, "played": played, "alone": alone, "clubs": clubs}
    return render(request, "duplicate/list.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def session_new(request):
    form = SessionForm(request.user, request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            session = services.session_create(
                creator=request.user,
                club=data["club"],
                name=data["name"],
                date=data["date"],
                edition=data["edition"],
                rule_set=data["rule_set"],
                move_seconds=data["move_seconds"],
                entry=data["entry"],
                automatic=data["automatic"],
                players=services.parse_player_lines(data["players"]),
                game=data["game"],
            )
        except services.DuplicateError as error:
            for sentence in error.sentences():
                form.add_error("players", sentence)
        else:
            messages.success(request, _created(session, data["game"]))
            if session.automatic:
                return redirect("duplicate:player", key=session.players.first().key)
            return redirect("duplicate:session", pk=session.pk)
    return render(request, "duplicate/new.html", {"form": form}, status=400 if form.errors else 200)


def _created(session, game) -> str:
    if not game:
        return _("Séance « %(name)s » créée.") % {"name": session.name}
    return ngettext(
        "Séance « %(name)s » créée avec le coup du fichier.",
        "Séance « %(name)s » créée avec les %(count)d coups du fichier.",
        len(game),
    ) % {"name": session.name, "count": len(game)}


def _session_context(request, session, **extra):
    rows, tops_total = services.ranking(session)
    position = services.position(session)
    current = session.current_round()
    # ?coup=N shows an earlier move's results to correct them; the current move's otherwise.
    wanted = _query_int(request, "coup")
    entry_round = next((r for r in position.rounds if r.number == wanted and r.top), None) or current
    results = {}
    if entry_round:
        results = {result.player_id: result for result in entry_round.results.all()}
    players = list(session.players.all())
    return {
        "board_rows": board_rows(position.board),
        "tracking": track(session.edition_engine, [tile for _index, tile in position.board.tiles()]),
        "session": session,
        "rounds": position.rounds,
        "current": current,
        "entry_round": entry_round,
        "again_name": _next_name(session.name),
        "players": [(player, results.get(player.pk)) for player in players],
        "untabled": any(player.table is None for player in players),
        "phase": session.phase(current, timezone.now()),
        "now": timezone.now(),
        "bulletins": services.bulletins(entry_round, players, results) if entry_round else None,
        "ranking": rows,
        "tops_total": tops_total,
        "position": position,
        "export_kinds": EXPORT_LABELS,
        # A session playing a game, past its last move: "Terminer la séance" rather than a draw that cannot come.
        "game_over": session.plays_a_game
        and services.scripted_round(session, (current.number if current else 0) + 1) is None,
        "managing_players": request.GET.get("gerer") == "joueurs",
        **extra,
    }


@login_required
@require_safe
def session_game(request, pk):
    """ "Fichier de partie": the session's game as JSON (README), for another club or another session to play."""
    session = get_object_or_404(Session.objects.visible_to(request.user).select_related("edition", "rule_set"), pk=pk)
    document = services.game_document(session)
    response = JsonResponse(document, json_dumps_params={"ensure_ascii": False, "indent": 1})
    name = f"{exports.file_slug(f'{session.date:%Y-%m-%d} {session.name}') or f'seance-{session.pk}'}-partie.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_safe
def session_detail(request, pk):
    session = get_object_or_404(Session.objects.visible_to(request.user), pk=pk)
    if not session.is_organiser(request.user):
        # A member of the club or a player reviews the session: he reads its recap, he does not run it.
        return redirect("duplicate:recap", pk=session.pk)
    session = _get_session_for_organiser(request, pk)
    return render(request, "duplicate/session.html", _session_context(request, session))


# The console's field beside which a refused action says why, with what was typed kept in it.
REFUSAL_FIELDS = {
    "round_top": "top",
    "round_add": "draw",
    "timer": "timer",
    "round_cancel": "timer",
    "player_edit": "player",
    "players_add": "players",
}


def _refused(request, session, message, status=400):
    """A refused action: the session's page again with the reason beside the field concerned, nothing written."""
    field = REFUSAL_FIELDS.get(getattr(request.resolver_match, "url_name", ""), "")
    typed = {"top": request.POST.get("top", "")[:40], "draw": request.POST.get("draw", "")[:40]}
    if field == "players":  # the pasted list comes back to be corrected, not to be pasted again
        typed["players"] = request.POST.get("players", "").replace("\x00", "")
    if field == "player":
        # The player's row keeps what was typed in it (a NUL character, which no page shows, left out).
        posted = {key: request.POST.get(key, "")[:200].replace("\x00", "") for key in PlayerForm.base_fields}
        # Named as the player's own fields, so that his row draws either.
        typed["player"] = {**posted, "club_name": posted["club"], "pk": request.resolver_match.kwargs["player_pk"]}
    context = _session_context(request, session, error=message, error_field=field, typed=typed)
    return render(request, "duplicate/session.html", context, status=status)


_organiser_action = object_action(
    load=_get_session_for_organiser, refusal=services.DuplicateError, refused=_refused, page="duplicate:session"
)


def _valid(form) -> dict:
    """The form's values, or its first error as the action's refusal: each field's message says what it expects."""
    if not form.is_valid():
        raise services.DuplicateError(next(iter(form.errors.values()))[0])
    return form.cleaned_data


@_organiser_action
def players_add(request, session):
    rows = services.parse_player_lines(_valid(PlayersForm(request.POST))["players"])
    if not rows:
        raise services.DuplicateError(_("Collez au moins un joueur."))
    services.players_add(session=session, rows=rows, by=request.user)
    messages.success(
        request, ngettext("%(count)d joueur ajouté.", "%(count)d joueurs ajoutés.", len(rows)) % {"count": len(rows)}
    )


@_organiser_action
def player_edit(request, session, player_pk):
    """Rename a player, change his table, declare him absent (forfait), or correct his licence, club and series."""
    player = get_object_or_404(Player, session=session, pk=player_pk)
    services.player_update(player=player, **_valid(PlayerForm(request.POST)), by=request.user)
    messages.success(request, _("%(name)s : modifications enregistrées.") % {"name": player.name})
    return _back_to_managing_players(session)


@_organiser_action
def player_remove(request, session, player_pk):
    player = get_object_or_404(Player, session=session, pk=player_pk)
    services.player_remove(player=player, by=request.user)
    messages.success(request, _("%(name)s est retiré de la séance.") % {"name": player.name})
    return _back_to_managing_players(session)


def _back_to_managing_players(session):
    """The console with "Gérer les joueurs" kept open (?gerer=joueurs), scrolled to it, the message said there:
    the arbiter corrects one player after another."""
    return redirect(f"{reverse('duplicate:session', args=[session.pk])}?gerer=joueurs#gerer-joueurs")


@_organiser_action
def round_add(request, session):
    """A new move: "Tirer" lets the server draw; a typed draw comes from a bag or a pre-drawn game."""
    action = request.POST.get("action", "")
    # "Tirer" draws on the server whatever the box holds (a refused typed draw left in it, say).
    draw_text = "" if action == "server" else request.POST.get("draw", "").strip()
    if action == "typed" and not draw_text:
        raise services.DuplicateError(_("Tapez le tirage, ou « Tirer » pour que le serveur tire."))
    round_ = services.round_add(
        session=session,
        draw_text=draw_text or None,
        top_text=request.POST.get("top", ""),
        by=request.user,
    )
    services.timer_start(session=session)
    messages.success(request, _("Coup %(number)d : tirage %(draw)s.") % {"number": round_.number, "draw": round_.draw})


@_organiser_action
def round_cancel(request, session, number):
    """ "Annuler ce tirage": a draw typed by mistake, before anything depends on it."""
    round_ = get_object_or_404(Round, session=session, number=number)
    services.round_cancel(round_=round_, by=request.user)
    messages.success(request, _("Le coup %(number)d est annulé.") % {"number": number})


@_organiser_action
def round_top(request, session, number):
    """Place the top typed, or "Révéler le top de la partie": the game's top, for a session playing a game."""
    round_ = get_object_or_404(Round, session=session, number=number)
    if request.POST.get("action") == "reveal":
        services.round_reveal_top(round_=round_, by=request.user)
    else:
        services.round_set_top(round_=round_, top_text=request.POST.get("top", ""), by=request.user)
    messages.success(
        request,
        _("Top du coup %(number)d : %(top)s, %(score)d points.")
        % {"number": round_.number, "top": round_.top, "score": round_.top_score},
    )
    for player in getattr(round_, "taken_back", []):
        messages.warning(
            request,
            _("Le bulletin de %(name)s dépassait le top : il est repris, à vérifier et saisir de nouveau.")
            % {"name": player.name},
        )


@_organiser_action
def result_enter(request, session, number, player_pk):
    """The arbiter enters a bulletin: a score or the move played, and marks (zero, avertissement, pénalité)."""
    round_ = get_object_or_404(Round, session=session, number=number)
    player = get_object_or_404(Player, session=session, pk=player_pk)
    note = ""
    try:
        data = _valid(ResultForm(request.POST))
        if "score" in request.POST and data["score"] is None and not data["move"].strip():
            # Both boxes emptied: the bulletin the row showed is taken back. A row that showed none takes nothing
            # back, even if a score came in meanwhile (a phone, another console): the row shows it instead.
            current = round_.results.exclude(score=None).filter(player=player).first()
            if data["saved_score"] is None:
                if current is not None:
                    raise services.Conflict(
                        _("%(name)s a déjà %(score)d (envoyé depuis son téléphone ou une autre console).")
                        % {"name": player.name, "score": current.score}
                    )
                raise services.DuplicateError(_("Tapez un score ou un coup."))
            services.result_clear(round_=round_, player=player, by=request.user)
            note = _("Bulletin effacé.")
        with transaction.atomic():  # a refused mark leaves the bulletin's score as it was
            _enter_result(data, round_, player, by=request.user)
            if data["warning"] is not None or data["penalty"] is not None or data["zero"]:
                services.result_mark(
                    round_=round_,
                    player=player,
                    zero=data["zero"],
                    warning=data["warning"],
                    penalty=data["penalty"],
                    by=request.user,
                )
    except services.DuplicateError as error:
        if not request.htmx:
            raise
        # The row again with the reason beside the score, and what was typed kept in its box; after a conflict,
        # what the server holds.
        typed = request.POST
        if isinstance(error, services.Conflict):
            held = round_.results.filter(player=player).first()
            typed = {"score": "" if held is None or held.score is None else held.score, "move": ""}
        context = {"typed": typed, "row_error": str(error)}
        return _result_row(request, session, round_, player, status=error.status, **context)
    if not request.htmx:
        if note:
            messages.success(request, f"{player.name} : {note}")
        return None
    row = _result_row(request, session, round_, player, row_note=note)
    count = {"session": session, "entry_round": round_, "bulletins": services.bulletins(round_), "oob": True}
    row.content += render(request, "duplicate/session.html#bulletin-count", count).content
    return row


@_organiser_action
def bulletin_enter(request, session, number):
    """A bulletin at the keyboard: table, score or move, Enter. The page's script clears the form at once for the
    next bulletin and sends this one on its own; the answer is one line for the entry log, with the player's row
    and the count of bulletins redrawn."""
    round_ = get_object_or_404(Round, session=session, number=number)
    table, entry = request.POST.get("table", "")[:10], request.POST.get("entry", "")[:40]
    context = {
        "session": session,
        "entry_round": round_,
        "table": table,
        "table_is_number": table.strip().isascii() and table.strip().isdigit(),
        "entry": entry,
    }
    try:
        player, result = services.bulletin_enter(round_=round_, table=table, entry=entry, by=request.user)
    except services.DuplicateError as error:
        if not request.htmx:
            raise
        context["bulletin_error"] = str(error)
        return render(request, "duplicate/session.html#bulletin-line", context, status=error.status)
    if not request.htmx:
        return None
    done = _("%(name)s : %(score)d.") % {"name": player.name, "score": result.score}
    if player.table is not None:
        done = _("Table %(table)s, %(name)s : %(score)d.") % {
            "table": player.table,
            "name": player.name,
            "score": result.score,
        }
    context |= {"bulletin_done": done, "player": player, "result": result, "oob": True}
    context["bulletins"] = services.bulletins(round_)
    line, count, row = (
        render(request, f"duplicate/session.html#{name}", context).content.decode()
        for name in ("bulletin-line", "bulletin-count", "result-row")
    )
    # A table row cannot stand alone in HTML: htmx takes it out of a <template>.
    return HttpResponse(f"{line}{count}<template>{row}</template>")


@login_required
@require_safe
def console_poll(request, pk, number):
    """The console follows what the players send from their phones (and a second arbiter types): polled every
    3 s, 204 while the session has not changed and no result of the move was written since the last poll;
    otherwise the count of bulletins and the rows changed since then, which the page swaps in unless the arbiter
    is typing in them. The bulletins of the move being played do not bump the session's version: their rows'
    times say they came."""
    session = _get_session_for_organiser(request, pk)
    since = _query_int(request, "depuis", digits=10)  # a time in seconds
    # A few seconds of margin: the web processes' clocks may differ a little.
    changed = Result.objects.filter(round__session=session, round__number=number)
    if since is not None:
        changed = changed.filter(updated_at__gte=datetime.datetime.fromtimestamp(since - 5, tz=datetime.UTC))
    if request.GET.get("v") == str(session.version) and (since is None or not changed.exists()):
        return HttpResponse(status=204)
    round_ = get_object_or_404(Round, session=session, number=number)
    context = {"session": session, "entry_round": round_, "now": timezone.now()}
    parts = [render(request, "duplicate/session.html#console-poll", context).content.decode()]
    count = {**context, "bulletins": services.bulletins(round_), "oob": True}
    parts.append(render(request, "duplicate/session.html#bulletin-count", count).content.decode())
    for result in changed.select_related("player")[:500]:
        row = {**context, "player": result.player, "result": result, "oob": True}
        parts.append(
            f"<template>{render(request, 'duplicate/session.html#result-row', row).content.decode()}</template>"
        )
    return HttpResponse("".join(parts))


def _result_row(request, session, round_, player, status=200, **extra):
    result = round_.results.filter(player=player).first()
    context = {"session": session, "entry_round": round_, "player": player, "result": result, **extra}
    return render(request, "duplicate/session.html#result-row", context, status=status)


def _enter_result(data, round_, player, by=None):
    """A bulletin's score or move (a `ResultForm`'s values); `by` the arbiter who typed it, None when the player
    sent it from his page."""
    move = data["move"].strip()
    if move:
        services.check_notation(round_.session, move)  # "abc" is a slip to correct, refused as at the keyboard
        # A bulletin with both says the same twice: when the two disagree, the arbiter checks it. A score box that
        # still holds the score saved before was not written on this bulletin.
        written = data["score"] if data["score"] != data["saved_score"] else None
        services.result_set(round_=round_, player=player, move=move, written=written, by=by)
    elif data["score"] is not None:
        services.result_set(round_=round_, player=player, score=data["score"], by=by)


@_organiser_action
def timer_start(request, session):
    current = session.current_round()
    if current is None:
        raise services.DuplicateError(_("Faites d'abord le tirage du premier coup."))
    if current.top:
        raise services.Conflict(_("Le top est révélé : le temps de ce coup est fini."))
    services.timer_start(session=session)
    messages.success(
        request,
        _("Chrono lancé : %(time)s pour le coup %(number)d.") % {"time": session.move_time, "number": current.number},
    )


@_organiser_action
def session_finish(request, session):
    services.session_finish(session=session, by=request.user)
    messages.success(request, _("La séance est terminée : rien n'y change plus sans « Rouvrir la séance »."))


@_organiser_action
def session_reopen(request, session):
    services.session_reopen(session=session, by=request.user)
    messages.success(request, _("La séance est rouverte ; la réouverture est notée dans l'historique."))


@login_required
@require_safe
def session_history(request, pk):
    """Every change of the session, newest first, for one player or one move when asked (?joueur=, ?coup=)."""
    session = _get_session_for_organiser(request, pk)
    changes = session.changes.select_related("user", "player")
    player = session.players.filter(pk=_query_int(request, "joueur")).first()
    number = _query_int(request, "coup")
    if player:
        changes = changes.filter(player=player)
    if number:
        changes = changes.filter(round_number=number)
    context = {"session": session, "changes": changes[:500], "player": player, "number": number}
    return render(request, "duplicate/history.html", context)


def _next_name(name: str) -> str:
    """ "Mardi soir" → "Mardi soir (2)" → "Mardi soir (3)": the next session of the evening, told apart."""
    stem, _open, number = name.rpartition(" (")
    if stem and number.endswith(")") and number[:-1].isascii() and number[:-1].isdigit():
        return f"{stem} ({int(number[:-1]) + 1})"
    return f"{name} (2)"


def _query_int(request, name, digits=9) -> int | None:
    value = request.GET.get(name, "")
    return int(value) if value.isascii() and value.isdigit() and len(value) <= digits else None


@require_safe
def ranking_live(request, public_key):
    """The ranking for a projector, polled by htmx: 204 (nothing to swap) while the session has not changed."""
    session = get_object_or_404(Session, public_key=public_key)
    if request.htmx and request.GET.get("v") == str(session.version):
        return HttpResponse(status=204)
    # As on the room's screen, the moves closed only: the places do not move while bulletins come in.
    ranking = services.room_ranking(session)
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
    ranking = services.room_ranking(session)
    context = {
        "session": session,
        "current": current,
        "ranking": ranking.named(),
        "tops_total": ranking.tops_total,
        "closed": ranking.closed,
        **_room_board(session),
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


def _room_board(session) -> dict:
    """The grid the room's screens show, which their templates keep in the shared cache (`{% cache %}`) for each
    version of the session (every top placed bumps it): the tops are replayed and the grid drawn only then."""
    return {
        "board_rows": functools.partial(services.room_board, session),
        "board_seconds": settings.DUPLICATE_ROOM_CACHE_SECONDS,
    }


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
    player, current = _get_player_by_key(key)
    session = player.session
    now = timezone.now()
    if request.method == "GET" and request.htmx and request.GET.get("etat") == _player_stamp(session, current, now):
        return HttpResponse(status=204)
    error, error_field, status = "", "", 200
    if request.method == "POST":
        try:
            _player_action(request, session, current, player)
        except services.DuplicateError as caught:
            error, status = str(caught), caught.status
            if current is not None and not session.player_entry_refusal(current, now, current=current):
                # The move is still open: the score or the move typed is what was wrong; it stays in its box.
                error_field = "move" if request.POST.get("move", "").strip() else "score"
        else:
            if not request.htmx:
                return redirect("duplicate:player", key=key)
            if session.automatic:  # its top revealed, or its next move drawn: read again
                player, current = _get_player_by_key(key)
                session, now = player.session, timezone.now()
    context = _player_context(session, player, current, now)
    context |= {
        "error": error,
        "error_field": error_field,
        "typed": {"score": request.POST.get("score", "")[:10], "move": request.POST.get("move", "")[:40]},
    }
    template = "duplicate/player.html#live" if request.htmx else "duplicate/player.html"
    return render(request, template, context, status=status)


def _player_context(session, player, current, now) -> dict:
    rounds = Round.objects.with_result_of(player)
    current_result = next((result for round_, result in rounds if current and round_.pk == current.pk), None)
    ranking = services.room_ranking(session)
    return {
        "session": session,
        "player": player,
        "row": ranking.row_of(player),
        "in_progress": current if ranking.closed is not None else None,
        "rounds": rounds,
        "current": current,
        "current_result": current_result,
        "against_top": _against_top(current, current_result),
        "entry_refusal": session.player_entry_refusal(current, now, current=current) if current else "",
        "phase": session.phase(current, now),
        "stamp": _player_stamp(session, current, now),
        **_room_board(session),
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
        "replay_over": session.finished_at is None and services.replay_is_over(session),
        "standing": services.replay_standing(session),
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
            services.round_reveal_top(round_=current)
        if session.replay_of_id and services.replay_is_over(session):
            services.session_finish(session=session)  # its place in the room follows
            return
        services.round_add(session=session)
        services.timer_start(session=session)
        return
    if not session.players_enter_scores or current is None:
        raise PermissionDenied(_("Dans cette séance, l'arbitre saisit les scores."))
    if session.automatic and action == "reveal":
        services.round_reveal_top(round_=current)
        return
    if session.finished_at:
        raise services.SessionClosed(_("La séance est terminée : les scores ne changent plus."))
    refusal = session.player_entry_refusal(current, timezone.now(), current=current)
    if refusal:
        raise services.DuplicateError(refusal)
    data = _valid(ResultForm(request.POST))
    if data["score"] is None and not data["move"].strip():
        raise services.DuplicateError(_("Tapez votre score, ou votre coup comme « H4 VAGUE »."))
    if session.automatic:
        services.automatic_entry_check(current, score=data["score"], move=data["move"].strip())
    _enter_result(data, current, player)
    if session.automatic:
        services.round_reveal_top(round_=current)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def export(request, pk, kind):
    """A small session's file comes at once. A large one's is built by a worker: a GET shows the button, which
    POSTs to start the job (or find the one already built from the same results) and follow its progress."""
    session = _get_session_for_organiser(request, pk)
    if kind not in exports.KINDS:
        raise Http404
    if services.export_inline(session):
        return exports.response(session, kind)
    if request.method in ("GET", "HEAD"):
        return render(request, "duplicate/export_job.html", _export_context(session, kind, job=None))
    try:
        job = services.export_request(session=session, kind=kind, user=request.user)
    except services.ExportUnavailable as error:
        context = _export_context(session, kind, job=None) | {"unavailable": str(error)}
        return render(request, "duplicate/export_job.html", context, status=503)
    if job is None:  # no worker to be reached, the file built here instead
        return exports.response(session, kind)
    return redirect("duplicate:export_job", pk=session.pk, job_pk=job.pk)


@login_required
@require_safe
def export_job(request, pk, job_pk):
    session = _get_session_for_organiser(request, pk)
    services.export_mark_stuck(session.export_jobs.filter(pk=job_pk))
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
    session = _get_session_for_organiser(request, pk)
    job = get_object_or_404(ExportJob, session=session, pk=job_pk, status=ExportJob.Status.DONE)
    content_type, _extension = exports.KINDS[job.kind]
    response = HttpResponse(bytes(job.content), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{exports.filename(session, job.kind)}"'
    return response


@_organiser_action
def session_again(request, session):
    form = AgainForm(request.POST)
    if form.has_error("name", "hidden_character"):
        raise services.DuplicateError(form.errors["name"][0])
    if not form.is_valid():
        raise services.DuplicateError(_("Donnez un nom et une date à la nouvelle séance."))
    copy = services.session_again(session=session, creator=request.user, **form.cleaned_data)
    messages.success(request, _("Nouvelle séance avec les mêmes joueurs."))
    return redirect("duplicate:session", pk=copy.pk)


def _get_tournament_for_organiser(request, pk) -> Tournament:
    """The tournament if the member runs it; 403 for someone who may know of it; 404 for anyone else."""
    tournament = get_object_or_404(Tournament.objects.visible_to(request.user).select_related("club"), pk=pk)
    if not Tournament.objects.organised_by(request.user).filter(pk=tournament.pk).exists():
        raise PermissionDenied(_("Seuls les organisateurs du tournoi le consultent."))
    return tournament


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_list(request):
    form = TournamentForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(
                name=form.cleaned_data["name"], creator=request.user, sessions=form.cleaned_data["sessions"]
            )
        except services.DuplicateError as error:
            form.add_error("sessions", str(error))
        else:
            return redirect("duplicate:tournament", pk=tournament.pk)
    context = {"form": form, "tournaments": Tournament.objects.organised_by(request.user)}
    return render(request, "duplicate/tournaments.html", context, status=400 if form.errors else 200)


@login_required
@require_safe
def tournament_detail(request, pk):
    tournament = _get_tournament_for_organiser(request, pk)
    ranking = services.tournament_ranking(tournament, reader=request.user)
    kind = request.GET.get("export")
    if kind:
        if kind not in exports.KINDS:
            raise Http404
        content_type, extension = exports.KINDS[kind]
        content = exports.tournament_build(ranking, kind, tournament.name)
        response = HttpResponse(content, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="tournoi-{tournament.pk}-{kind}.{extension}"'
        return response
    return render(request, "duplicate/tournament.html", {"tournament": tournament, "ranking": ranking})


def _get_season_for_member(request, pk) -> Season:
    """The season if the member belongs to its club; 404 for anyone else, as for an id that does not exist."""
    return get_object_or_404(Season.objects.visible_to(request.user).select_related("club"), pk=pk)


def _get_season_for_organiser(request, pk) -> Season:
    """The season if the member runs its club; 403 for the club's other members; 404 for anyone else."""
    season = _get_season_for_member(request, pk)
    if not season.club.is_organiser(request.user):
        raise PermissionDenied(_("Seuls les organisateurs du club gèrent ses saisons."))
    return season


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_list(request):
    """The seasons of the member's clubs, and a new one's form for the clubs he organises."""
    organises = Club.objects.organised_by(request.user).exists()
    form = SeasonForm(request.user, request.POST or None) if organises else None
    if request.method == "POST":
        if form is None:
            raise PermissionDenied(_("Seuls les organisateurs d'un club créent ses saisons."))
        if form.is_valid():
            return redirect("duplicate:season", pk=form.save().pk)
    seasons = Season.objects.visible_to(request.user).select_related("club")
    status = 400 if form is not None and form.errors else 200
    return render(request, "duplicate/seasons.html", {"form": form, "seasons": seasons}, status=status)


@login_required
@require_safe
def season_detail(request, pk):
    season = _get_season_for_member(request, pk)
    standing = services.season_ranking(season, reader=request.user)
    kind = request.GET.get("export")
    if kind:
        if kind not in exports.SEASON_KINDS:
            raise Http404
        response = HttpResponse(exports.season_build(season, standing, kind), content_type=exports.KINDS[kind][0])
        response["Content-Disposition"] = f'attachment; filename="{exports.season_filename(season, kind)}"'
        return response
    context = {"season": season, "standing": standing, "organiser": season.club.is_organiser(request.user)}
    return render(request, "duplicate/season.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_edit(request, pk):
    season = _get_season_for_organiser(request, pk)
    form = SeasonForm(request.user, request.POST or None, instance=season)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Saison enregistrée."))
        return redirect("duplicate:season", pk=season.pk)
    context = {"season": season, "form": form}
    return render(request, "duplicate/season_edit.html", context, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_delete(request, pk):
    """Deleting a season deletes only its ranking: its sessions stay."""
    season = _get_season_for_organiser(request, pk)
    if request.method in ("GET", "HEAD"):
        return redirect("duplicate:season_edit", pk=season.pk)
    season.delete()
    messages.success(request, _("Saison « %(name)s » supprimée.") % {"name": season.name})
    return redirect("duplicate:seasons")


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def top_grid(request, pk):
    session = _get_session_for_organiser(request, pk)
    return grid_page(request, TopBoardStore(session, by=request.user, player_pk=request.POST.get("player")))


SHEET_PAGE_PLAYERS = 20


@login_required
@require_safe
def session_sheet(request, pk):
    """The whole game as seed 000's duplicate sheet, a line a move and a column a player (20 a page): any cell
    of any move can be corrected; totals, solos and places follow."""
    session = get_object_or_404(Session.objects.visible_to(request.user), pk=pk)
    if not session.is_organiser(request.user):
        return redirect("duplicate:recap", pk=session.pk)  # a member reads the recap; he corrects nothing
    session = _get_session_for_organiser(request, pk)
    return render(request, "duplicate/sheet.html", _sheet_context(request, session))


def _sheet_context(request, session, **extra):
    sheet = services.game_sheet(session, reader=request.user)
    pages = max(1, -(-len(sheet.columns) // SHEET_PAGE_PLAYERS))
    page = min(max(_query_int(request, "joueurs") or 1, 1), pages)
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
        "pages": range(1, pages + 1) if pages > 1 else (),
        **extra,
    }


@_organiser_action
def sheet_cell(request, session, number, player_pk):
    """One cell of the game's sheet: the score or the move of a player on a move, whichever move it is."""
    round_ = get_object_or_404(Round, session=session, number=number)
    player = get_object_or_404(Player, session=session, pk=player_pk)
    entry = request.POST.get("entry", "")[:40]
    try:
        if not entry.strip() and services.result_clear(round_=round_, player=player, by=request.user):
            # A cell emptied takes back the bulletin typed by mistake.
            done = _("Coup %(number)d, %(name)s : bulletin effacé.") % {"number": number, "name": player.name}
            return _sheet_done(request, session, done)
        result = services.entry_enter(round_=round_, player=player, entry=entry, by=request.user)
    except services.DuplicateError as error:
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
        return redirect(
            f"{reverse('duplicate:sheet', args=[session.pk])}?joueurs={_query_int(request, 'joueurs') or 1}"
        )
    return render(request, "duplicate/sheet.html#sheet", _sheet_context(request, session, sheet_done=done))


@login_required
@require_POST
def session_replay(request, pk):
    """ "Rejouer cette séance": whoever may read a finished session plays its draws again, alone against its tops,
    on a page of his own (a personal automatic game)."""
    source = get_object_or_404(
        Session.objects.visible_to(request.user).select_related("club", "edition", "rule_set"), pk=pk
    )
    try:
        replay = services.session_replay(source=source, creator=request.user)
    except services.DuplicateError as error:
        return _recap(request, source, replay_error=str(error), status=409)
    return redirect("duplicate:player", key=replay.players.get().key)


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
    sheet = services.game_sheet(session, reader=request.user)
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
@require_safe
def player_recap(request, pk, player_pk):
    """One player's recap: each move's draw and top beside his move and score, his running total and percentage
    of the tops, solos, avertissements and penalties, his place; the board replayed move by move (?coup=N, the
    page's script switching moves in place); a chart of his percentage beside the room's average and the
    winner's. While the session is played, the moves closed only, as the room's screens count them."""
    player = _get_player_for_recap(request, pk, player_pk)
    recap = build_player_recap(player.session, player)
    numbers = [row.round.number for row in recap.rows]
    wanted = _query_int(request, "coup")
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
