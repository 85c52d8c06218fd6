"""Issue 22: a simultané's sealed game stays sealed, for everyone. Until its ranking is closed, nobody reads a room
beyond the stage of the slowest room he plays in or runs (`SessionQuerySet.sealed_from`): every page and API
operation answers such a room as an id that does not exist.

Three rooms of one simultané: Lyon's (A) has revealed move 3's top (stage 7), Annecy's (C) move 2's (stage 5),
Grenoble's (B) has drawn move 2 without its top (stage 4). Alice organises Lyon's club and holds a seat in
Grenoble's room; Bruno, a plain member of Lyon's club, holds one too; Charlie runs Grenoble's room and is a plain
member of Lyon's club; Bob is a plain member of Lyon's club in no room; Dave runs Annecy's room only."""

import datetime
import re
from dataclasses import dataclass

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from clubsite.api import api
from clubsite.invitations import InvitationRefused, invitation_accept
from clubsite.models import ApiToken, Invitation, Membership
from clubsite.progress import ProgressFilters
from duplicate.errors import DuplicateError
from duplicate.models import Change, ExportJob, Player, Result, Round, Season, Session
from duplicate.player_lines import PlayerLine
from duplicate.progress import member_progress
from duplicate.services import simultanes
from duplicate.services.players import players_add
from duplicate.services.replays import session_replay
from duplicate.services.results import result_set
from duplicate.services.rounds import round_add, round_reveal_top
from duplicate.services.sessions import session_finish
from duplicate.services.tournaments import tournament_create
from tests.conftest import accept_invitations, make_member

from .conftest import make_session
from .test_simultanes import make_simultane, start

pytestmark = pytest.mark.django_db

MISSING = 999999  # no session has this id


@pytest.fixture
def bruno(give_role):
    """Another member of Lyon's club, who plays in Grenoble's room."""
    return give_role(make_member("bruno"), Membership.Role.MEMBER)


@dataclass
class UnevenRooms:
    simultane: object
    lyon_room: Session  # A, ahead
    grenoble_room: Session  # B, the slowest
    annecy_room: Session  # C, between
    ann: Player  # of Lyon's room
    job: ExportJob  # an export of Lyon's room, built


def room(simultane, club, organiser, names):
    lines = [PlayerLine(table, name) for table, name in enumerate(names, 1)]
    registered = simultanes.room_register(simultane=simultane, club=club, creator=organiser, players=lines)
    accept_invitations(registered.players.all())
    return registered


def play(session, moves, *, last_top=True):
    """`moves` moves of the game drawn, each with its top but the last one's unless `last_top`; the first player
    finds every top."""
    first = session.players.order_by("table").first()
    for number in range(1, moves + 1):
        round_ = round_add(session=session)
        if last_top or number < moves:
            round_ = round_reveal_top(round_=round_)
            result_set(round_=round_, player=first, score=round_.top_score)


@pytest.fixture
def uneven_rooms(comite, eve, lyon, alice, bruno, grenoble, charlie, annecy, dave, give_role):
    """The district's simultané played unevenly in three rooms: Lyon's (Alice's) ahead, Grenoble's (Charlie's, where
    Bruno and Alice play) the slowest, Annecy's (Dave's) between; Charlie joins Lyon as a member."""
    give_role(charlie, Membership.Role.MEMBER)
    simultane = make_simultane(comite, eve)
    lyon_room = room(simultane, lyon, alice, ["Ann", "Ben"])
    grenoble_room = room(simultane, grenoble, charlie, ["Cid", "@bruno", "@alice"])
    annecy_room = room(simultane, annecy, dave, ["Eve"])
    start(simultane)
    play(lyon_room, 3)  # stage 7
    play(grenoble_room, 2, last_top=False)  # stage 4
    play(annecy_room, 2)  # stage 5
    job = ExportJob.objects.create(
        session=lyon_room, kind="csv", requested_by=alice, status=ExportJob.Status.DONE, content=b"x"
    )
    return UnevenRooms(simultane, lyon_room, grenoble_room, annecy_room, lyon_room.players.get(name="Ann"), job)


def close(uneven_rooms):
    """The ranking closed once every room has revealed its last move's top: the closing waits for Grenoble's."""
    for pending in Round.objects.filter(session__simultane=uneven_rooms.simultane, top=""):
        round_reveal_top(round_=pending)
    simultanes.simultane_close(simultane=uneven_rooms.simultane)


