"""The session's ranking: its input read in a few queries whatever the number of players (one session or many at
once), the ranking itself, the room's ranking cached for each version of the session, and the results a reader
may see."""

from dataclasses import astuple, dataclass

from django.conf import settings
from django.core.cache import cache
from django.db.models import QuerySet

from scoring.engine.ranking import (
    RankingRow,
    rank,
)
from scoring.engine.rules import RuleSet

from ..models import Player, Result, Round, Session


@dataclass
class NamedRow:
    player: Player
    row: RankingRow


@dataclass
class RankingInput:
    """What the ranking is computed from, in the shapes `scoring.engine.ranking.rank` takes: the moves whose top is
    placed (`rounds`, (id, top score) in order), every player, and for each his score, penalty and avertissement on
    each of those moves."""

    rounds: list[tuple[int, int]]
    players: dict[int, Player]
    scores: dict[int, list[int | None]]
    penalties: dict[int, list[int]]
    warnings: dict[int, list[bool]]
    rules: RuleSet
    blitz: bool

    @property
    def tops(self) -> list[int]:
        return [top for _pk, top in self.rounds]

    @property
    def present(self) -> int:
        """The players counted for the solo bonus's threshold (§3.5): not those declared absent."""
        return sum(not player.absent for player in self.players.values())

    def engine_arguments(self) -> dict:
        return {
            "tops": self.tops,
            "scores": self.scores,
            "penalties": self.penalties,
            "warnings": self.warnings,
            "rules": self.rules,
            "blitz": self.blitz,
            "present": self.present,
        }


def ranking_input(session: Session, up_to: int | None = None) -> RankingInput:
    """The session's moves and results as the ranking reads them, in three queries whatever the number of players
    and moves; over the moves up to `up_to` only when given."""
    placed = session.rounds.exclude(top_score=None)
    if up_to is not None:
        placed = placed.filter(number__lte=up_to)
    rounds = list(placed.values_list("pk", "top_score"))
    players = list(session.players.all())
    results = Result.objects.filter(round__in=[pk for pk, _top in rounds]).values_list(*_RANKED_RESULT)
    rules = session.rules_engine
    return _ranking_input(rounds, players, results, rules, rules.is_blitz(session.move_seconds))


def _rules_of(session: Session, rules: dict[str, RuleSet]) -> tuple[RuleSet, bool]:
    """The engine's rule set of `session` among `rules`, and whether the session plays in blitz by it."""
    engine = rules[session.rule_set.code]
    return engine, engine.is_blitz(session.move_seconds)


def ranking_inputs(sessions, rules: dict[str, RuleSet]) -> dict[int, RankingInput]:
    """The ranking's input of each of `sessions` (their rule sets loaded), over all their placed moves, in three
    queries whatever their number: a member's progress reads every session he played at once. `rules`: the
    engine's rule set of each rule set code among them."""
    sessions = {session.pk: session for session in sessions}
    rounds: dict[int, list] = {pk: [] for pk in sessions}
    placed = Round.objects.filter(session__in=list(sessions)).exclude(top_score=None).order_by("session", "number")
    session_of = {}
    for pk, session_id, top_score in placed.values_list("pk", "session_id", "top_score"):
        rounds[session_id].append((pk, top_score))
        session_of[pk] = session_id
    players: dict[int, list] = {pk: [] for pk in sessions}
    for player in Player.objects.filter(session__in=list(sessions)):
        players[player.session_id].append(player)
    results: dict[int, list] = {pk: [] for pk in sessions}
    # The placed moves' results only, those the ranking reads, without joining the moves again.
    for row in Result.objects.filter(round__in=placed.values("pk")).values_list(*_RANKED_RESULT):
        results[session_of[row[1]]].append(row)
    return {
        pk: _ranking_input(rounds[pk], players[pk], results[pk], *_rules_of(session, rules))
        for pk, session in sessions.items()
    }


_RANKED_RESULT = ("player_id", "round_id", "score", "penalty", "warning")


