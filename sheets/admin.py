from django.contrib import admin

from .models import Game, Line, Player


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    raw_id_fields = ["member"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["pk", "__str__", "owner", "edition", "rule_set", "created_at", "finished_at"]
    list_filter = ["edition", "rule_set"]
    search_fields = ["owner__username", "players__name"]
    raw_id_fields = ["owner"]
    inlines = [PlayerInline]


@admin.register(Line)
class LineAdmin(admin.ModelAdmin):
    list_display = ["pk", "game", "player", "kind", "points", "move"]
    list_filter = ["kind"]
    raw_id_fields = ["game", "player"]
