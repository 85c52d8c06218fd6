"""Tile sets of the nine editions (facts §3) and how typed text becomes tiles of one of them.

Pure Python: the Django models in `scoring.models` store the same figures so the admin can edit them, and
hand the engine `Edition` objects built by `Edition.build`.
"""

import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from .errors import NotationError, gettext_noop

BLANK = "?"
MAX_WORD_TILES = 15
LIGATURES = {"Œ": "OE", "Æ": "AE", "ß": "SS", "ẞ": "SS"}
# Characters that only make sense inside a multi-character tile (Catalan L·L).
DIGRAPH_PARTS = frozenset("·")


@dataclass(frozen=True, slots=True)
class LetterSpec:
    letter: str
    count: int
    value: int
    vowel: bool
    consonant: bool


@dataclass(frozen=True)
class Edition:
    """One edition's tile set. `letters` excludes the blank, whose count is `blanks`."""

    code: str
    name: str
    letters: tuple[LetterSpec, ...]
    blanks: int
    values: dict[str, int] = field(init=False, repr=False, compare=False)
    _by_length: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "values", {spec.letter: spec.value for spec in self.letters})
        # Longest tiles first, so that "CH" is read as one Spanish tile rather than C then H.
        by_length = sorted((spec.letter for spec in self.letters), key=len, reverse=True)
        object.__setattr__(self, "_by_length", tuple(by_length))

    @property
    def tile_count(self) -> int:
        return sum(spec.count for spec in self.letters) + self.blanks

    def counts(self) -> dict[str, int]:
        """The full set, letter by letter, blanks under `?`."""
        counts = {spec.letter: spec.count for spec in self.letters}
        counts[BLANK] = self.blanks
        return counts

    def has_tile(self, letter: str) -> bool:
        return letter in self.values

    def check_in_set(self, letters: Iterable[str]) -> None:
        """Refuse a rack holding more of a letter (`?`: a blank) than the full set has: no draw can give it."""
        in_set = self.counts()
        for letter, count in sorted(Counter(letters).items()):
            if count > in_set.get(letter, 0):
                raise NotationError(
                    gettext_noop("Le tirage compte %(count)d « %(letter)s » : le jeu n'en a que %(in_set)d."),
                    count=count,
                    letter=letter,
                    in_set=in_set.get(letter, 0),
                )

    def value(self, letter: str, blank: bool = False) -> int:
        return 0 if blank else self.values.get(letter, 0)

    def is_vowel(self, letter: str) -> bool:
        return any(spec.vowel for spec in self.letters if spec.letter == letter)

    def is_consonant(self, letter: str) -> bool:
        return any(spec.consonant for spec in self.letters if spec.letter == letter)

    def split(self, text: str, *, max_tiles: int | None = MAX_WORD_TILES) -> list[tuple[str, bool]]:
        """Read a written word as tiles: [(letter, is_blank), ...].

        A lowercase letter or a letter in parentheses is a blank. Accents the edition has no tile for are
        dropped (É→E, Ç→C in French), ligatures expanded (Œ→OE, Æ→AE); a letter the edition lacks can only be
        a blank. Digits, signs and inner spaces are refused with a message naming the character (seed 002).
        More than `max_tiles` tiles are refused as a word too long; None leaves the count to the caller (a rack).
        """
        chars = self._normalised_chars(text.strip())
        if not chars:
            raise NotationError(gettext_noop("Le mot est vide."))
        tiles: list[tuple[str, bool]] = []
        i = 0
        while i < len(chars):
            letter, blank, width = self._read_tile(chars, i)
            tiles.append((letter, blank or letter not in self.values))
            i += width
        if max_tiles is not None and len(tiles) > max_tiles:
            raise NotationError(
                gettext_noop("Le mot compte %(count)d lettres : %(max)d au plus."), count=len(tiles), max=max_tiles
            )
        return tiles

    def _normalised_chars(self, text: str) -> list[tuple[str, bool]]:
        """(uppercase char, written as a blank) for each character, with parentheses resolved."""
        out: list[tuple[str, bool]] = []
        in_parens = False
        for char in text:
            if char == "(" and not in_parens:
                in_parens = True
                continue
            if char == ")" and in_parens:
                in_parens = False
                continue
            blank = in_parens or (char.isalpha() and char.islower())
            out.extend((c, blank) for c in self._normalise_char(char))
        if in_parens:
            raise NotationError(gettext_noop("Une parenthèse n'est pas refermée."))
        return out

    def _normalise_char(self, char: str) -> str:
        upper = char.upper()
        if upper in self.values or upper in DIGRAPH_PARTS:
            return upper
        if upper in LIGATURES:
            return LIGATURES[upper]
        base = "".join(c for c in unicodedata.normalize("NFD", upper) if not unicodedata.combining(c))
        if len(base) == 1 and "A" <= base <= "Z":
            return base
        if char.isspace():
            raise NotationError(gettext_noop("Le mot contient un espace : écrivez-le d'un seul tenant."))
        raise NotationError(
            gettext_noop("Caractère non accepté : « %(char)s ». Seules les lettres sont admises."), char=char
        )

    def _read_tile(self, chars: list[tuple[str, bool]], i: int) -> tuple[str, bool, int]:
        for letter in self._by_length:
            width = len(letter)
            if width == 1:
                break
            part = chars[i : i + width]
            if "".join(c for c, _ in part) == letter and len({blank for _, blank in part}) == 1:
                return letter, part[0][1], width
        char, blank = chars[i]
        if char in DIGRAPH_PARTS:
            raise NotationError(
                gettext_noop("Caractère non accepté : « %(char)s ». Seules les lettres sont admises."),
                char=char,
            )
        return char, blank, 1


