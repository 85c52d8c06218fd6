"""The players' results on a move: a score or the move played (its score computed, FISF §5.4), several at once in
one upsert, a bulletin taken back, the arbiter's marks (zero, avertissement, penalty). A result on the move being
played does not bump the session's version (`_result_written`)."""

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.engine.draw import parse_draw
from scoring.engine.errors import ScoringError
from scoring.engine.moves import Move
from scoring.engine.ranking import above_top

from ..errors import DuplicateError
from ..games import fits_draw
from ..games import message as _message
from ..models import ZERO_REASON, Change, Player, Result, Round, Session
from .board import position
from .history import entered, new_change, record, refuse_if_finished


@dataclass(frozen=True)
class Entry:
    """One player's bulletin on a move (`player` his id): a score, or the move he played (its score computed),
    with the score also written on the bulletin (`written`), which must then agree with the move."""

    player: int
    score: int | None = None
    move: str = ""
    written: int | None = None


def result_set(
    *,
    round_: Round,
    player: Player,
    score: int | None = None,
    move: str = "",
    written: int | None = None,
    by=None,
) -> Result:
    """A player's score on a move, typed or computed from the move he played (a move that cannot be played on
    the board or with the draw gets 0 with the reason, as FISF §5.4 does). One result per player and move:
    sending it again replaces it. The change is kept in the history."""
    entries = [Entry(player.pk, score, move, written)]
    (result,) = results_set(round_=round_, entries=entries, by=by)
    return result


def results_set(*, round_: Round, entries: Sequence[Entry], by=None) -> list[Result]:
    """Several players' results on a move, all or nothing (a refused one leaves every other as it was), in three
    queries whatever their number: the players with their results before, one upsert, the history. A player named
    twice is refused (`_refuse_twice`). Rows are written in player order, so that two batches at once wait for each
    other instead of deadlocking. Returns the rows written, one an entry, in the entries' order."""
    by_player = _refuse_twice(entries)
    refuse_if_finished(round_.session)
    if not by_player:
        return []
    for entry in by_player.values():
        if entry.move:
            check_notation(round_.session, entry.move)
    with transaction.atomic():
        players = {player.pk: player for player in Player.objects.with_result_on(round_, by_player)}
        rows = []
        for pk, entry in sorted(by_player.items()):
            if pk not in players:
                raise DuplicateError(_("Joueur %(id)d inconnu dans cette séance.") % {"id": pk})
            rows.append(_result_row(round_, players[pk], entry))
        # One statement, safe when the same result arrives twice at once: INSERT … ON CONFLICT DO UPDATE.
        Result.objects.bulk_create(
            rows,
            update_conflicts=True,
            unique_fields=["round", "player"],
            update_fields=["score", "move", "reason", "updated_at"],
        )
        Change.objects.bulk_create(
            new_change(round_.session, by, "score", entered(*row.player.result_before), entered(row.score, row.move),
                       round_number=round_.number, player=row.player)
            for row in rows
            if row.player.result_before != (row.score, row.move)
        )  # fmt: skip
        _result_written(round_)
    written = {row.player_id: row for row in rows}
    return [written[entry.player] for entry in entries]


def _refuse_twice(entries: Sequence[Entry]) -> dict[int, Entry]:
    """The entries by player, each player named once: two bulletins for one in a batch (which would write one row,
    the last, and hide the other) are refused with both positions in the list, counted from 1."""
    by_player, position = {}, {}
    for index, entry in enumerate(entries, start=1):
        if entry.player in by_player:
            raise DuplicateError(
                _("Le joueur %(player)d figure deux fois dans la liste (positions %(first)d et %(second)d).")
                % {"player": entry.player, "first": position[entry.player], "second": index}
            )
        by_player[entry.player], position[entry.player] = entry, index
    return by_player


