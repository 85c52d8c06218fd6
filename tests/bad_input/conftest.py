"""The world the bad-input sweep sends its values into, and what it checks after each request.

The cast of tests/conftest.py, as everywhere: Alice, the Club de Lyon's admin, whose member is Bob, and Charlie in no
club, each with the cast's password; a co-admin of Lyon lets Alice leave it. Alice holds every role a page asks for:
she keeps a score sheet, runs the club and its sessions, a personal session whose move is still open on the players'
phones, a tournament, a season and an export, organises a federation and another club.
"""

import datetime
import functools

import pytest
from django.apps import apps
from django.db import connection, models, transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.test import Client, override_settings
from django.utils import timezone

from clubsite.models import Club, Membership, MembershipOffer
from duplicate.games import GameRound
from duplicate.models import ExportJob, Season, Tournament
from duplicate.services.results import result_set
from duplicate.services.rounds import round_add
from duplicate.services.sessions import session_finish
from duplicate.services.simultanes import room_register, simultane_create
from scoring.models import GridBoard
from sheets.models import Line
from sheets.services import game_finish, penalty_record
from tests.conftest import make_member
from tests.duplicate.conftest import make_session
from tests.sheets.conftest import make_game

# Every app whose rows a refused request must leave as they were (Django's sessions, the cache table and the rate
# limits' counts are the visitor's state, not data).
WATCHED_APPS = ("auth", "clubsite", "scoring", "sheets", "duplicate")
VISITOR_STATE = {"clubsite.RateWindow"}


class World:
    """The ids the URLs and bodies of the sweep are filled with."""

    def __init__(self):
        with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
            self.alice = alice = make_member("alice")
            bob = make_member("bob")
            make_member("charlie")
            self.co_admin = co_admin = make_member("co-admin")
        self.club = Club.objects.create(name="Club de Lyon", slug="lyon")
        Membership.objects.create(club=self.club, user=alice, role=Membership.Role.ADMIN)
        self.bob_membership = Membership.objects.create(club=self.club, user=bob, role=Membership.Role.MEMBER)
        # A second admin: Alice may leave the club.
        Membership.objects.create(club=self.club, user=co_admin, role=Membership.Role.ADMIN)
        # A place offered in the club, and an invitation of the co-admin's that Alice has not answered.
        self.offer = MembershipOffer.objects.create(club=self.club, name="zoe")
        make_game(co_admin, names=("Co", ""), members=[None, alice], accepted=False)
        self.game = make_game(alice, members=[alice, bob])
        self.play = Line.objects.create(game=self.game, player=self.game.players.first(), points=20)
        self.penalty = penalty_record(game=self.game, player=self.game.players.last(), points=10)
        self.finished_game = make_game(alice, names=("Ann", "Ben"))
        game_finish(game=self.finished_game, racks={0: "", 1: "EAU"})
        # A session whose first top is placed, with a result: every arbiter's form reaches its service.
        self.session = make_session(alice, self.club, players=["Alice", "Bob"])
        self.round = round_add(session=self.session, draw_text="VAGUEST", top_text="H4 VAGUE")
        self.player, self.other = self.session.players.order_by("table")
        result_set(round_=self.round, player=self.player, score=20)
        # A personal session whose move is still open: the players' phones write their own scores.
        self.open_session = make_session(alice, None, players=["Zoé", "Yves"], name="Entraînement")
        round_add(session=self.open_session, draw_text="VAGUEST")
        self.phone = self.open_session.players.order_by("table").first()
        self.finished_session = make_session(alice, None, players=["Xavier"], name="Hier")
        round_add(session=self.finished_session, draw_text="VAGUEST", top_text="H4 VAGUE")
        session_finish(session=self.finished_session)
        self.tournament = Tournament.objects.create(name="Coupe", creator=alice, club=self.club)
        self.tournament.sessions.add(self.session)
        self.season = Season.objects.create(
            club=self.club, name="Saison", start=self.session.date, end=self.session.date, counting="best", best_of=3
        )
        self.job = ExportJob.objects.create(
            session=self.session, kind="csv", requested_by=alice, status=ExportJob.Status.DONE, content=b"x"
        )
        # A federation Alice organises, and its simultané (a one-move game), which the club may register a room to.
        self.body = Club.objects.create(name="Fédération", slug="federation", kind=Club.Kind.FEDERATION)
        Membership.objects.create(club=self.body, user=alice, role=Membership.Role.ORGANISER)
        self.simultane = simultane_create(
            body=self.body,
            creator=alice,
            name="Simultané de décembre",
            starts_at=timezone.now() + datetime.timedelta(days=1),
            edition=self.session.edition,
            rule_set=self.session.rule_set,
            move_seconds=180,
            game=[GameRound(1, "VAGUEST", "H4 VAGUE", 26)],
        )
        # Another club she organises has its room registered (Lyon's is the registration form's to make).
        villeurbanne = Club.objects.create(name="Club de Villeurbanne", slug="villeurbanne")
        Membership.objects.create(club=villeurbanne, user=alice, role=Membership.Role.ORGANISER)
        self.room = room_register(simultane=self.simultane, club=villeurbanne, creator=alice, players=[(1, "Ann")])
        GridBoard.objects.create(user=alice)  # the grid page creates it on a first visit: not the sweep's doing


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Built once for a module's tests, in a transaction rolled back after them; each test (and each request of
    the sweep) runs in a savepoint inside it."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield World()
        transaction.set_rollback(True)


