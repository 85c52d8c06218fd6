"""Loads the nine editions of facts §3 and the two rule sets of the seeds."""

import dataclasses

from django.db import migrations

from scoring.engine.editions import BLANK, BUILTIN_EDITIONS, DEFAULT_EDITION
from scoring.engine.rules import BUILTIN_RULE_SETS, DEFAULT_RULES

RULE_FIELDS_SKIPPED = {"code", "name", "fallback_code", "move_seconds_choices"}


def load(apps, schema_editor):
    Edition = apps.get_model("scoring", "Edition")
    EditionLetter = apps.get_model("scoring", "EditionLetter")
    RuleSet = apps.get_model("scoring", "RuleSet")
    for edition in BUILTIN_EDITIONS.values():
        row = Edition.objects.create(
            code=edition.code, name=edition.name, is_default=edition.code == DEFAULT_EDITION.code
        )
        letters = [
            EditionLetter(
                edition=row,
                letter=spec.letter,
                count=spec.count,
                value=spec.value,
                is_vowel=spec.vowel,
                is_consonant=spec.consonant,
                position=position,
            )
            for position, spec in enumerate(edition.letters)
        ]
        letters.append(
            EditionLetter(
                edition=row, letter=BLANK, count=edition.blanks, value=0, is_vowel=True, is_consonant=True,
                position=len(letters),
            )
        )
        EditionLetter.objects.bulk_create(letters)
    rows = {}
    # The figures this migration's model has: one added later (blitz_move_seconds) takes its column's default.
    columns = {field.name for field in RuleSet._meta.get_fields()}
    for rules in BUILTIN_RULE_SETS.values():
        figures = {
            field.name: getattr(rules, field.name)
            for field in dataclasses.fields(rules)
            if field.name not in RULE_FIELDS_SKIPPED and field.name in columns
        }
        rows[rules.code] = RuleSet.objects.create(
            code=rules.code,
            name=rules.name,
            is_default=rules.code == DEFAULT_RULES.code,
            move_seconds_choices=",".join(str(seconds) for seconds in rules.move_seconds_choices),
            **figures,
        )
    for rules in BUILTIN_RULE_SETS.values():
        if rules.fallback_code:
            rows[rules.code].fallback = rows[rules.fallback_code]
            rows[rules.code].save(update_fields=["fallback"])


def unload(apps, schema_editor):
    apps.get_model("scoring", "Edition").objects.filter(code__in=BUILTIN_EDITIONS).delete()
    apps.get_model("scoring", "RuleSet").objects.filter(code__in=BUILTIN_RULE_SETS).delete()


class Migration(migrations.Migration):
    dependencies = [("scoring", "0001_initial")]

    operations = [migrations.RunPython(load, unload)]
