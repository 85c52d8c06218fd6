from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SheetsConfig(AppConfig):
    name = "sheets"
    verbose_name = _("Feuilles de marque")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from clubsite import progress

        from .progress import SECTION

        progress.register("sheets", SECTION)
