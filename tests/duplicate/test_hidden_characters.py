"""Issue 23, "names that cannot lie on a ranking": `1;` then U+200B gave a player no one could see, `1;` then
U+202E and `evil` showed reversed on every ranking and export. A character that shows nothing or turns the text
around is refused in every name typed for a duplicate session, saying the line or the field it is in, and nothing
is saved; a first field written as a number that is no table (`-3;Bob`, `1e3;Bob`) is refused rather than read as
a name."""

import datetime
import html
import json

import pytest
from django.urls import reverse

from clubsite.models import ApiToken
from duplicate.models import Result, Season, Session, Simultane, Tournament
from duplicate.services.rounds import round_add
from scoring.models import Edition, RuleSet

from .conftest import make_session
from .test_season import season_form
from .test_views import new_session_form

pytestmark = pytest.mark.django_db

REFUSAL = "ne peut contenir de caractère invisible ou de contrôle de sens d'écriture"
ON_LINE = "caractère invisible ou de contrôle de sens d'écriture (%s) non accepté."
HIDDEN = {
    "zero_width_space": "\u200b",
    "right_to_left_override": "\u202e",
    "bell": "\x07",
    "byte_order_mark_inside": "\ufeff",
    "first_strong_isolate": "\u2068",
    "arabic_letter_mark": "\u061c",
}


def page(response) -> str:
    return html.unescape(response.content.decode())


def code(character: str) -> str:
    return f"U+{ord(character):04X}"


# The pages


def test_the_new_session_form_refuses_a_hidden_character_in_its_name_or_its_players(client, alice, lyon):
    client.force_login(alice)
    response = client.post("/duplicate/nouvelle/", new_session_form(name="Mardi\u200b", club=lyon.pk))
    assert response.status_code == 400
    assert response.context["form"].errors == {"name": [f"Un nom de séance {REFUSAL} (U+200B)."]}
    response = client.post("/duplicate/nouvelle/", new_session_form(club=lyon.pk, players="1;Anne\n2;\u202eevil"))
    assert response.status_code == 400
    assert f"Ligne 2 : {ON_LINE % 'U+202E'}" in page(response)
    assert not Session.objects.exists()


def test_players_added_to_a_session_are_refused_with_the_line(client, alice, lyon):
    session = make_session(alice, lyon, players=[(1, "Anne")])
    client.force_login(alice)
    response = client.post(f"/duplicate/{session.pk}/joueurs/", {"players": "2;Bruno\n3;Zo\u200bé"})
    assert response.status_code == 400
    assert f"Ligne 2 : {ON_LINE % 'U+200B'}" in page(response)
    assert list(session.players.values_list("name", flat=True)) == ["Anne"]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", "\u202eevil", f"Un nom de joueur {REFUSAL} (U+202E)."),
        ("name", "Anne\u200b", f"Un nom de joueur {REFUSAL} (U+200B)."),
        ("club", "Ly\x07on", f"Un nom de club {REFUSAL} (U+0007)."),
        ("series", "N\u20661", f"Une série {REFUSAL} (U+2066)."),
    ],
)
def test_a_players_row_refuses_a_hidden_character_and_keeps_him_as_he_was(client, alice, lyon, field, value, message):
    session = make_session(alice, lyon, players=[(1, "Anne")])
    anne = session.players.get()
    changes = session.changes.count()
    client.force_login(alice)
    form = {"name": "Anne", "table": "1", "licence": "", "club": "", "series": ""} | {field: value}
    response = client.post(f"/duplicate/{session.pk}/joueurs/{anne.pk}/", form)
    assert response.status_code == 400
    assert f'<p id="edit-{anne.pk}-error" class="error" role="alert">{message}</p>' in page(response)
    anne.refresh_from_db()
    assert (anne.name, anne.club_name, anne.series) == ("Anne", "", "")
    assert session.changes.count() == changes


def test_a_move_typed_with_a_hidden_character_is_refused_naming_it(client, session, alice):
    """The notation's own refusal quoted the character, which shows nothing: « Caractère non accepté : «  » »."""
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    player = session.players.get(table=2)
    client.force_login(alice)
    response = client.post(f"/duplicate/{session.pk}/coups/1/resultats/{player.pk}/", {"move": "H4 VA\u200bGUE"})
    assert response.status_code == 400
    assert f"Un coup {REFUSAL} (U+200B)." in page(response)
    assert not Result.objects.exists()


def test_a_new_session_with_the_same_players_says_why_its_name_is_refused(client, session, alice):
    client.force_login(alice)
    response = client.post(
        f"/duplicate/{session.pk}/nouvelle-seance/", {"name": "Mardi\u202e (2)", "date": "2026-11-25"}
    )
    assert response.status_code == 400
    assert f"Un nom de séance {REFUSAL} (U+202E)." in page(response)
    assert Session.objects.count() == 1


def test_a_tournament_name_is_refused(client, alice, lyon):
    sessions = [make_session(alice, lyon).pk, make_session(alice, lyon).pk]
    client.force_login(alice)
    response = client.post("/duplicate/tournois/", {"name": "Coupe\u200b", "sessions": sessions})
    assert response.status_code == 400
    assert response.context["form"].errors == {"name": [f"Un nom de tournoi {REFUSAL} (U+200B)."]}
    assert not Tournament.objects.exists()


def test_a_season_name_is_refused(client, alice, lyon):
    client.force_login(alice)
    response = client.post("/duplicate/saisons/", season_form(lyon, name="Saison \u202e2026"))
    assert response.status_code == 400
    assert response.context["form"].errors == {"name": [f"Un nom de saison {REFUSAL} (U+202E)."]}
    assert not Season.objects.exists()


def test_a_simultane_name_is_refused(client, comite, eve):
    client.force_login(eve)
    data = {
        "name": "Simultané\u2067 de Noël",
        "body": comite.pk,
        "starts_at": (datetime.date.today() + datetime.timedelta(days=30)).strftime("%Y-%m-%dT14:00"),
        "edition": Edition.objects.get(code="fr").pk,
        "rule_set": RuleSet.objects.get(code="tournoi").pk,
        "move_seconds": "180",
    }
    response = client.post(reverse("duplicate:simultane_new"), data)
    assert response.status_code == 400
    assert response.context["form"].errors == {"name": [f"Un nom de simultané {REFUSAL} (U+2067)."]}
    assert not Simultane.objects.exists()


# The API


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({"name": "Mardi\u202e"}, f"Champ « name » : {ON_LINE % 'U+202E'}"),
        ({"players": ["Anne", "\u200b"]}, f"Champ « players.1 » : {ON_LINE % 'U+200B'}"),
        ({"players": ["Anne\x1b[31m"]}, f"Champ « players.0 » : {ON_LINE % 'U+001B'}"),
    ],
)
def test_the_api_refuses_a_hidden_character_naming_its_field(client, alice, lyon, body, detail):
    token = ApiToken.issue(alice)
    response = client.post(
        "/api/duplicate/sessions",
        json.dumps({"name": "Mardi", "players": ["Anne", "Bruno"], "club": lyon.pk} | body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert (response.status_code, response.json()) == (422, {"detail": detail})
    assert not Session.objects.exists()
