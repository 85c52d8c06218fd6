from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.models import Edition, RuleSet


class NewGameForm(forms.Form):
    edition = forms.ModelChoiceField(Edition.objects.all(), label=_("Édition"), empty_label=None)
    rule_set = forms.ModelChoiceField(RuleSet.objects.all(), label=_("Règles"), empty_label=None)
    timer_seconds = forms.TypedChoiceField(
        label=_("Chrono par coup"),
        coerce=int,
        choices=[(0, _("Sans chrono")), (60, "1 min"), (120, "2 min"), (180, "3 min")],
        initial=0,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["edition"].initial = Edition.objects.default()
        self.fields["rule_set"].initial = RuleSet.objects.filter(is_default=True).first()
        for number in range(1, 5):
            self.fields[f"name{number}"] = forms.CharField(
                label=_("Joueur %(number)d") % {"number": number}, max_length=60, required=False
            )
            self.fields[f"member{number}"] = forms.CharField(
                label=_("Membre lié (nom d'utilisateur)"), max_length=150, required=False
            )

    def clean(self):
        cleaned = super().clean()
        players = []
        users = get_user_model().objects
        for number in range(1, 5):
            name = cleaned.get(f"name{number}", "").strip()
            username = cleaned.get(f"member{number}", "").strip()
            member = None
            if username:
                member = users.filter(Q(username__iexact=username) | Q(email__iexact=username)).first()
                if member is None:
                    self.add_error(f"member{number}", _("Aucun membre ne porte ce nom ou cette adresse."))
            if name or member:
                players.append((name, member))
        if len(players) < 2:
            players += [("", None)] * (2 - len(players))
        cleaned["players"] = players
        return cleaned


class ImportForm(forms.Form):
    file = forms.FileField(label=_("Fichier GCG"))
    rule_set = forms.ModelChoiceField(RuleSet.objects.all(), label=_("Règles"), empty_label=None)
    edition = forms.ModelChoiceField(
        Edition.objects.all(),
        label=_("Édition"),
        required=False,
        empty_label=_("Celle du fichier (#tile-distribution), sinon le français"),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > 512 * 1024:
            raise forms.ValidationError(_("Fichier trop volumineux : 512 Ko au plus."))
        return upload