@pytest.fixture
def owner_client(world, db):
    """Alice's browser; a 500 comes back as a response, as a visitor would get it, not as the test's exception."""
    client = Client(raise_request_exception=False)
    client.force_login(world.alice)
    return client


@functools.cache
def _watched() -> dict[str, tuple[list, str]]:
    """Each watched table's columns (binary contents left out: a word list's megabyte) and the SELECT of them."""
    watched = {}
    quote = connection.ops.quote_name
    for model in apps.get_models(include_auto_created=True):
        if model._meta.app_label not in WATCHED_APPS or model._meta.label in VISITOR_STATE or not model._meta.managed:
            continue
        fields = [f for f in model._meta.concrete_fields if not isinstance(f, models.BinaryField)]
        columns = ", ".join(quote(f.column) for f in fields)
        watched[model._meta.label] = (fields, f"SELECT {columns} FROM {quote(model._meta.db_table)} ORDER BY 1")
    return watched


def snapshot() -> dict:
    """Every watched row: what a refused request must not change (plain SQL: the sweep takes thousands)."""
    with connection.cursor() as cursor:
        rows = {}
        for label, (_fields, query) in _watched().items():
            cursor.execute(query)
            rows[label] = cursor.fetchall()
    return rows


def changed_tables(before: dict, after: dict) -> list[str]:
    return [label for label in before if before[label] != after[label]]


def beyond_columns(rows: dict) -> list[str]:
    """The values PostgreSQL would have refused to keep (an error, so a 500): a text longer than its column, a
    number beyond its integer column. SQLite keeps them: the sweep looks for them on both."""
    ranges = BaseDatabaseOperations.integer_field_ranges
    found = []
    for label, (fields, _query) in _watched().items():
        for row in rows[label]:
            for field, value in zip(fields, row, strict=True):
                low, high = ranges.get(field.get_internal_type(), (value, value))
                too_long = isinstance(value, str) and field.max_length and len(value) > field.max_length
                if too_long or (isinstance(value, int) and not low <= value <= high):
                    found.append(f"{label}.{field.name}")
    return found


class NulInQuery(AssertionError):
    pass


def _refuse_nul(execute, sql, params, many, context):
    """PostgreSQL refuses a NUL character in any text sent to it (psycopg raises, the page answers 500); SQLite
    takes it. The sweep runs on both, so on SQLite a NUL reaching the database is made to fail as it would."""
    for values in (params or []) if many else [params or []]:
        if any(isinstance(value, str) and "\x00" in value for value in values):
            raise NulInQuery(f"a NUL character reached the database: {sql[:120]}")
    return execute(sql, params, many, context)


@pytest.fixture
def isolated(world, db):
    """Run one request in a savepoint rolled back afterwards, so each bad value meets the same world; returns
    the response, the tables the request changed (against the rows as the test's first request found them) and
    the values it saved beyond their columns."""
    before = {}

    def run(send):
        before.update(before or snapshot())
        with transaction.atomic(), connection.execute_wrapper(_refuse_nul):
            with transaction.atomic():
                response = send()
                # PostgreSQL refuses every statement after a failed one until the savepoint is rolled back.
                transaction.set_rollback(response.status_code >= 500)
            after = snapshot()
            transaction.set_rollback(True)
        return response, changed_tables(before, after), beyond_columns(after)

    return run
