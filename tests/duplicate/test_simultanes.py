"""Issue 16, "Simultanés": a federation body's sealed game played by rooms of three clubs, ranked together live,
overall, per club and per series, ties sharing places; no draw before the simultané's time."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from duplicate.errors import Conflict, DuplicateError
from duplicate.forms import RoomForm, SessionForm
from duplicate.games import GameRound
from duplicate.models import Session, Simultane
from duplicate.player_lines import PlayerLine
from duplicate.services import combined_ranking, rankings, rounds, simultanes
from duplicate.services.players import player_update
from duplicate.services.results import Entry, result_mark, result_set, results_set
from duplicate.services.rounds import round_add, round_reveal_top, round_set_top, timer_start
from duplicate.services.sessions import session_finish, session_reopen
from scoring.models import Edition, RuleSet
from tests.conftest import make_member

from .test_game_files import GAME

GAME_ROUNDS = [GameRound(**game_round) for game_round in GAME]  # tops 26, 18, 13, 71: 128 in all
TOMORROW = (timezone.now() + datetime.timedelta(days=1)).isoformat()


def make_simultane(body, creator, starts_at=None, game=GAME_ROUNDS, **fields):
    """A simultané starting in an hour unless told: the clubs register their rooms before it starts."""
    return simultanes.simultane_create(
        body=body,
        creator=creator,
        name=fields.get("name", "Simultané des Alpes"),
        starts_at=starts_at or timezone.now() + datetime.timedelta(hours=1),
        edition=Edition.objects.get(code="fr"),
        rule_set=RuleSet.objects.get(code="tournoi"),
        move_seconds=180,
        game=game,
    )


@pytest.fixture
def simultane(comite, eve):
    return make_simultane(comite, eve)


def room(simultane, club, organiser, players):
    """A club's room, its players given as (name, series)."""
    lines = [PlayerLine(table, name, "", "", series) for table, (name, series) in enumerate(players, 1)]
    return simultanes.room_register(simultane=simultane, club=club, creator=organiser, players=lines)


def start(simultane):
    """The simultané's time has come."""
    Simultane.objects.filter(pk=simultane.pk).update(starts_at=timezone.now() - datetime.timedelta(minutes=1))


def play(session, scores_by_move, finish=True):
    """Each move of the game drawn, its top revealed from the game, then each player's score (in table order)."""
    start(session.simultane)
    players = list(session.players.order_by("table"))
    for scores in scores_by_move:
        round_ = round_reveal_top(round_=round_add(session=session))
        results_set(round_=round_, entries=[Entry(p.pk, score) for p, score in zip(players, scores, strict=True)])
    if finish:
        session_finish(session=session)


@pytest.fixture
def three_rooms(simultane, lyon, alice, grenoble, charlie, annecy, dave):
    """Ann and Cid find every top (128) in two clubs, Ben and Dan tie on 93 in two clubs, Eve makes 109, Fay 40."""
    lyon_room = room(simultane, lyon, alice, [("Ann", "A"), ("Ben", "B")])
    grenoble_room = room(simultane, grenoble, charlie, [("Cid", "A"), ("Dan", "B")])
    annecy_room = room(simultane, annecy, dave, [("Eve", "A"), ("Fay", "B")])
    play(lyon_room, [(26, 20), (18, 10), (13, 13), (71, 50)])
    play(grenoble_room, [(26, 26), (18, 0), (13, 13), (71, 54)])
    play(annecy_room, [(26, 10), (18, 10), (5, 10), (60, 10)])
    return lyon_room, grenoble_room, annecy_room


def rows(rows_):
    return [(row.place, row.name, row.club, row.total, row.gap, row.percent) for row in rows_]


def test_three_clubs_rooms_are_ranked_together_ties_sharing_places(simultane, three_rooms):
    combined = combined_ranking.ranking(simultane)
    assert (combined.tops_total, combined.moves) == (128, 4)
    assert rows(combined.rows) == [
        (1, "Ann", "Club de Lyon", 128, 0, 100.0),
        (1, "Cid", "Club de Grenoble", 128, 0, 100.0),
        (3, "Eve", "Club d'Annecy", 109, -19, 85.2),
        (4, "Ben", "Club de Lyon", 93, -35, 72.7),
        (4, "Dan", "Club de Grenoble", 93, -35, 72.7),
        (6, "Fay", "Club d'Annecy", 40, -88, 31.3),
    ]


def test_the_ranking_within_a_club_and_within_a_series(simultane, three_rooms):
    combined = combined_ranking.ranking(simultane)
    assert combined.clubs == ["Club d'Annecy", "Club de Grenoble", "Club de Lyon"]
    assert combined.series == ["A", "B"]
    assert rows(combined.within(club="Club de Grenoble")) == [
        (1, "Cid", "Club de Grenoble", 128, 0, 100.0),
        (2, "Dan", "Club de Grenoble", 93, -35, 72.7),
    ]
    assert [(row.place, row.name) for row in combined.within(series="B")] == [(1, "Ben"), (1, "Dan"), (3, "Fay")]


def test_two_clubs_of_one_name_are_told_apart(simultane, lyon, alice, grenoble, charlie):
    """Trial of issue 16: two clubs both named « Club de Lyon » were one club in the ranking and its filter."""
    grenoble.name = lyon.name
    grenoble.save()
    play(room(simultane, lyon, alice, [("Ann", "A")]), [(26,), (18,), (13,), (71,)])
    play(room(simultane, grenoble, charlie, [("Cid", "A")]), [(26,), (0,), (13,), (71,)])
    combined = combined_ranking.ranking(simultane)
    assert combined.clubs == ["Club de Lyon (grenoble)", "Club de Lyon (lyon)"]
    assert rows(combined.within(club="Club de Lyon (grenoble)")) == [
        (1, "Cid", "Club de Lyon (grenoble)", 110, -18, 85.9)
    ]


def test_live_the_ranking_counts_the_moves_every_started_room_has_closed(simultane, lyon, alice, grenoble, charlie):
    lyon_room = room(simultane, lyon, alice, [("Ann", "A"), ("Ben", "B")])
    grenoble_room = room(simultane, grenoble, charlie, [("Cid", "A"), ("Dan", "B")])
    play(lyon_room, [(26, 20), (18, 10), (13, 13)], finish=False)  # moves 1 and 2 closed, 3 being entered
    play(grenoble_room, [(26, 26), (0, 18)], finish=False)  # move 1 closed
    combined = combined_ranking.ranking(simultane)
    assert (combined.moves, combined.tops_total) == (1, 26)
    assert [(row.place, row.name, row.total) for row in combined.rows] == [
        (1, "Ann", 26),
        (1, "Cid", 26),
        (1, "Dan", 26),
        (4, "Ben", 20),
    ]
    assert [(r.club, r.moves, r.finished) for r in combined.rooms] == [
        ("Club de Lyon", 2, False),
        ("Club de Grenoble", 1, False),
    ]


def test_a_room_not_started_is_listed_not_ranked(simultane, lyon, alice, grenoble, charlie):
    play(room(simultane, lyon, alice, [("Ann", "A"), ("Ben", "B")]), [(26, 20)])
    room(simultane, grenoble, charlie, [("Cid", "A")])
    combined = combined_ranking.ranking(simultane)
    assert [row.name for row in combined.rows] == ["Ann", "Ben"]
    assert [(r.club, r.players, r.moves) for r in combined.rooms] == [
        ("Club de Lyon", 2, 1),
        ("Club de Grenoble", 1, 0),
    ]


