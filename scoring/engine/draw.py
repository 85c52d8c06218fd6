"""Duplicate draws (FISF règlement du duplicate §3.2 and §3.7, facts §4).

Every player gets the same rack: the arbiter completes the letters left from the previous move (the reliquat)
from the bag. Moves 1–15 need at least two vowels and two consonants, later moves one of each, "si le reliquat
le permet": when the letters still to come cannot give two and two, one and one is enough, and when they cannot
give even that the game is over. Y (in French and English) and the blank count as vowel or consonant, whichever
helps. A rack that fails the rule goes back to the bag whole, reliquat included, and a fresh one is drawn: a
rejet.

Draws are random but reproducible: the same `random.Random` state and the same letters give the same draws,
whatever the order of the bag, so a session only stores its seed.

Club game sheets write a draw as the kept letters, `+`, the new letters (`EU+ACC?N`); no `+` when nothing was
kept (`AEIRSTU`); a leading `-` when the draw followed a rejet (`-EAUIOZT`), which never keeps anything.
"""

import random
from collections import Counter
from dataclasses import dataclass

from .editions import BLANK, Edition
from .errors import NotationError, ScoringError, gettext_noop

LAST_TWO_AND_TWO_MOVE = 15  # §3.2: two vowels and two consonants up to this move, then one of each
KEEP_SIGN = "+"
REJET_SIGN = "-"
CATALAN_DOT = "·"  # part of the Catalan tile L·L


@dataclass(frozen=True)
class Draw:
    """One move's rack: `kept` from the previous rack, `new` from the bag.

    After a rejet nothing is kept: `kept` is empty and `rejets` counts how many racks went back to the bag.
    When the game ends instead (`end`), nothing is drawn and `kept` holds the letters left over.
    """

    kept: tuple[str, ...]
    new: tuple[str, ...]
    rejets: int = 0
    end: bool = False

    @property
    def letters(self) -> tuple[str, ...]:
        return self.kept + self.new

    @property
    def text(self) -> str:
        """The club notation (`EU+ACC?N`, `-EAUIOZT`); empty when the game ends, since nothing is drawn."""
        if self.end:
            return ""
        prefix = REJET_SIGN if self.rejets else ""
        kept = "".join(self.kept) + KEEP_SIGN if self.kept else ""
        return prefix + kept + "".join(self.new)

    def __str__(self) -> str:
        return self.text


def parse_draw(text: str, edition: Edition, rack_size: int = 7) -> Draw:
    """Read a draw written in club notation, spaces ignored (`EU + ACC?N`).

    A leading `-` gives `rejets=1`: the sheet does not say how many racks went back.
    """
    written = "".join(text.split())
    rejet = written.startswith(REJET_SIGN)
    body = written.removeprefix(REJET_SIGN)
    if not body:
        raise NotationError(gettext_noop("Le tirage est vide."))
    if REJET_SIGN in body:
        raise NotationError(
            gettext_noop("Le signe « - » (rejet) ne peut venir qu'en tête du tirage : « %(text)s »."), text=written
        )
    if body.count(KEEP_SIGN) > 1:
        raise NotationError(
            gettext_noop("Le tirage contient deux signes « + » : « %(text)s »."),
            text=written,
        )
    kept_text, _, new_text = body.rpartition(KEEP_SIGN)
    if rejet and kept_text:
        raise NotationError(
            gettext_noop("Après un rejet, aucune lettre n'est gardée : « %(text)s » ne peut avoir de « + »."),
            text=written,
        )
    kept = _read_letters(kept_text, edition, written, rack_size)
    new = _read_letters(new_text, edition, written, rack_size)
    if len(kept) + len(new) > rack_size:
        raise _too_many_letters(written, rack_size)
    edition.check_in_set(kept + new)
    return Draw(kept=kept, new=new, rejets=1 if rejet else 0)


