"""The counter on a duplicate session's current move: "Inscrire pour le joueur" in typed and grid mode, and
"Placer comme top" from the typed counter, with who may use them and what they refuse."""

import re

import pytest

from duplicate.models import Change, Result
from duplicate.services.results import result_set
from duplicate.services.rounds import round_add
from duplicate.services.sessions import session_finish
from scoring.models import RuleSet

from .conftest import make_session

pytestmark = pytest.mark.django_db

# ÉCOLES with its C on a double letter and its S on a double word: (1 + 3 × 2 + 1 + 1 + 1 + 1) × 2 = 22.
ECOLES = {"w0": "écoles", "w0_1_sq": "LD", "w0_5_sq": "MD"}


def counter_url(session):
    return f"/duplicate/{session.pk}/compteur/"


def grid_url(session):
    return f"/duplicate/{session.pk}/grille/"


def refusal(response) -> str:
    """The counter's refusal message, as the page shows it above its buttons."""
    match = re.search(r'<p class="error" role="alert">([^<]*)</p>', response.content.decode())
    return match[1].replace("&#x27;", "'") if match else ""


def scores(round_) -> dict:
    return dict(Result.objects.filter(round=round_).values_list("player__name", "score"))


@pytest.fixture
def bob_player(session):
    return session.players.get(name="Bob")


def test_typed_counter_inscribes_the_counted_points_for_the_chosen_player(client, session, alice, bob_player):
    round_ = round_add(session=session, draw_text="ECOLEST")
    client.force_login(alice)
    url = counter_url(session)
    response = client.post(url, {**ECOLES, "player": bob_player.pk, "action": "inscribe"})
    assert response.status_code == 302 and response["Location"] == url
    assert scores(round_) == {"Bob": 22}
    change = Change.objects.get(field="score")
    assert (change.user, change.player, change.round_number, change.new) == (alice, bob_player, 1, "22")
    html = client.get(url).content.decode()
    assert "22 points inscrits pour Bob (coup 1)." in html
    assert 'value="écoles"' not in html  # the counter is cleared for the next bulletin


def test_the_player_list_opens_on_those_still_to_enter_and_marks_the_others(client, session, alice, bob_player):
    round_ = round_add(session=session, draw_text="ECOLEST")
    result_set(round_=round_, player=session.players.get(name="Alice"), score=20)
    client.force_login(alice)
    html = client.get(counter_url(session)).content.decode()
    options = re.findall(r'<option value="(\d+)"[^>]*>([^<]*)</option>', html)
    assert [label for _pk, label in options] == ["2 · Bob", "1 · Alice (inscrit : 20)"]
    assert options[0][0] == str(bob_player.pk)


def test_the_counter_banner_gives_the_move_and_its_draw(client, session, alice):
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    round_add(session=session, draw_text="ST+AIONX")
    client.force_login(alice)
    html = client.get(counter_url(session)).content.decode()
    assert f'<a href="/duplicate/{session.pk}/">← Mardi soir</a>' in html
    assert "Coup 2 · tirage <strong>ST+AIONX</strong>" in html
    assert f'<a href="/duplicate/{session.pk}/grille/">Poser les jetons sur la grille</a>' in html
    assert 'name="edition" value="fr"' in html  # the session's edition, not a choice


def test_a_second_inscription_replaces_the_players_score_on_the_current_move(client, session, alice, bob_player):
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    first = session.rounds.get(number=1)
    result_set(round_=first, player=bob_player, score=20)
    current = round_add(session=session, draw_text="ST+AIONX")
    client.force_login(alice)
    client.post(counter_url(session), {"w0": "MOT", "player": bob_player.pk, "action": "inscribe"})
    client.post(counter_url(session), {"w0": "MOTS", "player": bob_player.pk, "action": "inscribe"})
    assert scores(first) == {"Bob": 20}  # an earlier move is left alone
    assert scores(current) == {"Bob": 5}


def test_typed_counter_with_htmx_redirects_the_page(client, session, alice, bob_player):
    round_ = round_add(session=session, draw_text="ECOLEST")
    client.force_login(alice)
    url = counter_url(session)
    response = client.post(url, {**ECOLES, "player": bob_player.pk, "action": "inscribe"}, HTTP_HX_REQUEST="true")
    assert response["HX-Redirect"] == url
    assert scores(round_) == {"Bob": 22}


