"""A session's life: created with its players, finished (read-only), reopened, and played again the next evening
with the same players."""

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.invitations import seats_invite

from ..errors import DuplicateError
from ..games import GameRound
from ..models import Player, Session
from .history import record, refuse_if_finished
from .players import players_add


def offered_move_seconds(rules, move_seconds: int | None) -> int:
    """A session's or a simultané's time per move: one its rule set (an engine `RuleSet`) offers, the one it offers
    first when none is given."""
    if move_seconds is None:
        return rules.first_move_seconds
    if move_seconds not in rules.move_seconds_choices:
        raise DuplicateError(
            _("Temps par coup à choisir parmi : %(choices)s secondes.")
            % {"choices": ", ".join(str(s) for s in rules.move_seconds_choices)}
        )
    return move_seconds


def session_create(
    *,
    creator,
    club,
    name,
    date,
    edition,
    rule_set,
    move_seconds=None,
    entry=Session.Entry.ARBITER,
    automatic=False,
    players: Sequence[tuple] = (),
    game: Sequence[GameRound] | None = None,
    replay_of: Session | None = None,
    simultane=None,
) -> Session:
    """A session with its players (`PlayerLine`s or (table, name) pairs), all or nothing: a refused player line
    leaves no empty session behind. An automatic game is one member facing the tops: personal, its creator
    playing alone unless players are named, and the players entering their own scores since there is no arbiter.
    `game`: the moves of a game file (duplicate.games), checked for this edition, which the session plays in order;
    `replay_of`, `simultane`: the session or the simultané whose game it plays; `move_seconds`: the rule set's
    first time per move unless given."""
    rules = rule_set.build()
    move_seconds = offered_move_seconds(rules, move_seconds)
    if not name.strip():
        raise DuplicateError(_("Donnez un nom à la séance."))
    if automatic:
        if club is not None:
            raise DuplicateError(_("Une partie automatique est une séance personnelle, sans club."))
        players = players or [(None, f"@{creator.get_username()}")]
        entry = Session.Entry.PLAYERS
    with transaction.atomic():
        session = Session.objects.create(
            creator=creator,
            club=club,
            name=name.strip()[:120],
            date=date,
            edition=edition,
            rule_set=rule_set,
            move_seconds=move_seconds,
            entry=entry,
            automatic=automatic,
            game=[game_round.as_dict() for game_round in game] if game else None,
            replay_of=replay_of,
            simultane=simultane,
        )
        players_add(session=session, rows=list(players), by=creator)
    return session


def session_finish(*, session: Session, by=None):
    """A finished session is read-only: every write is refused (409) until an organiser reopens it."""
    refuse_if_finished(session)
    with transaction.atomic():
        session.finished_at = timezone.now()
        session.save(update_fields=["finished_at"])
        record(session, by, "state", _("en cours"), _("terminée"))
        session.touch()


def session_reopen(*, session: Session, by=None):
    """Reopen a finished session to correct it; the reopening is kept in the history."""
    if not session.finished_at:
        raise DuplicateError(_("La séance n'est pas terminée."))
    with transaction.atomic():
        session.finished_at = None
        session.save(update_fields=["finished_at"])
        record(session, by, "state", _("terminée"), _("rouverte"))
        session.touch()


def session_again(*, session: Session, creator, name: str = "", date=None) -> Session:
    """A new session with the same settings and players (same tables): the next game of a club evening, under
    its own name and date (today unless given)."""
    with transaction.atomic():
        copy = Session.objects.create(
            creator=creator,
            club=session.club,
            name=(name.strip() or session.name)[:120],
            date=date or timezone.localdate(),
            edition=session.edition,
            rule_set=session.rule_set,
            move_seconds=session.move_seconds,
            entry=session.entry,
        )
        originals = list(session.players.select_related("member"))
        copies = Player.objects.bulk_create(Player(session=copy, name=p.name, table=p.table) for p in originals)
        # The members linked to the session are invited to the new one: each session is his to accept.
        seats_invite(
            inviter=creator,
            invites=[(seat, p.member) for seat, p in zip(copies, originals, strict=True) if p.member],
        )
    return copy
