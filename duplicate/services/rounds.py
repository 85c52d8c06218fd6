"""The moves of a session: each draw (typed, drawn by the server, or the next of the game the session plays) with
the top finder's moves for it, its top placed, revealed or corrected, the last move cancelled, and the move's
timer."""

import random
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.engine.draw import Draw, bag_after, draw_tiles, parse_draw
from scoring.engine.errors import ScoringError
from scoring.engine.movegen import OutOfTime, best_moves
from scoring.models import move_index

from ..errors import Conflict, DuplicateError
from ..games import GameRound, check_draw_on, evaluate_top, same_draw, same_top
from ..games import message as _message
from ..models import Player, Round, Session, Simultane
from .board import Position, position
from .history import entered, record, refuse_if_finished


def round_add(
    *, session: Session, draw_text: str | None = None, top_text: str | None = None, by=None, before_search=None
) -> Round:
    """A new move: the draw typed (from a bag or a pre-drawn game) or drawn by the server (FISF §3.2, from the
    session's seed), then its top when given (an arbiter entering a game played on paper). A session playing a
    game (a replay, a game file, a simultané) takes the game's next draw, a typed one must be that one, and never
    its top: a draw never reveals its top, which comes with `round_reveal_top` once the move is played.

    The top finder's moves for the draw are searched before the transaction that writes it, on the session as read
    without a lock (issue 22: searched while the session's row was locked, they held every score sent meanwhile,
    answered 503). The session must then stand as it was read; when it moved meanwhile (a top corrected, a draw made
    or cancelled by someone else) the draw is worked out again on what it became.

    `before_search()`, when given, is called before each search of the tops (none for a game's draw, whose top is
    known, nor without a word list), and may raise to refuse the draw, nothing written: a request's rate of
    searches (issue 23)."""
    for _attempt in range(DRAW_ATTEMPTS):
        planned = _planned_draw(session, draw_text, top_text, before_search)
        round_ = _write_draw(session, planned, top_text, by)
        if round_ is not None:
            return round_
    raise Conflict(_("La séance a changé pendant le calcul des tops : tirez de nouveau."))


# How many times a draw is worked out again on a session that moved while its tops were searched, before it is
# refused (each time, someone else changed the session within those milliseconds).
DRAW_ATTEMPTS = 3


@dataclass
class _PlannedDraw:
    """A move worked out without holding the session's row: its draw and the top finder's moves for it, on the
    position described by `moves` (each move's number, draw and top), which must still be the session's."""

    moves: tuple
    number: int
    draw: Draw
    by_server: bool
    suggestions: list[dict]
    suggestions_complete: bool


def _moves_of(current: Position) -> tuple:
    return tuple((round_.number, round_.draw, round_.top) for round_ in current.rounds)


def _planned_draw(session: Session, draw_text: str | None, top_text: str | None, before_search) -> _PlannedDraw:
    """The next move's draw, checked, and its tops searched (see `round_add`): nothing locked, nothing written."""
    session = Session.objects.get(pk=session.pk)
    refuse_if_finished(session)
    current = position(session)
    if current.rounds and not current.rounds[-1].top:
        raise DuplicateError(_("Placez d'abord le top du coup %(number)d.") % {"number": current.rounds[-1].number})
    edition, rules = session.edition_engine, session.rules_engine
    scripted = None
    if session.plays_a_game:
        if top_text:
            raise DuplicateError(
                _(
                    "Le top d'une partie jouée se révèle une fois le coup joué (« Révéler le top de la partie », "
                    "ou PUT …/rounds/%(number)d/top avec {}), pas avec son tirage."
                )
                % {"number": current.next_number}
            )
        scripted = _next_scripted(session, current.next_number, draw_text)
        draw_text = scripted.draw
    if draw_text:
        try:
            draw = parse_draw(draw_text, edition, rules.rack_size)
        except ScoringError as error:
            raise DuplicateError(_message(error)) from error
        if scripted is None:  # a game's draws were checked when it was read
            check_draw_on(edition, rules, current.board, current.reliquat, current.next_number, draw)
    else:
        draw = _server_draw(session, current)
    # The game's top is known: the console shows the top finder's moves only to an arbiter who chooses.
    suggestions, complete = ([], True) if scripted else _suggestions(session, current, draw, before_search)
    return _PlannedDraw(_moves_of(current), current.next_number, draw, not draw_text, suggestions, complete)