def _ranking_input(rounds, players, results, rules: RuleSet, blitz: bool) -> RankingInput:
    """The ranking's input from a session's placed moves [(id, top score)] in order, its players, and its results
    as (player id, move id, score, penalty, warning) rows."""
    index = {pk: i for i, (pk, _top) in enumerate(rounds)}
    players = {player.pk: player for player in players}
    scores = {pk: [None] * len(rounds) for pk in players}
    penalties = {pk: [0] * len(rounds) for pk in players}
    warnings = {pk: [False] * len(rounds) for pk in players}
    for player_id, round_id, score, penalty, warning in results:
        if round_id not in index:
            continue  # a move without its top yet (bulk reads take the session's every result)
        i = index[round_id]
        scores[player_id][i], penalties[player_id][i], warnings[player_id][i] = score, penalty, warning
    return RankingInput(rounds, players, scores, penalties, warnings, rules, blitz)


def ranking(session: Session, up_to: int | None = None) -> tuple[list[NamedRow], int]:
    """The ranking and the sum of tops, in four queries whatever the number of players and moves; over the moves
    up to `up_to` only when given (the room's screen shows the moves closed, not the one being entered)."""
    figures = ranking_input(session, up_to)
    rows = rank(**figures.engine_arguments())
    return [NamedRow(figures.players[row.player], row) for row in rows], sum(figures.tops)


def closed_move(session: Session) -> int | None:
    """The last move the room's screens count: the one before the move being played (a move closes when the next
    one is drawn); None, all of them, once the session is finished or before its first draw."""
    current = session.current_round()
    return None if session.finished_at or current is None else current.number - 1


@dataclass(frozen=True)
class RoomRanking:
    """The ranking the room's screens show (the projector's, the live ranking, each player's total and place):
    the moves closed only, a move closing when the next one is drawn, and all of them once the session is
    finished, so that places do not move while bulletins come in. Rows are kept as plain tuples, quick to read
    back from the cache: (name, table, absent, the `RankingRow`'s fields), best first."""

    rows: tuple[tuple, ...]
    tops_total: int
    moves: int  # how many moves it counts
    closed: int | None  # the last move it counts; None for all of them

    def named(self) -> list[NamedRow]:
        return [
            NamedRow(Player(pk=row[0], name=name, table=table, absent=absent), RankingRow(*row))
            for name, table, absent, *row in self.rows
        ]

    def row_of(self, player: Player) -> RankingRow | None:
        pk = player.pk
        return next((RankingRow(*row) for _name, _table, _absent, *row in self.rows if row[0] == pk), None)


def room_ranking(session: Session) -> RoomRanking:
    """The room's ranking, computed once for each version of the session (which every change it shows bumps)
    and kept in the shared cache: the players' pages all ask for it while they send their bulletins."""
    # 3: the shape of RoomRanking's rows, and how they count (issue 22: a sanction no longer takes a move below 0).
    key = f"duplicate:room-ranking:3:{session.pk}:{session.version}"
    cached = cache.get(key)
    if cached is None:
        closed = closed_move(session)
        rows, tops_total = ranking(session, up_to=closed)
        counted = session.rounds.exclude(top_score=None)
        moves = counted.filter(number__lte=closed).count() if closed is not None else counted.count()
        rows = tuple(
            (named.player.name, named.player.table, named.player.absent, *astuple(named.row)) for named in rows
        )
        cached = RoomRanking(rows, tops_total, moves, closed)
        cache.set(key, cached, settings.DUPLICATE_ROOM_CACHE_SECONDS)
    return cached


def results_readable(session: Session, reader) -> QuerySet[Result]:
    """The session's results `reader` may read: every one for its organisers; for its other readers (its club's
    members, its players) none on a move whose top is not revealed yet: until then its bulletins are the arbiter's
    (FISF: handed in at the end of the time), and another player's score would tell what he found."""
    results = Result.objects.filter(round__session=session)
    if not session.is_organiser(reader):
        results = results.exclude(round__top="")
    return results
