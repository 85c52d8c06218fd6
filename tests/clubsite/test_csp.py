"""The Content-Security-Policy (issue 12): every page is served with it, and no page holds what it forbids (an
inline script or event handler, a style attribute or element, an htmx feature that evaluates code), so that it
works under the policy. The browser tests (tests/e2e/conftest.py) fail on any violation Chromium reports."""

import datetime
from html.parser import HTMLParser

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from clubsite.models import Club, Membership
from duplicate.games import GameRound
from duplicate.models import ExportJob, Season, Simultane
from duplicate.services.results import result_set
from duplicate.services.rounds import round_add, round_reveal_top, timer_start
from duplicate.services.sessions import session_finish
from duplicate.services.simultanes import room_register, simultane_create
from duplicate.services.tournaments import tournament_create
from scoring.models import Edition, RuleSet
from sheets import services as sheet_services
from sheets.models import Line
from tests.conftest import make_member
from tests.duplicate.conftest import make_session

pytestmark = pytest.mark.django_db

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; worker-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


class Forbidden(HTMLParser):
    """What a page holds that the policy would block, one line each."""

    def __init__(self):
        super().__init__()
        self.found = []
        self._inline_script = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "style":
            self.found.append("<style>")
        if tag == "script" and "src" not in attributes and attributes.get("type") != "application/json":
            self._inline_script = True
        for name, value in attrs:
            value = value or ""
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}>")
            elif name == "style":
                self.found.append(f"<{tag} style>")
            elif name.startswith(("hx-on", "data-hx-on")) or name == "hx-vars" or _evaluated_values(name, value):
                self.found.append(f"<{tag} {name}> (eval)")
            elif name == "hx-trigger" and "[" in value:
                self.found.append(f"<{tag} hx-trigger filter> (eval)")
            elif name in ("href", "action", "src") and value.strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}=javascript:>")

    def handle_data(self, data):
        if self._inline_script and data.strip():
            self.found.append("inline <script>")

    def handle_endtag(self, tag):
        if tag == "script":
            self._inline_script = False


def _evaluated_values(name: str, value: str) -> bool:
    return name in ("hx-vals", "hx-headers") and value.lstrip().startswith(("js:", "javascript:"))


def forbidden(html: str) -> list[str]:
    parser = Forbidden()
    parser.feed(html)
    return parser.found


