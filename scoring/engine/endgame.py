"""End of a classic game (seed 000; FISF classic art. 5.1): remaining letters are taken off, and given to the
player who finished when the rule set says so."""

from dataclasses import dataclass

from .editions import BLANK, Edition
from .errors import ScoringError, gettext_noop
from .ranking import shared_places
from .rules import EndOfGame


@dataclass(frozen=True, slots=True)
class FinalScore:
    before: int  # score before the end-of-game adjustment
    adjustment: int
    final: int
    place: int


MAX_RACK_VALUE = 999  # far above any rack (7 tiles of 10 in French), and within the column that keeps it


def _is_value(text: str) -> bool:
    """A value typed in ASCII digits: `isdigit` alone also takes "²" or "٣", which `int` then refuses."""
    return text.isascii() and text.isdigit()


def rack_value(text: str, edition: Edition) -> int:
    """The value of the letters left on a rack, typed as letters (`?` for a blank: 0) or as a number."""
    text = text.strip()
    if _is_value(text):
        if int(text) > MAX_RACK_VALUE:
            raise ScoringError(gettext_noop("Une valeur de lettres restantes va de 0 à %(max)d."), max=MAX_RACK_VALUE)
        return int(text)
    letters = text.replace(BLANK, "").replace(" ", "")
    if not letters:
        return 0
    return sum(edition.value(letter) for letter, _blank in edition.split(letters.upper()))


def rack_letters(text: str, edition: Edition) -> list[str]:
    """The letters of a rack typed as letters (`?` for a blank), none when it was given as a value."""
    text = text.strip().replace(" ", "")
    if _is_value(text):
        return []
    letters = text.replace(BLANK, "")
    blanks = [BLANK] * (len(text) - len(letters))
    return blanks + ([letter for letter, _blank in edition.split(letters.upper())] if letters else [])


def check_racks(racks: dict[str, list[str]], remaining: dict[str, int]) -> None:
    """Refuse remaining letters the game cannot have: more of a letter than is still off the board, on one rack
    (`ZZ` in French, which has one Z) or on all of them together."""
    together: dict[str, int] = {}
    for player, letters in racks.items():
        for letter in dict.fromkeys(letters):
            count = letters.count(letter)
            together[letter] = together.get(letter, 0) + count
            if count > remaining.get(letter, 0):
                raise ScoringError(
                    gettext_noop(
                        "%(player)s : %(count)d × %(letter)s, mais il n'en reste que %(left)d hors de la grille."
                    ),
                    player=player,
                    count=count,
                    letter=letter,
                    left=remaining.get(letter, 0),
                )
    for letter, count in together.items():
        if count > remaining.get(letter, 0):
            raise ScoringError(
                gettext_noop(
                    "Les lettres restantes comptent %(count)d × %(letter)s en tout, mais il n'en reste que %(left)d "
                    "hors de la grille."
                ),
                count=count,
                letter=letter,
                left=remaining.get(letter, 0),
            )


def end_of_game(scores: list[int], rack_values: list[int | None], rule: EndOfGame) -> list[FinalScore]:
    """`rack_values[i]` is None for the player who finished (at most one), else the value of his letters.

    FISF: the finisher gains the others' values and each of them loses his own; when nobody finished, each
    loses his own and nobody gains. NASPA: the finisher gains twice the others' values, they lose nothing.
    """
    finishers = [i for i, value in enumerate(rack_values) if value is None]
    if len(finishers) > 1:
        raise ScoringError(gettext_noop("Un seul joueur peut avoir terminé : laissez vide une seule case."))
    others = sum(value for value in rack_values if value is not None)
    adjustments = []
    for value in rack_values:
        if value is None:
            adjustments.append(2 * others if rule == EndOfGame.FINISHER_GAINS_DOUBLE else others)
        elif finishers and rule == EndOfGame.FINISHER_GAINS_DOUBLE:
            adjustments.append(0)
        else:
            adjustments.append(-value)
    finals = [score + adjustment for score, adjustment in zip(scores, adjustments, strict=True)]
    places = shared_places(finals)
    return [
        FinalScore(before, adjustment, final, place)
        for before, adjustment, final, place in zip(scores, adjustments, finals, places, strict=True)
    ]
