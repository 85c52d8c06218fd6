"""The top finder made ready before anyone searches (issue 22).

A process's first search used to pay for what every later one finds in memory: the word list read (1 s), its index
(the GADDAG) read from the cache directory (0.05 s) or built there (9 s), and the compiled kernel loaded (0.6 s with
numba's import) or compiled for the machine (10 s). In a request, that was the first draw of an evening: 13.7 s, or
30 s and a gunicorn worker killed with the move; and a classic game's first review analysed one move of 24.

`prepare()` does that work once: for each edition whose default word list the database names, its index read or
built (and saved in the cache directory), then one search, which loads the kernel or compiles it and saves it there.
Before `migrate` (a fresh clone, `make setup`) the database has no list: the list shipped with the site is prepared,
the one the French edition's row names once migrated. `manage.py prepare_search` runs it when the project is
installed, so that the cache directory holds both; a server process runs it again when it starts (gunicorn.conf.py
before its workers are forked, clubsite/celery.py in a worker's main process before its pool's), so that they are
in its memory before its first request or task.
"""

from dataclasses import dataclass
from time import perf_counter

from django.db import DatabaseError

from .engine.editions import DEFAULT_EDITION
from .engine.editions import Edition as EngineEdition
from .engine.gaddag import Gaddag, lexicon_index
from .engine.lexicon import default_french_lexicon
from .engine.movegen import best_moves
from .engine.moves import Board
from .engine.rules import DEFAULT_RULES
from .engine.rules import RuleSet as RuleSetEngine
from .models import Edition, Lexicon, RuleSet, move_index


@dataclass(frozen=True)
class Prepared:
    """One word list made ready: its edition, its words, how long its index and the first search took."""

    edition: str
    words: int
    index_seconds: float
    search_seconds: float
    shipped: bool  # the list shipped with the site, prepared without the database


def prepare() -> list[Prepared]:
    """Every edition's default word list made ready in this process and in the cache directory (see the module)."""
    try:
        codes = list(
            Lexicon.objects.filter(is_default=True).order_by("edition__code").values_list("edition__code", flat=True)
        )
    except DatabaseError:  # not migrated yet, or not answering: the shipped list is the one to prepare
        codes = []
    if not codes:
        return [_prepared(DEFAULT_EDITION.code, _shipped_index, shipped=True)]
    # The rule sets' engine objects too, which every search of a session or a sheet is given.
    for code in RuleSet.objects.values_list("code", flat=True):
        RuleSet.objects.engine(code)
    return [_prepared(code, lambda code=code: _index(code)) for code in codes]


def _index(code: str) -> tuple[EngineEdition, RuleSetEngine, Gaddag]:
    return Edition.objects.engine(code), RuleSet.objects.engine(), move_index(code)


def _shipped_index() -> tuple[EngineEdition, RuleSetEngine, Gaddag]:
    return DEFAULT_EDITION, DEFAULT_RULES, lexicon_index(default_french_lexicon(), DEFAULT_EDITION)


def _prepared(code: str, load, shipped: bool = False) -> Prepared:
    started = perf_counter()
    edition, rules, index = load()
    loaded = perf_counter()
    search_once(edition, index, rules)
    return Prepared(code, index.word_count, loaded - started, perf_counter() - loaded, shipped)


def search_once(edition: EngineEdition, index: Gaddag, rules: RuleSetEngine = DEFAULT_RULES) -> None:
    """One search on an empty board: the compiled kernel loaded into this process for this index's cells, or
    compiled and saved in the cache directory when it holds none for this machine."""
    letters = [spec.letter for spec in edition.letters if spec.count][:7]
    best_moves(Board(), "".join(letters), edition, index, rules, limit=1)
