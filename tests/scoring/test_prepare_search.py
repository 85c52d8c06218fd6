"""Issue 22: the top finder's index and compiled code are made when the project is installed and when a server
process starts (`manage.py prepare_search`), never by a user's first search: the first draw of an evening computed
its tops in 13.7 s (30 s, and a worker killed, on a machine whose cache was empty)."""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from scoring.engine.editions import DEFAULT_EDITION
from scoring.engine.gaddag import alphabet_of, lexicon_digest
from scoring.engine.lexicon import default_french_lexicon
from scoring.models import Edition, Lexicon

ROOT = Path(__file__).resolve().parents[2]

# In a fresh interpreter, once the command has run: a search with a time limit, the word list, its index and the
# kernel never loaded again (each loader refuses), and the search not exempted from its limit as a first one is.
FRESH_PROCESS = """
import django
django.setup()
from django.core.management import call_command
call_command("prepare_search")
from scoring.engine import gaddag, lexicon, movegen
from scoring.engine.editions import DEFAULT_EDITION
from scoring.engine.moves import Board

def refuse(*args, **kwargs):
    raise AssertionError("loaded again")

gaddag.load_gaddag = gaddag.build_gaddag = lexicon.Lexicon.load = refuse
assert movegen._searched and "scoring.engine.movegen_kernel" in __import__("sys").modules
index = gaddag.lexicon_index(lexicon.default_french_lexicon(), DEFAULT_EDITION)
print(movegen.best_moves(Board(), "EHLA?NI", DEFAULT_EDITION, index, limit=1, time_limit=3).moves[0].notation)
"""


def test_before_migrate_it_prepares_the_list_shipped_with_the_site(tmp_path):
    """A fresh clone: `make setup` runs it before any migration, on a database that has no table yet."""
    environment = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path}/empty.sqlite3",
        "DJANGO_SETTINGS_MODULE": "clubsite.settings",
    }
    run = subprocess.run(
        [sys.executable, "-c", FRESH_PROCESS], cwd=ROOT, env=environment, capture_output=True, text=True, check=True
    )
    ready, best = run.stdout.strip().splitlines()
    assert ready.startswith(
        "Chercheur de tops prêt pour « fr » (liste livrée avec le site : la base n'en nomme aucune, ou n'est pas "
        "encore prête) : 400 344 mots, "
        "index en "
    )
    assert best == "H2 ANHELaI"


def test_the_shipped_list_prepared_before_migrate_is_the_one_the_site_then_searches_with(db):
    """The same index file: the French edition's row and its default list give the digest of the shipped ones."""
    site = lexicon_digest(Lexicon.objects.engine_for("fr"), alphabet_of(Edition.objects.engine("fr")))
    assert site == lexicon_digest(default_french_lexicon(), alphabet_of(DEFAULT_EDITION))


@pytest.mark.django_db
def test_it_prepares_each_editions_list_that_the_database_names():
    out = io.StringIO()
    call_command("prepare_search", stdout=out)
    (line,) = out.getvalue().splitlines()
    assert line.startswith("Chercheur de tops prêt pour « fr » : 400 344 mots, index en ")
    assert line.endswith(")."), line
