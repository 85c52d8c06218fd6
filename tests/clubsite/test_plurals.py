"""French plurals. The msgids are French already; the catalog locale/fr/LC_MESSAGES/django.mo (written by
scripts/update_plurals.py, `make messages`) holds each plural message translated by itself under French's rule,
the singular for 0 and 1: without it, Django's fallback takes the singular for 1 only ("0 coups joués").

The guard reads every plural message of the code (Python calls by their syntax tree, templates' blocktranslate
as Django builds the msgid at render time) and fails when the compiled catalog lacks one: run
`make messages` and commit locale/. Its template reader is checked against Django's own extraction (templatize,
always) and against makemessages (when GNU gettext is installed)."""

import ast
import gettext
import importlib.util
import os
import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import ngettext
from django.utils.translation.template import templatize

from tests.duplicate.conftest import make_session

ROOT = Path(settings.BASE_DIR)
MESSAGES = ROOT / "locale" / "fr" / "LC_MESSAGES"
# Not the interface: dependencies, collected files, and the tests, whose msgids are test data.
SKIPPED_DIRS = {".venv", "node_modules", "staticfiles", "tests", "__pycache__", "locale"}
PLURAL_FUNCTIONS = {"ngettext": False, "ngettext_lazy": False, "npgettext": True, "npgettext_lazy": True}
TEMPLATE_SUFFIXES = (".html", ".txt")

# Django's Lexer reads no tag across a line break; the body of a block may span lines.
BLOCK_RE = re.compile(
    r"\{%[ \t]*blocktrans(?:late)?\b(?P<args>[^\n]*?)%\}(?P<body>.*?)\{%[ \t]*endblocktrans(?:late)?[ \t]*%\}", re.S
)
PLURAL_TAG_RE = re.compile(r"\{%[ \t]*plural[ \t]*%\}")
VAR_RE = re.compile(r"\{\{([^\n]*?)\}\}")
TEMPLATE_COMMENT_RE = re.compile(r"\{#[^\n]*?#\}")
COMMENT_BLOCK_RE = re.compile(r"\{%[ \t]*comment\b[^\n]*?%\}.*?\{%[ \t]*endcomment[ \t]*%\}", re.S)
CONTEXT_RE = re.compile(r"""\bcontext\s+("[^"]*"|'[^']*')""")


