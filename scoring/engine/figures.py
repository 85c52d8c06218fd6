"""The figures the engine scores with, as plain JSON-ready data, for a scorer that runs outside Python.

static/js/score_rules.js, the counter's scoring in the visitor's browser, holds no figure of its own: the page
gives it these (the board's squares and premiums, how a written word is read, the rule set's rack and bonus,
each edition's letters), so that a value or a square changed in the engine or in the admin reaches it too.
Nothing is computed here.
"""

from .board import CENTER, ROW_LETTERS, SIZE, SQUARES, Square
from .editions import BLANK, DIGRAPH_PARTS, LIGATURES, MAX_WORD_TILES, Edition
from .lexicon import LIGATURES as WORD_LIST_LIGATURES
from .rules import RuleSet
from .typed import MAX_SECONDARY_WORDS


def board_figures() -> dict:
    """The 15×15 board: its row letters, the centre, each square's kind (row by row) and each kind's premiums."""
    return {
        "size": SIZE,
        "rows": ROW_LETTERS,
        "center": CENTER,
        "squares": [square.value for square in SQUARES],
        "premiums": {
            square.value: {"letter": square.letter_multiplier, "word": square.word_multiplier} for square in Square
        },
    }


def notation_figures() -> dict:
    """How typed text becomes tiles, and the counter's limits on what is typed."""
    return {
        "blank": BLANK,
        "max_word_tiles": MAX_WORD_TILES,
        "max_secondary_words": MAX_SECONDARY_WORDS,
        "ligatures": LIGATURES,
        "digraph_parts": sorted(DIGRAPH_PARTS),
    }


def word_list_figures() -> dict:
    """How a word list spells a word (lexicon.normalise_word): the ligatures it expands."""
    return {"ligatures": WORD_LIST_LIGATURES}


def rule_figures(rules: RuleSet) -> dict:
    """What a move's score depends on in a rule set: the rack's size and the bonus for laying all of it."""
    return {"code": rules.code, "rack_size": rules.rack_size, "bingo_bonus": rules.bingo_bonus}


def edition_figures(edition: Edition) -> dict:
    """One edition's tiles: each letter's value and count (the blanks' count under `?` and in `blanks`)."""
    return {
        "code": edition.code,
        "name": edition.name,
        "values": dict(edition.values),
        "counts": edition.counts(),
        "blanks": edition.blanks,
    }


def counter_figures(editions, rules: RuleSet) -> dict:
    """Everything the counter's scoring needs, for the editions a page offers and the rule set it counts with."""
    return {
        "board": board_figures(),
        "notation": notation_figures(),
        "word_list": word_list_figures(),
        "rules": rule_figures(rules),
        "editions": [edition_figures(edition) for edition in editions],
    }
