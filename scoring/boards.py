"""Where the grid counter keeps its board: the contract an app fulfils to put the grid on its own board.

The grid page (`views.grid_page`) knows nothing of score sheets or duplicate sessions: it receives a
`BoardStore`. The counter brings two: a visitor's board in his HTTP session and a member's on his account;
`sheets` and `duplicate` each bring theirs, beside their own code.
"""

from typing import Protocol, runtime_checkable

from django.utils.translation import gettext

from .engine.board import ROW_LETTERS, SIZE, SQUARES, square_name
from .engine.moves import Board, Play, Tile
from .forms import GridMove, blank_mark
from .models import GridBoard


class GridRefusal(Exception):
    """A grid button refused: its message is shown as an error and the page answers 400."""


@runtime_checkable
class BoardStore(Protocol):
    """A board the grid counter lays moves on.

    - `template_name`: the page, which extends "scoring/grid.html" and fills its blocks `grid_banner` (above the
      grid) and `grid_actions` (the buttons, whose values are in `actions`);
    - `edition_code`: the board's edition, None until one is chosen; `edition_locked`: whether the page may offer
      another edition;
    - `rules_code`: the rule set the board's moves are counted with (the game's, the session's), None for the
      default one;
    - `moves`: the moves on the board, in notation, in order;
    - `player_count`: the racks the tile tracking deducts from the bag, or None to let the visitor choose;
    - `off_board_tiles`: tiles played but on no board (a move counted in typed mode), which the tracking deducts;
    - `actions`: the buttons `act` carries out;
    - `save(edition_code, moves)`: keep a board the counter rebuilt (an edition changed, a refused move dropped);
    - `act(action, pending=, edition=)`: carry out a button on the move being typed; returns the message to show
      or raises `GridRefusal`;
    - `context()`: what the page's blocks need.
    """

    template_name: str
    edition_code: str | None
    edition_locked: bool
    rules_code: str | None
    moves: list[str]
    player_count: int | None
    off_board_tiles: tuple[Tile, ...]
    actions: tuple[str, ...]

    def save(self, edition_code: str, moves: list[str]) -> None: ...

    def act(self, action: str, *, pending: GridMove, edition) -> str: ...

    def context(self) -> dict: ...


class VisitorBoardStore:
    """A visitor's board, kept in his HTTP session (database-backed: every tab and web process sees the same)."""

    KEY = "grid"
    template_name = "scoring/grid.html"
    edition_locked = False
    rules_code = None  # the default rule set
    player_count = None
    off_board_tiles = ()
    actions = ("place", "undo", "clear")

    def __init__(self, request):
        self.session = request.session
        saved = self.session.get(self.KEY, {})
        self.edition_code = saved.get("edition")
        self.moves = [text for text in saved.get("moves", []) if isinstance(text, str)]

    def save(self, edition_code, moves):
        self.session[self.KEY] = {"edition": edition_code, "moves": moves}
        self.edition_code, self.moves = edition_code, moves

    def act(self, action, *, pending, edition):
        if action == "place":
            if not pending.play:
                raise GridRefusal(pending.error or gettext("Tapez d'abord un mot sur la grille."))
            self.save(edition.code, [*self.moves, pending.play.move.notation])
            return gettext("« %(move)s » est posé sur la grille.") % {"move": pending.play.move.notation}
        if action == "undo":
            if not self.moves:
                raise GridRefusal(gettext("La grille est déjà vide."))
            last = self.moves[-1]
            self.save(edition.code, self.moves[:-1])
            return gettext("« %(move)s » est retiré de la grille.") % {"move": last}
        self.save(edition.code, [])
        return gettext("La grille est vidée.")

    def context(self):
        return {}


class MemberBoardStore(VisitorBoardStore):
    """A member's board, kept on his account so it follows him from one device to another."""

    def __init__(self, user):
        self.board, _created = GridBoard.objects.get_or_create(user=user)
        self.edition_code = self.board.edition_code or None
        self.moves = [text for text in self.board.moves if isinstance(text, str)]

    def save(self, edition_code, moves):
        self.board.edition_code, self.board.moves = edition_code, moves
        self.board.save(update_fields=["edition_code", "moves", "updated_at"])
        self.edition_code, self.moves = edition_code, moves


def board_rows(board: Board, pending: GridMove | None = None) -> list:
    """The 15 rows of cells "scoring/includes/board_cells.html" draws: square, tile on the board, tile being laid,
    start marker. Any page that shows a board draws it with these two."""
    pending = pending or GridMove()
    laid = pending.placements
    rows = []
    for row in range(SIZE):
        cells = []
        for col in range(SIZE):
            index = row * SIZE + col
            new_tile = laid.get(index)
            cells.append(
                {
                    "name": square_name(index),
                    "square": SQUARES[index].value,
                    "tile": board.cells[index],
                    "new": new_tile,
                    "blank_mark": blank_mark(index, new_tile) if new_tile else "",
                    "start": index == pending.start,
                }
            )
        rows.append((ROW_LETTERS[row], cells))
    return rows


def board_rows_marking(board: Board, play: Play | None) -> list:
    """The rows of `board` with the tiles `play` laid marked as new, so that the eye finds a move already played (a
    room's last top, a move reviewed); none marked without one."""
    return board_rows(board, GridMove(placements=dict(play.placed)) if play else None)
