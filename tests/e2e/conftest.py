"""Browser tests: one Chromium for the session, a fresh context (cookies, viewport) for every test, and the
steps a visitor takes on the counter and the grid, shared by the tests and the screenshots.

Run with `pytest -m e2e`. The pages are served by pytest-django's live server; the editions, rule sets and the
word list come from data migrations, so every test module marks itself
`django_db(transaction=True, serialized_rollback=True)` to get them back after each flush.
"""

import pytest
from django.db import connections
from playwright.sync_api import expect, sync_playwright

from clubsite.throttling import forget_counts
from tests.conftest import PASSWORD, make_member
from tests.duplicate.conftest import make_session
from tests.sheets.conftest import make_game

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


# What Chromium reported as blocked by the Content-Security-Policy during the running test, from every page of
# every context (the phones a test opens beside its page included); `_no_csp_violation` fails the test on any.
csp_violations: list[str] = []


def _watch_csp(context):
    def record(message):
        if "Content Security Policy" in message.text:
            csp_violations.append(f"{message.location.get('url')}: {message.text}")

    context.on("console", record)
    return context


@pytest.fixture(autouse=True)
def _no_csp_violation():
    csp_violations.clear()
    yield
    assert csp_violations == []


@pytest.fixture(scope="session")
def browser(django_db_setup):
    """Chromium, driven through Playwright's sync API, which keeps an event loop running in the test thread.

    Django then refuses database work in that thread as "async unsafe", and looks its connections up in a store
    of their own, where new connections lack the rows serialized when the test database was created: every e2e
    test after the first would start with no edition. So the check is lifted for the browser's lifetime (not at
    import: the unit tests collect this file too), and that store is given the connections the test database was
    set up on.
    """
    set_up = {alias: connections[alias] for alias in connections}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            for alias, connection in set_up.items():
                connections[alias] = connection
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            new_context = browser.new_context
            browser.new_context = lambda *args, **kwargs: _watch_csp(new_context(*args, **kwargs))
            yield browser
            browser.close()


@pytest.fixture
def viewport():
    """The desktop size; a test parametrizes `viewport` to run on a phone as well."""
    return DESKTOP


@pytest.fixture
def service_workers():
    """Blocked: a service worker would answer the pages' requests itself, which Playwright's `page.route` then
    never sees. tests/e2e/test_offline.py allows it."""
    return "block"


@pytest.fixture
def page(browser, live_server, viewport, service_workers):
    """A page in a new browser context (its own cookies, hence its own grid session) on the live server, counted
    afresh by the rate limits; a phone sized viewport gets a touch screen and the mobile layout viewport, as on a
    real phone."""
    phone = viewport["width"] < 600
    forget_counts()  # the rate limits' counts: the live server's database keeps them between tests
    context = browser.new_context(
        base_url=live_server.url,
        viewport=viewport,
        is_mobile=phone,
        has_touch=phone,
        locale="fr-FR",
        service_workers=service_workers,
    )
    page = context.new_page()
    # The user answers "OK" to a confirmation; a test that wants "Annuler" handles the dialog itself first.
    page.on("dialog", lambda dialog: dialog.accept())
    yield page
    context.close()


def htmx_settled(page):
    """Wait until htmx has no request in flight and has wired up what it swapped in: for 20 ms after a swap the
    new fields have no htmx listener yet, and what is typed into them then sends nothing."""
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added")).to_have_count(0)


def next_poll(page, path: str):
    """Wait for the page's own refresh (its htmx poll of `path`) sent after this call, answered and swapped in: what
    a change on the server does to a page that follows it, without guessing the poll's interval."""
    with page.expect_request(lambda request: request.method == "GET" and path in request.url, timeout=15_000) as poll:
        pass
    poll.value.response()
    htmx_settled(page)


# The typed counter at /.


def tile(page, number, word=0):
    """Tile `number` (counted from 1, as its panel's legend does) of word `word` (0 is the main word)."""
    return page.locator(f"#tiles-{word} details.tile").nth(number - 1)


def type_word(page, text, *, tiles, total, word=0):
    """Type a word and wait for its tiles and the total: the tiles are redrawn, shutting any panel opened before."""
    page.locator(f"#w{word}").fill(text)
    expect(page.locator(f"#tiles-{word} details.tile")).to_have_count(tiles)
    expect(page.locator("#total")).to_have_text(str(total))


def set_tile(page, number, label, word=0):
    """Open a tile's panel, tick `label` (a square, "Déjà posé sur le plateau" or "Joker (vaut 0)"), press OK."""
    panel = tile(page, number, word)
    panel.locator("summary").click()
    panel.get_by_label(label).check()
    panel.get_by_role("button", name="OK").click()
    expect(panel).to_have_js_property("open", False)


def add_secondary_word(page, word):
    """Press "Ajouter un mot secondaire": the whole form is redrawn with field `w{word}` focused."""
    page.get_by_role("button", name="Ajouter un mot secondaire").click()
    expect(page.locator(f"#w{word}")).to_be_focused()
    htmx_settled(page)


