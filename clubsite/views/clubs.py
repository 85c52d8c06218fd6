"""Club pages: a member's clubs, a new club, a club's page and its members managed by its admins."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from .. import services
from ..forms import AddMemberForm, ClubForm, RoleForm
from ..models import Club, Membership


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
    club = _get_club_for_admin(request, slug)
    form = AddMemberForm(request.POST, club=club)
    if not form.is_valid():
        return _render_club(request, club, add_form=form, status=400)
    user, role = form.cleaned_data["user"], form.cleaned_data["role"]
    club.memberships.create(user=user, role=role)
    messages.success(request, _("%(name)s a rejoint le club.") % {"name": _display_name(user)})
    return redirect("club_detail", slug=club.slug)


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
    club = _get_club_for_member(request, slug)
    try:
        services.membership_remove(membership=club.memberships.get(user=request.user))
    except services.MembershipRefused as refusal:
        return _club_refusal(request, club, str(refusal))
    messages.success(request, _("Vous avez quitté le club « %(name)s ».") % {"name": club.name})
    return redirect("clubs")


def _club_refusal(request, club, reason: str):
    """A refused change to the club's members: its page again (400) with the reason, nothing changed."""
    messages.error(request, reason)
    return _render_club(request, club, status=400)


def _render_club(request, club, add_form=None, status=200):
    """The club page; its management forms only for the club's admins."""
    role = club.role_of(request.user)
    is_admin = role == Membership.Role.ADMIN
    context = {
        "club": club,
        "role": role,
        "is_admin": is_admin,
        "memberships": club.memberships.select_related("user").by_rank(),
        "add_form": (add_form or AddMemberForm(club=club)) if is_admin else None,
        "roles": Membership.Role.choices,
    }
    return render(request, "clubsite/club_detail.html", context, status=status)


def _display_name(user) -> str:
    return user.get_full_name() or user.username
