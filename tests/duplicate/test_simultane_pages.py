"""A user trial of the simultanés' pages: the body's organisers read the rooms and, once the ranking is closed,
download the whole game; a renamed simultané renames its rooms; what the pages say once it starts or closes; who
enters a room's scores; the console's and the ranking's tables."""

import datetime
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from clubsite.models import Membership
from duplicate.models import Session, Simultane
from duplicate.services import simultanes
from tests.conftest import make_member

from .test_game_files import GAME
from .test_simultanes import make_simultane, play, room, start


@pytest.fixture
def simultane(comite, eve):
    return make_simultane(comite, eve)


@pytest.fixture
def gina(grenoble):
    """A plain member of Grenoble's club: another club's member, for Lyon's room."""
    user = make_member("gina")
    Membership.objects.create(club=grenoble, user=user, role=Membership.Role.MEMBER)
    return user


@pytest.fixture
def lyon_room(simultane, lyon, alice, grenoble, charlie):
    """Lyon's room has played two moves and finished; Grenoble's room is registered too."""
    played = room(simultane, lyon, alice, [("Ann", "A"), ("Ben", "B")])
    play(played, [(26, 20), (18, 10)])
    room(simultane, grenoble, charlie, [("Cid", "A")])
    return played


def status(client, user, url):
    client.logout()
    if user is not None:
        client.force_login(user)
    return client.get(url).status_code


# A. The body's organisers read the rooms; the whole game once the ranking is closed


def test_the_bodys_organiser_reads_each_room_but_does_not_run_it(client, simultane, lyon_room, eve, alice, gina):
    """Trial: the comité got 404 on every room of its simultané. It reads them once the ranking is closed: before,
    a room ahead would show it draws the game keeps sealed from it (its organisers may run a slower room)."""
    ann = lyon_room.players.get(name="Ann")
    console = reverse("duplicate:session", args=[lyon_room.pk])
    recap = reverse("duplicate:recap", args=[lyon_room.pk])
    game = reverse("duplicate:game", args=[lyon_room.pk])
    player_recap = reverse("duplicate:player_recap", args=[lyon_room.pk, ann.pk])
    history = reverse("duplicate:history", args=[lyon_room.pk])
    readers = {None: 302, gina: 404, alice: 200, eve: 404}  # anonymous: the login page
    for url in (recap, game, player_recap):
        assert {user: status(client, user, url) for user in readers} == readers, url
    simultanes.simultane_close(simultane=simultane)
    readers[eve] = 200
    for url in (recap, game, player_recap):
        assert {user: status(client, user, url) for user in readers} == readers, url
    client.force_login(eve)
    assert client.get(console)["Location"] == recap  # she reads the recap; the console stays the club's
    assert client.get(history).status_code == 403
    draw = client.post(reverse("duplicate:round_add", args=[lyon_room.pk]), {"action": "server"})
    assert draw.status_code == 403
    assert lyon_room.rounds.count() == 2
    assert [r["top"] for r in client.get(game).json()["rounds"]] == ["H4 VAGUE", "4G AVIONS"]  # played only
    assert client.get(player_recap).context["recap"].place == 1
    back = f'<a class="button" href="/duplicate/simultanes/{simultane.pk}/">← Le simultané et son classement</a>'
    assert back in client.get(recap).content.decode()
    assert status(client, alice, console) == 200
    client.force_login(eve)
    assert list(client.get(reverse("duplicate:list")).context["clubs"]) == []  # not "Séances de mes clubs"


