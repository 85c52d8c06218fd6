from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubsite.models import Club
from scoring.models import Edition, RuleSet

from .models import Session


class SessionForm(forms.Form):
    name = forms.CharField(label=_("Nom"), max_length=120)
    # An <input type="date"> takes ISO dates only: the French format (24/11/2026) would leave it empty.
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    club = forms.ModelChoiceField(
        Club.objects.none(), label=_("Club"), required=False, empty_label=_("Séance personnelle")
    )
    edition = forms.ModelChoiceField(Edition.objects.all(), label=_("Édition"), empty_label=None)
    rule_set = forms.ModelChoiceField(RuleSet.objects.all(), label=_("Règles"), empty_label=None)
    move_seconds = forms.TypedChoiceField(
        label=_("Temps par coup"),
        coerce=int,
        choices=[(60, "1 min"), (120, "2 min"), (150, "2 min 30"), (180, "3 min")],
        initial=180,
    )
    entry = forms.ChoiceField(label=_("Qui saisit les scores"), choices=Session.Entry.choices)
    automatic = forms.BooleanField(
        label=_("Partie automatique (seul face aux tops : le serveur tire et place chaque top)"),
        required=False,
    )
    players = forms.CharField(
        label=_("Joueurs"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_(
            "Un joueur par ligne : « table;nom » ou le nom seul ; « @identifiant » pour un membre du site. "
            "Un fichier CSV collé convient."
        ),
    )

    def __init__(self, user, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = Club.objects.organised_by(user)
        self.fields["edition"].initial = Edition.objects.default()
        self.fields["rule_set"].initial = RuleSet.objects.filter(is_default=True).first()
        self.fields["date"].initial = timezone.localdate()


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Nom du tournoi"), max_length=120)
    sessions = forms.ModelMultipleChoiceField(
        Session.objects.none(), label=_("Séances"), widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, user, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["sessions"].queryset = Session.objects.organised_by(user)


class AgainForm(forms.Form):
    """ "Nouvelle séance avec les mêmes joueurs": its own name and date, so that the two are told apart."""

    name = forms.CharField(label=_("Nom de la nouvelle séance"), max_length=120)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
