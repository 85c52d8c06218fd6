"""The counter's scoring in the browser (static/js/score_rules.js) against the engine it copies: every seed example,
Eliot's positions and thousands of seeded random cases in every edition, each answered here by the counter's own
Python path (its forms, the engine, the view's result and "Copier le détail") and by the script under node with
the figures the page gives it (counter_figures). One node process per test reads the cases on stdin and writes its
answers on stdout; any difference in a tile, a word, a calculation, a score or a French refusal fails the test and
prints the first cases that differ."""

import ast
import dataclasses
import functools
import json
import random
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from django.utils.translation import gettext

from scoring import views
from scoring.browser import counter_texts
from scoring.engine.board import (
    CENTER,
    SIZE,
    Square,
    format_coordinate,
    parse_coordinate,
    square_index,
    square_name,
)
from scoring.engine.editions import BUILTIN_EDITIONS
from scoring.engine.errors import ScoringError, clause
from scoring.engine.figures import counter_figures, rule_figures
from scoring.engine.moves import Board, Move, Tile, lay_letters, replay
from scoring.engine.rules import DEFAULT_RULES
from scoring.engine.tracking import track
from scoring.engine.typed import TypedTile, score_typed
from scoring.forms import CounterForm, GridForm

from .conftest import eliot_games

NODE = shutil.which("node") or shutil.which("nodejs")
RUNNER = Path(__file__).with_name("run_score_rules.js")
ENGINE = Path(__file__).resolve().parents[2] / "scoring" / "engine"
SCRIPTS = Path(__file__).resolve().parents[2] / "static" / "js"
# The scripts the counter's pages load for their scoring, in their order: node loads the same, in the same order
# (test_the_counter_pages_load_the_scripts_node_runs holds the pages to it).
PAGE_SCRIPTS = ("letters.js", "score_rules.js")

needs_node = pytest.mark.skipif(NODE is None, reason="node n'est pas installé : apt-get install nodejs")

# The page's sentence for each refusal and text the counter writes, by the name score_rules.js gives it: the
# engine's (editions, board, moves, typed), the grid form's start square, the views' result lines.
SENTENCES = {
    "emptyWord": "Le mot est vide.",
    "tooLong": "Le mot compte %(count)d lettres : %(max)d au plus.",
    "openParenthesis": "Une parenthèse n'est pas refermée.",
    "space": "Le mot contient un espace : écrivez-le d'un seul tenant.",
    "badChar": "Caractère non accepté : « %(char)s ». Seules les lettres sont admises.",
    "badCoordinate": "Coordonnée illisible : « %(text)s ». Écrivez la ligne (A à O) puis la colonne (1 à 15) pour un "
    "mot horizontal, comme H4, ou la colonne puis la ligne pour un mot vertical, comme 4H.",
    "columnOff": "Colonne hors de la grille dans « %(text)s » : de 1 à 15.",
    "moveUnreadable": "Écrivez la coordonnée puis le mot, par exemple « H4 VAGUE » : « %(text)s ».",
    "moveSpace": "Le mot contient un espace : écrivez-le d'un seul tenant (« %(text)s »).",
    "tooShort": "Un mot compte au moins deux lettres : « %(move)s ».",
    "offGrid": "« %(move)s » sort de la grille : %(length)d lettres à partir de %(start)s.",
    "boardDiffers": "En %(square)s, la grille porte déjà un %(on_board)s, pas un %(letter)s.",
    "wordContinues": "Le mot continue sur la grille : la case %(square)s porte déjà une lettre. Écrivez le mot entier.",
    "noTile": "Aucun jeton n'est posé.",
    "occupied": "La case %(square)s est déjà occupée.",
    "notOneLine": "Les jetons posés doivent être sur une seule ligne ou une seule colonne.",
    "gap": "Une case reste vide entre les jetons posés : %(square)s.",
    "nothingNew": "Ce coup ne pose aucun jeton nouveau : toutes ses cases sont occupées.",
    "overRack": "Ce coup poserait %(count)d jetons nouveaux : un chevalet n'en porte que %(rack)d.",
    "firstMove": "Le premier coup doit couvrir la case centrale H8 avec au moins deux lettres.",
    "notTouching": "Le mot doit toucher une lettre déjà posée sur la grille.",
    "replay": "Grille, coup %(number)d (« %(move)s ») : %(reason)s",
    "lettersOff": "Les lettres tapées sortent de la grille.",
    "tooManyWords": "Au plus sept mots secondaires.",
    "wordTooLong": "Un mot compte 15 jetons au plus.",
    "tooManyTiles": "Plus de jetons posés que le chevalet n'en porte : marquez ceux qui étaient déjà sur le plateau.",
    "startSwapped": "« %(start)s » : une case s'écrit ligne puis colonne (%(swapped)s) ; le sens se choisit avec "
    "« Horizontal » ou « Vertical ».",
    "startUnknown": "« %(start)s » n'est pas une case de la grille : une ligne de A à O puis une colonne de 1 à 15 "
    "(H8).",
    "offBoard": "« %(move)s » ne tient plus sur la grille : %(reason)s",
    "tilesPlaced": "Jetons posés depuis le chevalet",
    # ngettext's singular and plural
    "bonus": ("Prime pour %(count)d jeton posé : +%(bonus)d", "Prime pour %(count)d jetons posés : +%(bonus)d"),
    "total": ("Total : %(score)s point", "Total : %(score)s points"),
}
# The engine's refusals the counter never meets: a rack held against the full set is the word finder's.
NOT_THE_COUNTER_S = {"Le tirage compte %(count)d « %(letter)s » : le jeu n'en a que %(in_set)d."}

