"""The session's board before a move: every top placed, the letters left from the last draw, and the grid as the
room sees it."""

from dataclasses import dataclass

from scoring.boards import board_rows_marking
from scoring.engine.draw import parse_draw
from scoring.engine.moves import Board, Play, replay

from ..games import reliquat_after
from ..models import Round, Session


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
    return board_rows_marking(current.board, current.last_play)
