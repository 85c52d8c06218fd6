"""How a request to the API says who makes it: a member's token (`Authorization: Bearer`), for scripts, or the
session of a logged-in browser, its writes CSRF-checked, for the site's own pages. A router that writes for a
member takes both (`auth=MEMBER`)."""

from django.utils.translation import gettext as _
from ninja.errors import HttpError
from ninja.security import HttpBearer, SessionAuth

from .models import ApiToken


class TokenAuth(HttpBearer):
    def authenticate(self, request, token):
        """A request that shows a token is a script's: a wrong one is refused here (401), rather than passed on
        to the session's check, whose CSRF refusal would mislead it."""
        user = ApiToken.objects.user_for(token)
        if not user:
            raise HttpError(401, _("Jeton d'API invalide ou révoqué."))
        request.user = user
        return user


class MemberSessionAuth(SessionAuth):
    """A logged-in browser's session, its writes CSRF-checked. A request with no session at all is not checked:
    it is unauthenticated (401, "Authentification requise"), not a CSRF failure (403)."""

    def __call__(self, request):
        if not request.user.is_authenticated:
            return None
        return super().__call__(request)


MEMBER = [TokenAuth(), MemberSessionAuth()]
