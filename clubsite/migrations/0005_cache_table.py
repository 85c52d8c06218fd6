"""The default cache's table (settings.CACHES: a database table unless DJANGO_CACHE_URL names a Redis), created
by `migrate` like every other table, so that a fresh deployment, the tests and the benchmarks all have it."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("clubsite", "0004_invitation")]

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
