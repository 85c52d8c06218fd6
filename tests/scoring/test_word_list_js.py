"""The word list in the browser (static/js/word_list.js) against the engine's (scoring/engine/lexicon.py): the
free French list as the server sends it and a list in each edition as a club would upload it, checked through
the counter's own Python path (its form, views._result, the grid's pending move, in_lexicon) and through the
script under node with the list's text and the page's figures. Thousands of seeded cases: words of the lists
written with accents, ligatures, lowercase and Spanish or Catalan double tiles, words one letter off, and text of
any script for the normalisation. One node process per test; any difference fails and prints the first ones."""

import gzip
import json
import random
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

from scoring import views
from scoring.engine.editions import BUILTIN_EDITIONS
from scoring.engine.figures import counter_figures
from scoring.engine.lexicon import FRENCH_WORDLIST, default_french_lexicon, in_lexicon, normalise_word
from scoring.engine.moves import replay
from scoring.engine.rules import DEFAULT_RULES
from scoring.forms import CounterForm, GridForm
from scoring.models import Lexicon

NODE = shutil.which("node") or shutil.which("nodejs")
RUNNER = Path(__file__).with_name("run_word_list.js")

pytestmark = pytest.mark.skipif(NODE is None, reason="node n'est pas installé : apt-get install nodejs")

# Spellings a visitor may type for a letter of a list: the list keeps the letter without its accent.
ACCENTS = {
    "A": "ÀÂÄÁÅàâäáå",
    "C": "Çç",
    "E": "ÉÈÊËéèêë",
    "I": "ÎÏÍîïí",
    "N": "Ññ",
    "O": "ÔÖÓôöó",
    "U": "ÙÛÜÚùûüú",
    "Y": "Ÿÿ",
}
LIGATURES = {"OE": "Œœ", "AE": "Ææ"}
# Characters whose normalisation Python and JavaScript must agree on, beyond the alphabets: combining marks of
# several classes (U+0345 the highest, a nukta, a Tibetan vowel sign), a spacing mark of class 0, Hangul, letters
# that uppercase to two (ß, ﬁ), Unicode spaces, signs, digits, letters past U+FFFF.
ODD = (
    "\u0300\u0301\u0327\u0345\u093c\u093e\u0f71\u1dc0\u20d0\u0488"
    "한글ßẞﬁŉǰΐ\u0130ıſ"
    " \t\n\r\xa0\u2009\u3000\x1c\x85\u2028"
    "0123456789-'?*.,()·/²"
    "\U0001d400\U0001f600\U00010428\U0001e900"
)


@pytest.fixture(scope="module")
def figures():
    return counter_figures(BUILTIN_EDITIONS.values(), DEFAULT_RULES)


def spelled(word: str, rng) -> str:
    """A word of a list as a visitor may type it: accents, ligatures and lowercase here and there."""
    for joined, forms in LIGATURES.items():
        if joined in word and rng.random() < 0.5:
            word = word.replace(joined, rng.choice(forms), 1)
    letters = [rng.choice(ACCENTS[char]) if char in ACCENTS and rng.random() < 0.3 else char for char in word]
    text = "".join(letters)
    return text.lower() if rng.random() < 0.3 else text


def one_letter_off(word: str, letters, rng) -> str:
    """The word with a letter changed, dropped or added: mostly a word the list lacks."""
    position = rng.randrange(len(word))
    kind = rng.choice(("change", "drop", "add"))
    if kind == "drop" and len(word) > 1:
        return word[:position] + word[position + 1 :]
    replacement = rng.choice(letters)
    return word[:position] + replacement + word[position + (kind == "change") :]


def edition_word(edition, rng) -> str:
    """A word of 2 to 8 of the edition's tiles, Spanish CH or Catalan L·L among them."""
    letters = [spec.letter for spec in edition.letters]
    return "".join(rng.choice(letters) for _ in range(rng.randint(2, 8)))


def uploaded_list(words) -> tuple[str, object]:
    """A list as an admin uploads it (Lexicon.set_words): the text the server sends, and the engine's lexicon."""
    row = Lexicon()
    row.set_words(words)
    return gzip.decompress(row.words_gz).decode(), row.build()


@pytest.fixture(scope="module")
def lists():
    """The French list as shipped (its file ends with a newline) and, in each edition, a list of 300 words an
    admin uploaded spelled any way (the server stores them normalised): the text node reads, the engine's list."""
    rng = random.Random(25)
    lists = {"fr": (gzip.decompress(FRENCH_WORDLIST.read_bytes()).decode(), default_french_lexicon())}
    for code, edition in BUILTIN_EDITIONS.items():
        lists[f"{code}-club"] = uploaded_list(spelled(edition_word(edition, rng), rng) for _ in range(300))
    return lists


