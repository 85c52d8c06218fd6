from django import forms
from django.utils.translation import gettext_lazy as _

from clubsite.invitations import is_address, members_named, typed_name
from clubsite.limits import max_length
from clubsite.text import VisibleText
from scoring.engine.gcg import decode_gcg
from scoring.models import Edition, RuleSet

from . import gcg_files
from .models import Player


class NewGameForm(forms.Form):
    player_count = forms.TypedChoiceField(label=_("Nombre de joueurs"), coerce=int, required=False)
    edition = forms.ModelChoiceField(Edition.objects.all(), label=_("Édition"), empty_label=None)
    rule_set = forms.ModelChoiceField(RuleSet.objects.all(), label=_("Règles"), empty_label=None)
    timer_seconds = forms.TypedChoiceField(label=_("Chrono par coup"), coerce=int, initial=0)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["edition"].initial = Edition.objects.default()
        self.fields["rule_set"].initial = RuleSet.objects.filter(is_default=True).first()
        # No timer, or one of the times per move the chosen rule set offers (RuleSet.move_seconds_choices).
        rules = RuleSet.objects.chosen(self.data.get(self.add_prefix("rule_set")))
        self.fields["timer_seconds"].choices = [(0, _("Sans chrono")), *rules.move_time_choices()]
        # As many seats as the rule sets admit players (RuleSet.min_players, max_players, edited in the admin).
        self.min_players, self.max_players = RuleSet.objects.player_bounds()
        count = self.fields["player_count"]
        count.choices = [(n, str(n)) for n in range(self.min_players, self.max_players + 1)]
        count.initial = count.empty_value = self.min_players
        for number in self.seat_numbers():
            self.fields[f"name{number}"] = forms.CharField(
                label=_("Joueur %(number)d") % {"number": number},
                max_length=max_length(Player, "name"),
                required=False,
                validators=[VisibleText(_("Un nom de joueur"))],
            )
            # An address that has no account names the seat (its part before "@"), as a typed name would.
            self.fields[f"member{number}"] = forms.CharField(
                label=_("Inviter un membre (nom d'utilisateur ou adresse)"),
                max_length=254,
                required=False,
                validators=[VisibleText(_("Un nom d'utilisateur ou une adresse"))],
            )

    def seat_numbers(self) -> range:
        return range(1, self.max_players + 1)

    def seats(self) -> list[tuple]:
        """Each seat's fields, for the page: (its number, the name's field, the member's field)."""
        return [(number, self[f"name{number}"], self[f"member{number}"]) for number in self.seat_numbers()]

    def clean(self):
        """The players in their seats: as many as chosen, or up to the last seat given a name or a member; an
        unnamed player is "Joueur 3" on the sheet. A member named for a seat is invited to it (he is linked once he
        accepts): until then the seat is the name typed, or the user name typed."""
        cleaned = super().clean()
        identifiers = {number: cleaned.get(f"member{number}", "").strip() for number in self.seat_numbers()}
        members = members_named(identifiers.values())
        seats = []
        for number in self.seat_numbers():
            name = cleaned.get(f"name{number}", "").strip()
            identifier = identifiers[number]
            member = members.get(identifier)
            if identifier and member is None and not is_address(identifier):
                self.add_error(f"member{number}", _("Aucun membre ne porte ce nom."))
            seats.append((name or typed_name(identifier), member, bool(name or identifier)))
        given = [number for number, (_name, _member, filled) in enumerate(seats, start=1) if filled]
        count = max(cleaned.get("player_count") or self.min_players, *given, self.min_players)
        cleaned["players"] = [(name, member) for name, member, _filled in seats[:count]]
        # Whom the member asked to invite, as typed and found or not: the page says the same for an address with no
        # account, and the rate of invitations counts it alike.
        cleaned["named"] = [identifiers[number] for number in range(1, count + 1) if identifiers[number]]
        cleaned["invited"] = [members.get(identifier) for identifier in cleaned["named"]]
        return cleaned


class ImportForm(forms.Form):
    file = forms.FileField(label=_("Fichier GCG"))
    rule_set = forms.ModelChoiceField(
        RuleSet.objects.all(),
        label=_("Règles"),
        empty_label=None,
        help_text=_("Pour un fichier qui ne les dit pas : un fichier exporté d'ici garde les siennes."),
    )
    edition = forms.ModelChoiceField(
        Edition.objects.all(),
        label=_("Édition"),
        required=False,
        empty_label=_("Celle du fichier (#tile-distribution), sinon le français"),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["file"].help_text = _("%(kilobytes)d Ko et %(moves)d coups au plus.") % {
            "kilobytes": gcg_files.MAX_FILE_BYTES // 1024,
            "moves": gcg_files.MAX_MOVES,
        }

    def clean_file(self):
        """The file and its text (`cleaned_data["text"]`): a GCG record is text, in UTF-8 when its first line says
        so, ISO-8859-1 otherwise; a byte that is not UTF-8, or a NUL character, is refused with its line."""
        upload = self.cleaned_data["file"]
        if upload.size > gcg_files.MAX_FILE_BYTES:
            raise forms.ValidationError(
                _("Fichier trop volumineux : %(kilobytes)d Ko au plus."),
                params={"kilobytes": gcg_files.MAX_FILE_BYTES // 1024},
            )
        data = upload.read(gcg_files.MAX_FILE_BYTES + 1)
        try:
            text = decode_gcg(data)
        except UnicodeDecodeError as error:
            raise forms.ValidationError(
                _("Ligne %(line)d : le fichier se dit en UTF-8 (#character-encoding) mais ce texte ne l'est pas."),
                params={"line": data.count(b"\n", 0, error.start) + 1},
            ) from None
        if "\x00" in text:
            raise forms.ValidationError(
                _("Ligne %(line)d : un caractère nul ; un fichier GCG est du texte."),
                params={"line": text.count("\n", 0, text.index("\x00")) + 1},
            )
        moves = sum(1 for line in text.splitlines() if line.startswith(">"))  # a GCG event line
        if moves > gcg_files.MAX_MOVES:
            raise forms.ValidationError(
                _("Ce fichier compte %(count)d coups : une partie en compte %(max)d au plus."),
                params={"count": moves, "max": gcg_files.MAX_MOVES},
            )
        self.cleaned_data["text"] = text
        return upload
