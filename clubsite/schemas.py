"""The API's schemas that every app shares: what every input schema inherits, and the one shape of an error.

The request bodies are as strict as their schema: a field the API does not know is refused, named (a typo such as
"varaint" was ignored, and the session created as if it were not there), and each value must be of its field's JSON
type: "10" is no integer and "yes" no boolean (pydantic's strict mode). A field whose JSON type is text read as
something else (a choice's value) opts out with `Lax`. Output schemas stay plain `ninja.Schema`s.
"""

import datetime
from typing import Annotated

from ninja import Schema
from pydantic import BeforeValidator, ConfigDict, Strict
from pydantic_core import PydanticCustomError


class InputSchema(Schema):
    model_config = ConfigDict(extra="forbid", strict=True)


def Lax(annotation):  # noqa: N802 (read as a type in a schema)
    """`annotation` read from its JSON text as pydantic's lax mode reads it (a choice given by its value)."""
    return Annotated[annotation, Strict(False)]


def _iso_text(value):
    """A date and time comes as its ISO 8601 text: a number (read by lax mode as seconds since 1970), the text of
    one ("1700000000", issue 23's trial) or a boolean is refused as not a date, rather than taken for one."""
    if isinstance(value, datetime.datetime):
        return value
    if isinstance(value, str):
        try:
            return datetime.datetime.fromisoformat(value)
        except ValueError:
            pass
    raise PydanticCustomError("datetime_type", "an ISO 8601 date and time")


def _digits(value):
    """An id in a path is written with digits only: "27.0", "+27" or " 27" (which pydantic's lax mode reads as 27,
    issue 23's trial) are not ids."""
    if isinstance(value, str) and not (value.isascii() and value.isdigit()):
        raise PydanticCustomError("int_parsing", "digits")
    return value


# An operation's id in its path (a session's, a move's number, a player's): digits, read as a whole number.
PathId = Annotated[int, BeforeValidator(_digits)]

# A date and time of a body: its ISO 8601 text, nothing else.
IsoDateTime = Annotated[datetime.datetime, BeforeValidator(_iso_text), Strict(False)]


class ErrorOut(Schema):
    """Every refusal of the API, whatever its app: `{"detail": "<a French sentence>"}`."""

    detail: str