def test_solos_count_within_each_room_by_its_own_number_of_players(simultane, lyon, alice, grenoble, charlie):
    """Tournament rules: +10 for a solo from 16 players (§3.5). Lyon's room has 16: Ann's 26 alone is a solo
    worth 36. Grenoble's has 2: Cid's 26 alone is a solo worth nothing, whatever the 18 players of the simultané."""
    lyon_room = room(simultane, lyon, alice, [("Ann", "A"), *((f"Joueur {n}", "B") for n in range(2, 17))])
    play(lyon_room, [(26, *([10] * 15))])
    play(room(simultane, grenoble, charlie, [("Cid", "A"), ("Dan", "B")]), [(26, 10)])
    combined = combined_ranking.ranking(simultane)
    assert [(row.place, row.name, row.total, row.solos) for row in combined.rows[:3]] == [
        (1, "Ann", 36, 1),
        (2, "Cid", 26, 1),
        (3, "Dan", 10, 0),
    ]


# The game: sealed, in order, not before its time


def test_no_draw_before_the_simultanes_time(comite, eve, lyon, alice):
    later = make_simultane(comite, eve, starts_at=timezone.make_aware(datetime.datetime(2099, 12, 12, 14, 0)))
    lyon_room = room(later, lyon, alice, [("Ann", "A")])
    with pytest.raises(DuplicateError) as refused:
        round_add(session=lyon_room)
    assert (
        str(refused.value)
        == "Le simultané « Simultané des Alpes » commence le 12 décembre 2099 à 14:00 : aucun tirage avant."
    )
    assert not lyon_room.rounds.exists()
    Simultane.objects.filter(pk=later.pk).update(starts_at=timezone.now())
    lyon_room.refresh_from_db()
    assert round_add(session=lyon_room).draw == "VAGUEST"


def test_a_room_plays_the_games_moves_and_refuses_others(simultane, lyon, alice):
    lyon_room = room(simultane, lyon, alice, [("Ann", "A")])
    assert (lyon_room.name, lyon_room.date, lyon_room.club) == (
        "Simultané des Alpes · Club de Lyon",
        timezone.localtime(simultane.starts_at).date(),
        lyon,
    )
    start(simultane)
    with pytest.raises(DuplicateError):
        round_add(session=lyon_room, draw_text="EAIRSTU")
    first = round_add(session=lyon_room)
    assert first.draw == "VAGUEST"
    with pytest.raises(DuplicateError):
        round_set_top(round_=first, top_text="H8 VAGUE")
    round_reveal_top(round_=first)
    first.refresh_from_db()
    assert (first.top, first.top_score) == ("H4 VAGUE", 26)


def test_the_game_stays_sealed_from_the_rooms_arbiter(client, simultane, lyon, alice):
    lyon_room = room(simultane, lyon, alice, [("Ann", "A")])
    start(simultane)
    round_add(session=lyon_room)
    client.force_login(alice)
    console = client.get(reverse("duplicate:session", args=[lyon_room.pk])).content.decode()
    page = client.get(reverse("duplicate:simultane", args=[simultane.pk])).content.decode()
    game = client.get(f"/api/duplicate/sessions/{lyon_room.pk}/game")
    assert "VAGUEST" in console  # move 1's draw, drawn
    for seen in (console, page, game.content.decode()):
        assert "H4 VAGUE" not in seen.replace('placeholder="H4 VAGUE"', "")  # move 1's top, not revealed yet
        assert "ST+AIONX" not in seen  # move 2's draw
        assert "AVIONS" not in seen
    assert game.json()["rounds"] == []


def test_a_server_drawn_game_has_its_moves_checked_and_numbered(comite, eve):
    drawn = make_simultane(comite, eve, game=None)
    assert not drawn.imported
    assert [game_round["number"] for game_round in drawn.game] == list(range(1, len(drawn.game) + 1))
    assert len(drawn.game) >= 10
    assert all(game_round["top_score"] > 0 for game_round in drawn.game)


def test_only_a_federation_body_prepares_a_simultane(lyon, alice):
    with pytest.raises(DuplicateError) as refused:
        make_simultane(lyon, alice)
    assert str(refused.value) == "Seule une fédération ou un comité prépare un simultané."


# Pages


def test_the_body_prepares_a_simultane_from_its_page(client, comite, eve):
    client.force_login(eve)
    # Trial of issue 16: the form started on the box's rules (its defaults were set after a return, never).
    form = client.get(reverse("duplicate:simultane_new")).context["form"]
    assert (form["rule_set"].value(), form["edition"].value()) == (
        RuleSet.objects.get(code="tournoi").pk,
        Edition.objects.get(code="fr").pk,
    )
    data = {
        "name": "Simultané de Noël",
        "body": comite.pk,
        "starts_at": "2026-12-20T14:00",
        "edition": Edition.objects.get(code="fr").pk,
        "rule_set": RuleSet.objects.get(code="tournoi").pk,
        "move_seconds": "180",
    }
    response = client.post(reverse("duplicate:simultane_new"), data)
    created = Simultane.objects.get(name="Simultané de Noël")
    assert response.status_code == 302
    assert response["Location"] == reverse("duplicate:simultane", args=[created.pk])
    assert timezone.localtime(created.starts_at).strftime("%Y-%m-%d %H:%M") == "2026-12-20 14:00"
    assert len(created.game) >= 10


def test_a_club_organiser_cannot_prepare_one(client, lyon, alice):
    client.force_login(alice)
    response = client.get(reverse("duplicate:simultane_new"))
    assert response.status_code == 302
    assert response["Location"] == reverse("duplicate:simultanes")


def test_a_club_registers_its_room_from_the_simultanes_page(client, simultane, lyon, alice, bob):
    client.force_login(alice)
    page = client.get(reverse("duplicate:simultane", args=[simultane.pk]))
    assert "Inscrire une salle" in page.content.decode()
    url = reverse("duplicate:simultane_register", args=[simultane.pk])
    response = client.post(url, {"club": lyon.pk, "entry": "arbiter", "players": "1;Ann;;;A\n2;Ben;;;B"})
    lyon_room = Session.objects.get(simultane=simultane)
    assert response["Location"] == reverse("duplicate:session", args=[lyon_room.pk])
    assert [(p.name, p.series) for p in lyon_room.players.order_by("table")] == [("Ann", "A"), ("Ben", "B")]
    client.force_login(bob)  # a plain member of the club registers nothing
    response = client.post(url, {"club": lyon.pk, "entry": "arbiter", "players": ""})
    assert response.status_code == 400
    assert Session.objects.filter(simultane=simultane).count() == 1


def test_the_ranking_page_is_for_those_concerned(client, simultane, three_rooms, bob, eve):
    url = reverse("duplicate:simultane_ranking", args=[simultane.pk])
    assert client.get(url).status_code == 302  # anonymous: the login page
    stranger = make_member("zoe")
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    for reader in (eve, bob):  # the body's organiser; a member of a club whose room plays
        client.force_login(reader)
        response = client.get(url, {"club": "Club de Grenoble"})
        assert response.status_code == 200
        assert [(row.place, row.name) for row in response.context["rows"]] == [(1, "Cid"), (2, "Dan")]


# API


