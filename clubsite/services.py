"""Workflows of accounts and clubs: sign-up, and changes to a club that touch several rows or must respect a rule
across its members."""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core import signing
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .invitations import typed_name
from .limits import max_length
from .models import Club, Invitation, Membership, MembershipOffer, PendingSignup

SIGNUP_SALT = "clubsite.signup"
EMAIL_SALT = "clubsite.email"


class SignupRefused(Exception):
    """A confirmation link that can no longer do what it was sent for; the message says why."""


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


def club_invite(*, club: Club, inviter, identifier: str, member, role: Membership.Role) -> MembershipOffer:
    """ "Inviter au club": a place offered under the name typed (an address's part before "@"), with `role`.
    `member`, the account `identifier` names (None for an address with no account), is invited to it and joins the
    club by accepting; he is not when he is a member already or has one of the club's invitations waiting. The
    place is offered all the same, so that the club's page says nothing of whose an address is."""
    with transaction.atomic():
        offer = club.offers.create(name=typed_name(identifier)[: max_length(MembershipOffer, "name")], role=role)
        joined_or_asked = member is not None and (
            club.memberships.filter(user=member).exists()
            or Invitation.objects.pending().for_seats(club.offers.all()).filter(invitee=member).exists()
        )
        if member is not None and not joined_or_asked:
            Invitation.objects.create(invitee=member, inviter=inviter, target=offer)
    return offer


def membership_leave(*, membership: Membership) -> None:
    """ "Quitter le club": a member may always leave, the last admin too. A club left without admin keeps its
    members and sessions; the site's staff names its next admin in the admin (its clubs filtered "sans
    administrateur"). Nobody is made admin in his place: a role, as a membership, is taken only by consent."""
    membership.delete()


def membership_remove(*, membership: Membership) -> None:
    """Take a member out of the club, unless they are its last admin (who leaves by `membership_leave`)."""
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


def signup_request(*, username: str, email: str, first_name: str, last_name: str, password: str, site_url: str):
    """ "Créer mon compte": mail a confirmation link to `email`, or, when an account already uses the address, a
    notice to that account instead. The visitor is told the same in both cases ("Un courriel vous a été
    envoyé"), so the form cannot be used to learn who has an account; the password is hashed in both cases so
    that neither answer comes faster. No account exists before the link is followed."""
    hashed = make_password(password)
    PendingSignup.objects.expired().delete()
    owner = get_user_model().objects.filter(email__iexact=email).first()
    if owner is not None:
        context = {"username": owner.get_username(), "reset_url": site_url + reverse("password_reset")}
        _mail("registration/signup_taken", owner.email, context)
        return
    pending = PendingSignup.objects.create(
        username=username, email=email, first_name=first_name, last_name=last_name, password=hashed
    )
    token = signing.dumps(pending.pk, salt=SIGNUP_SALT)
    context = {"username": username, "url": site_url + reverse("signup_confirm", args=[token])}
    _mail("registration/signup", email, context)


def signup_pending(token: str) -> PendingSignup | None:
    """The sign-up a confirmation link names, while the link is valid (SIGNUP_LINK_DAYS)."""
    try:
        pk = signing.loads(token, salt=SIGNUP_SALT, max_age=timedelta(days=settings.SIGNUP_LINK_DAYS))
    except signing.BadSignature:
        return None
    return PendingSignup.objects.filter(pk=pk).first()


def signup_confirm(*, pending: PendingSignup):
    """Create the account of a confirmed sign-up, unless its name or its address was taken in the meantime (by
    another sign-up confirmed first). Every pending sign-up for the address goes: one account per address."""
    users = get_user_model().objects
    PendingSignup.objects.filter(email__iexact=pending.email).delete()
    if users.filter(email__iexact=pending.email).exists():
        raise SignupRefused(
            _("Cette adresse sert déjà à un compte : connectez-vous, ou demandez un nouveau mot de passe.")
        )
    name_taken = SignupRefused(_("Ce nom d'utilisateur a été pris entre-temps : inscrivez-vous avec un autre nom."))
    if users.filter(username__iexact=pending.username).exists():
        raise name_taken
    try:
        with transaction.atomic():
            return users.create(
                username=pending.username,
                email=pending.email,
                first_name=pending.first_name,
                last_name=pending.last_name,
                password=pending.password,
            )
    except IntegrityError:  # the same name confirmed at the same moment by another sign-up
        raise name_taken from None


def email_change_request(*, user, email: str, site_url: str):
    """A member gives a new address: a link to confirm it goes to that address, or, when another account uses it,
    a notice to that account's owner instead; the member is told the same either way. The address changes only
    when the link is followed, so nobody takes an address that is not his."""
    owner = get_user_model().objects.filter(email__iexact=email).exclude(pk=user.pk).first()
    if owner is not None:
        _mail("registration/email_taken", owner.email, {"username": owner.get_username()})
        return
    token = signing.dumps({"user": user.pk, "old": user.email, "new": email}, salt=EMAIL_SALT)
    context = {"username": user.get_username(), "url": site_url + reverse("email_confirm", args=[token])}
    _mail("registration/email_change", email, context)


def email_change_pending(token: str, user) -> str | None:
    """The new address a link confirms for `user`, while the link is valid and his address is still the one it
    replaces (a link followed once, or overtaken by another change, serves no more)."""
    try:
        change = signing.loads(token, salt=EMAIL_SALT, max_age=timedelta(days=settings.SIGNUP_LINK_DAYS))
    except signing.BadSignature:
        return None
    if change["user"] != user.pk or change["old"] != user.email:
        return None
    return change["new"]


def email_change_confirm(*, user, email: str):
    """Give `user` the address he confirmed, unless another account took it in the meantime."""
    if get_user_model().objects.filter(email__iexact=email).exclude(pk=user.pk).exists():
        raise SignupRefused(_("Cette adresse sert déjà à un autre compte."))
    user.email = email
    user.save(update_fields=["email"])


def _mail(template: str, to: str, context: dict):
    subject = render_to_string(f"{template}_subject.txt", context).strip()
    send_mail(subject, render_to_string(f"{template}_email.txt", context), None, [to])