SQUARE_KINDS = [square.value for square in Square]
ACCENTED = "ÉÈÊËÀÂÄÇÎÏÔÖÙÛÜŸÑÅØŁÓĄŚŻéèêàçñäöüłœŒæÆß"
# Issue 23: characters that show nothing or turn the text around, quoted as their codes in a refusal, [U+202E].
ODD = "0123456789-'?*.,()·\t\xa0\u2009 /²\u200b\u202e\u3164\ufe0f\u0336"


@pytest.fixture(scope="module")
def figures():
    return counter_figures(BUILTIN_EDITIONS.values(), DEFAULT_RULES)


@pytest.fixture(scope="module")
def texts():
    """The page's sentences, as the counter's pages give them (test_counter.py holds them to SENTENCES)."""
    return counter_texts()


@pytest.fixture
def counter_rules(monkeypatch):
    """The typed counter's own result (views._result) with the engine's editions and, per case, a rule set: the
    page is given the same figures."""
    monkeypatch.setattr(views.Edition.objects, "engine", lambda code=None: BUILTIN_EDITIONS[code or "fr"])
    return {"rules": DEFAULT_RULES}


def in_node(function, cases, figures, texts):
    """score_rules.js's answer to each case, from one node process."""
    feed = json.dumps({"function": function, "figures": figures, "texts": texts, "cases": cases})
    done = subprocess.run(
        [NODE, RUNNER, *PAGE_SCRIPTS], input=feed.encode(), capture_output=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


@functools.cache
def sentence_patterns():
    return {
        name: re.compile(re.sub(r"%\\\(\w+\\\)[sd]", ".*", re.escape(gettext(template))), re.S)
        for name, template in SENTENCES.items()
        if isinstance(template, str)
    }


def sentence_of(message: str) -> str:
    """The name of the sentence a refusal was written from, to count which ones the cases reach."""
    return next((name for name, pattern in sentence_patterns().items() if pattern.fullmatch(message)), message)


def readable(value) -> str:
    return "".join(
        char if char.isprintable() else f"\\u{ord(char):04x}" for char in json.dumps(value, ensure_ascii=False)
    )


def narrowed(want, got):
    """The parts of two answers that differ: the keys of a dict, the first item of a list, that differ."""
    if isinstance(want, dict) and isinstance(got, dict):
        keys = sorted(key for key in want.keys() | got.keys() if want.get(key) != got.get(key))
        pairs = {key: narrowed(want.get(key), got.get(key)) for key in keys}
        return {key: pair[0] for key, pair in pairs.items()}, {key: pair[1] for key, pair in pairs.items()}
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        first = next(i for i, (a, b) in enumerate(zip(want, got, strict=True)) if a != b)
        pair = narrowed(want[first], got[first])
        return {f"[{first}]": pair[0]}, {f"[{first}]": pair[1]}
    return want, got


def assert_agree(function, cases, expected, figures, texts):
    answers = in_node(function, cases, figures, texts)
    assert len(answers) == len(cases)
    expected = json.loads(json.dumps(expected))  # tuples become lists, as they come back from node
    differing = [(case, want, got) for case, want, got in zip(cases, expected, answers, strict=True) if want != got]
    shown = "\n".join(
        f"  {readable(case)}\n    engine:  {readable(want)}\n    browser: {readable(got)}"
        for case, (want, got) in ((case, narrowed(want, got)) for case, want, got in differing[:4])
    )
    assert not differing, (
        f"score_rules.js's {function} disagrees with the engine on {len(differing)} of {len(cases)} cases, the first "
        f"ones:\n{shown}"
    )


def rules_of(case):
    if "rules" not in case:
        return DEFAULT_RULES
    return dataclasses.replace(DEFAULT_RULES, **{k: v for k, v in case["rules"].items() if k != "code"})


def random_rules(rng):
    """Now and then another rack and bonus, as an admin may set them: the script must take them from the page."""
    if rng.random() < 0.75:
        return {}
    rules = dataclasses.replace(
        DEFAULT_RULES, rack_size=rng.choice((6, 7, 8)), bingo_bonus=rng.choice((0, 35, 50, 100))
    )
    return {"rules": rule_figures(rules)}


# ---- Typed mode: the counter's form, result and detail. ----


def typed_answer(case, counter_rules):
    """What the typed counter shows for the words posted: each box's tiles or refusal, each word's calculation,
    the result, "Copier le détail" and the tiles the move brings."""
    counter_rules["rules"] = rules_of(case)
    data = {"words": str(len(case["words"])), "edition": case["edition"]}
    for i, word in enumerate(case["words"]):
        data[f"w{i}"] = word["text"]
        if word["was"]:
            data[f"w{i}_was"] = word["was"]
        for j, (square, on_board, blank) in enumerate(word["settings"]):
            data[f"w{i}_{j}_sq"] = square
            data.update({f"w{i}_{j}_on": "1"} if on_board else {})
            data.update({f"w{i}_{j}_bl": "1"} if blank else {})
    state = CounterForm(data).state(BUILTIN_EDITIONS[case["edition"]])
    result = views._result(state, counter_rules["rules"])
    if result is None or isinstance(result, dict):
        counted = result
    else:
        counted = {
            "tiles_placed": result.tiles_placed,
            "bonus": result.bonus,
            "score": result.score,
            "too_many_tiles": result.too_many_tiles,
            "warning": gettext(result.warning) if result.warning else "",
        }
    words = [
        {
            "tiles": [
                [t.letter, t.shown, t.value, t.square.value, t.on_board, t.blank, t.forced_blank] for t in word.tiles
            ],
            "error": word.error,
            "scored": [word.score.word, word.score.calculation, word.score.score] if word.score else None,
        }
        for word in state.words
    ]
    detail = views._detail_text(state, result)
    return {"words": words, "result": counted, "detail": detail, "new_tiles": state.new_tiles()}


def typed_word(text, squares=None, on_board="", blanks="", was=""):
    """A word box: `squares` maps a position to its square, `on_board` and `blanks` mark positions with 'x'."""
    squares = squares or {}
    settings = [[squares.get(j, "simple"), on_board[j : j + 1] == "x", blanks[j : j + 1] == "x"] for j in range(15)]
    return {"text": text, "settings": settings, "was": was}


def typed_case(edition, *words):
    return {"edition": edition, "words": list(words)}


# Seeds 000 and 002, and the counter's own tests (test_typed.py, test_counter.py), as the visitor types them.
SEED_TYPED = [
    typed_case("fr", typed_word("écoles", {1: "LD", 5: "MD"})),
    typed_case("fr", typed_word("ÉCOLES", {1: "LD", 5: "MD"}, blanks="..x")),
    typed_case("fr", typed_word("CAFÉ", {0: "MD"}), typed_word("FONDE", on_board=".xxxx")),
    typed_case("fr", typed_word("EX", {0: "MT"}), typed_word("EX", on_board="x.")),
    typed_case("fr", typed_word("MOUTONS", {0: "MD", 3: "MT", 6: "MD"}, on_board="...x...")),
    typed_case("fr", typed_word("JOUEZ", {0: "LD", 4: "MT"}, on_board="x....")),
    typed_case("fr", typed_word("AXE", {1: "LT"}, on_board="x.x"), typed_word("EX", {1: "LT"}, on_board="x.")),
    typed_case("fr", typed_word("MOUTONS", {0: "LD", 4: "MD"})),
    typed_case("fr", typed_word("KIWI", {0: "LT"}, blanks="x")),
    typed_case("fr", typed_word("KIWI", {0: "LT"})),
    typed_case("fr", typed_word("ZÈBRE", {2: "MD"}, blanks="..x")),
    typed_case("fr", typed_word("ZÈBRE", {2: "MD"})),
    typed_case("fr", typed_word("VAGUE", {0: "LD", 4: "MD"})),
    typed_case("fr", typed_word("AVIONS", {1: "LD", 5: "MD"}, on_board=".x....")),
    typed_case("fr", typed_word("MOT")),
    typed_case("fr", typed_word("A")),  # "Total : 1 point", in the singular
    typed_case("fr", typed_word("A", blanks="x")),  # and 0
    typed_case("fr", typed_word("MOT", {0: "LT"})),
    typed_case("fr", typed_word("MOT", {0: "LT", 2: "MD"})),
    typed_case("fr", typed_word("JOUEURS")),
    typed_case("fr", typed_word("JOUEURS", on_board="...x...")),
    typed_case("fr", typed_word("GAGNE"), typed_word("GO", on_board=".x")),
    typed_case("fr", typed_word("GAGNE", {0: "MD"}), typed_word("GO", {0: "MD"}, on_board=".x")),
    typed_case("fr", typed_word("EX", {1: "LT"}), typed_word("TE", on_board="x."), typed_word("EX", {1: "LT"}, "x.")),
    typed_case("fr", typed_word("AVIONS", on_board=".x...."), typed_word("AS", on_board="x.")),
    typed_case("fr", typed_word("ANTICONSTITUTIO")),
    typed_case("fr", typed_word("ANTICONST")),
    typed_case("fr", typed_word("ANTICONSTITUTION")),
    typed_case("fr", typed_word("VA3UE")),
    typed_case("fr", typed_word("VA\u202eGUE"), typed_word("\u3164"), typed_word("E\ufe0f")),
    typed_case("fr", typed_word("cœur"), typed_word("Æ"), typed_word("ÇA")),
    typed_case("fr", typed_word("C(H)ACUNE"), typed_word("ChACUNE"), typed_word("C(HACUNE")),
    typed_case("fr", typed_word("jeu de"), typed_word(" MOT "), typed_word("")),
    typed_case("fr", typed_word("()"), typed_word("MOT")),
    typed_case("es", typed_word("KIWI")),
    typed_case("es", typed_word("CHURRO", {0: "LT"}), typed_word("LLAMA")),
    typed_case("ca", typed_word("COL·LEGI"), typed_word("NYAP"), typed_word("QUE")),
    typed_case("it", typed_word("JUKEBOX")),
    typed_case("de", typed_word("STRAßE"), typed_word("ÄRGER")),
    typed_case("fr", typed_word("PECOLES", {1: "LD", 5: "MD"}, was="ECOLES")),
    typed_case("fr", typed_word("ECLES", {1: "LD", 5: "MD"}, was="ECOLES")),
    typed_case("fr", *[typed_word("AB")] * 8),
]


def written_text(rng, edition, letters):
    """A word as a visitor might type it: mostly the edition's letters, now and then lowercase, an accent, a
    ligature, a letter in parentheses, a digit, a sign or a space; sometimes longer than a word may be."""
    pieces = []
    for _ in range(rng.choice((1, 2, 2, 3, 4, 5, 5, 6, 7, 7, 8, 9, 11, 15, 16))):
        roll = rng.random()
        if roll < 0.72:
            pieces.append(rng.choice(letters))
        elif roll < 0.8:
            pieces.append(rng.choice(letters).lower())
        elif roll < 0.9:
            pieces.append(rng.choice(ACCENTED))
        elif roll < 0.95:
            pieces.append(f"({rng.choice(letters)})")
        else:
            pieces.append(rng.choice(ODD))
    return "".join(pieces)[:60]


def retyped(rng, text, letters):
    """The box's former text: a letter taken out, typed in front or in the middle, or another word."""
    chars = list(text)
    roll = rng.random()
    position = rng.randrange(len(chars) + 1)
    if roll < 0.35 and chars:
        del chars[min(position, len(chars) - 1)]
    elif roll < 0.75:
        chars.insert(position, rng.choice(letters))
    elif roll < 0.9 and chars:
        chars[min(position, len(chars) - 1)] = rng.choice(letters)
    else:
        return "".join(rng.choices(letters, k=rng.randrange(1, 8)))
    return "".join(chars)[:60]


def random_typed_case(rng, code):
    edition = BUILTIN_EDITIONS[code]
    letters = [spec.letter for spec in edition.letters]
    words = []
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4, 8))):
        text = written_text(rng, edition, letters) if rng.random() < 0.95 else rng.choice(("", " ", "\t"))
        settings = [
            [rng.choices(SQUARE_KINDS, weights=(12, 2, 2, 2, 1))[0], rng.random() < 0.25, rng.random() < 0.1]
            for _ in range(15)
        ]
        was = retyped(rng, text, letters) if rng.random() < 0.3 else ""
        words.append({"text": text, "settings": settings, "was": was})
    return {"edition": code, "words": words, **random_rules(rng)}