def test_the_api_runs_a_simultane(client, comite, eve, lyon, alice):
    client.force_login(eve)
    created = client.post(
        "/api/duplicate/simultanes",
        {"name": "Simultané API", "edition": "fr", "starts_at": TOMORROW, "game": {"rounds": GAME}},
        content_type="application/json",
    )
    assert created.status_code == 201
    assert created.json()["moves"] == 4
    pk = created.json()["id"]
    client.force_login(alice)
    session = client.post(
        "/api/duplicate/sessions",
        {"name": "Salle de Lyon", "club": lyon.pk, "simultane": pk, "players": ["Ann", "Ben"]},
        content_type="application/json",
    )
    assert session.status_code == 201
    room_pk = session.json()["id"]
    ann, ben = session.json()["players"]
    start(Simultane.objects.get(pk=pk))
    refused = client.post(
        f"/api/duplicate/sessions/{room_pk}/rounds", {"draw": "EAIRSTU"}, content_type="application/json"
    )
    assert refused.status_code == 422
    assert (
        refused.json()["detail"] == "Ce tirage n'est pas celui de la partie jouée (coup 1) : « Tirer » donne le sien."
    )
    refused = client.post(
        f"/api/duplicate/sessions/{room_pk}/rounds", {"top": "H8 VAGUE"}, content_type="application/json"
    )
    assert refused.status_code == 422
    played = client.post(f"/api/duplicate/sessions/{room_pk}/rounds", {}, content_type="application/json")
    assert played.status_code == 201
    assert played.json() == {"number": 1, "draw": "VAGUEST", "top": None, "top_score": None}
    revealed = client.put(f"/api/duplicate/sessions/{room_pk}/rounds/1/top", {}, content_type="application/json")
    assert revealed.json() == {"number": 1, "draw": "VAGUEST", "top": "H4 VAGUE", "top_score": 26}
    scores = {"scores": [{"player": ann["id"], "score": 26}, {"player": ben["id"], "score": 20}]}
    assert (
        client.put(
            f"/api/duplicate/sessions/{room_pk}/rounds/1/scores", scores, content_type="application/json"
        ).status_code
        == 200
    )
    client.post(f"/api/duplicate/sessions/{room_pk}/finish")
    ranking = client.get(f"/api/duplicate/simultanes/{pk}/ranking")
    assert ranking.status_code == 200
    assert ranking.json()["tops_total"] == 26
    assert [
        (r["place"], r["name"], r["club"], r["session"], r["total"], r["gap"], r["percent"])
        for r in ranking.json()["rows"]
    ] == [
        (1, "Ann", "Club de Lyon", "Salle de Lyon", 26, 0, 100.0),
        (2, "Ben", "Club de Lyon", "Salle de Lyon", 20, -6, 76.9),
    ]


def test_a_draw_through_the_api_never_reveals_its_top(client, simultane, lyon, alice):
    """Trial of issue 22: `POST …/rounds` with `{}` in a room placed the game's top with its draw, so the room's
    screen and every phone showed « Top révélé » and its word before anyone had played, and no phone could send
    its bulletin. The top comes with the reveal: `PUT …/rounds/{n}/top` with `{}`."""
    lyon_room = room(simultane, lyon, alice, [("Ann", "A")])
    Session.objects.filter(pk=lyon_room.pk).update(entry=Session.Entry.BOTH)
    start(simultane)
    client.force_login(alice)
    rounds = f"/api/duplicate/sessions/{lyon_room.pk}/rounds"
    drawn = client.post(rounds, {}, content_type="application/json")
    assert drawn.status_code == 201
    assert drawn.json() == {"number": 1, "draw": "VAGUEST", "top": None, "top_score": None}
    ann = lyon_room.players.get()
    phone = Client()
    page = phone.get(f"/duplicate/joueur/{ann.key}/").content.decode()
    assert "Top révélé" not in page and "VAGUE</strong>" not in page
    assert "Top révélé" not in phone.get(f"/duplicate/salle/{lyon_room.public_key}/").content.decode()
    assert phone.post(f"/duplicate/joueur/{ann.key}/", {"score": 20}).status_code == 302
    assert lyon_room.rounds.get().results.get(player=ann).score == 20
    revealed = client.put(f"{rounds}/1/top", {}, content_type="application/json")
    assert revealed.status_code == 200
    assert revealed.json() == {"number": 1, "draw": "VAGUEST", "top": "H4 VAGUE", "top_score": 26}
    assert "Top révélé" in phone.get(f"/duplicate/joueur/{ann.key}/").content.decode()


def test_a_top_sent_with_a_games_draw_is_refused(client, simultane, lyon, alice):
    lyon_room = room(simultane, lyon, alice, [("Ann", "A")])
    start(simultane)
    client.force_login(alice)
    refused = client.post(
        f"/api/duplicate/sessions/{lyon_room.pk}/rounds", {"top": "H4 VAGUE"}, content_type="application/json"
    )
    assert refused.status_code == 422
    assert refused.json()["detail"] == (
        "Le top d'une partie jouée se révèle une fois le coup joué (« Révéler le top de la partie », "
        "ou PUT …/rounds/1/top avec {}), pas avec son tirage."
    )
    assert not lyon_room.rounds.exists()
    with pytest.raises(DuplicateError):
        round_add(session=lyon_room, top_text="H4 VAGUE")
    assert not lyon_room.rounds.exists()


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"edition": "en"}, "Ce simultané se joue avec l'édition « fr » : une salle prend la sienne."),
        ({"rules": "boite"}, "Ce simultané se joue avec les règles « tournoi » : une salle prend les siennes."),
        ({"move_seconds": 120}, "Ce simultané se joue en 180 secondes par coup : une salle prend son temps."),
    ],
)
def test_the_api_refuses_a_room_of_another_edition_rules_or_time(client, simultane, lyon, alice, given, message):
    """Trial of issue 16: a room asked for in English was quietly made a French one."""
    client.force_login(alice)
    room_ = {"name": "Salle", "club": lyon.pk, "simultane": simultane.pk}
    response = client.post("/api/duplicate/sessions", {**room_, **given}, content_type="application/json")
    assert (response.status_code, response.json()["detail"]) == (422, message)
    assert not simultane.rooms.exists()
    same = {"edition": "fr", "rules": "tournoi", "move_seconds": 180, "entry": "both"}
    response = client.post("/api/duplicate/sessions", {**room_, **same}, content_type="application/json")
    assert response.status_code == 201
    assert Session.objects.get(pk=response.json()["id"]).entry == Session.Entry.BOTH  # his players' phones too


def test_the_api_ranks_one_club_by_its_id_address_or_name_and_refuses_an_unknown_one(
    client, simultane, three_rooms, eve, grenoble
):
    """Trial of issue 16: `?club=4` (an id, as everywhere else in the API), an address or a wrong series answered
    200 with no rows."""
    client.force_login(eve)
    url = f"/api/duplicate/simultanes/{simultane.pk}/ranking"
    for club in (grenoble.pk, "grenoble", "Club de Grenoble"):
        response = client.get(url, {"club": club})
        assert [(r["place"], r["name"]) for r in response.json()["rows"]] == [(1, "Cid"), (2, "Dan")]
    response = client.get(url, {"club": "paris"})
    assert (response.status_code, response.json()["detail"]) == (
        422,
        "Aucune salle du club « paris » dans ce simultané.",
    )
    response = client.get(url, {"series": "ZZZ"})
    assert (response.status_code, response.json()["detail"]) == (422, "Aucun joueur classé de la série « ZZZ ».")
    assert [r["name"] for r in client.get(url, {"series": "A"}).json()["rows"]] == ["Ann", "Cid", "Eve"]


