"""Every error under the API's address is the API's JSON, `{"detail": "<French sentence>"}`.

The API's own handlers (clubsite/api.py) shape what an operation refuses; this middleware shapes what Django or
ninja answer before any operation runs: an unknown address, a method the address does not take, a request Django
refuses while reading it (too many form fields, a host not allowed), a server error with DEBUG off.
"""

import logging

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext

logger = logging.getLogger(__name__)

MESSAGES = {
    400: "Requête invalide.",
    403: "Accès refusé.",
    404: "Adresse inconnue dans l'API : « %(path)s ». Les adresses sont décrites sur %(docs)s.",
    405: "Méthode %(method)s non acceptée à cette adresse ; acceptée : %(allowed)s.",
    413: "Requête trop volumineuse.",
    500: "Erreur interne du serveur.",
}


class ApiErrorsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            response.status_code < 400
            or response.get("Content-Type", "").startswith("application/json")
            or not request.path_info.startswith(reverse("api:api-root"))
            or (response.status_code >= 500 and settings.DEBUG)  # keep Django's page with the traceback
        ):
            return response
        template = MESSAGES.get(response.status_code, "Requête refusée (code %(status)d).")
        detail = gettext(template) % {
            "path": request.path_info,
            "docs": reverse("api:openapi-view"),
            "method": request.method,
            "allowed": response.get("Allow", ""),
            "status": response.status_code,
        }
        json = JsonResponse({"detail": detail}, status=response.status_code)
        if "Allow" in response:
            json["Allow"] = response["Allow"]
        return json


def same_site_referer(request) -> str:
    """The page the visitor came from, when it is one of ours: the link back of a refusal page; else ""."""
    referer = request.headers.get("Referer", "")
    return referer if url_has_allowed_host_and_scheme(referer, {request.get_host()}, request.is_secure()) else ""


class MethodNotAllowedPageMiddleware:
    """A POST-only address opened from the address bar (a refused form's action left there, a link copied) answers
    a page of the site saying the action is done through its button, with a link back, instead of Django's blank
    405 (require_POST, require_http_methods). The status and its "Allow" header stay; the API keeps its JSON."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            not isinstance(response, HttpResponseNotAllowed)
            or response.content
            or request.path_info.startswith(reverse("api:api-root"))
        ):
            return response
        page = render(request, "405.html", {"back": same_site_referer(request)}, status=405)
        page["Allow"] = response["Allow"]
        return page


# A database that does not answer (PostgreSQL restarting, a failover, every connection cut) is the server's
# trouble, not the visitor's, and not a bug: it answers 503 with a French sentence, logged in one line. The
# request's writes are in transactions, rolled back with it; the next request opens a new connection.
DATABASE_ERRORS = (OperationalError, InterfaceError)
# PostgreSQL's lock_not_available (psycopg's errors.LockNotAvailable): the database answered, but a row or table
# this request needed was held by another operation past DJANGO_DB_LOCK_TIMEOUT_MS. The same 503, saying that.
LOCK_NOT_AVAILABLE = "55P03"


def _lock_not_available(error) -> bool:
    return getattr(error.__cause__, "sqlstate", None) == LOCK_NOT_AVAILABLE


def database_unavailable(request, error) -> HttpResponse:
    if _lock_not_available(error):
        logger.warning("Row locked by another operation, %s %s answered 503: %s", request.method, request.path, error)
        message = gettext(
            "Cette séance ou cette partie est occupée par une autre opération : cette demande n'a pas abouti. "
            "Réessayez dans un instant."
        )
    else:
        logger.warning("Database unavailable, %s %s answered 503: %s", request.method, request.path, error)
        message = gettext("La base de données ne répond pas : cette demande n'a pas abouti. Réessayez dans un instant.")
    if request.path_info.startswith(reverse("api:api-root")):
        response = JsonResponse({"detail": message}, status=503)
    elif request.headers.get("HX-Request"):
        response = HttpResponse(format_html('<p class="error" role="alert">{}</p>', message), status=503)
    else:
        # A page of its own, not the site's frame: that one reads the visitor's account from the database.
        response = HttpResponse(render_to_string("503.html", {"message": message}), status=503)
    response["Retry-After"] = "2"
    response._has_been_logged = True  # the line above says it; Django's would add an error without the cause
    return response


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, DATABASE_ERRORS):
            return database_unavailable(request, exception)
        return None
