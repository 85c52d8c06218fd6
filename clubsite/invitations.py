"""Linking a member to a seat in someone else's game or session needs his consent: an invitation he accepts or
declines on his account page.

The apps with seats (a classic sheet's players, a duplicate session's) import this module; it imports none of
them. A seat is any model instance that follows `Seat`, found again through the content types framework.
"""

from collections.abc import Iterable
from contextlib import suppress
from typing import Protocol

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import Invitation


class InvitationRefused(Exception):
    """An answer that cannot be taken into account; the message says why to the member who answered."""


class Seat(Protocol):
    """A place a member may be linked to (the model instance of a player); a linked member finds the game or the
    session in his history."""

    pk: int

    def invitation_text(self) -> str:
        """What the invitee reads before answering: the game or session, its date, who keeps it, the name typed."""

    def link_member(self, user) -> None:
        """Link the seat to `user`, who accepted; raises InvitationRefused (e.g. he already has a seat there)."""

    def linked_url(self) -> str:
        """Where the member reads the game or session once linked."""


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


def seats_invite(*, inviter, invites: Iterable[tuple[Seat, object]]) -> list[Invitation]:
    """Ask each member of [(seat, member)] to be linked to his seat. A member placing himself needs no one's
    consent: his seat is linked at once. The seats are saved rows already."""
    invitations = []
    for seat, member in invites:
        if member.pk == inviter.pk:
            # Named twice (by name and by address), he keeps the first seat; this one is a name.
            with suppress(InvitationRefused):
                seat.link_member(member)
        else:
            invitations.append(Invitation(invitee=member, inviter=inviter, target=seat))
    return Invitation.objects.bulk_create(invitations)


def pending_invitees(seats) -> set[int]:
    """The ids of the members invited, without an answer yet, to one of `seats` (a queryset of seats)."""
    return set(Invitation.objects.pending().for_seats(seats).values_list("invitee_id", flat=True))


def invitations_pending_for(user) -> list[Invitation]:
    """The invitations `user` has not answered, newest first, each with its seat; an invitation whose seat is gone
    (the game was deleted) is left out."""
    invitations = list(user.invitations.pending().select_related("inviter").prefetch_related("target"))
    return [invitation for invitation in invitations if invitation.target is not None]


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
