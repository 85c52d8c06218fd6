"""The move generator's index of a word list: a minimal GADDAG in one flat array of ints, cached on disk.

A GADDAG (Gordon 1994) holds, for every word and every way of cutting it after one of its letters, the reversed
left part, a separator, then the right part: from a square of the board it reads the letters leftwards, turns
once, and reads the rest rightwards. After "reversed p, separator" what remains is exactly what may follow p in
a word, which is the state of p in the forward word automaton (DAWG); so the index is that minimal DAWG plus a
minimal automaton over the reversed prefixes whose separator edges lead into it. Built that way it is the minimal
GADDAG, and it costs building over the 770,000 prefixes of the French list rather than its 4 million cuts.

Layout: node `n` is a run of the array, `nodes[n]` its mask then one child offset per edge, in the mask's bit
order. Bits 0…A-1 are the edition's letters (their codes), bit A the separator, bit A+1 says "a word ends
here" (DAWG nodes only; it has no child). The child for letter code c is
`nodes[n + 1 + popcount(mask & ((1 << c) - 1))]`; the separator's child comes after every letter's.
"""

import contextlib
import functools
import hashlib
import json
import os
import re
import sys
import threading
import weakref
from array import array
from pathlib import Path

from .editions import Edition
from .lexicon import Lexicon

FORMAT = "clubsite-gaddag-1"
CACHE_ENV = "CLUBSITE_CACHE_DIR"
DEFAULT_CACHE_DIR = Path("~/.cache/clubsite")


class Gaddag:
    """A GADDAG over one edition's letters. `root` starts the reversed-prefix part, `dawg_root` the words."""

    __slots__ = ("alphabet", "nodes", "root", "dawg_root", "word_count", "digest", "__weakref__")

    def __init__(self, alphabet, nodes: array, root: int, dawg_root: int, word_count: int, digest: str):
        self.alphabet: tuple[str, ...] = tuple(alphabet)
        self.nodes = nodes
        self.root = root
        self.dawg_root = dawg_root
        self.word_count = word_count
        self.digest = digest

    @property
    def letter_mask(self) -> int:
        return (1 << len(self.alphabet)) - 1

    @property
    def separator_bit(self) -> int:
        return 1 << len(self.alphabet)

    @property
    def final_bit(self) -> int:
        return 1 << (len(self.alphabet) + 1)

    @property
    def size_bytes(self) -> int:
        return len(self.nodes) * self.nodes.itemsize

    def child(self, node: int, code: int) -> int:
        """The node after letter `code`, or -1."""
        mask = self.nodes[node]
        if not mask >> code & 1:
            return -1
        return self.nodes[node + 1 + (mask & ((1 << code) - 1)).bit_count()]

    def __contains__(self, word: object) -> bool:
        """Whether a word (in the edition's letters) is listed, read through the DAWG part."""
        codes = encode_word(word, self.alphabet) if isinstance(word, str) else None
        if codes is None:
            return False
        node = self.dawg_root
        for code in codes:
            node = self.child(node, code)
            if node < 0:
                return False
        return bool(self.nodes[node] & self.final_bit)

    def __repr__(self) -> str:
        return f"<Gaddag of {self.word_count:,} words, {self.size_bytes / 2**20:.1f} MB>"


def encode_word(word: str, alphabet) -> list[int] | None:
    """The letter codes of `word`, multi-letter tiles (Spanish CH) read greedily; None if a letter has no tile."""
    pattern, code_of = _tokeniser(tuple(alphabet))
    letters = pattern.findall(word)
    if sum(map(len, letters)) != len(word):
        return None
    return [code_of[letter] for letter in letters]


@functools.cache
def _tokeniser(alphabet: tuple[str, ...]) -> tuple[re.Pattern, dict[str, int]]:
    longest_first = sorted(alphabet, key=len, reverse=True)
    pattern = re.compile("|".join(re.escape(letter) for letter in longest_first))
    return pattern, {letter: code for code, letter in enumerate(alphabet)}


def alphabet_of(edition: Edition) -> tuple[str, ...]:
    return tuple(spec.letter for spec in edition.letters)


def lexicon_digest(lexicon: Lexicon, alphabet) -> str:
    """What the cache is keyed by: the format, the edition's letters and the sorted word text."""
    digest = hashlib.sha256(f"{FORMAT}\n{' '.join(alphabet)}\n".encode())
    digest.update("\n".join(lexicon.words()).encode())
    return digest.hexdigest()


def build_gaddag(words, alphabet, digest: str = "") -> Gaddag:
    """The minimal GADDAG of `words` (uppercase text) over `alphabet`; words with a letter it lacks are skipped.

    Both parts are built by Daciuk's incremental algorithm on sorted input: once a key has moved past a node,
    that node is final and is either found equal to one already written or written now, children first, so
    every child offset is known when its parent is written.
    """
    count = len(alphabet)
    keys = sorted(set(_letter_keys(words, alphabet)))
    # 32-bit cells hold the masks of up to 30 letters (Polish, with 32, takes 64-bit cells).
    nodes = array("I" if count + 2 <= 32 else "Q")
    register: dict[tuple, int] = {}
    final_bit = 1 << (count + 1)
    dawg_root = _minimal_automaton(((key, final_bit, ()) for key in keys), nodes, register)
    word_count = len(keys)
    del keys
    prefixes = _reversed_prefixes(nodes, dawg_root, count)
    prefixes.sort()
    separator_bit = 1 << count
    root = _minimal_automaton(((key, separator_bit, (target,)) for key, target in prefixes), nodes, register)
    return Gaddag(alphabet, nodes, root, dawg_root, word_count, digest)


