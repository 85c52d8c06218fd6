"""Linking a member to a seat in someone else's game or session, or making him a club's member, needs his consent:
an invitation he accepts or declines on his account page.

The apps with seats (a classic sheet's players, a duplicate session's) import this module; it imports none of
them. A seat is any model instance that follows `Seat`, found again through the content types framework; a place
offered in a club (`models.MembershipOffer`) is one too.

Invitations are bounded (issue 23): each action that invites others counts once against the inviter's rate
(`invitation_refusal`), at most one invitation waits for one member from one inviter to one place, and « Tout
refuser » declines an inviter's, or all, at once (`invitations_decline_all`).
"""

from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass
from typing import Protocol

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .models import Invitation, InvitationRefused
from .throttling import Refusal, refusal

# The invitations of one inviter shown on the account page before the others are folded.
SHOWN_PER_INVITER = 3
# What the invitee reads once he accepted a seat (a place in a club says its own).
IN_HISTORY = gettext_lazy("Invitation acceptée : elle figure maintenant dans votre historique.")


class Seat(Protocol):
    """A place a member may be linked to (the model instance of a player, a place offered in a club); a linked
    member finds the game or the session in his history, or the club among his."""

    pk: int

    def invitation_text(self) -> str:
        """What the invitee reads before answering: the game or session, its date, who keeps it, the name typed."""

    def link_member(self, user) -> None:
        """Link the seat to `user`, who accepted; raises InvitationRefused (e.g. he already has a seat there)."""

    def linked_url(self) -> str:
        """Where the member reads the game or session once linked."""

    def accepted_text(self) -> str:
        """What he reads once he accepted (`IN_HISTORY` for a seat in a game or a session)."""


def is_address(identifier: str) -> bool:
    return "@" in identifier.lstrip("@")


def members_named(identifiers: Iterable[str]) -> dict[str, object]:
    """The active members that `identifiers` name (a user name, a leading "@" dropped, or an address, whatever the
    case), keyed by the identifier as given.

    The caller refuses an unknown user name (names are public: the sign-up form says when one is taken) but not an
    unknown address: it is answered as an address with an account is, so that nobody learns which addresses have
    one. Either way the inviter sees only the name he typed until the member accepts."""
    wanted = {identifier: identifier.lstrip("@").strip().casefold() for identifier in identifiers if identifier}
    if not wanted:
        return {}
    query = Q()
    for key in set(wanted.values()):
        query |= Q(email__iexact=key) if is_address(key) else Q(username__iexact=key)
    found = {}
    for user in get_user_model().objects.filter(query, is_active=True):
        found.setdefault(user.get_username().casefold(), user)
        found.setdefault(user.email.casefold(), user)
    return {identifier: found[key] for identifier, key in wanted.items() if key in found}


def typed_name(identifier: str) -> str:
    """The seat's name while nobody is linked to it: the user name typed, or the part of an address before "@"
    (a seat may be shown on a projector: an address is not)."""
    return identifier.lstrip("@").split("@")[0].strip()


def invitation_refusal(request, named: Iterable[str]) -> Refusal | None:
    """Count an action by which `request.user` invites the members `named` (user names or addresses as typed, with
    or without their "@"; a game again's members by user name), against his rate of invitations (the "invitation"
    rate of settings.NINJA_DEFAULT_THROTTLE_RATES): None while within it, else the refusal. The action counts once
    however many it names, so that an arbiter seats 200 players by @name in one paste; it counts nothing when it
    names nobody but the member himself. A name counts whether or not an account answers to it: the rate tells
    nobody which addresses have one."""
    user = request.user
    own = {user.get_username().casefold(), user.email.casefold()}
    if all(identifier.lstrip("@").strip().casefold() in own for identifier in named if identifier.strip()):
        return None
    return refusal(request, "invitation")


