"""The fault tests' data, written through the services into the stack's database: `python -m tests.faults.seed`
(with the stack's environment) prints the ids as JSON.

An organiser and his club; sessions of 250 players (exported within the request when no worker answers), 600
(too many for that) and 2,000 (whose export runs long enough to kill its worker in the middle), each with two
moves played by everyone; a session of 300 players whose first move is open for scores."""

import datetime
import json
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
django.setup()

from clubsite.models import ApiToken, Club, Membership  # noqa: E402
from duplicate.models import Session  # noqa: E402
from duplicate.services.results import Entry, results_set  # noqa: E402
from duplicate.services.rounds import round_add  # noqa: E402
from duplicate.services.sessions import session_create  # noqa: E402
from scoring.models import Edition, RuleSet  # noqa: E402
from tests.conftest import make_member  # noqa: E402

MOVES = (("VAGUEST", "H4 VAGUE"), ("ST+AIONX", "4G AVIONS"))


def session(organiser, club, name, players, moves=MOVES):
    created = session_create(
        creator=organiser,
        club=club,
        name=name,
        date=datetime.date(2026, 12, 1),
        edition=Edition.objects.get(code="fr"),
        rule_set=RuleSet.objects.get(code="tournoi"),
        move_seconds=180,
        entry=Session.Entry.BOTH,
        players=[(table, f"Joueur {table}") for table in range(1, players + 1)],
    )
    pks = list(created.players.values_list("pk", flat=True))
    for draw, top in moves:
        round_ = round_add(session=created, draw_text=draw, top_text=top, by=organiser)
        scores = [(i * 7) % (round_.top_score + 1) for i in range(len(pks))]
        results_set(round_=round_, entries=[Entry(pk, score, "", None) for pk, score in zip(pks, scores, strict=True)])
    return created


def main():
    organiser = make_member("arbitre")  # with the tests' one password, which the stack logs in with
    club = Club.objects.create(name="Club des pannes", slug="pannes")
    Membership.objects.create(club=club, user=organiser, role=Membership.Role.ORGANISER)
    sizes = (("s250", 250), ("s600", 600), ("s2000", 2000))
    ids = {name: session(organiser, club, name, players).pk for name, players in sizes}
    writes = session(organiser, club, "writes", 300, moves=())
    round_add(session=writes, draw_text="VAGUEST", by=organiser)
    ids["writes"] = writes.pk
    ids["players"] = list(writes.players.order_by("table").values_list("pk", flat=True))
    ids["token"] = ApiToken.issue(organiser)
    print(json.dumps(ids))


if __name__ == "__main__":
    main()
