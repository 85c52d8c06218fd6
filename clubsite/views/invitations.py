"""An invitation to a seat or to a club, answered by the member invited: accepted or declined, one by one or all of
an inviter's at once (« Tout refuser »)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from .. import invitations
from ..models import Invitation
from .accounts import profile_page


def _get_invitation_for_invitee(request, pk) -> Invitation:
    """Only the member invited answers; anyone else gets a 404."""
    return get_object_or_404(Invitation, pk=pk, invitee=request.user)


@require_POST
@login_required
def invitation_accept(request, pk):
    invitation = _get_invitation_for_invitee(request, pk)
    try:
        seat = invitations.invitation_accept(invitation=invitation, user=request.user)
    except invitations.InvitationRefused as refusal:
        messages.error(request, str(refusal))
        return redirect("profile")
    messages.success(request, seat.accepted_text())
    return redirect(seat.linked_url())


@require_POST
@login_required
def invitation_decline(request, pk):
    invitation = _get_invitation_for_invitee(request, pk)
    try:
        invitations.invitation_decline(invitation=invitation, user=request.user)
    except invitations.InvitationRefused as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, _("Invitation refusée : votre compte n'est pas lié à cette place."))
    return redirect("profile")


@require_POST
@login_required
def invitations_decline_all(request):
    """« Tout refuser »: the member's own pending invitations, an inviter's (`inviter`, his id) or all of them."""
    inviter = request.POST.get("inviter", "")
    if inviter and not (inviter.isascii() and inviter.isdigit() and int(inviter) < 2**63):
        return profile_page(request, status=400, invitations_error=_("Choisissez une invitation de la liste."))
    declined = invitations.invitations_decline_all(user=request.user, inviter_id=int(inviter) if inviter else None)
    if declined:
        refused = ngettext("%(count)d invitation refusée.", "%(count)d invitations refusées.", declined)
        messages.success(request, refused % {"count": declined})
    else:
        messages.info(request, _("Aucune invitation en attente."))
    return redirect("profile")
