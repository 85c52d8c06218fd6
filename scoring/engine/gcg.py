"""GCG game records (poslfit.com/scrabble/gcg, v1.2; facts §5): reading them and replaying their moves.

GCG uses the English convention, the mirror of FISF: number first = horizontal (`8D` is FISF `H4`).
Positions are converted here and stored as (row, column, direction) like every other move.
"""

import codecs
import re
from dataclasses import dataclass, field, replace

from .board import ROW_LETTERS, SIZE
from .editions import Edition
from .errors import NotationError, ScoringError, gettext_noop
from .moves import Board, Move, Play, Tile
from .rules import DEFAULT_RULES, RuleSet

_COLUMN_LETTERS = ROW_LETTERS  # GCG columns A–O are FISF columns 1–15
_GCG_COORDINATE = re.compile(r"^(?:(\d{1,2})([A-O])|([A-O])(\d{1,2}))$")
_MOVE_LINE = re.compile(r"^>(?P<nick>[^:]+):\s*(?P<rest>.*)$")

# GCG's #tile-distribution names, and the English names a user may type, for our edition codes.
EDITION_NAMES = {
    "french": "fr", "english": "en", "spanish": "es", "italian": "it", "german": "de",
    "polish": "pl", "dutch": "nl", "catalan": "ca", "portuguese": "pt",
}  # fmt: skip


def edition_code(name: str) -> str:
    """Our edition code for a #tile-distribution name or an edition typed by a user (`french`, `fr`)."""
    return EDITION_NAMES.get(name.strip().lower(), name.strip().lower())


def distribution_name(code: str) -> str:
    """The #tile-distribution name GCG gives our edition `code`."""
    return _DISTRIBUTIONS.get(code, code)


_DISTRIBUTIONS = {code: name for name, code in EDITION_NAMES.items()}


@dataclass(frozen=True, slots=True)
class GcgEvent:
    """One `>nick:` line. `kind` is play, exchange, pass, phony (withdrawn), challenge, end_rack, time."""

    line: int
    nick: str
    kind: str
    rack: str
    position: str
    word: str
    score: int
    cumulative: int
    tag: str = ""  # from a `#clubsite-line` pragma just before: what GCG cannot say about this line


@dataclass
class GcgGame:
    players: list[tuple[str, str]] = field(default_factory=list)  # (nick, full name)
    player_lines: list[int] = field(default_factory=list)  # the line of each `#player`, in the same order
    pragmas: dict[str, str] = field(default_factory=dict)
    events: list[GcgEvent] = field(default_factory=list)


def decode_gcg(data: bytes) -> str:
    """GCG files are ISO-8859-1 unless their first line is `#character-encoding UTF-8`, or they begin with UTF-8's
    byte order mark (which an editor may write before that line)."""
    if data.startswith(codecs.BOM_UTF8):
        return data.decode("utf-8-sig")
    first_line = data.split(b"\n", 1)[0].strip().lower()
    if first_line.startswith(b"#character-encoding") and first_line.split()[-1] in (b"utf-8", b"utf8"):
        return data.decode("utf-8-sig")
    return data.decode("iso-8859-1")


LINE_TAG = "clubsite-line"


def parse_gcg(text: str) -> GcgGame:
    """The record's players, pragmas and lines. A `#clubsite-line` pragma tags the line that follows it."""
    game = GcgGame()
    tag = ""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#"):
            name, _, value = line[1:].partition(" ")
            if re.fullmatch(r"player\d+", name):  # a fifth player is read, for the sheet to refuse the file
                nick, _, full_name = value.strip().partition(" ")
                game.players.append((nick, full_name.strip() or nick))
                game.player_lines.append(number)
            elif name == LINE_TAG:
                tag = value.strip()
            elif name != "note":
                game.pragmas[name] = value.strip()
            continue
        match = _MOVE_LINE.match(line)
        if match:
            event = _parse_event(number, match["nick"].strip(), match["rest"].split())
            game.events.append(replace(event, tag=tag) if tag else event)
            tag = ""
    return game


