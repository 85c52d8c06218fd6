"""The rules of the sheet kept in the browser (static/js/sheet_rules.js) against the engine they copy: thousands of
seeded random cases per rule, each answered by the Python engine here and by the script under node, with the
figures the page gives it (browser_config). One node process per test reads the cases on stdin and writes its
answers on stdout; any disagreement fails the test and prints the first cases that differ."""

import dataclasses
import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from scoring.engine.editions import BLANK, LIGATURES
from scoring.engine.endgame import MAX_RACK_VALUE, check_racks, end_of_game, rack_letters, rack_value
from scoring.engine.errors import ScoringError
from scoring.engine.ranking import above_top, percent_of, rank, shared_places
from scoring.engine.rules import DEFAULT_RULES, EndOfGame
from scoring.models import Edition
from sheets.local import RULE_FIELDS, browser_config
from sheets.models import Line
from sheets.sheet import _pass_run

NODE = shutil.which("node") or shutil.which("nodejs")
RUNNER = Path(__file__).with_name("run_sheet_rules.js")
# The scripts the sheet's page loads for its rules, in their order: node loads the same, in the same order
# (test_the_sheet_pages_load_the_scripts_node_runs holds the pages to it).
PAGE_SCRIPTS = ("letters.js", "sheet_rules.js")

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(NODE is None, reason="node n'est pas installé : apt-get install nodejs"),
]

# The page's sentence (a data-* attribute of #local-texts, camel-cased) for each refusal of the engine.
SENTENCES = {
    "Le mot est vide.": "emptyWord",
    "Une parenthèse n'est pas refermée.": "openParenthesis",
    "Le mot contient un espace : écrivez-le d'un seul tenant.": "space",
    "Caractère non accepté : « %(char)s ». Seules les lettres sont admises.": "badChar",
    "Le mot compte %(count)d lettres : %(max)d au plus.": "tooLong",
    "Une valeur de lettres restantes va de 0 à %(max)d.": "rackValue",
    "Un seul joueur peut avoir terminé : laissez vide une seule case.": "oneFinisher",
    "%(player)s : %(count)d × %(letter)s, mais il n'en reste que %(left)d hors de la grille.": "rackTooMany",
    "Les lettres restantes comptent %(count)d × %(letter)s en tout, mais il n'en reste que %(left)d hors de la "
    "grille.": "racksTooMany",
}

# Characters a visitor may type besides an edition's letters: accents, ligatures, the Catalan dot, parentheses,
# Python's and JavaScript's differing spaces, digits and signs, combining marks, letters of other scripts, a
# titlecase digraph, lowercase letters with no capital, fullwidth and compatibility forms.
OTHER_CHARS = (
    "ÉÈÊËÀÂÄÇÎÏÔÖÙÛÜŸÑÅØŁéèêëàâäçîïôöùûüÿñåøłąęśźżńóćĄĘŚŹŻŃÓĆßẞœŒæÆ··()(()) \t\n\xa0\u2009\u3000\ufeff\x1c\x85"
    "0123456789-'?*.,!/\u0301\u0327\u0308\u20ddαΩжЖıİǅǆªºĸＡｚﬁﬂŉ\U0001d400"
)

# Latin to CJK punctuation, Latin Extended-D (letters added since Unicode 15), the presentation and fullwidth forms.
ALPHABETIC_BLOCKS = (range(0x3000), range(0xA640, 0xA800), range(0xFB00, 0x10000))


@pytest.fixture
def config():
    """What the page gives its script: the editions and the engine's figures, as browser_config writes them."""
    page = browser_config()
    return {"editions": page["editions"], "notation": page["notation"], "turn_kinds": page["turn_kinds"]}


@pytest.fixture
def editions(config):
    return {edition["code"]: Edition.objects.engine(edition["code"]) for edition in config["editions"]}