def in_node(figures, lists, cases):
    feed = json.dumps({"figures": figures, "lists": {name: text for name, (text, _) in lists.items()}, "cases": cases})
    done = subprocess.run([NODE, RUNNER], input=feed.encode(), capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


def readable(value) -> str:
    return "".join(
        char if char.isprintable() else f"\\u{ord(char):04x}" for char in json.dumps(value, ensure_ascii=False)
    )


def assert_agree(figures, lists, cases, expected):
    answers = in_node(figures, lists, cases)
    assert len(answers) == len(cases)
    expected = json.loads(json.dumps(expected))
    differing = [(case, want, got) for case, want, got in zip(cases, expected, answers, strict=True) if want != got]
    shown = "\n".join(
        f"  {readable(case)}\n    engine:  {readable(want)}\n    browser: {readable(got)}"
        for case, want, got in differing[:5]
    )
    assert not differing, f"word_list.js disagrees with the engine on {len(differing)} of {len(cases)} cases:\n{shown}"


def assigned(rng, low, high) -> str:
    """A character of that range that Python's Unicode (15.1) assigns, where node's may be newer: not a lowercase
    letter without a capital either, which a later Unicode may give it (U+A7D3 got U+A7D2 in 16.0)."""
    while True:
        char = chr(rng.randrange(low, high))
        category = unicodedata.category(char)
        if category not in ("Cn", "Cs", "Co") and not (category == "Ll" and char.upper() == char):
            return char


def test_it_normalises_as_the_engine(figures, lists):
    rng = random.Random(1)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcz" + "".join(ACCENTS.values()) + "ŒœÆæ" + ODD
    texts = ["", " ", "zèbre", "Œuvre", "cæcum", "  naïf\n", "çà", "QI", "COL·LA", "ñandú", "ẞ", "ß"]
    for _ in range(4000):
        pool = rng.choice((alphabet, "bmp", "astral"))
        length = rng.randint(1, 12)
        if pool == "bmp":
            texts.append("".join(assigned(rng, 0x80, 0x10000) for _ in range(length)))
        elif pool == "astral":
            texts.append("".join(assigned(rng, 0x10000, 0x20000) for _ in range(length)))
        else:
            texts.append("".join(rng.choice(alphabet) for _ in range(length)))
    cases = [{"function": "normalise", "text": text} for text in texts]
    assert_agree(figures, lists, cases, [normalise_word(text) for text in texts])


def test_it_holds_the_lists_words(figures, lists):
    """As many words as the engine's list, and a word of the list, spelled any way, found in it."""
    rng = random.Random(2)
    cases, expected = [], []
    for name, (_, lexicon) in lists.items():
        cases.append({"function": "size", "list": name})
        expected.append(len(lexicon))
        words = lexicon.words()
        letters = sorted({char for word in words for char in word})
        for word in rng.sample(words, min(len(words), 1500 if name == "fr" else 200)):
            for query in (word, spelled(word, rng), one_letter_off(word, letters, rng), word[:-1], word + "S"):
                cases.append({"function": "has", "list": name, "word": query})
                expected.append(query in lexicon)
        odd = ["", " ", "\n", "ZEBRE\nKIWI", "zèbre", "cœur", "A", "ZZZZ", "\U0001d400"]
        for query in [*odd, *words[:3], *words[-3:]]:
            cases.append({"function": "has", "list": name, "word": query})
            expected.append(query in lexicon)
    found = [answer for case, answer in zip(cases, expected, strict=True) if case["function"] == "has"]
    assert found.count(True) > 2000 and found.count(False) > 2000
    assert_agree(figures, lists, cases, expected)


@pytest.fixture
def counter_lists(monkeypatch, lists):
    """The counter's own views with the engine's editions, each edition checking its words against the list
    `current["list"]` names (the view asks the database for the edition's default list)."""
    current = {"list": "fr"}
    monkeypatch.setattr(views.Edition.objects, "engine", lambda code=None: BUILTIN_EDITIONS[code or "fr"])
    monkeypatch.setattr(views.Lexicon.objects, "engine_for", lambda code: lists[current["list"]][1])
    return current


def typed_verdicts(case, counter_lists):
    """The typed counter's verdict on each word typed, box by box (views._result with the box ticked)."""
    counter_lists["list"] = case["list"]
    data = {"words": str(len(case["words"])), "edition": case["edition"], "check": "1"}
    data.update({f"w{i}": text for i, text in enumerate(case["words"])})
    state = CounterForm(data).state(BUILTIN_EDITIONS[case["edition"]])
    result = views._result(state, DEFAULT_RULES)
    if result is None or isinstance(result, dict):
        return None
    return [[word.score.word, word.in_list] for word in state.words if word.score]


def test_the_typed_counter_s_verdicts_are_the_engine_s(figures, lists, counter_lists):
    """Words of each edition's list as a visitor types them, a secondary word beside, Spanish CH and Catalan L·L
    read as one tile, a letter the edition lacks (a blank): each word's verdict, as the server gives it."""
    rng = random.Random(3)
    cases = [
        {"function": "typed", "list": "fr", "edition": "fr", "words": words}
        for words in (["zèbre"], ["KIWI", "ki"], ["cœur"], ["ÉCOLES", "ES"], ["zebrex"], ["MOUTONS", "OS", "AS"])
    ]
    for name, (_, lexicon) in lists.items():
        code = "fr" if name == "fr" else name.removesuffix("-club")
        words = lexicon.words()
        letters = [spec.letter for spec in BUILTIN_EDITIONS[code].letters]
        for _ in range(300):
            picked = [rng.choice(words) for _ in range(rng.randint(1, 3))]
            typed = [spelled(w, rng) if rng.random() < 0.6 else one_letter_off(w, letters, rng) for w in picked]
            cases.append({"function": "typed", "list": name, "edition": code, "words": typed})
    expected = [typed_verdicts(case, counter_lists) for case in cases]
    verdicts = [verdict for answer in expected if answer for _, verdict in answer]
    assert verdicts.count(True) > 300 and verdicts.count(False) > 300
    assert_agree(figures, lists, cases, expected)


def grid_verdicts(case, lists):
    """The grid page's verdict on each word of the move typed (views.grid_page with the box ticked)."""
    edition = BUILTIN_EDITIONS[case["edition"]]
    board = replay(case["moves"], edition, DEFAULT_RULES).board
    attempt = case["attempt"]
    form = GridForm({**attempt, "direction": "h" if attempt["horizontal"] else "v", "check": "1"})
    play = form.pending(board, edition, DEFAULT_RULES).play
    lexicon = lists[case["list"]][1]
    return [[word.word, in_lexicon(word, lexicon)] for word in play.words] if play else None


def grid_case(list_name, edition, moves, start, letters, horizontal=True, blanks=""):
    attempt = {"start": start, "letters": letters, "horizontal": horizontal, "blanks": blanks}
    return {"function": "grid", "list": list_name, "edition": edition, "moves": moves, "attempt": attempt}


def test_the_grid_s_verdicts_are_the_engine_s(figures, lists):
    """A move typed on the grid: its main word and its cross words (AVIONS through VAGUE, seed 000's ZÈBRE with a
    blank B), words of each list laid across the centre, lowercase letters as blanks."""
    rng = random.Random(4)
    cases = [
        grid_case("fr", "fr", ["H4 VAGUE"], "G4", "AIONS", horizontal=False),
        grid_case("fr", "fr", ["H4 VAGUE"], "G4", "AIONS", horizontal=False, blanks="L4S"),
        grid_case("fr", "fr", [], "H6", "zebre", blanks="H8B"),
        grid_case("fr", "fr", ["H4 VAGUE", "G4 AVIONS"], "I3", "EU"),
        grid_case("fr", "fr", ["H4 VAGUE"], "I5", "NE"),
    ]
    for name, (_, lexicon) in lists.items():
        code = "fr" if name == "fr" else name.removesuffix("-club")
        for word in rng.sample(lexicon.words(), 150):
            text = spelled(word, rng)
            cases.append(grid_case(name, code, [], "H8", text, horizontal=rng.random() < 0.5))
    expected = [grid_verdicts(case, lists) for case in cases]
    assert sum(answer is not None for answer in expected) > 800
    assert_agree(figures, lists, cases, expected)


def test_the_shipped_list_is_what_the_browser_reads():
    """The browser bisects the text the server sends: the shipped file must be the engine's words, normalised and
    sorted, one a line, as an uploaded list is stored."""
    text = gzip.decompress(FRENCH_WORDLIST.read_bytes()).decode()
    assert text == "\n".join(default_french_lexicon().words()) + "\n"
