"""A simultané's combined ranking: every room's players ranked together, live, on the moves every room has closed.

Solos (§3.5) count within each room, for that room's players and by its own count of players present: a solo is
a move nobody else in the room found, which the room's arbiter announces and the room's screens show, and a
ranking across the rooms must not change the totals the players saw in their room. So a player's total in the
combined ranking is his room's total.
"""

import hashlib
import unicodedata
from collections import Counter
from dataclasses import dataclass, field, replace

from django.conf import settings
from django.core.cache import cache

from scoring.engine.ranking import against_tops, move_points, rank_points, shared_places
from scoring.models import RuleSet

from ..models import Result, Session, Simultane
from .rankings import ranking_inputs
from .rounds import rounds_drawn


def room_label(name: str, club: str) -> str:
    """A room's name, with its club's in brackets unless the name holds it ("<simultané> · <club>" does)."""
    return name if club in name else f"{name} ({club})"


def _sort_key(name: str) -> str:
    """A name as an alphabetical order reads it: accents aside (Émilie before Sophie), case aside."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).casefold()


@dataclass(frozen=True)
class Row:
    place: int
    name: str
    club: str  # the room's club ("" for a personal room)
    session: str
    session_id: int
    series: str
    licence: str
    total: int
    gap: int
    percent: float
    solos: int
    absent: bool = False  # declared absent (forfait) during the game: ranked with what he played
    # With `ranking(detail=True)`, each counted move's (score or None, its `MovePoints`, whether the arbiter gave a
    # zero): an export's.
    moves: tuple = ()


@dataclass(frozen=True)
class Room:
    session: Session
    club: str
    players: int
    moves: int  # the moves it has closed: those before its last one drawn, or every one revealed once finished
    drawn: int  # the moves it has drawn
    revealed: int  # the moves whose top it has revealed
    finished: bool

    @property
    def label(self) -> str:
        """The room as the pages name it: its name, and its club's when the name does not say it (rooms named alike
        through the API were told apart by nothing)."""
        return room_label(self.session.name, self.club)

    @property
    def top_pending(self) -> bool:
        """Whether its last move drawn awaits its top: the ranking is not closed then (`simultane_close`)."""
        return self.drawn > self.revealed


@dataclass
class Ranking:
    rows: list[Row]
    tops_total: int
    moves: int  # the moves every room counts
    rooms: list[Room] = field(default_factory=list)

    @property
    def still_playing(self) -> list[Room]:
        """The rooms not finished, started or not: what closing the ranking would stop."""
        return [room for room in self.rooms if not room.finished]

    @property
    def clubs(self) -> list[str]:
        return sorted({row.club for row in self.rows if row.club})

    @property
    def series(self) -> list[str]:
        return sorted({row.series for row in self.rows if row.series})

    def club_named(self, text: str) -> str | None:
        """The club label (as `clubs` gives it) that `text` names: that label, the club's id or its address (slug);
        None for a club with no room here."""
        for room in self.rooms:
            club = room.session.club
            if club is not None and text in (room.club, str(club.pk), club.slug):
                return room.club
        return None

    def within(self, *, club: str = "", series: str = "") -> list[Row]:
        """The rows of one club's rooms, or of one series, placed among themselves, ties sharing the place."""
        rows = [r for r in self.rows if (not club or r.club == club) and (not series or r.series == series)]
        places = shared_places([r.total for r in rows])
        return [replace(row, place=place) for row, place in zip(rows, places, strict=True)]


def ranking_stamp(simultane: Simultane) -> str:
    """What the combined ranking depends on, in one query: every room and its version. Every change a room's
    ranking shows bumps its version (a result on the move being played does not, and the combined ranking does
    not count that move), and a room registered changes their list."""
    versions = list(Session.objects.filter(simultane=simultane).order_by("pk").values_list("pk", "version"))
    return hashlib.blake2b(repr(versions).encode(), digest_size=8).hexdigest()


def live_ranking(simultane: Simultane, stamp: str | None = None) -> Ranking:
    """`ranking`, computed once for each state of the rooms (`ranking_stamp`, given when the caller has it) and
    kept in the shared cache."""
    # 4: since a room not started or finished early holds the live ranking back, a ranking cached before counts
    # otherwise (and a `Room` has its moves revealed).
    key = f"duplicate:simultane-ranking:4:{simultane.pk}:{stamp or ranking_stamp(simultane)}"
    cached = cache.get(key)
    if cached is None:
        cached = ranking(simultane)
        cache.set(key, cached, settings.DUPLICATE_ROOM_CACHE_SECONDS)
    return cached


