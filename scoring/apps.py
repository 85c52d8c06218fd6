from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Barème et éditions")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from clubsite import offline

        from .models import figures_stamp

        offline.register_stamp("scoring", figures_stamp)