def test_the_api_refuses_a_simultane_to_a_club_organiser(client, lyon, alice):
    client.force_login(alice)
    response = client.post(
        "/api/duplicate/simultanes",
        {"name": "S", "starts_at": "2026-01-01T14:00:00"},
        content_type="application/json",
    )
    assert response.status_code == 403
    assert (
        response.json()["detail"] == "Seuls les organisateurs d'une fédération ou d'un comité préparent un simultané."
    )


def test_the_api_refuses_a_room_draw_before_the_start(client, comite, eve, lyon, alice):
    later = make_simultane(comite, eve, starts_at=timezone.make_aware(datetime.datetime(2099, 12, 12, 14, 0)))
    client.force_login(alice)
    session = client.post(
        "/api/duplicate/sessions",
        {"name": "Salle", "club": lyon.pk, "simultane": later.pk},
        content_type="application/json",
    )
    response = client.post(
        f"/api/duplicate/sessions/{session.json()['id']}/rounds", {}, content_type="application/json"
    )
    assert response.status_code == 422
    assert "aucun tirage avant" in response.json()["detail"]


def test_the_combined_ranking_exports_like_a_sessions(client, simultane, three_rooms, eve):
    client.force_login(eve)
    url = reverse("duplicate:simultane_ranking", args=[simultane.pk])
    response = client.get(url, {"export": "csv", "serie": "B"})
    assert response["Content-Disposition"].startswith('attachment; filename="')
    lines = response.content.decode("utf-8-sig").splitlines()
    assert lines[:8] == [
        "Simultané;Simultané des Alpes",
        "Organisé par;Comité des Alpes",
        f"Date;{timezone.localdate():%d/%m/%Y}",
        "Coups comptés;4",
        "Série;B",
        "",
        "Place;Nom;Licence;Club;Série;Salle;Total;Écart;% du top;Solos;Absent;Coup 1;Coup 1 : notes;Coup 2;"
        "Coup 2 : notes;Coup 3;Coup 3 : notes;Coup 4;Coup 4 : notes",
        "Tops;;;;;;128;;;;;26;;18;;13;;71;",
    ]
    # Each counted move's score and what counted on it, as a session's export gives them.
    assert lines[8:] == [
        "1;Ben;;Club de Lyon;B;Simultané des Alpes · Club de Lyon;93;-35;72,7;0;;20;;10;;13;;50;",
        "1;Dan;;Club de Grenoble;B;Simultané des Alpes · Club de Grenoble;93;-35;72,7;0;;26;;0;;13;;54;",
        # Her 10 alone on move 3 is a solo in her room, worth nothing in a room of 2.
        "3;Fay;;Club d'Annecy;B;Simultané des Alpes · Club d'Annecy;40;-88;31,3;1;;10;;10;;10;solo;10;",
    ]
    federation = client.get(url, {"export": "federation"}).content.decode("iso-8859-1").splitlines()
    assert federation[:3] == ['"1","Ann","128"', '"1","Cid","128"', '"3","Eve","109"']
    assert client.get(url, {"export": "pdf"}).status_code == 404


def test_the_public_link_shows_the_combined_ranking_to_anyone_without_its_exports(client, simultane, three_rooms):
    url = reverse("duplicate:simultane_public", args=[simultane.public_key])
    response = client.get(url, {"club": "Club d'Annecy"})
    assert response.status_code == 200
    assert [(row.place, row.name, row.total) for row in response.context["rows"]] == [(1, "Eve", 109), (2, "Fay", 40)]
    assert "simultane-exports" not in response.content.decode()
    assert client.get(url, {"export": "csv"})["Content-Type"].startswith("text/html")  # no file by the public link
    assert client.get(reverse("duplicate:simultane_public", args=["inconnue"])).status_code == 404


def test_a_rooms_player_page_links_to_the_public_ranking(client, simultane, three_rooms):
    lyon_room = three_rooms[0]
    page = client.get(reverse("duplicate:player", args=[lyon_room.players.first().key]))
    assert reverse("duplicate:simultane_public", args=[simultane.public_key]) in page.content.decode()


def test_the_rankings_poll_answers_204_until_a_room_changes_what_it_shows(client, simultane, lyon, alice):
    lyon_room = room(simultane, lyon, alice, [("Ann", "A"), ("Ben", "B")])
    play(lyon_room, [(26, 20)], finish=False)
    url = reverse("duplicate:simultane_public", args=[simultane.public_key])
    page = client.get(url)
    stamp = page.context["stamp"]
    assert f"v={stamp}" in page.content.decode()
    assert client.get(url, {"v": stamp}, headers={"HX-Request": "true"}).status_code == 204
    results_set(round_=lyon_room.rounds.get(), entries=[Entry(lyon_room.players.first().pk, 24)])
    assert client.get(url, {"v": stamp}, headers={"HX-Request": "true"}).status_code == 204  # the move is open
    session_finish(session=lyon_room)
    board = client.get(url, {"v": stamp}, headers={"HX-Request": "true"})
    assert board.status_code == 200
    assert [(row.name, row.total) for row in board.context["rows"]] == [("Ann", 24), ("Ben", 20)]


# What the user trial found: the sealed game read through a second room, a late or abandoned room


def test_a_club_has_one_room_registered_before_the_start(simultane, lyon, alice):
    room(simultane, lyon, alice, [("Ann", "A")])
    with pytest.raises(DuplicateError) as refused:
        room(simultane, lyon, alice, [("Zoé", "A")])
    assert str(refused.value) == (
        "Le club « Club de Lyon » a déjà sa salle dans ce simultané : « Simultané des Alpes · Club de Lyon »."
    )
    start(simultane)
    simultane.refresh_from_db()
    assert simultanes.registration_refusal(simultane, lyon, alice).startswith(
        "Les inscriptions sont closes : le simultané a commencé le "
    )


def test_a_room_is_a_clubs(simultane, comite, eve):
    with pytest.raises(DuplicateError) as refused:
        simultanes.room_register(simultane=simultane, club=comite, creator=eve)
    assert str(refused.value) == "Une salle de simultané est celle d'un club : choisissez le vôtre."
    with pytest.raises(DuplicateError):
        simultanes.room_register(simultane=simultane, club=None, creator=eve)


def test_the_api_refuses_a_personal_room(client, simultane, alice, lyon):
    client.force_login(alice)
    response = client.post(
        "/api/duplicate/sessions", {"name": "Perso", "simultane": simultane.pk}, content_type="application/json"
    )
    assert response.status_code == 422
    assert response.json()["detail"] == "Une salle de simultané est celle d'un club : choisissez le vôtre."
    assert not Session.objects.exists()


