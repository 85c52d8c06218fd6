"""What every page's header needs."""

from django.utils.functional import SimpleLazyObject


def invitations(request):
    """The member's unanswered invitations, counted only when a page shows the header (not for htmx fragments)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"pending_invitations": SimpleLazyObject(lambda: user.invitations.pending().count())}
