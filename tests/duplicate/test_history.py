"""A finished session refuses every write until reopened, and every change is kept with who and when (issue 11)."""

import json

import pytest

from clubsite.models import ApiToken
from duplicate.models import Change
from duplicate.services.rankings import ranking
from duplicate.services.results import result_mark, result_set
from duplicate.services.rounds import round_add

from .conftest import make_session

pytestmark = pytest.mark.django_db


def put_scores(client, session, token, scores):
    return client.put(
        f"/api/duplicate/sessions/{session.pk}/rounds/1/scores",
        data=json.dumps({"scores": scores}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


def test_a_finished_session_refuses_every_write_with_409_until_reopened(client, session, alice):
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE", by=alice)
    anne = session.players.first()
    client.force_login(alice)
    client.post(f"/duplicate/{session.pk}/terminer/")
    session.refresh_from_db()
    assert session.finished_at is not None

    message = "La séance est terminée : rouvrez-la pour la modifier."
    response = client.post(f"/duplicate/{session.pk}/coups/1/resultats/{anne.pk}/", {"score": "20"})
    assert (response.status_code, message in response.content.decode()) == (409, True)
    assert client.post(f"/duplicate/{session.pk}/coups/", {"draw": "ST+AIONX"}).status_code == 409
    assert client.post(f"/duplicate/{session.pk}/joueurs/", {"players": "9;Zoé"}).status_code == 409
    token = ApiToken.issue(alice)
    response = put_scores(client, session, token, [{"player": anne.pk, "score": 20}])
    assert (response.status_code, response.json()) == (409, {"detail": message})
    assert not round_.results.exists()

    client.post(f"/duplicate/{session.pk}/rouvrir/")
    assert put_scores(client, session, token, [{"player": anne.pk, "score": 20}]).status_code == 200
    states = list(session.changes.filter(field=Change.Field.STATE).values_list("old", "new", "user__username"))
    assert states == [("terminée", "rouverte", "alice"), ("en cours", "terminée", "alice")]


def test_every_change_is_kept_with_who_and_old_and_new(client, session, alice, bob):
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE", by=alice)
    anne, bruno = session.players.all()[:2]
    result_set(round_=round_, player=anne, score=20, by=alice)
    result_set(round_=round_, player=anne, move="H4 VAGUE", by=alice)
    result_mark(round_=round_, player=anne, warning=True, by=alice)
    result_set(round_=round_, player=bruno, score=12)  # from his own page
    entries = [
        (c.field, c.old, c.new, c.user.get_username() if c.user else None) for c in session.changes.filter(player=anne)
    ]
    assert entries == [
        ("warning", "non", "oui", "alice"),
        ("score", "20", "26 H4 VAGUE", "alice"),
        ("score", "", "20", "alice"),
        ("player", "", "1 Alice", "alice"),  # added with the session, by its creator
    ]
    client.force_login(alice)
    html = client.get(f"/duplicate/{session.pk}/historique/?joueur={bruno.pk}").content.decode()
    assert "le joueur" in html and "<td>12</td>" in html and "26 H4 VAGUE" not in html
    html = client.get(f"/duplicate/{session.pk}/historique/?coup=1").content.decode()
    assert "VAGUEST" in html and "H4 VAGUE (26)" in html
    client.force_login(bob)  # a club member who does not run the session
    assert client.get(f"/duplicate/{session.pk}/historique/").status_code == 403
    token = ApiToken.issue(alice)
    history = client.get(f"/api/duplicate/sessions/{session.pk}/history", HTTP_AUTHORIZATION=f"Bearer {token}").json()[
        "entries"
    ]
    assert history[0] == {
        "at": history[0]["at"],
        "user": None,
        "round": 1,
        "player": bruno.pk,
        "field": "score",
        "old": "",
        "new": "12",
    }


def test_a_draw_typed_by_mistake_is_cancelled_while_nothing_depends_on_it(client, session, alice):
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE", by=alice)
    second = round_add(session=session, draw_text="ST+AIONX", by=alice)
    client.force_login(alice)
    response = client.post(f"/duplicate/{session.pk}/coups/1/annuler/")
    assert response.status_code == 400
    assert "Seul le dernier coup peut être annulé." in response.content.decode()
    token = ApiToken.issue(alice)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    result_set(round_=second, player=session.players.first(), score=10)
    response = client.delete(f"/api/duplicate/sessions/{session.pk}/rounds/2", **auth)
    assert (response.status_code, response.json()["detail"]) == (
        409,
        "Le coup 2 a déjà des résultats : corrigez-les plutôt que de l'annuler.",
    )
    second.results.all().delete()
    assert client.delete(f"/api/duplicate/sessions/{session.pk}/rounds/2", **auth).status_code == 204
    assert list(session.rounds.values_list("number", flat=True)) == [1]
    change = session.changes.filter(field=Change.Field.DRAW).first()
    assert (change.round_number, change.old, change.new, change.user) == (2, "ST+AIONX", "annulé", alice)


def test_players_renamed_moved_declared_absent_or_removed(client, alice, lyon):
    """Issue 11: an absent player (forfait) does not count towards the 16 players of the solo bonus."""
    session = make_session(alice, lyon, players=[f"Joueur {n}" for n in range(1, 17)])
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    first, second, last = session.players.get(table=1), session.players.get(table=2), session.players.get(table=16)
    result_set(round_=round_, player=first, score=26)
    result_set(round_=round_, player=second, score=20)
    assert [(n.player.name, n.row.total) for n in ranking(session)[0][:1]] == [("Joueur 1", 36)]
    client.force_login(alice)
    url = f"/duplicate/{session.pk}/joueurs/{last.pk}/"
    response = client.post(url, {"name": "Zoé Martin", "table": "16", "absent": "1"})
    assert response.status_code == 302
    last.refresh_from_db()
    assert (last.name, last.absent) == ("Zoé Martin", True)
    # 15 present: no solo bonus any more.
    assert [(n.player.name, n.row.total) for n in ranking(session)[0][:1]] == [("Joueur 1", 26)]
    response = client.post(f"/duplicate/{session.pk}/joueurs/{second.pk}/", {"name": "X", "table": "1"})
    assert (response.status_code, "La table 1 est déjà prise." in response.content.decode()) == (400, True)
    response = client.post(f"/duplicate/{session.pk}/joueurs/{first.pk}/retirer/")
    assert "Joueur 1 a déjà des résultats : déclarez-le absent plutôt que de le retirer." in response.content.decode()
    assert client.post(f"/duplicate/{session.pk}/joueurs/{last.pk}/retirer/").status_code == 302
    assert session.players.count() == 15
    fields = list(session.changes.filter(field=Change.Field.PLAYER, user=alice).values_list("old", "new")[:2])
    assert fields == [("16 Zoé Martin", "retiré"), ("16 Joueur 16", "16 Zoé Martin (absent)")]


def test_the_api_reads_the_whole_game_and_corrects_any_move(client, session, alice):
    first = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    round_add(session=session, draw_text="ST+AIONX", top_text="4G AVIONS")
    anne = session.players.get(table=1)
    result_set(round_=first, player=anne, score=20)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {ApiToken.issue(alice)}"}
    url = f"/api/duplicate/sessions/{session.pk}"
    response = client.patch(
        f"{url}/rounds/1/results/{anne.pk}",
        data=json.dumps({"move": "h4 vague", "warning": True}),
        content_type="application/json",
        **auth,
    )
    assert response.json() == {"score": 26, "move": "H4 VAGUE", "reason": "", "warning": True, "penalty": 0}
    response = client.patch(
        f"{url}/rounds/2/results/{anne.pk}", data=json.dumps({"score": 19}), content_type="application/json", **auth
    )
    assert (response.status_code, response.json()) == (422, {"detail": "Score supérieur au top : faute de frappe ?"})
    game = client.get(f"{url}/results", **auth).json()
    assert game["rounds"] == [
        {"number": 1, "draw": "VAGUEST", "top": "H4 VAGUE", "top_score": 26},
        {"number": 2, "draw": "ST+AIONX", "top": "4G AVIONS", "top_score": 18},
    ]
    assert game["players"][0] == {
        "id": anne.pk,
        "name": "Alice",
        "table": 1,
        "absent": False,
        "results": [{"score": 26, "move": "H4 VAGUE", "reason": "", "warning": True, "penalty": 0}, None],
    }
    client.post(f"{url}/finish", **auth)
    response = client.patch(
        f"{url}/rounds/1/results/{anne.pk}", data=json.dumps({"score": 1}), content_type="application/json", **auth
    )
    assert response.status_code == 409


def test_a_club_member_reads_the_results_and_not_the_history(client, session, alice, bob):
    """Issue 15's trial: a member who reads every score on the recap got 403 « … peuvent la modifier » on a GET."""
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE", by=alice)
    result_set(round_=round_, player=session.players.first(), score=20, by=alice)
    token = ApiToken.issue(bob)
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    response = client.get(f"/api/duplicate/sessions/{session.pk}/results", **headers)
    assert response.status_code == 200
    assert response.json()["rounds"][0]["top_score"] == round_.top_score
    response = client.get(f"/api/duplicate/sessions/{session.pk}/history", **headers)
    assert (response.status_code, response.json()) == (
        403,
        {"detail": "Seuls les organisateurs de la séance lisent son historique."},
    )
