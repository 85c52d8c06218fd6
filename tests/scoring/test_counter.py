"""The typed counter at /: scored in the visitor's browser, by the server for a form sent without JavaScript, a
button or a share link; never stored, shareable on request."""

import base64
import json
import re

import pytest
from django.contrib.sessions.models import Session
from django.utils.translation import gettext

from scoring.browser import SCRIPT_SENTENCES, counter_texts
from scoring.engine.figures import counter_figures
from scoring.models import Edition, RuleSet

from .test_score_rules_js import SENTENCES

pytestmark = pytest.mark.django_db

TOO_MANY_TILES = "Plus de jetons posés que le chevalet n&#x27;en porte : marquez ceux qui étaient déjà sur le plateau."
ECOLES = {"words": "1", "edition": "fr", "w0": "écoles", "w0_1_sq": "LD", "w0_5_sq": "MD"}


def page(response) -> str:
    """The page as shown: the <template>s the browser copies from left out."""
    return re.sub(r"<template .*?</template>", "", response.content.decode(), flags=re.S)


def calculations(response):
    return re.findall(r'<output class="calculation"[^>]*>(.*?)</output>', page(response))


def json_script(response, name):
    return json.loads(re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', page(response))[1])


def total(response):
    match = re.search(r'id="total">(\d+)<', response.content.decode())
    return int(match[1]) if match else None


def test_empty_counter_invites_to_type(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "Tapez un mot : chaque lettre devient un jeton." in response.content.decode()
    assert 'name="w0"' in response.content.decode()


def test_ecoles_without_javascript(client):
    response = client.post("/", ECOLES)
    assert response.status_code == 200
    assert calculations(response) == ['<span class="word-name">ECOLES</span> (1 + 3 × 2 + 1 + 1 + 1 + 1) × 2 = 22']
    assert total(response) == 22
    assert 'id="tiles-placed">6<' in response.content.decode()


def test_nothing_typed_is_sent_as_it_is_typed(client):
    """The page counts in the browser: the form is posted by a button only, never on a letter or a tile's change."""
    html = page(client.post("/", ECOLES))
    assert html.count("hx-post") == 1
    assert 'hx-post="/" hx-target="#counter" hx-swap="outerHTML" hx-trigger="submit"' in html
    assert "hx-trigger" not in html.replace('hx-trigger="submit"', "")


def test_a_button_sent_by_htmx_redraws_the_counter(client):
    response = client.post("/", {**ECOLES, "action": "share"}, HTTP_HX_REQUEST="true")
    assert (response["HX-Retarget"], response["HX-Reselect"], response["HX-Reswap"]) == (
        "#counter",
        "#counter",
        "outerHTML",
    )
    assert total(response) == 22
    assert 'id="share-url"' in response.content.decode()


def test_the_page_gives_the_browser_its_figures_and_sentences(client):
    response = client.get("/")
    figures = json_script(response, "counter-figures")
    codes = list(Edition.objects.values_list("code", flat=True))
    assert [edition["code"] for edition in figures["editions"]] == codes and len(codes) == 9
    engine = counter_figures([Edition.objects.engine(code) for code in codes], RuleSet.objects.engine())
    assert figures == json.loads(json.dumps(engine))
    assert figures["rules"]["bingo_bonus"] == 50 and figures["editions"][codes.index("fr")]["values"]["Z"] == 10
    texts = json_script(response, "counter-texts")
    assert texts == counter_texts()
    assert texts["total"] == {"one": "Total : %(score)s point", "other": "Total : %(score)s points"}
    assert texts["locale"] == "fr"


def test_the_pages_sentences_are_the_ones_the_script_is_held_to(client):
    """test_score_rules_js.py proves score_rules.js with its own copy of the sentences: the page gives the same."""
    texts = counter_texts()
    expected = {name: gettext(template) for name, template in SENTENCES.items() if isinstance(template, str)}
    assert {name: texts[name] for name in SCRIPT_SENTENCES} == expected
    for name in ("total", "bonus"):
        singular, plural = SENTENCES[name]
        assert texts[name] == {"one": singular, "other": plural}
    assert set(SENTENCES) == {*SCRIPT_SENTENCES, "total", "bonus"}


def test_one_point_is_singular(client):
    html = page(client.post("/", {"w0": "A"}))
    assert '<p class="total">Total : <strong id="total">1</strong> point</p>' in html
    assert "Jetons posés depuis le chevalet : 1\nTotal : 1 point</pre>" in html
    html = page(client.post("/", {"w0": "A", "w0_0_bl": "1"}))
    assert '<p class="total">Total : <strong id="total">0</strong> point</p>' in html
    html = page(client.post("/", {"w0": "AS"}))
    assert '<p class="total">Total : <strong id="total">2</strong> points</p>' in html


def test_secondary_words_and_the_seven_tile_bonus(client):
    data = {"words": "2", "w0": "MOUTONS", "w0_0_sq": "LD", "w0_4_sq": "MD", "w1": ""}
    response = client.post("/", data)
    assert total(response) == 70
    html = response.content.decode()
    assert '<p class="bonus">Prime pour 7 jetons posés : +50</p>' in html
    assert "Jetons posés depuis le chevalet : 7\nPrime pour 7 jetons posés : +50\nTotal : 70 points</pre>" in html


def test_the_bonus_line_names_the_rule_sets_rack(client):
    """The rack and its bonus are the admin's: a rule set of six tiles and 40 points says so, not « sept »."""
    rules = RuleSet.objects.get(is_default=True)
    rules.rack_size, rules.bingo_bonus = 6, 40
    rules.save()
    response = client.post("/", {"w0": "MOUTON"})
    html = response.content.decode()
    assert total(response) == 7 + 40
    assert '<p class="bonus">Prime pour 6 jetons posés : +40</p>' in html
    assert "Jetons posés depuis le chevalet : 6\nPrime pour 6 jetons posés : +40\nTotal : 47 points</pre>" in html
    html = client.post("/grille/", {"start": "H3", "letters": "MOUTON"}).content.decode()
    assert '<p class="bonus">Prime pour 6 jetons posés : +40</p>' in html
    html = client.post("/", {"w0": "MOUTONS"}).content.decode()  # seven new tiles: more than this rack
    assert f'<p class="warning" role="alert">{TOO_MANY_TILES}</p>' in html


def test_cafe_and_fonde_as_two_words(client):
    data = {"words": "2", "w0": "CAFÉ", "w0_0_sq": "MD", "w1": "FONDE"}
    data.update({f"w1_{j}_on": "1" for j in range(1, 5)})
    response = client.post("/", data)
    assert total(response) == 27


def test_more_than_seven_new_tiles_shows_the_message_and_no_total(client):
    response = client.post("/", {"w0": "ANTICONSTITUTION"[:9]})
    html = response.content.decode()
    assert f'<p class="warning" role="alert">{TOO_MANY_TILES}</p>' in html
    assert total(response) is None


def test_a_digit_gets_an_inline_message_and_no_total(client):
    response = client.post("/", {"w0": "VA3UE"})
    assert "Caractère non accepté : « 3 ». Seules les lettres sont admises." in response.content.decode()
    assert total(response) is None


def test_letter_the_edition_lacks_is_a_blank_from_the_start(client):
    response = client.post("/", {"edition": "es", "w0": "KIWI"})
    html = response.content.decode()
    assert 'name="w0_0_bl" value="1" checked disabled' in html
    assert total(response) == 2  # K and W are blanks in Spanish: 0 + 1 + 0 + 1


def test_add_and_remove_secondary_words(client):
    response = client.post("/", {"words": "1", "w0": "EX", "action": "add"})
    assert 'name="w1"' in response.content.decode()
    response = client.post("/", {"words": "3", "w0": "EX", "w1": "AB", "w2": "CD", "action": "remove-1"})
    html = response.content.decode()
    assert 'name="w2"' not in html
    assert 'value="CD"' in html


def test_at_most_seven_secondary_words(client):
    data = {"words": "8", **{f"w{i}": "AB" for i in range(8)}, "action": "add"}
    html = page(client.post("/", data))
    assert 'name="w8"' not in html
    assert '<button type="submit" name="action" value="add" hidden>Ajouter un mot secondaire</button>' in html
    html = page(client.post("/", {"words": "7", **{f"w{i}": "AB" for i in range(7)}}))
    assert '<button type="submit" name="action" value="add">Ajouter un mot secondaire</button>' in html


def test_share_link_restores_every_setting(client):
    response = client.post("/", {**ECOLES, "w0_2_bl": "1", "action": "share"})
    link = re.search(r'id="share-url" type="text" readonly value="([^"]+)"', response.content.decode())[1]
    assert link.startswith("http://testserver/?etat=")
    restored = client.get(link.removeprefix("http://testserver"))
    assert restored.status_code == 200
    assert calculations(restored) == ['<span class="word-name">ECoLES</span> (1 + 3 × 2 + 0 + 1 + 1 + 1) × 2 = 20']


def test_a_share_link_is_signed_and_a_forged_one_refused(client):
    response = client.post("/", {**ECOLES, "action": "share"})
    token = re.search(r'\?etat=([^"]+)"', response.content.decode())[1]
    assert ":" in token  # the signature follows the payload
    payload, signature = token.rsplit(":", 1)
    forged = client.get("/?etat=" + payload + ":" + signature[::-1])
    assert forged.status_code == 400
    assert "Ce lien de partage est illisible" in forged.content.decode()
    unsigned = base64.urlsafe_b64encode(b'{"e":"fr","c":0,"w":[["ZZZZ",[]]]}').decode()
    assert client.get("/?etat=" + unsigned).status_code == 400


def test_a_broken_share_link_is_a_400_with_a_message(client):
    response = client.get("/?etat=nimporte-quoi")
    assert response.status_code == 400
    assert "Ce lien de partage est illisible : il a peut-être été coupé." in response.content.decode()


def test_typed_letters_are_not_stored(client):
    client.post("/", ECOLES)
    client.post("/", ECOLES, HTTP_HX_REQUEST="true")
    assert Session.objects.count() == 0


def test_put_is_refused(client):
    assert client.put("/").status_code == 405


def test_a_remove_button_with_a_foreign_digit_is_ignored_not_a_500(client):
    response = client.post("/", {"words": "2", "w0": "MOT", "w1": "TE", "action": "remove-²"})
    assert response.status_code == 200
    assert 'name="w1"' in response.content.decode()


def test_a_tiles_square_follows_its_letter_when_a_letter_is_typed_in_front(client):
    """Trial of issue 10: with the C of ECOLES on a double letter, typing a P in front moved the LD to the E."""
    settings = {"w0_was": "ECOLES", "w0_1_sq": "LD", "w0_5_sq": "MD"}
    response = client.post("/", {"w0": "PECOLES", **settings}, HTTP_HX_REQUEST="true")
    assert calculations(response) == ['<span class="word-name">PECOLES</span> (3 + 1 + 3 × 2 + 1 + 1 + 1 + 1) × 2 = 28']
    response = client.post("/", {"w0": "ECLES", **settings}, HTTP_HX_REQUEST="true")  # the O taken out
    assert calculations(response) == ['<span class="word-name">ECLES</span> (1 + 3 × 2 + 1 + 1 + 1) × 2 = 20']
