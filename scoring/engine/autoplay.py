"""An automatic duplicate game: the draw (FISF §3.2) and the top (§3.4) of every move, until the end (§3.7)."""

import random
from collections import Counter
from dataclasses import dataclass

from .draw import Draw, bag_after, draw_tiles
from .editions import BLANK, Edition
from .gaddag import Gaddag
from .movegen import generate_moves
from .moves import Board, Play
from .rules import DEFAULT_RULES, RuleSet


@dataclass(frozen=True)
class AutoMove:
    number: int
    draw: Draw
    top: Play


def automatic_game(
    edition: Edition, index: Gaddag, rules: RuleSet = DEFAULT_RULES, *, seed: int, moves_at_most: int | None = None
) -> list[AutoMove]:
    """Play a whole game alone: each move's draw from the seed, its top placed, until no draw or no move is left.
    The same seed gives the same game."""
    board = Board()
    reliquat: list[str] = []
    moves: list[AutoMove] = []
    while moves_at_most is None or len(moves) < moves_at_most:
        number = len(moves) + 1
        bag = bag_after(edition, [tile for _i, tile in board.tiles()], reliquat)
        draw = draw_tiles(
            edition=edition,
            bag=bag,
            reliquat=reliquat,
            move_number=number,
            rng=random.Random(seed * 1000 + number),
            rack_size=rules.rack_size,
        )
        if draw.end:
            return moves
        letters = list(draw.letters)
        left_in_bag = bag_after(edition, [tile for _i, tile in board.tiles()], letters)
        candidates = generate_moves(board, "".join(letters), edition, index, rules, bag_empty=not left_in_bag)
        if board.is_empty:  # §3.4: the first top is played across
            candidates = [candidate for candidate in candidates if candidate.horizontal]
        if not candidates:
            return moves  # no move possible: the game ends (§3.7)
        top = candidates[0].play(board, edition, rules)
        board.place(top)
        played = Counter(BLANK if tile.blank else tile.letter for _i, tile in top.placed)
        reliquat = sorted((Counter(letters) - played).elements())
        moves.append(AutoMove(number, draw, top))
    return moves
