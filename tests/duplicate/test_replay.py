"""Issue 15, "Rejouer cette séance": a finished session's draws played again, alone against its tops, with the timer,
as a personal automatic game; at the end, where that total would have ranked in the original room."""

from html import unescape

import pytest

from duplicate.models import Session
from duplicate.services.rankings import ranking
from duplicate.services.replays import replay_standing
from duplicate.services.results import result_set
from duplicate.services.rounds import round_add
from duplicate.services.sessions import session_finish

from .conftest import make_session

pytestmark = pytest.mark.django_db

MOVES = (("VAGUEST", "H4 VAGUE"), ("ST+AIONX", "4G AVIONS"), ("TX+EEMNR", None))
ROOM = {"Anne": (20, 18), "Bruno": (26, 22), "Chloé": (10, 30)}


@pytest.fixture
def played(alice, lyon):
    """Alice's club session of two moves (tops 26 and the second's), Anne 38, Bruno 48, Chloé 40, finished."""
    session = make_session(alice, lyon, players=tuple(ROOM))
    players = {player.name: player for player in session.players.all()}
    for number, (draw, top) in enumerate(MOVES[:2]):
        round_ = round_add(session=session, draw_text=draw, top_text=top, by=alice)
        for name, scores in ROOM.items():
            result_set(round_=round_, player=players[name], score=min(scores[number], round_.top_score))
    session_finish(session=session, by=alice)
    return session


def page(client, replay):
    return unescape(client.get(f"/duplicate/joueur/{replay.players.get().key}/").content.decode())


def next_move(client, replay):
    return client.post(f"/duplicate/joueur/{replay.players.get().key}/", {"action": "next"})


def test_a_member_of_the_club_replays_the_session_alone_against_its_tops(client, bob, played):
    client.force_login(bob)
    response = client.post(f"/duplicate/{played.pk}/rejouer/")
    replay = Session.objects.get(replay_of=played)
    assert response.status_code == 302
    assert response["Location"] == f"/duplicate/joueur/{replay.players.get().key}/"
    assert (replay.automatic, replay.club, replay.creator, replay.name) == (True, None, bob, "Rejeu : Mardi soir")
    assert (replay.edition, replay.rule_set, replay.move_seconds) == (played.edition, played.rule_set, 180)
    assert replay.players.get().member == bob
    html = page(client, replay)
    assert "Rejeu de « Mardi soir » du 24 novembre 2026 : les mêmes tirages, face aux mêmes tops." in html

    # Move 1: the room's draw, the timer started; his move scored, the room's top revealed.
    next_move(client, replay)
    first = replay.rounds.get()
    assert (first.number, first.draw) == (1, "VAGUEST")
    replay.refresh_from_db()
    assert replay.timer_started_at is not None
    key = replay.players.get().key
    client.post(f"/duplicate/joueur/{key}/", {"move": "H6 GUET"})  # not the top: he plays less
    first.refresh_from_db()
    source_first = played.rounds.get(number=1)
    assert (first.top, first.top_score) == (source_first.top, source_first.top_score)
    assert first.results.get().score < first.top_score

    # Move 2: the room's second draw whatever he played (every board is the tops'); he finds the top.
    next_move(client, replay)
    second = replay.rounds.get(number=2)
    source_second = played.rounds.get(number=2)
    assert second.draw == source_second.draw == "ST+AIONX"
    client.post(f"/duplicate/joueur/{key}/", {"move": "4G AVIONS"})
    second.refresh_from_db()
    assert (second.top, second.results.get().score) == (source_second.top, source_second.top_score)

    # The room played two moves: the button ends the game, and says where he would have ranked.
    assert "Terminer et voir ma place" in page(client, replay)
    next_move(client, replay)
    replay.refresh_from_db()
    assert replay.finished_at is not None and replay.rounds.count() == 2
    standing = replay_standing(replay)
    total = first.results.get().score + source_second.top_score
    room = {named.player.name: named.row.total for named in ranking(played)[0]}
    assert standing.total == total
    assert standing.place == 1 + sum(other > total for other in room.values())
    assert (standing.players, standing.winner) == (4, max(room.values()))  # the room's three, and him
    html = page(client, replay)
    assert f"Votre total : <strong>{total}</strong> sur {first.top_score + second.top_score}" in html
    assert f"Dans la salle, vous auriez été {standing.ordinal} sur 4 joueurs (vainqueur : {standing.winner})." in html