def test_placing_the_top_from_the_typed_counter_scores_it_on_the_sessions_board(client, session, alice):
    round_ = round_add(session=session, draw_text="VAGUEST")
    client.force_login(alice)
    grid = client.post(grid_url(session), {"start": "H4", "direction": "h", "letters": "VAGUE"})
    assert re.search(r'id="total">26<', grid.content.decode())
    url = counter_url(session)
    response = client.post(url, {"w0": "vague", "position": "h4", "action": "top"})
    assert response.status_code == 302
    round_.refresh_from_db()
    assert (round_.top, round_.top_score) == ("H4 VAGUE", 26)
    html = client.get(url).content.decode()
    # The typed counter had no squares set: the session's board is what counts.
    assert (
        "Top du coup 1 : H4 VAGUE, 26 points. Le compteur donnait 9 points : la grille de la séance fait foi." in html
    )
    assert "top H4 VAGUE (26)" in html


def test_a_joker_set_on_a_tile_stays_a_joker_in_the_top(client, session, alice):
    round_ = round_add(session=session, draw_text="VAGU?ST")
    client.force_login(alice)
    data = {"w0": "VAGUE", "w0_4_bl": "1", "w0_0_sq": "LD", "w0_4_sq": "MD", "position": "H4", "action": "top"}
    client.post(counter_url(session), data)
    round_.refresh_from_db()
    assert (round_.top, round_.top_score) == ("H4 VAGUe", 24)  # (4 × 2 + 1 + 2 + 1 + 0) × 2
    assert "Le compteur donnait" not in client.get(counter_url(session)).content.decode()


def test_a_vertical_top_is_placed_from_its_column_first_position(client, session, alice):
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    round_ = round_add(session=session, draw_text="ST+AIONX")
    client.force_login(alice)
    client.post(counter_url(session), {"w0": "AVIONS", "position": "4G", "action": "top"})
    round_.refresh_from_db()
    assert (round_.top, round_.top_score) == ("4G AVIONS", 18)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"w0": "VAGUE", "position": "", "action": "top"},
            "Donnez la case de départ du top : H4 pour un mot horizontal, 4H pour un mot vertical.",
        ),
        ({"w0": "", "position": "H4", "action": "top"}, "Tapez d'abord le mot du top."),
        ({"w0": "VAGUE", "position": "A1", "action": "top"}, "Top refusé : "),
        ({"w0": "VOGUE", "position": "H4", "action": "top"}, "Le top H4 VOGUE ne se joue pas avec le tirage VAGUEST."),
        ({"w0": "", "player": "{bob}", "action": "inscribe"}, "Rien à inscrire : tapez d'abord un coup complet."),
        ({"w0": "MOT", "player": "", "action": "inscribe"}, "Choisissez le joueur pour qui inscrire les points."),
        ({"w0": "MOT", "player": "abc", "action": "inscribe"}, "Ce joueur ne participe pas à cette séance."),
        ({"w0": "MOT", "player": "99999", "action": "inscribe"}, "Ce joueur ne participe pas à cette séance."),
    ],
)
def test_typed_counter_refusals_say_why_and_save_nothing(client, session, alice, bob_player, data, message):
    round_ = round_add(session=session, draw_text="VAGUEST")
    client.force_login(alice)
    data = {key: value.replace("{bob}", str(bob_player.pk)) for key, value in data.items()}
    response = client.post(counter_url(session), data)
    assert response.status_code == 400
    assert refusal(response).startswith(message)
    round_.refresh_from_db()
    assert (round_.top, scores(round_)) == ("", {})
    assert 'name="w0" value="{}"'.format(data["w0"]) in response.content.decode()  # what was typed is kept


def test_a_player_of_another_session_is_refused(client, session, alice, lyon):
    round_ = round_add(session=session, draw_text="VAGUEST")
    other = make_session(alice, lyon, players=("Zoé",)).players.get()
    client.force_login(alice)
    response = client.post(counter_url(session), {"w0": "MOT", "player": other.pk, "action": "inscribe"})
    assert response.status_code == 400
    assert refusal(response) == "Ce joueur ne participe pas à cette séance."
    assert scores(round_) == {} and Result.objects.count() == 0


