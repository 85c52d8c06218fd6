"""The help pages (seeds 002 and 003, issue 25): how a move counts, and the letters of each edition.

Every figure these pages show is computed when they are drawn: each worked example of the seeds is scored by the
engine with the default edition and rule set, and opens in the counter through the counter's own share link; the
letter values and tile counts are the admin's rows. Nothing on them depends on who asks (the site's header aside),
so that they can be kept for reading offline. The score sheet's questions are the sheet's own page
(sheets/help.py), linked from here by its URL's name.
"""

from collections import Counter
from dataclasses import dataclass

from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from .browser import total_sentence
from .engine.board import CENTER, ROW_LETTERS, SIZE, SQUARES, Square, square_name
from .engine.editions import BLANK, MAX_WORD_TILES
from .engine.endgame import rack_value
from .engine.typed import MAX_SECONDARY_WORDS, score_typed
from .forms import CounterForm
from .models import Edition, RuleSet

# A tile's marks in an example, one word per tile of the word: a square's name (LD, LT, MD, MT), "=" for a tile
# already on the board, "?" for a blank ("?MD": a blank on a double word), "." for a new tile on a plain square.
ON_BOARD = "="


@dataclass(frozen=True)
class Example:
    """A worked example of the seeds, as a visitor types it in the counter: each word and its tiles' marks."""

    key: str
    words: tuple[tuple[str, str], ...]

    def form_data(self) -> dict:
        """The counter's form as its page would post it for this move (scoring/forms.py's CounterForm)."""
        data = {"words": str(len(self.words))}
        for i, (text, marks) in enumerate(self.words):
            data[f"w{i}"] = data[f"w{i}_was"] = text
            for j, mark in enumerate(marks.split()):
                if mark == ON_BOARD:
                    data[f"w{i}_{j}_on"] = "1"
                    continue
                if mark.startswith(BLANK):
                    data[f"w{i}_{j}_bl"] = "1"
                    mark = mark.removeprefix(BLANK)
                if mark in Square.__members__:
                    data[f"w{i}_{j}_sq"] = Square[mark].value
        return data


EXAMPLES = (
    # Seed 002: MOT without a premium, its M on a triple letter, then another new letter on a double word.
    Example("mot", (("MOT", ". . ."),)),
    Example("mot_lt", (("MOT", "LT . ."),)),
    Example("mot_lt_md", (("MOT", "LT . MD"),)),
    # Seed 000: the FFSc's first move, the C on a double letter and the S on the star.
    Example("ecoles", (("ÉCOLES", ". LD . . . MD"),)),
    # Seed 000: every word formed counts whole; a new tile keeps its premium in each word.
    Example("cafe_fonde", (("CAFÉ", "MD . . ."), ("FONDE", ". = = = ="))),
    Example("ex_ex", (("EX", "MT ."), ("EX", "= ."))),
    Example("axe_ex", (("AXE", "= LT ="), ("EX", "= LT"))),
    # Seed 000: premiums under tiles already on the board no longer count.
    Example("moutons_md_md", (("MOUTONS", "MD . . = . . MD"),)),
    Example("jouez", (("JOUEZ", "= . . . MT"),)),
    # Seed 002: seven new tiles, then the same word through a letter already in place.
    Example("joueurs", (("JOUEURS", ". . . . . . ."),)),
    Example("joueurs_6", (("JOUEURS", "= . . . . . ."),)),
    # Seed 000: the bonus comes after the word's doubling.
    Example("moutons_scrabble", (("MOUTONS", "LD . . . MD . ."),)),
    # Seed 000: a blank is worth 0 on a letter premium; on a double word the word is still doubled (seed 002).
    Example("kiwi_joker", (("KIWI", "?LT . . ."),)),
    Example("kiwi", (("KIWI", "LT . . ."),)),
    Example("zebre_joker", (("ZÈBRE", ". . ?MD . ."),)),
    Example("zebre", (("ZÈBRE", ". . MD . ."),)),
    # Seed 000, on the grid: H4 VAGUE (V on H4's double letter, E on the star), then 4G AVIONS through its V.
    Example("vague", (("VAGUE", "LD . . . MD"),)),
    Example("avions", (("AVIONS", ". = . . . MD"),)),
)
# Seed 000: an opponent left with these letters loses their value, which the player who finished gains.
RACK_LEFT = "EAU"


