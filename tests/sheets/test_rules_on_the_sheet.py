"""The classic sheet's rules with the seeds' numbers, through the services that write it."""

import pytest

from clubsite.models import Invitation
from scoring.models import RuleSet
from sheets import services
from sheets.models import Game, Line
from sheets.sheet import build_sheet

from .conftest import make_game

pytestmark = pytest.mark.django_db


def test_turns_alternate_and_totals_accumulate(game):
    services.line_record(game=game, kind=Line.Kind.PLAY, points=26)
    services.line_record(game=game, kind=Line.Kind.PLAY, points=18)
    services.line_record(game=game, kind=Line.Kind.PLAY, points=10)
    sheet = build_sheet(game)
    assert sheet.totals == [36, 18]
    assert [row.cumulative for row in sheet.rows] == [26, 18, 36]
    assert sheet.turn.position == 1


def test_points_from_0_to_2000(game):
    services.line_record(game=game, kind=Line.Kind.PLAY, points=2000)
    with pytest.raises(services.SheetError, match="Un coup vaut de 0 à 2000 points."):
        services.line_record(game=game, kind=Line.Kind.PLAY, points=2001)
    with pytest.raises(services.SheetError):
        services.line_record(game=game, kind=Line.Kind.PLAY, points=-1)
    assert game.lines.count() == 1


def test_pass_exchange_withdrawn_record_zero_and_pass_the_turn(game):
    for kind in (Line.Kind.PASS, Line.Kind.EXCHANGE, Line.Kind.WITHDRAWN):
        services.line_record(game=game, kind=kind, points=40)
    sheet = build_sheet(game)
    assert sheet.totals == [0, 0]
    assert [row.line.points for row in sheet.rows] == [0, 0, 0]
    assert sheet.turn.position == 1


def test_challenge_costs_five_per_word_without_using_a_turn(game):
    bob = game.players.get(position=1)
    services.challenge_record(game=game, challenger=bob, words=2)
    sheet = build_sheet(game)
    assert sheet.totals == [0, -10]
    assert sheet.turn.position == 0


def test_box_rules_have_no_challenge_penalty_and_offer_ten(alice):
    game = make_game(alice, rules="boite")
    with pytest.raises(services.SheetError, match="Ces règles ne prévoient pas de pénalité de contestation."):
        services.challenge_record(game=game, challenger=game.players.first())
    assert game.engine_rules().penalty_offer == 10
    assert make_game(alice).engine_rules().penalty_offer == 5


def test_penalty_takes_points_without_using_a_turn(game):
    services.penalty_record(game=game, player=game.players.get(position=0), points=10)
    sheet = build_sheet(game)
    assert sheet.totals == [-10, 0]
    assert sheet.turn.position == 0


def test_tournament_rules_switch_to_box_rules_at_three_players(alice):
    game, switched = services.game_create(
        owner=alice,
        players=[("A", None), ("B", None), ("C", None)],
        edition=make_game(alice).edition,
        rule_set=RuleSet.objects.get(code="tournoi"),
    )
    assert switched
    assert game.rule_set.code == "boite"
    _two, switched = services.game_create(
        owner=alice,
        players=[("A", None), ("B", None)],
        edition=game.edition,
        rule_set=RuleSet.objects.get(code="tournoi"),
    )
    assert not switched


def test_five_players_refused(alice):
    with pytest.raises(services.SheetError, match="Une partie classique se joue de 2 à 4 joueurs."):
        services.game_create(
            owner=alice,
            players=[(str(i), None) for i in range(5)],
            edition=make_game(alice).edition,
            rule_set=RuleSet.objects.get(code="boite"),
        )