def _write_draw(session: Session, planned: _PlannedDraw, top_text: str | None, by) -> Round | None:
    """The planned move written with its top, if given, in one transaction holding the session's row; None, with
    nothing written, when the session no longer stands where the move was planned."""
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        refuse_if_finished(locked)
        if locked.simultane_id is not None:
            # Read again under the room's row, which the closing holds too (`simultanes.simultane_close`): a ranking
            # closed while the draw was worked out finds no move opened after it.
            _refuse_if_over(Simultane.objects.get(pk=locked.simultane_id))
        current = position(locked)
        if _moves_of(current) != planned.moves:
            return None
        round_ = Round.objects.create(
            session=locked,
            number=planned.number,
            draw=planned.draw.text,
            rejets=planned.draw.rejets,
            drawn_by_server=planned.by_server,
            suggestions=planned.suggestions,
            suggestions_complete=planned.suggestions_complete,
        )
        record(locked, by, "draw", new=round_.draw, round_number=round_.number)
        if top_text:
            _set_top(locked, round_, top_text, current, by)
            record(locked, by, "top", new=f"{round_.top} ({round_.top_score})", round_number=round_.number)
        locked.touch()
    return round_


def _next_scripted(session: Session, number: int, typed: str | None) -> GameRound:
    """The move `number` of the game the session plays, once its time has come; a typed draw must be its own. The
    refusals do not say the game's draw: a simultané's stays sealed until the room reaches it."""
    simultane = session.simultane
    if simultane is not None:
        _refuse_if_over(simultane)
    if simultane is not None and timezone.now() < simultane.starts_at:
        raise DuplicateError(
            _("Le simultané « %(name)s » commence le %(when)s : aucun tirage avant.")
            % {"name": simultane.name, "when": simultane.when()}
        )
    if session.replay_of_id:
        refuse_if_sealed(session.replay_of_id, session.creator)
    scripted = scripted_round(session, number)
    if scripted is None:
        raise DuplicateError(_("Tous les coups de la partie jouée sont joués : terminez la séance."))
    edition, rules = session.edition_engine, session.rules_engine
    if typed and not same_draw(edition, rules, typed, scripted.draw):
        raise DuplicateError(
            _("Ce tirage n'est pas celui de la partie jouée (coup %(number)d) : « Tirer » donne le sien.")
            % {"number": number}
        )
    return scripted


def _refuse_if_over(simultane: Simultane):
    """No room draws once the simultané's ranking has been closed, even reopened since: its whole game was open to
    everyone concerned then (`Simultane.is_over`)."""
    if simultane.closed_at is not None:
        raise Conflict(_("Le simultané est clos : son classement est définitif."))
    if simultane.is_over:
        raise Conflict(_("Le simultané est clos depuis le premier arrêt de son classement : plus aucun tirage."))


def scripted_round(session: Session, number: int) -> GameRound | None:
    """Move `number` of the game the session plays (the session it replays, its game file, its simultané's
    game); None past the game's last move, or for a session that plays no game."""
    if session.replay_of_id:
        source = replayed_round(session, number)
        return GameRound(number, source.draw, source.top, source.top_score) if source else None
    game = session.game if session.game is not None else getattr(session.simultane, "game", None)
    if not game or number > len(game):
        return None
    return GameRound(**game[number - 1])


SUGGESTIONS_KEPT = 10


