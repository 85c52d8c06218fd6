"""The arbiter's console, the session's page: the moves drawn and their tops, the timer, the bulletins and the
players; every organiser's action on it (`organiser_action`) answers a refusal with this page and the reason beside
the field concerned."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from ninja.errors import Throttled

from clubsite import throttling
from clubsite.actions import object_action
from scoring.boards import board_rows
from scoring.engine.tracking import track

from ..errors import Conflict, DuplicateError
from ..forms import PlayerForm
from ..models import Round, Session
from ..services import board, bulletins, rounds
from .access import get_session_for_organiser
from .exports import EXPORT_LABELS
from .inputs import query_int, query_page

# The players a page of the console draws (their bulletins, and their rows under "Gérer les joueurs"), ?joueurs=N: a
# room of 2,000 is twenty pages, each drawn in a fraction of a second, where the whole room took 10 s and 6.6 MB.
CONSOLE_PAGE_PLAYERS = 100


@login_required
@require_safe
def session_detail(request, pk):
    session = get_object_or_404(Session.objects.visible_to(request.user), pk=pk)
    if not session.is_organiser(request.user):
        # A member of the club or a player reviews the session: he reads its recap, he does not run it.
        return redirect("duplicate:recap", pk=session.pk)
    session = get_session_for_organiser(request, pk)
    return render(request, "duplicate/session.html", _session_context(request, session))


def _session_context(request, session, **extra):
    position = board.position(session)
    current = session.current_round()
    # ?coup=N shows an earlier move's results to correct them; the current move's otherwise.
    wanted = query_int(request, "coup")
    entry_round = next((r for r in position.rounds if r.number == wanted and r.top), None) or current
    results = {}
    if entry_round:
        results = {result.player_id: result for result in entry_round.results.all()}
    players = list(session.players.all())
    page, pages, shown = players_page(request, players)
    return {
        "board_rows": board_rows(position.board),
        "tracking": track(session.edition_engine, [tile for _index, tile in position.board.tiles()]),
        "session": session,
        "rounds": position.rounds,
        "current": current,
        "entry_round": entry_round,
        "again_name": _next_name(session.name),
        "players": [(player, results.get(player.pk)) for player in shown],
        **page_context(page),
        "pages": pages,
        "shown_from": (page - 1) * CONSOLE_PAGE_PLAYERS + 1,
        "shown_to": (page - 1) * CONSOLE_PAGE_PLAYERS + len(shown),
        "player_count": len(players),
        "untabled": any(player.table is None for player in players),
        "phase": session.phase(current, timezone.now()),
        "now": timezone.now(),
        "bulletins": bulletins.bulletins(entry_round, players, results) if entry_round else None,
        "tops_total": sum(round_.top_score for round_ in position.rounds if round_.top_score is not None),
        "position": position,
        "export_kinds": EXPORT_LABELS,
        # A session playing a game, past its last move: "Terminer la séance" rather than a draw that cannot come.
        "game_over": session.plays_a_game
        and rounds.scripted_round(session, (current.number if current else 0) + 1) is None,
        "managing_players": request.GET.get("gerer") == "joueurs",
        **extra,
    }


def players_page(request, players: list) -> tuple[int, range, list]:
    """The console's page of the session's `players` (all of them, in order) asked by ?joueurs=N: its number, the
    pages to link to, and the players it shows."""
    page, pages = query_page(request, "joueurs", len(players), CONSOLE_PAGE_PLAYERS)
    return page, pages, players[(page - 1) * CONSOLE_PAGE_PLAYERS : page * CONSOLE_PAGE_PLAYERS]


def page_context(page: int) -> dict:
    """What the console's rows need to post back to their page of players: its number, and `page_query`, what the
    forms' addresses carry to come back to it (nothing on the first page)."""
    return {"page": page, "page_query": f"?joueurs={page}" if page > 1 else ""}


