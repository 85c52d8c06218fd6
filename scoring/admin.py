from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import Edition, EditionLetter, Lexicon, RuleSet

MAX_UPLOAD_BYTES = 30 * 1024 * 1024


class EditionLetterInline(admin.TabularInline):
    model = EditionLetter
    extra = 0
    fields = ["position", "letter", "count", "value", "is_vowel", "is_consonant"]


@admin.register(Edition)
class EditionAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "is_default", "tile_total", "updated_at"]
    search_fields = ["name", "code"]
    inlines = [EditionLetterInline]

    @admin.display(description=_("jetons"))
    def tile_total(self, edition):
        return sum(letter.count for letter in edition.letters.all())

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("letters")

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        form.instance.touch()


@admin.register(RuleSet)
class RuleSetAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "is_default", "min_players", "max_players", "bingo_bonus", "updated_at"]
    search_fields = ["name", "code"]
    fieldsets = [
        (None, {"fields": ["code", "name", "is_default"]}),
        (
            _("Partie classique"),
            {
                "fields": [
                    ("min_players", "max_players", "fallback"),
                    ("rack_size", "bingo_bonus"),
                    "exchange_min_bag",
                    ("challenge_penalty", "default_penalty"),
                    ("consecutive_pass_limit", "passes_per_player_limit", "pass_rounds_limit"),
                    "end_of_game",
                    "max_move_points",
                ]
            },
        ),
        (
            _("Duplicate"),
            {
                "fields": [
                    ("solo_bonus", "solo_min_players"),
                    "duplicate_penalty",
                    ("warnings_before_penalty", "warnings_before_penalty_blitz"),
                    ("move_seconds", "move_seconds_choices"),
                ]
            },
        ),
    ]


class LexiconForm(forms.ModelForm):
    upload = forms.FileField(
        label=_("Fichier de mots"),
        required=False,
        help_text=_("Texte brut, un mot par ligne (UTF-8 ou ISO-8859-1) ; accents retirés et majuscules à l'import."),
    )

    class Meta:
        model = Lexicon
        fields = ["name", "edition", "is_default", "licence"]

    def clean_upload(self):
        upload = self.cleaned_data.get("upload")
        if upload is None:
            if not (self.instance.pk and (self.instance.builtin or self.instance.word_count)):
                raise forms.ValidationError(_("Joignez le fichier de la liste, un mot par ligne."))
            return None
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(_("Fichier trop volumineux : 30 Mo au plus."))
        data = upload.read()
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("iso-8859-1")
        lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
        if not lines:
            raise forms.ValidationError(_("Ce fichier ne contient aucun mot."))
        return lines

    def save(self, commit=True):
        lines = self.cleaned_data.get("upload")
        if lines:
            self.instance.set_words(lines)
            self.instance.builtin = ""
        return super().save(commit)


def _rebuild_index_later(lexicon):
    from django.db import transaction

    from .tasks import rebuild_move_index

    transaction.on_commit(lambda: rebuild_move_index.delay(lexicon.pk))


@admin.register(Lexicon)
class LexiconAdmin(admin.ModelAdmin):
    form = LexiconForm
    list_display = ["name", "edition", "is_default", "word_count", "updated_at"]
    list_filter = ["edition"]
    readonly_fields = ["word_count", "builtin", "updated_at"]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if form.cleaned_data.get("upload"):
            _rebuild_index_later(obj)
