from django import forms
from django.contrib import admin
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubsite import queue

from .engine.lexicon import WordListError, read_word_list
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
                    ("duplicate_penalty", "max_penalty"),
                    ("warnings_before_penalty", "warnings_before_penalty_blitz", "blitz_move_seconds"),
                    ("move_seconds", "move_seconds_choices"),
                ]
            },
        ),
    ]


class LexiconForm(forms.ModelForm):
    upload = forms.FileField(
        label=_("Fichier de mots"),
        required=False,
        help_text=_(
            "Texte brut (UTF-8 ou ISO-8859-1), un mot par ligne, fait des lettres de l'édition, 15 lettres au plus ; "
            "accents retirés et majuscules à l'import. Un fichier qui n'en est pas un est refusé avec sa ligne."
        ),
    )

    class Meta:
        model = Lexicon
        fields = ["name", "edition", "is_default", "licence"]

    def clean_upload(self):
        """The file as text: UTF-8 (with or without a BOM), else ISO-8859-1. Its words are read in `clean`, which
        knows the edition."""
        upload = self.cleaned_data.get("upload")
        if upload is None:
            if not (self.instance.pk and (self.instance.builtin or self.instance.word_count)):
                raise forms.ValidationError(_("Joignez le fichier de la liste, un mot par ligne."))
            return None
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(_("Fichier trop volumineux : 30 Mo au plus."))
        data = upload.read()
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return data.decode("iso-8859-1")

    def clean(self):
        """A list is one word a line, each made of the edition's letters: a file that is not (random bytes, a
        gzip, a list for another edition) is refused with its first wrong line, and nothing is saved."""
        cleaned = super().clean()
        text, edition = cleaned.get("upload"), cleaned.get("edition")
        if text is None or edition is None:
            return cleaned
        try:
            words = read_word_list(text, Edition.objects.engine(edition.code))
        except WordListError as error:
            self.add_error("upload", error.translated(gettext))
            return cleaned
        if not words:
            self.add_error("upload", _("Ce fichier ne contient aucun mot."))
        cleaned["upload"] = words
        return cleaned

    def save(self, commit=True):
        words = self.cleaned_data.get("upload")
        if words:
            self.instance.set_words(words)
            self.instance.builtin = ""
        return super().save(commit)


def _rebuild_index_later(request, lexicon):
    """Queue the building of the top finder's index once the list is saved. With no worker to be reached, the
    first search builds it instead (5 to 15 s), which the admin is told (the broker's timeouts bound the wait, and
    the failure is logged: `clubsite.queue`)."""
    from django.contrib import messages
    from django.db import transaction

    from .tasks import rebuild_move_index

    def send():
        try:
            queue.send(rebuild_move_index, lexicon.pk)
        except queue.QueueUnavailable:
            messages.warning(
                request,
                _(
                    "L'index du chercheur de tops n'a pas pu être confié aux tâches de fond (service indisponible) : "
                    "la première recherche le construira."
                ),
            )

    transaction.on_commit(send)


@admin.register(Lexicon)
class LexiconAdmin(admin.ModelAdmin):
    form = LexiconForm
    list_display = ["name", "edition", "is_default", "word_count", "updated_at"]
    list_filter = ["edition"]
    readonly_fields = ["word_count", "builtin", "updated_at"]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if form.cleaned_data.get("upload"):
            _rebuild_index_later(request, obj)