def test_the_seats_follow_the_rule_sets_bounds_as_the_admin_edits_them(client, alice):
    """Issue 24: « deux à quatre » was written in five places while the rule sets' bounds are editable. A club that
    plays its box games up to six gets six seats on "Nouvelle partie", and a game of six."""
    RuleSet.objects.filter(code="boite").update(max_players=6)
    client.force_login(alice)
    page = client.get("/parties/nouvelle/").content.decode()
    assert "Joueurs (de 2 à 6, noms facultatifs)" in page
    assert page.count('class="player-row"') == 6
    assert '<option value="6">6</option>' in page
    kept_in_the_browser = client.get("/parties/locale/").content.decode()
    assert "Joueurs (de 2 à 6, noms facultatifs)" in kept_in_the_browser
    assert kept_in_the_browser.count('class="name-field"') == 6
    assert "<option>6</option>" in kept_in_the_browser
    boite = RuleSet.objects.get(code="boite")
    data = {"player_count": "6", "edition": make_game(alice).edition.pk, "rule_set": boite.pk, "timer_seconds": "0"}
    response = client.post("/parties/nouvelle/", data)
    assert response.status_code == 302
    assert [player.display_name for player in Game.objects.latest("pk").players.order_by("position")] == [
        f"Joueur {n}" for n in range(1, 7)
    ]
    with pytest.raises(services.SheetError, match="Une partie classique se joue de 2 à 6 joueurs."):
        services.game_create(
            owner=alice,
            players=[(str(i), None) for i in range(7)],
            edition=Game.objects.latest("pk").edition,
            rule_set=boite,
        )


def test_a_count_the_rule_set_and_its_fallback_refuse_is_refused_with_their_bounds(alice):
    """Tournament rules without a fallback hold for two only: three players are refused, not kept on them."""
    RuleSet.objects.filter(code="tournoi").update(fallback=None)
    with pytest.raises(services.SheetError, match="Les règles « .* » se jouent de 2 à 2 joueurs."):
        services.game_create(
            owner=alice,
            players=[("A", None), ("B", None), ("C", None)],
            edition=make_game(alice).edition,
            rule_set=RuleSet.objects.get(code="tournoi"),
        )


def test_tournament_pass_note_after_six_passes_three_each(game):
    for _ in range(5):
        services.line_record(game=game, kind=Line.Kind.PASS)
    assert not build_sheet(game).pass_limit_reached
    services.line_record(game=game, kind=Line.Kind.EXCHANGE)
    sheet = build_sheet(game)
    assert sheet.pass_limit_reached
    assert not game.is_finished  # the sheet never ends the game by itself


def test_box_pass_note_when_every_player_passed_twice(alice):
    game = make_game(alice, names=("A", "B", "C", "D"), rules="boite")
    for _ in range(7):
        services.line_record(game=game, kind=Line.Kind.PASS)
    assert not build_sheet(game).pass_limit_reached
    services.line_record(game=game, kind=Line.Kind.PLAY, points=0)
    assert build_sheet(game).pass_limit_reached


def test_a_scoring_move_breaks_the_pass_run(game):
    for _ in range(5):
        services.line_record(game=game, kind=Line.Kind.PASS)
    services.line_record(game=game, kind=Line.Kind.PLAY, points=12)
    services.line_record(game=game, kind=Line.Kind.PASS)
    assert not build_sheet(game).pass_limit_reached


def test_exchange_refused_when_the_bag_holds_less_than_the_rule_set_asks(game):
    game.lines.create(player=game.players.first(), kind=Line.Kind.PLAY, points=26, move="H4 VAGUE")
    assert build_sheet(game).bag == 102 - 5 - 14
    RuleSet.objects.filter(code="tournoi").update(exchange_min_bag=84)
    RuleSet.objects.get(code="tournoi").save()  # as the admin would: every process sees the new figure
    with pytest.raises(services.SheetError) as caught:
        services.line_record(game=game, kind=Line.Kind.EXCHANGE)
    assert str(caught.value) == "Changer est refusé : il reste 83 jetons dans le sac, il en faut au moins 84."
    assert game.lines.count() == 1