def _edition(code: str, name: str, spec: str, vowels: str) -> Edition:
    """Build an edition from facts §3's `letter:count:value` list; `vowels` are space-separated letters.

    Y and the blank count as either (FISF §3.2 lets the arbiter choose), so they carry both flags.
    """
    vowel_set = set(vowels.split())
    letters = []
    blanks = 0
    for item in spec.split():
        letter, count, value = item.rsplit(":", 2)
        if letter == BLANK:
            blanks = int(count)
            continue
        either = letter == "Y" and code in ("fr", "en")
        letters.append(
            LetterSpec(
                letter=letter,
                count=int(count),
                value=int(value),
                vowel=letter in vowel_set or either,
                consonant=letter not in vowel_set or either,
            )
        )
    return Edition(code=code, name=name, letters=tuple(letters), blanks=blanks)


BUILTIN_EDITIONS: dict[str, Edition] = {
    edition.code: edition
    for edition in (
        _edition(
            "fr",
            "Français",
            "A:9:1 B:2:3 C:2:3 D:3:2 E:15:1 F:2:4 G:2:2 H:2:4 I:8:1 J:1:8 K:1:10 L:5:1 M:3:2 N:6:1 O:6:1 "
            "P:2:3 Q:1:8 R:6:1 S:6:1 T:6:1 U:6:1 V:2:4 W:1:10 X:1:10 Y:1:10 Z:1:10 ?:2:0",
            "A E I O U Y",
        ),
        _edition(
            "en",
            "Anglais",
            "A:9:1 B:2:3 C:2:3 D:4:2 E:12:1 F:2:4 G:3:2 H:2:4 I:9:1 J:1:8 K:1:5 L:4:1 M:2:3 N:6:1 O:8:1 "
            "P:2:3 Q:1:10 R:6:1 S:4:1 T:6:1 U:4:1 V:2:4 W:2:4 X:1:8 Y:2:4 Z:1:10 ?:2:0",
            "A E I O U Y",
        ),
        _edition(
            "es",
            "Espagnol",
            "A:12:1 B:2:3 C:4:3 CH:1:5 D:5:2 E:12:1 F:1:4 G:2:2 H:2:4 I:6:1 J:1:8 L:4:1 LL:1:8 M:2:3 "
            "N:5:1 Ñ:1:8 O:9:1 P:2:3 Q:1:5 R:5:1 RR:1:8 S:6:1 T:4:1 U:5:1 V:1:4 X:1:8 Y:1:4 Z:1:10 ?:2:0",
            "A E I O U",
        ),
        _edition(
            "it",
            "Italien",
            "A:14:1 B:3:5 C:6:2 D:3:5 E:11:1 F:3:5 G:2:8 H:2:8 I:12:1 L:5:3 M:5:3 N:5:3 O:15:1 P:3:5 "
            "Q:1:10 R:6:2 S:6:2 T:6:2 U:5:3 V:3:5 Z:2:8 ?:2:0",
            "A E I O U",
        ),
        _edition(
            "de",
            "Allemand",
            "A:5:1 B:2:3 C:2:4 D:4:1 E:15:1 F:2:4 G:3:2 H:4:2 I:6:1 J:1:6 K:2:4 L:3:2 M:4:3 N:9:1 O:3:2 "
            "P:1:4 Q:1:10 R:6:1 S:7:1 T:6:1 U:6:1 V:1:6 W:1:3 X:1:8 Y:1:10 Z:1:3 Ä:1:6 Ö:1:8 Ü:1:6 ?:2:0",
            "A E I O U Ä Ö Ü",
        ),
        _edition(
            "pl",
            "Polonais",
            "A:9:1 Ą:1:5 B:2:3 C:3:2 Ć:1:6 D:3:2 E:7:1 Ę:1:5 F:1:5 G:2:3 H:2:3 I:8:1 J:2:3 K:3:2 L:3:2 "
            "Ł:2:3 M:3:2 N:5:1 Ń:1:7 O:6:1 Ó:1:5 P:3:2 R:4:1 S:4:1 Ś:1:5 T:3:2 U:2:3 W:4:1 Y:4:2 Z:5:1 "
            "Ź:1:9 Ż:1:5 ?:2:0",
            "A Ą E Ę I O Ó U Y",
        ),
        _edition(
            "nl",
            "Néerlandais",
            "A:6:1 B:2:3 C:2:5 D:5:2 E:18:1 F:2:4 G:3:3 H:2:4 I:4:1 J:2:4 K:3:3 L:3:3 M:3:3 N:10:1 O:6:1 "
            "P:2:3 Q:1:10 R:5:2 S:5:2 T:5:2 U:3:4 V:2:4 W:2:5 X:1:8 Y:1:8 Z:2:4 ?:2:0",
            "A E I O U",
        ),
        _edition(
            "ca",
            "Catalan",
            "A:12:1 B:2:3 C:3:2 Ç:1:10 D:3:2 E:13:1 F:1:4 G:2:3 H:1:8 I:8:1 J:1:8 L:4:1 L·L:1:10 M:3:2 "
            "N:6:1 NY:1:10 O:5:1 P:2:3 QU:1:8 R:8:1 S:8:1 T:5:1 U:4:1 V:1:4 X:1:10 Z:1:8 ?:2:0",
            "A E I O U",
        ),
        _edition(
            "pt",
            "Portugais",
            "A:14:1 B:3:3 C:4:2 Ç:2:3 D:5:2 E:11:1 F:2:4 G:2:4 H:2:4 I:10:1 J:2:5 L:5:2 M:6:1 N:4:3 "
            "O:10:1 P:4:2 Q:1:6 R:6:1 S:8:1 T:5:1 U:7:1 V:2:4 X:1:8 Z:1:8 ?:3:0",
            "A E I O U",
        ),
    )
}

DEFAULT_EDITION = BUILTIN_EDITIONS["fr"]
