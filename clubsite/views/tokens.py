"""A member's API tokens, from his profile page: created (shown once) and deleted."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..forms import ApiTokenForm
from ..models import ApiToken
from .accounts import profile_page


@require_POST
@login_required
def api_token_create(request):
    """ "Créer un jeton": a key for the API, shown once on the page that answers (only its digest is kept)."""
    token_form = ApiTokenForm(request.POST)
    if not token_form.is_valid():
        return profile_page(request, status=400, token_form=token_form)
    if request.user.api_tokens.count() >= ApiToken.MAX_PER_USER:
        refusal = _("Vous avez déjà %(max)d jetons : supprimez-en un avant d'en créer un autre.") % {
            "max": ApiToken.MAX_PER_USER
        }
        return profile_page(request, status=409, token_error=refusal, token_form=token_form)
    raw = ApiToken.issue(request.user, token_form.cleaned_data["label"].strip())
    return profile_page(request, status=201, new_token=raw)


@require_POST
@login_required
def api_token_delete(request, pk):
    token = get_object_or_404(ApiToken, pk=pk, user=request.user)
    token.delete()
    messages.success(request, _("Jeton supprimé : les appels qui s'en servent sont désormais refusés."))
    return redirect(f"{reverse('profile')}#api")
