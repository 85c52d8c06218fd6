"""Account pages (sign-up, profile) and club pages. Log-in, log-out and passwords use Django's own auth views."""

import math
import sys

from axes.helpers import get_cool_off
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import User
from django.core.exceptions import (
    DisallowedHost,
    PermissionDenied,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import HttpResponseServerError
from django.middleware.csrf import REASON_NO_CSRF_COOKIE
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from . import invitations, services
from .forms import (
    AddMemberForm,
    ApiTokenForm,
    ClubForm,
    PasswordResetForm,
    ProfileForm,
    ProgressFilterForm,
    RoleForm,
    SignupForm,
)
from .mail_limits import mail_refusal
from .middleware import DATABASE_ERRORS, database_unavailable, same_site_referer
from .models import ApiToken, Club, Invitation, Membership, Profile
from .progress import ProgressFilters, member_progress
from .throttling import Refusal


def _get_club_for_member(request, slug) -> Club:
    """The club if the visitor belongs to it; a 404 for anyone else, so outsiders cannot tell it exists."""
    return get_object_or_404(Club.objects.for_user(request.user), slug=slug)


def _get_club_for_admin(request, slug) -> Club:
    """The club if the visitor is one of its admins; a 403 for its other members, a 404 for outsiders."""
    club = _get_club_for_member(request, slug)
    if not club.is_admin(request.user):
        raise PermissionDenied(_("Seuls les administrateurs du club gèrent ses membres."))
    return club


def _get_membership_for_admin(request, slug, membership_id) -> Membership:
    """A membership of the club, if the visitor is one of its admins (as `_get_club_for_admin`); a 404 for one of
    another club. Its `club` is the club checked, its `user` loaded."""
    club = _get_club_for_admin(request, slug)
    return get_object_or_404(club.memberships.select_related("user"), pk=membership_id)


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
    response = _profile_page(request, form, status=400 if form.errors else 200)
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


def _profile_page(request, form=None, status=200, **extra):
    memberships = request.user.memberships.select_related("club").order_by("club__name")
    context = {
        "form": form or ProfileForm(instance=User.objects.get(pk=request.user.pk)),
        "memberships": memberships,
        "invitations": invitations.invitations_pending_for(request.user),
        "api_tokens": request.user.api_tokens.order_by("created_at"),
        "token_form": ApiTokenForm(),
        "max_api_tokens": ApiToken.MAX_PER_USER,
        **extra,
    }
    return render(request, "clubsite/profile.html", context, status=status)


@require_POST
@login_required
def api_token_create(request):
    """ "Créer un jeton": a key for the API, shown once on the page that answers (only its digest is kept)."""
    token_form = ApiTokenForm(request.POST)
    if not token_form.is_valid():
        return _profile_page(request, status=400, token_form=token_form)
    if request.user.api_tokens.count() >= ApiToken.MAX_PER_USER:
        refusal = _("Vous avez déjà %(max)d jetons : supprimez-en un avant d'en créer un autre.") % {
            "max": ApiToken.MAX_PER_USER
        }
        return _profile_page(request, status=409, token_error=refusal, token_form=token_form)
    raw = ApiToken.issue(request.user, token_form.cleaned_data["label"].strip())
    return _profile_page(request, status=201, new_token=raw)


@require_POST
@login_required
def api_token_delete(request, pk):
    token = get_object_or_404(ApiToken, pk=pk, user=request.user)
    token.delete()
    messages.success(request, _("Jeton supprimé : les appels qui s'en servent sont désormais refusés."))
    return redirect(f"{reverse('profile')}#api")


@require_safe
@login_required
def progress(request):
    """ "Ma progression": the member's own numbers over time, each app's section computed by that app. A filter
    that cannot be read (a club not his, a date that is none) is said on its field, and nothing is counted."""
    form = ProgressFilterForm(request.user, request.GET or None)
    if form.is_bound and not form.is_valid():
        return render(request, "clubsite/progress.html", {"form": form, "sections": []}, status=400)
    filters = form.filters() if form.is_bound else ProgressFilters()
    context = {"form": form, "filters": filters, "sections": member_progress(request.user, filters)}
    return render(request, "clubsite/progress.html", context)


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


def _get_invitation_for_invitee(request, pk) -> Invitation:
    """Only the member invited answers; anyone else gets a 404."""
    return get_object_or_404(Invitation, pk=pk, invitee=request.user)


@require_POST
@login_required
def invitation_accept(request, pk):
    invitation = _get_invitation_for_invitee(request, pk)
    try:
        seat = invitations.invitation_accept(invitation=invitation, user=request.user)
    except invitations.InvitationRefused as refusal:
        messages.error(request, str(refusal))
        return redirect("profile")
    messages.success(request, _("Invitation acceptée : elle figure maintenant dans votre historique."))
    return redirect(seat.linked_url())


@require_POST
@login_required
def invitation_decline(request, pk):
    invitation = _get_invitation_for_invitee(request, pk)
    try:
        invitations.invitation_decline(invitation=invitation, user=request.user)
    except invitations.InvitationRefused as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, _("Invitation refusée : votre compte n'est pas lié à cette place."))
    return redirect("profile")