def test_the_rooms_table_links_each_room_to_what_its_reader_may_open(
    client, simultane, lyon_room, eve, alice, charlie, bob
):
    grenoble_room = Session.objects.get(simultane=simultane, club__slug="grenoble")
    page = reverse("duplicate:simultane", args=[simultane.pk])
    client.force_login(eve)
    assert [link for _room, link, _withdraws in client.get(page).context["rooms"]] == ["", ""]  # sealed: no room
    simultanes.simultane_close(simultane=simultane)
    links = {}
    for user in (eve, alice, bob):
        client.force_login(user)
        links[user.username] = [link for _room, link, _withdraws in client.get(page).context["rooms"]]
    assert links == {
        "eve": [f"/duplicate/{lyon_room.pk}/recapitulatif/", f"/duplicate/{grenoble_room.pk}/recapitulatif/"],
        "alice": [f"/duplicate/{lyon_room.pk}/", ""],  # her room's console; Grenoble's is not hers to read
        "bob": [f"/duplicate/{lyon_room.pk}/recapitulatif/", ""],  # a member of Lyon's club reads its recap
    }
    client.force_login(eve)
    assert f'<a href="/duplicate/{lyon_room.pk}/recapitulatif/">Simultané des Alpes · Club de Lyon</a>' in (
        client.get(page).content.decode()
    )


def test_the_whole_game_is_sealed_until_the_ranking_is_closed(
    client, simultane, lyon_room, eve, alice, charlie, bob, gina, dave, annecy
):
    url = reverse("duplicate:simultane_game", args=[simultane.pk])  # Dave's Annecy has no room
    # Anonymous: the login page; a member of a room's club, or another club's organiser: as for no such id.
    before = {None: 302, bob: 404, gina: 404, dave: 404, alice: 403, charlie: 403, eve: 403}
    assert {user: status(client, user, url) for user in before} == before
    client.force_login(eve)
    sealed = client.get(url)
    assert sealed.context["exception"] == "La partie reste scellée jusqu'à l'arrêt du classement."
    page = client.get(reverse("duplicate:simultane", args=[simultane.pk])).content.decode()
    assert url not in page
    simultanes.simultane_close(simultane=simultane)
    after = {None: 302, bob: 404, gina: 404, dave: 404, alice: 200, charlie: 200, eve: 200}
    assert {user: status(client, user, url) for user in after} == after
    client.force_login(eve)
    response = client.get(url)
    simultane.refresh_from_db()  # started a minute ago by the fixture: past 23:00, "in an hour" is the next day
    date = timezone.localtime(simultane.starts_at).date().isoformat()
    assert response["Content-Disposition"] == f'attachment; filename="{date}-simultane-des-alpes-partie.json"'
    assert json.loads(response.content) == {
        "format": "clubsite.duplicate.game",
        "version": 1,
        "name": "Simultané des Alpes",
        "date": date,
        "rules": "tournoi",
        "edition": "fr",
        "rounds": GAME,  # the whole game, its moves no room played included
    }
    page = client.get(reverse("duplicate:simultane", args=[simultane.pk])).content.decode()
    assert f'href="{url}" download>Fichier de partie</a>' in page


# B. A renamed simultané; its time per move


def test_renaming_a_simultane_renames_the_rooms_that_kept_its_name(client, simultane, lyon, alice, grenoble, charlie):
    """Trial: the rooms stayed "<old name> · <club>"."""
    lyon_room = room(simultane, lyon, alice, [("Ann", "A")])
    named = simultanes.room_register(simultane=simultane, club=grenoble, creator=charlie, name="Salle des Alpes")
    client.force_login(simultane.creator)
    edit = reverse("duplicate:simultane_edit", args=[simultane.pk])
    response = client.post(edit, {"name": "Simultané de Noël", "starts_at": "2099-12-20T15:00", "move_seconds": "120"})
    assert response.status_code == 302
    lyon_room.refresh_from_db()
    named.refresh_from_db()
    assert (lyon_room.name, lyon_room.move_seconds, lyon_room.date) == (
        "Simultané de Noël · Club de Lyon",
        120,
        datetime.date(2099, 12, 20),
    )
    assert named.name == "Salle des Alpes"


def test_the_simultanes_page_gives_its_time_per_move(client, simultane, eve):
    client.force_login(eve)
    meta = client.get(reverse("duplicate:simultane", args=[simultane.pk])).content.decode()
    assert "· 3 min par coup ·" in meta