def test_nothing_is_inscribed_nor_placed_before_the_first_draw(client, session, alice, bob_player):
    client.force_login(alice)
    html = client.get(counter_url(session)).content.decode()
    assert "Faites d'abord le tirage du premier coup." in html
    assert 'value="inscribe"' not in html
    for data in ({"player": bob_player.pk, "action": "inscribe"}, {"position": "H4", "action": "top"}):
        response = client.post(counter_url(session), {"w0": "VAGUE", **data})
        assert response.status_code == 400
        assert refusal(response) == "Faites d'abord le tirage du premier coup."
    assert Result.objects.count() == 0


def test_a_score_above_the_top_is_refused(client, session, alice, bob_player):
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    client.force_login(alice)
    response = client.post(counter_url(session), {"w0": "WHISKY", "player": bob_player.pk, "action": "inscribe"})
    assert response.status_code == 400
    assert refusal(response) == "Score supérieur au top : faute de frappe ?"
    assert scores(round_) == {}


def test_a_finished_session_refuses_with_409(client, session, alice, bob_player):
    round_ = round_add(session=session, draw_text="VAGUEST")
    session_finish(session=session, by=alice)
    client.force_login(alice)
    assert 'value="inscribe"' not in client.get(counter_url(session)).content.decode()
    for data in ({"player": bob_player.pk, "action": "inscribe"}, {"position": "H4", "action": "top"}):
        response = client.post(counter_url(session), {"w0": "VAGUE", **data})
        assert response.status_code == 409
        assert refusal(response) == "La séance est terminée : rouvrez-la pour la modifier."
        response = client.post(counter_url(session), {"w0": "VAGUE", **data}, HTTP_HX_REQUEST="true")
        assert (response.status_code, response["HX-Reselect"]) == (409, "#counter")
        assert refusal(response) == "La séance est terminée : rouvrez-la pour la modifier."
    round_.refresh_from_db()
    assert (round_.top, scores(round_)) == ("", {})


def test_a_refusal_with_htmx_redraws_the_counter_with_the_players_choice_kept(client, session, alice, bob_player):
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    client.force_login(alice)
    data = {"w0": "WHISKY", "player": bob_player.pk, "position": "H8", "action": "inscribe"}
    response = client.post(counter_url(session), data, HTTP_HX_REQUEST="true")
    assert (response.status_code, response["HX-Retarget"]) == (400, "#counter")
    html = response.content.decode()
    assert f'<option value="{bob_player.pk}" selected>' in html
    assert 'name="position" type="text" value="H8"' in html


def test_permission_ladder_on_the_counter(client, session, alice, bob, charlie, grenoble, bob_player):
    round_ = round_add(session=session, draw_text="ECOLEST")
    url = counter_url(session)
    post = {**ECOLES, "player": bob_player.pk, "action": "inscribe"}
    assert client.get(url).status_code == 302  # to the log-in page
    assert client.post(url, post).status_code == 302
    client.force_login(charlie)  # another club's organiser: told the session does not exist
    assert client.get(url).status_code == 404
    assert client.post(url, post).status_code == 404
    client.force_login(bob)  # a member of the club, not an organiser
    assert client.get(url).status_code == 403
    assert client.post(url, post).status_code == 403
    assert client.post(url, {"w0": "VAGUE", "position": "H4", "action": "top"}).status_code == 403
    round_.refresh_from_db()
    assert (round_.top, scores(round_)) == ("", {})
    client.force_login(alice)
    assert client.get(url).status_code == 200


# The grid: "Inscrire pour le joueur" beside "Placer ce top".


