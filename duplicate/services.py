"""What changes a duplicate session: each function checks the FISF rules, then writes in one transaction.

Refusals raise `DuplicateError` with a French sentence; nothing is written then. Every write bumps the
session's `version`, which the room's screens poll, except a result on the move being played
(`_result_written`): those screens show the moves closed only.
"""

import csv
import datetime
import io
import random
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import astuple, dataclass
from typing import NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Max, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite import queue
from clubsite.invitations import is_address, members_named, pending_invitees, seats_invite, typed_name
from clubsite.limits import max_length
from clubsite.models import LICENCE_VALIDATOR
from clubsite.text import BYTE_ORDER_MARK, ON_LINE, hidden_character
from scoring.boards import board_rows
from scoring.engine.draw import Draw, bag_after, draw_tiles, parse_draw
from scoring.engine.errors import ScoringError
from scoring.engine.lexicon import normalise_word
from scoring.engine.movegen import OutOfTime, best_moves
from scoring.engine.moves import Board, Move, Play, replay
from scoring.engine.ranking import (
    CombinedRow,
    MovePoints,
    RankingRow,
    SeasonRow,
    combine,
    move_points,
    rank,
    rank_points,
    rank_season,
)
from scoring.engine.rules import RuleSet
from scoring.forms import GridMove
from scoring.models import RuleSet as RuleSetRow
from scoring.models import move_index

from . import games
from .errors import Conflict, DuplicateError, LinesRefused, SessionClosed
from .games import GameRound, check_draw_on, evaluate_top, fits_draw, reliquat_after, same_draw, same_top
from .games import message as _message
from .models import ZERO_REASON, Change, ExportJob, Player, Result, Round, Season, Session, Simultane, Tournament

MAX_PLAYERS = 2000
MAX_TABLE = 9999
MAX_PENALTY = 100  # points, on one move
PLAYER_NAME = max_length(Player, "name")


def _refuse_if_finished(session: Session):
    if session.finished_at:
        raise SessionClosed(_("La séance est terminée : rouvrez-la pour la modifier."))


def _actor(by):
    """The member a change is credited to; None for a player's own page (or an anonymous request)."""
    return by if by is not None and by.is_authenticated else None


def _record(session: Session, by, field: str, old="", new="", *, round_number=None, player=None) -> Change:
    """Keep one change for the session's history. `by` is the member who made it, None for a player's own page."""
    change = _change(session, by, field, old, new, round_number=round_number, player=player)
    change.save()
    return change


def _change(session: Session, by, field: str, old="", new="", *, round_number=None, player=None) -> Change:
    return Change(
        session=session,
        user=_actor(by),
        round_number=round_number,
        player=player,
        field=field,
        old=str(old)[:80],
        new=str(new)[:80],
    )


# Sessions and players


def session_create(
    *,
    creator,
    club,
    name,
    date,
    edition,
    rule_set,
    move_seconds,
    entry=Session.Entry.ARBITER,
    automatic=False,
    players: Sequence[tuple] = (),
    game: Sequence[GameRound] | None = None,
    replay_of: Session | None = None,
    simultane=None,
) -> Session:
    """A session with its players (`PlayerLine`s or (table, name) pairs), all or nothing: a refused player line
    leaves no empty session behind. An automatic game is one member facing the tops: personal, its creator
    playing alone unless players are named, and the players entering their own scores since there is no arbiter.
    `game`: the moves of a game file (duplicate.games), checked for this edition, which the session plays in order;
    `replay_of`, `simultane`: the session or the simultané whose game it plays."""
    rules = rule_set.build()
    if move_seconds not in rules.move_seconds_choices:
        raise DuplicateError(
            _("Temps par coup à choisir parmi : %(choices)s secondes.")
            % {"choices": ", ".join(str(s) for s in rules.move_seconds_choices)}
        )
    if not name.strip():
        raise DuplicateError(_("Donnez un nom à la séance."))
    if automatic:
        if club is not None:
            raise DuplicateError(_("Une partie automatique est une séance personnelle, sans club."))
        players = players or [(None, f"@{creator.get_username()}")]
        entry = Session.Entry.PLAYERS
    with transaction.atomic():
        session = Session.objects.create(
            creator=creator,
            club=club,
            name=name.strip()[:120],
            date=date,
            edition=edition,
            rule_set=rule_set,
            move_seconds=move_seconds,
            entry=entry,
            automatic=automatic,
            game=[game_round.as_dict() for game_round in game] if game else None,
            replay_of=replay_of,
            simultane=simultane,
        )
        players_add(session=session, rows=list(players), by=creator)
    return session


class PlayerLine(NamedTuple):
    """A player as a pasted line gives him: his table (None for none), his name, and what the federation knows of
    him (licence, his own club, his series), "" when the line does not say."""

    table: int | None
    name: str
    licence: str = ""
    club: str = ""
    series: str = ""


# A header row's columns, their names folded (lower case, no accent); a header naming other columns is skipped as
# before, its lines read by position.
HEADER_COLUMNS = {
    "table": "table",
    "n°": "table",
    "numero": "table",
    "nom": "name",
    "name": "name",
    "joueur": "name",
    "licence": "licence",
    "license": "licence",
    "club": "club",
    "serie": "series",
    "series": "series",
}
LICENCE = max_length(Player, "licence")
PLAYER_CLUB = max_length(Player, "club_name")
SERIES = max_length(Player, "series")
# A first field written as a number that no table has: signed, with decimals or an exponent (-3, +4, 2.5, 2,5, 1e3).
NUMBER_WRITTEN = re.compile(r"[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:e[+-]?\d+)?", re.ASCII | re.IGNORECASE)


def licence_valid(licence: str) -> bool:
    """Letters and digits only, as the member's profile keeps it (or none at all), within the column."""
    return len(licence) <= LICENCE and LICENCE_VALIDATOR.regex.search(licence) is not None