# C. What the pages say once it starts or closes; a start to the minute


def test_the_closed_ranking_says_it_is_final_and_counts_the_whole_game(client, simultane, lyon, alice, eve):
    """Trial: after closing, the page said "Après 4 coups, joués par toutes les salles" of a room stopped at 2."""
    play(room(simultane, lyon, alice, [("Ann", "A")]), [(26,), (18,)])
    client.force_login(eve)
    url = reverse("duplicate:simultane_ranking", args=[simultane.pk])
    live = client.get(url).content.decode()
    assert "Après 2 coups, joués par toutes les salles · total des tops 44" in live
    assert "<title>Classement général, en direct · Simultané des Alpes · Clubsite</title>" in live
    simultanes.simultane_close(simultane=simultane)
    closed = client.get(url).content.decode()
    assert (
        "Classement définitif : toute la partie, 4 coups (0 sur les coups qu'une salle n'a pas joués)"
        " · total des tops 128" in closed
    )
    assert "joués par toutes les salles" not in closed
    assert "<title>Classement général définitif · Simultané des Alpes · Clubsite</title>" in closed
    assert "en direct" not in client.get(reverse("duplicate:simultane", args=[simultane.pk])).content.decode()


def test_a_closed_simultanes_page_no_longer_says_it_is_sealed(client, simultane, lyon_room, eve):
    """Third trial: once the ranking was closed, the page still said « Elle reste scellée »."""
    client.force_login(eve)
    page = reverse("duplicate:simultane", args=[simultane.pk])
    sealed = "Elle reste scellée : chaque salle découvre un tirage quand elle y arrive"
    assert sealed in client.get(page).content.decode()
    simultanes.simultane_close(simultane=simultane)
    closed = client.get(page).content.decode()
    assert "reste scellée" not in closed
    assert (
        "Son classement a été arrêté : la partie n'est plus scellée, ses organisateurs et ceux des salles la lisent "
        "entière, et aucune salle ne tire plus." in closed
    )
    simultanes.simultane_close(simultane=simultane, closed=False)
    assert "reste scellée" not in client.get(page).content.decode()  # reopened, the game stays open


def test_the_registration_text_goes_once_the_simultane_has_started(client, simultane, lyon, alice):
    client.force_login(alice)
    page = reverse("duplicate:simultane", args=[simultane.pk])
    assert "Un club y inscrit une salle, avant le début." in client.get(page).content.decode()
    start(simultane)
    content = client.get(page).content.decode()
    assert "Un club y inscrit une salle" not in content
    assert "Inscrire la salle" not in content
    assert "Les inscriptions sont closes : le simultané a commencé." in content


def test_a_start_is_kept_to_the_minute(client, comite, eve, simultane):
    """Trial: a start given with its seconds (the API, a script) made "commence … à 03:15" false for a minute."""
    starts = timezone.now().replace(microsecond=0) + datetime.timedelta(days=1, seconds=37)
    created = make_simultane(comite, eve, starts_at=starts)
    assert created.starts_at == starts.replace(second=0)
    simultanes.simultane_update(simultane=created, name="Autre", starts_at=starts, move_seconds=180)
    assert Simultane.objects.get(pk=created.pk).starts_at == starts.replace(second=0)
    client.force_login(eve)
    response = client.post(
        "/api/duplicate/simultanes",
        {"name": "API", "edition": "fr", "starts_at": "2099-12-20T14:00:42+01:00", "game": {"rounds": GAME}},
        content_type="application/json",
    )
    assert response.status_code == 201
    stored = Simultane.objects.get(pk=response.json()["id"]).starts_at
    assert stored == datetime.datetime(2099, 12, 20, 13, 0, tzinfo=datetime.UTC)


# D. Who enters a room's scores