def count_ecoles(page):
    """ÉCOLES with its C on a double letter and its S on a double word: 22 points."""
    page.goto("/")
    type_word(page, "écoles", tiles=6, total=8)
    set_tile(page, 2, "Lettre compte double")
    expect(page.locator("#total")).to_have_text("11")
    set_tile(page, 6, "Mot compte double")
    expect(page.locator("#total")).to_have_text("22")


# Grid mode at /grille/.


def square(page, name):
    return page.locator(f'#board [data-square="{name}"]')


def touch(page, name):
    """Touch a square and wait for the redrawn board to mark it as the start."""
    square(page, name).click()
    expect(square(page, name)).to_contain_class("start")


def type_letters(page, letters, *, total):
    page.locator("#letters").press_sequentially(letters)
    expect(page.locator("#grid-result #total")).to_have_text(str(total))


def place(page, notation):
    """Press "Poser sur la grille" and wait for the redrawn controls to be live again."""
    page.get_by_role("button", name="Poser sur la grille").click()
    expect(page.locator("#grid-result .message")).to_have_text(f"« {notation} » est posé sur la grille.")
    htmx_settled(page)


def place_vague(page):
    """The first move of the grid tests: VAGUE from H4 across the centre, 26 points."""
    page.goto("/grille/")
    touch(page, "H4")
    type_letters(page, "vague", total=26)
    place(page, "H4 VAGUE")


def count_avions(page):
    """AVIONS down column 4 through the V of VAGUE, counted but not placed: 18 points."""
    touch(page, "G4")
    square(page, "G4").click()
    expect(page.locator("#board")).to_have_attribute("data-direction", "v")
    type_letters(page, "aions", total=18)


# The sheet kept in the browser, at /parties/locale/ and under the counter: all script, so its tests fail on any
# script error.


@pytest.fixture
def no_script_error(page):
    """The test fails if a script of the page throws, at any moment of it."""
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    yield
    assert errors == []


@pytest.fixture
def sent(page, no_script_error):
    """Every request the page makes (to tell those that could carry a game), and no script error."""
    requests = []
    page.on("request", lambda request: requests.append(request))
    return requests


def correct_line(page, number, points):
    """Type `points` ("" for an empty box) in the cell of line `number` and press Enter, as one corrects a line."""
    cell = page.get_by_label(f"Points de la ligne {number}")
    cell.fill(str(points))
    cell.press("Enter")


def expect_totals(page, *totals):
    """Each player's total on the sheet's scoreboard, in seat order."""
    for seat, total in enumerate(totals):
        expect(page.locator(f"#local-total-{seat}")).to_have_text(str(total))


# A beep that the test hears and a vibration it feels (page.add_init_script(RINGING)): window.rang lists them.
RINGING = """
window.rang = [];
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    return { frequency: {}, connect: (node) => node, start: () => window.rang.push("beep"), stop() {} };
  }
  createGain() { return { gain: {}, connect: (node) => node }; }
};
Object.defineProperty(Navigator.prototype, "vibrate", { value(pattern) { window.rang.push(pattern); return true; } });
"""


def start_game(page, *names, count=None, rules=None):
    """Fill "Nouvelle partie" (names, or a count for unnamed players) and start it."""
    page.locator("#player-count").select_option(str(count or len(names)))
    for seat, name in enumerate(names):
        page.fill(f"#name-{seat}", name)
    if rules:
        page.locator("#rules").select_option(label=rules)
    page.get_by_role("button", name="Commencer la partie").click()
    expect(page.locator("#game")).to_be_visible()


def play(page, points, name):
    """Type the points and press "Inscrire pour <name>", then wait for the sheet to say so."""
    page.fill("#points", str(points))
    page.get_by_role("button", name=f"Inscrire pour {name}").click()
    expect(page.locator("#toast")).to_have_text(f"{points} points inscrits pour {name}.")


# Members, clubs and duplicate sessions.


def log_in_as(page, user):
    """Log `user` (one of the cast, or a member made by `make_member`) in through the log-in page, with the cast's
    password; returns him."""
    page.goto("/compte/connexion/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.locator("main button[type=submit]").click()
    expect(page).to_have_url("/compte/")
    return user


def log_in(page, username, **fields):
    """Someone outside the cast, made a member (`make_member`) and logged in through the log-in page; returns him."""
    return log_in_as(page, make_member(username, **fields))


def club_session(organiser, club, players=("Anne", "Bruno", "Chloé")):
    """A session of `club` (the cast's `lyon`), run by `organiser` (Alice, its admin, unless a test gives the role
    to someone else), where players may enter their own scores."""
    return make_session(organiser, club, players)


def claires_game(member, **fields):
    """Claire keeps the sheet of her game against Paul, under tournament rules."""
    return make_game(member, names=("Claire", "Paul"), members=[member, None], **fields)