@needs_node
def test_the_typed_counter_counts_as_the_engine(figures, texts, counter_rules):
    """Each box's tiles (letter, value, square, déjà posé, joker, the edition's missing letters), its refusal, each
    word's calculation, the result, its detail and the rack's tiles: the seeds' words, then random ones."""
    rng = random.Random(2501)
    cases = SEED_TYPED + [random_typed_case(rng, code) for code in BUILTIN_EDITIONS for _ in range(250)]
    expected = [typed_answer(case, counter_rules) for case in cases]
    assert expected[0]["result"]["score"] == 22 and expected[2]["result"]["score"] == 27  # ÉCOLES, CAFÉ + FONDE
    assert_agree("typed", cases, expected, figures, texts)


def score_typed_answer(case):
    words = [[TypedTile(t["letter"], Square(t["square"]), t["on_board"], t["blank"]) for t in w] for w in case["words"]]
    try:
        result = score_typed(words, BUILTIN_EDITIONS[case["edition"]], rules_of(case))
    except ScoringError as error:
        return {"refusal": error.translated(gettext)}
    return {
        "words": [[word.word, word.calculation, word.score] for word in result.words],
        "tiles_placed": result.tiles_placed,
        "bonus": result.bonus,
        "score": result.score,
        "too_many_tiles": result.too_many_tiles,
    }


