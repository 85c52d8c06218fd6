"""The sheet's pages: who may see and change a game, and what each form does."""

import re

import pytest

from clubsite.models import Invitation
from scoring.models import RuleSet
from sheets import services
from sheets.forms import NewGameForm
from sheets.models import Game, Line, Player

from .conftest import make_game

pytestmark = pytest.mark.django_db


def totals(response):
    return [int(n) for n in re.findall(r'id="total-\d+">(-?\d+)<', response.content.decode())]


def test_new_game_with_a_linked_member(client, alice, bob):
    client.force_login(alice)
    response = client.post(
        "/parties/nouvelle/",
        {
            "name1": "Alice",
            "member1": "",
            "name2": "",
            "member2": "bob",
            "edition": 1,
            "rule_set": 1,
            "timer_seconds": 0,
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/parties/{game.pk}/"
    # Bob is invited: linked once he accepts (tests/sheets/test_invitations.py)
    assert [(p.display_name, p.member) for p in game.players.all()] == [("Alice", None), ("bob", None)]
    assert Invitation.objects.get().invitee == bob


def test_new_game_with_an_unknown_member_is_refused(client, alice):
    client.force_login(alice)
    response = client.post(
        "/parties/nouvelle/", {"name1": "A", "member2": "personne", "edition": 1, "rule_set": 1, "timer_seconds": 0}
    )
    assert response.status_code == 400
    assert "Aucun membre ne porte ce nom." in response.content.decode()
    assert Game.objects.count() == 0


def test_three_players_with_tournament_rules_switch_and_say_so(client, alice):
    client.force_login(alice)
    tournament = RuleSet.objects.get(code="tournoi").pk
    response = client.post(
        "/parties/nouvelle/",
        {"name1": "A", "name2": "B", "name3": "C", "edition": 1, "rule_set": tournament, "timer_seconds": 0},
        follow=True,
    )
    assert (
        "Au-delà de 2 joueurs, la feuille quitte « Règles de tournoi (FISF) » pour « Règles de la boîte »."
        in response.content.decode()
    )
    assert Game.objects.get().rule_set.code == "boite"


def test_the_switch_is_said_with_the_rule_sets_names_and_bound(client, alice):
    """Trial: the page and the message said "tournoi", "deux joueurs" and "boîte" whatever the rule sets were."""
    RuleSet.objects.filter(code="boite").update(name="Règles du club")
    RuleSet.objects.filter(code="tournoi").update(name="Règles FISF", max_players=3)
    client.force_login(alice)
    note = "Au-delà de 3 joueurs, la feuille quitte « Règles FISF » pour « Règles du club »."
    assert note in client.get("/parties/nouvelle/").content.decode()
    tournament = RuleSet.objects.get(code="tournoi").pk
    players = {f"name{n}": f"J{n}" for n in range(1, 5)}
    response = client.post(
        "/parties/nouvelle/", {**players, "edition": 1, "rule_set": tournament, "timer_seconds": 0}, follow=True
    )
    assert [str(message) for message in response.context["messages"]] == [note]
    assert Game.objects.get().rule_set.code == "boite"


def test_permission_ladder_on_the_sheet(client, game, alice, bob, charlie):
    url = f"/parties/{game.pk}/"
    assert client.get(url).status_code == 302  # anonymous: to the log-in page
    assert client.get(url)["Location"].startswith("/compte/connexion/")
    client.force_login(charlie)
    assert client.get(url).status_code == 404  # another member
    assert client.post(f"{url}lignes/", {"kind": "play", "points": 5}).status_code == 404
    client.force_login(bob)
    response = client.get(url)
    assert response.status_code == 200  # a linked player reads it
    assert "Inscrire pour" not in response.content.decode()
    assert client.post(f"{url}lignes/", {"kind": "play", "points": 5}).status_code == 403
    assert client.post(f"{url}supprimer/").status_code == 403
    client.force_login(alice)
    assert client.post(f"{url}lignes/", {"kind": "play", "points": 5}).status_code == 302
    assert game.lines.count() == 1


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("lignes/", {"kind": "play", "points": 5}),
        ("lignes/annuler/", {}),
        ("lignes/{line}/", {"points": 30}),
        ("lignes/{line}/supprimer/", {}),
        ("penalite/", {"player": 0, "points": 10}),
        ("contestation/", {"player": 1, "words": 1}),
        ("rouvrir/", {}),
    ],
)
def test_permission_ladder_on_every_action(client, game, alice, bob, charlie, path, data):
    line = services.line_record(game=game, kind=Line.Kind.PLAY, points=26)
    url = f"/parties/{game.pk}/" + path.format(line=line.pk)
    assert client.post(url, data)["Location"].startswith("/compte/connexion/")
    client.force_login(charlie)  # another member
    assert client.post(url, data).status_code == 404
    client.force_login(bob)  # a linked player
    assert client.post(url, data).status_code == 403
    client.force_login(alice)
    assert client.post(url, data).status_code == 302


