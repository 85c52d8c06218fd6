"""The progress page (issue 15): each app's section for the member himself, its filters, what a bad filter gets,
and a number of queries that does not grow with his sessions and games. The numbers themselves are checked in
tests/duplicate/test_progress.py and tests/sheets/test_progress.py."""

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from clubsite.progress import ProgressFilters, member_progress, sections
from tests.duplicate.conftest import play_the_evening
from tests.duplicate.test_progress import bobs_session
from tests.sheets.test_progress import finished

pytestmark = pytest.mark.django_db

URL = "/compte/progres/"


@pytest.fixture
def bobs_numbers(alice, bob, lyon):
    """The Lyon evening (58.6 %), every top in Lyon (100 %), a personal session (82.8 %), a classic game lost to
    Alice (27 against 43)."""
    play_the_evening(alice, lyon, linked="bob")
    bobs_session(alice, lyon, ["H4 VAGUE", 18, "L4 SEXE", "J3 SOUHAITE"], date=datetime.date(2026, 12, 1))
    bobs_session(bob, None, [20, 10, 5, 71], date=datetime.date(2027, 1, 10))
    finished(alice, ("Alice", "Bob"), [alice, bob], [40, 30], {0: "", 1: "EAU"})


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def figure(response, name: str) -> str:
    found = re.search(rf'id="progress-{name}">([^<]*)<', response.content.decode())
    return found.group(1).strip() if found else ""


def test_the_apps_declare_their_sections():
    assert [(str(section.title), section.template_name) for section in sections()] == [
        ("Duplicate", "duplicate/includes/progress.html"),
        ("Parties classiques", "sheets/includes/progress.html"),
    ]


def test_it_shows_his_numbers(bob, bobs_numbers):
    response = client_of(bob).get(URL)
    assert response.status_code == 200
    shown = {name: figure(response, name) for name in ("sessions", "average", "best", "solos", "scrabbles")}
    assert shown == {"sessions": "3", "average": "80,5", "best": "100,0", "solos": "7", "scrabbles": "2 / 3"}
    assert {name: figure(response, name) for name in ("games", "won", "lost", "score", "best-score")} == {
        "games": "1",
        "won": "0",
        "lost": "1",
        "score": "27,0",
        "best-score": "27",
    }
    html = response.content.decode()
    assert "<svg" in html and 'points="44.0,154.4 194.0,12.0 344.0,71.2"' in html
    assert "24/11/26" in html and "10/01/27" in html


def test_it_filters_by_club_and_period(bob, bobs_numbers):
    response = client_of(bob).get(URL, {"club": "lyon", "du": "2026-11-01", "au": "2026-11-30"})
    assert response.status_code == 200
    assert (figure(response, "sessions"), figure(response, "average")) == ("1", "58,6")
    assert "Une partie classique n'appartient à aucun club" in response.content.decode()
    response = client_of(bob).get(URL, {"club": "", "du": "01/12/2026", "au": ""})  # the French format is read too
    assert (figure(response, "sessions"), figure(response, "average")) == ("2", "91,4")  # (100 + 82.8) / 2


def test_the_empty_state_says_so(charlie):
    html = client_of(charlie).get(URL).content.decode()
    assert "Aucune séance terminée pour l’instant." in html  # no period asked for (issue 15's trial)
    assert "Aucune partie terminée pour l’instant." in html
    assert "<svg" not in html
    html = client_of(charlie).get(URL, {"du": "2026-11-01"}).content.decode()
    assert "Aucune séance terminée sur cette période." in html
    assert "Aucune partie terminée sur cette période." in html


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ({"club": "grenoble"}, "club", "Choisissez l&#x27;un de vos clubs."),
        ({"club": "nulle-part"}, "club", "Choisissez l&#x27;un de vos clubs."),
        ({"du": "2026-02-30"}, "du", "Saisissez une date valide."),
        ({"au": "demain"}, "au", "Saisissez une date valide."),
        ({"du": "2026-12-01", "au": "2026-11-01"}, "au", "La fin de la période précède son début."),
    ],
)
def test_a_bad_filter_is_said_on_its_field(bob, grenoble, bobs_numbers, query, field, message):
    response = client_of(bob).get(URL, query)
    assert response.status_code == 400
    html = response.content.decode()
    assert f'<span class="error" id="id_{field}_error">{message}</span>' in html
    assert "Corrigez le filtre pour voir vos chiffres." in html
    assert 'id="progress-sessions"' not in html


def test_a_visitor_is_sent_to_log_in(client):
    response = client.get(URL)
    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={URL}"


def test_he_sees_only_his_own_numbers(alice, bob, bobs_numbers):
    """Alice, who ran two of Bob's sessions and played the classic game, sees her own numbers only: she played no
    session, and won the game (43). No parameter names another member."""
    response = client_of(alice).get(URL, {"user": bob.pk, "membre": "bob"})
    assert response.status_code == 200
    assert 'id="progress-sessions"' not in response.content.decode()
    assert (figure(response, "won"), figure(response, "best-score")) == ("1", "43")


def test_its_queries_do_not_grow_with_his_sessions(alice, bob, lyon, django_assert_max_num_queries):
    for day in range(1, 9):
        bobs_session(alice, lyon, [26, 18, 13, 71], date=datetime.date(2026, 12, day))
        finished(alice, ("Alice", "Bob"), [alice, bob], [40, 30], {0: "", 1: "EAU"})
    client = client_of(bob)
    with django_assert_max_num_queries(20):
        response = client.get(URL)
    assert figure(response, "sessions") == "8"
    assert figure(response, "games") == "8"


def test_the_account_page_and_his_lists_link_to_it(bob):
    client = client_of(bob)
    for page in ("/compte/", "/parties/", "/duplicate/"):
        assert f'href="{URL}"' in client.get(page).content.decode(), page


def test_the_page_is_the_sum_of_the_sections(bob, bobs_numbers):
    sections = member_progress(bob, ProgressFilters())
    assert [(str(section.title), sorted(context)) for section, context in sections] == [
        ("Duplicate", ["duplicate", "filters"]),
        ("Parties classiques", ["classic", "filters"]),
    ]


def test_the_filters_say_what_is_counted(lyon):
    assert ProgressFilters().description() == ""
    assert ProgressFilters(club=lyon).description() == "Club de Lyon"
    period = ProgressFilters(start=datetime.date(2026, 3, 1), end=datetime.date(2026, 5, 31))
    assert period.description() == "du 1 mars 2026 au 31 mai 2026"
    assert ProgressFilters(club=lyon, start=datetime.date(2026, 3, 1)).description() == (
        "Club de Lyon · depuis le 1 mars 2026"
    )
    assert ProgressFilters(end=datetime.date(2026, 5, 31)).description() == "jusqu'au 31 mai 2026"