def _suggestions(session: Session, current: Position, draw: Draw, before_search) -> tuple[list[dict], bool]:
    """The best moves of the draw on the board (FISF §3.4 ties), from the edition's word list (none without one),
    and whether the search saw every move: one that meets the time limit gives what it found, and the draw is
    saved all the same."""
    index = move_index(session.edition.code)
    if index is None:
        return [], True
    if before_search is not None:
        before_search()
    edition, rules = session.edition_engine, session.rules_engine
    bag = bag_after(edition, [tile for _i, tile in current.board.tiles()], list(draw.letters))
    first = current.board.is_empty  # §3.4: the first top is played across, kept among every move found
    try:
        ranking = best_moves(
            current.board, "".join(draw.letters), edition, index, rules,
            limit=None if first else SUGGESTIONS_KEPT, time_limit=settings.SEARCH_TIME_LIMIT, bag_empty=not bag,
        )  # fmt: skip
        complete = True
    except OutOfTime as stopped:
        ranking, complete = stopped.found, False
    candidates = [c for c in ranking.moves if c.horizontal] if first else ranking.moves
    return [{"move": c.notation, "score": c.score} for c in candidates[:SUGGESTIONS_KEPT]], complete


def round_cancel(*, round_: Round, by=None) -> None:
    """Take back a draw (and its top) typed by mistake: the last move only, while no result depends on it."""
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=round_.session_id)
        refuse_if_finished(session)
        if session.rounds.filter(number__gt=round_.number).exists():
            raise DuplicateError(_("Seul le dernier coup peut être annulé."))
        if round_.results.exists():
            raise Conflict(
                _("Le coup %(number)d a déjà des résultats : corrigez-les plutôt que de l'annuler.")
                % {"number": round_.number}
            )
        old = f"{round_.draw} {round_.top}".strip()
        record(session, by, "draw", old, _("annulé"), round_number=round_.number)
        round_.delete()
        # The timer ran for the cancelled draw: the move before it is over, its time is not running again.
        Session.objects.filter(pk=session.pk).update(timer_started_at=None)
        session.touch()


def round_reveal_top(*, round_: Round, by=None) -> Round:
    """Place the top once the move is played: a session playing a game places the game's top (a replay, the top
    its arbiter placed, whatever the word list); an automatic game, the best move found."""
    if round_.top:
        return round_
    scripted = scripted_round(round_.session, round_.number)
    if scripted is not None:
        return round_set_top(round_=round_, top_text=scripted.top, by=by)
    if not round_.suggestions and not round_.suggestions_complete:
        raise DuplicateError(_("La recherche du top s'est arrêtée faute de temps sans rien trouver : placez-le."))
    if not round_.suggestions:
        raise DuplicateError(_("Aucun coup possible avec ce tirage : la partie s'arrête (FISF §3.7)."))
    return round_set_top(round_=round_, top_text=round_.suggestions[0]["move"], by=by)


def _server_draw(session: Session, current: Position) -> Draw:
    edition, rules = session.edition_engine, session.rules_engine
    bag = bag_after(edition, [tile for _i, tile in current.board.tiles()], current.reliquat)
    # One generator per move, from the session's seed: any move's draw can be replayed on its own.
    rng = random.Random(session.seed * 1000 + current.next_number)
    draw = draw_tiles(
        edition=edition,
        bag=bag,
        reliquat=current.reliquat,
        move_number=current.next_number,
        rng=rng,
        rack_size=rules.rack_size,
    )
    if draw.end:
        raise DuplicateError(_("Fin de partie : le reliquat ne permet plus de tirage (FISF §3.7)."))
    return draw


