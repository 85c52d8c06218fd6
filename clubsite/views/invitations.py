"""An invitation to a seat, answered by the member invited: accepted or declined."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import invitations
from ..models import Invitation


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
    messages.success(request, _("Invitation acceptée : elle figure maintenant dans votre historique."))
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
