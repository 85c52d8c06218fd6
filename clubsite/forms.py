from django import forms
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.validators import validate_email
from django.utils.translation import gettext_lazy as _

from .invitations import is_address, members_named
from .models import LICENCE_VALIDATOR, ApiToken, Club, Membership, Profile
from .progress import ProgressFilters
from .text import OneScript, VisibleText


def _visible_names(form):
    """The person's names, as every ranking that shows him prints them."""
    form.fields["first_name"].validators.append(VisibleText(_("Un prénom")))
    form.fields["last_name"].validators.append(VisibleText(_("Un nom")))


def _true_username(form):
    """The user name, as a session's history shows it (@alice): visible, and of one script, since « аlice » with
    a Cyrillic а would pass for alice. Django has already made it NFKC (ｂｏｂ and 𝐛𝐨𝐛 are bob)."""
    what = _("Un nom d'utilisateur")
    form.fields["username"].validators += [VisibleText(what), OneScript(what)]


class SignupForm(UserCreationForm):
    """The address is not checked here: whether it has an account is told to its owner only, by mail (see
    services.signup_request)."""

    class Meta(UserCreationForm.Meta):
        fields = ["username", "email", "first_name", "last_name"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].required = True
        self.fields["email"].help_text = _("Pour recevoir un lien si vous oubliez votre mot de passe.")
        self.fields["first_name"].help_text = _("Facultatif, comme le nom : ils forment le nom affiché.")
        _true_username(self)
        _visible_names(self)


class MemberCreationForm(AdminUserCreationForm):
    """The admin's "Ajouter utilisateur", held to the sign-up's rule on the name."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _true_username(self)


class MemberChangeForm(UserChangeForm):
    """A member's admin page: his user name and names held to the rules of the sign-up and the profile."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _true_username(self)
        _visible_names(self)


class ProfileForm(forms.ModelForm):
    """The names change at once; a new address only once its link is followed (services.email_change_request),
    which is also where an address that has an account is told apart, by mail to its owner."""

    # Kept on the member's Profile: a seat he is linked to in a duplicate session takes it when its line gave none.
    licence = forms.CharField(
        label=_("Licence (fédération)"),
        max_length=Profile._meta.get_field("licence").max_length,
        required=False,
        validators=[LICENCE_VALIDATOR],
        help_text=_("Reprise sur les séances de duplicate où vous êtes inscrit, et dans leurs exports."),
    )

    class Meta:
        model = User
        fields = ["first_name", "last_name", "email"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].required = True
        self.fields["licence"].initial = Profile.licence_of(self.instance)
        _visible_names(self)


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["name"]
        labels = {"name": _("Nom du club")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].validators.append(VisibleText(_("Un nom de club")))


class InviteMemberForm(forms.Form):
    """ "Inviter au club": a user name or an address, and the role offered. A user name is public (the sign-up form
    says when one is taken, the club page lists its members'): one that is nobody's, or already a member's, is
    refused. An address is never refused for whose it is: its `member` is found or None, and the page answers alike
    (clubsite.invitations.members_named)."""

    identifier = forms.CharField(
        label=_("Nom d'utilisateur ou adresse électronique"),
        max_length=254,
        validators=[VisibleText(_("Un nom d'utilisateur ou une adresse"))],
    )
    role = forms.TypedChoiceField(
        label=_("Rôle offert"), choices=Membership.Role.choices, coerce=Membership.Role, initial=Membership.Role.MEMBER
    )

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club

    def clean_identifier(self):
        identifier = self.cleaned_data["identifier"]
        if is_address(identifier):
            validate_email(identifier.lstrip("@"))
        member = members_named([identifier]).get(identifier)
        if not is_address(identifier):
            if member is None:
                raise forms.ValidationError(_("Aucun membre ne porte ce nom."))
            if self.club.memberships.filter(user=member).exists():
                raise forms.ValidationError(_("Déjà membre du club."))
        self.cleaned_data["member"] = member
        return identifier


class RoleForm(forms.Form):
    role = forms.TypedChoiceField(label=_("Rôle"), choices=Membership.Role.choices, coerce=Membership.Role)


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's form, its field named as on every other page of the site."""

    email = forms.EmailField(
        label=_("Adresse électronique"), max_length=254, widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )


class ProgressFilterForm(forms.Form):
    """The progress page's filters, sent by GET: one of the member's clubs, and a period."""

    club = forms.ChoiceField(
        label=_("Club"),
        required=False,
        error_messages={"invalid_choice": _("Choisissez l'un de vos clubs.")},
    )
    # An <input type="date"> takes ISO dates only; the French format is read too, for a typed address.
    du = forms.DateField(
        label=_("Du"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    au = forms.DateField(
        label=_("Au"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )

    def __init__(self, user, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.clubs = {club.slug: club for club in Club.objects.for_user(user).order_by("name")}
        self.fields["club"].choices = [("", _("Tous mes clubs"))] + [
            (slug, club.name) for slug, club in self.clubs.items()
        ]

    def clean(self):
        data = super().clean()
        start, end = data.get("du"), data.get("au")
        if start and end and start > end:
            self.add_error("au", _("La fin de la période précède son début."))
        return data

    def filters(self) -> ProgressFilters:
        data = self.cleaned_data
        return ProgressFilters(club=self.clubs.get(data["club"]), start=data["du"], end=data["au"])


class ApiTokenForm(forms.ModelForm):
    """ "Créer un jeton": its name, to tell a member's tokens apart (optional)."""

    class Meta:
        model = ApiToken
        fields = ["label"]
        labels = {"label": _("Nom du jeton (facultatif)")}
        widgets = {"label": forms.TextInput(attrs={"placeholder": _("logiciel d'arbitrage")})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["label"].validators.append(VisibleText(_("Un nom de jeton")))