def read_rack(text: str, edition: Edition, *, rack_size: int, placed=()) -> list[str]:
    """A rack as a player or a GCG file writes it (`?` a blank, spaces and case ignored: lowercase would mean a
    blank in a written word, not in a rack), as its tiles in the edition's spelling; ScoringError saying why no
    draw could give it: a letter the edition lacks, more of a letter than the set has, more tiles than a rack
    holds, or without the tiles the move placed (`placed`, `?` for a blank)."""
    text = "".join(text.split()).upper()
    tiles: list[str] = []
    for number, run in enumerate(text.split(BLANK)):
        tiles += [BLANK] if number else []
        for letter, blank in edition.split(run) if run else ():
            if blank:
                raise NotationError(gettext_noop("La lettre « %(letter)s » n'existe pas dans ce jeu."), letter=letter)
            tiles.append(letter)
    edition.check_in_set(tiles)
    if len(tiles) > rack_size:
        raise NotationError(
            gettext_noop("Un chevalet porte au plus %(size)d jetons : ce tirage en compte %(count)d."),
            size=rack_size,
            count=len(tiles),
        )
    missing = Counter(placed) - Counter(tiles)
    if missing:
        raise ScoringError(
            gettext_noop("Ce tirage ne contient pas les jetons posés par le coup : il y manque %(missing)s."),
            missing=", ".join(sorted(missing.elements())),
        )
    return tiles


def _read_letters(text: str, edition: Edition, written: str, rack_size: int) -> tuple[str, ...]:
    """Letters of one side of the `+`, in order, `?` for a blank; case and accents do not matter."""
    if len(text) > rack_size * max(len(spec.letter) for spec in edition.letters):
        raise _too_many_letters(written, rack_size)
    letters: list[str] = []
    for index, run in enumerate(text.upper().split(BLANK)):
        if index:
            letters.append(BLANK)
        letters.extend(_read_run(run, edition, written))
    return tuple(letters)


def _too_many_letters(written: str, rack_size: int) -> NotationError:
    return NotationError(
        gettext_noop("Le tirage « %(text)s » compte plus de %(size)d lettres."), text=written, size=rack_size
    )


def _read_run(run: str, edition: Edition, written: str) -> list[str]:
    if not run:
        return []
    for char in run:
        if not (char.isalpha() or char == CATALAN_DOT):
            raise NotationError(
                gettext_noop("Caractère non accepté dans le tirage « %(text)s » : « %(char)s »."),
                text=written,
                char=char,
            )
    tiles = edition.split(run)
    for letter, blank in tiles:
        # An uppercase letter is only read as a blank when the edition has no such tile.
        if blank:
            raise NotationError(
                gettext_noop("La lettre « %(letter)s » n'existe pas dans ce jeu."),
                letter=letter,
            )
    return [letter for letter, _ in tiles]


def draw_tiles(
    *, edition: Edition, bag: list[str], reliquat: list[str], move_number: int, rng: random.Random, rack_size: int = 7
) -> Draw:
    """Complete `reliquat` to `rack_size` letters from `bag` (neither list is changed).

    The rack is redrawn whole, as often as needed, until it meets the requirement of `rack_requirement`. That
    requirement is always within reach of some rack of the letters available, so the loop ends: in the worst
    case of the French set (two vowels among 102 letters) one draw in about 250 succeeds.
    """
    available = sorted(bag) + list(reliquat)
    needed = rack_requirement(available, move_number, edition, rack_size)
    if not needed:
        return Draw(kept=tuple(reliquat), new=(), end=True)
    kinds = _letter_kinds(edition)
    kept = tuple(reliquat)
    new = tuple(rng.sample(sorted(bag), min(rack_size - len(kept), len(bag))))
    rejets = 0
    while not _meets(kept + new, needed, kinds):
        rejets += 1
        kept = ()
        new = tuple(rng.sample(sorted(available), min(rack_size, len(available))))
    return Draw(kept=kept, new=new, rejets=rejets)


