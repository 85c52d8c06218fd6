"""Rankings: shared places, and the ranking of a duplicate session (FISF règlement du duplicate §3.5, §5; seed 000).

Each player's total is set against the sum of the tops: the gap (total minus that sum, 0 for whoever found
every top) and the percentage of it, which the règlement does not define: seed 000 gives it as a guide. A
player alone with the best score of a move has a solo, worth a bonus in large sessions; penalties and
avertissements take points away (§5), from the move's score and never below 0, the solo's bonus added after
them. Equal totals share a place (1, 2, 2, 4), in duplicate and at the end of a classic game alike.
"""

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple

from .rules import RuleSet


def above_top(score: int | None, top: int | None) -> bool:
    """Whether `score` is above its move's top, which no move can be: a typo on a bulletin or a sheet, or, when
    the top is the best move a word list found, a word missing from that list. Unknown (False) until both are
    written."""
    return score is not None and top is not None and score > top


def shared_places(totals: list[int]) -> list[int]:
    """The place of each total, in the order given; the highest total is first."""
    ordered = sorted(totals, reverse=True)
    first_place = {}
    for place, total in enumerate(ordered, start=1):
        first_place.setdefault(total, place)
    return [first_place[total] for total in totals]


@dataclass(frozen=True)
class RankingRow:
    player: object
    total: int
    gap: int  # total minus the sum of the tops
    percent: float  # of the sum of the tops, one decimal, rounded half up
    place: int
    solos: int
    solo_points: int
    penalty_points: int  # what penalties and avertissements took, as a positive number
    warnings: int


@dataclass(frozen=True)
class CombinedRow:
    player: object
    total: int
    gap: int
    percent: float
    place: int
    session_totals: tuple[int, ...]  # one per session, 0 where the player did not take part


def solos_by_move(tops: list[int], scores: dict) -> list[object | None]:
    """For each move, the player whose score beats every other player's (§3.5), or None.

    Scores are compared as written, before any penalty, and a solo needs no top: the best score alone is enough.
    A missing score counts as 0.
    """
    if len(scores) < 2:
        return [None] * len(tops)
    solos: list[object | None] = []
    for move in range(len(tops)):
        move_scores = {player: _score(line, move) for player, line in scores.items()}
        best = max(move_scores.values())
        leaders = [player for player, score in move_scores.items() if score == best]
        solos.append(leaders[0] if len(leaders) == 1 else None)
    return solos


def warning_penalties(warnings: list[bool], rules: RuleSet, blitz: bool = False) -> list[int]:
    """Points each move's avertissement costs: nothing up to the threshold (4th, 6th in blitz), then each one;
    `move_points` takes no more of it than the move has left."""
    threshold = rules.warnings_threshold(blitz)
    costs = []
    count = 0
    for warned in warnings:
        count += bool(warned)
        costs.append(rules.duplicate_penalty if warned and count >= threshold else 0)
    return costs


class MovePoints(NamedTuple):
    """What one move brings a player towards his total: his score (0 when none) less what its sanctions take,
    never below 0 (FISF §5: a 3 given −5 counts 0), then the solo bonus when the move is his solo (§3.5: judged on
    the scores as written, its bonus added after the sanctions). A tuple: a ranking of 1,500 players over 25
    moves makes 37,500 of them."""

    score: int
    solo: bool
    solo_points: int
    warning: bool
    penalty_points: int  # what the move's penalty and its avertissement's cost took: at most its score
    warning_points: int  # of those, what the avertissement's cost took

    @property
    def points(self) -> int:
        return self.score - self.penalty_points + self.solo_points

    @property
    def penalty_taken(self) -> int:
        """What the arbiter's penalty alone took, without the avertissement's cost."""
        return self.penalty_points - self.warning_points


def _sanctions_taken(score: int, penalty: int, warning_cost: int) -> tuple[int, int]:
    """What a move's penalty and its avertissement's cost take from its score (§5), and of that the cost's share:
    the penalty first, then the cost from what is left, so that the move never counts less than 0."""
    penalty_taken = min(penalty, score)
    warning_taken = min(warning_cost, score - penalty_taken)
    return penalty_taken + warning_taken, warning_taken


def move_points(
    *,
    tops: list[int],
    scores: dict,
    penalties: dict | None = None,
    warnings: dict | None = None,
    rules: RuleSet,
    blitz: bool = False,
    present: int | None = None,
) -> dict[object, list[MovePoints]]:
    """Each player's `MovePoints` on each move of `tops`: a player's total in the ranking is their sum, and his
    running total after a move the sum up to it (warnings are counted in order, so the 4th costs on the move it
    comes).

    `scores`: player → score per move (None while not entered, counted 0); `penalties`: player → the penalty the
    arbiter gave on each move, in points; `warnings`: player → whether the move brought an avertissement. Only the
    moves of `tops` count. `present`: the players who count towards the solo bonus's threshold (§3.5), all of
    them unless given: a player declared absent (forfait) keeps his line but not his place in that count.
    """
    penalties = penalties or {}
    warnings = warnings or {}
    moves = len(tops)
    bonus = rules.solo_bonus_for(len(scores) if present is None else present)
    soloists = solos_by_move(tops, scores)
    points = {}
    for player, line in scores.items():
        warned = [bool(warned) for warned in warnings.get(player, [])[:moves]]
        warned += [False] * (moves - len(warned))
        costs = warning_penalties(warned, rules, blitz)
        given = penalties.get(player, [])
        player_points = []
        for move in range(moves):
            score = _score(line, move)
            taken, warning_taken = _sanctions_taken(score, given[move] if move < len(given) else 0, costs[move])
            solo = soloists[move] == player
            player_points.append(MovePoints(score, solo, bonus if solo else 0, warned[move], taken, warning_taken))
        points[player] = player_points
    return points


