"""The site's single JSON API, served under /api/ with its interactive docs at /api/docs.

Each app contributes a Router from its own api.py. Every error, whatever raised it, answers
`{"detail": "<French sentence>"}` with a 4xx status: the handlers below give them that one shape.
"""

from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from django.utils.translation import gettext
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError
from ninja.parser import Parser

from scoring.engine.errors import ScoringError
from scoring.schemas import PATTERN_HINTS

from .text import shown
from .throttling import Refusal


class RefusedBody(ValueError):
    """A JSON body that no operation takes; the API answers 422 with `message`."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class ObjectParser(Parser):
    """Ninja's JSON parser, refusing what no operation takes before a schema reads it: a body that is not an object
    (ninja's schemas read any value's attributes, so `null` would pass for an object whose every field takes its
    default), and a NUL character anywhere (no text column can store one: PostgreSQL refuses it)."""

    def parse_body(self, request):
        data = super().parse_body(request)
        if not isinstance(data, dict):
            raise RefusedBody(gettext("Le corps de la requête doit être un objet JSON."))
        path = _nul_character_at(data)
        if path is not None:
            field = ".".join(str(part).replace("\x00", "\\0") for part in path)
            raise RefusedBody(gettext("Champ « %(field)s » : caractère nul (U+0000) non accepté.") % {"field": field})
        return data


def _nul_character_at(value, path=()):
    """The path to the first key or string holding a NUL character, or None."""
    if isinstance(value, str):
        return path if "\x00" in value else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        if isinstance(key, str) and "\x00" in key:
            return (*path, key)
        found = _nul_character_at(item, (*path, key))
        if found is not None:
            return found
    return None


api = NinjaAPI(
    title="Clubsite API",
    version="1",
    urls_namespace="api",
    description="Compter des coups de Scrabble selon les règles de la FISF.",
    parser=ObjectParser(),
)
api.add_router("", "scoring.api.router")
api.add_router("", "duplicate.api.router")
api.add_router("", "sheets.api.router")

# One French sentence for each error pydantic can raise on a request (its `type`): what the field expects.
_FIELD_MESSAGES = {
    "missing": "Champ « %(field)s » manquant.",
    "extra_forbidden": "Champ inconnu : « %(field)s ».",
    "string_type": "Champ « %(field)s » : du texte est attendu.",
    "list_type": "Champ « %(field)s » : une liste est attendue.",
    "blank_text": "Champ « %(field)s » : un texte fait seulement d'espaces n'est pas accepté.",
    "dict_type": "Champ « %(field)s » : un objet JSON est attendu.",
    "model_type": "Champ « %(field)s » : un objet JSON est attendu.",
    "model_attributes_type": "Champ « %(field)s » : un objet JSON est attendu.",
    "int_type": "Champ « %(field)s » : un nombre entier est attendu.",
    "int_parsing": "Champ « %(field)s » : un nombre entier est attendu.",
    "int_parsing_size": "Champ « %(field)s » : un nombre entier est attendu.",
    "int_from_float": "Champ « %(field)s » : un nombre entier est attendu.",
    "float_type": "Champ « %(field)s » : un nombre est attendu.",
    "float_parsing": "Champ « %(field)s » : un nombre est attendu.",
    "finite_number": "Champ « %(field)s » : un nombre est attendu.",
    "bool_type": "Champ « %(field)s » : vrai ou faux est attendu.",
    "bool_parsing": "Champ « %(field)s » : vrai ou faux est attendu.",
    "enum": "Champ « %(field)s » : valeur inconnue.",
    "literal_error": "Champ « %(field)s » : valeur inconnue.",
    "datetime_type": "Champ « %(field)s » : une date ISO 8601 est attendue (AAAA-MM-JJTHH:MM:SS).",
    "datetime_parsing": "Champ « %(field)s » : une date ISO 8601 est attendue (AAAA-MM-JJTHH:MM:SS).",
    "datetime_from_date_parsing": "Champ « %(field)s » : une date ISO 8601 est attendue (AAAA-MM-JJTHH:MM:SS).",
    "json_invalid": "Champ « %(field)s » : du JSON est attendu.",
    "json_type": "Champ « %(field)s » : du JSON est attendu.",
    "string_too_short": "Champ « %(field)s » : texte trop court.",
    "string_too_long": "Champ « %(field)s » : %(max_length)s caractères au plus.",
    "string_pattern_mismatch": "Champ « %(field)s » : caractère non accepté.",
    "too_short": "Champ « %(field)s » : liste trop courte (%(min_length)s au moins).",
    "too_long": "Champ « %(field)s » : %(max_length)s éléments au plus.",
    "less_than_equal": "Champ « %(field)s » : %(le)s au plus.",
    "less_than": "Champ « %(field)s » : moins de %(lt)s.",
    "greater_than_equal": "Champ « %(field)s » : %(ge)s au moins.",
    "greater_than": "Champ « %(field)s » : plus de %(gt)s.",
    "nul_character": "Champ « %(field)s » : le caractère nul n'est pas permis.",
    "licence_format": "Champ « %(field)s » : des lettres et des chiffres seulement.",
    "name_or_object": "Champ « %(field)s » : un nom ou un objet JSON est attendu.",
    "hidden_character": "Champ « %(field)s » : caractère invisible ou de contrôle de sens d'écriture (%(code)s) "
    "non accepté.",
    "stacked_marks": "Champ « %(field)s » : plus de %(most)s signes diacritiques sur une lettre (%(code)s) "
    "non acceptés.",
}
# Ninja's own English refusals, raised before an operation runs.
_CSRF_FAILED = "CSRF check Failed"


def _detail(request, message: str, status: int):
    return api.create_response(request, {"detail": message}, status=status)


def validation_message(errors: list[dict]) -> str:
    """One French sentence for pydantic's first complaint about a request; a field the API does not know is said
    before any other (a field misspelt, "nmae", is why its own is said missing)."""
    error = next((error for error in errors if error["type"] == "extra_forbidden"), errors[0])
    # A body's field is at ("body", "payload", …), a path's or a query's parameter at ("path", "pk").
    location = error["loc"][2:] if error["loc"][0] == "body" else error["loc"][1:]
    field = ".".join(str(part) for part in location)
    if not field:
        return gettext("Le corps de la requête doit être un objet JSON.")
    if error["type"] == "string_pattern_mismatch" and error["ctx"]["pattern"] in PATTERN_HINTS:
        hint = PATTERN_HINTS[error["ctx"]["pattern"]]
        return gettext("Champ « %(field)s » : %(hint)s.") % {"field": field, "hint": hint}
    template = _FIELD_MESSAGES.get(error["type"], "Champ « %(field)s » invalide.")
    return gettext(template) % {"field": field, **error.get("ctx", {})}


@api.exception_handler(ValidationError)
def on_validation_error(request, exc: ValidationError):
    return _detail(request, validation_message(exc.errors), 422)


@api.exception_handler(ScoringError)
def on_scoring_error(request, exc: ScoringError):
    return _detail(request, shown(exc.translated(gettext)), 422)


@api.exception_handler(HttpError)
def on_http_error(request, exc: HttpError):
    if isinstance(exc.__cause__, RefusedBody):
        return _detail(request, exc.__cause__.message, 422)
    if exc.status_code == 400 and str(exc).startswith("Cannot parse request body"):
        return _detail(request, gettext("Corps de la requête illisible : du JSON est attendu."), 400)
    if exc.status_code == 403 and str(exc) == _CSRF_FAILED:
        message = gettext(
            "Vérification CSRF refusée : avec une session, envoyez le jeton CSRF (en-tête X-CSRFToken) ; "
            "un script s'authentifie plutôt par jeton (Authorization: Bearer)."
        )
        return _detail(request, message, 403)
    return _detail(request, str(exc), exc.status_code)


@api.exception_handler(Throttled)
def on_throttled(request, exc: Throttled):
    """An operation's throttles (ninja then sets Retry-After again, the same), or a rate counted inside a handler
    (`clubsite.throttling.count`): 429, Retry-After and the French sentence, as a page says it."""
    refusal = Refusal(exc.wait)
    return refusal.answer(_detail(request, str(refusal), 429))


@api.exception_handler(AuthenticationError)
def on_unauthenticated(request, exc):
    return _detail(request, gettext("Authentification requise : un jeton (Authorization: Bearer) ou une session."), 401)


@api.exception_handler(RequestDataTooBig)
def on_too_big(request, exc):
    return _detail(request, gettext("Requête trop volumineuse."), 413)


@api.exception_handler(Http404)
def on_not_found(request, exc):
    return _detail(request, gettext("Introuvable."), 404)
