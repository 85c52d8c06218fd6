from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import Edition, EditionLetter, RuleSet


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
