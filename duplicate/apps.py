from django.apps import AppConfig


class DuplicateConfig(AppConfig):
    name = "duplicate"
    verbose_name = "Parties en duplicate"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from clubsite import progress

        from .progress import SECTION

        progress.register("duplicate", SECTION)