def _result_row(round_: Round, player: Player, entry: Entry) -> Result:
    """The result a bulletin gives, checked against the rules; refused with the reason. A score is checked against
    the top once placed only, from a phone and from the console alike: against a game's sealed top, « supérieur
    au top » tried score after score would tell its value before anyone has played (issue 22). A game's reveal
    takes back the bulletins above its top instead (`rounds._take_back_above`)."""
    score, move = entry.score, entry.move
    if player.absent:
        raise DuplicateError(
            _("%(name)s est déclaré absent : décochez « absent » avant de saisir son bulletin.") % {"name": player.name}
        )
    reason = ""
    top = round_.top_score
    if move:
        score, move, reason = score_move(round_, move)
        if entry.written is not None and entry.written != score and not reason:
            raise DuplicateError(
                _("Le coup %(move)s vaut %(score)d points, pas %(written)d : vérifiez le bulletin.")
                % {"move": move, "score": score, "written": entry.written}
            )
        if above_top(score, top):
            raise DuplicateError(
                _("Ce coup vaut %(score)d points, plus que le top (%(top)d) : vérifiez le top.")
                % {"score": score, "top": top}
            )
    if score is None:
        raise DuplicateError(_("Un bulletin donne un score ou un coup joué."))
    if score < 0:
        raise DuplicateError(_("Un score est un nombre positif ou nul."))
    most = round_.session.rule_set.max_move_points  # the rule set's row, loaded with the move on the API's path
    if score > most:  # before the top is known too: a slip that would then hold back the top's placing
        raise DuplicateError(_("Un coup vaut au plus %(max)d points : faute de frappe ?") % {"max": most})
    # Before the top is placed (players writing during the move) the check waits for it.
    if above_top(score, top):
        raise DuplicateError(_("Score supérieur au top : faute de frappe ?"))
    return Result(round=round_, player=player, score=score, move=move, reason=reason, updated_at=timezone.now())


def _result_written(round_: Round):
    """A result of `round_` changed. The screens of the room (projector, ranking, the players' totals) show the
    moves closed only, so a bulletin on the move being played does not bump the session's version: writers of a
    room do not queue behind its row, and those screens are not redrawn 500 times a move. A result of a closed
    move does, and so does any result of a room whose simultané is over (its ranking then counts every move).
    Checked once the transaction has committed: a draw (or the end of the session) committed before the check is
    seen by it, and one committed after bumps the version itself after this result is visible, so no change is
    missed whatever the interleaving."""
    session_pk, number = round_.session_id, round_.number

    def bump_if_closed():
        # In SQL, as the other queries of every bulletin's path (clubsite.sql).
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE duplicate_session SET version = version + 1 WHERE id = %s AND (finished_at IS NOT NULL OR "
                "EXISTS (SELECT 1 FROM duplicate_round WHERE session_id = %s AND number > %s) OR "
                "EXISTS (SELECT 1 FROM duplicate_simultane WHERE id = duplicate_session.simultane_id "
                "AND first_closed_at IS NOT NULL))",
                [session_pk, session_pk, number],
            )

    # Robust: the result is committed by then, and its answer says so; a bump lost to a database gone away just then
    # is logged (the room's screens catch up at the next change), not turned into an error for a saved score.
    transaction.on_commit(bump_if_closed, robust=True)


def result_clear(*, round_: Round, player: Player, by=None) -> bool:
    """A bulletin typed by mistake taken back: the player has no score on the move again (his marks, if any,
    stay). Returns whether there was a score to take back; the change is kept in the history."""
    refuse_if_finished(round_.session)
    with transaction.atomic():
        result = Result.objects.select_for_update().filter(round=round_, player=player).first()
        if result is None or result.score is None:
            return False
        old = entered(result.score, result.move)
        if result.warning or result.penalty:
            result.score, result.move, result.reason = None, "", ""
            result.save(update_fields=["score", "move", "reason", "updated_at"])
        else:
            result.delete()
        record(round_.session, by, "score", old, "", round_number=round_.number, player=player)
        # Whatever the move: a deleted row leaves no time for the arbiter's console to see (its poll).
        round_.session.touch()
    return True