def page_body(response) -> str:
    """A page as its reader gets it, but for the CSRF tokens, which differ on every page."""
    return re.sub(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]*', r"\1", response.content.decode())


def snapshot(session) -> tuple:
    """What a write could change: the room's moves, players, results, state and history, and the sessions and
    exports there are."""
    return (
        list(session.rounds.values_list("number", "draw", "top")),
        list(session.players.values_list("pk", "name", "table", "absent", "series")),
        list(Result.objects.filter(round__session=session).values_list("player", "round", "score", "warning")),
        Session.objects.filter(pk=session.pk).values_list("finished_at", "timer_started_at").get(),
        Change.objects.filter(session=session).count(),
        Session.objects.count(),
        ExportJob.objects.count(),
    )


# Every address of duplicate/urls.py and every API operation under /api/duplicate/ that names a session (by its id
# or a room's, a player's, an export's): how its organiser asks for it, and what he gets once it is readable (None:
# a write, which must then be anything but a 404).


@dataclass(frozen=True)
class Endpoint:
    method: str
    kwargs: object = lambda rooms: {}  # the address's arguments but the session's
    data: object = lambda rooms: None
    readable: int | None = 200
    room_kwarg: str = "pk"


def write(kwargs=lambda rooms: {}, data=lambda rooms: {}, **fields):
    return Endpoint("post", kwargs, data, readable=None, **fields)


def third_move(uneven_rooms):
    return {"number": 3}


def anns_third_move(uneven_rooms):
    return {"number": 3, "player_pk": uneven_rooms.ann.pk}


ROOM_PAGES = {
    "session": Endpoint("get"),
    "game": Endpoint("get"),
    "players_add": write(data=lambda rooms: {"players": "Zoé"}),
    "player_edit": write(
        lambda rooms: {"player_pk": rooms.ann.pk},
        lambda rooms: {"name": "Anne", "table": "1", "licence": "", "club": "", "series": ""},
    ),
    "player_remove": write(lambda rooms: {"player_pk": rooms.ann.pk}),
    "round_add": write(data=lambda rooms: {"action": "server"}),
    "round_top": write(third_move, lambda rooms: {"action": "reveal"}),
    "round_cancel": write(third_move),
    "result": write(anns_third_move, lambda rooms: {"score": "5"}),
    "bulletin": write(third_move, lambda rooms: {"table": "1", "entry": "5"}),
    "console_poll": Endpoint("get", third_move),
    "timer": write(),
    "top_grid": Endpoint("get"),
    "counter": Endpoint("get"),
    "finish": write(),
    "reopen": write(),
    "history": Endpoint("get"),
    "sheet": Endpoint("get"),
    "sheet_cell": write(anns_third_move, lambda rooms: {"entry": "5"}),
    "recap": Endpoint("get"),
    "player_recap": Endpoint("get", lambda rooms: {"player_pk": rooms.ann.pk}),
    "again": write(data=lambda rooms: {"name": "Encore", "date": "2026-12-01"}),
    "replay": write(),
    "export": Endpoint("get", lambda rooms: {"kind": "csv"}),
    "export_job": Endpoint("get", lambda rooms: {"job_pk": rooms.job.pk}),
    "export_download": Endpoint("get", lambda rooms: {"job_pk": rooms.job.pk}),
    "simultane_withdraw": write(lambda rooms: {"pk": rooms.simultane.pk}, room_kwarg="room_pk"),
}

# The other addresses, and why none reads a room by its id.
OTHER_PAGES = {
    "list": "lists sessions by name (those of his clubs through visible_to)",
    "new": "creates a session",
    "simultanes": "lists simultanés",
    "simultane_new": "prepares a simultané",
    "simultane": "a simultané's page: its rooms' table links only the rooms visible_to its reader (tested below)",
    "simultane_register": "registers a room before the start",
    "simultane_game": "the whole game, once the ranking is closed only (test_simultane_pages)",
    "simultane_ranking": "the combined ranking, on the moves every room has closed",
    "simultane_edit": "a simultané's name and times, before any room draws",
    "simultane_delete": "before any room draws",
    "simultane_close": "the body's organisers close the ranking",
    "tournaments": "lists tournaments; its form offers the sessions he runs by name",
    "tournament": "reads its sessions through tournament_ranking(reader=), tested below",
    "seasons": "lists seasons",
    "season": "reads its sessions through season_ranking(reader=), tested below",
    "season_edit": "a season's dates and rules",
    "season_delete": "deletes the ranking only",
    "ranking": "the room's public ranking link, handed out in that room (sealed_from's docstring)",
    "room": "the room's projector link, handed out in that room",
    "player": "a player's own phone link, handed out in that room",
    "simultane_public": "the combined ranking's public link",
}