@needs_node
def test_typed_scoring_keeps_the_limits_of_the_engine(figures, texts):
    """score_typed itself: up to seven secondary words of 15 tiles, empty words left out, letters of other
    editions counted as blanks, the bonus only for exactly a rack."""
    rng = random.Random(2502)
    every_letter = sorted({spec.letter for edition in BUILTIN_EDITIONS.values() for spec in edition.letters})
    cases = []
    for code in BUILTIN_EDITIONS:
        for _ in range(200):
            words = [
                [
                    {
                        "letter": rng.choice(every_letter),
                        "square": rng.choices(SQUARE_KINDS, weights=(8, 2, 2, 2, 1))[0],
                        "on_board": rng.random() < 0.3,
                        "blank": rng.random() < 0.1,
                    }
                    for _ in range(rng.choice((0, 1, 2, 3, 5, 6, 7, 7, 8, 9, 15, 16)))
                ]
                for _ in range(rng.choice((0, 1, 1, 2, 3, 8, 9, 10)))
            ]
            cases.append({"edition": code, "words": words, **random_rules(rng)})
    expected = [score_typed_answer(case) for case in cases]
    refusals = Counter(answer.get("refusal") for answer in expected)
    assert refusals["Au plus sept mots secondaires."] and refusals["Un mot compte 15 jetons au plus."]
    assert_agree("scoreTyped", cases, expected, figures, texts)


