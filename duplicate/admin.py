from django.contrib import admin

from .models import Season, Simultane


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "start", "end", "counting", "best_of", "ranked_by"]
    list_filter = ["club", "ranked_by"]
    search_fields = ["name", "club__name"]
    date_hierarchy = "start"


@admin.register(Simultane)
class SimultaneAdmin(admin.ModelAdmin):
    """A simultané's name and time may be corrected; its edition and rules go with its game, which stays sealed
    (not shown)."""

    list_display = ["name", "body", "starts_at", "edition", "imported"]
    list_filter = ["body"]
    search_fields = ["name", "body__name"]
    date_hierarchy = "starts_at"
    fields = ["name", "body", "starts_at", "move_seconds", "edition", "rule_set", "imported"]
    readonly_fields = ["edition", "rule_set", "imported"]