def test_history_shows_own_and_linked_games_newest_first(client, alice, bob, charlie):
    older = make_game(alice, names=("Alice", "Charlie"))
    newer = make_game(bob, names=("Bob", "Alice"), members=[bob, alice])
    make_game(charlie, names=("Charlie", "Dave"))
    client.force_login(alice)
    html = client.get("/parties/").content.decode()
    links = re.findall(r'href="/parties/(\d+)/"', html)
    assert links == [str(newer.pk), str(older.pk)]
    assert "tenue par bob" in html


def test_history_lists_every_game_not_only_twenty(client, alice):
    for _ in range(25):
        make_game(alice)
    client.force_login(alice)
    assert len(re.findall(r'href="/parties/\d+/"', client.get("/parties/").content.decode())) == 25


def test_recording_points_and_the_turn(client, game, alice):
    client.force_login(alice)
    url = f"/parties/{game.pk}/"
    client.post(f"{url}lignes/", {"kind": "play", "points": 26})
    client.post(f"{url}lignes/", {"kind": "pass"})
    client.post(f"{url}lignes/", {"kind": "play", "points": 18})
    response = client.get(url)
    assert totals(response) == [44, 0]
    assert "À Bob de jouer" in response.content.decode()
    assert "Inscrire pour Bob" in response.content.decode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "play", "points": 2001}, "Un coup vaut de 0 à 2000 points."),
        ({"kind": "play", "points": "vingt"}, "Un nombre entier est attendu."),
        ({"kind": "gagner"}, "Action inconnue."),
    ],
)
def test_bad_points_are_refused_with_a_400_and_nothing_saved(client, game, alice, data, message):
    client.force_login(alice)
    client.post(f"/parties/{game.pk}/lignes/", {"kind": "play", "points": 12})
    response = client.post(f"/parties/{game.pk}/lignes/", data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert list(game.lines.values_list("points", flat=True)) == [12]


def test_penalty_challenge_undo_edit_delete(client, game, alice):
    client.force_login(alice)
    url = f"/parties/{game.pk}/"
    client.post(f"{url}lignes/", {"kind": "play", "points": 26})
    client.post(f"{url}penalite/", {"player": 0, "points": 10})
    client.post(f"{url}contestation/", {"player": 1, "words": 1})
    assert totals(client.get(url)) == [16, -5]
    line = game.lines.get(kind=Line.Kind.PLAY)
    client.post(f"{url}lignes/{line.pk}/", {"points": 30})
    assert totals(client.get(url)) == [20, -5]
    client.post(f"{url}lignes/annuler/")
    assert totals(client.get(url)) == [20, 0]
    client.post(f"{url}lignes/{line.pk}/supprimer/")
    assert totals(client.get(url)) == [-10, 0]


def test_penalty_panel_offers_the_rule_set_figure(client, game, alice):
    client.force_login(alice)
    html = client.get(f"/parties/{game.pk}/").content.decode()
    assert 'id="penalty-points" name="points" type="number" min="1" max="1000" value="5"' in html
    box = make_game(alice, rules="boite")
    html = client.get(f"/parties/{box.pk}/").content.decode()
    assert 'id="penalty-points" name="points" type="number" min="1" max="1000" value="10"' in html
    assert "Contestation perdue" not in html.split('id="sheet-title"')[0]


def test_finish_and_results_table(client, game, alice):
    client.force_login(alice)
    url = f"/parties/{game.pk}/"
    client.post(f"{url}lignes/", {"kind": "play", "points": 300})
    client.post(f"{url}lignes/", {"kind": "play", "points": 280})
    assert client.get(f"{url}terminer/").status_code == 200
    response = client.post(f"{url}terminer/", {"rack0": "", "rack1": "EAU"})
    assert response.status_code == 302
    html = client.get(url).content.decode()
    rows = re.findall(
        r"<tr><td>(\d)</td><td>(\w+)</td><td>(\d+)</td><td>([+-]\d+)</td><td><strong>(\d+)</strong>", html
    )
    assert rows == [("1", "Alice", "300", "+3", "303"), ("2", "Bob", "280", "-3", "277")]
    assert "Copier le classement" in html


def test_finish_with_two_empty_boxes_is_a_400(client, game, alice):
    client.force_login(alice)
    response = client.post(f"/parties/{game.pk}/terminer/", {"rack0": "", "rack1": ""})
    assert response.status_code == 400
    assert "Un seul joueur peut avoir terminé : laissez vide une seule case." in response.content.decode()


def test_delete_asks_for_confirmation(client, game, alice):
    client.force_login(alice)
    response = client.get(f"/parties/{game.pk}/supprimer/")
    assert "Supprimer définitivement" in response.content.decode()
    assert Game.objects.count() == 1
    response = client.post(f"/parties/{game.pk}/supprimer/")
    assert response["Location"] == "/parties/"
    assert Game.objects.count() == 0


def test_get_on_an_action_goes_to_the_sheet(client, game, alice):
    """Trial of issue 10: a refused form leaves its POST address in the bar; opening it showed a bare 405."""
    client.force_login(alice)
    response = client.get(f"/parties/{game.pk}/lignes/")
    assert (response.status_code, response["Location"]) == (302, f"/parties/{game.pk}/")
    assert client.put(f"/parties/{game.pk}/lignes/").status_code == 405
    assert game.lines.count() == 0


def test_refusals_are_french_pages(client, game, bob, charlie):
    client.force_login(bob)
    response = client.post(f"/parties/{game.pk}/lignes/", {"kind": "play", "points": 5})
    assert response.status_code == 403
    assert "Seul le membre qui tient la feuille peut la modifier." in response.content.decode()
    client.force_login(charlie)
    response = client.get(f"/parties/{game.pk}/")
    assert response.status_code == 404
    assert "Cette page n'existe pas, ou elle n'est pas à vous." in response.content.decode()


def test_history_queries_do_not_grow_with_finished_games(client, alice, django_assert_max_num_queries):
    for _ in range(12):
        finished = make_game(alice)
        services.line_record(game=finished, kind=Line.Kind.PLAY, points=20)
        services.game_finish(game=finished, racks={0: "", 1: "EAU"})
    client.force_login(alice)
    with django_assert_max_num_queries(12):
        html = client.get("/parties/").content.decode()
    assert html.count("<b>Alice 23</b>") == 12


def test_four_unnamed_players_are_joueur_1_to_4(client, alice):
    client.force_login(alice)
    response = client.post("/parties/nouvelle/", {"player_count": 4, "edition": 1, "rule_set": 2, "timer_seconds": 0})
    game = alice.games.get()
    assert response["Location"] == f"/parties/{game.pk}/"
    assert [p.display_name for p in game.players.all()] == ["Joueur 1", "Joueur 2", "Joueur 3", "Joueur 4"]
    assert "À Joueur 1 de jouer" in client.get(response["Location"]).content.decode()


def test_a_third_name_makes_a_third_player_whatever_the_count(client, alice):
    client.force_login(alice)
    client.post("/parties/nouvelle/", {"name3": "Chloé", "edition": 1, "rule_set": 2, "timer_seconds": 0})
    assert [p.display_name for p in alice.games.get().players.all()] == ["Joueur 1", "Joueur 2", "Chloé"]


def test_new_game_with_the_same_players_from_a_finished_sheet(client, game, alice):
    client.force_login(alice)
    client.post(f"/parties/{game.pk}/terminer/", {"rack0": "", "rack1": "E"})
    html = client.get(f"/parties/{game.pk}/").content.decode()
    assert "Nouvelle partie avec les mêmes joueurs" in html
    response = client.post(f"/parties/{game.pk}/nouvelle-partie/")
    copy = alice.games.newest_first().first()
    assert (response.status_code, response["Location"]) == (302, f"/parties/{copy.pk}/")
    assert [p.display_name for p in copy.players.all()] == ["Alice", "Bob"]
    assert "Nouvelle partie avec les mêmes joueurs." in client.get(response["Location"]).content.decode()


def test_the_timer_offered_is_the_chosen_rule_sets_time_per_move(client, alice):
    """Trial: the form offered 1, 2 and 3 min whatever rule set was chosen."""
    quick = RuleSet.objects.create(code="rapide", name="Règles rapides", move_seconds=90, move_seconds_choices="60,90")
    form = NewGameForm({"rule_set": quick.pk})
    assert [(value, str(label)) for value, label in form.fields["timer_seconds"].choices] == [
        (0, "Sans chrono"),
        (60, "1 min"),
        (90, "1 min 30"),
    ]
    client.force_login(alice)
    fields = {"name1": "A", "name2": "B", "edition": 1, "rule_set": quick.pk}
    assert client.post("/parties/nouvelle/", {**fields, "timer_seconds": 120}).status_code == 400
    assert client.post("/parties/nouvelle/", {**fields, "timer_seconds": 90}).status_code == 302
    assert Game.objects.get().timer_seconds == 90


def test_a_players_name_is_as_long_as_its_column():
    assert NewGameForm().fields["name1"].max_length == Player._meta.get_field("name").max_length