def test_a_room_stopped_early_holds_the_live_ranking_at_the_moves_it_played(
    client, simultane, lyon, alice, grenoble, charlie
):
    """Third trial: a finished room no longer lets the others run ahead of it (issue 16 let it, so that finishing a
    slower room early, then reopening it, showed the tops of the moves it had still to play). Until the ranking is
    closed, a room stopped early holds it at the moves it played."""
    lyon_room = room(simultane, lyon, alice, [("Ann", "A"), ("Ben", "B")])
    grenoble_room = room(simultane, grenoble, charlie, [("Cid", "A"), ("Dan", "B")])
    play(lyon_room, [(26, 20)])  # Lyon stops after move 1 and finishes
    play(grenoble_room, [(26, 26), (18, 0), (13, 13)], finish=False)  # moves 1 and 2 closed
    combined = combined_ranking.ranking(simultane)
    assert (combined.moves, combined.tops_total) == (1, 26)
    assert [(row.place, row.name, row.total) for row in combined.rows] == [
        (1, "Ann", 26),
        (1, "Cid", 26),
        (1, "Dan", 26),
        (4, "Ben", 20),
    ]
    client.force_login(alice)
    page = client.get(reverse("duplicate:simultane_ranking", args=[simultane.pk])).content.decode()
    assert "Après 1 coup, joué par toutes les salles · total des tops 26" in page
    assert "une salle pas commencée, ou terminée avant les autres, le retient" in page
    session_finish(session=grenoble_room)
    assert combined_ranking.ranking(simultane).moves == 1


def test_closing_counts_the_whole_game_and_stops_the_rooms(client, simultane, lyon, alice):
    lyon_room = room(simultane, lyon, alice, [("Ann", "A"), ("Ben", "B")])
    play(lyon_room, [(26, 20), (18, 10)], finish=False)  # abandoned at move 2, never finished
    assert combined_ranking.ranking(simultane).moves == 1
    simultanes.simultane_close(simultane=simultane)
    combined = combined_ranking.ranking(simultane)
    assert (combined.moves, combined.tops_total) == (4, 128)
    assert [(row.name, row.total, row.gap) for row in combined.rows] == [("Ann", 44, -84), ("Ben", 30, -98)]
    with pytest.raises(Conflict) as refused:
        round_add(session=lyon_room)
    assert str(refused.value) == "Le simultané est clos : son classement est définitif."
    # Second trial: the console still offered « Tirer le coup suivant de la partie », refused when pressed.
    client.force_login(alice)
    console = client.get(reverse("duplicate:session", args=[lyon_room.pk])).content.decode()
    assert "Tirer le coup suivant de la partie" not in console
    assert "Le simultané est clos : plus aucun tirage." in console


def test_a_score_corrected_after_closing_reaches_the_final_ranking(
    simultane, lyon, alice, django_capture_on_commit_callbacks
):
    """Trial of issue 16: once closed, a score entered on a room's last open move was saved (200) but the
    combined ranking kept the old total: the move being played did not bump the room's version."""
    lyon_room = room(simultane, lyon, alice, [("Ann", "A"), ("Ben", "B")])
    play(lyon_room, [(26, 20), (18, 10)], finish=False)
    simultanes.simultane_close(simultane=simultane)
    assert [row.total for row in combined_ranking.live_ranking(simultane).rows] == [44, 30]
    ben = lyon_room.players.get(name="Ben")
    with django_capture_on_commit_callbacks(execute=True):
        result_set(round_=lyon_room.rounds.get(number=2), player=ben, score=14)
    assert [(row.name, row.total) for row in combined_ranking.live_ranking(simultane).rows] == [
        ("Ann", 44),
        ("Ben", 34),
    ]


def test_a_player_declared_absent_mid_game_stays_ranked_as_in_his_room(client, simultane, lyon, alice, eve):
    """Trial of issue 16: a player who played moves 1-2 then was declared absent was 9th in his room's ranking and
    missing from the combined ranking and its exports."""
    lyon_room = room(simultane, lyon, alice, [("Ann", "A"), ("Ben", "B")])
    play(lyon_room, [(26, 20), (18, 10)], finish=False)
    ben = lyon_room.players.get(name="Ben")
    player_update(player=ben, name="Ben", table=2, absent=True, licence="", club="", series="B")
    ann = lyon_room.players.get(name="Ann")
    for score in (13, 71):
        round_ = round_reveal_top(round_=round_add(session=lyon_room))
        results_set(round_=round_, entries=[Entry(ann.pk, score)])
    session_finish(session=lyon_room)
    room_rows, _tops = rankings.ranking(lyon_room)
    assert [(row.player.name, row.row.total) for row in room_rows] == [("Ann", 128), ("Ben", 30)]
    combined = combined_ranking.ranking(simultane)
    assert [(row.place, row.name, row.total, row.absent) for row in combined.rows] == [
        (1, "Ann", 128, False),
        (2, "Ben", 30, True),
    ]
    # Marked so on the screens (second trial: « 0 −240 0,0 % » and nothing to say why).
    mark = 'Ben <small class="warning">absent</small>'
    client.force_login(eve)
    assert mark in client.get(reverse("duplicate:simultane_ranking", args=[simultane.pk])).content.decode()
    assert mark in client.get(reverse("duplicate:ranking", args=[lyon_room.public_key])).content.decode()


def test_the_console_cannot_probe_the_sealed_top_either(client, simultane, lyon, alice):
    """Issue 22: the console refused a score above the game's sealed top (« Score supérieur au top »), so that a
    few tries bounded the top before anyone had played. Before the reveal any score within the rule set's bound is
    taken, as from a phone; at the reveal a bulletin above the top is taken back, its reason in its row."""
    lyon_room = room(simultane, lyon, alice, [("Ann", "A"), ("Ben", "B")])
    start(simultane)
    first = round_add(session=lyon_room)
    ann, ben = lyon_room.players.order_by("name")
    result_set(round_=first, player=ann, score=80, by=alice)
    client.force_login(alice)
    response = client.post(reverse("duplicate:result", args=[lyon_room.pk, 1, ben.pk]), {"score": "27"}, follow=True)
    assert (response.status_code, response.redirect_chain) == (200, [(f"/duplicate/{lyon_room.pk}/", 302)])
    assert [(r.player.name, r.score) for r in first.results.order_by("player__name")] == [("Ann", 80), ("Ben", 27)]
    most = lyon_room.rule_set.max_move_points
    with pytest.raises(DuplicateError, match=f"Un coup vaut au plus {most} points"):
        result_set(round_=first, player=ann, score=most + 1, by=alice)
    response = client.post(reverse("duplicate:round_top", args=[lyon_room.pk, 1]), {"action": "reveal"}, follow=True)
    html = response.content.decode()
    assert "Top du coup 1 : H4 VAGUE, 26 points." in html
    assert "Le bulletin de Ben dépassait le top : il est repris, à vérifier et saisir de nouveau." in html
    assert [(r.player.name, r.score, r.reason) for r in first.results.order_by("player__name")] == [
        ("Ann", None, "« 80 » : plus que le top (26), bulletin repris ; à saisir de nouveau."),
        ("Ben", None, "« 27 » : plus que le top (26), bulletin repris ; à saisir de nouveau."),
    ]
    # Once revealed, a score above the top is the slip it is, refused as in any session.
    first.refresh_from_db()
    with pytest.raises(DuplicateError, match="Score supérieur au top : faute de frappe ?"):
        result_set(round_=first, player=ann, score=27, by=alice)
    result_set(round_=first, player=ann, score=26, by=alice)