# ---- Grid mode: a board from its moves, and moves typed on it. ----


def grid_answer(case):
    """What the grid page shows: the board replayed from its moves (the ones it refuses, and why), the tile
    tracking, and for each move typed on it (start, direction, letters, joker marks) its tiles, words and score or
    its refusal."""
    edition, rules = BUILTIN_EDITIONS[case["edition"]], rules_of(case)
    replayed = replay(case["moves"], edition, rules)
    board = replayed.board
    tracking = track(edition, [tile for _, tile in board.tiles()])
    attempts = []
    for fields in case["attempts"]:
        form = GridForm({**fields, "direction": "h" if fields["horizontal"] else "v"})
        pending = form.pending(board, edition, rules)
        play = pending.play
        attempts.append(
            {
                "start": pending.start,
                "placements": [
                    [square_name(index), tile.letter, tile.blank] for index, tile in pending.placements.items()
                ],
                "blank_marks": pending.blank_marks,
                "error": form.errors["start"][0] if "start" in form.errors else pending.error,
                "play": play and play_answer(play),
            }
        )
    return {
        "laid": replayed.laid,
        "scores": [play.score for play in replayed.plays],
        "refused": [refusal.translated(gettext) for refusal in replayed.refused],
        "off_board": [  # as views.grid_page writes them
            gettext("« %(move)s » ne tient plus sur la grille : %(reason)s")
            % {"move": refusal.params["move"], "reason": clause(refusal.error.translated(gettext))}
            for refusal in replayed.refused
        ],
        "tracking": {
            "remaining": tracking.remaining,
            "overplayed": tracking.overplayed,
            "in_bag": tracking.in_bag(case["players"], rules.rack_size),
        },
        "attempts": attempts,
    }


def fields(start, letters, horizontal=True, blanks=""):
    return {"start": start, "letters": letters, "horizontal": horizontal, "blanks": blanks}


def grid_case(moves, *attempts, edition="fr", players=2):
    return {"edition": edition, "moves": list(moves), "players": players, "attempts": list(attempts)}


# Seed 000's grid, the grid page's tests (test_grid.py) and the issues found on it.
SEED_GRID = [
    grid_case([], fields("H4", "vague"), fields("H4", "VAGUE"), fields("H3", "ÉCOLES"), fields("H4", "MOUTONS")),
    grid_case(
        ["H4 VAGUE"],
        fields("G4", "AIONS", False),
        fields("G4", "AVIONS", False),
        fields("G4", "AIONS", False, "L4S"),
        fields("E5", "HALIENT", False, "L5T"),
        fields("A1", "ZOO"),
    ),
    grid_case(
        [], fields("H8", "MOT", blanks="H8M"), fields("H4", "VAGUE", blanks="H8M"), fields("H4", "VAGUE", blanks="h8e")
    ),
    grid_case([], fields("H6", "ZEBRE", blanks="H8B"), fields("H6", "ZEBRE"), fields("H6", "FFF")),
    grid_case(
        [],
        fields("A1", "VAGUE"),
        fields("H8", "A"),
        fields("H12", "VAGUES"),
        fields("H8", "ABCDEFGH"),
        fields("H8", "A1"),
        fields("Z9", "VAGUE"),
        fields("H16", "VAGUE"),
        fields("8h", "VAGUE"),
        fields(" h8 ", "  "),
        fields("", "VAGUE"),
    ),
    grid_case(["H6 FFF"], fields("G8", "E", False), players=3),
    grid_case(["H4 VAGUE", "4G AVIONS"], fields("L5", "E"), fields("L3", "E"), fields("I5", "S"), players=4),
    grid_case(["H4 VAGUE", "H4 VAGUE", "4G AVIONS", "Z9 AB", "H4", "4g avions"]),
]


def tile_bag(edition):
    return [spec.letter for spec in edition.letters for _ in range(spec.count)]


