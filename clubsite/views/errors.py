"""The site's own error pages, in French: the 500 (a 503 for a database that does not answer), a request Django
refused while reading it (400, or 413 past a limit), a form refused by the CSRF check (403)."""

import sys

from django.conf import settings
from django.core.exceptions import DisallowedHost, RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpResponseServerError
from django.middleware.csrf import REASON_NO_CSRF_COOKIE
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from ..middleware import DATABASE_ERRORS, database_unavailable, same_site_referer


def server_error(request):
    """The site's 500 page in French (settings.handler500), except for a database that does not answer: 503 and the
    sentence saying to try again. A page of its own, not the site's frame, which reads the visitor's account."""
    error = sys.exception()
    if isinstance(error, DATABASE_ERRORS):
        return database_unavailable(request, error)
    return HttpResponseServerError(render_to_string("500.html"))


def bad_request(request, exception):
    """A request Django refused while reading it (settings.handler400): the site's page in French with a link back,
    instead of Django's bare "Bad Request (400)". One past the site's limits on a request (a text of 256 KB pasted
    into a form) says which, with its figure, and answers 413 as the API does."""
    status, advice = 400, _("La demande n'a pas pu être lue : rechargez la page, puis recommencez.")
    if isinstance(exception, RequestDataTooBig):
        status = 413
        advice = _(
            "La page envoyée est trop grande (%(size)d Ko au plus) : raccourcissez ce que vous avez saisi, puis "
            "recommencez."
        ) % {"size": settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024}
    elif isinstance(exception, TooManyFieldsSent):
        advice = _("La page envoyée compte trop de champs (%(count)d au plus) : rechargez-la, puis recommencez.") % {
            "count": settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        }
    elif isinstance(exception, TooManyFilesSent):
        advice = _("La page envoyée joint trop de fichiers (%(count)d au plus).") % {
            "count": settings.DATA_UPLOAD_MAX_NUMBER_FILES
        }
    # A host not allowed must not be read again to draw the link back: it would raise once more.
    back = "" if isinstance(exception, DisallowedHost) else same_site_referer(request)
    return _refusal_page(request, "400.html", {"advice": advice, "back": back}, status)


def csrf_failure(request, reason=""):
    """A form refused by the CSRF check (settings.CSRF_FAILURE_VIEW): most often a page left open past its
    session, or sent again after logging out elsewhere. The site's page, in French, with what to do and a link
    back to the form, instead of Django's English page; 403 as Django answers."""
    if reason == REASON_NO_CSRF_COOKIE:
        advice = _(
            "Votre navigateur n'a pas renvoyé le cookie de sécurité du site : autorisez les cookies pour ce site, "
            "puis rechargez la page et recommencez."
        )
    else:
        advice = _(
            "La page a expiré : rechargez-la, puis recommencez (ce que vous aviez saisi n'a pas été enregistré)."
        )
    return _refusal_page(request, "403_csrf.html", {"advice": advice, "back": same_site_referer(request)}, 403)


def _refusal_page(request, template: str, context: dict, status: int):
    """A refusal made before any view ran: `template`'s page, or, for a form sent by htmx, only its `refusal`
    partial, put on top of the page: the form keeps what was typed in it."""
    if getattr(request, "htmx", False):  # a host not allowed is refused before django-htmx reads the request
        response = render(request, f"{template}#refusal", context, status=status)
        response["HX-Retarget"] = "main"
        response["HX-Reswap"] = "afterbegin"
        return response
    return render(request, template, context, status=status)
