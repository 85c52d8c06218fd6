from django import forms
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from clubsite.limits import integer_range, max_length
from clubsite.models import LICENCE_VALIDATOR, Club
from clubsite.text import VisibleText
from scoring.models import Edition, RuleSet

from .errors import DuplicateError
from .limits import LICENCE, MAX_TABLE, PLAYER_CLUB, PLAYER_NAME, SERIES
from .models import SEASON_BEST_OF_MAX, Result, Season, Session
from .services import game_files, simultanes

SESSION_NAME = VisibleText(_("Un nom de séance"))


def players_field(help_text) -> forms.CharField:
    """The players pasted a line each (`player_lines.parse_player_lines`), none at first, with how to write them."""
    return forms.CharField(
        label=_("Joueurs"), required=False, widget=forms.Textarea(attrs={"rows": 6}), help_text=help_text
    )


def game_file_field(help_text) -> forms.FileField:
    """The optional upload of a game file (JSON, `games.FORMAT`), with what it does on this form."""
    return forms.FileField(
        label=_("Fichier de partie (facultatif)"),
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
        help_text=help_text,
    )


def move_seconds_field() -> forms.TypedChoiceField:
    """The time per move, its choices those of the game's rule set (`offer_move_times`)."""
    return forms.TypedChoiceField(label=_("Temps par coup"), coerce=int)


def offer_move_times(field: forms.TypedChoiceField, rules) -> None:
    """A time per move field offers the times of `rules` (an engine `RuleSet`), its own first."""
    field.choices = rules.move_time_choices()
    field.initial = rules.first_move_seconds


class GameSetupMixin:
    """For a form that starts a game (a session, a simultané) with the fields `edition`, `rule_set` and
    `game_file`: the site's default edition and rules are chosen at first; a game file gives the edition and the
    moves (`cleaned_data["game"]`, None without one), read with the rules chosen."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["edition"].initial = Edition.objects.default()
        self.fields["rule_set"].initial = RuleSet.objects.filter(is_default=True).first()
        rules = RuleSet.objects.chosen(self.data.get(self.add_prefix("rule_set")))
        offer_move_times(self.fields["move_seconds"], rules)

    def clean(self):
        data = super().clean()
        data["game"] = None
        upload = data.get("game_file")
        if upload and data.get("rule_set"):
            try:
                data["edition"], data["game"] = game_files.read_game_file(upload, data["rule_set"])
            except DuplicateError as error:
                self.add_error("game_file", str(error))
        return data

    def game_setup(self) -> dict:
        """The game the valid form sets up, as the services take it: edition, rule set, time per move, and the moves
        of its game file (None without one)."""
        return {name: self.cleaned_data[name] for name in ("edition", "rule_set", "move_seconds", "game")}


class SessionForm(GameSetupMixin, forms.Form):
    name = forms.CharField(label=_("Nom"), max_length=max_length(Session, "name"), validators=[SESSION_NAME])
    # An <input type="date"> takes ISO dates only: the French format (24/11/2026) would leave it empty.
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    club = forms.ModelChoiceField(
        Club.objects.none(), label=_("Club"), required=False, empty_label=_("Séance personnelle")
    )
    edition = forms.ModelChoiceField(Edition.objects.all(), label=_("Édition"), empty_label=None)
    rule_set = forms.ModelChoiceField(RuleSet.objects.all(), label=_("Règles"), empty_label=None)
    move_seconds = move_seconds_field()
    entry = forms.ChoiceField(
        label=_("Qui saisit les scores"), choices=Session.Entry.choices, initial=Session.Entry.ARBITER
    )
    automatic = forms.BooleanField(
        label=_("Partie automatique (seul face aux tops : le serveur tire et place chaque top)"),
        required=False,
    )
    players = players_field(
        _(
            "Un joueur par ligne : « table;nom » ou le nom seul ; « @identifiant » pour un membre du site. "
            "Un fichier CSV collé convient."
        )
    )
    game_file = game_file_field(
        _(
            "Une partie exportée d'une autre séance (JSON) : ses tirages et ses tops se jouent dans l'ordre, "
            "dans son édition."
        )
    )

    def __init__(self, user, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = Club.objects.organised_by(user)
        self.fields["date"].initial = timezone.localdate()

    def clean(self):
        data = super().clean()
        if data.get("automatic") and data["game"]:
            self.add_error("game_file", _("Une partie automatique tire ses coups : pas de fichier de partie."))
        return data


class SessionsField(forms.ModelMultipleChoiceField):
    """Sessions chosen by id. An id beyond the column names no session; SQLite would raise on it rather than
    find nothing, so it is refused before the query."""

    def _check_values(self, value):
        low, high = integer_range(Session, "id")
        for pk in value:
            if str(pk).isascii() and str(pk).lstrip("-").isdigit() and not low <= int(pk) <= high:
                raise forms.ValidationError(
                    self.error_messages["invalid_choice"], code="invalid_choice", params={"value": pk}
                )
        return super()._check_values(value)


class TournamentForm(forms.Form):
    name = forms.CharField(
        label=_("Nom du tournoi"),
        max_length=max_length(Session, "name"),
        validators=[VisibleText(_("Un nom de tournoi"))],
    )
    sessions = SessionsField(Session.objects.none(), label=_("Séances"), widget=forms.CheckboxSelectMultiple)

    def __init__(self, user, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["sessions"].queryset = Session.objects.organised_by(user)


class AgainForm(forms.Form):
    """ "Nouvelle séance avec les mêmes joueurs": its own name and date, so that the two are told apart."""

    name = forms.CharField(
        label=_("Nom de la nouvelle séance"), max_length=max_length(Session, "name"), validators=[SESSION_NAME]
    )
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))


def _messages(text, *codes) -> dict:
    """The same French sentence for each way a field can be wrong: the sentence says what is expected."""
    return dict.fromkeys(codes, text)


# A sentence with its figures, translated when it is shown rather than when this module is imported.
_with_figures = lazy(lambda sentence, figures: sentence % figures, str)


def _optional_text(max_chars: int, validator, *, too_long, nul) -> forms.CharField:
    """A text a player's row may leave empty, of `max_chars` characters at most, each refusal in its own words:
    `too_long` given the figure as %(max)d, `nul` for a NUL character."""
    return forms.CharField(
        required=False,
        max_length=max_chars,
        validators=[validator],
        error_messages={"max_length": _with_figures(too_long, {"max": max_chars}), "null_characters_not_allowed": nul},
    )


class PlayersForm(forms.Form):
    """ "Ajouter des joueurs": a list pasted as on a new session's form."""

    players = forms.CharField(error_messages=_messages(_("Collez au moins un joueur."), "required"))