def random_letters(rng, edition, bag, board_letters):
    """Letters as typed on the grid: the bag's, now and then one already on the board (read through), an accent,
    a letter in parentheses, a sign; mostly a rack's worth, sometimes more than a rack or a word takes."""
    pieces = []
    for _ in range(rng.choice((1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 7, 8, 9, 12, 16))):
        roll = rng.random()
        if roll < 0.75:
            pieces.append(rng.choice(bag))
        elif roll < 0.85 and board_letters:
            pieces.append(rng.choice(board_letters))
        elif roll < 0.9:
            pieces.append(rng.choice(bag).lower())
        elif roll < 0.95:
            pieces.append(rng.choice(ACCENTED))
        elif roll < 0.98:
            pieces.append(f"({rng.choice(bag)})")
        else:
            pieces.append(rng.choice(ODD))
    return "".join(pieces)[:30]


ODD_STARTS = ("", " h8 ", "8H", "8h", "Z9", "H16", "H0", "٨H", "H٨", "A", "15O", "ｈ8", "O15", "a1", "H08", "H8\u200b")


def random_start(rng, board):
    """A start square: mostly next to a tile in place (or on the centre's line on an empty board), now and then
    anywhere, or written wrong."""
    roll = rng.random()
    horizontal = rng.random() < 0.55
    occupied = [index for index, tile in enumerate(board.cells) if tile]
    if roll < 0.05:
        return rng.choice(ODD_STARTS), horizontal
    if roll < 0.15:
        return square_name(rng.randrange(SIZE * SIZE)), horizontal
    if not occupied:
        step = 1 if horizontal else SIZE
        index = CENTER - step * rng.randrange(0, 6)
        return square_name(index), horizontal
    row, col = divmod(rng.choice(occupied), SIZE)
    along, across = rng.randrange(-4, 2), rng.choice((-1, 0, 0, 1))
    row, col = (row + across, col + along) if horizontal else (row + along, col + across)
    row, col = min(max(row, 0), SIZE - 1), min(max(col, 0), SIZE - 1)
    return square_name(row * SIZE + col), horizontal


def random_fields(rng, board, edition, bag, rules):
    """A move typed on the grid, and the play it makes when the board takes it (some of its new tiles touched
    into blanks)."""
    start, horizontal = random_start(rng, board)
    letters = random_letters(rng, edition, bag, [tile.letter for tile in board.cells if tile])
    marks, play = [], None
    try:
        tiles = [Tile(letter, blank) for letter, blank in edition.split(letters.upper())]
        placements = lay_letters(board, square_index(start.strip().upper()), horizontal, tiles)
        touched = {index for index in placements if rng.random() < 0.2}
        marks = [f"{square_name(index)}{placements[index].letter}" for index in touched]
        placements = {index: tile._replace(blank=tile.blank or index in touched) for index, tile in placements.items()}
        play = board.evaluate_tiles(placements, edition, rules, horizontal=horizontal)
    except (ScoringError, ValueError, IndexError):
        pass
    if rng.random() < 0.1:
        marks.append(f"{square_name(rng.randrange(SIZE * SIZE))}{rng.choice(bag)}")
    if marks and rng.random() < 0.2:
        marks = [f" {mark.lower()}" for mark in marks] + [""]
    return fields(start, letters, horizontal, ",".join(marks)), play


def random_game(rng, code):
    """Grid cases along one random game: at each turn a few moves typed on the board, one of those it takes laid
    for the next turn."""
    edition = BUILTIN_EDITIONS[code]
    bag = tile_bag(edition)
    rules = {**random_rules(rng)}
    board, moves, cases = Board(), [], []
    for _ in range(rng.randrange(4, 30)):
        typed = [random_fields(rng, board, edition, bag, rules_of(rules)) for _ in range(rng.randrange(2, 7))]
        attempts = [attempt for attempt, _play in typed]
        cases.append(
            {"edition": code, "moves": list(moves), "players": rng.randrange(1, 5), "attempts": attempts, **rules}
        )
        play = next((play for _attempt, play in typed if play), None)
        if play:
            moves.append(play.move.notation)
            board.place(play)
    return cases


BROKEN_MOVES = (
    "H4",
    "",
    "H4 VA GUE",
    "Z4 AB",
    "H16 AB",
    "16H AB",
    "H0 AB",
    "H4 A",
    "O12 ABCDEFG",
    "h8 web",
    "H8 ab",
    "8H ZO(O",
    "H8 A1",
    "٨H AB",
    "H٨ AB",
    "H08 AB",
    "4h vague",
    "A1 ABCDEFGHIJKLMNOP",
    "H8 É",
)


def clause_undone(text):
    """A reason as the engine wrote it before it went after a colon (« Grille, coup 2 (…) : ce coup … »)."""
    return text[:1].upper() + text[1:]