def _moves_of(figures, player: int, points: list, zeros: set) -> tuple:
    """A player's counted moves as an export prints them: (his score or None, what the move brought him, whether
    the arbiter gave him a zero, from `zeros`' (player, move) ids); a move his room has not played has no score."""
    scores, placed = figures.scores[player], [pk for pk, _top in figures.rounds]
    return tuple(
        (scores[move], brought, (player, placed[move]) in zeros) if move < len(placed) else (None, brought, False)
        for move, brought in enumerate(points)
    )


def _club_labels(clubs) -> dict[int, str]:
    """Each club's name as the ranking shows it and filters by it: two clubs of the same name are told apart by
    their address (unique), so that neither's players are counted as the other's."""
    clubs = list(clubs)
    named = Counter(club.name for club in clubs)
    return {club.pk: club.name if named[club.name] == 1 else f"{club.name} ({club.slug})" for club in clubs}


def ranking(simultane: Simultane, *, detail: bool = False) -> Ranking:
    """Every room's players ranked together, ties sharing the place, on the moves every registered room has
    closed, as its own screens count them (a move closes once its top is revealed and the next one drawn, or the
    room finished): totals compare the same moves, and no reader learns a top or a score of a move that a room has
    still to play. So a room not started holds the ranking at nothing, and a room finished early (a finished room
    may reopen and play on) at the moves it played; once the simultané is closed (`Simultane.is_over`), the whole
    game counts, a room stopped early counting 0 on the moves it did not play. A room that has drawn nothing is
    listed, not ranked. Four queries whatever the number of rooms and players, five with `detail`: each row then
    also gives what each counted move brought (`Row.moves`), solos judged within the room, as an export prints
    them."""
    sessions = list(Session.objects.filter(simultane=simultane).select_related("club", "rule_set").order_by("pk"))
    rules = {}
    for session in sessions:
        if session.rule_set.code not in rules:
            rules[session.rule_set.code] = RuleSet.objects.engine(session.rule_set.code)
    inputs = ranking_inputs(sessions, rules)
    drawn = rounds_drawn(sessions)
    rooms = []
    labels = _club_labels(session.club for session in sessions if session.club)
    for session in sessions:
        figures = inputs[session.pk]
        placed, played = len(figures.rounds), drawn.get(session.pk, 0)
        closed = placed if session.finished_at else max(min(placed, played - 1), 0)
        club = labels[session.club.pk] if session.club else ""
        rooms.append(Room(session, club, len(figures.players), closed, played, placed, bool(session.finished_at)))
    started = [room for room in rooms if room.drawn]
    moves = len(simultane.game) if simultane.is_over else min((room.moves for room in rooms), default=0)
    tops = [game_round["top_score"] for game_round in simultane.game[:moves]]
    zeros = set()
    if detail:
        zeros = set(
            Result.objects.filter(round__session__simultane=simultane).zero_marks().values_list("player_id", "round_id")
        )
    rows = []
    for room in started:
        figures = inputs[room.session.pk]
        points = move_points(**(figures.engine_arguments() | {"tops": tops}))
        for ranked in rank_points(points, tops=tops):
            # A player declared absent (forfait) stays ranked with what he played, as in his room's ranking.
            player = figures.players[ranked.player]
            counted = _moves_of(figures, ranked.player, points[ranked.player], zeros) if detail else ()
            rows.append((player, room, ranked, counted))
    tops_total = sum(tops)
    places = shared_places([ranked.total for _player, _room, ranked, _moves in rows])
    ranked_rows = sorted(
        (
            Row(
                place=place,
                name=player.name,
                club=room.club,
                session=room.session.name,
                session_id=room.session.pk,
                series=player.series,
                licence=player.licence,
                **against_tops(ranked.total, tops_total),
                solos=ranked.solos,
                absent=player.absent,
                moves=counted,
            )
            for (player, room, ranked, counted), place in zip(rows, places, strict=True)
        ),
        key=lambda row: (row.place, _sort_key(row.name), row.session_id),
    )
    return Ranking(ranked_rows, tops_total, moves, rooms)
