"""Make the top finder ready: each word list's index and the compiled kernel, in the cache directory and in this
process (scoring/warmup.py). Run when the project is installed (`make setup`, the README's deployment steps) and by
the server processes when they start (gunicorn.conf.py, clubsite/celery.py), so that no user's search builds,
compiles or loads them. Works before `migrate` too: it then prepares the list shipped with the site."""

from django.core.management.base import BaseCommand

from scoring.engine.gaddag import cache_dir
from scoring.warmup import prepare


class Command(BaseCommand):
    help = (
        "Prépare le chercheur de tops : l'index (GADDAG) de la liste de mots de chaque édition et le code compilé, "
        "dans le dossier de cache et dans ce processus, pour qu'aucune recherche ne les construise."
    )

    def handle(self, *args, verbosity=1, **options):
        for prepared in prepare():
            if not verbosity:
                continue
            words = f"{prepared.words:,}".replace(",", " ")
            origin = (
                " (liste livrée avec le site : la base n'en nomme aucune, ou n'est pas encore prête)"
                if prepared.shipped
                else ""
            )
            self.stdout.write(
                f"Chercheur de tops prêt pour « {prepared.edition} »{origin} : {words} mots, index en "
                f"{prepared.index_seconds:.2f} s, première recherche en {prepared.search_seconds:.2f} s "
                f"(cache : {cache_dir()})."
            )
