"""The free French word list shipped with the site (Dicollecte via dictionary-fr@3.0.0, MPL-2.0), the French
edition's default."""

from django.db import migrations

LICENCE = (
    "Liste libre tirée du dictionnaire orthographique Dicollecte 7.5 « classique » (Grammalecte), paquet npm "
    "dictionary-fr@3.0.0, sous licence MPL-2.0 ; développée et normalisée par scripts/build_wordlist.py "
    "(400 344 mots). Ce n'est pas l'ODS : un repère, jamais l'arbitre officiel. "
    "Voir scoring/data/LICENSE-dicollecte.txt."
)


def load(apps, schema_editor):
    Edition = apps.get_model("scoring", "Edition")
    Lexicon = apps.get_model("scoring", "Lexicon")
    french = Edition.objects.filter(code="fr").first()
    if french:
        Lexicon.objects.create(
            name="Liste libre Grammalecte (Dicollecte)",
            edition=french,
            is_default=True,
            licence=LICENCE,
            builtin="fr_dicollecte",
            word_count=400344,
        )


def unload(apps, schema_editor):
    apps.get_model("scoring", "Lexicon").objects.filter(builtin="fr_dicollecte").delete()


class Migration(migrations.Migration):
    dependencies = [("scoring", "0003_lexicon")]

    operations = [migrations.RunPython(load, unload)]
