"""No page is wider than a 390 px phone (issue 10): every page of the site, filled as its users fill it."""

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clubsite.models import Club, Membership
from duplicate.games import GameRound
from duplicate.models import Season, Simultane
from duplicate.services import simultanes
from duplicate.services.results import result_set
from duplicate.services.rounds import round_add, round_reveal_top
from duplicate.services.sessions import session_finish
from duplicate.services.tournaments import tournament_create
from scoring.models import Edition, RuleSet
from sheets import services as sheet_services
from sheets.models import Line
from tests.conftest import make_member

from .conftest import PHONE, claires_game, log_in, make_session

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture
def viewport():
    return PHONE


def width(page, path):
    page.goto(path)
    expect(page.locator("main")).to_be_visible()
    return page.evaluate("document.documentElement.scrollWidth")


def test_every_page_fits_a_390_pixel_screen(page):
    anonymous = [
        "/",
        "/grille/",
        "/mots/",
        "/parties/locale/",
        "/compte/connexion/",
        "/compte/inscription/",
        "/compte/inscription/envoyee/",
        "/compte/mot-de-passe/oubli/",
        "/aide/",
        "/aide/points/",
        "/aide/feuille/",
        "/aide/lettres/",
    ]
    wide = {path: width(page, path) for path in anonymous}

    member = log_in(page, "claire", first_name="Claire")
    club = Club.objects.create(name="Club de Scrabble de Villeurbanne-Gratte-Ciel", slug="villeurbanne")
    Membership.objects.create(club=club, user=member, role=Membership.Role.ADMIN)
    game, _switched = sheet_services.game_create(
        owner=member,
        players=[("Claire-Marguerite", member), ("Paul", None), ("", None), ("Jean-Baptiste", None)],
        edition=Edition.objects.get(code="fr"),
        rule_set=RuleSet.objects.get(code="boite"),
    )
    for points, move in ((26, "H4 VAGUE"), (18, "4G AVIONS"), (13, "L4 SEXE")):
        Line.objects.create(game=game, player=sheet_services.build_sheet(game).turn, points=points, move=move)
    sheet_services.penalty_record(game=game, player=game.players.get(position=1), points=10)
    finished = claires_game(member)
    sheet_services.line_record(game=finished, kind=Line.Kind.PLAY, points=40)
    sheet_services.game_finish(game=finished, racks={0: "", 1: "EAU"})

    # An invitation on the account page, from another member's session.
    host = make_member("jean-baptiste", email="jb@example.org")
    make_session(host, None, [(1, "@claire")], accepted=False, name="Séance du club de Villeurbanne-Gratte-Ciel")
    session = make_session(member, club, [f"Joueuse numéro {n} de la table" for n in range(1, 21)])
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    for player in session.players.all()[:10]:
        result_set(round_=round_, player=player, score=26)
    player = session.players.first()
    tournament = tournament_create(
        name="Coupe d'automne", creator=member, sessions=[session, make_session(member, club)]
    )

    # His progress: a finished session where he is linked, beside the finished game above.
    mine = make_session(member, club, [(1, "@claire"), (2, "Jean-Baptiste")], name="Séance du mardi soir au club")
    first = round_add(session=mine, draw_text="VAGUEST", top_text="H4 VAGUE")
    result_set(round_=first, player=mine.players.get(table=1), score=20)
    session_finish(session=mine)
    season = Season.objects.create(
        club=club,
        name="Saison 2026-2027 du Club de Scrabble de Villeurbanne-Gratte-Ciel",
        start=mine.date,
        end=mine.date,
        counting=Season.Counting.BEST,
        best_of=10,
    )

    # A simultané of a district she organises, her club's room playing its first move.
    body = Club.objects.create(name="Comité du Rhône et de la Métropole de Lyon", slug="rhone", kind=Club.Kind.DISTRICT)
    Membership.objects.create(club=body, user=member, role=Membership.Role.ORGANISER)
    simultane = simultanes.simultane_create(
        body=body,
        creator=member,
        name="Simultané permanent du Comité du Rhône",
        starts_at=timezone.now() + datetime.timedelta(hours=1),
        edition=Edition.objects.get(code="fr"),
        rule_set=RuleSet.objects.get(code="tournoi"),
        move_seconds=180,
        game=[GameRound(1, "VAGUEST", "H4 VAGUE", 26)],
    )
    room = simultanes.room_register(
        simultane=simultane, club=club, creator=member, players=[(n, f"Joueuse numéro {n} de la salle") for n in (1, 2)]
    )
    Simultane.objects.filter(pk=simultane.pk).update(starts_at=timezone.now())  # its time has come
    round_reveal_top(round_=round_add(session=room))
    result_set(round_=room.rounds.get(), player=room.players.first(), score=26)
    session_finish(session=room)

    member_pages = [
        "/compte/",
        "/compte/progres/",
        "/compte/mot-de-passe/",
        "/clubs/",
        f"/clubs/{club.slug}/",
        "/parties/",
        "/parties/locale/",
        "/parties/nouvelle/",
        "/parties/importer/",
        f"/parties/{game.pk}/",
        f"/parties/{game.pk}/compter/",
        f"/parties/{game.pk}/grille/",
        f"/parties/{game.pk}/terminer/",
        f"/parties/{game.pk}/supprimer/",
        f"/parties/{finished.pk}/",
        f"/parties/{game.pk}/revoir/",
        f"/parties/{finished.pk}/revoir/",
        "/duplicate/",
        "/duplicate/nouvelle/",
        f"/duplicate/{session.pk}/",
        f"/duplicate/{session.pk}/grille/",
        f"/duplicate/{session.pk}/feuille/",
        f"/duplicate/{session.pk}/recapitulatif/",
        f"/duplicate/{session.pk}/joueurs/{player.pk}/recapitulatif/",
        f"/duplicate/{session.pk}/historique/",
        f"/duplicate/classement/{session.public_key}/",
        f"/duplicate/joueur/{player.key}/",
        "/duplicate/tournois/",
        f"/duplicate/tournois/{tournament.pk}/",
        f"/duplicate/{room.pk}/",
        "/duplicate/simultanes/",
        "/duplicate/simultanes/nouveau/",
        f"/duplicate/simultanes/{simultane.pk}/",
        f"/duplicate/simultanes/{simultane.pk}/classement/",
        f"/duplicate/simultanes/classement/{simultane.public_key}/",
        "/duplicate/saisons/",
        f"/duplicate/saisons/{season.pk}/",
        f"/duplicate/saisons/{season.pk}/modifier/",
    ]
    wide |= {path: width(page, path) for path in member_pages}
    assert {path: pixels for path, pixels in wide.items() if pixels > PHONE["width"]} == {}