@pytest.fixture
def pages(client, alice, lyon):
    """Every page of the site, as its users see them filled, by who sees it: None for a visitor."""
    game, _switched = sheet_services.game_create(
        owner=alice,
        players=[("Alice", alice), ("Paul", None)],
        edition=Edition.objects.get(code="fr"),
        rule_set=RuleSet.objects.get(code="tournoi"),
        timer_seconds=120,
    )
    Line.objects.create(game=game, player=game.players.first(), points=26, move="H4 VAGUE")
    session = make_session(alice, lyon)
    round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    timer_start(session=session)
    player = session.players.first()
    tournament = tournament_create(name="Coupe", creator=alice, sessions=[session, make_session(alice, lyon)])
    job = ExportJob.objects.create(session=session, kind="csv", requested_by=alice, status=ExportJob.Status.DONE)
    season = Season.objects.create(club=lyon, name="Saison", start=session.date, end=session.date)
    # A finished session she played, for her progress page's chart.
    played = make_session(alice, lyon, ["@alice", "Paul"], name="Jeudi")
    first = round_add(session=played, draw_text="VAGUEST", top_text="H4 VAGUE")
    result_set(round_=first, player=played.players.get(member=alice), score=20)
    session_finish(session=played)
    # A simultané of a federation she organises, her club's room registered to it.
    body = Club.objects.create(name="Fédération", slug="federation", kind=Club.Kind.FEDERATION)
    Membership.objects.create(club=body, user=alice, role=Membership.Role.ORGANISER)
    simultane = simultane_create(
        body=body,
        creator=alice,
        name="Simultané",
        starts_at=timezone.now() + datetime.timedelta(hours=1),
        edition=session.edition,
        rule_set=session.rule_set,
        move_seconds=180,
        game=[GameRound(1, "VAGUEST", "H4 VAGUE", 26)],
    )
    room = room_register(simultane=simultane, club=lyon, creator=alice, players=[(1, "Ann"), (2, "Ben")])
    Simultane.objects.filter(pk=simultane.pk).update(starts_at=timezone.now())  # its time has come
    round_reveal_top(round_=round_add(session=room))
    root = make_member("root", is_staff=True, is_superuser=True)  # the site's administrator
    visitor = [
        "/",
        "/grille/",
        "/mots/",
        "/aide/",
        "/aide/points/",
        "/aide/feuille/",
        "/aide/lettres/",
        "/parties/locale/",
        "/compte/connexion/",
        "/compte/inscription/",
        "/compte/inscription/envoyee/",
        "/compte/mot-de-passe/oubli/",
        "/compte/mot-de-passe/oubli/envoye/",
        "/compte/mot-de-passe/nouveau/MQ/mauvais-jeton/",
        "/compte/mot-de-passe/nouveau/enregistre/",
        f"/duplicate/classement/{session.public_key}/",
        f"/duplicate/salle/{session.public_key}/",
        f"/duplicate/joueur/{player.key}/",
        "/api/docs",
        "/page-qui-n-existe-pas/",
    ]
    members = [
        "/compte/",
        "/compte/progres/",
        "/compte/progres/?club=lyon&du=2026-01-01&au=2026-12-31",
        "/compte/mot-de-passe/",
        "/compte/mot-de-passe/modifie/",
        "/clubs/",
        f"/clubs/{lyon.slug}/",
        "/parties/",
        "/parties/nouvelle/",
        "/parties/importer/",
        f"/parties/{game.pk}/",
        f"/parties/{game.pk}/compter/",
        f"/parties/{game.pk}/grille/",
        f"/parties/{game.pk}/revoir/",
        "/duplicate/",
        "/duplicate/nouvelle/",
        f"/duplicate/{session.pk}/",
        f"/duplicate/{session.pk}/grille/",
        f"/duplicate/{session.pk}/compteur/",
        f"/duplicate/{session.pk}/feuille/",
        f"/duplicate/{session.pk}/recapitulatif/",
        f"/duplicate/{session.pk}/joueurs/{player.pk}/recapitulatif/",
        f"/duplicate/{session.pk}/historique/",
        f"/duplicate/{session.pk}/exports/{job.pk}/",
        "/duplicate/tournois/",
        f"/duplicate/tournois/{tournament.pk}/",
        "/duplicate/saisons/",
        f"/duplicate/saisons/{season.pk}/",
        f"/duplicate/saisons/{season.pk}/modifier/",
        f"/duplicate/{room.pk}/",
        "/duplicate/simultanes/",
        "/duplicate/simultanes/nouveau/",
        f"/duplicate/simultanes/{simultane.pk}/",
        f"/duplicate/simultanes/{simultane.pk}/classement/",
        f"/duplicate/simultanes/classement/{simultane.public_key}/",
    ]
    admin = [
        "/admin/",
        "/admin/clubsite/club/",
        f"/admin/clubsite/club/{lyon.pk}/change/",
        f"/admin/auth/user/{alice.pk}/change/",
        "/admin/scoring/lexicon/add/",
    ]
    return {None: visitor, alice: members, root: admin}


def test_every_page_is_served_with_the_policy_and_holds_nothing_it_forbids(client, pages):
    served, found = {}, {}
    for user, paths in pages.items():
        client.logout()
        if user is not None:
            client.force_login(user)
        for path in paths:
            response = client.get(path)
            served[path] = (response.status_code, response.headers.get("Content-Security-Policy"))
            if problems := forbidden(response.content.decode()):
                found[path] = problems
    assert {path: status for path, (status, _policy) in served.items() if status not in (200, 404)} == {}
    assert {path for path, (_status, policy) in served.items() if policy != POLICY} == set()
    assert found == {}