def parse_player_lines(text: str) -> list[PlayerLine]:
    """A pasted list or a CSV: one player a line, `table;name`, `table,name`, `table<TAB>name` or just a name;
    `table;name;licence` and `table;name;licence;club;series` add what the federation knows of him (a third field
    without a digit is still read as part of the name, `12;Claire;Dupont`). A first line that names its columns
    (table, nom, licence, club, série, in any order and case) maps them by name; another header (its first field
    table, nom, name) is skipped. In a numbered list, a line of several fields whose first is not a number is
    refused rather than read as a name, as is a first field written as a number that is no table (`-3;Bob`), and
    a line holding a character that shows nothing or turns the text around (clubsite.text). Every refused line is
    said (`LinesRefused`), not the first alone."""
    text = text.removeprefix(BYTE_ORDER_MARK)  # a file's, pasted with it
    rows = []
    refusals = []
    first_line = {}  # table → the line that gave it
    sample = text[:2000]
    delimiter = ";" if ";" in sample else ("\t" if "\t" in sample else ",")
    columns = None
    lines = [[field.strip() for field in fields] for fields in csv.reader(io.StringIO(text), delimiter=delimiter)]
    numbered = any(_numbered([field for field in fields if field]) for fields in lines[1:])
    for number, fields in enumerate(lines, start=1):
        filled = [field for field in fields if field]
        if not filled:
            continue
        if code := hidden_character("".join(fields)):
            refusals.append(ON_LINE % {"line": number, "code": code})
            continue
        if number == 1:
            folded = [_column_name(field) for field in fields]
            names = {"nom", "name", "joueur"} & set(folded)
            if names and all(not field or field in HEADER_COLUMNS for field in folded):
                columns = {HEADER_COLUMNS[field]: i for i, field in enumerate(folded) if field}
                continue
            if filled[0].lower() in ("table", "n°", "numéro", "numero", "nom", "name"):
                continue
            numbered = numbered or _numbered(filled)
        try:
            # A lone name under a header is a player without a table, as in a list without one.
            if columns and len(filled) > 1:
                line = _line_by_name(fields, columns, number)
            else:
                line = _line_by_position(fields, filled, number, numbered)
            if line.table is not None:
                if line.table in first_line:
                    raise DuplicateError(
                        _("Ligne %(line)d : la table %(table)d est déjà celle de la ligne %(first)d.")
                        % {"line": number, "table": line.table, "first": first_line[line.table]}
                    )
                first_line[line.table] = number
            rows.append(_checked_line(line, number))
        except DuplicateError as error:
            refusals.append(str(error))
    if refusals:
        raise LinesRefused(refusals)
    return rows


def _numbered(filled: list[str]) -> bool:
    return bool(filled) and filled[0].isascii() and filled[0].isdigit()


def _line_by_position(fields: list[str], filled: list[str], number: int, numbered: bool) -> PlayerLine:
    if _numbered(filled) and len(filled) == 1:
        raise DuplicateError(
            _("Ligne %(line)d : la table %(table)s n'a pas de joueur.") % {"line": number, "table": filled[0]}
        )
    if not _numbered(filled):
        if NUMBER_WRITTEN.fullmatch(filled[0]):
            raise DuplicateError(
                _("Ligne %(line)d : « %(table)s » n'est pas un numéro de table (un nombre entier de 1 à %(max)d).")
                % {"line": number, "table": filled[0], "max": MAX_TABLE}
            )
        if numbered and len(filled) > 1:
            raise DuplicateError(
                _("Ligne %(line)d : « %(table)s » n'est pas un numéro de table.") % {"line": number, "table": filled[0]}
            )
        return PlayerLine(None, " ".join(filled))
    table = _table(filled[0], number)
    # Columns by position when the line gives a club or a series, or a licence (a third field with a digit); a
    # third field alone without a digit is the rest of the name (`12;Claire;Dupont`).
    last = max(i for i, field in enumerate(fields) if field)
    third = fields[2] if len(fields) >= 3 else ""
    if fields[0] == filled[0] and len(fields) >= 3 and fields[1] and (last >= 3 or not third or _has_digit(third)):
        if any(fields[5:]):
            raise DuplicateError(
                _("Ligne %(line)d : une ligne compte au plus table, nom, licence, club et série.") % {"line": number}
            )
        return PlayerLine(table, *fields[1:5])
    return PlayerLine(table, " ".join(filled[1:]))


def _line_by_name(fields: list[str], columns: dict[str, int], number: int) -> PlayerLine:
    def column(key):
        return fields[columns[key]] if key in columns and columns[key] < len(fields) else ""

    table, name = column("table"), column("name")
    if not name:
        raise DuplicateError(_("Ligne %(line)d : le joueur n'a pas de nom.") % {"line": number})
    if table and not (table.isascii() and table.isdigit()):
        raise DuplicateError(
            _("Ligne %(line)d : « %(table)s » n'est pas un numéro de table.") % {"line": number, "table": table}
        )
    return PlayerLine(
        _table(table, number) if table else None, name, column("licence"), column("club"), column("series")
    )


def _table(text: str, number: int) -> int:
    table = int(text)
    if not 1 <= table <= MAX_TABLE:
        raise DuplicateError(_("Ligne %(line)d : les tables vont de 1 à %(max)d.") % {"line": number, "max": MAX_TABLE})
    return table