@require_safe
def help_index(request):
    """The help's first page: the points guide, the score sheet's questions, the letters of each edition."""
    return render(request, "help/index.html", {"editions": Edition.objects.values_list("code", "name")})


@require_safe
def points_guide(request):
    """ "Comprendre les points" (seeds 000 and 002), each worked example scored by the engine and opening in the
    counter."""
    edition = Edition.objects.engine()
    rules = RuleSet.objects.engine()
    context = {
        "examples": {example.key: worked_example(example, edition, rules) for example in EXAMPLES},
        "edition": edition,
        "rules": rules,
        "values": (min(edition.values.values()), max(edition.values.values())),
        "premiums": _premium_figures(),
        "max_word_tiles": MAX_WORD_TILES,
        "max_secondary_words": MAX_SECONDARY_WORDS,
        "board": {
            "first_row": ROW_LETTERS[0],
            "last_row": ROW_LETTERS[-1],
            "size": SIZE,
            "center": square_name(CENTER),
        },
        "rack_left": listing(list(RACK_LEFT)),
        "rack_left_value": rack_value(RACK_LEFT, edition),
        "missing_letters": _missing_letters(),
    }
    return render(request, "help/points.html", context)


def worked_example(example: Example, edition, rules) -> dict:
    """An example as the guide shows it: its tiles, each word's calculation and the total, scored by the engine as
    the counter scores it, and the counter's share link that opens it there."""
    state = CounterForm(example.form_data()).state(edition)
    result = score_typed(state.typed_words(), edition, rules)
    return {
        "key": example.key,
        "anchor": "exemple-" + example.key.replace("_", "-"),
        "words": [{"tiles": word.tiles, "score": score} for word, score in zip(state.words, result.words, strict=True)],
        "names": " + ".join(score.word for score in result.words),
        "tiles_placed": result.tiles_placed,
        "bonus": result.bonus,
        "score": result.score,
        "total": total_sentence(result.score) % {"score": result.score},
        # The link "Créer un lien de partage" gives (scoring/views.py), without the site's address: it opens
        # wherever the guide was opened.
        "url": reverse("counter") + "?etat=" + state.to_token(),
    }


def _premium_figures() -> dict:
    """The board's premium squares by kind, and what two or three word premiums multiply a word by."""
    counts = Counter(SQUARES)
    return {
        "counts": {square.name: counts[square] for square in Square},
        "two_md": Square.MD.word_multiplier**2,
        "two_mt": Square.MT.word_multiplier**2,
        "three_mt": Square.MT.word_multiplier**3,
    }


def _missing_letters() -> list[tuple[str, list[str]]]:
    """Each edition that has no tile for some letter of A to Z, with those letters: a typed one is a blank."""
    alphabet = [chr(code) for code in range(ord("A"), ord("Z") + 1)]
    editions = [Edition.objects.engine(code) for code in Edition.objects.values_list("code", flat=True)]
    found = [(edition.name, [letter for letter in alphabet if not edition.has_tile(letter)]) for edition in editions]
    return [(name, listing(letters)) for name, letters in found if letters]


def listing(items: list[str]) -> str:
    """Items as a French sentence lists them: « E, A et U »."""
    if len(items) < 2:
        return "".join(items)
    return gettext("%(first)s et %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


@require_safe
def letter_values(request):
    """ "Valeur des lettres": for each edition of the admin, its letters by value with their tile counts, and its
    blanks, read from its rows."""
    editions = Edition.objects.prefetch_related("letters")
    return render(request, "help/letters.html", {"editions": [_letter_table(e) for e in editions]})


def _letter_table(edition: Edition) -> dict:
    """One edition's rows grouped by value, lowest first, in the admin's order within a value; the blanks apart."""
    letters = sorted(edition.letters.all(), key=lambda row: (row.position, row.pk))
    by_value: dict[int, list] = {}
    blanks = None
    for row in letters:
        if row.letter == BLANK:
            blanks = row
        else:
            by_value.setdefault(row.value, []).append(row)
    return {
        "code": edition.code,
        "name": edition.name,
        "is_default": edition.is_default,
        "values": [
            {"value": value, "letters": rows, "tiles": sum(row.count for row in rows)}
            for value, rows in sorted(by_value.items())
        ],
        "blanks": blanks,
        "tiles": sum(row.count for row in letters),
        "letter_tiles": sum(row.count for row in letters if row.letter != BLANK),
    }
