"""The help pages (issue 25): the points guide whose worked examples the engine scores when the page is drawn, each
opening in the counter by its share link; the score sheet's questions answered with the sheet's figures; the
letter values and tile counts read from the admin's editions; all linked from the counter, the grid and the sheet,
and the same for everyone but the site's header."""

import html
import re

import pytest
from django.core import signing
from django.urls import reverse

from scoring.engine.moves import replay
from scoring.engine.typed import score_typed
from scoring.forms import SHARE_SALT, CounterForm
from scoring.help import EXAMPLES
from scoring.models import Edition, EditionLetter, RuleSet
from sheets.local import GAMES_KEPT

from .test_counter import calculations, total

pytestmark = pytest.mark.django_db

PAGES = ["help", "help_points", "help_sheet", "help_letters"]
# The seeds' figures for each worked example (seeds 000 and 002), with the French set and the tournament rules.
SEED_SCORES = {
    "mot": 4,
    "mot_lt": 8,
    "mot_lt_md": 16,
    "ecoles": 22,
    "cafe_fonde": 27,
    "ex_ex": 44,
    "axe_ex": 63,
    "moutons_md_md": 32,
    "jouez": 63,
    "joueurs": 64,
    "joueurs_6": 14,
    "moutons_scrabble": 70,
    "kiwi_joker": 12,
    "kiwi": 42,
    "zebre_joker": 26,
    "zebre": 32,
    "vague": 26,
    "avions": 18,
}


def text_of(response) -> str:
    return response.content.decode()


def figure(page: str, key: str) -> str:
    """One worked example's markup on the guide."""
    anchor = "exemple-" + key.replace("_", "-")
    return re.search(rf'<figure class="example" id="{anchor}">(.*?)</figure>', page, re.S)[1]


def shown_score(page: str, key: str) -> int:
    return int(re.search(r'class="example-total" data-score="(\d+)">', figure(page, key))[1])


def example_link(page: str, key: str) -> str:
    return html.unescape(re.search(r'<a class="example-link" href="([^"]+)"', figure(page, key))[1])


def engine_score(key: str) -> int:
    """The example scored by the engine, from the tiles its counter form holds, with the default edition and rules."""
    example = next(example for example in EXAMPLES if example.key == key)
    edition = Edition.objects.engine()
    state = CounterForm(example.form_data()).state(edition)
    return score_typed(state.typed_words(), edition, RuleSet.objects.engine()).score


@pytest.mark.parametrize("name", PAGES)
def test_each_page_answers_get_and_head(client, name):
    got = client.get(reverse(name))
    assert got.status_code == 200
    assert got["Content-Type"] == "text/html; charset=utf-8"
    head = client.head(reverse(name))
    assert (head.status_code, head.content) == (200, b"")


@pytest.mark.parametrize("name", PAGES)
def test_it_refuses_a_post(client, name):
    assert client.post(reverse(name)).status_code == 405


def test_the_urls_are_under_aide():
    assert [reverse(name) for name in PAGES] == ["/aide/", "/aide/points/", "/aide/feuille/", "/aide/lettres/"]


def test_the_index_links_the_three_pages_and_each_edition(client):
    page = text_of(client.get("/aide/"))
    for url in ("/aide/points/", "/aide/feuille/", "/aide/lettres/"):
        assert f'href="{url}"' in page
    for code in Edition.objects.values_list("code", flat=True):
        assert f'href="/aide/lettres/#{code}"' in page


def test_every_example_shows_the_engines_score_which_is_the_seeds(client):
    page = text_of(client.get("/aide/points/"))
    assert [example.key for example in EXAMPLES] == list(SEED_SCORES)
    shown = {key: shown_score(page, key) for key in SEED_SCORES}
    assert shown == {key: engine_score(key) for key in SEED_SCORES}
    assert shown == SEED_SCORES


def test_each_example_shows_its_calculation_and_total(client):
    page = text_of(client.get("/aide/points/"))
    ecoles = figure(page, "ecoles")
    assert '<span class="word-name">ECOLES</span> (1 + 3 × 2 + 1 + 1 + 1 + 1) × 2 = 22' in ecoles
    assert "Total : 22 points" in ecoles
    cafe = figure(page, "cafe_fonde")
    assert '<span class="word-name">CAFE</span> (3 + 1 + 4 + 1) × 2 = 18' in cafe
    assert '<span class="word-name">FONDE</span> 4 + 1 + 1 + 2 + 1 = 9' in cafe
    moutons = figure(page, "moutons_scrabble")
    assert "Prime pour sept jetons posés : +50" in moutons and "Total : 70 points" in moutons
    assert "Prime pour sept jetons posés" not in figure(page, "joueurs_6")


