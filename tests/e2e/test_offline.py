"""Offline (issue 25): after one visit, the counter (typed and grid), the score sheet under it and the one at
/parties/locale/, the help pages, and the word check once its list is downloaded, open and work with the network
cut, and the server hears nothing meanwhile; a new version of the site replaces the kept one at the next visit with
the network."""

import pytest
from django.core.signals import request_started
from playwright.sync_api import expect

from scoring.models import EditionLetter

from .conftest import DESKTOP, PHONE, count_ecoles, log_in, play, start_game, touch, type_letters, type_word
from .test_counter_in_browser import check_words

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture
def service_workers():
    return "allow"


@pytest.fixture(autouse=True)
def _back_online(page):
    """Online again before the context closes: Chromium keeps an offline context's connections to the live server
    open until the browser's end, when the live server has stopped and their threads fail."""
    yield
    page.context.set_offline(False)


@pytest.fixture
def server_hears():
    """The path of every request the live server receives (it runs in this process), from now on."""
    heard = []

    def record(sender, environ, **kwargs):
        heard.append(environ["PATH_INFO"])

    request_started.connect(record)
    yield heard
    request_started.disconnect(record)


def worker_in_charge(page):
    """Wait until the service worker has kept what it keeps (it is active only then) and answers for the page."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def cut_the_network(page, server_hears):
    page.context.set_offline(True)
    server_hears.clear()


# Resolves once the cache `before` is gone and another is there: the new worker has kept the pages, then
# activated and dropped the old copy (wait_for_function takes no promise).
REPLACED = """async (before) => {
  const done = async () => {
    const names = await caches.keys();
    return !names.includes(before) && names.some((name) => name.startsWith("clubsite-offline-"));
  };
  while (!(await done())) await new Promise((resolve) => requestAnimationFrame(resolve));
}"""


def offline_caches(page) -> list[str]:
    return page.evaluate("async () => (await caches.keys()).filter((name) => name.startsWith('clubsite-offline-'))")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_after_one_visit_the_counter_the_grid_the_sheet_and_the_help_work_offline(page, server_hears):
    page.goto("/")
    worker_in_charge(page)
    cut_the_network(page, server_hears)
    page.reload()
    count_ecoles(page)
    start_game(page, "Zéphyrine", "Octave")  # the sheet under the counter
    expect(page.locator("#points")).to_have_value("22")
    page.get_by_role("button", name="Inscrire pour Zéphyrine").click()
    expect(page.locator("#toast")).to_have_text("22 points inscrits pour Zéphyrine.")

    page.goto("/grille/")
    touch(page, "H4")
    type_letters(page, "vague", total=26)
    expect(page.locator("#grid-result .notation")).to_have_text("H4 VAGUE")

    page.goto("/parties/locale/")
    expect(page.locator("#local-total-0")).to_have_text("22")
    play(page, 26, "Octave")
    expect(page.locator("#local-total-1")).to_have_text("26")

    for path, title in [
        ("/aide/", "Aide"),
        ("/aide/points/", "Comprendre les points"),
        ("/aide/feuille/", "Feuille de marque : questions fréquentes"),
        ("/aide/lettres/", "Valeur des lettres"),
    ]:
        page.goto(path)
        expect(page.locator("h1")).to_have_text(title)
    assert server_hears == []


def test_the_word_check_works_offline_once_its_list_is_downloaded(page, server_hears):
    page.goto("/")
    worker_in_charge(page)
    check_words(page)
    cut_the_network(page, server_hears)
    page.reload()
    check_words(page)
    type_word(page, "zèbre", tiles=5, total=16)
    expect(page.locator("#calc-0 .verdict")).to_have_text("Dans la liste")
    type_word(page, "zebrex", tiles=6, total=26)
    expect(page.locator("#calc-0 .verdict")).to_have_text("Absent de la liste")

    page.goto("/grille/")
    check_words(page)
    touch(page, "H4")
    type_letters(page, "vague", total=26)
    expect(page.locator("#grid-result .words li .verdict")).to_have_text("Dans la liste")
    assert server_hears == []


def test_a_member_offline_finds_the_page_a_visitor_sees(page, server_hears):
    """The kept copy is the page without an account: a member's header and board are never kept in the browser's
    caches, where they would outlive his log-out; offline he counts all the same."""
    log_in(page, "claire")
    page.goto("/")
    worker_in_charge(page)
    expect(page.get_by_role("link", name="Mon compte")).to_be_visible()
    cut_the_network(page, server_hears)
    page.reload()
    expect(page.locator(".site-header").get_by_role("link", name="Se connecter")).to_be_visible()
    expect(page.get_by_role("link", name="Mon compte")).to_have_count(0)
    count_ecoles(page)
    assert server_hears == []


def test_a_new_version_replaces_the_kept_one_at_the_next_visit(page, server_hears):
    """The admin gives K another value: the next visit with the network brings a new worker, which keeps the pages
    anew and drops the old copy; offline, the counter then counts with the new value, pages and files of one
    version."""
    page.goto("/")
    worker_in_charge(page)
    [before] = offline_caches(page)
    letter = EditionLetter.objects.get(edition__code="fr", letter="K")
    letter.value = 12
    letter.save()

    page.reload()  # the browser asks for the worker again at each visit
    page.evaluate(REPLACED, before)
    [after] = offline_caches(page)
    assert after != before

    cut_the_network(page, server_hears)
    page.reload()
    type_word(page, "k", tiles=1, total=12)
    assert server_hears == []
