"""Issue 23, "names that cannot lie on a ranking": a score sheet's player named with a character that shows nothing
(U+200B) or turns the text around (U+202E) is refused on the new game's form, from the browser's sheet and in a
GCG file (with its line), and no game is created; a GCG file may still begin with UTF-8's byte order mark."""

import html
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from scoring.models import RuleSet
from sheets.models import Game

from .test_local_sheet import SAVE_URL, local_game

pytestmark = pytest.mark.django_db

REFUSAL = "ne peut contenir de caractère invisible ou de contrôle de sens d'écriture"
ON_LINE = "caractère invisible ou de contrôle de sens d'écriture (%s) non accepté."
PLAYS = b">ann: AEGUV?? 8D VAGUE +26 26\n>ben: AEINST? - +0 0\n"


def page(response) -> str:
    return html.unescape(response.content.decode())


def import_gcg(client, content: bytes):
    upload = SimpleUploadedFile("partie.gcg", content, content_type="text/plain")
    return client.post("/parties/importer/", {"file": upload, "rule_set": RuleSet.objects.get(code="tournoi").pk})


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name2", "\u202eevil", f"Un nom de joueur {REFUSAL} (U+202E)."),
        ("name1", "\u200b", f"Un nom de joueur {REFUSAL} (U+200B)."),
        # An address without an account names the seat by its part before "@".
        ("member2", "\u202eevil@example.org", f"Un nom d'utilisateur ou une adresse {REFUSAL} (U+202E)."),
    ],
)
def test_the_new_game_form_refuses_a_name_that_would_lie_on_the_sheet(client, alice, field, value, message):
    client.force_login(alice)
    data = {"name1": "Ann", "name2": "Ben", "edition": 1, "rule_set": 1, "timer_seconds": 0} | {field: value}
    response = client.post("/parties/nouvelle/", data)
    assert response.status_code == 400
    assert response.context["form"].errors == {field: [message]}
    assert not Game.objects.exists()


def test_the_browsers_sheet_is_not_saved_with_such_a_name(client, alice):
    client.force_login(alice)
    body = json.dumps(local_game(players=["Claire", "Pa\u2069ul"]))
    response = client.post(SAVE_URL, body, content_type="application/json")
    assert (response.status_code, response.json()) == (422, {"detail": f"Un nom de joueur {REFUSAL} (U+2069)."})
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("content", "line", "character"),
    [
        (b"#player1 ann Ann\n#player2 ben B\xe2\x80\xaeen\n" + PLAYS, 3, "U+202E"),  # a name
        (b"#player1 a\xe2\x80\x8bnn Ann\n#player2 ben Ben\n" + PLAYS.replace(b"ann", b"a\xe2\x80\x8bnn"), 2, "U+200B"),
        (b"#player1 ann Ann\n#player2 ben Ben\n>ann: AEGUV?? 8D VAG\xef\xbb\xbfUE +26 26\n", 4, "U+FEFF"),  # a move
    ],
    ids=["name", "nick", "move"],
)
def test_a_gcg_file_is_refused_with_the_line_that_holds_it(client, alice, content, line, character):
    client.force_login(alice)
    response = import_gcg(client, b"#character-encoding UTF-8\n" + content)
    assert response.status_code == 400
    assert f"Ligne {line} : {ON_LINE % character}" in page(response)
    assert not Game.objects.exists()
    # A note, which the sheet does not keep, may hold one.
    note = b"#character-encoding UTF-8\n#note relue\xe2\x80\x8b\n#player1 ann Ann\n#player2 ben Ben\n" + PLAYS
    assert import_gcg(client, note).status_code == 302
    assert list(Game.objects.get().players.values_list("name", flat=True)) == ["Ann", "Ben"]


def test_a_gcg_file_may_begin_with_the_byte_order_mark_of_utf8(client, alice):
    client.force_login(alice)
    content = "\ufeff#character-encoding UTF-8\n#player1 ann Ann Dupré\n#player2 ben Ben\n".encode() + PLAYS
    assert import_gcg(client, content).status_code == 302
    assert list(Game.objects.get().players.values_list("name", flat=True)) == ["Ann Dupré", "Ben"]
