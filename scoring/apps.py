from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Barème et éditions"
    default_auto_field = "django.db.models.BigAutoField"