def test_the_grid_examples_score_as_on_the_board():
    """VAGUE from H4 then AVIONS from 4G, laid on a board by the engine, give the typed examples' scores."""
    laid = replay(["H4 VAGUE", "4G AVIONS"], Edition.objects.engine(), RuleSet.objects.engine(), strict=True)
    assert [play.score for play in laid.plays] == [engine_score("vague"), engine_score("avions")]


@pytest.mark.parametrize("key", ["ecoles", "cafe_fonde", "zebre_joker", "joueurs"])
def test_an_examples_link_opens_it_in_the_counter(client, key):
    link = example_link(text_of(client.get("/aide/points/")), key)
    assert link.startswith("/?etat=")
    counter = client.get(link)
    assert counter.status_code == 200
    assert total(counter) == SEED_SCORES[key]


def shared_state(url: str) -> dict:
    return signing.loads(url.split("?etat=")[1], salt=SHARE_SALT)


def test_an_examples_link_is_the_counters_own_share_link(client):
    """The link is the one « Créer un lien de partage » gives for the same move, without the site's address."""
    example = next(example for example in EXAMPLES if example.key == "zebre_joker")
    shared = client.post("/", {**example.form_data(), "edition": Edition.objects.default().code, "action": "share"})
    share_url = html.unescape(re.search(r'id="share-url" type="text" readonly value="([^"]+)"', text_of(shared))[1])
    link = example_link(text_of(client.get("/aide/points/")), "zebre_joker")
    # The same address and the same state; the signature's timestamp is the second each link was made.
    assert share_url.split("?etat=")[0] == "http://testserver" + link.split("?etat=")[0]
    assert shared_state(share_url) == shared_state(link)
    assert calculations(client.get(link)) == ['<span class="word-name">ZEbRE</span> (10 + 1 + 0 + 1 + 1) × 2 = 26']


def test_the_examples_follow_the_rule_set(client):
    """The bonus is the default rule set's: changed in the admin, the guide's seven-tile examples follow."""
    rules = RuleSet.objects.get(is_default=True)
    rules.bingo_bonus = 40
    rules.save()
    page = text_of(client.get("/aide/points/"))
    assert shown_score(page, "joueurs") == 54
    assert shown_score(page, "moutons_scrabble") == 60
    assert "rapporte 40 points de plus" in page


def test_the_examples_follow_the_editions_values(client):
    letter = EditionLetter.objects.get(edition__code="fr", letter="Z")
    letter.value = 11
    letter.save()
    page = text_of(client.get("/aide/points/"))
    assert shown_score(page, "zebre_joker") == 28
    assert shown_score(page, "jouez") == 66


def test_the_guide_counts_the_boards_squares_and_a_rack_left(client):
    page = text_of(client.get("/aide/points/"))
    assert (
        "Le plateau compte 24 cases bleu clair (lettre compte double) et 12 bleu foncé (lettre compte triple), 17 "
        "cases roses (mot compte double), étoile comprise, et 8 rouges (mot compte triple). Les 164 autres"
    ) in page
    assert "les lignes portent les lettres A à O, de haut en bas, et les colonnes sont numérotées de 1 à 15" in page
    assert "la case centrale est H8" in page
    assert "un adversaire qui garde E, A et U perd 3 points" in page
    assert "<li>Espagnol : K et W</li>" in page
    assert "<li>Italien : J, K, W, X et Y</li>" in page


def letter_table(page: str, code: str) -> dict[str, tuple[int, int]]:
    """An edition's table on the letters page: letter → (value, count)."""
    section = re.search(rf'<section id="{code}" class="edition-letters".*?</section>', page, re.S)[0]
    table = {}
    for value, cells in re.findall(r'<tr data-value="(\d+)">(.*?)</tr>', section, re.S):
        for letter, count in re.findall(r'data-letter="([^"]+)" data-count="(\d+)"', cells):
            table[html.unescape(letter)] = (int(value), int(count))
    return table