def test_exchange_allowed_when_the_bag_is_unknown(game):
    game.lines.create(player=game.players.first(), kind=Line.Kind.PLAY, points=26, move="H4 VAGUE")
    game.lines.create(player=game.players.last(), kind=Line.Kind.PLAY, points=3)  # typed, not laid on the grid
    RuleSet.objects.filter(code="tournoi").update(exchange_min_bag=100)
    RuleSet.objects.get(code="tournoi").save()
    assert build_sheet(game).bag is None
    services.line_record(game=game, kind=Line.Kind.EXCHANGE)
    assert game.lines.last().kind == Line.Kind.EXCHANGE


def test_undo_edit_and_delete_recompute_the_totals(game):
    first = services.line_record(game=game, kind=Line.Kind.PLAY, points=26)
    services.line_record(game=game, kind=Line.Kind.PLAY, points=18)
    services.line_record(game=game, kind=Line.Kind.PLAY, points=10)
    services.line_undo_last(game=game)
    assert build_sheet(game).totals == [26, 18]
    services.line_update_points(line=first, points=30)
    assert build_sheet(game).totals == [30, 18]
    services.line_delete(line=first)
    sheet = build_sheet(game)
    assert sheet.totals == [0, 18]
    with pytest.raises(services.SheetError):
        services.line_update_points(line=sheet.rows[0].line, points=2500)
    assert build_sheet(game).totals == [0, 18]


def test_only_typed_points_of_an_unfinished_game_are_editable(game):
    play = services.line_record(game=game, kind=Line.Kind.PLAY, points=26)
    exchange = services.line_record(game=game, kind=Line.Kind.EXCHANGE)
    penalty = services.penalty_record(game=game, player=play.player, points=10)
    challenge = services.challenge_record(game=game, challenger=exchange.player)
    placed = services.board_place(game=game, move="H4 VAGUE")
    lines = (play, exchange, penalty, challenge, placed)
    assert [line.is_editable for line in lines] == [True, False, True, False, False]
    with pytest.raises(services.SheetError, match="Les points de cette ligne découlent des règles"):
        services.line_update_points(line=challenge, points=-3)
    services.game_finish(game=game, racks={0: "", 1: "E"})
    play.refresh_from_db()
    assert not play.is_editable
    with pytest.raises(services.SheetError, match="La partie est terminée : rouvrez-la pour la corriger."):
        services.line_update_points(line=play, points=30)
    assert list(game.lines.values_list("points", flat=True)) == [26, 0, -10, -5, 0]


def test_finish_e_a_u_gives_three_points_to_the_finisher(game):
    services.line_record(game=game, kind=Line.Kind.PLAY, points=300)
    services.line_record(game=game, kind=Line.Kind.PLAY, points=280)
    services.game_finish(game=game, racks={0: "", 1: "EAU"})
    sheet = build_sheet(game)
    rows = [(p.display_name, f.before, f.adjustment, f.final, f.place) for p, f in sheet.results]
    assert rows == [("Alice", 300, 3, 303, 1), ("Bob", 280, -3, 277, 2)]
    assert sheet.turn is None
    assert sheet.results_text() == "1. Alice : 303 (300 +3)\n2. Bob : 277 (280 -3)"


def test_finish_nobody_finished_and_equal_scores_share_a_place(alice):
    game = make_game(alice, names=("A", "B", "C"), rules="boite")
    for points in (100, 104, 90):
        services.line_record(game=game, kind=Line.Kind.PLAY, points=points)
    services.game_finish(game=game, racks={0: "?", 1: "4", 2: "10"})
    results = [(f.final, f.place) for _p, f in build_sheet(game).results]
    assert results == [(100, 1), (100, 1), (80, 3)]


def test_finish_refuses_two_empty_boxes_and_changes_nothing(alice):
    game = make_game(alice, names=("A", "B", "C"), rules="boite")
    with pytest.raises(services.SheetError, match="Un seul joueur peut avoir terminé"):
        services.game_finish(game=game, racks={0: "", 1: "", 2: "E"})
    game.refresh_from_db()
    assert not game.is_finished
    assert list(game.players.values_list("rack_value", flat=True)) == [None, None, None]


