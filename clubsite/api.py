"""The site's single JSON API, served under /api/ with its interactive docs at /api/docs.

Each app contributes a Router from its own api.py. Every error, whatever raised it, answers
`{"detail": "<French sentence>"}` with a 4xx status: the handlers below give them that one shape.
"""

from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from django.utils.translation import gettext
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from scoring.engine.errors import ScoringError

api = NinjaAPI(
    title="Clubsite API",
    version="1",
    urls_namespace="api",
    description="Compter des coups de Scrabble selon les règles de la FISF.",
)
api.add_router("", "scoring.api.router")
api.add_router("", "duplicate.api.router")

_FIELD_MESSAGES = {
    "missing": "Champ « %(field)s » manquant.",
    "string_type": "Champ « %(field)s » : du texte est attendu.",
    "list_type": "Champ « %(field)s » : une liste est attendue.",
    "int_type": "Champ « %(field)s » : un nombre entier est attendu.",
    "int_parsing": "Champ « %(field)s » : un nombre entier est attendu.",
    "bool_type": "Champ « %(field)s » : vrai ou faux est attendu.",
    "bool_parsing": "Champ « %(field)s » : vrai ou faux est attendu.",
    "string_too_long": "Champ « %(field)s » : %(max_length)s caractères au plus.",
    "too_long": "Champ « %(field)s » : %(max_length)s éléments au plus.",
    "less_than_equal": "Champ « %(field)s » : %(le)s au plus.",
    "greater_than_equal": "Champ « %(field)s » : %(ge)s au moins.",
    "nul_character": "Champ « %(field)s » : le caractère nul n'est pas permis.",
}


def _detail(request, message: str, status: int):
    return api.create_response(request, {"detail": message}, status=status)


def validation_message(error: dict) -> str:
    """One French sentence for pydantic's first complaint about a request."""
    field = ".".join(str(part) for part in error["loc"][2:])
    if not field:
        return gettext("Le corps de la requête doit être un objet JSON.")
    template = _FIELD_MESSAGES.get(error["type"], "Champ « %(field)s » invalide.")
    return gettext(template) % {"field": field, **error.get("ctx", {})}


@api.exception_handler(ValidationError)
def on_validation_error(request, exc: ValidationError):
    return _detail(request, validation_message(exc.errors[0]), 422)


@api.exception_handler(ScoringError)
def on_scoring_error(request, exc: ScoringError):
    return _detail(request, exc.translated(gettext), 422)


@api.exception_handler(HttpError)
def on_http_error(request, exc: HttpError):
    if exc.status_code == 400 and str(exc).startswith("Cannot parse request body"):
        return _detail(request, gettext("Corps de la requête illisible : du JSON est attendu."), 400)
    return _detail(request, str(exc), exc.status_code)


@api.exception_handler(AuthenticationError)
def on_unauthenticated(request, exc):
    return _detail(request, gettext("Authentification requise : un jeton (Authorization: Bearer) ou une session."), 401)


@api.exception_handler(RequestDataTooBig)
def on_too_big(request, exc):
    return _detail(request, gettext("Requête trop volumineuse."), 413)


@api.exception_handler(Http404)
def on_not_found(request, exc):
    return _detail(request, gettext("Introuvable."), 404)