def api_call(method, path, body=lambda rooms: None, readable=200):
    return method, path, Endpoint(method.lower(), data=body, readable=readable)


ROOM_OPERATIONS = {
    f"{method} {path}": endpoint
    for method, path, endpoint in (
        api_call("POST", "/duplicate/sessions/{pk}/rounds", lambda rooms: {}, None),
        api_call(
            "PUT",
            "/duplicate/sessions/{pk}/rounds/{number}/scores",
            lambda rooms: {"scores": [{"player": rooms.ann.pk, "score": 5}]},
            None,
        ),
        api_call("GET", "/duplicate/sessions/{pk}/game"),
        api_call("GET", "/duplicate/sessions/{pk}/ranking"),
        api_call("GET", "/duplicate/sessions/{pk}/ranking.csv"),
        api_call("POST", "/duplicate/sessions/{pk}/finish", readable=None),
        api_call("POST", "/duplicate/sessions/{pk}/reopen", readable=None),
        api_call("GET", "/duplicate/sessions/{pk}/history"),
        api_call("PUT", "/duplicate/sessions/{pk}/rounds/{number}/top", lambda rooms: {}, None),
        api_call("DELETE", "/duplicate/sessions/{pk}/rounds/{number}", readable=None),
        api_call("GET", "/duplicate/sessions/{pk}/results"),
        api_call(
            "PATCH", "/duplicate/sessions/{pk}/rounds/{number}/results/{player_id}", lambda rooms: {"score": 5}, None
        ),
        api_call("GET", "/duplicate/sessions/{pk}/players/{player_id}/recap"),
    )
}

OTHER_OPERATIONS = {
    "POST /duplicate/sessions": "creates a session or registers a room",
    "POST /duplicate/simultanes": "prepares a simultané",
    "GET /duplicate/simultanes/{pk}/ranking": "the combined ranking, on the moves every room has closed",
    "GET /duplicate/seasons/{pk}/ranking": "reads its sessions through season_ranking(reader=), tested below",
}


def page_request(name):
    """How Alice asks for the address `name` of a room: send(client, uneven_rooms, room_pk)."""
    endpoint = ROOM_PAGES[name]

    def send(client, uneven_rooms, room_pk):
        url = reverse(f"duplicate:{name}", kwargs={endpoint.room_kwarg: room_pk, **endpoint.kwargs(uneven_rooms)})
        data = endpoint.data(uneven_rooms)
        return getattr(client, endpoint.method)(url, *(() if data is None else (data,)))

    return send


def api_request(key):
    """How Alice calls the API operation `key` ("PUT /duplicate/…") on a room: send(client, uneven_rooms, room_pk)."""
    endpoint = ROOM_OPERATIONS[key]

    def send(client, uneven_rooms, room_pk):
        url = "/api" + key.split(" ", 1)[1].format(pk=room_pk, number=3, player_id=uneven_rooms.ann.pk)
        body = endpoint.data(uneven_rooms)
        if body is None:
            return getattr(client, endpoint.method)(url)
        return getattr(client, endpoint.method)(url, body, content_type="application/json")

    return send


def sealed_answer(client, send, uneven_rooms) -> str:
    """What is wrong with the answer Alice gets from `send(client, uneven_rooms, room_pk)` for Lyon's room, sealed
    from her: "" when it is the answer to an id that does not exist and nothing changed."""
    before = snapshot(uneven_rooms.lyon_room)
    sealed, missing = send(client, uneven_rooms, uneven_rooms.lyon_room.pk), send(client, uneven_rooms, MISSING)
    if sealed.status_code != 404 or missing.status_code != 404:
        return f"{sealed.status_code} (an id that does not exist: {missing.status_code})"
    if answer(sealed) != answer(missing):
        return "not the answer to an id that does not exist"
    if snapshot(uneven_rooms.lyon_room) != before:
        return "the room changed"
    return ""


def answer(response):
    if response["Content-Type"].startswith("application/json"):
        return response.json()
    return page_body(response)


