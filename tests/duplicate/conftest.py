import datetime

import pytest

from clubsite.models import Club, Membership
from duplicate.models import Session
from duplicate.services.results import Entry, result_mark, result_set, results_set
from duplicate.services.rounds import round_add
from duplicate.services.sessions import session_create, session_finish
from scoring.models import Edition, RuleSet
from tests.conftest import accept_invitations, make_member


def make_session(creator, club=None, players=("Alice", "Bob"), accepted=True, **fields):
    """A session through the service, its players named at tables 1, 2… or given as (table, name) rows; `fields`
    change the service's other arguments. The members named `@username` are linked to their seats, as once they
    accept the invitation (`accepted=False` leaves it waiting)."""
    arguments = {
        "name": "Mardi soir",
        "date": datetime.date(2026, 11, 24),
        "edition": Edition.objects.get(code="fr"),
        "rule_set": RuleSet.objects.get(code="tournoi"),
        "move_seconds": 180,
        "entry": Session.Entry.BOTH,
        "players": [row if isinstance(row, tuple) else (table, row) for table, row in enumerate(players, start=1)],
    }
    session = session_create(creator=creator, club=club, **(arguments | fields))
    if accepted:
        accept_invitations(session.players.all())
    return session


@pytest.fixture
def session(alice, lyon):
    return make_session(alice, lyon)


TOPS = [("VAGUEST", "H4 VAGUE"), ("ST+AIONX", "4G AVIONS"), ("TX+EEHSU", "L4 SEXE"), ("HSTU+AEI", "J3 SOUHAITE")]


def play_the_evening(organiser, club, moves=4, finish=True, linked="bob"):
    """A player's recap's evening (issue 15): sixteen players, so that a solo is worth its bonus (tournament
    rules: +10 from 16 players). Bob (table 1, the member `linked`) plays H8 VAGUE (20), the top 4G AVIONS alone
    (18, a solo), writes 13 with a 5-point penalty, then M6 HUE (24); an avertissement on each move, the 4th
    costing 5. Paul (table 2) shares move 1's top with Rémi (table 3) and move 3's 13 with Bob, and has move 4's
    top alone (71, a solo)."""
    names = [f"@{linked}", "Paul", "Rémi", *(f"Joueur {n}" for n in range(4, 17))]
    session = make_session(organiser, club, players=names)
    bob, paul, remi, *others = session.players.order_by("table")
    bulletins = [
        {bob: "H8 VAGUE", paul: 26, remi: 26},
        {bob: "4G AVIONS", paul: 12, remi: 10},
        {bob: 13, paul: 13, remi: 5},
        {bob: "M6 HUE", paul: 71, remi: 10},
    ]
    usual = [10, 10, 5, 10]
    for number, ((draw, top), written) in enumerate(zip(TOPS[:moves], bulletins, strict=False), start=1):
        round_ = round_add(session=session, draw_text=draw, top_text=top)
        entries = [
            Entry(player.pk, move=entry) if isinstance(entry, str) else Entry(player.pk, entry)
            for player, entry in written.items()
        ]
        entries += [Entry(player.pk, usual[number - 1]) for player in others]
        results_set(round_=round_, entries=entries)
        result_mark(round_=round_, player=bob, warning=True, penalty=5 if number == 3 else None)
    if finish:
        session_finish(session=session)
    return session, bob, paul


VAGUE, AVIONS = ("VAGUEST", "H4 VAGUE"), ("ST+AIONX", "4G AVIONS")  # tops of 26 and 18


def played_session(organiser, club, date, moves, scores, *, finish=True, **fields):
    """A session of `club` on `date` whose moves are `moves` (draw, top), each player (by name) scoring `scores`'
    points on them in order (None: no result); "@username" is a member's seat, linked to him."""
    session = make_session(organiser, club, players=list(scores), date=date, **fields)
    players = list(session.players.order_by("table"))
    for number, (draw, top) in enumerate(moves):
        round_ = round_add(session=session, draw_text=draw, top_text=top)
        for player, points in zip(players, scores.values(), strict=True):
            if points is not None:
                result_set(round_=round_, player=player, score=points[number])
    if finish:
        session_finish(session=session)
    return session


# The simultanés' cast: Dave runs Annecy's club, Eve the district (comité) that prepares the simultanés.


@pytest.fixture
def dave(db):
    return make_member("dave")


@pytest.fixture
def eve(db):
    return make_member("eve")


@pytest.fixture
def annecy(dave):
    club = Club.objects.create(name="Club d'Annecy", slug="annecy")
    Membership.objects.create(club=club, user=dave, role=Membership.Role.ORGANISER)
    return club


@pytest.fixture
def comite(eve):
    """Eve organises the district (comité), a federation body."""
    club = Club.objects.create(name="Comité des Alpes", slug="alpes", kind=Club.Kind.DISTRICT)
    Membership.objects.create(club=club, user=eve, role=Membership.Role.ORGANISER)
    return club