def check_notation(session: Session, text: str):
    """Refuses a move that cannot be read at all ("abc"): a slip of the fingers to correct, not a bulletin worth 0,
    whoever sends it (`results_set` asks it of every move). A readable move that cannot be played still scores 0
    with the reason (FISF §5.4)."""
    try:
        Move.parse(text, session.edition_engine)
    except ScoringError as error:
        raise DuplicateError(_message(error)) from error


def entry_enter(*, round_: Round, player: Player, entry: str, by=None) -> Result:
    """A score or a move as the arbiter types it in a bulletin or in a cell of the game's sheet: digits are a
    score, anything with a space a move in notation (its score computed)."""
    entry = entry.strip()
    if not entry:
        raise DuplicateError(_("Tapez le score ou le coup du bulletin."))
    if " " not in entry:
        # A score is digits only: "6a" or "-3" is a slip of the arbiter's fingers, not a bulletin worth 0.
        if entry.isascii() and entry.isdigit() and len(entry) >= 6:
            most = round_.session.rule_set.max_move_points
            raise DuplicateError(_("Un coup vaut au plus %(max)d points : faute de frappe ?") % {"max": most})
        if not (entry.isascii() and entry.isdigit()):
            raise DuplicateError(
                _("« %(entry)s » : un score en chiffres, ou un coup comme « H4 VAGUE », est attendu.")
                % {"entry": entry[:40]}
            )
        return result_set(round_=round_, player=player, score=int(entry), by=by)
    return result_set(round_=round_, player=player, move=entry, by=by)


def move_score(round_: Round, text: str) -> tuple[int, str]:
    """What the move written `text` scores on the move's board with its draw, and why it cannot be played ("" when
    it can: it then scores that)."""
    score, _notation, reason = score_move(round_, text)
    return score, reason


def score_move(round_: Round, text: str) -> tuple[int, str, str]:
    session = round_.session
    edition, rules = session.edition_engine, session.rules_engine
    board = position(session, before=round_.number).board
    letters = parse_draw(round_.draw, edition, rules.rack_size).letters
    try:
        play = board.evaluate(Move.parse(text, edition), edition, rules)
        if not fits_draw(play, letters) and text == text.lower():
            # "g8 ex" typed without capitals: two jokers the draw does not hold are the letters themselves.
            play = board.evaluate(Move.parse(text.upper(), edition), edition, rules)
    except ScoringError as error:
        return 0, text.strip()[:40], _message(error)
    if not fits_draw(play, letters):
        return 0, play.move.notation, _("Ce coup ne se joue pas avec le tirage %(draw)s.") % {"draw": round_.draw}
    return play.score, play.move.notation, ""


def result_mark(*, round_: Round, player: Player, zero=None, warning=None, penalty=None, by=None) -> Result:
    """The arbiter's marks: a zero (bulle), an avertissement (one a move at most), a penalty in points."""
    refuse_if_finished(round_.session)
    with transaction.atomic():
        result, _created = Result.objects.select_for_update().get_or_create(round=round_, player=player)
        before = {"score": result.score, "warning": result.warning, "penalty": result.penalty}
        fields = []
        if zero:
            result.score, result.reason = 0, _(ZERO_REASON)
            fields += ["score", "reason"]
        if warning is not None:
            result.warning = bool(warning)
            fields.append("warning")
        if penalty is not None:
            most = round_.session.rules_engine.max_penalty
            if not 0 <= penalty <= most:
                raise DuplicateError(_("Une pénalité va de 0 à %(max)d points.") % {"max": most})
            result.penalty = penalty
            fields.append("penalty")
        result.save(update_fields=[*fields, "updated_at"])
        for field in ("score", "warning", "penalty"):
            if field in fields and before[field] != getattr(result, field):
                old, new = (_shown(value) for value in (before[field], getattr(result, field)))
                record(round_.session, by, field, old, new, round_number=round_.number, player=player)
        _result_written(round_)
    return result


def _shown(value) -> str:
    """A value as the history shows it: a warning is "oui" or "non", a missing score nothing."""
    if isinstance(value, bool):
        return _("oui") if value else _("non")
    return "" if value is None else str(value)