def test_a_room_is_registered_with_who_enters_its_scores(client, simultane, lyon, alice, grenoble, charlie):
    """Trial: every room was an arbiter's, its players unable to enter their scores on their phones."""
    client.force_login(alice)
    page = client.get(reverse("duplicate:simultane", args=[simultane.pk]))
    form = page.context["form"]
    assert form["entry"].value() == Session.Entry.ARBITER  # as a new session's form
    assert "Qui saisit les scores" in page.content.decode()
    url = reverse("duplicate:simultane_register", args=[simultane.pk])
    client.post(url, {"club": lyon.pk, "entry": "players", "players": "1;Ann"})
    assert Session.objects.get(simultane=simultane, club=lyon).entry == Session.Entry.PLAYERS
    refused = client.post(url, {"club": lyon.pk, "entry": "nobody", "players": ""})
    assert refused.status_code == 400
    grenoble_room = simultanes.room_register(
        simultane=simultane, club=grenoble, creator=charlie, entry=Session.Entry.BOTH
    )
    assert grenoble_room.entry == Session.Entry.BOTH


# E. The tables


def test_the_combined_ranking_page_gives_each_players_solos(client, simultane, lyon, alice, eve):
    """Tournament rules: a solo is worth +10 from 16 players (§3.5): Ann's 26 alone in her room of 16."""
    lyon_room = room(simultane, lyon, alice, [("Ann", "A"), *((f"Joueur {n}", "B") for n in range(2, 17))])
    play(lyon_room, [(26, *([10] * 15))])
    client.force_login(eve)
    content = client.get(reverse("duplicate:simultane_ranking", args=[simultane.pk])).content.decode()
    assert "<th>% du top</th><th>Solos</th>" in content
    assert '<td class="percent">138,5 %</td><td>1</td>' in content
    assert '<td class="percent">38,5 %</td><td></td>' in content


def test_the_consoles_moves_played_scroll_within_the_page(client, session, alice):
    client.force_login(alice)
    content = client.get(reverse("duplicate:session", args=[session.pk])).content.decode()
    assert '<h3>Coups joués</h3>\n    <div class="table-scroll"><table class="moves-played">' in content


def test_a_players_row_saved_keeps_managing_the_players_open(client, session, alice):
    """Trial: "Gérer les joueurs" closed after every player saved; the arbiter reopened it for each one."""
    client.force_login(alice)
    player = session.players.get(table=1)
    url = reverse("duplicate:player_edit", args=[session.pk, player.pk])
    response = client.post(url, {"name": "Alice Martin", "table": "1", "licence": "", "club": "", "series": "A"})
    console = reverse("duplicate:session", args=[session.pk])
    assert response["Location"] == f"{console}?gerer=joueurs#gerer-joueurs"
    content = client.get(response["Location"]).content.decode()
    assert '<details class="add-players" id="gerer-joueurs" open>' in content
    managing = content.split('id="gerer-joueurs"')[1].split("</summary>")[1]
    assert managing.lstrip().startswith(
        '<ul class="messages"><li class="success">Alice Martin : modifications enregistrées.</li></ul>'
    )
    assert content.count("modifications enregistrées") == 1  # said beside the list, not above the page
    plain = client.get(console).content.decode()
    assert '<details class="add-players" id="gerer-joueurs">' in plain


def test_a_simultanes_times_per_move_are_its_rule_sets(client, simultane, eve):
    """Trial: the edit form offered 1, 2, 2 min 30 and 3 min whatever its rule set offered."""
    simultane.rule_set.move_seconds_choices = "60,90"
    simultane.rule_set.save()
    client.force_login(eve)
    page = client.get(reverse("duplicate:simultane", args=[simultane.pk]))
    assert page.context["edit_form"].fields["move_seconds"].choices == [(60, "1 min"), (90, "1 min 30")]
    edit = reverse("duplicate:simultane_edit", args=[simultane.pk])
    response = client.post(edit, {"name": "Simultané des Alpes", "starts_at": "2099-12-20T15:00", "move_seconds": "90"})
    assert response.status_code == 302
    simultane.refresh_from_db()
    assert simultane.move_seconds == 90