def test_a_players_phone_cannot_probe_the_sealed_top(client, simultane, lyon, alice):
    """Trial of issue 16: « Score supérieur au top » answered before the reveal told whoever tried scores one by one
    the top's value. A player's own entry is checked against the top once revealed only (the arbiter's too since
    issue 22)."""
    lyon_room = room(simultane, lyon, alice, [("Ann", "A")])
    Session.objects.filter(pk=lyon_room.pk).update(entry=Session.Entry.BOTH)
    start(simultane)
    first = round_add(session=lyon_room)
    timer_start(session=lyon_room)
    ann = lyon_room.players.get()
    response = client.post(f"/duplicate/joueur/{ann.key}/", {"score": 80})
    assert response.status_code == 302
    assert first.results.get().score == 80
    # Trial: the phone's slip then held the room's reveal (« le top ne peut valoir moins »). The game's top is
    # certain: the reveal goes through, the bulletin taken back with its reason, and the arbiter told.
    client.force_login(alice)
    response = client.post(reverse("duplicate:round_top", args=[lyon_room.pk, 1]), {"action": "reveal"}, follow=True)
    html = response.content.decode()
    assert "Top du coup 1 : H4 VAGUE, 26 points." in html
    assert "Le bulletin de Ann dépassait le top : il est repris, à vérifier et saisir de nouveau." in html
    result = first.results.get()
    assert (result.score, result.reason) == (
        None,
        "« 80 » : plus que le top (26), bulletin repris ; à saisir de nouveau.",
    )
    assert "« 80 » : plus que le top (26), bulletin repris" in html
    assert lyon_room.changes.filter(field="score", old="80", new="", user=alice).exists()


def test_a_room_is_withdrawn_before_it_draws_and_a_simultane_edited_or_deleted_before_any(
    client, simultane, lyon, alice, eve
):
    lyon_room = room(simultane, lyon, alice, [("Ann", "A")])
    client.force_login(alice)
    withdraw = reverse("duplicate:simultane_withdraw", args=[simultane.pk, lyon_room.pk])
    assert client.post(withdraw).status_code == 302
    assert not Session.objects.filter(pk=lyon_room.pk).exists()
    client.force_login(eve)
    edit = reverse("duplicate:simultane_edit", args=[simultane.pk])
    response = client.post(edit, {"name": "Simultané de Noël", "starts_at": "2026-12-20T15:00", "move_seconds": "120"})
    assert response.status_code == 302
    simultane.refresh_from_db()
    assert (simultane.name, simultane.move_seconds) == ("Simultané de Noël", 120)
    past = client.post(edit, {"name": "Passé", "starts_at": "2020-01-01T15:00", "move_seconds": "120"})
    assert past.status_code == 400
    assert past.context["edit_form"].errors["starts_at"] == [
        "Ce début est passé : choisissez une date et une heure à venir."
    ]
    playing = room(simultane, lyon, alice, [("Ann", "A")])
    play(playing, [(26,)], finish=False)
    refused = client.post(reverse("duplicate:simultane_delete", args=[simultane.pk]))
    assert refused.status_code == 409
    assert refused.context["error"] == "Une salle a déjà tiré un coup : le simultané ne change plus."
    client.force_login(alice)  # a club's organiser deletes no simultané
    assert client.post(reverse("duplicate:simultane_delete", args=[simultane.pk])).status_code == 404


def test_a_start_in_the_past_is_refused(client, comite, eve):
    client.force_login(eve)
    response = client.post(
        "/api/duplicate/simultanes",
        {"name": "Passé", "starts_at": "2020-01-01T14:00:00+01:00", "game": {"rounds": GAME}},
        content_type="application/json",
    )
    assert response.status_code == 422
    assert response.json()["detail"] == "Ce début est passé : choisissez une date et une heure à venir."


def test_the_registration_address_reloaded_shows_the_simultane(client, simultane, lyon, alice):
    client.force_login(alice)
    response = client.get(reverse("duplicate:simultane_register", args=[simultane.pk]))
    assert response["Location"] == reverse("duplicate:simultane", args=[simultane.pk])


def test_two_organisers_registering_the_same_club_at_once_get_one_room(monkeypatch, simultane, lyon, alice):
    room(simultane, lyon, alice, [("Ann", "A")])
    refusal = simultanes.registration_refusal
    answers = iter(["", None])  # the second organiser's check ran before the first one's room was saved

    def checked(*args):
        answer = next(answers)
        return refusal(*args) if answer is None else answer

    monkeypatch.setattr(simultanes, "registration_refusal", checked)
    with pytest.raises(DuplicateError) as refused:
        simultanes.room_register(simultane=simultane, club=lyon, creator=alice)
    assert str(refused.value).startswith("Le club « Club de Lyon » a déjà sa salle dans ce simultané")
    assert Session.objects.filter(simultane=simultane).count() == 1


def test_a_penalty_on_a_small_score_counts_zero_in_the_combined_ranking_and_its_files(
    client, simultane, lyon, alice, eve
):
    """Issue 22 (FISF §5): Ann writes 3 on move 1 and the arbiter gives −5; the move counts 0, not −2."""
    lyon_room = room(simultane, lyon, alice, [("Ann", "A"), ("Ben", "B")])
    play(lyon_room, [(3, 20), (18, 10), (13, 13), (71, 50)], finish=False)
    ann = lyon_room.players.get(name="Ann")
    first = lyon_room.rounds.get(number=1)
    result_mark(round_=first, player=ann, penalty=lyon_room.rules_engine.duplicate_penalty)
    session_finish(session=lyon_room)
    assert rows(combined_ranking.ranking(simultane).rows) == [
        (1, "Ann", "Club de Lyon", 102, -26, 79.7),
        (2, "Ben", "Club de Lyon", 93, -35, 72.7),
    ]
    client.force_login(eve)
    url = reverse("duplicate:simultane_ranking", args=[simultane.pk])
    lines = client.get(url, {"export": "csv"}).content.decode("utf-8-sig").splitlines()
    assert lines[7].endswith(";102;-26;79,7;2;;3;pén. 3;18;solo;13;;71;solo")  # what the penalty took, 3


# Third trial: the live ranking showed tops of moves a room had not played; closing mid-move; reopening


def test_a_room_not_started_holds_the_live_ranking_at_nothing(client, simultane, lyon, alice, annecy, dave, eve):
    """Before Annecy's room's first draw, the public link said « Après 1 coup, joué par toutes les salles · total des
    tops 26 »: move 1's top was public while Annecy had not drawn it, and the sentence was false."""
    lyon_room = room(simultane, lyon, alice, [("Ann", "A"), ("Ben", "B")])
    annecy_room = room(simultane, annecy, dave, [("Eve", "A")])
    play(lyon_room, [(26, 20), (18, 10)], finish=False)  # move 1 closed, move 2 being entered
    combined = combined_ranking.ranking(simultane)
    assert (combined.moves, combined.tops_total) == (0, 0)
    assert [(row.name, row.total) for row in combined.rows] == [("Ann", 0), ("Ben", 0)]  # listed, nothing counted
    public = client.get(reverse("duplicate:simultane_public", args=[simultane.public_key])).content.decode()
    assert "Aucun coup joué par toutes les salles pour l'instant." in public
    assert "total des tops" not in public
    client.force_login(eve)
    api = client.get(f"/api/duplicate/simultanes/{simultane.pk}/ranking").json()
    assert (api["moves"], api["tops_total"]) == (0, 0)
    url = reverse("duplicate:simultane_ranking", args=[simultane.pk])
    lines = client.get(url, {"export": "csv"}).content.decode("utf-8-sig").splitlines()
    assert lines[3] == "Coups comptés;0"
    assert lines[5:7] == [
        "Place;Nom;Licence;Club;Série;Salle;Total;Écart;% du top;Solos;Absent",
        "Tops;;;;;;0;;;;",
    ]
    play(annecy_room, [(10,), (0,)], finish=False)  # Annecy closes move 1 too
    assert (combined_ranking.ranking(simultane).moves, combined_ranking.ranking(simultane).tops_total) == (1, 26)