def test_the_checker_finds_what_the_policy_blocks():
    page = """<script>alert(1)</script><script type="application/json">{"a": 1}</script><script src="/x.js"></script>
    <p style="color: red" onclick="go()">x</p><style>p {}</style><a href="javascript:go()">x</a>
    <form hx-on:submit="go()" hx-trigger="change[target.checked]"></form><div hx-vals='js:{a: 1}'></div>"""
    assert forbidden(page) == [
        "inline <script>",
        "<p style>",
        "<p onclick>",
        "<style>",
        "<a href=javascript:>",
        "<form hx-on:submit> (eval)",
        "<form hx-trigger filter> (eval)",
        "<div hx-vals> (eval)",
    ]


# What is not a page: POST-only actions, files, redirects, the API's JSON, pages reached only with a form's data.
NOT_PAGES = {
    "logout", "club_create", "club_member_add", "club_member_role", "club_member_remove", "club_leave",
    "sheets:line_add", "sheets:line_undo", "sheets:line_edit", "sheets:line_delete",
    "sheets:penalty", "sheets:challenge", "sheets:finish", "sheets:reopen", "sheets:again", "sheets:delete",
    "sheets:export", "sheets:review_rack", "duplicate:players_add", "duplicate:player_edit", "duplicate:player_remove",
    "duplicate:round_add", "duplicate:round_top", "duplicate:round_cancel", "duplicate:result", "duplicate:bulletin",
    "duplicate:timer", "duplicate:finish", "duplicate:reopen", "duplicate:sheet_cell", "duplicate:again",
    "duplicate:replay", "duplicate:season_delete", "duplicate:game", "duplicate:simultane_register",
    "duplicate:simultane_edit",
    "duplicate:simultane_delete", "duplicate:simultane_close", "duplicate:simultane_withdraw",
    "duplicate:simultane_game", "duplicate:export", "duplicate:export_download", "duplicate:console_poll",
    "invitation_accept", "invitation_decline", "invitations_decline_all", "club_offer_withdraw",
    "email_confirm", "signup_confirm", "api_token_create",
    "api_token_delete", "word_list", "service_worker",
}  # fmt: skip
PAGE_NAMES = {
    "counter", "grid", "words", "help", "help_points", "help_sheet", "help_letters", "profile", "progress", "signup",
    "login", "password_change", "password_change_done",
    "password_reset", "password_reset_done", "signup_sent", "password_reset_confirm", "password_reset_complete",
    "clubs",
    "club_detail", "sheets:history", "sheets:new", "sheets:import", "sheets:local", "sheets:game", "sheets:counter",
    "sheets:grid", "sheets:review", "duplicate:list", "duplicate:new", "duplicate:session", "duplicate:top_grid",
    "duplicate:counter",
    "duplicate:sheet", "duplicate:recap", "duplicate:history", "duplicate:export_job", "duplicate:tournaments",
    "duplicate:tournament", "duplicate:seasons", "duplicate:season", "duplicate:season_edit", "duplicate:ranking",
    "duplicate:room", "duplicate:player", "duplicate:player_recap",
    "duplicate:simultanes", "duplicate:simultane_new", "duplicate:simultane", "duplicate:simultane_ranking",
    "duplicate:simultane_public",
}  # fmt: skip


def url_names(resolver=None, namespace=""):
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver) and pattern.app_name not in ("admin", "ninja"):
            yield from url_names(pattern, f"{pattern.namespace}:" if pattern.namespace else namespace)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield f"{namespace}{pattern.name}"


def test_the_pages_checked_are_every_page_of_the_site():
    """A new page must join the list above (and test_every_page_…), or say why it is not one."""
    assert set(url_names()) - NOT_PAGES == PAGE_NAMES