def _column_name(text: str) -> str:
    """A header's field as HEADER_COLUMNS names it: lower case, without accents."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(character for character in decomposed if not unicodedata.combining(character))


def _has_digit(text: str) -> bool:
    return any(character.isdigit() for character in text)


def _checked_line(line: PlayerLine, number: int) -> PlayerLine:
    """The line's fields within their columns' limits, or the first that is not, said with its line."""
    if len(line.name) > PLAYER_NAME:
        raise DuplicateError(
            _("Ligne %(line)d : nom trop long (%(max)d caractères au plus).") % {"line": number, "max": PLAYER_NAME}
        )
    if not licence_valid(line.licence):
        raise DuplicateError(
            _(
                "Ligne %(line)d : la licence « %(licence)s » ne compte que des lettres et des chiffres "
                "(%(max)d au plus)."
            )
            % {"line": number, "licence": line.licence, "max": LICENCE}
        )
    if len(line.club) > PLAYER_CLUB:
        raise DuplicateError(
            _("Ligne %(line)d : nom de club trop long (%(max)d caractères au plus).")
            % {"line": number, "max": PLAYER_CLUB}
        )
    if len(line.series) > SERIES:
        raise DuplicateError(
            _("Ligne %(line)d : série trop longue (%(max)d caractères au plus).") % {"line": number, "max": SERIES}
        )
    return line


def players_add(*, session: Session, rows: Sequence[tuple], by=None) -> list[Player]:
    """Add players at once, each a `PlayerLine` or a (table, name) pair; table numbers stay unique within the
    session. The licence a line gives is the seat's; a line without one takes the member's once he is linked. A
    name written `@username` (or `@address`) invites that member to his seat (clubsite.invitations): once he
    accepts, his own page and history show the session; until then the seat is the name typed, without the "@"."""

    taken = set(session.players.exclude(table=None).values_list("table", flat=True))
    seen = set()
    rows = [PlayerLine(*row) for row in rows]
    members = members_named(row.name for row in rows if row.name.startswith("@"))
    linked = set(session.players.exclude(member=None).values_list("member_id", flat=True))
    if members:
        linked |= pending_invitees(session.players.all())
    players, invitees = [], []
    for table, name, licence, club, series in rows:
        if not name:
            raise DuplicateError(_("Chaque joueur a besoin d'un nom."))
        if table is not None and (table in taken or table in seen):
            raise DuplicateError(_("La table %(table)d est déjà prise.") % {"table": table})
        if table is not None:
            seen.add(table)
        member = None
        if name.startswith("@"):
            member = members.get(name)
            if member is None and not is_address(name):
                raise DuplicateError(_("Aucun membre « %(name)s ».") % {"name": name[1:].strip()})
            if member is not None and member.pk in linked:
                if not is_address(name):
                    raise DuplicateError(_("« %(name)s » figure deux fois dans la séance.") % {"name": name})
                # Refusing would tell whose the address is: the seat stays the name typed, and nobody is invited.
                member = None
            if member is not None:
                linked.add(member.pk)
            name = typed_name(name)[:PLAYER_NAME] or _("Joueur")
        players.append(Player(session=session, table=table, name=name, licence=licence, club_name=club, series=series))
        invitees.append(member)
    if session.players.count() + len(players) > MAX_PLAYERS:
        raise DuplicateError(_("Une séance compte %(max)d joueurs au plus.") % {"max": MAX_PLAYERS})
    _refuse_if_finished(session)
    with transaction.atomic():
        created = Player.objects.bulk_create(players)
        seats_invite(
            inviter=by or session.creator,
            invites=[(player, member) for player, member in zip(created, invitees, strict=True) if member],
        )
        Change.objects.bulk_create(
            Change(
                session=session,
                user=_actor(by),
                player=player,
                field="player",
                new=f"{player.table or ''} {player.name}".strip()[:80],
            )
            for player in created
        )
        session.touch()
    return created


# A player's fields the federation knows, as the history names them.
PERSON_LABELS = {"licence": "licence", "club_name": "club", "series": "série"}


def player_update(
    *, player: Player, name: str, table: int | None, absent: bool, licence: str, club: str, series: str, by=None
) -> Player:
    """Rename a player, move him to another table, declare him absent (forfait), or correct what the federation
    knows of him (licence, club, series): each change kept in the history."""
    session = player.session
    _refuse_if_finished(session)
    name = name.strip()
    if not name or len(name) > PLAYER_NAME:
        raise DuplicateError(_("Un nom de joueur compte de 1 à %(max)d caractères.") % {"max": PLAYER_NAME})
    if table is not None and not 1 <= table <= MAX_TABLE:
        raise DuplicateError(_("Les tables vont de 1 à %(max)d.") % {"max": MAX_TABLE})
    if table is not None and session.players.filter(table=table).exclude(pk=player.pk).exists():
        raise DuplicateError(_("La table %(table)d est déjà prise.") % {"table": table})
    person = {"licence": licence.strip(), "club_name": club.strip(), "series": series.strip()}
    _check_person(**person)
    before = f"{player.table or ''} {player.name}{' (absent)' if player.absent else ''}".strip()
    # The history names what changed: "licence 123456" → "licence 654321".
    changed = [
        (f"{label} {getattr(player, field)}".strip(), f"{label} {person[field]}".strip())
        for field, label in PERSON_LABELS.items()
        if getattr(player, field) != person[field]
    ]
    player.name, player.table, player.absent = name, table, absent
    for field, value in person.items():
        setattr(player, field, value)
    with transaction.atomic():
        player.save(update_fields=["name", "table", "absent", *person])
        after = f"{table or ''} {name}{' (absent)' if absent else ''}".strip()
        if after != before:
            _record(session, by, "player", before, after, player=player)
        for old, new in changed:
            _record(session, by, "player", old, new, player=player)
        session.touch()
    return player


def _check_person(*, licence: str, club_name: str, series: str):
    """A licence, a club and a series within what their columns keep, or the first that is not, said."""
    if not licence_valid(licence):
        raise DuplicateError(
            _("La licence « %(licence)s » ne compte que des lettres et des chiffres (%(max)d au plus).")
            % {"licence": licence.replace("\x00", ""), "max": LICENCE}
        )
    if len(club_name) > PLAYER_CLUB or "\x00" in club_name:
        raise DuplicateError(
            _("Un nom de club compte %(max)d caractères au plus, sans caractère nul.") % {"max": PLAYER_CLUB}
        )
    if len(series) > SERIES or "\x00" in series:
        raise DuplicateError(_("Une série compte %(max)d caractères au plus, sans caractère nul.") % {"max": SERIES})


def player_remove(*, player: Player, by=None) -> None:
    """Take out a player added by mistake; one with results is declared absent instead, so nothing is lost."""
    session = player.session
    _refuse_if_finished(session)
    if player.results.exclude(score=None).exists():
        raise DuplicateError(
            _("%(name)s a déjà des résultats : déclarez-le absent plutôt que de le retirer.") % {"name": player.name}
        )
    with transaction.atomic():
        _record(session, by, "player", f"{player.table or ''} {player.name}".strip(), _("retiré"))
        player.delete()
        session.touch()


# The board, the draws and the tops


@dataclass
class Position:
    """The session's board before the next move, with the letters left from the last draw."""

    board: Board
    reliquat: list[str]
    rounds: list[Round]
    last_play: Play | None = None  # the last top laid, for the room's grid to mark

    @property
    def next_number(self) -> int:
        return len(self.rounds) + 1


