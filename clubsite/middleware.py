"""Every error under the API's address is the API's JSON, `{"detail": "<French sentence>"}`.

The API's own handlers (clubsite/api.py) shape what an operation refuses; this middleware shapes what Django or
ninja answer before any operation runs: an unknown address, a method the address does not take, a request Django
refuses while reading it (too many form fields, a host not allowed), a server error with DEBUG off.
"""

from django.conf import settings
from django.http import JsonResponse
from django.urls import reverse
from django.utils.translation import gettext

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