def test_the_grid_inscribes_the_move_for_the_chosen_player_without_placing_it(client, session, alice, bob_player):
    round_ = round_add(session=session, draw_text="VAGUEST")
    client.force_login(alice)
    data = {"start": "H4", "direction": "h", "letters": "VAGUE", "player": bob_player.pk, "action": "inscribe"}
    response = client.post(grid_url(session), data, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and response["HX-Reselect"] == "#grid-app"
    assert "26 points inscrits pour Bob (coup 1)." in html
    assert 'value="VAGUE"' in html  # the letters stay on the grid for the next player who found the same move
    assert "1 · Alice</option>" in html and "2 · Bob (inscrit : 26)</option>" in html
    round_.refresh_from_db()
    assert (round_.top, round_.top_score, scores(round_)) == ("", None, {"Bob": 26})
    # The same letters then become the top, placed on the grid this time.
    client.post(grid_url(session), {**data, "action": "top"})
    round_.refresh_from_db()
    assert (round_.top, round_.top_score) == ("H4 VAGUE", 26)


@pytest.fixture
def box_session_of_40(alice, lyon):
    """Lyon's session under the box rules, whose whole-rack bonus the admin set to 40, with MOUTONS drawn."""
    box = RuleSet.objects.get(code="boite")
    box.bingo_bonus = 40
    box.save()
    session = make_session(alice, lyon, rule_set=box)
    round_add(session=session, draw_text="MOUTONS")
    return session


def test_the_grid_counts_with_the_sessions_own_rule_set(client, box_session_of_40, alice):
    """Trial: the grid counted every session with the default rule set, the tournament's +50: MOUTONS (7 tiles)
    was worth 70 where the session's rules give 20 + 40, and the top placed from it kept the session's 60."""
    session = box_session_of_40
    client.force_login(alice)
    data = {"start": "H4", "direction": "h", "letters": "MOUTONS"}
    html = client.post(grid_url(session), data).content.decode()
    assert '<p class="bonus">Prime pour 7 jetons posés : +40</p>' in html
    assert re.search(r'id="total">60<', html)
    player = session.players.get(name="Bob")
    response = client.post(grid_url(session), {**data, "player": player.pk, "action": "inscribe"})
    assert "60 points inscrits pour Bob (coup 1)." in response.content.decode()
    assert scores(session.rounds.get()) == {"Bob": 60}


def test_the_typed_counter_counts_with_the_sessions_own_rule_set(client, box_session_of_40, alice):
    session = box_session_of_40
    client.force_login(alice)
    html = client.post(counter_url(session), {"w0": "MOUTONS", "w0_0_sq": "LD", "w0_4_sq": "MD"}).content.decode()
    assert '<p class="bonus">Prime pour 7 jetons posés : +40</p>' in html
    assert re.search(r'id="total">60<', html)


@pytest.mark.parametrize(
    ("player", "message"),
    [
        ("", "Choisissez le joueur pour qui inscrire les points."),
        ("1; DROP", "Ce joueur ne participe pas à cette séance."),
        ("99999", "Ce joueur ne participe pas à cette séance."),
        ("other", "Ce joueur ne participe pas à cette séance."),
    ],
)
def test_the_grid_refuses_a_player_not_in_the_session(client, session, alice, lyon, player, message):
    round_ = round_add(session=session, draw_text="VAGUEST")
    if player == "other":
        player = make_session(alice, lyon, players=("Zoé",)).players.get().pk
    client.force_login(alice)
    data = {"start": "H4", "direction": "h", "letters": "VAGUE", "player": player, "action": "inscribe"}
    response = client.post(grid_url(session), data)
    assert response.status_code == 400
    assert message in response.content.decode().replace("&#x27;", "'")
    assert Result.objects.count() == 0 and scores(round_) == {}


def test_the_grid_asks_for_a_move_before_inscribing_it(client, session, alice, bob_player):
    round_add(session=session, draw_text="VAGUEST")
    client.force_login(alice)
    response = client.post(grid_url(session), {"player": bob_player.pk, "action": "inscribe"})
    assert response.status_code == 400
    assert "Tapez d&#x27;abord un mot sur la grille." in response.content.decode()
    assert Result.objects.count() == 0


def test_the_grid_refuses_to_inscribe_in_a_finished_session(client, session, alice, bob_player):
    round_ = round_add(session=session, draw_text="VAGUEST")
    session_finish(session=session, by=alice)
    client.force_login(alice)
    data = {"start": "H4", "direction": "h", "letters": "VAGUE", "player": bob_player.pk, "action": "inscribe"}
    response = client.post(grid_url(session), data)
    assert response.status_code == 400
    assert "La séance est terminée : rouvrez-la pour la modifier." in response.content.decode()
    assert scores(round_) == {}


def test_only_the_organiser_inscribes_from_the_grid(client, session, bob, charlie, grenoble, bob_player):
    round_ = round_add(session=session, draw_text="VAGUEST")
    data = {"start": "H4", "direction": "h", "letters": "VAGUE", "player": bob_player.pk, "action": "inscribe"}
    client.force_login(charlie)
    assert client.post(grid_url(session), data).status_code == 404
    client.force_login(bob)
    assert client.post(grid_url(session), data).status_code == 403
    assert scores(round_) == {}