def position(session: Session, before: int | None = None) -> Position:
    """The board with every top placed (those of moves before `before` only, when given). Each top was checked
    when it was entered, so the replay is strict: a top the board refuses now is a bug, not a case to skip."""
    edition = session.edition_engine
    rules = session.rules_engine
    rounds = list(session.rounds.all())
    if before is not None:
        rounds = [r for r in rounds if r.number < before]
    replayed = replay([r.top for r in rounds if r.top], edition, rules, strict=True)
    reliquat: list[str] = []
    if rounds:
        last = rounds[-1]
        letters = list(parse_draw(last.draw, edition, rules.rack_size).letters) if last.draw else []
        reliquat = reliquat_after(letters, replayed.plays[-1]) if last.top else letters
    return Position(replayed.board, reliquat, rounds, replayed.plays[-1] if replayed.plays else None)


def room_board(session: Session) -> list:
    """The grid the room sees: every top placed, the last one's tiles marked so that the eye finds it."""
    current = position(session)
    laid = GridMove(placements=dict(current.last_play.placed) if current.last_play else {})
    return board_rows(current.board, laid)


def round_add(*, session: Session, draw_text: str | None = None, top_text: str | None = None, by=None) -> Round:
    """A new move: the draw typed (from a bag or a pre-drawn game) or drawn by the server (FISF §3.2, from the
    session's seed), then its top when given (an arbiter entering a game played on paper). A session playing a
    game (a replay, a game file, a simultané) takes the game's next draw, a typed one must be that one, and never
    its top: a draw never reveals its top, which comes with `round_reveal_top` once the move is played.

    The top finder's moves for the draw are searched before the transaction that writes it, on the session as read
    without a lock (issue 22: searched while the session's row was locked, they held every score sent meanwhile,
    answered 503). The session must then stand as it was read; when it moved meanwhile (a top corrected, a draw made
    or cancelled by someone else) the draw is worked out again on what it became."""
    for _attempt in range(DRAW_ATTEMPTS):
        planned = _planned_draw(session, draw_text, top_text)
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


def _planned_draw(session: Session, draw_text: str | None, top_text: str | None) -> _PlannedDraw:
    """The next move's draw, checked, and its tops searched (see `round_add`): nothing locked, nothing written."""
    session = Session.objects.get(pk=session.pk)
    _refuse_if_finished(session)
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
    suggestions, complete = ([], True) if scripted else _suggestions(session, current, draw)
    return _PlannedDraw(_moves_of(current), current.next_number, draw, not draw_text, suggestions, complete)


def _write_draw(session: Session, planned: _PlannedDraw, top_text: str | None, by) -> Round | None:
    """The planned move written with its top, if given, in one transaction holding the session's row; None, with
    nothing written, when the session no longer stands where the move was planned."""
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        _refuse_if_finished(locked)
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
        _record(locked, by, "draw", new=round_.draw, round_number=round_.number)
        if top_text:
            _set_top(locked, round_, top_text, current, by)
            _record(locked, by, "top", new=f"{round_.top} ({round_.top_score})", round_number=round_.number)
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
        _refuse_if_sealed(session.replay_of_id, session.creator)
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
        source = _replayed_round(session, number)
        return GameRound(number, source.draw, source.top, source.top_score) if source else None
    game = session.game if session.game is not None else getattr(session.simultane, "game", None)
    if not game or number > len(game):
        return None
    return GameRound(**game[number - 1])


SUGGESTIONS_KEPT = 10


def _suggestions(session: Session, current: Position, draw: Draw) -> tuple[list[dict], bool]:
    """The best moves of the draw on the board (FISF §3.4 ties), from the edition's word list (none without one),
    and whether the search saw every move: one that meets the time limit gives what it found, and the draw is
    saved all the same."""
    index = move_index(session.edition.code)
    if index is None:
        return [], True
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
        _refuse_if_finished(session)
        if session.rounds.filter(number__gt=round_.number).exists():
            raise DuplicateError(_("Seul le dernier coup peut être annulé."))
        if round_.results.exists():
            raise Conflict(
                _("Le coup %(number)d a déjà des résultats : corrigez-les plutôt que de l'annuler.")
                % {"number": round_.number}
            )
        old = f"{round_.draw} {round_.top}".strip()
        _record(session, by, "draw", old, _("annulé"), round_number=round_.number)
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
        _refuse_if_finished(session)
        if session.rounds.filter(number__gt=round_.number).exists():
            raise DuplicateError(_("Seul le top du dernier coup peut être changé."))
        old = f"{round_.top} ({round_.top_score})" if round_.top else ""
        _set_top(session, round_, top_text, position(session, before=round_.number), by)
        new = f"{round_.top} ({round_.top_score})"
        if new != old:  # the same top placed again (its page did not come back): nothing changed
            _record(session, by, "top", old, new, round_number=round_.number)
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
        # revealed, see `_result_row`), taken back with its reason rather than holding the room's reveal.
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
        old = _entered(result.score, result.move)
        result.reason = _("« %(entry)s » : plus que le top (%(top)d), bulletin repris ; à saisir de nouveau.") % {
            "entry": old,
            "top": top,
        }
        result.score, result.move = None, ""
        result.save(update_fields=["score", "move", "reason", "updated_at"])
        _record(session, by, "score", old, "", round_number=round_.number, player=result.player)
    return [result.player for result in above]


