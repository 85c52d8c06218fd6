"""« Feuille de marque : questions fréquentes » (seed 003, issue 25), answered for this site's sheet.

The answers quote the sheet's figures where they are kept (the games a browser keeps, the players each type of
game admits, each rule set's exchange minimum, challenge penalty, bonus and end of game, the timer's times), so
that a rule set changed in the admin changes its answer too. Its duplicate example is ranked by the engine. The
page holds nothing of who reads it (the site's header aside), so that it can be kept for reading offline.
"""

from django.shortcuts import render
from django.views.decorators.http import require_safe

from scoring.engine.ranking import rank
from scoring.engine.rules import EndOfGame, move_time
from scoring.models import Edition, RuleSet

from .local import DUPLICATE_MIN_PLAYERS, GAMES_KEPT

# Seed 000's duplicate game of three moves, made up for the site: the tops, then two players' scores.
DUPLICATE_TOPS = [24, 36, 18]
DUPLICATE_SCORES = {1: [24, 30, 18], 2: [20, 36, 9]}


@require_safe
def sheet_faq(request):
    """The score sheet's questions and answers, each true of the sheet kept in the browser."""
    rules = RuleSet.objects.engine()
    low, high = RuleSet.objects.player_bounds()
    edition = Edition.objects.engine()
    rule_sets = [RuleSet.objects.engine(code) for code in RuleSet.objects.values_list("code", flat=True)]
    names = {rule_set.code: rule_set.name for rule_set in rule_sets}
    context = {
        "rules": rules,
        "rule_sets": rule_sets,
        # Each rule set that admits fewer players than the sheet seats, with the one the sheet then follows.
        "fallbacks": [
            (rule_set.name, rule_set.max_players, names[rule_set.fallback_code])
            for rule_set in rule_sets
            if rule_set.fallback_code in names and rule_set.max_players < high
        ],
        "finisher_gains_double": EndOfGame.FINISHER_GAINS_DOUBLE,
        "classic_players": (low, high),
        "duplicate_players": (DUPLICATE_MIN_PLAYERS, high),
        "games_kept": GAMES_KEPT,
        "edition": edition,
        "letter_tiles": edition.tile_count - edition.blanks,
        "timer_choices": [move_time(seconds) for seconds in rules.move_seconds_choices],
        "duplicate_example": _duplicate_example(rules),
    }
    return render(request, "help/sheet.html", context)


def _duplicate_example(rules) -> dict:
    """Seed 000's made-up game as the sheet ranks it: each player's scores, total, gap and percentage of the tops."""
    rows = rank(tops=DUPLICATE_TOPS, scores=DUPLICATE_SCORES, rules=rules)
    return {
        "tops": DUPLICATE_TOPS,
        "tops_total": sum(DUPLICATE_TOPS),
        "rows": [{"player": row.player, "scores": DUPLICATE_SCORES[row.player], "row": row} for row in rows],
    }