def opened_answer(response, endpoint) -> str:
    """What is wrong with the answer once the ranking is closed: a read answers as it did before the seal, a write
    anything but the 404 of the seal."""
    if endpoint.readable is None:
        return "" if response.status_code != 404 else "still sealed"
    return "" if response.status_code == endpoint.readable else f"{response.status_code}"


@pytest.mark.parametrize("name", sorted(ROOM_PAGES))
def test_a_room_ahead_is_sealed_from_its_organiser_playing_in_a_slower_room(client, uneven_rooms, alice, name):
    """Alice runs Lyon's room (stage 7) and plays in Grenoble's (4): every page of Lyon's room answers her as an id
    that does not exist, writes change nothing; once the ranking is closed, her room is hers again."""
    client.force_login(alice)
    assert sealed_answer(client, page_request(name), uneven_rooms) == ""
    close(uneven_rooms)
    assert opened_answer(page_request(name)(client, uneven_rooms, uneven_rooms.lyon_room.pk), ROOM_PAGES[name]) == ""


@pytest.mark.parametrize("key", sorted(ROOM_OPERATIONS))
def test_the_api_seals_a_room_ahead_from_its_organiser_playing_in_a_slower_room(client, uneven_rooms, alice, key):
    client.force_login(alice)
    assert sealed_answer(client, api_request(key), uneven_rooms) == ""
    close(uneven_rooms)
    assert opened_answer(api_request(key)(client, uneven_rooms, uneven_rooms.lyon_room.pk), ROOM_OPERATIONS[key]) == ""