def test_names_of_120_letters_without_a_space_fit_too(page):
    """Trial: a name of 120 letters without a space made the simultanés' page 1527 px wide, the seasons' 1344."""
    long = "Villeurbanne" * 10
    member = log_in(page, "claire", first_name=long)
    club = Club.objects.create(name=f"Club{long}"[:100], slug="long")  # each name as long as its column allows
    Membership.objects.create(club=club, user=member, role=Membership.Role.ADMIN)
    # A place the club offers, under a long name typed, and a long-named inviter's invitations, folded (issue 23).
    club.offers.create(name=f"Invitée{long}"[:150], role=Membership.Role.ORGANISER)
    inviter = make_member("inviteur", first_name=long)
    for _ in range(4):
        sheet_services.game_create(
            owner=inviter,
            players=[("Moi", None), ("", member)],
            edition=Edition.objects.get(code="fr"),
            rule_set=RuleSet.objects.get(code="tournoi"),
        )
    session = make_session(member, club, [(1, f"Joueuse{long}"[:80]), (2, "@claire")], name=f"Séance{long}"[:120])
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    result_set(round_=round_, player=session.players.get(table=1), score=26)
    session_finish(session=session)
    season = Season.objects.create(club=club, name=f"Saison{long}"[:120], start=session.date, end=session.date)
    tournament = tournament_create(
        name=f"Coupe{long}"[:120],
        creator=member,
        sessions=[session, make_session(member, club, name=f"Autre{long}"[:120])],
    )
    body = Club.objects.create(name=f"Comité{long}"[:100], slug="comite", kind=Club.Kind.DISTRICT)
    Membership.objects.create(club=body, user=member, role=Membership.Role.ORGANISER)
    simultanes.simultane_create(
        body=body,
        creator=member,
        name=f"Simultané{long}"[:120],
        starts_at=timezone.now(),
        edition=Edition.objects.get(code="fr"),
        rule_set=RuleSet.objects.get(code="tournoi"),
        move_seconds=180,
        game=[GameRound(1, "VAGUEST", "H4 VAGUE", 26)],
    )
    pages = [
        "/compte/",
        "/clubs/",
        f"/clubs/{club.slug}/",
        "/duplicate/",
        f"/duplicate/{session.pk}/",
        f"/duplicate/classement/{session.public_key}/",
        "/duplicate/tournois/",
        f"/duplicate/tournois/{tournament.pk}/",
        "/duplicate/simultanes/",
        "/duplicate/saisons/",
        f"/duplicate/saisons/{season.pk}/",
    ]
    wide = {path: width(page, path) for path in pages}
    assert {path: pixels for path, pixels in wide.items() if pixels > PHONE["width"]} == {}
    # In a ranking the name wraps in its cell: the table fits without scrolling sideways.
    for path in (f"/duplicate/classement/{session.public_key}/", f"/duplicate/saisons/{season.pk}/"):
        page.goto(path)
        name = page.locator("td.name", has_text=f"Joueuse{long[:20]}")
        scroller = "cell => [cell.closest('.table-scroll').scrollWidth, cell.closest('.table-scroll').clientWidth]"
        assert name.evaluate(scroller)[0] <= name.evaluate(scroller)[1]
        assert name.evaluate("cell => cell.getBoundingClientRect().height") > 60  # several lines