def in_node(function, cases, config):
    """sheet_rules.js's answer to each case, from one node process."""
    feed = json.dumps({"function": function, "config": config, "cases": cases})
    done = subprocess.run(
        [NODE, RUNNER, *PAGE_SCRIPTS], input=feed.encode(), capture_output=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


def engine_answer(compute):
    """The engine's answer in the runner's shape: {"value": …} or {"refusal": [sentence, values]}."""
    try:
        value = compute()
    except ScoringError as error:
        return {"refusal": [SENTENCES.get(error.template, error.template), error.params]}
    return json.loads(json.dumps({"value": value}))  # tuples become lists, as they come back from node


def readable(value) -> str:
    """JSON with the accents as they are and the invisible characters escaped (U+FEFF, U+001C…)."""
    return "".join(
        char if char.isprintable() else f"\\u{ord(char):04x}" for char in json.dumps(value, ensure_ascii=False)
    )


def assert_agree(function, cases, expected, config):
    answers = in_node(function, cases, config)
    assert len(answers) == len(cases)
    differing = [(case, want, got) for case, want, got in zip(cases, expected, answers, strict=True) if want != got]
    shown = "\n".join(
        f"  {readable(case)}\n    engine:  {readable(want)}\n    browser: {readable(got)}"
        for case, want, got in differing[:5]
    )
    assert not differing, (
        f"sheet_rules.js's {function} disagrees with the engine on {len(differing)} of {len(cases)} cases, the first "
        f"ones:\n{shown}"
    )


def written_word(rng, edition):
    """A word as a visitor might type it: mostly the edition's tiles (in capitals, lowercase, or in parentheses for
    a blank), now and then another character, sometimes with spaces around it."""
    letters = [spec.letter for spec in edition.letters]
    pieces = []
    for _ in range(rng.choice((0, 1, 2, 3, 5, 7, 8, 10, 13, 15, 15, 16, 18))):
        roll = rng.random()
        if roll < 0.6:
            pieces.append(rng.choice(letters))
        elif roll < 0.75:
            pieces.append(rng.choice(letters).lower())
        elif roll < 0.82:
            pieces.append(f"({rng.choice(letters)})")
        else:
            pieces.append(rng.choice(OTHER_CHARS))
    word = "".join(pieces)
    if rng.random() < 0.1:
        word = rng.choice(" \t\xa0\ufeff\x1c") + word + rng.choice(("", " ", "\n", "\x85"))
    return word


def written_rack(rng, edition):
    """Remaining letters as typed at the end of a game: letters and blanks, or a value."""
    roll = rng.random()
    if roll < 0.2:
        return rng.choice(("", "0", "007", " 12 ", str(MAX_RACK_VALUE), str(MAX_RACK_VALUE + 1), "99999", "²", "1 2"))
    if roll < 0.3:
        return str(rng.randrange(0, 1200))
    tiles = [spec.letter for spec in edition.letters for _ in range(spec.count)] + [BLANK] * edition.blanks
    letters = rng.sample(tiles, rng.randrange(0, 9))
    if rng.random() < 0.3:
        letters = [letter.lower() for letter in letters]
    if rng.random() < 0.15:
        letters.insert(rng.randrange(len(letters) + 1), rng.choice(OTHER_CHARS))
    if rng.random() < 0.15:
        letters.insert(rng.randrange(len(letters) + 1), " ")
    return "".join(letters)


def test_it_splits_words_as_the_engine(config, editions):
    """Edition.split: tiles and blanks, accents, ligatures, digraphs, and each refusal with its values; alone in
    French, every character of the alphabetic blocks (node's Unicode may be newer than Python's: its new letters
    must be refused alike), and Latin's in every edition."""
    rng = random.Random(2401)
    cases = [
        {"text": written_word(rng, edition), "edition": code} for code, edition in editions.items() for _ in range(1500)
    ]
    cases += [{"text": chr(point), "edition": "fr"} for block in ALPHABETIC_BLOCKS for point in block]
    cases += [{"text": chr(point), "edition": code} for code in editions for point in range(0x250)]
    cases += [
        {"text": ligature.lower() * count, "edition": code}
        for code in editions
        for ligature in LIGATURES
        for count in (7, 8)
    ]
    expected = [engine_answer(lambda case=case: editions[case["edition"]].split(case["text"])) for case in cases]
    assert_agree("split", cases, expected, config)


def test_it_values_the_remaining_letters_as_the_engine(config, editions):
    rng = random.Random(2402)
    cases = [
        {"text": written_rack(rng, edition), "edition": code} for code, edition in editions.items() for _ in range(600)
    ]
    expected = [engine_answer(lambda case=case: rack_value(case["text"], editions[case["edition"]])) for case in cases]
    assert_agree("rackValue", cases, expected, config)
    expected = [
        engine_answer(lambda case=case: rack_letters(case["text"], editions[case["edition"]])) for case in cases
    ]
    assert_agree("rackLetters", cases, expected, config)


def test_it_refuses_the_same_impossible_racks(config, editions):
    """check_racks against the full set (no board in the browser): one rack, then all of them together."""
    rng = random.Random(2403)
    cases = []
    for code, edition in editions.items():
        tiles = [spec.letter for spec in edition.letters for _ in range(spec.count)] + [BLANK] * edition.blanks
        rare = [spec.letter for spec in edition.letters if spec.count <= 2] + [BLANK]
        for _ in range(400):
            racks = []
            for seat in range(rng.randrange(2, 5)):
                letters = rng.sample(tiles, rng.randrange(0, 8)) + rng.choices(rare, k=rng.choice((0, 0, 1, 2)))
                racks.append([f"Joueur {seat + 1}", letters])
            cases.append({"racks": racks, "edition": code})
    expected = [
        engine_answer(lambda case=case: check_racks(dict(case["racks"]), editions[case["edition"]].counts()))
        for case in cases
    ]
    assert_agree("checkRacks", cases, expected, config)


def test_it_ends_the_game_as_the_engine(config):
    """end_of_game under each rule: the finisher (none, one, or two, refused), the adjustments, shared places."""
    rng = random.Random(2404)
    cases = []
    for _ in range(4000):
        players = rng.randrange(2, 5)
        values = [
            rng.choice((None, 0, rng.randrange(1, 40))) if rng.random() < 0.5 else rng.randrange(0, 25)
            for _ in range(players)
        ]
        scores = [rng.choice((rng.randrange(-20, 600), 300, 301)) for _ in range(players)]
        cases.append({"scores": scores, "values": values, "rule": rng.choice(list(EndOfGame)).value})
    expected = [
        engine_answer(
            lambda case=case: [
                dataclasses.asdict(final)
                for final in end_of_game(case["scores"], case["values"], EndOfGame(case["rule"]))
            ]
        )
        for case in cases
    ]
    assert_agree("endOfGame", cases, expected, config)


def test_it_shares_places_as_the_engine(config):
    rng = random.Random(2405)
    cases = [
        {"totals": [rng.randrange(-3, 6) * rng.choice((1, 1, 100)) for _ in range(rng.randrange(1, 7))]}
        for _ in range(3000)
    ]
    expected = [engine_answer(lambda case=case: shared_places(case["totals"])) for case in cases]
    assert_agree("sharedPlaces", cases, expected, config)


def test_it_takes_the_percentage_of_the_tops_as_the_engine(config):
    """percent_of, one decimal rounded half up: every total of 0 to 300 against every sum of tops of 0 to 160
    (6.25 %, 12.5 %… included), then long games' sums."""
    cases = [{"total": total, "topTotal": tops} for total in range(301) for tops in range(161)]
    rng = random.Random(2408)
    cases += [{"total": rng.randrange(0, 20_000), "topTotal": rng.randrange(1, 20_000)} for _ in range(5000)]
    expected = [engine_answer(lambda case=case: percent_of(case["total"], case["topTotal"])) for case in cases]
    assert_agree("percentOf", cases, expected, config)


RANKED = (
    "total",
    "gap",
    "percent",
    "place",
    "solos",
    "solo_points",
)  # a duplicate ranking's row, as the sheet shows it


def test_it_ranks_a_duplicate_game_as_the_engine(config):
    """ranking.rank on the sheet's duplicate games: one to four players (alone against the tops too), scores and
    tops left empty (0), equal to the top or above it, solos with and without their bonus, shared places."""
    rng = random.Random(2409)
    cases, expected = [], []
    for _ in range(4000):
        rules = dataclasses.replace(
            DEFAULT_RULES, solo_bonus=rng.choice((0, 10, 7)), solo_min_players=rng.choice((1, 2, 3, 4, 16))
        )
        players, moves = rng.randrange(1, 5), rng.randrange(0, 26)
        tops = [rng.choice((None, 0, rng.randrange(0, 130), rng.randrange(0, 130))) for _ in range(moves)]
        scores = [
            [
                rng.choice((None, 0, top, top, rng.randrange(0, 140))) if top is not None else rng.choice((None, 12))
                for top in tops
            ]
            for _ in range(players)
        ]
        cases.append({"tops": tops, "scores": scores, "rules": for_browser(rules)})
        rows = rank(tops=[top or 0 for top in tops], scores=dict(enumerate(scores)), rules=rules)
        by_seat = sorted(rows, key=lambda row: row.player)
        expected.append({"value": [{field: getattr(row, field) for field in RANKED} for row in by_seat]})
    assert_agree("duplicateRanking", cases, expected, config)


def test_it_flags_a_score_above_the_top_as_the_duplicate_room(config):
    """The engine's above_top, which the room's bulletins, a game played alone and a game's review check with: the
    bounds of a move's score, then scores around their top, either of them not written yet now and then."""
    rng = random.Random(2410)
    values = (None, 0, 1, 35, 36, 37, 2000)
    cases = [{"score": score, "top": top} for score in values for top in values]
    for _ in range(3000):
        top = rng.choice((None, rng.randrange(0, 200)))
        score = None if rng.random() < 0.1 else max(0, (top or 0) + rng.randint(-3, 3))
        cases.append({"score": score, "top": top})
    expected = [{"value": above_top(case["score"], case["top"])} for case in cases]
    assert sum(answer["value"] for answer in expected) > 500
    assert_agree("aboveTop", cases, expected, config)


def random_rules(rng):
    """A rule set as an admin could leave it: any pass limits, any bounds on the number of players."""
    low = rng.randrange(1, 5)
    return dataclasses.replace(
        DEFAULT_RULES,
        min_players=low,
        max_players=rng.randrange(low, 6),
        consecutive_pass_limit=rng.choice((0, 0, 2, 3, 4, 6, 8)),
        passes_per_player_limit=rng.choice((0, 0, 1, 2, 3, 4)),
        pass_rounds_limit=rng.choice((0, 0, 1, 2, 3)),
    )


def for_browser(rules):
    return {field: getattr(rules, field) for field in RULE_FIELDS}


def test_it_sees_the_pass_limit_as_the_sheet(config):
    """The trailing run of turns that scored nothing (sheets/sheet.py), then RuleSet.pass_limit_reached on it, for
    random sheets of plays, passes, exchanges, withdrawn words, challenges and penalties."""
    rng = random.Random(2406)
    kinds = list(Line.Kind)
    cases, expected = [], []
    for _ in range(3000):
        rules, players = random_rules(rng), rng.randrange(2, 5)
        lines = []
        for number in range(rng.randrange(0, 25)):
            kind = rng.choice(kinds)
            points = rng.choice((0, 0, 0, rng.randrange(1, 80))) if kind in Line.TURN_KINDS else -rng.randrange(1, 20)
            lines.append(
                {
                    "player": number % players if rng.random() < 0.8 else rng.randrange(players),
                    "kind": kind.value,
                    "points": points,
                }
            )
        cases.append({"rules": for_browser(rules), "lines": lines, "players": players})
        seats = {seat: SimpleNamespace(position=seat) for seat in range(players)}
        sheet_lines = [Line(kind=line["kind"], points=line["points"], player_id=line["player"]) for line in lines]
        run = _pass_run(sheet_lines, seats)
        expected.append({"value": {"run": run, "reached": rules.pass_limit_reached(run, players)}})
    assert_agree("passLimit", cases, expected, config)


def test_it_allows_the_same_numbers_of_players(config):
    rng = random.Random(2407)
    rule_sets = [random_rules(rng) for _ in range(1000)]
    cases = [{"rules": for_browser(rules), "count": rng.randrange(1, 6)} for rules in rule_sets]
    expected = [{"value": rules.allows_players(case["count"])} for rules, case in zip(rule_sets, cases, strict=True)]
    assert_agree("allowsPlayers", cases, expected, config)


def test_it_strips_what_is_typed_as_python(config):
    """The racks' "left empty" and the words' outer spaces: every character Python calls a space, and U+FEFF, which
    only JavaScript does."""
    spaces = [chr(point) for point in range(0x3001) if chr(point).isspace()] + ["\ufeff"]
    cases = [{"text": f"{space}A{space}B{space}"} for space in spaces] + [{"text": space * 3} for space in spaces]
    expected = [{"value": case["text"].strip()} for case in cases]
    assert_agree("strip", cases, expected, config)


def test_each_refusal_is_a_sentence_of_the_page_with_the_engine_s_values(client):
    """The page writes each refusal from its own sentence: it must exist, and take the engine's placeholders."""
    html = client.get("/parties/locale/").content.decode()
    texts = re.search(r'<div id="local-texts" hidden(.*?)></div>', html, re.S)[1]
    attributes = dict(re.findall(r'data-([\w-]+)="([^"]*)"', texts))
    sentences = {re.sub(r"-(\w)", lambda m: m[1].upper(), name): text for name, text in attributes.items()}
    placeholders = re.compile(r"%\((\w+)\)")
    for template, name in SENTENCES.items():
        assert name in sentences, f"#local-texts has no data-{name} for « {template} »"
        assert set(placeholders.findall(sentences[name])) == set(placeholders.findall(template)), name


@pytest.mark.parametrize("url", ["/parties/locale/", "/", "/grille/"])
def test_the_sheet_pages_load_the_scripts_node_runs(client, url):
    """The parity tests run what the page runs, on its own page and under the counter and the grid: the same
    scripts, each first loaded in the same order."""
    scripts = re.findall(r'<script src="/static/js/([\w.]+)"', client.get(url).content.decode())
    assert set(PAGE_SCRIPTS) <= set(scripts)
    assert sorted(PAGE_SCRIPTS, key=scripts.index) == list(PAGE_SCRIPTS)