def broken(rng, moves):
    """A list of kept moves spoilt: one moved, cut, changed or laid twice, or a move that cannot be read."""
    moves = list(moves)
    if not moves or rng.random() < 0.3:
        moves.insert(rng.randrange(len(moves) + 1), rng.choice(BROKEN_MOVES))
        return moves
    i = rng.randrange(len(moves))
    coordinate, word = moves[i].split()
    roll = rng.random()
    if roll < 0.25:
        row, col, horizontal = parse_coordinate(coordinate)
        row, col = min(SIZE - 1, max(0, row + rng.choice((-1, 0, 1)))), min(SIZE - 1, max(0, col + rng.choice((-1, 1))))
        moves[i] = f"{format_coordinate(row, col, horizontal)} {word}"
    elif roll < 0.5:
        moves[i] = f"{coordinate} {word[1:] if rng.random() < 0.5 else word[:-1]}"
    elif roll < 0.75:
        position = rng.randrange(len(word))
        moves[i] = f"{coordinate} {word[:position]}{rng.choice('AEIOUZ')}{word[position + 1 :]}"
    else:
        moves.insert(rng.randrange(i, len(moves)) + 1, moves[i])
    return moves


@needs_node
def test_the_grid_counts_as_the_engine(figures, texts):
    """Seed 000's grid and the grid page's cases, then random games in every edition: boards replayed from their
    moves, moves typed on them with blanks, cross words, words read through tiles in place, racks overflowing,
    and every refusal (no line, a gap, off the board, not touching, the first move off the centre)."""
    rng = random.Random(2503)
    cases = list(SEED_GRID)
    for code in BUILTIN_EDITIONS:
        for _ in range(6):
            cases += random_game(rng, code)
    expected = [grid_answer(case) for case in cases]
    found = [attempt for answer in expected for attempt in answer["attempts"]]
    assert expected[0]["attempts"][0]["play"]["score"] == 26 and expected[1]["attempts"][0]["play"]["score"] == 18
    refusals = Counter(sentence_of(attempt["error"]) for attempt in found if attempt["error"])
    reached = {"firstMove", "notTouching", "overRack", "lettersOff", "noTile", "tooLong", "badChar", "space"}
    assert reached | {"openParenthesis", "startSwapped", "startUnknown"} <= set(refusals), refusals
    assert sum(1 for attempt in found if attempt["play"]) > 1000
    assert any(len(attempt["play"]["words"]) > 2 for attempt in found if attempt["play"])
    assert any(attempt["play"]["bonus"] for attempt in found if attempt["play"])
    assert_agree("grid", cases, expected, figures, texts)


@needs_node
def test_a_kept_board_is_replayed_as_the_engine(figures, texts):
    """Boards kept as moves in notation, some spoilt (a move shifted, cut, changed, laid twice, unreadable): the
    moves laid, their scores, the ones refused with the engine's reason and the grid page's line."""
    rng = random.Random(2504)
    cases = []
    for code in BUILTIN_EDITIONS:
        for _ in range(4):
            played = random_game(rng, code)[-1]
            cases += [{**played, "moves": broken(rng, played["moves"]), "attempts": []} for _ in range(10)]
    expected = [grid_answer(case) for case in cases]
    reasons = Counter(sentence_of(clause_undone(text.split(") : ", 1)[1])) for a in expected for text in a["refused"])
    reached = {"boardDiffers", "wordContinues", "nothingNew", "notTouching", "tooShort", "offGrid", "overRack"}
    assert reached | {"badCoordinate", "columnOff", "moveUnreadable", "moveSpace", "badChar"} <= set(reasons), reasons
    assert sum(reasons.values()) > 300
    assert_agree("grid", cases, expected, figures, texts)


def play_answer(play):
    return {
        "notation": play.move.notation,
        "placed": [[square_name(index), tile.written] for index, tile in play.placed],
        "words": [[word.word, word.coordinate, word.calculation, word.score] for word in play.words],
        "tiles_placed": play.tiles_placed,
        "bonus": play.bonus,
        "score": play.score,
    }


@functools.cache
def board_after(code, moves, rules):
    return replay(list(moves), BUILTIN_EDITIONS[code], rules).board


def evaluate_tiles_answer(case):
    edition, rules = BUILTIN_EDITIONS[case["edition"]], rules_of(case)
    board = board_after(case["edition"], tuple(case["moves"]), rules)
    placements = {square_index(square): Tile(letter, blank) for square, letter, blank in case["placements"]}
    try:
        return play_answer(board.evaluate_tiles(placements, edition, rules, horizontal=case["horizontal"]))
    except ScoringError as error:
        return {"refusal": error.translated(gettext)}


