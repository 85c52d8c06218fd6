"""The shape of a POST action on an owned object, shared by the score sheets and the duplicate sessions.

It lives in clubsite, which both apps may import without a cycle; it knows nothing of either.
"""

import functools

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods


def object_action(*, load, refusal, refused, page):
    """Decorates `view(request, obj, *args)`, an action that changes one object.

    Only a logged-in member may POST it; `load(request, pk)` gives the object or raises (404 for whoever may not
    see it, 403 for whoever may not change it). A GET, as when a page refused with a reason is reloaded from the
    address bar, goes to the object's page instead of a bare "405". A `refusal` raised by the view writes nothing
    and answers `refused(request, obj, message, status=)`, the object's page with the reason (the refusal's own
    `status`, 400 unless it says otherwise); otherwise the view's own
    response, or a redirect to the object's page (the URL name `page`) so that a reload does not post again.
    """

    def decorator(view):
        @login_required
        @require_http_methods(["GET", "HEAD", "POST"])
        @functools.wraps(view)
        def action(request, pk, *args, **kwargs):
            obj = load(request, pk)
            if request.method in ("GET", "HEAD"):
                return redirect(page, pk=obj.pk)
            try:
                # The change and the page that answers it, in one transaction: a database that goes away while the
                # page is being drawn takes the change back with it, so that its 503 ("n'a pas abouti") is true.
                with transaction.atomic():
                    response = view(request, obj, *args, **kwargs)
            except refusal as error:
                return refused(request, obj, str(error), status=getattr(error, "status", 400))
            return response or redirect(page, pk=obj.pk)

        return action

    return decorator