def console_url(request, session, *, managing=False) -> str:
    """The console at the page of players the request came from (?joueurs=N); `managing`: with "Gérer les
    joueurs" kept open (?gerer=joueurs), scrolled to it."""
    query = {"gerer": "joueurs"} if managing else {}
    if (page := query_int(request, "joueurs") or 1) > 1:
        query["joueurs"] = page
    url = reverse("duplicate:session", args=[session.pk])
    if query:
        url = f"{url}?{urlencode(query)}"
    return f"{url}#gerer-joueurs" if managing else url


def _next_name(name: str) -> str:
    """ "Mardi soir" → "Mardi soir (2)" → "Mardi soir (3)": the next session of the evening, told apart."""
    stem, _open, number = name.rpartition(" (")
    if stem and number.endswith(")") and number[:-1].isascii() and number[:-1].isdigit():
        return f"{stem} ({int(number[:-1]) + 1})"
    return f"{name} (2)"


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


def rate_refused(request, session, refusal: throttling.Refusal):
    """An action past one of the organiser's rates (draws, invitations): the console again with the French
    sentence beside the field concerned, 429 and Retry-After, nothing written."""
    return refusal.answer(_refused(request, session, str(refusal), status=429))


# An organiser's POST on his session, from the console or his session's other pages (the sheet, the players): the
# session loaded for him, and a refusal answered with the console, the reason beside the field concerned.
organiser_action = object_action(
    load=get_session_for_organiser, refusal=DuplicateError, refused=_refused, page="duplicate:session"
)


@organiser_action
def round_add(request, session):
    """A new move: "Tirer" lets the server draw; a typed draw comes from a bag or a pre-drawn game. Each search of
    its tops counts against the organiser's rate of draws: past it, the console again with the French sentence,
    429 and Retry-After, nothing drawn."""
    action = request.POST.get("action", "")
    # "Tirer" draws on the server whatever the box holds (a refused typed draw left in it, say).
    draw_text = "" if action == "server" else request.POST.get("draw", "").strip()
    if action == "typed" and not draw_text:
        raise DuplicateError(_("Tapez le tirage, ou « Tirer » pour que le serveur tire."))
    try:
        round_ = rounds.round_add(
            session=session,
            draw_text=draw_text or None,
            top_text=request.POST.get("top", ""),
            by=request.user,
            before_search=lambda: throttling.count(request, "draw"),
        )
    except Throttled as stopped:
        return rate_refused(request, session, throttling.Refusal(stopped.wait))
    rounds.timer_start(session=session)
    messages.success(request, _("Coup %(number)d : tirage %(draw)s.") % {"number": round_.number, "draw": round_.draw})


@organiser_action
def round_cancel(request, session, number):
    """ "Annuler ce tirage": a draw typed by mistake, before anything depends on it."""
    round_ = get_object_or_404(Round, session=session, number=number)
    rounds.round_cancel(round_=round_, by=request.user)
    messages.success(request, _("Le coup %(number)d est annulé.") % {"number": number})


@organiser_action
def round_top(request, session, number):
    """Place the top typed, or "Révéler le top de la partie": the game's top, for a session playing a game."""
    round_ = get_object_or_404(Round, session=session, number=number)
    if request.POST.get("action") == "reveal":
        rounds.round_reveal_top(round_=round_, by=request.user)
    else:
        rounds.round_set_top(round_=round_, top_text=request.POST.get("top", ""), by=request.user)
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


@organiser_action
def timer_start(request, session):
    current = session.current_round()
    if current is None:
        raise DuplicateError(_("Faites d'abord le tirage du premier coup."))
    if current.top:
        raise Conflict(_("Le top est révélé : le temps de ce coup est fini."))
    rounds.timer_start(session=session)
    messages.success(
        request,
        _("Chrono lancé : %(time)s pour le coup %(number)d.") % {"time": session.move_time, "number": current.number},
    )
