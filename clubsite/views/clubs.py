"""Club pages: a member's clubs, a new club, a club's page and its members managed by its admins: invited (each
joins by accepting, issue 23), given a role, taken out; and leaving a club."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from .. import services
from ..forms import ClubForm, InviteMemberForm, RoleForm
from ..models import Club, Membership, MembershipOffer
from ..throttling import refusal as throttle_refusal


def _get_club_for_member(request, slug) -> Club:
    """The club if the visitor belongs to it; a 404 for anyone else, so outsiders cannot tell it exists."""
    return get_object_or_404(Club.objects.for_user(request.user), slug=slug)


def _get_club_for_admin(request, slug) -> Club:
    """The club if the visitor is one of its admins; a 403 for its other members, a 404 for outsiders."""
    club = _get_club_for_member(request, slug)
    if not club.is_admin(request.user):
        raise PermissionDenied(_("Seuls les administrateurs du club gèrent ses membres."))
    return club


def _get_membership_for_admin(request, slug, membership_id) -> Membership:
    """A membership of the club, if the visitor is one of its admins (as `_get_club_for_admin`); a 404 for one of
    another club. Its `club` is the club checked, its `user` loaded."""
    club = _get_club_for_admin(request, slug)
    return get_object_or_404(club.memberships.select_related("user"), pk=membership_id)


def _get_offer_for_admin(request, slug, offer_id) -> MembershipOffer:
    """A place the club offers that nobody took yet, if the visitor is one of its admins (as `_get_club_for_admin`);
    a 404 for one of another club, or one accepted."""
    club = _get_club_for_admin(request, slug)
    return get_object_or_404(club.offers.pending().select_related("club"), pk=offer_id)


@require_safe
@login_required
def clubs(request):
    return _render_clubs(request, ClubForm())


@require_POST
@login_required
def club_create(request):
    form = ClubForm(request.POST)
    if not form.is_valid():
        return _render_clubs(request, form, status=400)
    club = services.club_create(name=form.cleaned_data["name"], creator=request.user)
    messages.success(request, _("Club « %(name)s » créé : vous en êtes l'administrateur.") % {"name": club.name})
    return redirect("club_detail", slug=club.slug)


def _render_clubs(request, form, status=200):
    memberships = request.user.memberships.select_related("club").order_by("club__name")
    return render(request, "clubsite/clubs.html", {"memberships": memberships, "form": form}, status=status)


@require_safe
@login_required
def club_detail(request, slug):
    club = _get_club_for_member(request, slug)
    return _render_club(request, club)


@require_POST
@login_required
def club_member_add(request, slug):
    """ "Inviter au club". Each form sent counts against the admin's rate, a name refused too: the form is no way to
    try names quickly. The answer is the same for an address whether or not an account uses it."""
    club = _get_club_for_admin(request, slug)
    if refused := throttle_refusal(request, "club_invitation"):
        return refused.answer(_club_refusal(request, club, str(refused)))
    form = InviteMemberForm(request.POST, club=club)
    if not form.is_valid():
        return _render_club(request, club, invite_form=form, status=400)
    offer = services.club_invite(
        club=club,
        inviter=request.user,
        identifier=form.cleaned_data["identifier"],
        member=form.cleaned_data["member"],
        role=form.cleaned_data["role"],
    )
    messages.success(
        request,
        _("Invitation au club envoyée à « %(name)s » : la personne le rejoint en l'acceptant sur son compte.")
        % {"name": offer.name},
    )
    return redirect("club_detail", slug=club.slug)


@require_POST
@login_required
def club_offer_withdraw(request, slug, offer_id):
    """ "Retirer l'invitation": the place offered goes, and with it the invitation its member had not answered."""
    offer = _get_offer_for_admin(request, slug, offer_id)
    offer.delete()
    messages.success(request, _("Invitation de « %(name)s » retirée.") % {"name": offer.name})
    return redirect("club_detail", slug=offer.club.slug)


@require_POST
@login_required
def club_member_role(request, slug, membership_id):
    membership = _get_membership_for_admin(request, slug, membership_id)
    club = membership.club
    form = RoleForm(request.POST)
    if not form.is_valid():
        return _club_refusal(request, club, _("Choisissez un rôle dans la liste."))
    try:
        services.membership_set_role(membership=membership, role=form.cleaned_data["role"])
    except services.MembershipRefused as refusal:
        return _club_refusal(request, club, str(refusal))
    messages.success(request, _("Rôle du membre %(name)s modifié.") % {"name": _display_name(membership.user)})
    return redirect("club_detail", slug=club.slug)


@require_POST
@login_required
def club_member_remove(request, slug, membership_id):
    membership = _get_membership_for_admin(request, slug, membership_id)
    club = membership.club
    try:
        services.membership_remove(membership=membership)
    except services.MembershipRefused as refusal:
        return _club_refusal(request, club, str(refusal))
    messages.success(request, _("%(name)s ne fait plus partie du club.") % {"name": _display_name(membership.user)})
    if membership.user == request.user:
        return redirect("clubs")
    return redirect("club_detail", slug=club.slug)


@require_POST
@login_required
def club_leave(request, slug):
    """A member may always leave, the last admin too (services.membership_leave)."""
    club = _get_club_for_member(request, slug)
    services.membership_leave(membership=club.memberships.get(user=request.user))
    messages.success(request, _("Vous avez quitté le club « %(name)s ».") % {"name": club.name})
    return redirect("clubs")


def _club_refusal(request, club, reason: str):
    """A refused change to the club's members: its page again (400) with the reason, nothing changed."""
    messages.error(request, reason)
    return _render_club(request, club, status=400)


def _render_club(request, club, invite_form=None, status=200):
    """The club page: its members' names, nobody's address (issue 23); its management forms and the places it
    offers, by the name typed, only for the club's admins."""
    role = club.role_of(request.user)
    is_admin = role == Membership.Role.ADMIN
    context = {
        "club": club,
        "role": role,
        "is_admin": is_admin,
        "is_last_admin": is_admin and not club.memberships.admins().exclude(user=request.user).exists(),
        "memberships": club.memberships.select_related("user").by_rank(),
        "offers": club.offers.pending() if is_admin else (),
        "invite_form": (invite_form or InviteMemberForm(club=club)) if is_admin else None,
        "roles": Membership.Role.choices,
    }
    return render(request, "clubsite/club_detail.html", context, status=status)


def _display_name(user) -> str:
    return user.get_full_name() or user.username