# Results


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
    queries whatever their number: the players with their results before, one upsert, the history. A player sent
    twice counts once, the last bulletin winning. Rows are written in player order, so that two batches at once
    wait for each other instead of deadlocking."""
    _refuse_if_finished(round_.session)
    last = {entry.player: entry for entry in entries}
    if not last:
        return []
    with transaction.atomic():
        players = {player.pk: player for player in Player.objects.with_result_on(round_, last)}
        rows = []
        for pk, entry in sorted(last.items()):
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
            _change(round_.session, by, "score", _entered(*row.player.result_before), _entered(row.score, row.move),
                    round_number=round_.number, player=row.player)
            for row in rows
            if row.player.result_before != (row.score, row.move)
        )  # fmt: skip
        _result_written(round_)
    written = {row.player_id: row for row in rows}
    return [written[entry.player] for entry in entries]


def _result_row(round_: Round, player: Player, entry: Entry) -> Result:
    """The result a bulletin gives, checked against the rules; refused with the reason. A score is checked against
    the top once placed only, from a phone and from the console alike: against a game's sealed top, « supérieur
    au top » tried score after score would tell its value before anyone has played (issue 22). A game's reveal
    takes back the bulletins above its top instead (`_take_back_above`)."""
    score, move = entry.score, entry.move
    if player.absent:
        raise DuplicateError(
            _("%(name)s est déclaré absent : décochez « absent » avant de saisir son bulletin.") % {"name": player.name}
        )
    reason = ""
    top = round_.top_score
    if move:
        score, move, reason = _score_move(round_, move)
        if entry.written is not None and entry.written != score and not reason:
            raise DuplicateError(
                _("Le coup %(move)s vaut %(score)d points, pas %(written)d : vérifiez le bulletin.")
                % {"move": move, "score": score, "written": entry.written}
            )
        if round_.top_score is not None and score > round_.top_score:
            raise DuplicateError(
                _("Ce coup vaut %(score)d points, plus que le top (%(top)d) : vérifiez le top.")
                % {"score": score, "top": round_.top_score}
            )
    if score is None:
        raise DuplicateError(_("Un bulletin donne un score ou un coup joué."))
    if score < 0:
        raise DuplicateError(_("Un score est un nombre positif ou nul."))
    most = round_.session.rule_set.max_move_points  # the rule set's row, loaded with the move on the API's path
    if score > most:  # before the top is known too: a slip that would then hold back the top's placing
        raise DuplicateError(_("Un coup vaut au plus %(max)d points : faute de frappe ?") % {"max": most})
    # Before the top is placed (players writing during the move) the check waits for it.
    if top is not None and score > top:
        raise DuplicateError(_("Score supérieur au top : faute de frappe ?"))
    return Result(round=round_, player=player, score=score, move=move, reason=reason, updated_at=timezone.now())


def _entered(score, move) -> str:
    """A bulletin as the history shows it: "18 4G AVIONS", "22", nothing for no score."""
    return f"{'' if score is None else score} {move}".strip()


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
    _refuse_if_finished(round_.session)
    with transaction.atomic():
        result = Result.objects.select_for_update().filter(round=round_, player=player).first()
        if result is None or result.score is None:
            return False
        old = _entered(result.score, result.move)
        if result.warning or result.penalty:
            result.score, result.move, result.reason = None, "", ""
            result.save(update_fields=["score", "move", "reason", "updated_at"])
        else:
            result.delete()
        _record(round_.session, by, "score", old, "", round_number=round_.number, player=player)
        # Whatever the move: a deleted row leaves no time for the arbiter's console to see (its poll).
        round_.session.touch()
    return True


@dataclass
class Bulletins:
    """Where a move's entry stands: how many players have a result, and who is still missing."""

    entered: int
    total: int
    missing: list[Player]


def bulletins(round_: Round, players=None, results=None) -> Bulletins:
    """The move's bulletins in two queries whatever the number of players, none when the page already holds its
    `players` and their `results` (player id → Result)."""
    if players is None:
        players = round_.session.players.all()
    if results is None:
        entered = set(round_.results.exclude(score=None).values_list("player_id", flat=True))
    else:
        entered = {player_id for player_id, result in results.items() if result.score is not None}
    present = [player for player in players if not player.absent]
    entered &= {player.pk for player in present}
    return Bulletins(len(entered), len(present), [player for player in present if player.pk not in entered])


def bulletin_enter(*, round_: Round, table: str, entry: str, by=None) -> tuple[Player, Result]:
    """A bulletin typed at the keyboard: the table number (or, for a player without a table, the start of his
    name), then the score or the move written on it."""
    player = bulletin_player(round_.session, table)
    return player, entry_enter(round_=round_, player=player, entry=entry, by=by)


def bulletin_player(session: Session, text: str) -> Player:
    """The player a bulletin names: his table number, or the start of his name or of one of its words when he has
    no table ("mar" for Martine, "roux" for Thibault Roux), which must name one player only."""
    text = " ".join(text.split())
    if not text:
        raise DuplicateError(_("Tapez le numéro de table du bulletin (ou le nom d'un joueur sans table)."))
    if text.isascii() and text.isdigit():
        player = session.players.filter(table=int(text)).first() if len(text) < 6 else None
        if player is None:
            raise DuplicateError(_("Aucun joueur à la table %(table)s.") % {"table": text})
        return player
    wanted = _folded(text)
    named = [player for player in session.players.filter(table=None) if _name_starts(player.name, wanted)]
    exact = [player for player in named if _folded(player.name) == wanted]
    if len(exact) == 1 or len(named) == 1:
        return (exact or named)[0]
    if not named:
        tabled = [p for p in session.players.exclude(table=None) if _name_starts(p.name, wanted)]
        if len(tabled) == 1:
            raise DuplicateError(
                _("%(name)s est à la table %(table)d : tapez %(table)d.")
                % {"name": tabled[0].name, "table": tabled[0].table}
            )
        raise DuplicateError(_("Aucun joueur sans table ne s'appelle « %(name)s ».") % {"name": text[:40]})
    raise DuplicateError(
        _("« %(name)s » désigne plusieurs joueurs : %(names)s. Tapez davantage du nom.")
        % {"name": text[:40], "names": ", ".join(player.name for player in named[:5])}
    )