def rack_requirement(available, move_number: int, edition: Edition, rack_size: int = 7) -> int:
    """How many vowels, and as many consonants, the next rack needs: 2, 1, or 0 when the game ends (§3.7).

    `available`: every letter not yet on the board (bag and reliquat). Two and two up to move 15 when a rack of
    those letters can hold them, otherwise one and one. The game ends when not even that is possible: no letter
    left, a single one, or only vowels or only consonants; a blank or a Y among two letters or more keeps it going.
    """
    letters = list(available)
    kinds = _letter_kinds(edition)
    rack = min(rack_size, len(letters))
    if move_number <= LAST_TWO_AND_TWO_MOVE and rack >= 4 and _meets(letters, 2, kinds):
        return 2
    if rack >= 2 and _meets(letters, 1, kinds):
        return 1
    return 0


def check_draw(draw: Draw, *, available, reliquat, move_number: int, edition: Edition, rack_size: int = 7) -> None:
    """Refuse a draw typed by the arbiter that the server would not have drawn (§3.2, §3.7).

    `available`: the letters not on the board, reliquat included. The rack is full while letters remain; it keeps
    the reliquat unless a rejet put it back (`-`); and it holds the vowels and consonants the move needs. A rack
    that misses them is what a rejet is for: the message says so.
    """
    needed = rack_requirement(available, move_number, edition, rack_size)
    if not needed:
        raise ScoringError(gettext_noop("Fin de partie : le reliquat ne permet plus de tirage (FISF §3.7)."))
    if reliquat and not draw.kept and not draw.rejets:
        raise ScoringError(
            gettext_noop(
                "Le reliquat %(reliquat)s n'est pas gardé : écrivez « %(reliquat)s+… », ou « -… » après un rejet."
            ),
            reliquat="".join(reliquat),
        )
    expected = min(rack_size, len(list(available)))
    if len(draw.letters) != expected:
        raise ScoringError(
            gettext_noop("Le tirage compte %(count)d lettres : il en faut %(expected)d."),
            count=len(draw.letters),
            expected=expected,
        )
    if not _meets(draw.letters, needed, _letter_kinds(edition)):
        template = (
            gettext_noop(
                "Au coup %(number)d, le tirage doit compter au moins %(needed)d voyelles et %(needed)d consonnes "
                "(FISF §3.2) : il est à rejeter."
            )
            if needed > 1
            else gettext_noop(
                "Au coup %(number)d, le tirage doit compter au moins une voyelle et une consonne "
                "(FISF §3.2) : il est à rejeter."
            )
        )
        raise ScoringError(template, number=move_number, needed=needed)


def bag_after(edition: Edition, board_tiles, reliquat) -> list[str]:
    """The letters neither on the board (Tiles; a blank counts as `?`) nor on the rack, sorted: the next bag."""
    left = Counter(edition.counts())
    left.subtract(BLANK if tile.blank else tile.letter for tile in board_tiles)
    left.subtract(reliquat)
    return sorted(left.elements())


def _letter_kinds(edition: Edition) -> dict[str, tuple[bool, bool]]:
    """letter → (counts as a vowel, counts as a consonant); the blank counts as both."""
    kinds = {spec.letter: (spec.vowel, spec.consonant) for spec in edition.letters}
    kinds[BLANK] = (True, True)
    return kinds


def _meets(letters, needed: int, kinds: dict[str, tuple[bool, bool]]) -> bool:
    """At least `needed` vowels and `needed` consonants, each letter that can be both counted where it helps."""
    vowels = consonants = either = 0
    for letter in letters:
        vowel, consonant = kinds.get(letter, (False, False))
        if vowel and consonant:
            either += 1
        elif vowel:
            vowels += 1
        elif consonant:
            consonants += 1
    return vowels + either >= needed and consonants + either >= needed and vowels + consonants + either >= 2 * needed
