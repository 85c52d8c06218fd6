"""The engine's figures as the browser's scoring receives them (scoring/engine/figures.py)."""

import dataclasses
import json
from collections import Counter

from scoring.engine.board import SQUARES
from scoring.engine.editions import BUILTIN_EDITIONS
from scoring.engine.figures import counter_figures, edition_figures, rule_figures
from scoring.engine.rules import DEFAULT_RULES


def test_the_counter_s_figures_are_the_engine_s():
    """The board of facts §1 (8 + 17 + 12 + 24 premiums, 164 plain squares), the seeds' French set and bonus,
    as JSON a page embeds."""
    figures = counter_figures(BUILTIN_EDITIONS.values(), DEFAULT_RULES)
    assert json.loads(json.dumps(figures)) == figures
    assert Counter(figures["board"]["squares"]) == {"simple": 164, "MT": 8, "MD": 17, "LT": 12, "LD": 24}
    assert figures["board"]["squares"] == [square.value for square in SQUARES]
    assert figures["board"]["squares"][figures["board"]["center"]] == "MD"
    assert figures["board"]["premiums"]["LT"] == {"letter": 3, "word": 1}
    assert figures["board"]["premiums"]["MT"] == {"letter": 1, "word": 3}
    assert figures["rules"] == {"code": "tournoi", "rack_size": 7, "bingo_bonus": 50}
    french = figures["editions"][0]
    assert (french["code"], sum(french["counts"].values()), french["blanks"]) == ("fr", 102, 2)
    assert (french["values"]["K"], french["counts"]["E"], french["counts"]["?"]) == (10, 15, 2)
    assert {edition["code"] for edition in figures["editions"]} == set(BUILTIN_EDITIONS)
    assert figures["notation"]["max_word_tiles"] == 15 and figures["notation"]["max_secondary_words"] == 7
    assert figures["word_list"] == {"ligatures": {"Œ": "OE", "Æ": "AE"}}  # as lexicon.normalise_word spells words


def test_an_edition_and_a_rule_set_as_the_admin_left_them():
    """The figures are read from the objects given, so that an edition or a rule set edited in the admin reaches
    the page: Spanish's CH a tile of its own, no K; a rule set's own rack and bonus."""
    spanish = edition_figures(BUILTIN_EDITIONS["es"])
    assert (spanish["values"]["CH"], spanish["counts"]["CH"], "K" in spanish["values"]) == (5, 1, False)
    house = dataclasses.replace(DEFAULT_RULES, code="maison", rack_size=8, bingo_bonus=75)
    assert rule_figures(house) == {"code": "maison", "rack_size": 8, "bingo_bonus": 75}
