"""Changes to a club that touch several rows or must respect a rule across its members."""

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from .models import Club, Membership


class MembershipRefused(Exception):
    """A membership change the club's rules forbid; the message is shown to the person who asked."""


LAST_ADMIN = _("Le club doit garder au moins un administrateur.")


def club_create(*, name: str, creator) -> Club:
    """A new club whose creator is its first admin, so that someone can manage it from the start."""
    with transaction.atomic():
        club = Club.objects.create(name=name, slug=Club.objects.free_slug(name))
        club.memberships.create(user=creator, role=Membership.Role.ADMIN)
    return club


def membership_set_role(*, membership: Membership, role: Membership.Role) -> None:
    """Give a member another role, unless that demotes the club's last admin."""
    with transaction.atomic():
        membership = _locked(membership)
        if role != Membership.Role.ADMIN and membership.is_last_admin():
            raise MembershipRefused(LAST_ADMIN)
        membership.role = role
        membership.save(update_fields=["role"])


def membership_remove(*, membership: Membership) -> None:
    """Take a member out of the club (or let them leave), unless they are its last admin."""
    with transaction.atomic():
        membership = _locked(membership)
        if membership.is_last_admin():
            raise MembershipRefused(LAST_ADMIN)
        membership.delete()


def _locked(membership: Membership) -> Membership:
    """The membership read afresh with its club's row locked, so two admins demoting each other at once
    cannot both pass the last-admin check."""
    club = Club.objects.select_for_update().get(pk=membership.club_id)
    try:
        return club.memberships.select_related("club").get(pk=membership.pk)
    except Membership.DoesNotExist:
        raise MembershipRefused(_("Cette personne ne fait plus partie du club.")) from None
