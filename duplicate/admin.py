from django.contrib import admin

from .models import Season


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "start", "end", "counting", "best_of", "ranked_by"]
    list_filter = ["club", "ranked_by"]
    search_fields = ["name", "club__name"]
    date_hierarchy = "start"