def test_a_bearer_token_is_sealed_as_the_browser_is(client, uneven_rooms, alice):
    """The bulletins' hot path (`Round.objects.writable_by`, in SQL) asks too."""
    token = ApiToken.issue(alice)
    url = f"/api/duplicate/sessions/{uneven_rooms.lyon_room.pk}/rounds/3/scores"
    body = {"scores": [{"player": uneven_rooms.ann.pk, "score": 5}]}
    response = client.put(url, body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert (response.status_code, response.json()) == (404, {"detail": "Séance introuvable."})
    assert Result.objects.get(player=uneven_rooms.ann, round__number=3).score == 13


MEMBER_READS = [
    ("duplicate:session", 302),  # a member is sent to the recap
    ("duplicate:sheet", 302),
    ("duplicate:recap", 200),
    ("duplicate:game", 200),
]
MEMBER_API_READS = ["game", "results", "ranking", "ranking.csv"]


def member_reads(client, user, session) -> dict:
    client.force_login(user)
    pages = {name: client.get(reverse(name, args=[session.pk])).status_code for name, _status in MEMBER_READS}
    api_reads = {
        name: client.get(f"/api/duplicate/sessions/{session.pk}/{name}").status_code for name in MEMBER_API_READS
    }
    return pages | api_reads


def test_a_member_of_the_club_ahead_who_plays_in_or_runs_a_slower_room_reads_none_of_it(
    client, uneven_rooms, bob, bruno, charlie
):
    """Bruno plays in Grenoble's room, Charlie runs it: both are members of Lyon's club, whose room is ahead. Bob,
    Lyon's member in no room, reads it as any session of his club."""
    as_a_member = dict(MEMBER_READS) | dict.fromkeys(MEMBER_API_READS, 200)
    sealed = dict.fromkeys(as_a_member, 404)
    assert member_reads(client, bob, uneven_rooms.lyon_room) == as_a_member
    assert member_reads(client, bruno, uneven_rooms.lyon_room) == sealed
    assert member_reads(client, charlie, uneven_rooms.lyon_room) == sealed
    close(uneven_rooms)
    for user in (bob, bruno, charlie):
        assert member_reads(client, user, uneven_rooms.lyon_room) == as_a_member, user


def test_the_404_of_a_sealed_room_is_that_of_an_id_that_does_not_exist(client, uneven_rooms, bruno):
    client.force_login(bruno)
    for name in ("duplicate:recap", "duplicate:game", "duplicate:session"):
        sealed = client.get(reverse(name, args=[uneven_rooms.lyon_room.pk]))
        missing = client.get(reverse(name, args=[MISSING]))
        assert (sealed.status_code, page_body(sealed)) == (missing.status_code, page_body(missing))
    for name in MEMBER_API_READS:
        sealed = client.get(f"/api/duplicate/sessions/{uneven_rooms.lyon_room.pk}/{name}")
        assert (sealed.status_code, sealed.json()) == (404, {"detail": "Séance introuvable."})


def test_every_room_above_his_limit_is_sealed_his_slower_one_not(
    client, uneven_rooms, alice, bruno, charlie, bob, dave
):
    rooms = {uneven_rooms.lyon_room.pk: "A", uneven_rooms.grenoble_room.pk: "B", uneven_rooms.annecy_room.pk: "C"}

    def sealed(user):
        return sorted(rooms[pk] for pk in Session.objects.sealed_from(user).values_list("pk", flat=True))

    assert {user.username: sealed(user) for user in (alice, bruno, charlie, bob, dave)} == {
        "alice": ["A", "C"],
        "bruno": ["A", "C"],
        "charlie": ["A", "C"],
        "bob": [],  # in no room: the simultané seals nothing from him
        "dave": ["A"],  # above his room, which is his limit; not his club's anyway
    }
    # Annecy's room (5) is ahead of Grenoble's (4), but Dave runs no room there: his own is his limit.
    client.force_login(dave)
    assert client.get(reverse("duplicate:session", args=[uneven_rooms.annecy_room.pk])).status_code == 200
    assert len(client.get(f"/api/duplicate/sessions/{uneven_rooms.annecy_room.pk}/results").json()["rounds"]) == 2
    close(uneven_rooms)
    assert [sealed(user) for user in (alice, bruno, charlie, dave)] == [[], [], [], []]


def test_a_room_at_the_same_move_without_its_top_seals_the_one_that_revealed_it(uneven_rooms, bruno, client):
    """Grenoble's room draws move 3 without its top (stage 6) while Lyon's has revealed it (7): Lyon's top of move 3
    would be read ahead. It opens as soon as Grenoble's room reveals it."""
    second = uneven_rooms.grenoble_room.rounds.get(number=2)
    round_reveal_top(round_=second)
    round_add(session=uneven_rooms.grenoble_room)
    client.force_login(bruno)
    recap = reverse("duplicate:recap", args=[uneven_rooms.lyon_room.pk])
    assert client.get(recap).status_code == 404
    round_reveal_top(round_=uneven_rooms.grenoble_room.rounds.get(number=3))
    assert client.get(recap).status_code == 200
    round_add(session=uneven_rooms.lyon_room)  # Lyon's draw of move 4: ahead again
    assert client.get(recap).status_code == 404


def test_another_room_on_the_same_move_is_sealed_while_his_is_playing_it(uneven_rooms, bruno, client):
    """Trial of issue 22: Lyon's room and Grenoble's both had move N drawn, neither its top revealed; a Lyon member
    seated in Grenoble's room read Lyon's bulletins on that move (`…/results`: « 63, 10A ETAGEONS ») while he was
    still looking for his. Lyon's room opens once Grenoble's reveals the move."""
    round_reveal_top(round_=uneven_rooms.grenoble_room.rounds.get(number=2))
    round_add(session=uneven_rooms.grenoble_room)  # Grenoble: move 3 drawn (stage 6)
    # Lyon's room on move 3 too, its top not revealed (stage 6), a bulletin of 63 in.
    Round.objects.filter(session=uneven_rooms.lyon_room, number=3).update(top="", top_score=None)
    lyon_third = uneven_rooms.lyon_room.rounds.get(number=3)
    result_set(round_=lyon_third, player=uneven_rooms.ann, score=63)
    client.force_login(bruno)
    results = f"/api/duplicate/sessions/{uneven_rooms.lyon_room.pk}/results"
    recap = reverse("duplicate:recap", args=[uneven_rooms.lyon_room.pk])
    assert (client.get(results).status_code, client.get(recap).status_code) == (404, 404)
    round_reveal_top(round_=uneven_rooms.grenoble_room.rounds.get(number=3))  # Grenoble at 7, Lyon at 6
    assert (client.get(results).status_code, client.get(recap).status_code) == (200, 200)


def test_a_seat_he_is_invited_to_seals_as_one_he_accepted(client, uneven_rooms, bob, charlie):
    """Trial of issue 22: Grenoble's arbiter seated « @eve », a Lyon member who never answered the invitation and
    played from the seat's phone link: she read Lyon's room ahead (its results, recap, « Rejouer cette séance »)."""
    recap = reverse("duplicate:recap", args=[uneven_rooms.lyon_room.pk])
    client.force_login(bob)  # a plain member of Lyon's club, in no room: he reads it
    assert client.get(recap).status_code == 200
    client.force_login(charlie)
    players_add(session=uneven_rooms.grenoble_room, rows=[(9, "@bob")], by=charlie)
    invited = uneven_rooms.grenoble_room.players.get(table=9)
    assert (invited.member, invited.invitations.get().invitee) == (None, bob)
    client.force_login(bob)
    assert client.get(recap).status_code == 404
    assert client.get(f"/api/duplicate/sessions/{uneven_rooms.lyon_room.pk}/results").status_code == 404


def test_his_own_seat_in_a_room_ahead_of_the_one_he_runs_is_sealed_but_for_his_phone(
    client, uneven_rooms, alice, charlie
):
    """Charlie, who runs Grenoble's room, also takes a seat in Lyon's: his recap and his progress there wait for the
    ranking to close; his phone's link is given out in Lyon's room and stays his."""
    players_add(session=uneven_rooms.lyon_room, rows=[(3, "@charlie")], by=alice)
    accept_invitations(uneven_rooms.lyon_room.players.all())
    session_finish(session=uneven_rooms.lyon_room)
    seat = uneven_rooms.lyon_room.players.get(member=charlie)
    client.force_login(charlie)
    recap = reverse("duplicate:player_recap", args=[uneven_rooms.lyon_room.pk, seat.pk])
    assert client.get(recap).status_code == 404
    assert client.get(f"/api/duplicate/sessions/{uneven_rooms.lyon_room.pk}/players/{seat.pk}/recap").status_code == 404
    assert member_progress(charlie, ProgressFilters()).summary.played == 0
    assert client.get(reverse("duplicate:player", args=[seat.key])).status_code == 200
    close(uneven_rooms)
    assert client.get(recap).status_code == 200
    assert member_progress(charlie, ProgressFilters()).summary.played == 1


def test_the_simultanes_rooms_table_links_no_sealed_room(client, uneven_rooms, alice):
    client.force_login(alice)
    url = reverse("duplicate:simultane", args=[uneven_rooms.simultane.pk])

    def links():
        return {room.session.club.slug: link for room, link, _withdraws in client.get(url).context["rooms"]}

    grenoble_recap = reverse("duplicate:recap", args=[uneven_rooms.grenoble_room.pk])
    assert links() == {"lyon": "", "grenoble": grenoble_recap, "annecy": ""}  # her own console sealed
    close(uneven_rooms)
    assert links() == {
        "lyon": reverse("duplicate:session", args=[uneven_rooms.lyon_room.pk]),
        "grenoble": grenoble_recap,
        "annecy": "",
    }


def test_a_sealed_room_counts_in_no_tournament_nor_season_of_its_reader(client, uneven_rooms, alice, bob, bruno, lyon):
    session_finish(session=uneven_rooms.lyon_room)
    other = make_session(alice, lyon, players=["Ann"], date=datetime.date(2026, 1, 5))
    round_add(session=other, draw_text="VAGUEST", top_text="H4 VAGUE")
    session_finish(session=other)
    tournament = tournament_create(name="Coupe", creator=alice, sessions=[uneven_rooms.lyon_room, other])
    day = uneven_rooms.lyon_room.date
    season = Season.objects.create(club=lyon, name="Saison", start=datetime.date(2026, 1, 1), end=day)

    def counted(user):
        client.force_login(user)
        page = client.get(reverse("duplicate:tournament", args=[tournament.pk]))
        in_tournament = page.context["ranking"].sessions if page.status_code == 200 else None
        season_page = client.get(reverse("duplicate:season", args=[season.pk])).context["standing"].sessions
        api = client.get(f"/api/duplicate/seasons/{season.pk}/ranking").json()["rows"]
        return in_tournament, season_page, sorted((row["name"], row["sessions"]) for row in api)

    both = [other, uneven_rooms.lyon_room]
    assert counted(alice) == ([other], [other], [("Ann", 1)])
    assert counted(bruno) == (None, [other], [("Ann", 1)])  # the tournament is its organisers'
    assert counted(bob) == (None, both, [("Ann", 2), ("Ben", 1)])
    close(uneven_rooms)
    assert counted(alice) == (both, both, [("Ann", 2), ("Ben", 1)])
    assert counted(bruno) == (None, both, [("Ann", 2), ("Ben", 1)])


def test_a_sealed_room_is_not_replayed(client, uneven_rooms, bob, bruno, charlie):
    session_finish(session=uneven_rooms.lyon_room)
    client.force_login(bruno)
    assert client.post(reverse("duplicate:replay", args=[uneven_rooms.lyon_room.pk])).status_code == 404
    refusal = (
        "La séance rejouée est une salle de simultané en avance sur la vôtre : son rejeu attend l'arrêt du classement."
    )
    with pytest.raises(DuplicateError, match=refusal):
        session_replay(source=uneven_rooms.lyon_room, creator=bruno)
    # Bob, in no room, replays it; then he takes a seat in Grenoble's room: the rest of his replay waits.
    client.force_login(bob)
    assert client.post(reverse("duplicate:replay", args=[uneven_rooms.lyon_room.pk])).status_code == 302
    replay = Session.objects.get(replay_of=uneven_rooms.lyon_room)
    assert round_add(session=replay).draw == "VAGUEST"
    players_add(session=uneven_rooms.grenoble_room, rows=[(9, "@bob")], by=charlie)
    accept_invitations(uneven_rooms.grenoble_room.players.all())
    round_reveal_top(round_=replay.rounds.get())
    with pytest.raises(DuplicateError, match=refusal):
        round_add(session=replay)
    close(uneven_rooms)
    assert round_add(session=replay).draw == "ST+AIONX"


def test_a_member_takes_one_room_of_a_simultane(client, uneven_rooms, bruno, dave):
    players_add(session=uneven_rooms.annecy_room, rows=[(9, "@bruno")], by=dave)
    invitation = Invitation.objects.pending().get(invitee=bruno)
    with pytest.raises(InvitationRefused, match="Vous figurez déjà dans une autre salle de ce simultané."):
        invitation_accept(invitation=invitation, user=bruno)
    client.force_login(bruno)
    response = client.post(reverse("invitation_accept", args=[invitation.pk]), follow=True)
    assert "Vous figurez déjà dans une autre salle de ce simultané." in response.content.decode()
    assert not uneven_rooms.annecy_room.players.filter(member=bruno).exists()


def test_the_seal_costs_no_query_of_its_own_and_one_for_a_rooms_bulletin(client, uneven_rooms, alice, bruno, lyon):
    with CaptureQueriesContext(connection) as queries:
        list(Session.objects.visible_to(bruno))
    assert len(queries) == 1
    # A bulletin through the API (test_write_path): a session's takes the same queries as before, a room's one more.
    session = make_session(alice, lyon, players=["Ann"])
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    counts = []
    for room_, player in (
        (session, session.players.get()),
        (uneven_rooms.grenoble_room, uneven_rooms.grenoble_room.players.get(table=1)),
    ):
        token = ApiToken.issue(room_.creator)
        with CaptureQueriesContext(connection) as queries:
            response = client.put(
                f"/api/duplicate/sessions/{room_.pk}/rounds/1/scores",
                {"scores": [{"player": player.pk, "score": 5}]},
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Bearer {token}",
            )
        assert response.status_code == 200
        counts.append(sum(not query["sql"].startswith(("SAVEPOINT", "RELEASE")) for query in queries))
    assert counts == [5, 6]


# Every address and operation that names a session is in the tables above


def duplicate_url_names(resolver=None, inside=False):
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            yield from duplicate_url_names(pattern, inside or pattern.namespace == "duplicate")
        elif isinstance(pattern, URLPattern) and inside:
            yield pattern.name


def api_operations():
    return [
        f"{method} {prefix}{path}"
        for prefix, router in api._routers
        for path, view in router.path_operations.items()
        for operation in view.operations
        for method in operation.methods
        if f"{prefix}{path}".startswith("/duplicate/")
    ]


@pytest.mark.parametrize(
    ("found", "checked", "other", "request_for"),
    [
        (duplicate_url_names, ROOM_PAGES, OTHER_PAGES, page_request),
        (api_operations, ROOM_OPERATIONS, OTHER_OPERATIONS, api_request),
    ],
    ids=["pages", "api"],
)
def test_every_address_and_operation_seals_a_room_ahead_or_says_why_it_reads_none(
    client, uneven_rooms, alice, found, checked, other, request_for
):
    """Every address of duplicate/urls.py and every API operation under /api/duplicate/ is in a table: a new one
    must join the rooms' (and be sealed) or the others' (saying why it names no room)."""
    names = list(found())
    assert len(names) == len(set(names))
    assert sorted(set(names) - set(checked) - set(other)) == []  # new: which is it?
    assert sorted((set(checked) | set(other)) - set(names)) == []  # gone: out of its table
    assert not set(checked) & set(other)
    client.force_login(alice)
    problems = {name: sealed_answer(client, request_for(name), uneven_rooms) for name in names if name in checked}
    assert {name: problem for name, problem in problems.items() if problem} == {}


def test_a_sealed_room_of_his_is_listed_without_its_link(client, uneven_rooms, alice, charlie):
    """Alice runs Lyon's room (ahead) and sits in Grenoble's: her list named Lyon's room with a link answering 404."""
    client.force_login(alice)
    html = client.get(reverse("duplicate:list")).content.decode()
    assert uneven_rooms.lyon_room.name in html
    assert f'href="/duplicate/{uneven_rooms.lyon_room.pk}/"' not in html
    assert "Scellée : en avance sur votre autre salle de ce simultané, jusqu'à l'arrêt du classement" in html
    close(uneven_rooms)
    html = client.get(reverse("duplicate:list")).content.decode()
    assert f'href="/duplicate/{uneven_rooms.lyon_room.pk}/"' in html
    assert "Scellée" not in html
    client.force_login(charlie)  # runs Grenoble's room, the slowest: his own is not sealed
    html = client.get(reverse("duplicate:list")).content.decode()
    assert f'href="/duplicate/{uneven_rooms.grenoble_room.pk}/"' in html


def test_before_any_draw_nothing_is_sealed_for_a_room_at_the_same_stage(
    client, comite, eve, lyon, alice, grenoble, charlie, bruno
):
    """Second trial of issue 22: before any room had drawn, a Lyon member seated in Grenoble's room got a 404 on
    Lyon's room, which had nothing to show ahead of his own (the README's rule seals a room at his stage only
    while a move of his is being played)."""
    simultane = make_simultane(comite, eve)
    lyon_room = room(simultane, lyon, alice, ["Ann"])
    room(simultane, grenoble, charlie, ["Cid", "@bruno"])
    client.force_login(bruno)
    assert client.get(reverse("duplicate:recap", args=[lyon_room.pk])).status_code == 200


@pytest.fixture
def seated_without_consent(comite, eve, lyon, alice, annecy, dave):
    """Attacker's trial of issue 23: Dave, who runs Annecy's room, seats « @alice » there without asking her; Alice
    runs Lyon's room and has drawn and revealed its first move while Annecy's room has drawn nothing."""
    simultane = make_simultane(comite, eve)
    lyon_room = room(simultane, lyon, alice, ["Ann", "Ben"])
    annecy_lines = [PlayerLine(1, "Eve"), PlayerLine(2, "@alice")]
    annecy_room = simultanes.room_register(simultane=simultane, club=annecy, creator=dave, players=annecy_lines)
    start(simultane)
    play(lyon_room, 1)
    return lyon_room, annecy_room


def test_a_seat_given_without_her_consent_never_seals_the_room_she_runs(client, seated_without_consent, alice):
    lyon_room, annecy_room = seated_without_consent
    assert Invitation.objects.pending().get(invitee=alice)
    client.force_login(alice)
    console = reverse("duplicate:session", args=[lyon_room.pk])
    assert client.get(console).status_code == 200
    assert client.get(f"/api/duplicate/sessions/{lyon_room.pk}/results").status_code == 200
    # She goes on with her evening: the next move is hers to draw and reveal, and the ranking can close.
    response = client.post(f"/api/duplicate/sessions/{lyon_room.pk}/rounds", {}, content_type="application/json")
    assert response.status_code == 201, response.content
    assert Session.objects.sealed_from(alice).filter(pk=lyon_room.pk).exists() is False


def test_a_declined_invitation_seals_nothing(client, seated_without_consent, bob):
    """Bob, a plain member of Lyon's club, is seated « @bob » in Annecy's slower room: while he has not answered,
    Lyon's room ahead is sealed from him (issue 22: he could play from the seat's phone link); once he declines,
    he reads his club's room again."""
    lyon_room, annecy_room = seated_without_consent
    players_add(session=annecy_room, rows=[(3, "@bob")], by=annecy_room.creator)
    recap = reverse("duplicate:recap", args=[lyon_room.pk])
    client.force_login(bob)
    assert client.get(recap).status_code == 404
    invitation = Invitation.objects.pending().get(invitee=bob)
    response = client.post(reverse("invitation_decline", args=[invitation.pk]))
    assert response.status_code == 302
    assert Invitation.objects.get(pk=invitation.pk).status == Invitation.Status.DECLINED
    assert client.get(recap).status_code == 200