@require_safe
@login_required
def clubs(request):
    return _render_clubs(request, ClubForm())


@require_POST
@login_required
def club_create(request):
    form = ClubForm(request.POST)
    if not form.is_valid():
        return _render_clubs(request, form, status=400)
    club = services.club_create(name=form.cleaned_data["name"], creator=request.user)
    messages.success(request, _("Club « %(name)s » créé : vous en êtes l'administrateur.") % {"name": club.name})
    return redirect("club_detail", slug=club.slug)


def _render_clubs(request, form, status=200):
    memberships = request.user.memberships.select_related("club").order_by("club__name")
    return render(request, "clubsite/clubs.html", {"memberships": memberships, "form": form}, status=status)


@require_safe
@login_required
def club_detail(request, slug):
    club = _get_club_for_member(request, slug)
    return _render_club(request, club)


@require_POST
@login_required
def club_member_add(request, slug):
    club = _get_club_for_admin(request, slug)
    form = AddMemberForm(request.POST, club=club)
    if not form.is_valid():
        return _render_club(request, club, add_form=form, status=400)
    user, role = form.cleaned_data["user"], form.cleaned_data["role"]
    club.memberships.create(user=user, role=role)
    messages.success(request, _("%(name)s a rejoint le club.") % {"name": _display_name(user)})
    return redirect("club_detail", slug=club.slug)


@require_POST
@login_required
def club_member_role(request, slug, membership_id):
    membership = _get_membership_for_admin(request, slug, membership_id)
    club = membership.club
    form = RoleForm(request.POST)
    if not form.is_valid():
        return _club_refusal(request, club, _("Choisissez un rôle dans la liste."))
    try:
        services.membership_set_role(membership=membership, role=form.cleaned_data["role"])
    except services.MembershipRefused as refusal:
        return _club_refusal(request, club, str(refusal))
    messages.success(request, _("Rôle du membre %(name)s modifié.") % {"name": _display_name(membership.user)})
    return redirect("club_detail", slug=club.slug)


@require_POST
@login_required
def club_member_remove(request, slug, membership_id):
    membership = _get_membership_for_admin(request, slug, membership_id)
    club = membership.club
    try:
        services.membership_remove(membership=membership)
    except services.MembershipRefused as refusal:
        return _club_refusal(request, club, str(refusal))
    messages.success(request, _("%(name)s ne fait plus partie du club.") % {"name": _display_name(membership.user)})
    if membership.user == request.user:
        return redirect("clubs")
    return redirect("club_detail", slug=club.slug)


@require_POST
@login_required
def club_leave(request, slug):
    club = _get_club_for_member(request, slug)
    try:
        services.membership_remove(membership=club.memberships.get(user=request.user))
    except services.MembershipRefused as refusal:
        return _club_refusal(request, club, str(refusal))
    messages.success(request, _("Vous avez quitté le club « %(name)s ».") % {"name": club.name})
    return redirect("clubs")


def _club_refusal(request, club, reason: str):
    """A refused change to the club's members: its page again (400) with the reason, nothing changed."""
    messages.error(request, reason)
    return _render_club(request, club, status=400)


def _render_club(request, club, add_form=None, status=200):
    """The club page; its management forms only for the club's admins."""
    role = club.role_of(request.user)
    is_admin = role == Membership.Role.ADMIN
    context = {
        "club": club,
        "role": role,
        "is_admin": is_admin,
        "memberships": club.memberships.select_related("user").by_rank(),
        "add_form": (add_form or AddMemberForm(club=club)) if is_admin else None,
        "roles": Membership.Role.choices,
    }
    return render(request, "clubsite/club_detail.html", context, status=status)


def _display_name(user) -> str:
    return user.get_full_name() or user.username


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