def test_a_replay_at_the_top_of_every_move_would_have_won(client, bob, played):
    client.force_login(bob)
    client.post(f"/duplicate/{played.pk}/rejouer/")
    replay = Session.objects.get(replay_of=played)
    key = replay.players.get().key
    for top in ("H4 VAGUE", "4G AVIONS"):
        next_move(client, replay)
        client.post(f"/duplicate/joueur/{key}/", {"move": top})
    next_move(client, replay)
    replay.refresh_from_db()
    standing = replay_standing(replay)
    # Bruno found both tops too: the first place is shared.
    assert (standing.place, standing.ordinal, standing.percent) == (1, "1er ex aequo", 100.0)
    assert "Dans la salle, vous auriez été 1er ex aequo sur 4 joueurs" in page(client, replay)


def test_only_a_finished_session_that_the_member_may_read_is_replayed(client, alice, bob, charlie, lyon, played):
    running = make_session(alice, lyon, players=("Anne",))
    round_add(session=running, draw_text="VAGUEST", top_text="H4 VAGUE", by=alice)
    client.force_login(bob)
    response = client.post(f"/duplicate/{running.pk}/rejouer/")
    assert response.status_code == 409
    assert '<p class="error" role="alert">Une séance se rejoue une fois terminée.</p>' in response.content.decode()
    assert not Session.objects.filter(replay_of=running).exists()
    client.force_login(charlie)  # another club's member
    assert client.post(f"/duplicate/{played.pk}/rejouer/").status_code == 404
    client.logout()
    response = client.post(f"/duplicate/{played.pk}/rejouer/")
    assert (response.status_code, response["Location"].startswith("/compte/connexion/")) == (302, True)
    assert not Session.objects.filter(replay_of=played).exists()
    assert client.get(f"/duplicate/{played.pk}/rejouer/").status_code in (302, 405)


def test_the_recaps_offer_the_replay_once_finished(client, alice, played):
    client.force_login(alice)
    html = unescape(client.get(f"/duplicate/{played.pk}/recapitulatif/").content.decode())
    assert f'<form method="post" action="/duplicate/{played.pk}/rejouer/"' in html
    assert "Rejouer cette séance" in html


def test_a_slip_in_a_game_played_alone_is_refused_to_be_corrected(client, bob, played):
    """Issue 15's trial: 999 in a replay got the arbiter's refusal ("marie (table —) a déjà 999 points…"), and a
    move the draw cannot make scored 0 at once, with the top shown and "seul l'arbitre…" where there is none."""
    client.force_login(bob)
    client.post(f"/duplicate/{played.pk}/rejouer/")
    replay = Session.objects.get(replay_of=played)
    key = replay.players.get().key
    next_move(client, replay)
    response = client.post(f"/duplicate/joueur/{key}/", {"score": "999"})
    assert response.status_code == 400
    assert "Score supérieur au top : faute de frappe ?" in unescape(response.content.decode())
    response = client.post(f"/duplicate/joueur/{key}/", {"move": "H4 VAGUEZ"})
    assert response.status_code == 400
    assert "Ce coup ne se joue pas avec le tirage VAGUEST." in unescape(response.content.decode())
    first = replay.rounds.get()
    assert (first.top, first.results.exists()) == ("", False)  # nothing played, the top still hidden
    response = client.post(f"/duplicate/joueur/{key}/", {"score": "26"})
    assert response.status_code == 302
    first = replay.rounds.get()
    assert (first.top, first.results.get().score) == ("H4 VAGUE", 26)
    html = page(client, replay)
    assert 'id="my-place"' not in html  # alone, a place of 1 says nothing
    assert "Le top est révélé : ce coup est joué." in html


def test_his_replays_are_listed_apart_from_the_sessions_he_runs(client, bob, played):
    """Issue 15's trial: a member's replays were listed under « Séances que j'organise »."""
    client.force_login(bob)
    client.post(f"/duplicate/{played.pk}/rejouer/")
    html = unescape(client.get("/duplicate/").content.decode())
    organised = html.split("<h2>Séances que j'organise</h2>")[1].split("<h2>")[0]
    alone = html.split("<h2>Mes parties seul face aux tops</h2>")[1].split("<h2>")[0]
    assert "Rejeu : Mardi soir" not in organised
    assert "Aucune séance pour l'instant." in organised
    assert "<b>Rejeu : Mardi soir</b>" in alone and "Rejeu" in alone
    assert html.count("Rejeu : Mardi soir") == 1
