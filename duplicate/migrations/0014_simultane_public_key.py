import secrets

from django.db import migrations, models

import duplicate.models


def give_keys(apps, schema_editor):
    """Each simultané made before its public link gets a key of its own (one default would repeat)."""
    Simultane = apps.get_model("duplicate", "Simultane")
    for simultane in Simultane.objects.filter(public_key=None):
        simultane.public_key = secrets.token_urlsafe(12)
        simultane.save(update_fields=["public_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("duplicate", "0013_season"),
    ]

    operations = [
        migrations.AddField(
            model_name="simultane",
            name="public_key",
            field=models.CharField(editable=False, max_length=24, null=True),
        ),
        migrations.RunPython(give_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="simultane",
            name="public_key",
            field=models.CharField(default=duplicate.models._new_key, editable=False, max_length=24, unique=True),
        ),
    ]
