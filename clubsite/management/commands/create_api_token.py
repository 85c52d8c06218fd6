"""Print a new API token for a member: `Authorization: Bearer <token>` on /api/."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from clubsite.models import ApiToken


class Command(BaseCommand):
    help = "Crée un jeton d'API pour un membre et l'affiche (il n'est pas conservé en clair)."

    def add_arguments(self, parser):
        parser.add_argument("username")

    def handle(self, *args, **options):
        try:
            user = get_user_model().objects.get(username=options["username"])
        except get_user_model().DoesNotExist:
            raise CommandError(f"Aucun membre « {options['username']} ».") from None
        self.stdout.write(ApiToken.issue(user))