def test_a_room_finished_early_then_reopened_never_shows_the_moves_it_has_to_play(
    client, simultane, lyon, alice, grenoble, charlie, eve
):
    """Charlie finished Grenoble's slower room while its move 2 was open (`POST …/finish`, reversible): the ranking
    jumped from 1 counted move to 4, its CSV gave each top and Lyon's scores on every move; he then reopened his
    room and went on. A finished room counts the moves it revealed, no more."""
    lyon_room = room(simultane, lyon, alice, [("Ann", "A"), ("Ben", "B")])
    grenoble_room = room(simultane, grenoble, charlie, [("Cid", "A")])
    play(lyon_room, [(26, 20), (18, 10), (13, 13), (71, 50)])
    play(grenoble_room, [(26,)], finish=False)
    round_add(session=grenoble_room)  # move 2 drawn, its top not revealed
    client.force_login(charlie)
    assert client.post(f"/api/duplicate/sessions/{grenoble_room.pk}/finish").status_code == 200
    combined = combined_ranking.ranking(simultane)
    assert (combined.moves, combined.tops_total) == (1, 26)
    client.force_login(eve)
    url = reverse("duplicate:simultane_ranking", args=[simultane.pk])
    lines = client.get(url, {"export": "csv"}).content.decode("utf-8-sig").splitlines()
    assert lines[3] == "Coups comptés;1"
    assert lines[6] == "Tops;;;;;;26;;;;;26;"
    assert lines[7:] == [
        "1;Ann;;Club de Lyon;A;Simultané des Alpes · Club de Lyon;26;0;100,0;1;;26;solo",
        "1;Cid;;Club de Grenoble;A;Simultané des Alpes · Club de Grenoble;26;0;100,0;0;;26;",
        "3;Ben;;Club de Lyon;B;Simultané des Alpes · Club de Lyon;20;-6;76,9;0;;20;",
    ]
    assert client.get(f"/api/duplicate/simultanes/{simultane.pk}/ranking").json()["tops_total"] == 26
    public = client.get(reverse("duplicate:simultane_public", args=[simultane.public_key])).content.decode()
    assert "Après 1 coup, joué par toutes les salles · total des tops 26" in public
    client.force_login(charlie)
    assert client.post(f"/api/duplicate/sessions/{grenoble_room.pk}/reopen").status_code == 200
    round_reveal_top(round_=grenoble_room.rounds.get(number=2))
    round_add(session=grenoble_room)  # move 2 closed
    assert (combined_ranking.ranking(simultane).moves, combined_ranking.ranking(simultane).tops_total) == (2, 44)


def grenoble_on_its_move_two(simultane, lyon, alice, grenoble, charlie):
    """Lyon's room has played the whole game and finished; Grenoble's has played move 1 and drawn move 2, whose
    top it has not revealed. Returns both rooms."""
    lyon_room = room(simultane, lyon, alice, [("Ann", "A"), ("Ben", "B")])
    grenoble_room = room(simultane, grenoble, charlie, [("Cid", "A")])
    Session.objects.filter(pk=grenoble_room.pk).update(entry=Session.Entry.BOTH)
    play(lyon_room, [(26, 20), (18, 10), (13, 13), (71, 50)])
    play(grenoble_room, [(26,)], finish=False)
    round_add(session=grenoble_room)
    return lyon_room, grenoble_room


def test_closing_waits_for_every_rooms_top(client, simultane, lyon, alice, grenoble, charlie, eve):
    """« Arrêter le classement » gave no warning that Grenoble was on move 2 (drawn, its top not revealed), and once
    closed its open move still took bulletins, though the whole game was then readable by everyone."""
    lyon_room, grenoble_room = grenoble_on_its_move_two(simultane, lyon, alice, grenoble, charlie)
    refusal = (
        "La salle « Simultané des Alpes · Club de Grenoble » joue encore le coup 2 : attendez que son top soit révélé."
    )
    with pytest.raises(Conflict) as refused:
        simultanes.simultane_close(simultane=simultane)
    assert str(refused.value) == refusal
    client.force_login(eve)
    page = reverse("duplicate:simultane", args=[simultane.pk])
    html = client.get(page).content.decode()
    # The page and the confirmation list the rooms still playing.
    playing = "« Simultané des Alpes · Club de Grenoble » (coup 2, son top pas encore révélé)"
    assert f"Salles encore en jeu : {playing}." in html
    assert f"Salles encore en jeu : {playing}. Le classement s'arrête une fois leur top révélé." in html
    assert 'data-confirm="Arrêter le classement ?' in html and f'Salles encore en jeu : {playing}."' in html
    response = client.post(reverse("duplicate:simultane_close", args=[simultane.pk]), {"action": "close"})
    assert (response.status_code, response.context["error"]) == (409, refusal)
    simultane.refresh_from_db()
    assert (simultane.closed_at, simultane.first_closed_at) == (None, None)
    # A finished room's top pending holds the closing too.
    session_finish(session=grenoble_room)
    with pytest.raises(Conflict, match="a terminé sans révéler le top du coup 2"):
        simultanes.simultane_close(simultane=simultane)
    session_reopen(session=grenoble_room)
    second = round_reveal_top(round_=grenoble_room.rounds.get(number=2))
    assert "Salles encore en jeu : « Simultané des Alpes · Club de Grenoble » (coup 2, son top révélé)." in (
        client.get(page).content.decode()
    )
    closing = client.post(reverse("duplicate:simultane_close", args=[simultane.pk]), {"action": "close"})
    assert closing.status_code == 302
    # Closed: no move is open in any room; a phone writes nothing more, the arbiter still corrects.
    cid = grenoble_room.players.get()
    phone = Client().post(f"/duplicate/joueur/{cid.key}/", {"move": "B2 DEALEES", "score": 72})
    assert phone.status_code == 400
    assert "Le top est révélé : seul l&#x27;arbitre peut encore changer votre score." in phone.content.decode()
    assert not second.results.exists()
    with pytest.raises(Conflict):
        round_add(session=grenoble_room)
    result_set(round_=second, player=cid, score=18, by=charlie)
    simultane.refresh_from_db()
    assert [(row.name, row.total) for row in combined_ranking.ranking(simultane).rows] == [
        ("Ann", 128),
        ("Ben", 93),
        ("Cid", 44),  # 26 + 18: the final ranking counts his corrected move, 0 on those his room did not play
    ]


def test_a_draw_worked_out_while_the_ranking_closes_is_not_written(
    monkeypatch, simultane, lyon, alice, grenoble, charlie
):
    """The closing and a room's draw each hold the room's row: a draw planned before the closing (its moves worked
    out without a lock) is refused once it holds the row, rather than opening a move in a closed simultané."""
    lyon_room, grenoble_room = grenoble_on_its_move_two(simultane, lyon, alice, grenoble, charlie)
    round_reveal_top(round_=grenoble_room.rounds.get(number=2))
    planned_draw = rounds._planned_draw

    def closed_meanwhile(*args):
        planned = planned_draw(*args)
        simultanes.simultane_close(simultane=simultane)
        return planned

    monkeypatch.setattr(rounds, "_planned_draw", closed_meanwhile)
    with pytest.raises(Conflict, match="Le simultané est clos"):
        round_add(session=grenoble_room)
    assert grenoble_room.rounds.count() == 2


