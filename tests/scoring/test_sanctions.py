"""FISF §5's sanctions as the ranking applies them, with the règlement's numbers: a penalty (a right score, its
place missing or wrong) counts the claimed score less 5, and 0 when the move is worth 4 or less; the 4th
avertissement (the 6th in blitz) and each later one cost 5; a zero ("bulle") and a late player's moves count 0.
A sanction never takes a move below 0, and the solo's bonus (§3.5) is added after it."""

from dataclasses import replace

from scoring.engine.ranking import move_points, rank
from scoring.engine.rules import TOURNAMENT

PENALTY = TOURNAMENT.duplicate_penalty  # 5, the règlement's


def points_of(scores, *, penalties=None, warnings=None, blitz=False, rules=TOURNAMENT):
    """Alice's moves alone: (what each counts, what its sanctions took)."""
    moves = move_points(
        tops=[20] * len(scores),
        scores={"alice": scores},
        penalties={"alice": penalties or []},
        warnings={"alice": warnings or []},
        rules=rules,
        blitz=blitz,
    )["alice"]
    return [move.points for move in moves], [move.penalty_points for move in moves]


def test_a_penalty_takes_five_points_from_the_claimed_score_and_leaves_zero_when_it_is_worth_four_or_less():
    """Table 10 writes 3, the arbiter gives −5 (a right score, its place missing or wrong): the move counts 0, not
    −2, and the penalty took 3."""
    assert points_of([9], penalties=[PENALTY]) == ([4], [5])
    assert points_of([3], penalties=[PENALTY]) == ([0], [3])
    assert points_of([4], penalties=[PENALTY]) == ([0], [4])
    assert points_of([5], penalties=[PENALTY]) == ([0], [5])


def test_the_fourth_avertissement_costs_five_points_and_no_more_than_its_move():
    warned = [True] * 4
    assert points_of([10, 10, 10, 20], warnings=warned) == ([10, 10, 10, 15], [0, 0, 0, 5])
    assert points_of([10, 10, 10, 3], warnings=warned) == ([10, 10, 10, 0], [0, 0, 0, 3])


def test_each_avertissement_after_the_fourth_costs_again_even_after_one_that_found_little_to_take():
    scores, warned = [10, 10, 10, 3, 20, 0, 8], [True] * 7
    assert points_of(scores, warnings=warned) == ([10, 10, 10, 0, 15, 0, 3], [0, 0, 0, 3, 5, 0, 5])


def test_in_blitz_the_sixth_avertissement_is_the_first_to_cost():
    scores, warned = [10, 10, 10, 10, 10, 4, 20], [True] * 7
    assert points_of(scores, warnings=warned, blitz=True) == ([10, 10, 10, 10, 10, 0, 15], [0, 0, 0, 0, 0, 4, 5])
    assert points_of(scores, warnings=warned) == ([10, 10, 10, 5, 5, 0, 15], [0, 0, 0, 5, 5, 4, 5])


def test_a_penalty_and_a_costly_avertissement_on_one_move_take_at_most_its_score():
    moves = move_points(
        tops=[10, 10, 10, 7],
        scores={"alice": [10, 10, 10, 7]},
        penalties={"alice": [0, 0, 0, PENALTY]},
        warnings={"alice": [True] * 4},
        rules=TOURNAMENT,
    )["alice"]
    last = moves[-1]
    assert (last.points, last.penalty_points) == (0, 7)
    assert last.warning_points == 2  # the penalty first, then 2 of the avertissement's 5


def test_a_zero_and_a_missing_bulletin_count_zero_and_a_sanction_takes_nothing_more():
    """A bulle (no bulletin, an invalid word, a grid or a letter error) is a score of 0, or none, as a late player's
    moves before he came: a penalty or the 4th avertissement on it leaves it at 0."""
    scores, warned = [10, 10, 10, 0, None], [True, True, True, True, False]
    assert points_of(scores, penalties=[0, 0, 0, 0, PENALTY], warnings=warned) == ([10, 10, 10, 0, 0], [0] * 5)


def test_a_solo_is_judged_before_the_penalty_and_its_bonus_comes_after_it():
    """Sixteen players: p01 alone writes 3 (the others 2), with a penalty. The solo stays his (§3.5: scores before
    any penalty), the move counts 0 from its sanction, and the solo's 10 are added after: 10, not 3 − 5 + 10."""
    scores = {f"p{n:02d}": [2] for n in range(1, 17)}
    scores["p01"] = [3]
    moves = move_points(tops=[3], scores=scores, penalties={"p01": [PENALTY]}, rules=TOURNAMENT)
    (move,) = moves["p01"]
    assert (move.solo, move.solo_points, move.penalty_points, move.points) == (True, 10, 3, 10)
    first = rank(tops=[3], scores=scores, penalties={"p01": [PENALTY]}, rules=TOURNAMENT)[0]
    assert (first.player, first.total, first.solo_points, first.penalty_points, first.gap) == ("p01", 10, 10, 3, 7)


def test_a_sessions_ranking_counts_the_floored_penalty_in_the_total_the_gap_and_the_percentage():
    """Tops 20, 9 and 3. Alice finds all three, given −5 on the 9 (4 left) and on the 3 (0 left): 24. Bob plays
    20, 3 and 0 without a sanction: 23. Counting the 3 as −2, Alice would have 22 and be second."""
    rows = rank(
        tops=[20, 9, 3],
        scores={"alice": [20, 9, 3], "bob": [20, 3, 0]},
        penalties={"alice": [0, PENALTY, PENALTY]},
        rules=TOURNAMENT,
    )
    assert [(row.player, row.total, row.gap, row.percent, row.place, row.penalty_points) for row in rows] == [
        ("alice", 24, -8, 75.0, 1, 8),
        ("bob", 23, -9, 71.9, 2, 0),
    ]


def test_the_figures_come_from_the_rule_set():
    """A rule set whose penalty is 10 and whose 2nd avertissement costs: no 5 or 4 is written in the engine."""
    rules = replace(TOURNAMENT, duplicate_penalty=10, warnings_before_penalty=2)
    assert points_of([12, 12, 6], warnings=[True, True, True], rules=rules) == ([12, 2, 0], [0, 10, 6])
    assert points_of([12, 8], penalties=[rules.duplicate_penalty] * 2, rules=rules) == ([2, 0], [10, 8])
