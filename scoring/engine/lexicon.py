"""Word lists the points counter can check words against, and the free French one it ships (facts §6).

`default_french_lexicon()` is built from Dicollecte's free dictionary by scripts/build_wordlist.py: a free hint
that catches typos, never the official ODS, which decides what is playable.

Pure Python: the engine and the Django views share one list per process.
"""

import gzip
import re
import threading
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable
from pathlib import Path

from .editions import MAX_WORD_TILES, Edition
from .errors import ScoringError, clause, gettext_noop

FRENCH_WORDLIST = Path(__file__).resolve().parent.parent / "data" / "fr_dicollecte.txt.gz"

# Words per block of the sparse index: the search finds a word's block by bisection over the blocks' first
# words, then looks for the word inside that block's few hundred characters of text.
_BLOCK = 32
# The ligatures a word list expands; static/js/word_list.js is given them with the page's figures.
LIGATURES = {"Œ": "OE", "Æ": "AE"}
_LIGATURES = str.maketrans(LIGATURES)


def normalise_word(text: str) -> str:
    """`text` as a word list spells it: trimmed, uppercase, ligatures expanded (Œ→OE, Æ→AE), accents dropped."""
    upper = text.strip().upper()
    if upper.isascii():
        return upper
    decomposed = unicodedata.normalize("NFD", upper.translate(_LIGATURES))
    return "".join(char for char in decomposed if not unicodedata.combining(char))


class Lexicon:
    """An immutable set of words, kept as one sorted newline-framed text plus a sparse index.

    Build one with `from_words` or `load`. Words lie in `_text` as "\\nWORD\\nWORD…\\n", sorted;
    `_firsts[i]` is the first word of block i and `_starts[i]` the offset of the newline before it, and
    `_starts` ends with the offset of the last newline. The 400,344-word French list then adds about 12 MB of
    resident memory (4 MB of text, 12,500 indexed words, allocator slack) for about 1.5 µs a lookup, where
    a frozenset of its words would add about 50 MB per process for 0.5 µs.
    """

    def __init__(self, text: str):
        self._text = text
        self._starts = []
        self._count = 0
        position = 0
        while (end := text.find("\n", position + 1)) != -1:
            if self._count % _BLOCK == 0:
                self._starts.append(position)
            self._count += 1
            position = end
        self._starts.append(position)
        # Slices of the text rather than the caller's strings, so that all of those can be freed.
        self._firsts = [text[start + 1 : text.index("\n", start + 1)] for start in self._starts[:-1]]

    @classmethod
    def from_words(cls, words: Iterable[str]) -> "Lexicon":
        """A lexicon of `words`, normalised by `normalise_word`; duplicates and empty words are dropped."""
        return cls(_framed_text(words))

    @classmethod
    def load(cls, path: str | Path) -> "Lexicon":
        """The words of a UTF-8 file (gzipped if its name ends in .gz), one a line; blank and # lines skipped."""
        path = Path(path)
        data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        return cls(_framed_text(line for line in data.decode().splitlines() if not line.lstrip().startswith("#")))

    def __contains__(self, word: object) -> bool:
        """Whether the word is listed, whatever its case and accents ("zèbre" is ZEBRE)."""
        if not isinstance(word, str):
            return False
        key = normalise_word(word)
        if not key or "\n" in key:
            return False
        block = bisect_right(self._firsts, key) - 1
        if block < 0:
            return False
        return self._text.find(f"\n{key}\n", self._starts[block], self._starts[block + 1] + 1) != -1

    def __len__(self) -> int:
        return self._count

    def words(self) -> list[str]:
        """Every word, sorted."""
        return self._text[1:-1].split("\n") if self._count else []

    def __repr__(self) -> str:
        return f"<Lexicon of {self._count:,} words>"


def _framed_text(words: Iterable[str]) -> str:
    normalised = {normalise_word(word) for word in words}
    normalised.discard("")
    if any("\n" in word for word in normalised):
        raise ValueError("A word cannot span several lines.")
    return "\n" + "".join(f"{word}\n" for word in sorted(normalised))


class WordListError(ScoringError):
    """A line of a word list that is not one word of the edition's letters; the message names the line."""


_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# Control characters (the tab aside) never occur in a text file: their presence means a binary file.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def read_word_list(text: str, edition: Edition) -> list[str]:
    """The words of a list written one a line (blank lines and `#` comments skipped), each checked to be made of
    the edition's letters as `normalise_word` stores it (accents dropped, `CH` one Spanish tile) and to fit the
    board. Raises `WordListError` naming the first line that is not such a word."""
    letters = sorted((spec.letter for spec in edition.letters), key=len, reverse=True)
    tile = re.compile("|".join(map(re.escape, letters)))
    tiles = re.compile(f"(?:{tile.pattern})+")
    words = []
    for number, line in enumerate(_LINE_BREAK.split(text), start=1):
        if control := _CONTROL.search(line):
            raise WordListError(
                gettext_noop("Ligne %(line)d : ce fichier n'est pas du texte (caractère de contrôle %(char)s)."),
                line=number,
                char=f"U+{ord(control[0]):04X}",
            )
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word = normalise_word(line)
        if not tiles.fullmatch(word) or (len(word) > MAX_WORD_TILES and len(tile.findall(word)) > MAX_WORD_TILES):
            raise WordListError(
                gettext_noop("Ligne %(line)d (« %(text)s ») : %(reason)s"),
                line=number,
                text=line[:40],
                reason=clause(_why_not_a_word(line, edition, tile).message),
            )
        words.append(line)
    return words


def _why_not_a_word(line: str, edition: Edition, tile: re.Pattern) -> ScoringError:
    if any(char.isspace() for char in line):
        return ScoringError(gettext_noop("Un seul mot par ligne."))
    known = set("".join(spec.letter for spec in edition.letters))
    for char in line:
        if not set(normalise_word(char)) <= known:
            return ScoringError(
                gettext_noop("L'édition « %(edition)s » n'a pas la lettre « %(char)s »."),
                char=char,
                edition=edition.name,
            )
    count = len(tile.findall(normalise_word(line)))
    if count > MAX_WORD_TILES:
        return ScoringError(
            gettext_noop("Le mot compte %(count)d lettres : %(max)d au plus."), count=count, max=MAX_WORD_TILES
        )
    return ScoringError(
        gettext_noop("Ce mot ne s'écrit pas avec les lettres de l'édition « %(edition)s »."), edition=edition.name
    )


def in_lexicon(word, lexicon: Lexicon) -> bool:
    """Whether a scored word (its tiles' letters, blanks included as the letter they stand for) is listed."""
    return "".join(tile.letter for tile in word.tiles) in lexicon


_default_lock = threading.Lock()
_default: Lexicon | None = None


def default_french_lexicon() -> Lexicon:
    """The free French list (scoring/data/fr_dicollecte.txt.gz), read on first use and then kept per process."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Lexicon.load(FRENCH_WORDLIST)
    return _default
