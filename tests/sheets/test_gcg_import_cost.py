"""Issue 23: "Importer un fichier GCG" re-scores every move of a file of up to 64 KB and 400 moves. Each line was an
insert of its own, and each withdrawn phony a save and a replay of the board read back from the database; the lines
are now written together once the file is read through, and a phony withdrawn at once gives back the board as it was
before its move. Each file sent counts against the member's rate of imports, DJANGO_RATE_IMPORT_MEMBER."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from ninja.throttling import SimpleRateThrottle

from scoring.models import RuleSet
from sheets.gcg_files import MAX_MOVES
from sheets.models import Game, Line
from sheets.sheet import build_sheet

pytestmark = pytest.mark.django_db

HEAD = "#player1 ann Ann\n#player2 bob Bob\n"


def phonies(count: int) -> str:
    """`count` moves: VAGUE played at H4 by one player and withdrawn by the other's challenge, turn by turn, the board
    empty again after each."""
    lines = []
    for number in range(count // 2):
        nick = ("ann", "bob")[number % 2]
        lines += [f">{nick}: AEGUVXX 8D VAGUE +26 26", f">{nick}: AEGUVXX -- -26 0"]
    return HEAD + "\n".join(lines) + "\n"


def imported(client, record: str):
    upload = SimpleUploadedFile("partie.gcg", record.encode())
    response = client.post("/parties/importer/", {"file": upload, "rule_set": RuleSet.objects.get(code="tournoi").pk})
    assert response.status_code == 302, response.content.decode()[-2000:]
    return Game.objects.order_by("pk").last()


def test_an_import_of_400_moves_costs_as_many_queries_as_one_of_4(client, alice, django_assert_max_num_queries):
    client.force_login(alice)
    imported(client, phonies(4))  # the engine's objects and the site's settings loaded once, as in a running worker
    with django_assert_max_num_queries(100) as short:
        imported(client, phonies(4))
    with django_assert_max_num_queries(len(short)):
        game = imported(client, phonies(MAX_MOVES))
    assert game.lines.count() == MAX_MOVES // 2  # a phony is no line: it withdraws the move before it
    assert set(game.lines.values_list("kind", "points")) == {(Line.Kind.WITHDRAWN, 0)}


def test_a_phony_withdrawn_at_once_empties_the_squares_its_move_took(client, alice):
    client.force_login(alice)
    game = imported(
        client, HEAD + ">ann: AEGUVXX 8D VAGUE +26 26\n>ann: AEGUVXX -- -26 0\n>bob: AEGUVXX 8D VAGUE +26 26\n"
    )
    assert [(line.kind, line.move, line.points) for line in game.lines.all()] == [
        (Line.Kind.WITHDRAWN, "", 0),
        (Line.Kind.PLAY, "H4 VAGUE", 26),  # H4 again: the first move of the board, worth its 26
    ]
    assert build_sheet(game).board.tile_count == 5


def test_a_phony_withdrawn_after_another_move_takes_that_one_off_too(client, alice):
    """A move laid on the withdrawn one's letters no longer fits the board: the next move is read without both."""
    client.force_login(alice)
    record = HEAD + (
        ">ann: AEGUVXX 8D VAGUE +26 26\n>bob: AINOSXY D7 A.IONS +18 18\n>ann: AEGUVXX -- -26 0\n"
        ">bob: AEGUVXX 8D VAGUE +26 44\n"
    )
    game = imported(client, record)
    assert [(line.kind, line.move, line.points) for line in game.lines.all()] == [
        (Line.Kind.WITHDRAWN, "", 0),
        (Line.Kind.PLAY, "4G AVIONS", 18),
        (Line.Kind.PLAY, "H4 VAGUE", 26),
    ]
    assert build_sheet(game).board.tile_count == 5


@pytest.fixture
def three_imports_an_hour(settings, monkeypatch):
    settings.NINJA_DEFAULT_THROTTLE_RATES = {**settings.NINJA_DEFAULT_THROTTLE_RATES, "member_import": "3/hour"}
    # The throttles' clock stands still, so that the wait they announce is exactly the hour.
    monkeypatch.setattr(SimpleRateThrottle, "timer", staticmethod(lambda: 1_000_000.0))


def test_the_fourth_import_in_the_hour_is_refused_and_reads_nothing(client, alice, bob, three_imports_an_hour):
    client.force_login(alice)
    for _ in range(3):
        imported(client, phonies(2))
    upload = SimpleUploadedFile("partie.gcg", phonies(2).encode())
    response = client.post("/parties/importer/", {"file": upload, "rule_set": RuleSet.objects.get(code="tournoi").pk})
    assert (response.status_code, response["Retry-After"]) == (429, "3600")
    assert (
        '<p class="error" role="alert">Trop de demandes en peu de temps : réessayez dans 60 min.</p>'
        in response.content.decode()
    )
    assert Game.objects.count() == 3
    assert client.get("/parties/importer/").status_code == 200  # the page itself is not counted
    client.force_login(bob)  # each member his own count
    imported(client, phonies(2))
    assert Game.objects.count() == 4


def test_the_default_leaves_room_for_a_season_of_records(settings):
    assert settings.NINJA_DEFAULT_THROTTLE_RATES["member_import"] == "60/hour"
