"""Account pages: sign-up and its confirmation, the profile and a new address's confirmation, the log-in refused
for too many failures, the forgotten password within the mail rates. Log-in, log-out and passwords otherwise use
Django's own auth views."""

import math

from axes.helpers import get_cool_off
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import User
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from .. import invitations, services
from ..forms import ApiTokenForm, PasswordResetForm, ProfileForm, SignupForm
from ..mail_limits import mail_refusal
from ..models import ApiToken, Profile
from ..throttling import Refusal


def login_locked_out(request, original_response=None, credentials=None):
    """django-axes' answer to a log-in refused for too many failures (settings.AXES_LOCKOUT_CALLABLE): the log-in
    page again, with a French message, whether the password was right or not; a 429 with Retry-After, as the site's
    other rates answer, saying when the lockout ends."""
    username = (credentials or {}).get("username") or ""
    # A whole cool-off from now: this attempt, as each made during the lockout, starts it again.
    wait = get_cool_off(request).total_seconds()
    context = {
        "form": AuthenticationForm(request, initial={"username": username}),
        "next": request.POST.get("next", ""),
        "locked_out": _(
            "Trop de tentatives de connexion : réessayez dans %(minutes)d min, ou demandez un nouveau mot de passe."
        )
        % {"minutes": math.ceil(wait / 60)},
    }
    return Refusal(wait).answer(render(request, "registration/login.html", context))


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("profile")
    form = SignupForm(request.POST if request.method == "POST" else None)
    refusal = mail_refusal(request, form, form.cleaned_data["email"]) if form.is_valid() else None
    if form.is_valid():
        services.signup_request(
            username=form.cleaned_data["username"],
            email=form.cleaned_data["email"],
            first_name=form.cleaned_data["first_name"],
            last_name=form.cleaned_data["last_name"],
            password=form.cleaned_data["password1"],
            site_url=_site_url(request),
        )
        return redirect("signup_sent")
    response = render(request, "registration/signup.html", {"form": form}, status=400 if form.errors else 200)
    return refusal.answer(response) if refusal else response


def _site_url(request) -> str:
    """The site's address as the visitor reached it, for the links a mail carries."""
    return request.build_absolute_uri("/").removesuffix("/")


class PasswordResetView(auth_views.PasswordResetView):
    """Django's "Mot de passe oublié", within the mail rates. Every valid form counts, whether an account uses its
    address or not, so that the refusal, like the page that says a mail is on its way, tells nobody which does."""

    form_class = PasswordResetForm

    def form_valid(self, form):
        refusal = mail_refusal(self.request, form, form.cleaned_data["email"])
        if refusal:
            return refusal.answer(self.form_invalid(form))
        return super().form_valid(form)


@require_safe
def signup_sent(request):
    return render(request, "registration/signup_sent.html", {"days": settings.SIGNUP_LINK_DAYS})


@require_http_methods(["GET", "HEAD", "POST"])
def signup_confirm(request, token):
    """The link mailed at sign-up: a button creates the account (a mere GET, as a mail scanner's, creates none)."""
    pending = services.signup_pending(token)
    if pending is None:
        return render(request, "registration/signup_confirm.html", {"invalid": True}, status=400)
    if request.method in ("GET", "HEAD"):
        return render(request, "registration/signup_confirm.html", {"pending": pending})
    try:
        user = services.signup_confirm(pending=pending)
    except services.SignupRefused as refusal:
        return render(request, "registration/signup_confirm.html", {"refusal": str(refusal)}, status=400)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, _("Bienvenue ! Votre compte est créé."))
    return redirect("profile")


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def profile(request):
    # A fresh copy of the user: a refused form must not show its unsaved values as the member's name.
    form = ProfileForm(
        request.POST if request.method == "POST" else None, instance=User.objects.get(pk=request.user.pk)
    )
    # A new address waits for its link; the same one in other capitals is the same mailbox.
    new_address = form.is_valid() and form.cleaned_data["email"].casefold() != request.user.email.casefold()
    refusal = mail_refusal(request, form, form.cleaned_data["email"]) if new_address else None
    if form.is_valid():
        _profile_save(request, form, new_address)
        return redirect("profile")
    response = profile_page(request, form, status=400 if form.errors else 200)
    return refusal.answer(response) if refusal else response


def _profile_save(request, form, new_address: bool):
    """The names and the licence at once; a new address only mailed its link."""
    fields = [field for field in form.changed_data if not (field == "email" and new_address) and field != "licence"]
    form.save(commit=False).save(update_fields=fields)
    if "licence" in form.changed_data:
        Profile.objects.update_or_create(user=request.user, defaults={"licence": form.cleaned_data["licence"]})
    if not new_address:
        messages.success(request, _("Profil enregistré."))
        return
    services.email_change_request(user=request.user, email=form.cleaned_data["email"], site_url=_site_url(request))
    messages.info(
        request,
        _("Un courriel a été envoyé à %(email)s : l'adresse change quand vous suivez son lien.")
        % {"email": form.cleaned_data["email"]},
    )


def profile_page(request, form=None, status=200, **extra):
    memberships = request.user.memberships.select_related("club").order_by("club__name")
    pending = invitations.invitations_pending_for(request.user)
    context = {
        "form": form or ProfileForm(instance=User.objects.get(pk=request.user.pk)),
        "memberships": memberships,
        "invitation_count": len(pending),
        "invitation_groups": invitations.invitations_by_inviter(pending),
        "api_tokens": request.user.api_tokens.order_by("created_at"),
        "token_form": ApiTokenForm(),
        "max_api_tokens": ApiToken.MAX_PER_USER,
        **extra,
    }
    return render(request, "clubsite/profile.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def email_confirm(request, token):
    """The link mailed to a new address: a button makes it the member's (a mail scanner's GET changes nothing)."""
    email = services.email_change_pending(token, request.user)
    if email is None:
        return render(request, "registration/email_confirm.html", {"invalid": True}, status=400)
    if request.method in ("GET", "HEAD"):
        return render(request, "registration/email_confirm.html", {"email": email})
    try:
        services.email_change_confirm(user=request.user, email=email)
    except services.SignupRefused as refusal:
        return render(request, "registration/email_confirm.html", {"refusal": str(refusal)}, status=400)
    messages.success(request, _("Adresse enregistrée."))
    return redirect("profile")
