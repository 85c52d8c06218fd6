"""The game's sheet (moves × players, any cell corrected), its printable recap, and who may read them."""

import re

import pytest

from duplicate.errors import DuplicateError
from duplicate.models import Change
from duplicate.services.bulletins import bulletin_enter
from duplicate.services.players import player_update
from duplicate.services.results import result_clear, result_mark, result_set
from duplicate.services.rounds import round_add
from duplicate.services.sessions import session_finish

from .conftest import make_session


def seed_game(alice, lyon):
    """Seed 000's game: tops 24, 36, 18; Premier 24/30/18, Second 20/36/9."""
    session = make_session(alice, lyon, players=("Premier", "Second"))
    premier, second = session.players.all()
    first = round_add(session=session, draw_text="ZOEEERT", top_text="H8 ZOE")
    rounds = [first, *(session.rounds.create(number=n, draw="EEEE+ABC", top_score=t) for n, t in ((2, 36), (3, 18)))]
    for round_, (a, b) in zip(rounds, [(24, 20), (30, 36), (18, 9)], strict=True):
        result_set(round_=round_, player=premier, score=a)
        result_set(round_=round_, player=second, score=b)
    return session, premier, second


def footer(html, label):
    """The values of a footer row of the sheet, by its heading."""
    row = re.search(rf"<tr><th scope=\"row\" colspan=\"\d\">{label}</th>(.*?)</tr>", html, re.S).group(1)
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td>(.*?)</td>", row, re.S)]


def test_the_sheet_is_seed_000s_game_with_totals_gaps_solos_and_places(client, alice, lyon):
    session, _premier, _second = seed_game(alice, lyon)
    client.force_login(alice)
    html = client.get(f"/duplicate/{session.pk}/feuille/").content.decode()
    assert footer(html, "Total") == ["78", "72", "65"]
    assert footer(html, "Écart au top") == ["-6", "-13"]
    assert footer(html, "Solos") == ["2", "1"]
    assert footer(html, "Place") == ["1", "2"]
    assert html.count('name="entry"') == 6  # three moves × two players, every cell editable


