"""Issue 12: the scoring API and the searches are throttled per client, by ninja's throttles counting in the
default cache (shared by every process): a visitor by address, a member by account, at the rates of
settings.NINJA_DEFAULT_THROTTLE_RATES. A refused request gets 429 and a French sentence."""

import json

import pytest
from ninja.throttling import SimpleRateThrottle

from clubsite.models import RateWindow

pytestmark = pytest.mark.django_db

REFUSAL = "Trop de demandes en peu de temps : réessayez dans 60 s."


@pytest.fixture(autouse=True)
def small_rates(settings, monkeypatch):
    settings.NINJA_DEFAULT_THROTTLE_RATES = {
        "visitor_api": "3/min",
        "member_api": "5/min",
        "visitor_search": "2/min",
        "member_search": "4/min",
    }
    # The throttles' clock stands still, so that the wait they announce is exactly the minute.
    monkeypatch.setattr(SimpleRateThrottle, "timer", staticmethod(lambda: 1_000_000.0))


def words(client, **extra):
    return client.post("/api/words", json.dumps({"letters": "KIWI"}), content_type="application/json", **extra)


def score(client):
    return client.post("/api/score", json.dumps({"move": "H4 VAGUE"}), content_type="application/json")


def test_a_visitors_searches_past_the_rate_get_429_in_french(client):
    assert [words(client).status_code for _ in range(2)] == [200, 200]
    response = words(client)
    assert (response.status_code, response.json()) == (429, {"detail": REFUSAL})
    assert response["Retry-After"] == "60"
    top = client.post("/api/top", json.dumps({"rack": "KIWI"}), content_type="application/json")
    assert (top.status_code, top.json()) == (429, {"detail": REFUSAL})


def test_the_count_is_kept_where_every_process_reads_it(client):
    words(client)
    words(client)
    window = RateWindow.objects.get(key="throttle_visitor_search_127.0.0.1")
    assert (window.hits, window.expires) == (2, 1_000_060.0)


def test_the_word_finder_page_counts_with_the_api(client):
    assert words(client).status_code == 200
    assert client.post("/mots/", {"letters": "KIWI"}).status_code == 200
    response = client.post("/mots/", {"letters": "KIWI"})
    assert (response.status_code, response["Retry-After"]) == (429, "60")  # as the API says it (issue 23)
    assert f'<p class="error" role="alert">{REFUSAL}</p>' in response.content.decode()
    assert client.get("/mots/").status_code == 200  # the empty page computes nothing


def test_the_grids_best_moves_count_as_searches(client):
    words(client)
    words(client)
    response = client.post("/grille/", {"rack": "KIWI", "action": "best"})
    assert (response.status_code, response["Retry-After"]) == (429, "60")
    assert f'<p class="error" role="alert">{REFUSAL}</p>' in response.content.decode()
    typed = client.post("/grille/", {"start": "H8", "direction": "h", "letters": "KIWI"})
    assert typed.status_code == 200  # counting a move is no search


def test_each_address_is_counted_apart(client):
    words(client)
    words(client)
    assert words(client).status_code == 429
    assert words(client, REMOTE_ADDR="192.0.2.7").status_code == 200


def test_a_forged_forwarded_for_is_the_same_client(client):
    words(client)
    words(client)
    assert words(client, HTTP_X_FORWARDED_FOR="198.51.100.1").status_code == 429


def test_behind_a_proxy_the_address_it_appends_is_the_clients(client, settings):
    settings.TRUSTED_PROXIES = 1
    first = {"HTTP_X_FORWARDED_FOR": "forged, 198.51.100.1"}
    words(client, **first)
    words(client, **first)
    assert words(client, **first).status_code == 429
    assert words(client, HTTP_X_FORWARDED_FOR="198.51.100.2").status_code == 200


def test_a_member_has_his_own_higher_rate(client, alice):
    words(client)
    words(client)
    client.force_login(alice)
    assert [words(client).status_code for _ in range(5)] == [200, 200, 200, 200, 429]
    assert words(client, REMOTE_ADDR="192.0.2.7").status_code == 429  # counted by account, not by address


def test_the_scoring_api_has_its_own_rate(client):
    assert [score(client).status_code for _ in range(4)] == [200, 200, 200, 429]
    assert score(client).json() == {"detail": REFUSAL}
    assert words(client).status_code == 200