def seats_invite(*, inviter, invites: Iterable[tuple[Seat, object]]) -> list[Invitation]:
    """Ask each member of [(seat, member)] to be linked to his seat, unless he is asked already: one invitation at
    most waits for him from one inviter to one seat. A member placing himself needs no one's consent: his seat is
    linked at once. The seats are saved rows already."""
    invitations = {}
    for seat, member in invites:
        if member.pk == inviter.pk:
            # Named twice (by name and by address), he keeps the first seat; this one is a name.
            with suppress(InvitationRefused):
                seat.link_member(member)
            continue
        invitation = Invitation(invitee=member, inviter=inviter, target=seat)
        invitations.setdefault(_asked(invitation), invitation)
    invitees = {invitation.invitee_id for invitation in invitations.values()}
    waiting = {
        _asked(invitation) for invitation in Invitation.objects.pending().filter(inviter=inviter, invitee__in=invitees)
    }
    return Invitation.objects.bulk_create(invitation for key, invitation in invitations.items() if key not in waiting)


def _asked(invitation: Invitation) -> tuple:
    """Whom an invitation asks, to which place: one waits at most for each, from one inviter."""
    return invitation.invitee_id, invitation.target_type_id, invitation.target_id


def pending_invitees(seats) -> set[int]:
    """The ids of the members invited, without an answer yet, to one of `seats` (a queryset of seats)."""
    return set(Invitation.objects.pending().for_seats(seats).values_list("invitee_id", flat=True))


def invitations_pending_for(user) -> list[Invitation]:
    """The invitations `user` has not answered, newest first, each with its seat; an invitation whose seat is gone
    (the game was deleted) is left out."""
    invitations = list(user.invitations.pending().select_related("inviter").prefetch_related("target"))
    return [invitation for invitation in invitations if invitation.target is not None]


@dataclass
class InviterInvitations:
    """One inviter's pending invitations to a member, as his account page shows them: the first few, the others
    folded. `inviter` is None for an account deleted since."""

    inviter: object
    invitations: list[Invitation]

    @property
    def count(self) -> int:
        return len(self.invitations)

    @property
    def shown(self) -> list[Invitation]:
        return self.invitations[:SHOWN_PER_INVITER]

    @property
    def folded(self) -> list[Invitation]:
        return self.invitations[SHOWN_PER_INVITER:]


def invitations_by_inviter(invitations: list[Invitation]) -> list[InviterInvitations]:
    """`invitations` (newest first) grouped by inviter, the group of the newest first: a flood of one inviter's
    does not push another's down."""
    groups: dict[int | None, InviterInvitations] = {}
    for invitation in invitations:
        group = groups.setdefault(invitation.inviter_id, InviterInvitations(invitation.inviter, []))
        group.invitations.append(invitation)
    return list(groups.values())


def invitations_decline_all(*, user, inviter_id: int | None = None) -> int:
    """« Tout refuser »: decline every invitation `user` has not answered, or only those of the inviter whose id is
    `inviter_id`; how many were declined."""
    pending = user.invitations.pending()
    if inviter_id is not None:
        pending = pending.filter(inviter_id=inviter_id)
    return pending.update(status=Invitation.Status.DECLINED, answered_at=timezone.now())


def invitation_accept(*, invitation: Invitation, user) -> Seat:
    """ "Accepter": the seat becomes the member's, and the game or session shows in his history."""
    with transaction.atomic():
        invitation = _answerable(invitation, user)
        seat = invitation.target
        if seat is None:
            raise InvitationRefused(_("Cette partie n'existe plus."))
        seat.link_member(user)
        _answer(invitation, Invitation.Status.ACCEPTED)
    return seat


def invitation_decline(*, invitation: Invitation, user) -> None:
    """ "Refuser": the seat stays the name typed, linked to nobody."""
    with transaction.atomic():
        _answer(_answerable(invitation, user), Invitation.Status.DECLINED)


def _answerable(invitation: Invitation, user) -> Invitation:
    """The invitation read afresh and locked, so that two answers sent at once cannot both count."""
    invitation = Invitation.objects.select_for_update().filter(pk=invitation.pk, invitee=user).first()
    if invitation is None or invitation.status != Invitation.Status.PENDING:
        raise InvitationRefused(_("Cette invitation a déjà reçu une réponse."))
    return invitation


def _answer(invitation: Invitation, status: Invitation.Status) -> None:
    invitation.status = status
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