def test_finish_refuses_a_digit_inside_letters(game):
    with pytest.raises(services.SheetError, match="Bob : caractère non accepté : « 3 »"):
        services.game_finish(game=game, racks={0: "", 1: "E3"})


def test_a_finished_game_refuses_lines_until_reopened(game):
    services.game_finish(game=game, racks={0: "", 1: "E"})
    with pytest.raises(services.SheetError, match="La partie est terminée : rouvrez-la pour la corriger."):
        services.line_record(game=game, kind=Line.Kind.PLAY, points=3)
    services.game_reopen(game=game)
    services.line_record(game=game, kind=Line.Kind.PLAY, points=3)
    assert build_sheet(game).totals == [3, 0]


def test_finish_refuses_more_of_a_letter_than_can_be_off_the_board(game):
    """French has one Z: `ZZ` left on a rack is a typing mistake (issue 10)."""
    with pytest.raises(services.SheetError, match="Bob : 2 × Z, mais il n'en reste que 1 hors de la grille."):
        services.game_finish(game=game, racks={0: "", 1: "ZZ"})
    with pytest.raises(services.SheetError, match="Les lettres restantes comptent 2 × Z en tout"):
        services.game_finish(game=game, racks={0: "Z", 1: "AZ"})
    services.line_record(game=game, kind=Line.Kind.PLAY, points=28, move="H5 ZEBU")
    with pytest.raises(services.SheetError, match="Alice : 1 × Z, mais il n'en reste que 0 hors de la grille."):
        services.game_finish(game=game, racks={0: "Z", 1: ""})
    services.game_finish(game=game, racks={0: "??", 1: ""})
    assert [f.final for _p, f in build_sheet(game).results] == [28, 0]


def test_results_are_listed_best_first(game):
    services.line_record(game=game, kind=Line.Kind.PLAY, points=10)
    services.line_record(game=game, kind=Line.Kind.PLAY, points=40)
    services.game_finish(game=game, racks={0: "E", 1: ""})
    assert [(p.display_name, f.place) for p, f in build_sheet(game).results] == [("Bob", 1), ("Alice", 2)]


def test_a_play_counted_in_typed_mode_leaves_the_tile_tracking(game):
    services.line_record(game=game, kind=Line.Kind.PLAY, points=22, tiles=list("ECOLES"))
    services.line_record(game=game, kind=Line.Kind.PLAY, points=12, tiles=["?", "I", "W", "I"])
    sheet = build_sheet(game)
    remaining = sheet.tracking.remaining
    assert (remaining["E"], remaining["S"], remaining["I"], remaining["W"], remaining["?"]) == (13, 5, 6, 0, 1)
    assert sheet.tracking.unseen == 102 - 10
    assert sheet.bag == 102 - 10 - 14  # every play's tiles are known: the bag is too


def test_an_exchange_is_an_exchange(game):
    line = services.line_record(game=game, kind=Line.Kind.EXCHANGE)
    assert line.get_kind_display() == "Échange"


def test_a_new_game_with_the_same_players(game):
    services.line_record(game=game, kind=Line.Kind.PLAY, points=10)
    copy = services.game_again(game=game, owner=game.owner)
    # Bob, linked to the game, is invited to the new one; Alice keeps the sheets, so she is linked at once.
    assert [(p.position, p.name, p.member) for p in copy.players.all()] == [(0, "Alice", game.owner), (1, "Bob", None)]
    assert [i.invitee.username for i in Invitation.objects.pending().for_seats(copy.players.all())] == ["bob"]
    assert (copy.edition, copy.rule_set, copy.lines.count(), copy.pk != game.pk) == (
        game.edition,
        game.rule_set,
        0,
        True,
    )