def _parse_event(number: int, nick: str, parts: list[str]) -> GcgEvent:
    if len(parts) < 2:
        raise NotationError(gettext_noop("Ligne %(line)d illisible dans le fichier GCG."), line=number)
    score, cumulative = _signed(parts[-2], number), _signed(parts[-1], number)
    body = parts[:-2]
    rack, position, word, kind = "", "", "", "play"
    if body and body[0].startswith("(") and body[0].endswith(")") and body[0] not in ("(challenge)", "(time)"):
        kind, word = "end_rack", body[0].strip("()")
    else:
        rack = body[0] if body else ""
        rest = body[1:]
        if not rest:
            raise NotationError(gettext_noop("Ligne %(line)d illisible dans le fichier GCG."), line=number)
        head = rest[0]
        if head == "--":
            kind = "phony"
        elif head == "-":
            kind = "pass"
        elif head.startswith("-"):
            kind, word = "exchange", head[1:]
        elif head == "(challenge)":
            kind = "challenge"
        elif head == "(time)":
            kind = "time"
        elif head.startswith("(") and head.endswith(")"):
            kind, word = "end_rack", head.strip("()")
        elif len(rest) >= 2:
            position, word = head, rest[1]
        else:
            raise NotationError(gettext_noop("Ligne %(line)d illisible dans le fichier GCG."), line=number)
    return GcgEvent(number, nick, kind, rack, position, word, score, cumulative)


def _signed(text: str, line: int) -> int:
    try:
        return int(text)
    except ValueError:
        raise NotationError(gettext_noop("Ligne %(line)d : score illisible dans le fichier GCG."), line=line) from None


def parse_gcg_coordinate(text: str) -> tuple[int, int, bool]:
    """GCG coordinate → (row, column, horizontal): '8D' horizontal from row 8 column D, 'D8' vertical."""
    match = _GCG_COORDINATE.match(text.upper())
    if not match:
        raise NotationError(gettext_noop("Coordonnée GCG illisible : « %(text)s »."), text=text)
    if match[1]:
        row, col, horizontal = int(match[1]), match[2], True
    else:
        row, col, horizontal = int(match[4]), match[3], False
    if not 1 <= row <= SIZE:
        raise NotationError(gettext_noop("Coordonnée GCG illisible : « %(text)s »."), text=text)
    return row - 1, _COLUMN_LETTERS.index(col), horizontal


def format_gcg_coordinate(move: Move) -> str:
    row, col = str(move.row + 1), _COLUMN_LETTERS[move.col]
    return row + col if move.horizontal else col + row


def gcg_move(position: str, word: str, board: Board, edition: Edition) -> Move:
    """The Move a GCG play makes; a '.' stands for the tile already on that square."""
    row, col, horizontal = parse_gcg_coordinate(position)
    step = 1 if horizontal else SIZE
    tiles = []
    index = row * SIZE + col
    for part_index, (letter, blank) in enumerate(_split_with_dots(word, edition)):
        square = index + part_index * step
        if letter == ".":
            if square >= SIZE * SIZE or board.cells[square] is None:
                raise NotationError(gettext_noop("« %(word)s » : un point ne couvre aucune lettre."), word=word)
            tiles.append(board.cells[square])
        else:
            tiles.append(Tile(letter, blank))
    return Move(row, col, horizontal, tuple(tiles))


def _split_with_dots(word: str, edition: Edition) -> list[tuple[str, bool]]:
    out: list[tuple[str, bool]] = []
    for chunk in re.split(r"(\.)", word):
        if chunk == ".":
            out.append((".", False))
        elif chunk:
            out.extend(edition.split(chunk))
    return out


def format_gcg_word(play: Play) -> str:
    """The word as GCG writes it: '.' for tiles already on the board, lowercase for blanks."""
    placed = {index for index, _ in play.placed}
    step = 1 if play.move.horizontal else SIZE
    start = play.move.row * SIZE + play.move.col
    return "".join(tile.written if start + i * step in placed else "." for i, tile in enumerate(play.move.tiles))


@dataclass(frozen=True, slots=True)
class ReplayedMove:
    event: GcgEvent
    play: Play | None  # None when the move could not be played: `error` says why
    error: str = ""

    @property
    def computed(self) -> int | None:
        return self.play.score if self.play else None


def replay_gcg(game: GcgGame, edition: Edition, rules: RuleSet = DEFAULT_RULES) -> list[ReplayedMove]:
    """Play every move of the record on a board; a withdrawn phony (`--`) takes its move back off."""
    board = Board()
    replayed: list[ReplayedMove] = []
    last_play_by: dict[str, Play] = {}
    for event in game.events:
        if event.kind == "phony":
            withdrawn = last_play_by.pop(event.nick, None)
            if withdrawn:
                for index, _ in withdrawn.placed:
                    board.cells[index] = None
                board.tile_count -= withdrawn.tiles_placed
            continue
        if event.kind != "play":
            continue
        try:
            play = board.play(gcg_move(event.position, event.word, board, edition), edition, rules)
        except ScoringError as error:
            replayed.append(ReplayedMove(event, None, error.message))
            continue
        last_play_by[event.nick] = play
        replayed.append(ReplayedMove(event, play))
    return replayed
