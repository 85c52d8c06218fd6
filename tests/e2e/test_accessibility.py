"""Issue 25: every page readable with assistive technology. axe-core (from the npm registry, node_modules/) is run
on the site's pages at a phone's size and a desktop's, as a visitor and as a member and arbiter; the test fails
on any violation axe rates critical or serious, naming the page, the rule and the first element concerned.

axe's source is given to the page by Playwright's evaluate (the DevTools protocol), which the site's
Content-Security-Policy does not govern: the pages are checked as they are served."""

import datetime
from pathlib import Path

import pytest
from django.urls import reverse

from duplicate.models import Season
from sheets import services as sheet_services
from tests.duplicate.conftest import play_the_evening
from tests.sheets.conftest import make_game

from .conftest import DESKTOP, PHONE, log_in_as
from .test_review import reviewed_game

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
    pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"]),
]

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("critical", "serious")

VISITOR_PAGES = [
    "/",
    "/grille/",
    "/mots/",
    "/parties/locale/",
    "/compte/connexion/",
    "/compte/inscription/",
    "/compte/mot-de-passe/oubli/",
    "/duplicate/simultanes/",
    "/aide/",
    "/aide/points/",
    "/aide/feuille/",
    "/aide/lettres/",
]


@pytest.fixture
def axe_source():
    if not AXE.exists():
        pytest.skip("axe-core is not installed: `npm ci` installs it (make lint does, .ci/run too)")
    return AXE.read_text()


def violations(page, axe_source, path) -> list[str]:
    """What axe finds serious or critical on `path`, once its htmx requests have settled: a line each."""
    page.goto(path)
    page.wait_for_load_state("networkidle")
    page.evaluate(axe_source)
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
            .map(v => ({id: v.id, impact: v.impact, count: v.nodes.length, target: v.nodes[0].target.join(" "),
                        help: v.help}))"""
    )
    return [
        f"{path}: {v['id']} ({v['impact']}, {v['count']} × e.g. {v['target']}): {v['help']}"
        for v in found
        if v["impact"] in SERIOUS
    ]


def test_a_visitors_pages_have_no_serious_violation(page, axe_source):
    found = [line for path in VISITOR_PAGES for line in violations(page, axe_source, path)]
    assert not found, "\n".join(found)


def test_a_members_and_an_arbiters_pages_have_no_serious_violation(page, axe_source, alice, bob, charlie, lyon):
    session, player, _paul = play_the_evening(alice, lyon, linked="bob")
    game = reviewed_game(alice)
    sheet_services.game_finish(game=game, racks={0: "EAU", 1: ""})
    today = datetime.date.today()
    season = Season.objects.create(club=lyon, name="Saison", start=today.replace(month=1, day=1), end=today)
    # Her account page folds Bob's invitations, with « Tout refuser »; her club's page lists a place it offers.
    for _ in range(4):
        make_game(bob, names=("Bob", ""), members=[None, alice], accepted=False)
    make_game(charlie, names=("Charlie", ""), members=[None, alice], accepted=False)
    lyon.offers.create(name="zoe")
    log_in_as(page, alice)
    paths = [
        reverse("profile"),
        reverse("progress"),
        reverse("clubs"),
        reverse("club_detail", args=[lyon.slug]),
        reverse("sheets:history"),
        reverse("sheets:new"),
        reverse("sheets:game", args=[game.pk]),
        reverse("sheets:review", args=[game.pk]),
        reverse("duplicate:list"),
        reverse("duplicate:new"),
        reverse("duplicate:session", args=[session.pk]),
        reverse("duplicate:sheet", args=[session.pk]),
        reverse("duplicate:recap", args=[session.pk]),
        reverse("duplicate:player_recap", args=[session.pk, player.pk]),
        reverse("duplicate:history", args=[session.pk]),
        reverse("duplicate:room", args=[session.public_key]),
        reverse("duplicate:ranking", args=[session.public_key]),
        reverse("duplicate:player", args=[player.key]),
        reverse("duplicate:seasons"),
        reverse("duplicate:season", args=[season.pk]),
    ]
    found = [line for path in paths for line in violations(page, axe_source, path)]
    assert not found, "\n".join(found)


def test_a_table_wider_than_the_screen_scrolls_at_the_keyboard(page, viewport, alice, lyon):
    """The session's sheet (16 players) is wider than a phone's screen: its box takes the focus and the arrow keys
    scroll it; a table that fits (the moves on a desktop) stays out of the tab order."""
    session, _player, _paul = play_the_evening(alice, lyon, linked="bob")
    log_in_as(page, alice)
    page.goto(reverse("duplicate:sheet", args=[session.pk]))
    box = page.locator(".table-scroll").first
    assert box.get_attribute("tabindex") == "0"
    box.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("box => box.scrollLeft > 0", arg=box.element_handle())
    page.goto(reverse("duplicate:recap", args=[session.pk]))
    for box in page.locator(".table-scroll").all():
        scrolls = box.evaluate("box => box.scrollWidth > box.clientWidth")
        assert (box.get_attribute("tabindex") == "0") == scrolls