def _letter_keys(words, alphabet):
    """Each word as a string of code points 0…A-1 (so that sorting them sorts by letter code)."""
    if all(len(letter) == 1 for letter in alphabet):
        table = {ord(letter): chr(code) for code, letter in enumerate(alphabet)}
        allowed = re.compile(f"[{re.escape(''.join(alphabet))}]+")
        for word in words:
            if allowed.fullmatch(word):
                yield word.translate(table)
        return
    for word in words:
        codes = encode_word(word, alphabet)
        if codes is not None:
            yield "".join(map(chr, codes))


def _minimal_automaton(items, nodes: array, register: dict) -> int:
    """Write the minimal automaton of sorted, distinct (key, bits, extra) items into `nodes`; return its root.

    The node a key ends on gets `bits` OR-ed into its mask (the final bit, or the separator's) and `extra`
    after its letter children (the separator's target). Nodes not yet written lie on the path of the last key:
    for each depth its mask, its children's offsets so far and its extra.
    """
    masks = [0]
    children: list[list[int]] = [[]]
    extras: list[tuple[int, ...]] = [()]
    previous = ""
    for key, bits, extra in items:
        common = 0
        limit = min(len(key), len(previous))
        while common < limit and key[common] == previous[common]:
            common += 1
        for _ in range(len(previous) - common):
            kids = children.pop()
            kids.extend(extras.pop())
            children[-1].append(_write(masks.pop(), kids, nodes, register))
        for code_point in key[common:]:
            masks[-1] |= 1 << ord(code_point)
            masks.append(0)
            children.append([])
            extras.append(())
        masks[-1] |= bits
        extras[-1] = extra
        previous = key
    for _ in range(len(previous)):
        kids = children.pop()
        kids.extend(extras.pop())
        children[-1].append(_write(masks.pop(), kids, nodes, register))
    kids = children.pop()
    kids.extend(extras.pop())
    return _write(masks.pop(), kids, nodes, register)


def _write(mask: int, kids: list[int], nodes: array, register: dict) -> int:
    content = (mask, *kids)
    offset = register.get(content)
    if offset is None:
        offset = register[content] = len(nodes)
        nodes.extend(content)
    return offset


def _reversed_prefixes(nodes: array, dawg_root: int, count: int) -> list[tuple[str, int]]:
    """(reversed prefix as code points, its DAWG node) for every non-empty prefix of a word."""
    out = []
    stack = [("", dawg_root)]
    letters = range(count)
    while stack:
        reversed_prefix, node = stack.pop()
        mask = nodes[node]
        edge = node + 1
        for code in letters:
            if mask >> code & 1:
                key = chr(code) + reversed_prefix
                child = nodes[edge]
                edge += 1
                out.append((key, child))
                stack.append((key, child))
    return out


def save_gaddag(gaddag: Gaddag, path: Path) -> None:
    """Write the index atomically: a JSON header line, then the array's bytes."""
    header = {
        "format": FORMAT,
        "alphabet": list(gaddag.alphabet),
        "root": gaddag.root,
        "dawg_root": gaddag.dawg_root,
        "word_count": gaddag.word_count,
        "digest": gaddag.digest,
        "typecode": gaddag.nodes.typecode,
        "itemsize": gaddag.nodes.itemsize,
        "length": len(gaddag.nodes),
        "byteorder": sys.byteorder,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    with open(temporary, "wb") as out:
        out.write(json.dumps(header).encode() + b"\n")
        gaddag.nodes.tofile(out)
    os.replace(temporary, path)


def load_gaddag(path: Path) -> Gaddag | None:
    """The index saved at `path`, or None when it is missing, of another format or truncated."""
    try:
        with open(path, "rb") as source:
            header = json.loads(source.readline())
            if header.get("format") != FORMAT:
                return None
            nodes = array(header["typecode"])
            if nodes.itemsize != header["itemsize"]:
                return None
            nodes.fromfile(source, header["length"])
    except (OSError, ValueError, EOFError, KeyError):
        return None
    if header["byteorder"] != sys.byteorder:
        nodes.byteswap()
    return Gaddag(
        header["alphabet"], nodes, header["root"], header["dawg_root"], header["word_count"], header["digest"]
    )


def cache_dir(directory: str | Path | None = None) -> Path:
    """The directory given, else $CLUBSITE_CACHE_DIR, else ~/.cache/clubsite."""
    if directory is None:
        directory = os.environ.get(CACHE_ENV) or DEFAULT_CACHE_DIR
    return Path(directory).expanduser()


_memo_lock = threading.Lock()
_memo: "weakref.WeakKeyDictionary[Lexicon, dict[tuple[str, ...], Gaddag]]" = weakref.WeakKeyDictionary()


def lexicon_index(lexicon: Lexicon, edition: Edition, directory: str | Path | None = None) -> Gaddag:
    """The GADDAG of `lexicon` for `edition`'s letters: kept per process, else read from the cache directory,
    else built (5 to 15 s for the French list) and saved there for the next process."""
    alphabet = alphabet_of(edition)
    with _memo_lock:
        known = _memo.setdefault(lexicon, {})
        if alphabet in known:
            return known[alphabet]
        digest = lexicon_digest(lexicon, alphabet)
        path = cache_dir(directory) / f"gaddag-{digest[:32]}.bin"
        gaddag = load_gaddag(path)
        if gaddag is None or gaddag.digest != digest:
            gaddag = build_gaddag(lexicon.words(), alphabet, digest)
            with contextlib.suppress(OSError):  # a read-only cache only costs the next process a rebuild
                save_gaddag(gaddag, path)
        known[alphabet] = gaddag
        return gaddag