def _name_starts(name: str, wanted: str) -> bool:
    """Whether the name, or one of its words, starts as typed: "roux" and "thib" both name Thibault Roux."""
    folded = _folded(name)
    return folded.startswith(wanted) or any(word.startswith(wanted) for word in folded.split())


def _folded(text: str) -> str:
    """A name as compared at the keyboard: the word list's spelling (no case, no accents), spaces single."""
    return normalise_word(" ".join(text.split()))


def check_notation(session: Session, text: str):
    """Refuses a move that cannot be read at all ("abc"): a slip of the fingers to correct, not a bulletin worth 0.
    A readable move that cannot be played still scores 0 with the reason (FISF §5.4)."""
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
    check_notation(round_.session, entry)
    return result_set(round_=round_, player=player, move=entry, by=by)


def move_score(round_: Round, text: str) -> tuple[int, str]:
    """What the move written `text` scores on the move's board with its draw, and why it cannot be played ("" when
    it can: it then scores that)."""
    score, _notation, reason = _score_move(round_, text)
    return score, reason


def _score_move(round_: Round, text: str) -> tuple[int, str, str]:
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
    _refuse_if_finished(round_.session)
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
            if not 0 <= penalty <= MAX_PENALTY:
                raise DuplicateError(_("Une pénalité va de 0 à %(max)d points.") % {"max": MAX_PENALTY})
            result.penalty = penalty
            fields.append("penalty")
        result.save(update_fields=[*fields, "updated_at"])
        for field in ("score", "warning", "penalty"):
            if field in fields and before[field] != getattr(result, field):
                old, new = (_shown(value) for value in (before[field], getattr(result, field)))
                _record(round_.session, by, field, old, new, round_number=round_.number, player=player)
        _result_written(round_)
    return result


def _shown(value) -> str:
    """A value as the history shows it: a warning is "oui" or "non", a missing score nothing."""
    if isinstance(value, bool):
        return _("oui") if value else _("non")
    return "" if value is None else str(value)


def session_finish(*, session: Session, by=None):
    """A finished session is read-only: every write is refused (409) until an organiser reopens it."""
    _refuse_if_finished(session)
    with transaction.atomic():
        session.finished_at = timezone.now()
        session.save(update_fields=["finished_at"])
        _record(session, by, "state", _("en cours"), _("terminée"))
        session.touch()


def session_reopen(*, session: Session, by=None):
    """Reopen a finished session to correct it; the reopening is kept in the history."""
    if not session.finished_at:
        raise DuplicateError(_("La séance n'est pas terminée."))
    with transaction.atomic():
        session.finished_at = None
        session.save(update_fields=["finished_at"])
        _record(session, by, "state", _("terminée"), _("rouverte"))
        session.touch()


def timer_start(*, session: Session):
    """The move timer runs on the server's clock: every screen counts down to the same deadline."""
    _refuse_if_finished(session)
    session.timer_started_at = timezone.now()
    session.save(update_fields=["timer_started_at"])
    session.touch()


# The ranking


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


def game_document(session: Session) -> dict:
    """The session's game as a game file holds it (duplicate.games): every move whose top is placed, in order. A
    simultané's room gives the moves it has played only: the rest of the game stays sealed."""
    rounds = session.rounds.exclude(top_score=None).order_by("number")
    played = [GameRound(r.number, r.draw, r.top, r.top_score) for r in rounds]
    about = {"name": session.name, "date": session.date.isoformat(), "rules": session.rule_set.code}
    return games.document(session.edition.code, played, **about)


def rounds_drawn(sessions) -> dict[int, int]:
    """How many moves each of `sessions` has drawn (absent: none), in one query."""
    drawn = Round.objects.filter(session__in=list(sessions)).values("session").annotate(last=Max("number"))
    return {row["session"]: row["last"] for row in drawn}


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


@dataclass
class SheetColumn:
    """A player on the game's sheet: his ranking row, and on each move his result (None where none) with what the
    move brought him as the ranking counts it (None before its top is placed)."""

    player: Player
    row: RankingRow
    cells: list[tuple[Round, Result | None, MovePoints | None]]  # one per move

    @property
    def solo_numbers(self) -> set[int]:
        return {round_.number for round_, _result, points in self.cells if points and points.solo}


@dataclass
class GameSheet:
    """The whole game as seed 000's duplicate sheet: a line a move (draw, top, square, points), a column a
    player, then each player's total, gap, solos and place."""

    rounds: list[Round]
    columns: list[SheetColumn]  # in the order of the tables
    ranked: list[SheetColumn]  # best first
    tops_total: int


def results_readable(session: Session, reader) -> QuerySet[Result]:
    """The session's results `reader` may read: every one for its organisers; for its other readers (its club's
    members, its players) none on a move whose top is not revealed yet: until then its bulletins are the arbiter's
    (FISF: handed in at the end of the time), and another player's score would tell what he found."""
    results = Result.objects.filter(round__session=session)
    if not session.is_organiser(reader):
        results = results.exclude(round__top="")
    return results


def game_sheet(session: Session, *, reader) -> GameSheet:
    """The sheet as `reader` may read it (`results_readable`), in six queries whatever the number of players and
    moves."""
    figures = ranking_input(session)
    points = move_points(**figures.engine_arguments())
    rows = rank_points(points, tops=figures.tops)
    rounds = list(session.rounds.all())
    index = {round_.pk: i for i, round_ in enumerate(rounds)}
    results = {pk: [None] * len(rounds) for pk in figures.players}
    for result in results_readable(session, reader):
        results[result.player_id][index[result.round_id]] = result
    counted = {pk: [None] * len(rounds) for pk in figures.players}
    for pk, moves in points.items():
        for (round_pk, _top), move in zip(figures.rounds, moves, strict=True):
            counted[pk][index[round_pk]] = move
    columns = {
        row.player: SheetColumn(
            figures.players[row.player], row, list(zip(rounds, results[row.player], counted[row.player], strict=True))
        )
        for row in rows
    }
    ordered = [columns[player.pk] for player in sorted(figures.players.values(), key=_table_order)]
    return GameSheet(rounds, ordered, [columns[row.player] for row in rows], sum(figures.tops))


