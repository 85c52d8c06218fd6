import pytest

from scoring.engine.endgame import end_of_game, rack_value
from scoring.engine.errors import ScoringError
from scoring.engine.ranking import shared_places
from scoring.engine.rules import EndOfGame

FISF = EndOfGame.FINISHER_GAINS_OTHERS


def test_e_a_u_left_costs_three_points_given_to_the_finisher(fr):
    """Seed 000: an opponent who keeps E, A and U loses 3 points, which the other gains."""
    results = end_of_game([300, 280], [None, rack_value("EAU", fr)], FISF)
    assert [(r.before, r.adjustment, r.final, r.place) for r in results] == [(300, 3, 303, 1), (280, -3, 277, 2)]


def test_nobody_finished_each_loses_his_own(fr):
    results = end_of_game([200, 210, 190], [rack_value("KW", fr), rack_value("?E", fr), rack_value("12", fr)], FISF)
    assert [r.adjustment for r in results] == [-20, -1, -12]
    assert [r.final for r in results] == [180, 209, 178]
    assert [r.place for r in results] == [2, 1, 3]


def test_naspa_finisher_gains_twice_the_others_racks(fr):
    results = end_of_game([477, 401], [None, rack_value("EEGQS", fr)], EndOfGame.FINISHER_GAINS_DOUBLE)
    assert [(r.adjustment, r.final) for r in results] == [(26, 503), (0, 401)]  # the Woogles game's last line


def test_only_one_player_may_have_finished():
    with pytest.raises(ScoringError) as caught:
        end_of_game([1, 2, 3], [None, None, 4], FISF)
    assert caught.value.message == "Un seul joueur peut avoir terminé : laissez vide une seule case."


def test_rack_values(fr):
    assert rack_value("?", fr) == 0
    assert rack_value("  ", fr) == 0
    assert rack_value("éa u", fr) == 3
    assert rack_value("17", fr) == 17
    with pytest.raises(ScoringError):
        rack_value("A3B", fr)


def test_equal_totals_share_a_place():
    assert shared_places([72, 65, 72, 80]) == [2, 4, 2, 1]
    assert shared_places([10, 9, 9, 8]) == [1, 2, 2, 4]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("²", "Caractère non accepté : « ² ». Seules les lettres sont admises."),
        ("99999", "Une valeur de lettres restantes va de 0 à 999."),
        ("٣", "Caractère non accepté : « ٣ ». Seules les lettres sont admises."),
    ],
)
def test_a_rack_value_is_a_plain_number_in_range(fr, text, message):
    """A superscript or another script's digit is no number here, and a value beyond any rack is a typo."""
    with pytest.raises(ScoringError) as caught:
        rack_value(text, fr)
    assert caught.value.message == message