def _load_script():
    spec = importlib.util.spec_from_file_location("update_plurals", ROOT / "scripts" / "update_plurals.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def source_files(suffixes):
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = sorted(name for name in dirnames if name not in SKIPPED_DIRS and not name.startswith("."))
        for name in sorted(filenames):
            # makemessages leaves <template>.html.py beside a template while it runs.
            if name.endswith(suffixes) and not name.endswith(tuple(s + ".py" for s in TEMPLATE_SUFFIXES)):
                yield Path(dirpath, name)


def python_plurals(source):
    """{(msgctxt, msgid, msgid_plural)} of the n(p)gettext(_lazy) calls with literal strings, as xgettext reads
    them (a qualified call such as translation.ngettext counts too)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name not in PLURAL_FUNCTIONS:
            continue
        with_context = PLURAL_FUNCTIONS[name]
        strings = node.args[: 3 if with_context else 2]
        if len(strings) == (3 if with_context else 2) and all(
            isinstance(arg, ast.Constant) and isinstance(arg.value, str) for arg in strings
        ):
            values = tuple(arg.value for arg in strings)
            found.add(values if with_context else (None, *values))
    return found


def _template_message(tokens_text, trimmed):
    """The msgid of a blocktranslate part, as BlockTranslateNode.render_token_list builds it."""
    parts, position = [], 0
    for match in VAR_RE.finditer(tokens_text):
        parts.append(tokens_text[position : match.start()].replace("%", "%%"))
        parts.append(f"%({match[1].strip()})s")
        position = match.end()
    parts.append(tokens_text[position:].replace("%", "%%"))
    message = "".join(parts)
    return translation.trim_whitespace(message) if trimmed else message


def template_plurals(source):
    """{(msgctxt, msgid, msgid_plural)} of the `{% blocktranslate count … %}…{% plural %}…` blocks of a template."""
    found = set()
    source = COMMENT_BLOCK_RE.sub("", source)
    for block in BLOCK_RE.finditer(source):
        body = TEMPLATE_COMMENT_RE.sub("", block["body"])
        halves = PLURAL_TAG_RE.split(body)
        if len(halves) != 2:
            continue
        trimmed = "trimmed" in block["args"].split()
        context = CONTEXT_RE.search(block["args"])
        found.add((context[1][1:-1] if context else None, *(_template_message(half, trimmed) for half in halves)))
    return found


def code_plurals():
    """{(msgctxt, msgid, msgid_plural): first file using it} over the project's Python files and templates."""
    found = {}
    for path in source_files((".py", *TEMPLATE_SUFFIXES)):
        read = python_plurals if path.suffix == ".py" else template_plurals
        messages = read(path.read_text(encoding="utf-8"))
        for message in messages:
            found.setdefault(message, str(path.relative_to(ROOT)))
    return found


@pytest.fixture(scope="module")
def catalog():
    with open(MESSAGES / "django.mo", "rb") as compiled:
        return gettext.GNUTranslations(compiled)


# ---- French's rule, through Django ----


@pytest.mark.parametrize(
    ("n", "expected"),
    [(0, "0 joueur ajouté."), (1, "1 joueur ajouté."), (2, "2 joueurs ajoutés."), (15, "15 joueurs ajoutés.")],
)
def test_ngettext_takes_the_singular_for_0_and_1(n, expected):
    # duplicate/views/players.py, after adding players to a session.
    with translation.override("fr"):
        message = ngettext("%(count)d joueur ajouté.", "%(count)d joueurs ajoutés.", n) % {"count": n}
    assert message == expected


@pytest.mark.django_db
@pytest.mark.parametrize(("rounds", "expected"), [(0, "0 coup joué"), (1, "1 coup joué"), (2, "2 coups joués")])
def test_the_ranking_counts_its_moves_in_french(alice, rounds, expected):
    session = make_session(alice)
    context = {"session": session, "ranking": [], "tops_total": 0, "rounds": rounds, "now": timezone.now()}
    with translation.override("fr"):
        html = render_to_string("duplicate/ranking.html#board", context)
    assert f"{expected} ·" in html


@pytest.mark.django_db
def test_the_live_ranking_of_a_session_without_a_move_says_0_coup_joue(alice):
    session = make_session(alice)
    response = Client().get(reverse("duplicate:ranking", args=[session.public_key]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "0 coup joué ·" in html
    assert "coups joués" not in html


# ---- The catalog ----


def test_the_catalog_has_french_plural_forms(catalog):
    assert catalog.info()["plural-forms"] == "nplurals=2; plural=(n > 1);"
    assert [catalog.plural(n) for n in (0, 1, 2, 1_000_000)] == [0, 0, 1, 1]


def test_the_compiled_catalog_is_the_po_file(catalog):
    """django.mo is compiled from django.po as it is (no edit left uncompiled), and translates nothing away:
    every msgstr is its msgid or msgid_plural, none empty."""
    script = _load_script()
    entries = [entry for entry in script.parse_po(script.CATALOG.read_text(encoding="utf-8")) if entry.msgid]
    assert entries, "no message in django.po"
    in_po = {}
    for entry in entries:
        assert entry.msgid_plural is not None, f"a singular message in the catalog: {entry.msgid!r}"
        assert entry.msgstr == {0: entry.msgid, 1: entry.msgid_plural}, entry.msgid
        key = f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt is not None else entry.msgid
        in_po[key, 0], in_po[key, 1] = entry.msgid, entry.msgid_plural
    in_mo = {key: text for key, text in catalog._catalog.items() if key != ""}
    assert in_mo == in_po, "django.mo is not django.po compiled: run `make messages`"


def test_every_plural_message_of_the_code_is_in_the_catalog(catalog):
    messages = code_plurals()
    assert (None, "%(count)s coup joué", "%(count)s coups joués") in messages  # templates/duplicate/ranking.html
    assert (None, "%(count)d joueur ajouté.", "%(count)d joueurs ajoutés.") in messages  # duplicate/views/players.py
    missing = []
    for (context, singular, plural), where in sorted(messages.items(), key=lambda item: item[1]):
        key = f"{context}\x04{singular}" if context is not None else singular
        if catalog._catalog.get((key, 0)) != singular or catalog._catalog.get((key, 1)) != plural:
            missing.append(f"{where}: {singular!r} / {plural!r}")
    assert not missing, "plural messages missing from locale/fr (run `make messages`):\n" + "\n".join(missing)


# ---- The guard's reader, against Django's extraction ----

DJANGO_PLURAL_RE = re.compile(r""" n(p?)gettext\(((?:u(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"), ?){2,3})count\) """)
DJANGO_STRING_RE = re.compile(r"""u('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")""")


def django_template_plurals(source, origin=None):
    """The plural messages of a template as Django's templatize (what makemessages hands to xgettext) writes them."""
    found = set()
    for match in DJANGO_PLURAL_RE.finditer(templatize(source, origin=origin)):
        strings = [ast.literal_eval(s) for s in DJANGO_STRING_RE.findall(match[2])]
        found.add(tuple(strings) if match[1] else (None, *strings))
    return found


def test_the_template_reader_agrees_with_django_templatize():
    compared = 0
    for path in source_files(TEMPLATE_SUFFIXES):
        source = path.read_text(encoding="utf-8")
        expected = django_template_plurals(source, origin=str(path))
        assert template_plurals(source) == expected, path
        compared += bool(expected)
    assert compared >= 5


@pytest.mark.parametrize(
    "source",
    [
        "{% blocktranslate count n=x %}{{ n }} %{% plural %}{{ n }} %% et {{ y }}{% endblocktranslate %}",
        "{% blocktrans trimmed count n=x %}\n  Un\n  seul\n{% plural %}\n  {{n}}\n  plusieurs\n{% endblocktrans %}",
        '{% blocktranslate count n=x context "séance" %}{{ n }} coup{% plural %}{{ n }} coups{% endblocktranslate %}',
        "{% blocktranslate %}seul{% endblocktranslate %}{% blocktranslate count n=x %}a{# note #}{% plural %}b"
        "{% endblocktranslate %}",
        "{% comment %}{% blocktranslate count n=x %}a{% plural %}b{% endblocktranslate %}{% endcomment %}",
    ],
)
def test_the_template_reader_agrees_with_django_templatize_on_tricky_blocks(source):
    expected = django_template_plurals(source)
    assert template_plurals(source) == expected
    assert expected or "comment" in source


@pytest.mark.skipif(
    not all(shutil.which(program) for program in ("xgettext", "msguniq", "msgmerge", "msgattrib")),
    reason="GNU gettext (xgettext, msguniq, msgmerge, msgattrib) is not installed: makemessages cannot run",
)
def test_the_reader_finds_what_makemessages_finds():
    """The script's makemessages run (in a temporary directory) finds the same plural messages as the guard, so
    neither misses a file nor reads a message differently."""
    script = _load_script()
    extracted = script.plural_entries(script.parse_po(script.extract()))
    assert {(entry.msgctxt, entry.msgid, entry.msgid_plural) for entry in extracted} == set(code_plurals())
