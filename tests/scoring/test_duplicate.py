"""The ranking of a duplicate session: seed 000's example, solos, penalties, avertissements, ties, tournaments."""

from decimal import Decimal

from scoring.engine.ranking import (
    above_top,
    combine,
    move_points,
    one_decimal,
    percent_of,
    rank,
    rank_season,
    solos_by_move,
    warning_penalties,
)
from scoring.engine.rules import TOURNAMENT


def test_seed_000_example():
    rows = rank(tops=[24, 36, 18], scores={"alice": [24, 30, 18], "bob": [20, 36, 9]}, rules=TOURNAMENT)
    assert [(row.player, row.total, row.gap, row.percent, row.place) for row in rows] == [
        ("alice", 72, -6, 92.3, 1),
        ("bob", 65, -13, 83.3, 2),
    ]


def test_every_top_found_gives_a_zero_gap_and_a_hundred_percent():
    (row,) = rank(tops=[24, 36, 18], scores={"alice": [24, 36, 18]}, rules=TOURNAMENT)
    assert (row.total, row.gap, row.percent, row.place, row.solos) == (78, 0, 100.0, 1, 0)


def test_a_missing_score_counts_zero_and_no_top_gives_zero_percent():
    rows = rank(tops=[24, 36], scores={"alice": [24, None], "bob": [20]}, rules=TOURNAMENT)
    assert [(row.player, row.total, row.gap) for row in rows] == [("alice", 24, -36), ("bob", 20, -40)]
    (row,) = rank(tops=[], scores={"alice": []}, rules=TOURNAMENT)
    assert (row.total, row.gap, row.percent, row.place) == (0, 0, 0.0, 1)


def test_percent_rounds_half_up_to_one_decimal():
    assert percent_of(72, 78) == 92.3
    assert percent_of(65, 78) == 83.3
    assert percent_of(1, 400) == 0.3  # 0.25 exactly: half up, not to even
    assert percent_of(5, 0) == 0.0


def test_one_decimal_rounds_half_up_for_every_page():
    """percent_of, a member's classic and duplicate averages (sheets/progress.py, duplicate/progress.py) round here."""
    assert [one_decimal(Decimal(text)) for text in ("92.25", "0.05", "32", "79.34999")] == [92.3, 0.1, 32.0, 79.3]


def sixteen_players(count=16):
    """`count` players; p01 alone scores 30 on move 1, everyone else 20; everyone scores 10 on move 2."""
    scores = {f"p{n:02d}": [20, 10] for n in range(1, count + 1)}
    scores["p01"] = [30, 10]
    return scores


def test_a_score_above_the_top_is_known_once_both_are_written():
    assert above_top(37, 36) and not above_top(36, 36) and not above_top(0, 36)
    assert not above_top(37, None) and not above_top(None, 36) and not above_top(None, None)


def test_a_solo_earns_ten_points_from_sixteen_players():
    rows = rank(tops=[30, 10], scores=sixteen_players(16), rules=TOURNAMENT)
    first = rows[0]
    assert (first.player, first.solos, first.solo_points, first.total, first.gap) == ("p01", 1, 10, 50, 10)
    assert first.percent == 125.0
    assert all(row.solos == 0 and row.place == 2 for row in rows[1:])


def test_no_solo_bonus_with_fifteen_players():
    first = rank(tops=[30, 10], scores=sixteen_players(15), rules=TOURNAMENT)[0]
    assert (first.player, first.solos, first.solo_points, first.total) == ("p01", 1, 0, 40)


def test_a_unique_score_below_the_top_is_a_solo():
    scores = sixteen_players(16)
    scores["p01"] = [25, 10]
    assert solos_by_move([30, 10], scores) == ["p01", None]
    assert rank(tops=[30, 10], scores=scores, rules=TOURNAMENT)[0].total == 45


def test_two_players_sharing_the_best_score_have_no_solo():
    scores = sixteen_players(16)
    scores["p02"] = [30, 10]
    assert solos_by_move([30, 10], scores) == [None, None]
    rows = rank(tops=[30, 10], scores=scores, rules=TOURNAMENT)
    assert [(row.player, row.total, row.place) for row in rows[:3]] == [("p01", 40, 1), ("p02", 40, 1), ("p03", 30, 3)]


def test_a_lone_player_has_no_solo():
    assert solos_by_move([30], {"alice": [30]}) == [None]


def test_a_penalty_does_not_take_the_solo_away():
    scores = sixteen_players(16)
    scores["p02"] = [28, 10]
    penalties = {"p01": [5, 0]}
    assert solos_by_move([30, 10], scores) == ["p01", None]
    rows = {row.player: row for row in rank(tops=[30, 10], scores=scores, penalties=penalties, rules=TOURNAMENT)}
    assert (rows["p01"].solos, rows["p01"].penalty_points, rows["p01"].total) == (1, 5, 30 + 10 + 10 - 5)
    assert rows["p02"].solos == 0


def test_equal_totals_share_a_place_and_rows_follow_the_player_id():
    scores = {"dave": [10], "alice": [20], "carol": [15], "bob": [15]}
    rows = rank(tops=[20], scores=scores, rules=TOURNAMENT)
    assert [(row.player, row.place) for row in rows] == [("alice", 1), ("bob", 2), ("carol", 2), ("dave", 4)]


