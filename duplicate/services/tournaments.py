"""Tournaments: sessions ranked together, a player the same across them by his member or his name."""

from dataclasses import dataclass
from typing import NamedTuple

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.engine.ranking import (
    CombinedRow,
    combine,
)

from ..errors import DuplicateError
from ..models import Player, Session, Tournament
from .rankings import ranking


def tournament_create(*, name, creator, sessions) -> Tournament:
    """Sessions ranked together. The tournament belongs to their club when they share one, so that the club's
    other organisers run it too; otherwise to its creator alone."""
    sessions = list(sessions)
    if len(sessions) < 2:
        raise DuplicateError(_("Un tournoi réunit au moins deux séances."))
    clubs = {session.club_id for session in sessions}
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name, creator=creator, club=sessions[0].club if len(clubs) == 1 else None
        )
        tournament.sessions.set(sessions)
    return tournament


def identity(player: Player) -> str:
    """Who a player is across sessions (a tournament's, a season's): the member his seat is linked to, else his
    name, whatever its case and its spaces (around it, or two for one inside it)."""
    return f"m{player.member_id}" if player.member_id else f"n{' '.join(player.name.split()).casefold()}"


def shown_name(known: str | None, seen: str) -> str:
    """The name shown for a player merged across sessions by `identity`: the first form seen with a capital
    letter, else the first seen, so that an "alice martin" typed in a hurry gives way to "Alice Martin"."""
    if known is None or (known == known.lower() and seen != seen.lower()):
        return seen
    return known


class TournamentPlayer(NamedTuple):
    """A player across a tournament's sessions: his name (by `shown_name`), and his licence, club and series as
    the first of his seats that gives each says it ("" when none does)."""

    name: str
    licence: str = ""
    club: str = ""
    series: str = ""


@dataclass(frozen=True)
class TournamentRanking:
    rows: list[tuple[TournamentPlayer, CombinedRow]]  # best first
    sessions: list[Session]  # by date
    tops: list[int]  # each session's tops' total, in the sessions' order

    @property
    def tops_total(self) -> int:
        return sum(self.tops)


def tournament_ranking(tournament, *, reader) -> TournamentRanking:
    """The combined ranking of a tournament's sessions as `reader` may read them (a simultané's room sealed from
    him left out, `SessionQuerySet.sealed_from`): the sum of each player's totals, equal totals sharing a place. A
    player is the same across sessions by `identity`."""
    sessions = list(tournament.sessions.unsealed_for(reader).order_by("date", "pk"))
    combined_input = []
    people = {}
    for session in sessions:
        rows, _tops_total = ranking(session)
        totals = {}
        for named in rows:
            seat = named.player
            key = identity(seat)
            known = people.get(key, TournamentPlayer(""))
            people[key] = known._replace(
                name=shown_name(known.name or None, seat.name),
                licence=known.licence or seat.licence,
                club=known.club or seat.club_name,
                series=known.series or seat.series,
            )
            totals[key] = named.row.total
        tops = list(session.rounds.exclude(top_score=None).values_list("top_score", flat=True))
        combined_input.append((tops, totals))
    return TournamentRanking(
        rows=[(people[row.player], row) for row in combine(combined_input)],
        sessions=sessions,
        tops=[sum(tops) for tops, _totals in combined_input],
    )