def test_a_cell_of_move_1_corrected_during_move_3_moves_totals_and_places(client, alice, lyon):
    session, premier, second = seed_game(alice, lyon)
    client.force_login(alice)
    url = f"/duplicate/{session.pk}/feuille/1/{second.pk}/"
    response = client.post(url, {"entry": "24"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Coup 1, Second : 24." in html
    # Second 24 + 36 + 9 = 69; move 1 is no longer Premier's solo: Premier 72 with one solo, Second two.
    assert footer(html, "Total") == ["78", "72", "69"]
    assert footer(html, "Solos") == ["1", "1"]
    change = Change.objects.filter(player=second, round_number=1).first()  # newest first
    assert (change.field, change.old, change.new, change.user) == ("score", "20", "24", alice)


def test_a_cell_typed_as_a_move_is_scored(client, alice, lyon):
    session, premier, _second = seed_game(alice, lyon)
    client.force_login(alice)
    response = client.post(f"/duplicate/{session.pk}/feuille/1/{premier.pk}/", {"entry": "h8 zoe"})
    assert response.status_code == 302
    assert response["Location"] == f"/duplicate/{session.pk}/feuille/?joueurs=1"
    assert premier.results.get(round__number=1).move == "H8 ZOE"


@pytest.mark.parametrize(
    ("entry", "status", "message"),
    [
        ("37", 400, "Coup 2 : score supérieur au top : faute de frappe ?"),
        ("3x", 400, "Coup 2 : « 3x » : un score en chiffres, ou un coup comme « H4 VAGUE », est attendu."),
    ],
)
def test_a_refused_cell_says_why_beside_it_and_keeps_the_saved_score(client, alice, lyon, entry, status, message):
    session, premier, _second = seed_game(alice, lyon)
    client.force_login(alice)
    url = f"/duplicate/{session.pk}/feuille/2/{premier.pk}/"
    response = client.post(url, {"entry": entry}, headers={"HX-Request": "true"})
    assert response.status_code == status
    html = response.content.decode()
    assert message.replace("«", "&laquo;") in html or message in html.replace("&#x27;", "'")
    assert 'aria-invalid="true"' in html
    assert premier.results.get(round__number=2).score == 30


def test_a_finished_session_sheet_is_read_only_and_refuses_a_cell(client, alice, lyon):
    session, premier, _second = seed_game(alice, lyon)
    session_finish(session=session, by=alice)
    client.force_login(alice)
    html = client.get(f"/duplicate/{session.pk}/feuille/").content.decode()
    assert 'name="entry"' not in html and "Terminée : lecture seule" in html
    response = client.post(
        f"/duplicate/{session.pk}/feuille/1/{premier.pk}/", {"entry": "0"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 409
    assert premier.results.get(round__number=1).score == 24


def test_the_sheet_pages_its_players_twenty_at_a_time(client, alice, lyon):
    session = make_session(alice, lyon, players=[f"Joueur {n:02d}" for n in range(1, 46)])
    round_add(session=session, draw_text="ZOEEERT", top_text="H8 ZOE")
    client.force_login(alice)
    html = client.get(f"/duplicate/{session.pk}/feuille/?joueurs=3").content.decode()
    assert html.count('name="entry"') == 5  # players 41 to 45
    assert "Joueur 41" in html and "Joueur 40" not in html
    assert client.get(f"/duplicate/{session.pk}/feuille/?joueurs=99").status_code == 200  # the last page


def test_the_recap_gives_each_move_and_each_player(client, alice, lyon):
    session, _premier, _second = seed_game(alice, lyon)
    client.force_login(alice)
    html = client.get(f"/duplicate/{session.pk}/recapitulatif/").content.decode()
    # The first move: draw, top word, square, points and its soloist.
    assert re.search(
        r'<th scope="row">1</th><td class="draw-cell">ZOEEERT</td>'
        r"<td>ZOE</td><td>H8</td><td>24</td><td>Premier</td>",
        html,
    )
    assert "Total des tops</th><td><strong>78</strong>" in html
    rows = re.findall(r"<tr>\s*<td>(\d+)</td><th scope=\"row\">(?:<a [^>]+>)?(\w+)", html)
    assert rows == [("1", "Premier"), ("2", "Second")]
    assert "92,3" in html and "83,3" in html and "data-print" in html


def test_who_reads_the_recap_and_who_runs_the_session(client, alice, bob, charlie, lyon, grenoble):
    """A club member reviews the session (its recap) but does not run it; another club's organiser does not
    know it exists; an anonymous visitor is sent to log in."""
    session, premier, _second = seed_game(alice, lyon)
    recap = f"/duplicate/{session.pk}/recapitulatif/"
    assert client.get(recap)["Location"].startswith("/compte/connexion/")
    client.force_login(charlie)
    assert client.get(recap).status_code == 404
    assert client.get(f"/duplicate/{session.pk}/feuille/").status_code == 404
    client.force_login(bob)
    assert client.get(recap).status_code == 200
    assert client.get(f"/duplicate/{session.pk}/")["Location"] == recap
    assert client.get(f"/duplicate/{session.pk}/feuille/")["Location"] == recap
    response = client.post(f"/duplicate/{session.pk}/feuille/1/{premier.pk}/", {"entry": "0"})
    assert response.status_code == 403
    assert premier.results.get(round__number=1).score == 24
    assert f'href="{recap}"' in client.get("/duplicate/").content.decode()  # "Séances de mes clubs"


def test_an_emptied_cell_takes_the_bulletin_back_and_says_so(client, alice, lyon):
    """Trial of issue 11: a bulletin typed for the wrong player could not be taken back (an empty cell was
    refused, an emptied console row came back with its score)."""
    session, premier, _second = seed_game(alice, lyon)
    client.force_login(alice)
    url = f"/duplicate/{session.pk}/feuille/2/{premier.pk}/"
    response = client.post(url, {"entry": ""}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Coup 2, Premier : bulletin effacé." in html
    assert footer(html, "Total") == ["78", "42", "65"]
    assert not premier.results.filter(round__number=2).exists()
    change = Change.objects.filter(player=premier, round_number=2).first()
    assert (change.old, change.new) == ("30", "")
    response = client.post(url, {"entry": ""}, headers={"HX-Request": "true"})  # nothing left to take back
    assert response.status_code == 400
    assert "Coup 2 : tapez le score ou le coup du bulletin." in response.content.decode()


def test_an_emptied_console_row_takes_the_bulletin_back_and_keeps_the_marks(client, alice, lyon):
    session, premier, _second = seed_game(alice, lyon)
    round_ = session.rounds.get(number=2)
    result_mark(round_=round_, player=premier, warning=True)
    client.force_login(alice)
    url = f"/duplicate/{session.pk}/coups/2/resultats/{premier.pk}/"
    response = client.post(url, {"score": "", "saved_score": "30", "move": ""}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "Bulletin effacé." in response.content.decode()
    result = premier.results.get(round=round_)
    assert (result.score, result.warning) == (None, True)
    response = client.post(url, {"score": "", "move": ""}, headers={"HX-Request": "true"})
    assert response.status_code == 400
    assert "Tapez un score ou un coup." in response.content.decode()


def test_an_absent_players_bulletin_is_refused(client, alice, lyon):
    """Trial of issue 11: a player declared absent took bulletins without a word."""
    session, premier, _second = seed_game(alice, lyon)
    player_update(player=premier, name="Premier", table=1, absent=True, licence="", club="", series="")
    with pytest.raises(DuplicateError) as caught:
        bulletin_enter(round_=session.rounds.get(number=3), table="1", entry="12")
    assert str(caught.value) == "Premier est déclaré absent : décochez « absent » avant de saisir son bulletin."
    assert premier.results.get(round__number=3).score == 18


def test_the_consoles_poll_brings_the_rows_changed_since_it_last_looked(client, alice, lyon):
    session, premier, second = seed_game(alice, lyon)
    client.force_login(alice)
    session.refresh_from_db()
    url = f"/duplicate/{session.pk}/coups/3/suivi/"
    assert client.get(f"{url}?v={session.version}").status_code == 204
    result_set(round_=session.rounds.get(number=3), player=second, score=12)  # from his phone
    response = client.get(f"{url}?v={session.version}&depuis=0")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="bulletin-count" class="meta" hx-swap-oob="true">2/2 bulletins' in html
    assert f'<tr id="player-{second.pk}" hx-swap-oob="true">' in html
    assert 'value="12"' in html
    client.force_login(alice.__class__.objects.create(username="intrus"))
    assert client.get(url).status_code == 404


def test_an_emptied_row_that_showed_no_score_does_not_erase_a_phones_bulletin(client, alice, lyon):
    """Second trial of issue 11: the console's row, touched then emptied, was never refreshed; ✓ on it then
    erased the score the player had sent from his phone meanwhile ("Bulletin effacé.")."""
    session, premier, _second = seed_game(alice, lyon)
    round_ = session.rounds.get(number=3)
    result_clear(round_=round_, player=premier)
    result_set(round_=round_, player=premier, score=15)  # from his phone, after the row was drawn
    client.force_login(alice)
    url = f"/duplicate/{session.pk}/coups/3/resultats/{premier.pk}/"
    response = client.post(url, {"score": "", "saved_score": "", "move": ""}, headers={"HX-Request": "true"})
    assert response.status_code == 409
    html = response.content.decode()
    assert "Premier a déjà 15 (envoyé depuis son téléphone ou une autre console)." in html
    assert 'value="15"' in html
    assert premier.results.get(round=round_).score == 15


def test_tirer_draws_on_the_server_whatever_the_draw_box_holds(client, session, alice):
    """Second trial of issue 11: a refused typed draw left in its box was sent again by "Tirer"."""
    client.force_login(alice)
    url = f"/duplicate/{session.pk}/coups/"
    response = client.post(url, {"draw": "AEIOUAE", "action": "typed"})
    assert response.status_code == 400 and 'value="AEIOUAE"' in response.content.decode()
    assert client.post(url, {"draw": "AEIOUAE", "action": "server"}).status_code == 302
    assert session.rounds.get().drawn_by_server