class PlayerForm(forms.Form):
    """A player's row on the session's page: his name, his table, absent (forfait), his licence, club and series."""

    name = forms.CharField(
        max_length=PLAYER_NAME,
        validators=[VisibleText(_("Un nom de joueur"))],
        error_messages=_messages(
            _with_figures(_("Un nom de joueur compte de 1 à %(max)d caractères."), {"max": PLAYER_NAME}),
            "required",
            "max_length",
        )
        | {"null_characters_not_allowed": _("Un nom de joueur ne peut contenir le caractère nul.")},
    )
    table = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_TABLE,
        error_messages=_messages(
            _with_figures(_("Les tables vont de 1 à %(max)d."), {"max": MAX_TABLE}), "invalid", "min_value", "max_value"
        ),
    )
    absent = forms.BooleanField(required=False)
    # What the federation knows of him, as a pasted line gives it.
    licence = _optional_text(
        LICENCE,
        LICENCE_VALIDATOR,
        too_long=_("Une licence compte %(max)d lettres et chiffres au plus."),
        nul=_("Une licence ne compte que des lettres et des chiffres, sans espace."),
    )
    club = _optional_text(
        PLAYER_CLUB,
        VisibleText(_("Un nom de club")),
        too_long=_("Un nom de club compte %(max)d caractères au plus."),
        nul=_("Un nom de club ne peut contenir le caractère nul."),
    )
    series = _optional_text(
        SERIES,
        VisibleText(_("Une série")),
        too_long=_("Une série compte %(max)d caractères au plus."),
        nul=_("Une série ne peut contenir le caractère nul."),
    )


SCORE = integer_range(Result, "score")


