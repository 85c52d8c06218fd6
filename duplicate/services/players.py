"""The players of a session: seated at once from a list (a name `@username` invites that member), corrected one by
one (name, table, absence, what the federation knows of him), taken out."""

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from clubsite.invitations import is_address, members_named, pending_invitees, seats_invite, typed_name

from ..errors import DuplicateError
from ..limits import LICENCE, MAX_PLAYERS, MAX_TABLE, PLAYER_CLUB, PLAYER_NAME, SERIES
from ..models import Change, Player, Session
from ..player_lines import PlayerLine, invited_names, licence_valid
from .history import actor, record, refuse_if_finished


def players_add(*, session: Session, rows: Sequence[tuple], by=None) -> list[Player]:
    """Add players at once, each a `PlayerLine` or a (table, name) pair; table numbers stay unique within the
    session. The licence a line gives is the seat's; a line without one takes the member's once he is linked. A
    name written `@username` (or `@address`) invites that member to his seat (clubsite.invitations): once he
    accepts, his own page and history show the session; until then the seat is the name typed, without the "@"."""

    taken = set(session.players.exclude(table=None).values_list("table", flat=True))
    seen = set()
    rows = [PlayerLine(*row) for row in rows]
    members = members_named(invited_names(rows))
    linked = set(session.players.exclude(member=None).values_list("member_id", flat=True))
    if members:
        linked |= pending_invitees(session.players.all())
    players, invitees = [], []
    for table, name, licence, club, series in rows:
        if not name:
            raise DuplicateError(_("Chaque joueur a besoin d'un nom."))
        if table is not None and (table in taken or table in seen):
            raise DuplicateError(_("La table %(table)d est déjà prise.") % {"table": table})
        if table is not None:
            seen.add(table)
        member = None
        if name.startswith("@"):
            member = members.get(name)
            if member is None and not is_address(name):
                raise DuplicateError(_("Aucun membre « %(name)s ».") % {"name": name[1:].strip()})
            if member is not None and member.pk in linked:
                if not is_address(name):
                    raise DuplicateError(_("« %(name)s » figure deux fois dans la séance.") % {"name": name})
                # Refusing would tell whose the address is: the seat stays the name typed, and nobody is invited.
                member = None
            if member is not None:
                linked.add(member.pk)
            name = typed_name(name)[:PLAYER_NAME] or _("Joueur")
        players.append(Player(session=session, table=table, name=name, licence=licence, club_name=club, series=series))
        invitees.append(member)
    if session.players.count() + len(players) > MAX_PLAYERS:
        raise DuplicateError(_("Une séance compte %(max)d joueurs au plus.") % {"max": MAX_PLAYERS})
    refuse_if_finished(session)
    with transaction.atomic():
        created = Player.objects.bulk_create(players)
        seats_invite(
            inviter=by or session.creator,
            invites=[(player, member) for player, member in zip(created, invitees, strict=True) if member],
        )
        Change.objects.bulk_create(
            Change(
                session=session,
                user=actor(by),
                player=player,
                field="player",
                new=f"{player.table or ''} {player.name}".strip()[:80],
            )
            for player in created
        )
        session.touch()
    return created


# A player's fields the federation knows, as the history names them.
PERSON_LABELS = {"licence": "licence", "club_name": "club", "series": "série"}


def player_update(
    *, player: Player, name: str, table: int | None, absent: bool, licence: str, club: str, series: str, by=None
) -> Player:
    """Rename a player, move him to another table, declare him absent (forfait), or correct what the federation
    knows of him (licence, club, series): each change kept in the history."""
    session = player.session
    refuse_if_finished(session)
    name = name.strip()
    if not name or len(name) > PLAYER_NAME:
        raise DuplicateError(_("Un nom de joueur compte de 1 à %(max)d caractères.") % {"max": PLAYER_NAME})
    if table is not None and not 1 <= table <= MAX_TABLE:
        raise DuplicateError(_("Les tables vont de 1 à %(max)d.") % {"max": MAX_TABLE})
    if table is not None and session.players.filter(table=table).exclude(pk=player.pk).exists():
        raise DuplicateError(_("La table %(table)d est déjà prise.") % {"table": table})
    person = {"licence": licence.strip(), "club_name": club.strip(), "series": series.strip()}
    _check_person(**person)
    before = f"{player.table or ''} {player.name}{' (absent)' if player.absent else ''}".strip()
    # The history names what changed: "licence 123456" → "licence 654321".
    changed = [
        (f"{label} {getattr(player, field)}".strip(), f"{label} {person[field]}".strip())
        for field, label in PERSON_LABELS.items()
        if getattr(player, field) != person[field]
    ]
    player.name, player.table, player.absent = name, table, absent
    for field, value in person.items():
        setattr(player, field, value)
    with transaction.atomic():
        player.save(update_fields=["name", "table", "absent", *person])
        after = f"{table or ''} {name}{' (absent)' if absent else ''}".strip()
        if after != before:
            record(session, by, "player", before, after, player=player)
        for old, new in changed:
            record(session, by, "player", old, new, player=player)
        session.touch()
    return player


def _check_person(*, licence: str, club_name: str, series: str):
    """A licence, a club and a series within what their columns keep, or the first that is not, said."""
    if not licence_valid(licence):
        raise DuplicateError(
            _("La licence « %(licence)s » ne compte que des lettres et des chiffres (%(max)d au plus).")
            % {"licence": licence.replace("\x00", ""), "max": LICENCE}
        )
    if len(club_name) > PLAYER_CLUB or "\x00" in club_name:
        raise DuplicateError(
            _("Un nom de club compte %(max)d caractères au plus, sans caractère nul.") % {"max": PLAYER_CLUB}
        )
    if len(series) > SERIES or "\x00" in series:
        raise DuplicateError(_("Une série compte %(max)d caractères au plus, sans caractère nul.") % {"max": SERIES})


def player_remove(*, player: Player, by=None) -> None:
    """Take out a player added by mistake; one with results is declared absent instead, so nothing is lost."""
    session = player.session
    refuse_if_finished(session)
    if player.results.exclude(score=None).exists():
        raise DuplicateError(
            _("%(name)s a déjà des résultats : déclarez-le absent plutôt que de le retirer.") % {"name": player.name}
        )
    with transaction.atomic():
        record(session, by, "player", f"{player.table or ''} {player.name}".strip(), _("retiré"))
        player.delete()
        session.touch()
