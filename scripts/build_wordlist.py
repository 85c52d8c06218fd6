"""Build scoring/data/fr_dicollecte.txt.gz, the free French word list, from Dicollecte's dictionary (facts §6).

The source is the npm package dictionary-fr@3.0.0 (Dicollecte 7.5 "classique", MPL-2.0): index.dic holds
stems with affix flags, index.aff the affix rules. Hunspell's `unmunch` misreads this pair (two-character
flags, NEEDAFFIX, CIRCUMFIX), so the forms are expanded here, over the files as parsed by spylls. Then:
stems flagged KEEPCASE are dropped (unit and other symbols: km, kg, yd…), so are forms with a hyphen,
apostrophe, digit, dot, space or capital letter; the rest is normalised like `scoring.engine.lexicon.normalise_word`
(uppercase, Œ→OE, Æ→AE, no accents) and kept if it matches ^[A-Z]{2,15}$. dictionary-fr@3.0.0 gives 400,344
words. The licence notice goes to LICENSE-dicollecte.txt beside the output.

spylls is a build-time tool only, not a dependency of the site:

    .venv/bin/pip install spylls
    .venv/bin/python scripts/build_wordlist.py --output scoring/data/fr_dicollecte.txt.gz

Without --package the script downloads the package from the npm registry and checks its published sha512;
with --package DIR it reads an unpacked copy (the `package/` folder of `npm pack dictionary-fr@3.0.0`).
"""

import argparse
import base64
import gzip
import hashlib
import io
import re
import sys
import tarfile
import tempfile
import urllib.request
from pathlib import Path

from scoring.engine.lexicon import FRENCH_WORDLIST, normalise_word

try:
    from spylls.hunspell import Dictionary
    from spylls.hunspell.data.aff import Suffix
except ImportError:
    sys.exit("spylls is missing: `.venv/bin/pip install spylls` (needed to build the list, not to run the site)")

PACKAGE = "dictionary-fr@3.0.0"
TARBALL_URL = "https://registry.npmjs.org/dictionary-fr/-/dictionary-fr-3.0.0.tgz"
TARBALL_SHA512 = "fhDRX1cRyHPA69GJg8R4XgNYgSQvbNHj3kr5UqvEG1OS5pJqH6P3GbO7wpTCwvr5KMQ0NxGIsXps9P5NyXRVEg=="
EXPECTED_COUNT = 400_344

NOT_A_PLAIN_WORD = re.compile(r"[-'’ʼ.\d\s]")
SCRABBLE_WORD = re.compile(r"[A-Z]{2,15}")

LICENCE_HEADER = """\
Free French word list: fr_dicollecte.txt.gz (one word a line, uppercase, without accents)

It comes from the npm package {package}
({url}),
which packages Dicollecte's French spelling dictionary 7.5 "classique" by Olivier R. and its contributors
(https://grammalecte.net/), under the Mozilla Public License 2.0 (https://mozilla.org/MPL/2.0/).
The list remains under that licence.

It was transformed by scripts/build_wordlist.py in this repository: the affixes of index.aff expanded over
the stems of index.dic; the stems flagged KEEPCASE (symbols) dropped, then the forms with a hyphen,
apostrophe, digit, dot, space or capital letter; accents removed (Œ→OE, Æ→AE); uppercased; only words of
2 to 15 letters A-Z kept. The package above and that script are its source form.

The licence notice of the package (its file `license`) follows.

"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=FRENCH_WORDLIST, help="the .txt.gz list to write")
    parser.add_argument("--package", type=Path, help=f"an unpacked copy of {PACKAGE} instead of downloading it")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        package = args.package or download_package(Path(scratch))
        words = expand_words(Dictionary.from_files(str(package / "index")))
        licence = (package / "license").read_text(encoding="utf-8")

    args.output.parent.mkdir(parents=True, exist_ok=True)
    # No name or date in the gzip header: the same package always gives the same bytes.
    with open(args.output, "wb") as raw, gzip.GzipFile("", "wb", compresslevel=9, fileobj=raw, mtime=0) as out:
        out.write("".join(f"{word}\n" for word in words).encode("ascii"))
    licence_path = args.output.with_name("LICENSE-dicollecte.txt")
    licence_path.write_text(LICENCE_HEADER.format(package=PACKAGE, url=TARBALL_URL) + licence, encoding="utf-8")

    print(f"{len(words):,} words ({EXPECTED_COUNT:,} expected from {PACKAGE})")
    print(f"{args.output}: {args.output.stat().st_size:,} bytes; licence notice in {licence_path}")
    return 0 if len(words) == EXPECTED_COUNT else 1


def download_package(directory: Path) -> Path:
    """Fetch the package tarball, check it against the registry's published sha512 and unpack it."""
    print(f"Downloading {TARBALL_URL}")
    with urllib.request.urlopen(TARBALL_URL, timeout=60) as response:
        tarball = response.read()
    if base64.b64encode(hashlib.sha512(tarball).digest()).decode() != TARBALL_SHA512:
        sys.exit(f"{TARBALL_URL} does not match the sha512 the npm registry publishes for {PACKAGE}")
    with tarfile.open(fileobj=io.BytesIO(tarball)) as archive:
        archive.extractall(directory, filter="data")
    return directory / "package"