def _table_order(player: Player):
    """The order of `Player.Meta.ordering`: tables first, then players without one by name."""
    return (player.table is None, player.table or 0, player.name, player.pk)


# Exports of large sessions, built by a worker


def export_inline(session: Session) -> bool:
    """Whether the session is small enough for its file to be built within the request."""
    return session.players.count() <= settings.DUPLICATE_EXPORT_INLINE_MAX_PLAYERS


class ExportUnavailable(DuplicateError):
    """No worker can be reached to build the file (the broker is down), and the session is too large to build it
    within the request."""

    status = 503


def export_request(*, session: Session, kind: str, user) -> ExportJob | None:
    """The job building the session's file: one already done or under way for the same results (the session's
    changes) is reused, so that pressing the button again or from another tab builds nothing twice; otherwise a
    new one, queued at once (its row is committed first: the view runs outside any transaction) for a worker to
    fill. When the broker cannot be reached, no job is left waiting for a task never queued: None when the session
    is small enough for the caller to build the file itself, else ExportUnavailable."""
    from .tasks import export_session

    version = session.changes_made()
    export_mark_stuck(session.export_jobs.all())
    under_way = Q(status__in=(ExportJob.Status.PENDING, ExportJob.Status.RUNNING))
    job = (
        session.export_jobs.filter(Q(status=ExportJob.Status.DONE) | under_way, kind=kind, session_version=version)
        .defer("content")
        .first()
    )
    if job is not None:
        return job
    job = ExportJob.objects.create(session=session, kind=kind, session_version=version, requested_by=user)
    try:
        queue.send(export_session, job.pk)
    except queue.QueueUnavailable:
        job.delete()
        if session.players.count() <= settings.DUPLICATE_EXPORT_FALLBACK_MAX_PLAYERS:
            return None
        raise ExportUnavailable(
            _(
                "Les exports sont momentanément indisponibles : le service qui prépare les fichiers ne répond pas. "
                "Réessayez dans quelques minutes."
            )
        ) from None
    return job


def export_mark_stuck(jobs=None) -> int:
    """Mark failed, with the reason, the jobs (all by default) waiting or running that have not moved for
    DUPLICATE_EXPORT_STUCK_SECONDS: their worker is gone. Their page then offers to start them again. Run by each
    job's page and periodically by Celery beat; how many were marked."""
    jobs = ExportJob.objects.all() if jobs is None else jobs
    return jobs.filter(
        status__in=(ExportJob.Status.PENDING, ExportJob.Status.RUNNING), updated_at__lt=ExportJob.stuck_before()
    ).update(
        status=ExportJob.Status.FAILED,
        error=_("la préparation s'est arrêtée sans finir (le service qui prépare les fichiers a été interrompu)."),
        finished_at=timezone.now(),
    )


def export_purge() -> int:
    """Delete the export jobs, with their files, older than DUPLICATE_EXPORT_RETENTION_HOURS (stuck ones too);
    how many went."""
    cutoff = timezone.now() - datetime.timedelta(hours=settings.DUPLICATE_EXPORT_RETENTION_HOURS)
    deleted, _by_model = ExportJob.objects.filter(created_at__lt=cutoff).delete()
    return deleted


def export_run(*, job_id: int):
    """Build the job's file. Safe to run twice (a task given again to another worker after its first one died):
    a job already done, or deleted meanwhile, is left as it is; one started before is built again."""
    from .exports import build

    job = (
        ExportJob.objects.select_related("session", "session__edition", "session__rule_set")
        .defer("content")
        .filter(pk=job_id)
        .first()
    )
    if job is None or job.status == ExportJob.Status.DONE:
        return
    jobs = ExportJob.objects.filter(pk=job.pk)
    jobs.update(status=ExportJob.Status.RUNNING, progress=0, error="", updated_at=timezone.now())

    def progress(done, total):
        jobs.update(progress=int(done * 100 / max(total, 1)), updated_at=timezone.now())

    try:
        content = build(job.session, job.kind, progress)
    except Exception as error:  # a failed export must say so on the page instead of spinning forever
        jobs.update(status=ExportJob.Status.FAILED, error=str(error)[:300], finished_at=timezone.now())
        raise
    now = timezone.now()
    jobs.update(status=ExportJob.Status.DONE, progress=100, content=content, updated_at=now, finished_at=now)


def session_again(*, session: Session, creator, name: str = "", date=None) -> Session:
    """A new session with the same settings and players (same tables): the next game of a club evening, under
    its own name and date (today unless given)."""
    with transaction.atomic():
        copy = Session.objects.create(
            creator=creator,
            club=session.club,
            name=(name.strip() or session.name)[:120],
            date=date or timezone.localdate(),
            edition=session.edition,
            rule_set=session.rule_set,
            move_seconds=session.move_seconds,
            entry=session.entry,
        )
        originals = list(session.players.select_related("member"))
        copies = Player.objects.bulk_create(Player(session=copy, name=p.name, table=p.table) for p in originals)
        # The members linked to the session are invited to the new one: each session is his to accept.
        seats_invite(
            inviter=creator,
            invites=[(seat, p.member) for seat, p in zip(copies, originals, strict=True) if p.member],
        )
    return copy