def test_the_letters_table_is_each_editions_rows(client):
    page = text_of(client.get("/aide/lettres/"))
    editions = Edition.objects.all()
    assert len(editions) == 9
    for edition in editions:
        rows = {row.letter: (row.value, row.count) for row in edition.letters.all()}
        assert letter_table(page, edition.code) == rows
    french = letter_table(page, "fr")
    assert sum(count for _value, count in french.values()) == 102
    assert french["?"] == (0, 2) and french["K"] == (10, 1)
    assert "Jetons en tout : 102 (lettres : 100 ; jokers : 2)." in page


def test_the_letters_page_follows_the_admin(client):
    letter = EditionLetter.objects.get(edition__code="fr", letter="Z")
    letter.value, letter.count = 9, 2
    letter.save()
    french = letter_table(text_of(client.get("/aide/lettres/")), "fr")
    assert french["Z"] == (9, 2)
    Edition.objects.create(code="xx", name="Essai")
    page = text_of(client.get("/aide/lettres/"))
    assert letter_table(page, "xx") == {}
    assert '<a href="#xx">Essai</a>' in page


def test_the_faq_answers_with_the_sheets_figures(client):
    page = text_of(client.get("/aide/feuille/"))
    assert "« Règles de tournoi (FISF) » : seulement s'il reste au moins 7 lettres dans le sac." in page
    assert "« Règles de la boîte » : aucun minimum." in page
    assert "« Règles de tournoi (FISF) » : 5 points de pénalité par mot contesté à tort" in page
    assert f"Les {GAMES_KEPT} dernières parties sont gardées, dans ce navigateur seulement." in page
    assert "Une partie classique se joue de 2 à 4 joueurs, une partie en duplicate de 1 à 4" in page
    assert "Dans l'édition Français : 102 jetons, soit 100 lettres et 2 jokers." in page
    assert "(1 min, 2 min, 2 min 30, 3 min)" in page
    tournament = RuleSet.objects.get(code="tournoi")
    tournament.exchange_min_bag, tournament.challenge_penalty = 8, 0
    tournament.save()
    page = text_of(client.get("/aide/feuille/"))
    assert "« Règles de tournoi (FISF) » : seulement s'il reste au moins 8 lettres dans le sac." in page
    assert "« Règles de tournoi (FISF) » : aucune pénalité." in page


def test_the_faqs_duplicate_game_is_ranked_by_the_engine(client):
    page = text_of(client.get("/aide/feuille/"))
    rows = re.findall(r'<tr data-player="(\d)">(.*?)</tr>', page, re.S)
    cells = [[re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)] for _, row in rows]
    assert cells == [["24, 30, 18", "72", "-6", "92,3 %"], ["20, 36, 9", "65", "-13", "83,3 %"]]
    assert "Les tops des trois coups valent 24, 36, 18 points, soit 78 en tout." in page


def test_the_counter_and_the_grid_link_the_guide(client):
    for url in ("/", "/grille/"):
        page = text_of(client.get(url))
        assert '<p class="help-link"><a href="/aide/points/">Aide : comprendre les points</a></p>' in page


def test_the_browser_sheet_links_its_questions(client):
    for url in ("/", reverse("sheets:local")):
        assert '<a href="/aide/feuille/">Questions fréquentes</a>' in text_of(client.get(url))


def test_the_site_menu_links_the_help(client):
    assert '<a href="/aide/">Aide</a>' in text_of(client.get("/mots/"))


def without_header(page: str) -> str:
    """The page less what the site's header and the base give each visitor (his account's links, CSRF tokens), and
    less the signature of each example's share link, which holds the second it was made at."""
    page = re.sub(r'<header class="site-header">.*?</header>', "", page, flags=re.S)
    page = re.sub(r"(\?etat=[^\":]+):[0-9A-Za-z]+:[^\":]+\"", r'\1"', page)
    return re.sub(r"""hx-headers='[^']*'""", "", page)


@pytest.mark.parametrize("name", PAGES)
def test_a_help_page_is_the_same_for_everyone_but_the_header(client, bob, name):
    """What an offline cache will keep: nothing of the visitor's below the header."""
    visitor = without_header(text_of(client.get(reverse(name))))
    client.force_login(bob)
    member = client.get(reverse(name))
    assert without_header(text_of(member)) == visitor
    assert "Mon compte" in text_of(member)