def expand_words(dictionary: Dictionary) -> list[str]:
    """The sorted distinct Scrabble words of every form of every stem that is not a symbol."""
    aff = dictionary.aff
    words = set()
    for entry in dictionary.dic.words:
        if aff.KEEPCASE in entry.flags or aff.FORBIDDENWORD in entry.flags:
            continue
        for form in word_forms(aff, entry.stem, entry.flags):
            if NOT_A_PLAIN_WORD.search(form) or any(char.isupper() for char in form):
                continue
            word = normalise_word(form)
            if SCRABBLE_WORD.fullmatch(word):
                words.add(word)
    return sorted(words)


def word_forms(aff, stem: str, flags: set[str]):
    """Every form Hunspell accepts for one stem: bare, with a suffix, a prefix, or both.

    As in Hunspell, a prefix and a suffix combine when both allow cross products and each is allowed by the
    stem's flags or by the other affix's continuation flags (this dictionary's unit prefixes such as kilo-
    carry the plural suffix that way). An affix whose continuation has NEEDAFFIX needs another affix; a
    CIRCUMFIX prefix goes only with a CIRCUMFIX suffix. No suffix of dictionary-fr@3.0.0 continues with
    another suffix, so twofold suffixes are not expanded.
    """
    if aff.NEEDAFFIX not in flags:
        yield stem
    suffixes = fitting_affixes(aff, aff.SFX, flags, stem)
    for suffix in suffixes:
        if not suffix.flags & {aff.NEEDAFFIX, aff.CIRCUMFIX}:
            yield stem.removesuffix(suffix.strip) + suffix.add
    for prefix in fitting_affixes(aff, aff.PFX, flags.union(*(suffix.flags for suffix in suffixes)), stem):
        prefixed = prefix.add + stem.removeprefix(prefix.strip)
        if prefix.flag in flags and not prefix.flags & {aff.NEEDAFFIX, aff.CIRCUMFIX}:
            yield prefixed
        if not prefix.crossproduct:
            continue
        for suffix in suffixes + fitting_affixes(aff, aff.SFX, prefix.flags - flags, stem):
            if (
                suffix.crossproduct
                and (prefix.flag in flags or prefix.flag in suffix.flags)
                and (aff.CIRCUMFIX in prefix.flags) == (aff.CIRCUMFIX in suffix.flags)
            ):
                yield prefixed.removesuffix(suffix.strip) + suffix.add


def fitting_affixes(aff, table, flags: set[str], stem: str) -> list:
    """The affixes of `table` (aff.PFX or aff.SFX) named by `flags` that apply to `stem`.

    An affix's condition tests the stem before stripping, at the affix's end; without FULLSTRIP the strip
    cannot take the whole stem.
    """
    return [
        affix
        for flag in flags
        for affix in table.get(flag, ())
        if (stem.endswith(affix.strip) if isinstance(affix, Suffix) else stem.startswith(affix.strip))
        and (aff.FULLSTRIP or len(affix.strip) < len(stem))
        and affix.cond_regexp.search(stem)
    ]


if __name__ == "__main__":
    sys.exit(main())