def round_set_top(*, round_: Round, top_text: str, by=None) -> Round:
    """Enter (or correct) the top of the last move; earlier tops are fixed, later boards depend on them."""
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=round_.session_id)
        refuse_if_finished(session)
        if session.rounds.filter(number__gt=round_.number).exists():
            raise DuplicateError(_("Seul le top du dernier coup peut être changé."))
        old = f"{round_.top} ({round_.top_score})" if round_.top else ""
        _set_top(session, round_, top_text, position(session, before=round_.number), by)
        new = f"{round_.top} ({round_.top_score})"
        if new != old:  # the same top placed again (its page did not come back): nothing changed
            record(session, by, "top", old, new, round_number=round_.number)
            session.touch()
    return round_


def _set_top(session: Session, round_: Round, top_text: str, current: Position, by=None):
    edition, rules = session.edition_engine, session.rules_engine
    scripted = scripted_round(session, round_.number)
    if scripted is not None and not same_top(edition, top_text, scripted.top):
        raise DuplicateError(
            _("Ce top n'est pas celui de la partie jouée (coup %(number)d) : « Révéler le top » place le sien.")
            % {"number": round_.number}
        )
    play = evaluate_top(edition, rules, current.board, round_.draw, top_text)
    round_.taken_back = []
    if scripted is not None:
        # The game's top is certain: a bulletin above it is the slip (a phone is not told of it before the top is
        # revealed, see `results._result_row`), taken back with its reason rather than holding the room's reveal.
        round_.taken_back = _take_back_above(session, round_, play.score, by)
    best = round_.results.exclude(score=None).select_related("player").order_by("-score").first()
    if best is not None and best.score > play.score:
        raise DuplicateError(
            _(
                "%(name)s (table %(table)s) a déjà %(best)d points sur ce coup : le top ne peut valoir moins "
                "(%(score)d). Corrigez d'abord son bulletin."
            )
            % {"name": best.player.name, "table": best.player.table or "—", "best": best.score, "score": play.score}
        )
    round_.top, round_.top_score = play.move.notation, play.score
    round_.save(update_fields=["top", "top_score"])


def _take_back_above(session: Session, round_: Round, top: int, by) -> list[Player]:
    """The bulletins of `round_` above `top` taken back: no score, the reason in the player's row, the change in
    the history. Returns their players."""
    above = list(round_.results.filter(score__gt=top).select_related("player"))
    for result in above:
        old = entered(result.score, result.move)
        result.reason = _("« %(entry)s » : plus que le top (%(top)d), bulletin repris ; à saisir de nouveau.") % {
            "entry": old,
            "top": top,
        }
        result.score, result.move = None, ""
        result.save(update_fields=["score", "move", "reason", "updated_at"])
        record(session, by, "score", old, "", round_number=round_.number, player=result.player)
    return [result.player for result in above]


def timer_start(*, session: Session):
    """The move timer runs on the server's clock: every screen counts down to the same deadline."""
    refuse_if_finished(session)
    session.timer_started_at = timezone.now()
    session.save(update_fields=["timer_started_at"])
    session.touch()


def rounds_drawn(sessions) -> dict[int, int]:
    """How many moves each of `sessions` has drawn (absent: none), in one query."""
    drawn = Round.objects.filter(session__in=list(sessions)).values("session").annotate(last=Max("number"))
    return {row["session"]: row["last"] for row in drawn}


def refuse_if_sealed(source_pk: int, player) -> None:
    """A replay shows its player the replayed session's moves: none of a simultané's room sealed from him
    (`SessionQuerySet.sealed_from`), neither when he starts it nor at each move drawn, since he may have taken a
    seat in a slower room of that simultané meanwhile."""
    if player is not None and Session.objects.sealed_from(player).filter(pk=source_pk).exists():
        raise DuplicateError(
            _(
                "La séance rejouée est une salle de simultané en avance sur la vôtre : son rejeu attend l'arrêt du "
                "classement."
            )
        )


def replayed_round(replay: Session, number: int) -> Round | None:
    """The move of the replayed session that the replay plays as its move `number`: None past its last top."""
    return Round.objects.filter(session_id=replay.replay_of_id, number=number).exclude(top="").first()
