"""Rows read in SQL turned into model instances as the ORM would build them, for the few queries written in SQL.

The path every score sent takes (a room of 500 phones sends its bulletins in a few seconds; the API's token, the
move, the players) spends more in Django's compiling of each query than PostgreSQL spends answering it: those
queries are written in SQL, their columns named by `columns` (never `*`: a query PostgreSQL prepared must keep
its columns when a migration adds one) and their rows read back by `instances`.
"""

from django.db import connections


def columns(model, alias: str) -> str:
    """The SQL selecting a model's columns from the table named `alias`, in the order `instances` reads them."""
    return ", ".join(f'{alias}."{field.column}"' for field in model._meta.concrete_fields)


def instances(using: str, row, *models) -> list:
    """Instances of `models` from a row of their `columns` side by side, each value converted as the ORM converts
    it (a time made aware on SQLite, JSON decoded); None for one whose columns a LEFT JOIN left empty."""
    connection = connections[using]
    built, start = [], 0
    for model in models:
        fields = model._meta.concrete_fields
        values = list(row[start : start + len(fields)])
        start += len(fields)
        if values[fields.index(model._meta.pk)] is None:
            built.append(None)
            continue
        for index, field, column in _converted(model, connection):
            for converter in connection.ops.get_db_converters(column) + field.get_db_converters(connection):
                values[index] = converter(values[index], column, connection)
        built.append(model.from_db(using, [field.attname for field in fields], values))
    return built


_CONVERTED = {}


def _converted(model, connection) -> tuple:
    """The fields of `model` whose values this kind of database gives in another form than the ORM's (index,
    field, column): few of them, and asking every field for its converters cost more than the query."""
    key = (model, connection.vendor)
    if key not in _CONVERTED:
        found = []
        for index, field in enumerate(model._meta.concrete_fields):
            column = field.get_col(model._meta.db_table)
            if connection.ops.get_db_converters(column) + field.get_db_converters(connection):
                found.append((index, field, column))
        _CONVERTED[key] = tuple(found)
    return _CONVERTED[key]
