from django.db import migrations, models
from django.db.models import F


def closed_ones_were_closed_first_then(apps, schema_editor):
    """A simultané closed today was closed first at the latest then; one reopened before leaves no trace."""
    Simultane = apps.get_model("duplicate", "Simultane")
    Simultane.objects.filter(closed_at__isnull=False).update(first_closed_at=F("closed_at"))


class Migration(migrations.Migration):

    dependencies = [
        ('duplicate', '0016_round_suggestions_complete'),
    ]

    operations = [
        migrations.AddField(
            model_name='simultane',
            name='first_closed_at',
            field=models.DateTimeField(blank=True, editable=False, null=True, verbose_name='classement arrêté une première fois le'),
        ),
        migrations.RunPython(closed_ones_were_closed_first_then, migrations.RunPython.noop),
    ]
