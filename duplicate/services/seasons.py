"""A season's ranking over the sessions it counts (`Season.sessions`), by `scoring.engine.ranking.rank_season`."""

from dataclasses import dataclass

from scoring.engine.ranking import (
    SeasonRow,
    rank,
    rank_season,
)
from scoring.models import RuleSet as RuleSetRow

from ..models import Season, Session
from .rankings import ranking_inputs
from .tournaments import identity, shown_name


@dataclass
class SeasonRanking:
    rows: list[tuple[str, SeasonRow]]  # (the player's name, his row), best first
    sessions: list[Session]  # those the season counts, in date order


def season_ranking(season: Season, *, reader) -> SeasonRanking:
    """The season's ranking over `season.sessions()` as `reader` may read them (a simultané's room sealed from him
    left out, `SessionQuerySet.sealed_from`), by `scoring.engine.ranking.rank_season`: each session's
    totals as its own ranking gives them, a player the same across sessions by `identity`. A player declared
    absent (forfait) did not play that session: it does not count for him. A player is named by `shown_name`
    (as in a tournament); equal places are listed by name."""
    sessions = list(season.sessions().unsealed_for(reader).select_related("rule_set"))
    rules = {code: RuleSetRow.objects.engine(code) for code in {session.rule_set.code for session in sessions}}
    inputs = ranking_inputs(sessions, rules)
    played, names = [], {}
    for session in sessions:
        figures = inputs[session.pk]
        totals = {}
        for row in rank(**figures.engine_arguments()):
            player = figures.players[row.player]
            if not player.absent:
                key = identity(player)
                totals[key] = row.total
                names[key] = shown_name(names.get(key), player.name)
        played.append((sum(figures.tops), totals))
    rows = rank_season(played, best=season.best, by_percent=season.by_percent)
    named = sorted(((names[row.player], row) for row in rows), key=lambda pair: (pair[1].place, pair[0].casefold()))
    return SeasonRanking(named, sessions)
