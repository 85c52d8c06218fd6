from django.apps import AppConfig


class SheetsConfig(AppConfig):
    name = "sheets"
    verbose_name = "Feuilles de marque"
    default_auto_field = "django.db.models.BigAutoField"
