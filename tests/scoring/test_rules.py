"""The built-in rule sets carry the seeds' figures; their helpers apply them."""

from dataclasses import replace

from scoring.engine.rules import BOX, TOURNAMENT, EndOfGame


def test_tournament_figures():
    assert (TOURNAMENT.name, TOURNAMENT.bingo_bonus, TOURNAMENT.challenge_penalty) == (
        "Règles de tournoi (FISF)",
        50,
        5,
    )
    assert TOURNAMENT.penalty_offer == 5
    assert (TOURNAMENT.solo_bonus, TOURNAMENT.solo_min_players, TOURNAMENT.duplicate_penalty) == (10, 16, 5)
    assert TOURNAMENT.end_of_game is EndOfGame.FINISHER_GAINS_OTHERS
    assert TOURNAMENT.move_seconds_choices == (60, 120, 150, 180)


def test_box_rules_offer_ten_points_where_they_give_no_penalty():
    assert BOX.challenge_penalty == 0
    assert BOX.penalty_offer == 10


def test_tournament_rules_only_for_two_players_then_box_rules():
    assert TOURNAMENT.allows_players(2)
    assert not TOURNAMENT.allows_players(3)
    assert TOURNAMENT.fallback_code == BOX.code
    assert BOX.allows_players(4) and not BOX.allows_players(5) and not BOX.allows_players(1)


def test_exchange_needs_seven_tiles_in_the_bag_under_tournament_rules():
    assert TOURNAMENT.exchange_allowed(7)
    assert not TOURNAMENT.exchange_allowed(6)
    assert BOX.exchange_allowed(1)


def test_solo_bonus_from_sixteen_players():
    assert TOURNAMENT.solo_bonus_for(16) == 10
    assert TOURNAMENT.solo_bonus_for(15) == 0


def test_tournament_pass_limit_six_in_a_row_three_each():
    assert not TOURNAMENT.pass_limit_reached([0, 1, 0, 1, 0], 2)
    assert TOURNAMENT.pass_limit_reached([0, 1, 0, 1, 0, 1], 2)


def test_box_pass_limit_every_player_twice_in_a_row():
    assert not BOX.pass_limit_reached([0, 1, 2, 3, 0, 1, 2], 4)
    assert BOX.pass_limit_reached([0, 1, 2, 3, 0, 1, 2, 3], 4)
    assert BOX.pass_limit_reached([0, 1, 0, 1], 2)


def test_a_form_offers_the_rule_sets_times_per_move_its_own_first():
    quick = replace(TOURNAMENT, move_seconds=90, move_seconds_choices=(60, 90))
    assert (quick.move_time_choices(), quick.first_move_seconds) == ([(60, "1 min"), (90, "1 min 30")], 90)
    # A time of its own it does not offer: its longest first.
    assert replace(quick, move_seconds=45).first_move_seconds == 90
