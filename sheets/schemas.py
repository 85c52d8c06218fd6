"""The sheets API's bodies: a game of the sheet kept in the browser, as `static/js/local_sheet.js` sends it.

Strict like every body of the API (`clubsite.schemas.InputSchema`): its shape and the bounds that keep numbers sane
are checked here, with the API's French sentences; what needs the rule sets or the game's seats (how many
players, whose line, the date) is checked by `sheets.local.check_local_game`, and each line's rules by the
services that write it."""

from enum import StrEnum
from typing import Annotated

from ninja import Field, Schema
from pydantic import StringConstraints

from clubsite.limits import text
from clubsite.schemas import InputSchema, IsoDateTime, Lax
from scoring.models import Edition, RuleSet

from .local import MAX_NAME_LENGTH, MAX_RACK_LENGTH
from .models import Line
from .services import FIRST_YEAR, MAX_LINES

# The kinds of line the browser's sheet writes: it has no board, so no tile placed without scoring.
LOCAL_KINDS = (
    Line.Kind.PLAY,
    Line.Kind.PASS,
    Line.Kind.EXCHANGE,
    Line.Kind.WITHDRAWN,
    Line.Kind.CHALLENGE,
    Line.Kind.PENALTY,
)
LocalKind = StrEnum("LocalKind", {kind.name: kind.value for kind in LOCAL_KINDS})
LINE_POINTS = 100_000  # what the services' rules refuse beyond is far smaller; this keeps the numbers sane
LINE_WORDS = 100

# A name is checked for hidden characters by check_local_game, which says so in the page's words.
Name = Annotated[str, StringConstraints(strip_whitespace=True, max_length=MAX_NAME_LENGTH)]
Rack = Annotated[str, StringConstraints(max_length=MAX_RACK_LENGTH)]


class LocalLineIn(InputSchema):
    player: int = Field(ge=0, description="La place du joueur, à partir de 0.")
    kind: Lax(LocalKind)
    points: int = Field(ge=-LINE_POINTS, le=LINE_POINTS, description="Négatif pour une contestation ou une pénalité.")
    words: int = Field(1, ge=1, le=LINE_WORDS, description="Mots contestés à tort, pour une contestation perdue.")


class LocalGameIn(InputSchema):
    edition: text(Edition, "code")
    rules: text(RuleSet, "code")
    players: list[Name] = Field(
        description="Les noms des joueurs dans l'ordre du jeu ; un nom vide s'affiche « Joueur 1 », « Joueur 2 »…"
    )
    lines: list[LocalLineIn] = Field(max_length=MAX_LINES)
    racks: list[Rack] | None = Field(
        None,
        description="La partie finie : les lettres restantes de chaque joueur (ou leur valeur), vide pour celui "
        "qui a fini ; absent ou null : partie en cours.",
    )
    started: IsoDateTime | None = Field(
        None,
        description=f"Début de la partie (ISO 8601, UTC sans décalage), du 1er janvier {FIRST_YEAR} à maintenant : "
        "la date de la partie copiée.",
    )


class LocalGameOut(Schema):
    id: int
    url: str