class ResultForm(forms.Form):
    """A bulletin, from the arbiter's row or the player's phone: a score in digits or the move played in notation;
    and the arbiter's marks (an avertissement, a penalty in points, a zero). `saved_score` is the score the row
    showed: a move sent with it unchanged has no score written beside it. A penalty is bounded by the session's
    rule set (`max_penalty`, given when the form is made)."""

    score = forms.IntegerField(
        required=False,
        min_value=SCORE[0],
        max_value=SCORE[1],
        error_messages={
            "invalid": _("Un score s'écrit en chiffres."),
            "min_value": _("Un score est un nombre positif ou nul."),
            "max_value": _("Score trop grand : faute de frappe ?"),
        },
    )
    saved_score = forms.IntegerField(required=False)
    move = forms.CharField(
        required=False,
        max_length=max_length(Result, "move"),
        validators=[VisibleText(_("Un coup"))],
        error_messages={
            "max_length": _with_figures(
                _("Un coup s'écrit en %(max)d caractères au plus : « H4 VAGUE »."), {"max": max_length(Result, "move")}
            ),
            "null_characters_not_allowed": _("Un coup ne peut contenir le caractère nul."),
        },
    )
    # The row's button sends 1 to give an avertissement and 0 to take it back; without it, the mark stays.
    warning = forms.TypedChoiceField(
        choices=[("1", "1"), ("0", "0")], coerce=lambda value: value == "1", required=False, empty_value=None
    )
    zero = forms.BooleanField(required=False)

    def __init__(self, *args, max_penalty: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["penalty"] = forms.IntegerField(
            required=False,
            min_value=0,
            max_value=max_penalty,
            error_messages=_messages(
                _with_figures(_("Une pénalité va de 0 à %(max)d points."), {"max": max_penalty}),
                "invalid",
                "min_value",
                "max_value",
            ),
        )


class SeasonForm(forms.ModelForm):
    """A season's page: its club (when created, among those the member organises), name, dates, which sessions
    count and how it ranks. The model checks that it ends after it starts and that "the best" says how many."""

    class Meta:
        model = Season
        fields = ["club", "name", "start", "end", "counting", "best_of", "ranked_by"]
        # An <input type="date"> takes ISO dates only.
        widgets = {
            "start": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "counting": forms.RadioSelect,
            "ranked_by": forms.RadioSelect,
        }
        labels = {
            "name": _("Nom de la saison"),
            "start": _("Du"),
            "end": _("Au"),
            "counting": _("Séances retenues"),
            "best_of": _("Nombre de meilleures séances retenues"),
            "ranked_by": _("Classement par"),
        }
        error_messages = {
            "name": {"null_characters_not_allowed": _("Un nom de saison ne peut contenir le caractère nul.")},
            "best_of": _messages(
                _with_figures(_("On retient de 1 à %(max)d séances par joueur."), {"max": SEASON_BEST_OF_MAX}),
                "invalid",
                "min_value",
                "max_value",
            ),
        }

    def __init__(self, user, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            del self.fields["club"]  # a season stays with its club
        else:
            self.fields["club"].queryset = Club.objects.organised_by(user)
            self.fields["club"].empty_label = None
        self.fields["name"].validators.append(VisibleText(_("Un nom de saison")))
        self.fields["best_of"].widget.attrs.update(min=1, max=SEASON_BEST_OF_MAX)


class SimultaneForm(GameSetupMixin, forms.Form):
    """A federation body prepares a simultané: its game drawn by the server now, or read from a game file."""

    name = forms.CharField(
        label=_("Nom"), max_length=max_length(Session, "name"), validators=[VisibleText(_("Un nom de simultané"))]
    )
    body = forms.ModelChoiceField(Club.objects.none(), label=_("Organisé par"), empty_label=None)
    starts_at = forms.DateTimeField(
        label=_("Début (date et heure)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        help_text=_("Aucune salle ne peut tirer son premier coup avant."),
    )
    edition = SessionForm.base_fields["edition"]
    rule_set = SessionForm.base_fields["rule_set"]
    move_seconds = move_seconds_field()
    game_file = game_file_field(
        _(
            "Sans fichier, le serveur tire la partie maintenant (règles FISF) et place le meilleur coup de chaque "
            "tirage comme top. Personne ne la voit avant de la jouer."
        )
    )

    def __init__(self, user, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["body"].queryset = Club.objects.organised_by(user).bodies()

    def clean_starts_at(self):
        return future_start(self.cleaned_data["starts_at"])


def future_start(starts_at):
    """The start typed, to come (`simultanes.future_start`, the API's rule too)."""
    try:
        return simultanes.future_start(starts_at)
    except DuplicateError as error:
        raise forms.ValidationError(error.sentences()) from error


class SimultaneEditForm(forms.Form):
    """What the body corrects in a simultané until a room has drawn: the times per move are its rule set's."""

    name = SimultaneForm.base_fields["name"]
    starts_at = SimultaneForm.base_fields["starts_at"]
    move_seconds = move_seconds_field()

    def __init__(self, simultane, *args, **kwargs):
        super().__init__(*args, **kwargs)
        offer_move_times(self.fields["move_seconds"], RuleSet.objects.engine(simultane.rule_set.code))

    def clean_starts_at(self):
        return future_start(self.cleaned_data["starts_at"])


class RoomForm(forms.Form):
    """A club's organiser registers a room to a simultané: his club, who enters the scores (as a new session's
    form offers it), his players."""

    club = forms.ModelChoiceField(Club.objects.none(), label=_("Club"), empty_label=None)
    entry = SessionForm.base_fields["entry"]
    players = players_field(
        _(
            "Un joueur par ligne : « table;nom;licence;club;série » (licence, club et série facultatifs : la série "
            "sert au classement par série), « @identifiant » pour un membre du site, ou un fichier CSV collé. "
            "Vous pourrez en ajouter ensuite."
        )
    )

    def __init__(self, user, simultane, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # His clubs (not a federation body) that have no room in it yet.
        clubs = Club.objects.organised_by(user).filter(kind=Club.Kind.CLUB)
        self.fields["club"].queryset = clubs.exclude(duplicate_sessions__simultane=simultane)