def rank(**arguments) -> list[RankingRow]:
    """The session's ranking, best first, then by player id, from the arguments of `move_points` (the tops, the
    scores, the penalties and avertissements, the rules, blitz, the players present)."""
    return rank_points(move_points(**arguments), tops=arguments["tops"])


def rank_points(points: dict[object, list[MovePoints]], *, tops: list[int]) -> list[RankingRow]:
    """The ranking from each player's `move_points`, for a caller that also shows them move by move."""
    top_total = sum(tops)
    figures = []
    solo_counts = {}
    for player, moves in points.items():
        # Each move's (score, solo, solo points, warning, points taken, of which the avertissement's), added up
        # column by column at once.
        scores, solos, solo_points, warnings, taken, _warning_taken = (
            map(sum, zip(*moves, strict=True)) if moves else (0,) * 6
        )
        figures.append((player, scores - taken + solo_points, solo_points, taken, warnings))
        solo_counts[player] = solos
    places = shared_places([total for _, total, *_ in figures])
    rows = [
        RankingRow(
            player=player,
            **against_tops(total, top_total),
            place=place,
            solos=solo_counts[player],
            solo_points=solo_points,
            penalty_points=penalty_points,
            warnings=warning_count,
        )
        for (player, total, solo_points, penalty_points, warning_count), place in zip(figures, places, strict=True)
    ]
    return sorted(rows, key=lambda row: (row.place, row.player))


def combine(sessions: list[tuple[list[int], dict]]) -> list[CombinedRow]:
    """A tournament's ranking over several sessions: each session is (tops, player → total).

    Totals add up, a session missed counts 0, and the percentage is of all the tops together.
    """
    players: list = []
    for _, totals in sessions:
        players.extend(player for player in totals if player not in players)
    top_total = sum(sum(tops) for tops, _ in sessions)
    session_totals = {player: tuple(totals.get(player, 0) for _, totals in sessions) for player in players}
    grand_totals = [sum(session_totals[player]) for player in players]
    places = shared_places(grand_totals)
    rows = [
        CombinedRow(
            player=player,
            **against_tops(total, top_total),
            place=place,
            session_totals=session_totals[player],
        )
        for player, total, place in zip(players, grand_totals, places, strict=True)
    ]
    return sorted(rows, key=lambda row: (row.place, row.player))


SEASON_PERCENT = Decimal("0.01")  # a season's mean percentage is shown, and compared, to two decimals


@dataclass(frozen=True)
class SeasonRow:
    player: object
    place: int
    played: int  # sessions of the season he played
    counted: int  # those of them his ranking counts: all, or his best ones
    total: int  # the sum of his counted sessions' totals
    percent: float  # the mean of his counted sessions' percentages of the tops, two decimals, rounded half up


def rank_season(sessions: list[tuple[int, dict]], *, best: int | None, by_percent: bool) -> list[SeasonRow]:
    """A club's season over its sessions, each (sum of its tops, player → total), best first, then by player.

    Each player's sessions count, or only his `best` ones when given: those of his best percentages when the
    season is ranked by percentage, of his best totals otherwise. His percentage is the mean of his counted
    sessions' percentages, each his total against that session's tops (unrounded), rather than his points against
    all their tops together: a long session weighs no more than a short one, as in the federation's season
    rankings. Equal figures, as shown, share a place. A session without a top counts for nobody.
    """
    played: dict[object, list[tuple[int, Decimal]]] = {}
    for top_total, totals in sessions:
        if not top_total:
            continue
        for player, total in totals.items():
            played.setdefault(player, []).append((total, Decimal(total) * 100 / Decimal(top_total)))
    figures = []
    for player, results in played.items():
        ordered = sorted(results, key=lambda result: result[1] if by_percent else result[0], reverse=True)
        counted = ordered[:best] if best else ordered
        mean = sum(percent for _total, percent in counted) / len(counted)
        percent = mean.quantize(SEASON_PERCENT, rounding=ROUND_HALF_UP)
        figures.append((player, len(results), len(counted), sum(total for total, _percent in counted), percent))
    places = shared_places([percent if by_percent else total for _p, _n, _c, total, percent in figures])
    rows = [
        SeasonRow(player=player, place=place, played=count, counted=kept, total=total, percent=float(percent))
        for (player, count, kept, total, percent), place in zip(figures, places, strict=True)
    ]
    return sorted(rows, key=lambda row: (row.place, row.player))


def against_tops(total: int, top_total: int) -> dict:
    """A total beside the sum of the tops: the gap (0 for whoever found every top) and the percentage."""
    return {"total": total, "gap": total - top_total, "percent": percent_of(total, top_total)}


def one_decimal(exact: Decimal) -> float:
    """A figure as the pages show it: one decimal, rounded half up (92.25 → 92.3), never to the even digit."""
    return float(exact.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def percent_of(total: int, top_total: int) -> float:
    """`total` as a percentage of `top_total`, one decimal rounded half up (72/78 → 92.3); 0.0 before any top."""
    if not top_total:
        return 0.0
    return one_decimal(Decimal(total) * 100 / Decimal(top_total))


def _score(line: list[int | None], move: int) -> int:
    return (line[move] if move < len(line) else None) or 0