def test_the_fourth_avertissement_costs_five_points_and_each_later_one_again():
    warned = [True, False, True, True, False, True, True]
    assert warning_penalties(warned, TOURNAMENT) == [0, 0, 0, 0, 0, 5, 5]
    assert warning_penalties([True] * 3, TOURNAMENT) == [0, 0, 0]
    (row,) = rank(tops=[10] * 7, scores={"alice": [10] * 7}, warnings={"alice": warned}, rules=TOURNAMENT)
    assert (row.warnings, row.penalty_points, row.total, row.gap) == (5, 10, 60, -10)


def test_in_blitz_the_sixth_avertissement_is_the_first_to_cost():
    assert warning_penalties([True] * 7, TOURNAMENT, blitz=True) == [0, 0, 0, 0, 0, 5, 5]
    (row,) = rank(
        tops=[10] * 7, scores={"alice": [10] * 7}, warnings={"alice": [True] * 7}, rules=TOURNAMENT, blitz=True
    )
    assert (row.penalty_points, row.total) == (10, 60)


def test_penalties_and_avertissements_add_up():
    (row,) = rank(
        tops=[10] * 4,
        scores={"alice": [10] * 4},
        penalties={"alice": [0, 5, 0, 3]},
        warnings={"alice": [True] * 4},
        rules=TOURNAMENT,
    )
    assert (row.penalty_points, row.total) == (13, 27)


def test_a_tournament_adds_the_sessions_up():
    rows = combine(
        [
            ([24, 36, 18], {"alice": 72, "bob": 65, "carol": 70}),
            ([40, 30], {"alice": 60, "bob": 67}),
        ]
    )
    assert [(row.player, row.total, row.gap, row.percent, row.place) for row in rows] == [
        ("alice", 132, -16, 89.2, 1),
        ("bob", 132, -16, 89.2, 1),
        ("carol", 70, -78, 47.3, 3),
    ]
    assert rows[2].session_totals == (70, 0)


def test_move_points_add_up_to_the_ranking_total_move_by_move():
    """What each move brings (score, solo bonus, penalty, an avertissement's cost) sums to the ranking's total, so
    a running total is the ranking's over the moves so far: the 4th avertissement costs on its own move."""
    players = [f"p{n}" for n in range(16)]
    scores = {player: [10, 10, 5, 10] for player in players}
    scores["p0"] = [20, 18, 13, 24]
    scores["p1"] = [26, 12, 13, 71]
    scores["p2"] = [26, 10, 5, 10]
    penalties = {"p0": [0, 0, 5, 0]}
    warnings = {"p0": [True, True, True, True]}
    arguments = {"tops": [26, 18, 13, 71], "scores": scores, "penalties": penalties, "warnings": warnings}
    points = move_points(**arguments, rules=TOURNAMENT)
    assert [move.points for move in points["p0"]] == [20, 18 + 10, 13 - 5, 24 - 5]
    assert [(move.solo, move.warning, move.penalty_points) for move in points["p0"]] == [
        (False, True, 0),
        (True, True, 0),
        (False, True, 5),
        (False, True, 5),
    ]
    assert [move.solo_points for move in points["p1"]] == [0, 0, 0, 10]
    rows = {row.player: row for row in rank(**arguments, rules=TOURNAMENT)}
    assert all(sum(move.points for move in points[player]) == rows[player].total for player in players)
    assert (rows["p0"].total, rows["p0"].solo_points, rows["p0"].penalty_points, rows["p0"].warnings) == (75, 10, 10, 4)


def test_a_season_ranks_by_the_mean_of_the_percentages_or_by_the_total():
    """Alice 72/78 (92.31 %) and 60/80 (75 %), absent from the third; Bob 39/78 (50 %), 80/80 and 50/50. A
    session without a top counts for nobody."""
    sessions = [(78, {"alice": 72, "bob": 39}), (80, {"alice": 60, "bob": 80}), (50, {"bob": 50}), (0, {"carol": 0})]

    def ranked(**how):
        return [(r.player, r.place, r.played, r.counted, r.total, r.percent) for r in rank_season(sessions, **how)]

    assert ranked(best=None, by_percent=True) == [("alice", 1, 2, 2, 132, 83.65), ("bob", 2, 3, 3, 169, 83.33)]
    assert ranked(best=None, by_percent=False) == [("bob", 1, 3, 3, 169, 83.33), ("alice", 2, 2, 2, 132, 83.65)]
    # His best two: by percentage 80/80 and 50/50; by total 80 and 50 as well, while Alice keeps both of hers.
    assert ranked(best=2, by_percent=True) == [("bob", 1, 3, 2, 130, 100.0), ("alice", 2, 2, 2, 132, 83.65)]
    assert ranked(best=2, by_percent=False) == [("alice", 1, 2, 2, 132, 83.65), ("bob", 2, 3, 2, 130, 100.0)]
    assert ranked(best=1, by_percent=False) == [("bob", 1, 3, 1, 80, 100.0), ("alice", 2, 2, 1, 72, 92.31)]


def test_equal_season_figures_share_a_place():
    sessions = [(100, {"alice": 90, "bob": 80, "carol": 70}), (100, {"alice": 70, "bob": 80, "carol": 90})]
    rows = rank_season(sessions, best=None, by_percent=True)
    assert [(row.player, row.place, row.percent) for row in rows] == [
        ("alice", 1, 80.0),
        ("bob", 1, 80.0),
        ("carol", 1, 80.0),
    ]
    rows = rank_season(sessions, best=1, by_percent=False)
    assert [(row.player, row.place, row.total) for row in rows] == [("alice", 1, 90), ("carol", 1, 90), ("bob", 3, 80)]
