"""What a form or an API schema accepts, read from the column that keeps the value.

PostgreSQL refuses a text longer than its column, a number beyond its integer column and any NUL character,
with an error that would reach the visitor as a 500; SQLite takes all three. So every value is checked at the
edge against the same limits as its column, read here from the model rather than written again as a literal. A
text is also refused when it holds a character that shows nothing or turns it around (clubsite.text).
"""

from typing import Annotated

from django.db.backends.base.operations import BaseDatabaseOperations
from pydantic import AfterValidator, StringConstraints
from pydantic_core import PydanticCustomError

from .text import MOST_MARKS, refused_character


def max_length(model, field_name: str) -> int:
    return model._meta.get_field(field_name).max_length


def integer_range(model, field_name: str) -> tuple[int, int]:
    """The range of an integer column as PostgreSQL keeps it (SQLite's is wider: it would hide an overflow)."""
    return BaseDatabaseOperations.integer_field_ranges[model._meta.get_field(field_name).get_internal_type()]


def _refuse_hidden(text: str) -> str:
    if "\x00" in text:
        raise PydanticCustomError("nul_character", "a NUL character")
    if refused := refused_character(text):
        raise PydanticCustomError(
            refused.kind,
            "an invisible, direction control or stacked character {code}",
            {"code": refused.code, "most": MOST_MARKS},
        )
    return text


def _refuse_blank(text: str) -> str:
    if not text.strip():
        raise PydanticCustomError("blank_text", "only spaces")
    return text


def text(model, field_name: str, *, min_length: int | None = None) -> type[str]:
    """An API schema's text for `model.field_name`: at most the column's length, with no NUL character nor any
    other that shows nothing or steers the writing direction; with `min_length`, not made only of spaces either."""
    constraints = StringConstraints(min_length=min_length, max_length=max_length(model, field_name))
    checks = [AfterValidator(_refuse_hidden), *([AfterValidator(_refuse_blank)] if min_length else [])]
    return Annotated[str, constraints, *checks]