def test_reopening_the_ranking_lets_no_room_draw_again(client, simultane, lyon, alice, grenoble, charlie, eve):
    """« Rouvrir le classement » sealed the rooms again and Grenoble drew its move 3 (201), though everyone had been
    able to read the whole game. Once closed, the game is over for every room: reopening only takes the word
    « définitif » off the ranking, which still counts the whole game."""
    lyon_room, grenoble_room = grenoble_on_its_move_two(simultane, lyon, alice, grenoble, charlie)
    round_reveal_top(round_=grenoble_room.rounds.get(number=2))
    client.force_login(eve)
    close = reverse("duplicate:simultane_close", args=[simultane.pk])
    assert client.post(close, {"action": "close"}).status_code == 302
    html = client.get(reverse("duplicate:simultane", args=[simultane.pk])).content.decode()
    assert "Rouvrir le classement ? Il ne sera plus dit définitif" in html
    assert "aucune salle ne tirera de nouveau" in html
    response = client.post(close, {"action": "reopen"}, follow=True)
    assert "Classement rouvert : il compte toujours toute la partie, et aucune salle ne tire de nouveau." in (
        response.content.decode()
    )
    simultane.refresh_from_db()
    assert simultane.closed_at is None and simultane.first_closed_at is not None
    client.force_login(charlie)
    drawn = client.post(f"/api/duplicate/sessions/{grenoble_room.pk}/rounds", {}, content_type="application/json")
    assert (drawn.status_code, drawn.json()["detail"]) == (
        409,
        "Le simultané est clos depuis le premier arrêt de son classement : plus aucun tirage.",
    )
    assert grenoble_room.rounds.count() == 2
    console = client.get(reverse("duplicate:session", args=[grenoble_room.pk])).content.decode()
    assert "Tirer le coup suivant de la partie" not in console
    # The rooms are not sealed again: the whole game has been open to them.
    assert not Session.objects.sealed_from(charlie).exists()
    client.force_login(eve)
    assert client.get(reverse("duplicate:recap", args=[lyon_room.pk])).status_code == 200
    assert client.get(reverse("duplicate:simultane_game", args=[simultane.pk])).status_code == 200
    combined = combined_ranking.ranking(simultane)
    assert (combined.moves, combined.tops_total) == (4, 128)
    page = client.get(reverse("duplicate:simultane_ranking", args=[simultane.pk])).content.decode()
    assert "Classement rouvert : toute la partie, 4 coups (0 sur les coups qu'une salle n'a pas joués)" in page
    assert "définitif" not in page


def test_rooms_named_alike_are_told_apart_and_a_closed_ones_progress_says_where_it_stopped(
    client, simultane, lyon, alice, grenoble, charlie, eve
):
    """Second trial of issue 22: three rooms renamed « Salle » through the API read « Salle » three times in the
    closing's refusal and the rooms' table, and after closing a room stopped on move 2 still read « coup 2 en
    cours »."""
    lyon_room, grenoble_room = grenoble_on_its_move_two(simultane, lyon, alice, grenoble, charlie)
    Session.objects.filter(pk__in=[lyon_room.pk, grenoble_room.pk]).update(name="Salle")
    with pytest.raises(Conflict) as refused:
        simultanes.simultane_close(simultane=simultane)
    assert str(refused.value) == (
        "La salle « Salle (Club de Grenoble) » joue encore le coup 2 : attendez que son top soit révélé."
    )
    client.force_login(eve)
    page = reverse("duplicate:simultane", args=[simultane.pk])
    html = client.get(page).content.decode()
    assert "Salles encore en jeu : « Salle (Club de Grenoble) » (coup 2, son top pas encore révélé)." in html
    assert ">Salle (Club de Lyon)<" in html and "coup 2 en cours" in html
    round_reveal_top(round_=grenoble_room.rounds.get(number=2))
    simultanes.simultane_close(simultane=simultane)
    html = client.get(page).content.decode()
    assert "arrêtée au coup 2" in html
    assert "coup 2 en cours" not in html


def test_a_time_per_move_its_rules_do_not_offer_is_refused(comite, eve, simultane):
    refusal = "Temps par coup à choisir parmi : 60, 120, 150, 180 secondes."
    with pytest.raises(DuplicateError) as created:
        simultanes.simultane_create(
            body=comite,
            creator=eve,
            name="Éclair",
            starts_at=timezone.now() + datetime.timedelta(hours=1),
            edition=Edition.objects.get(code="fr"),
            rule_set=RuleSet.objects.get(code="tournoi"),
            move_seconds=45,
            game=GAME_ROUNDS,
        )
    assert str(created.value) == refusal
    with pytest.raises(DuplicateError) as updated:
        simultanes.simultane_update(simultane=simultane, name="Autre", starts_at=simultane.starts_at, move_seconds=45)
    assert str(updated.value) == refusal
    assert list(Simultane.objects.values_list("name", "move_seconds")) == [("Simultané des Alpes", 180)]


def test_a_new_session_and_a_room_take_their_players_pasted(alice, simultane):
    for form, help_text in [
        (SessionForm(alice), "Un joueur par ligne : « table;nom » ou le nom seul"),
        (RoomForm(alice, simultane), "Un joueur par ligne : « table;nom;licence;club;série »"),
    ]:
        field = form["players"]
        assert (field.label, field.field.required, field.field.widget.attrs) == (
            "Joueurs",
            False,
            {"cols": "40", "rows": 6},
        )
        assert str(field.help_text).startswith(help_text)


def test_a_simultane_given_no_time_per_move_through_the_api_takes_its_rule_sets(client, comite, eve):
    """Trial: the API wrote 180 seconds whatever the rule set said."""
    RuleSet.objects.filter(code="tournoi").update(move_seconds=120)
    client.force_login(eve)
    body = {"name": "Simultané API", "rules": "tournoi", "starts_at": TOMORROW, "game": {"rounds": GAME}}
    created = client.post("/api/duplicate/simultanes", body, content_type="application/json")
    assert created.status_code == 201
    assert Simultane.objects.get().move_seconds == 120


def test_the_body_closes_without_a_room_that_never_reveals_its_top(
    client, simultane, lyon, alice, grenoble, charlie, eve
):
    """Attacker's trial of issue 23: Grenoble's arbiter drew move 2 and never revealed its top; the ranking could never
    close, the room could not be withdrawn once started, and the body, to whom it is sealed, could not reveal it.
    « Arrêter sans attendre les tops » takes the move off the room, written in its history: it counts 0 there."""
    from duplicate.models import Change

    lyon_room, grenoble_room = grenoble_on_its_move_two(simultane, lyon, alice, grenoble, charlie)
    client.force_login(eve)
    page = client.get(reverse("duplicate:simultane", args=[simultane.pk])).content.decode()
    assert 'value="close_dropping"' in page
    response = client.post(reverse("duplicate:simultane_close", args=[simultane.pk]), {"action": "close_dropping"})
    assert response.status_code == 302
    simultane.refresh_from_db()
    assert simultane.closed_at is not None
    assert list(grenoble_room.rounds.values_list("number", flat=True)) == [1]
    dropped = Change.objects.filter(session=grenoble_room, field="draw", round_number=2).latest("pk")
    assert (dropped.new, dropped.user) == ("retiré à la clôture du simultané", eve)
    assert [(row.name, row.total) for row in combined_ranking.ranking(simultane).rows][-1] == ("Cid", 26)