def random_placements(rng, board, bag):
    """Tiles put on squares one by one, as a page could lay them: on a line with or without gaps, on two lines,
    on a square already covered, in any order."""
    count = rng.choice((0, 1, 1, 2, 3, 4, 5, 6, 7, 8))
    occupied = [index for index, tile in enumerate(board.cells) if tile]
    anchor = rng.choice(occupied) if occupied and rng.random() < 0.8 else rng.randrange(SIZE * SIZE)
    step = rng.choice((1, SIZE))
    squares = []
    for k in range(count):
        roll = rng.random()
        if roll < 0.7:
            index = anchor + step * (k - rng.randrange(0, 3) + rng.choice((0, 0, 0, 1, 2)))
        elif roll < 0.85:
            index = rng.randrange(SIZE * SIZE)
        else:
            index = anchor + rng.choice((-1, 1)) * (SIZE + 1 - step)
        if 0 <= index < SIZE * SIZE and index not in squares:
            squares.append(index)
    if rng.random() < 0.3:
        rng.shuffle(squares)
    return [[square_name(index), rng.choice(bag), rng.random() < 0.1] for index in squares]


@needs_node
def test_tiles_laid_square_by_square_count_as_the_engine(figures, texts):
    """Board.evaluate_tiles with the tiles' squares given: the refusals the grid's typing never reaches (a gap, two
    lines, a covered square) and a single tile's direction (none, across or down preferred)."""
    rng = random.Random(2505)
    cases = []
    for code in BUILTIN_EDITIONS:
        bag = tile_bag(BUILTIN_EDITIONS[code])
        for _ in range(2):
            game = random_game(rng, code)
            for case in game[:: max(1, len(game) // 8)]:
                for _ in range(6):
                    board = board_after(code, tuple(case["moves"]), rules_of(case))
                    placements = random_placements(rng, board, bag)
                    horizontal = rng.choice((None, True, False))
                    cases.append({**case, "attempts": [], "placements": placements, "horizontal": horizontal})
    expected = [evaluate_tiles_answer(case) for case in cases]
    refusals = Counter(sentence_of(answer["refusal"]) for answer in expected if "refusal" in answer)
    assert {"gap", "notOneLine", "occupied", "noTile", "notTouching", "firstMove"} <= set(refusals), refusals
    assert sum("score" in answer for answer in expected) > 30
    assert_agree("evaluateTiles", cases, expected, figures, texts)


@needs_node
def test_eliots_positions_count_as_recorded(figures, texts):
    """Each of Eliot's 181 moves (../shared/oracle/eliot_fr.jsonl) typed on the grid over the board before it:
    from its first new tile, its new letters, its blanks touched; and each game replayed whole."""
    cases = []
    for game in eliot_games():
        moves = [text for text, _score in game["moves"]]
        cases.append(grid_case(moves))
        board = Board()
        fr = BUILTIN_EDITIONS["fr"]
        for k, (text, recorded) in enumerate(game["moves"]):
            move = Move.parse(text, fr)
            play = board.evaluate(move, fr)
            assert play.score == recorded, text
            placed = sorted(play.placed)
            # From the first new tile to the last, the tiles in place between them typed too: the grid reads them.
            step = 1 if move.horizontal else SIZE
            span = range(placed[0][0], placed[-1][0] + 1, step)
            typed = fields(
                square_name(placed[0][0]),
                "".join((dict(placed).get(index) or board.cells[index]).letter for index in span),
                move.horizontal,
                ",".join(f"{square_name(index)}{tile.letter}" for index, tile in placed if tile.blank),
            )
            cases.append(grid_case(moves[:k], typed))
            board.place(play)
    expected = [grid_answer(case) for case in cases]
    scores = [answer["attempts"][0]["play"]["score"] for answer in expected if answer["attempts"]]
    recorded = [score for game in eliot_games() for _text, score in game["moves"]]
    assert scores == recorded and len(scores) == 181
    assert_agree("grid", cases, expected, figures, texts)


# ---- The page's figures and sentences. ----


def test_every_refusal_of_the_engine_has_its_sentence():
    """A refusal added to the engine's notation, moves or typed mode must be given its sentence here, and then in
    score_rules.js (or letters.js, which reads the letters): the browser refuses what the engine refuses, in the
    same words."""
    templates = set()
    for name in ("editions.py", "board.py", "moves.py", "typed.py"):
        for node in ast.walk(ast.parse((ENGINE / name).read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "gettext_noop":
                templates.add(node.args[0].value)
    missing = templates - NOT_THE_COUNTER_S - set(SENTENCES.values())
    assert missing == set()
    script = "\n".join((SCRIPTS / name).read_text() for name in PAGE_SCRIPTS)
    unused = [name for name in SENTENCES if f'"{name}"' not in script and f"texts.{name}" not in script]
    assert unused == []


def page_scripts(html: str) -> list[str]:
    """The scripts of static/js a page loads, in its order."""
    return re.findall(r'<script src="/static/js/([\w.]+)"', html)


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/grille/"])
def test_the_counter_pages_load_the_scripts_node_runs(client, url):
    """The parity tests run what the page runs: the same scripts, each first loaded in the same order."""
    scripts = page_scripts(client.get(url).content.decode())
    assert set(PAGE_SCRIPTS) <= set(scripts)
    assert sorted(PAGE_SCRIPTS, key=scripts.index) == list(PAGE_SCRIPTS)
