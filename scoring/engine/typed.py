"""Typed-mode scoring (seed 000): words typed tile by tile, each tile told its square by the player.

The board is unknown here, so the player marks the tiles that were already on it ("Déjà posé sur le
plateau"); the line "Jetons posés depuis le chevalet" counts the new tiles of the word with the most.
"""

from dataclasses import dataclass

from .board import Square
from .editions import MAX_WORD_TILES, Edition
from .errors import MoveError, gettext_noop
from .moves import Tile, WordScore
from .rules import DEFAULT_RULES, RuleSet

MAX_SECONDARY_WORDS = 7


@dataclass(frozen=True, slots=True)
class TypedTile:
    letter: str
    square: Square = Square.SIMPLE
    on_board: bool = False
    blank: bool = False


@dataclass(frozen=True, slots=True)
class TypedResult:
    words: tuple[WordScore, ...]
    tiles_placed: int
    bonus: int
    score: int
    too_many_tiles: bool

    @property
    def warning(self) -> str:
        if not self.too_many_tiles:
            return ""
        return gettext_noop(
            "Plus de jetons posés que le chevalet n'en porte : marquez ceux qui étaient déjà sur le plateau."
        )


def score_typed(words: list[list[TypedTile]], edition: Edition, rules: RuleSet = DEFAULT_RULES) -> TypedResult:
    """Score a main word and its secondary words. Empty words are ignored.

    A letter the edition has no tile for counts as a blank. With more new tiles than a rack holds, no bonus
    is given and `too_many_tiles` asks the player to mark the tiles already on the board.
    """
    words = [word for word in words if word]
    if len(words) > 1 + MAX_SECONDARY_WORDS:
        raise MoveError(gettext_noop("Au plus sept mots secondaires."))
    scored = []
    tiles_placed = 0
    for word in words:
        if len(word) > MAX_WORD_TILES:
            raise MoveError(gettext_noop("Un mot compte 15 jetons au plus."))
        scored.append(_word_score(word, edition))
        tiles_placed = max(tiles_placed, sum(1 for tile in word if not tile.on_board))
    too_many = tiles_placed > rules.rack_size
    bonus = rules.bingo_bonus if tiles_placed == rules.rack_size else 0
    score = sum(word.score for word in scored) + bonus
    return TypedResult(tuple(scored), tiles_placed, bonus, score, too_many)


def _word_score(word: list[TypedTile], edition: Edition) -> WordScore:
    terms = []
    total = 0
    word_multiplier = 1
    tiles = []
    for typed in word:
        blank = typed.blank or not edition.has_tile(typed.letter)
        value = 0 if blank else edition.values[typed.letter]
        letter_multiplier = 1
        if not typed.on_board:
            letter_multiplier = typed.square.letter_multiplier
            word_multiplier *= typed.square.word_multiplier
        terms.append((value, letter_multiplier))
        total += value * letter_multiplier
        tiles.append(Tile(typed.letter, blank))
    return WordScore(0, True, tuple(tiles), tuple(terms), word_multiplier, total * word_multiplier)