def session_replay(*, source: Session, creator) -> Session:
    """ "Rejouer cette séance": a personal automatic game on a finished session's draws, alone against its tops, with
    its time per move. Each move's draw and top are the session's own (in duplicate every board is the tops', so
    the draws follow whatever the player plays); at the end, `replay_standing` says where his total would have
    ranked in the room."""
    if source.finished_at is None:
        raise DuplicateError(_("Une séance se rejoue une fois terminée."))
    if not source.rounds.exclude(top="").exists():
        raise DuplicateError(_("Cette séance n'a aucun coup à rejouer."))
    _refuse_if_sealed(source.pk, creator)
    replay = session_create(
        creator=creator,
        club=None,
        name=(_("Rejeu : %(name)s") % {"name": source.name})[:120],
        date=timezone.localdate(),
        edition=source.edition,
        rule_set=source.rule_set,
        move_seconds=source.move_seconds,
        automatic=True,
        replay_of=source,
    )
    return replay


def _refuse_if_sealed(source_pk: int, player) -> None:
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


def _replayed_round(replay: Session, number: int) -> Round | None:
    """The move of the replayed session that the replay plays as its move `number`: None past its last top."""
    return Round.objects.filter(session_id=replay.replay_of_id, number=number).exclude(top="").first()


def automatic_entry_check(round_: Round, *, score: int | None, move: str) -> None:
    """A game played alone has no arbiter to correct a slip once its top is shown: a move that cannot be played
    is refused with its reason, to be corrected while the move is open (the arbiter's bulletin would score it 0,
    FISF §5.4), and so is a score above the move's top."""
    if move:
        score, _notation, reason = _score_move(round_, move)
        if reason:
            raise DuplicateError(reason)
    top = _upcoming_top_score(round_)
    if score is not None and top is not None and score > top:
        if move:
            raise DuplicateError(
                _(
                    "Ce coup vaut %(score)d points, plus que le top (%(top)d) : un de ses mots manque à la liste "
                    "de mots."
                )
                % {"score": score, "top": top}
            )
        raise DuplicateError(_("Score supérieur au top : faute de frappe ?"))


def _upcoming_top_score(round_: Round) -> int | None:
    """The score of the top an automatic game will reveal: the replayed session's, else the top finder's best."""
    if round_.top_score is not None:
        return round_.top_score
    scripted = scripted_round(round_.session, round_.number)
    if scripted is not None:
        return scripted.top_score
    return round_.suggestions[0]["score"] if round_.suggestions else None


def replay_is_over(replay: Session) -> bool:
    """Every move of the replayed session has been drawn in the replay."""
    return _replayed_round(replay, replay.rounds.count() + 1) is None


@dataclass(frozen=True)
class ReplayStanding:
    total: int
    tops_total: int
    percent: float
    place: int  # among the room's players and him, ties sharing the place
    players: int  # the room's, and him
    winner: int  # the room's best total
    tied: bool  # someone of the room has the same total

    @property
    def ordinal(self) -> str:
        """The place as French writes it: 1er, 2e, 3e…, "ex aequo" when shared."""
        place = _("1er") if self.place == 1 else _("%(place)de") % {"place": self.place}
        return _("%(place)s ex aequo") % {"place": place} if self.tied else place


def replay_standing(replay: Session) -> ReplayStanding | None:
    """Where the replay's total would have ranked in the room of the session it replays, by its final ranking
    (whose totals count the room's solos, which a player alone cannot make: said on the page); None until the
    replay is finished, or when the session it replays is gone."""
    source = replay.replay_of
    if source is None or replay.finished_at is None:
        return None
    (mine,), tops_total = ranking(replay)
    room, _room_tops = ranking(source)
    totals = [named.row.total for named in room if not named.player.absent]
    if not totals:
        return None
    total = mine.row.total
    return ReplayStanding(
        total=total,
        tops_total=tops_total,
        percent=mine.row.percent,
        place=1 + sum(other > total for other in totals),
        players=len(totals) + 1,
        winner=max(totals),
        tied=total in totals,
    )


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


def _identity(player: Player) -> str:
    """Who a player is across sessions (a tournament's, a season's): the member his seat is linked to, else his
    name, whatever its case and its spaces (around it, or two for one inside it)."""
    return f"m{player.member_id}" if player.member_id else f"n{' '.join(player.name.split()).casefold()}"


def _shown_name(known: str | None, seen: str) -> str:
    """The name shown for a player merged across sessions by `_identity`: the first form seen with a capital
    letter, else the first seen, so that an "alice martin" typed in a hurry gives way to "Alice Martin"."""
    if known is None or (known == known.lower() and seen != seen.lower()):
        return seen
    return known


class TournamentPlayer(NamedTuple):
    """A player across a tournament's sessions: his name (by `_shown_name`), and his licence, club and series as
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
    player is the same across sessions by `_identity`."""
    sessions = list(tournament.sessions.unsealed_for(reader).order_by("date", "pk"))
    combined_input = []
    people = {}
    for session in sessions:
        rows, _tops_total = ranking(session)
        totals = {}
        for named in rows:
            seat = named.player
            key = _identity(seat)
            known = people.get(key, TournamentPlayer(""))
            people[key] = known._replace(
                name=_shown_name(known.name or None, seat.name),
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


@dataclass
class SeasonRanking:
    rows: list[tuple[str, SeasonRow]]  # (the player's name, his row), best first
    sessions: list[Session]  # those the season counts, in date order


def season_ranking(season: Season, *, reader) -> SeasonRanking:
    """The season's ranking over `season.sessions()` as `reader` may read them (a simultané's room sealed from him
    left out, `SessionQuerySet.sealed_from`), by `scoring.engine.ranking.rank_season`: each session's
    totals as its own ranking gives them, a player the same across sessions by `_identity`. A player declared
    absent (forfait) did not play that session: it does not count for him. A player is named by `_shown_name`
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
                key = _identity(player)
                totals[key] = row.total
                names[key] = _shown_name(names.get(key), player.name)
        played.append((sum(figures.tops), totals))
    rows = rank_season(played, best=season.best, by_percent=season.by_percent)
    named = sorted(((names[row.player], row) for row in rows), key=lambda pair: (pair[1].place, pair[0].casefold()))
    return SeasonRanking(named, sessions)
