"""The duplicate API's bodies. Every text and number is bounded by the column that keeps it (clubsite.limits)."""

import datetime
from typing import Annotated

from ninja import Field, Schema
from pydantic import AfterValidator, TypeAdapter, WrapValidator
from pydantic_core import PydanticCustomError

from clubsite.limits import integer_range, text
from clubsite.schemas import InputSchema, Lax
from scoring.models import Edition, RuleSet

from . import games
from .limits import MAX_PLAYERS, MAX_TABLE
from .models import Player, Result, Round, Session, Simultane
from .player_lines import PlayerLine, licence_valid

PLAYER_ID = integer_range(Player, "id")
SCORE = integer_range(Result, "score")


def _licence(licence: str) -> str:
    if not licence_valid(licence):
        raise PydanticCustomError("licence_format", "letters and digits only")
    return licence


PlayerName = text(Player, "name", min_length=1)


class PlayerIn(InputSchema):
    """A player given by his fields, each taken as it is: there is no line to split, « Dupont, Jean » is one name."""

    name: PlayerName
    table: int | None = Field(None, ge=1, le=MAX_TABLE)
    licence: Annotated[text(Player, "licence"), AfterValidator(_licence)] = Field(
        "", description="Lettres et chiffres seulement."
    )
    club: text(Player, "club_name") = ""
    series: text(Player, "series") = ""


_PLAYER_FIELDS = TypeAdapter(PlayerIn)


def _name_or_fields(item, handler):
    """A text item is the player's name alone, an object his fields (a table, a licence…); each refusal is said at
    the item's place (`players.1`, `players.1.licence`)."""
    if isinstance(item, dict):
        return _PLAYER_FIELDS.validate_python(item)
    if not isinstance(item, str):
        raise PydanticCustomError("name_or_object", "a name or an object")
    return handler(item)


# Its value is the name (a str) or the fields (a PlayerIn); the OpenAPI document states both.
PlayerItem = Annotated[PlayerName, WrapValidator(_name_or_fields, json_schema_input_type=PlayerName | PlayerIn)]


def player_line(item: str | PlayerIn) -> PlayerLine:
    """An item of `players` as the services seat it, spaces around each field dropped as the pages drop them."""
    if isinstance(item, str):
        return PlayerLine(None, item.strip())
    return PlayerLine(item.table, item.name.strip(), item.licence, item.club.strip(), item.series.strip())


EDITION = "Code de l'édition ; absent : l'édition par défaut du site."
RULES = "Code du jeu de règles ; absent : le jeu de règles par défaut du site."
MOVE_SECONDS = (
    "Temps par coup en secondes, l'un de ceux du jeu de règles (move_seconds_choices) ; absent : le sien "
    "(move_seconds)."
)


class SessionIn(InputSchema):
    name: text(Session, "name")
    edition: text(Edition, "code") | None = Field(None, description=EDITION)
    rules: text(RuleSet, "code") | None = Field(None, description=RULES)
    date: str | None = Field(None, max_length=10, description="AAAA-MM-JJ ; aujourd'hui par défaut.")
    move_seconds: int | None = Field(None, description=MOVE_SECONDS)
    players: list[PlayerItem] = Field(
        default_factory=list,
        max_length=MAX_PLAYERS,
        description="Chaque joueur : son nom (« Dupont, Jean »), ou un objet {name, table, licence, club, series} ; "
        "chaque champ est pris tel quel, sans découpage aux virgules ni aux points-virgules.",
    )
    club: int | None = Field(
        None, description="Club dont l'appelant est organisateur ; sans club : séance personnelle."
    )
    entry: Lax(Session.Entry) = Field(
        Session.Entry.ARBITER,
        description="Qui saisit les scores : « arbiter » (l'arbitre), « players » (les joueurs), « both ».",
    )
    simultane: int | None = Field(
        None,
        ge=1,
        le=integer_range(Simultane, "id")[1],
        description="Simultané dont la séance est une salle : elle en joue la partie (édition, règles, temps).",
    )


class PlayerOut(Schema):
    id: int
    name: str


class SessionOut(Schema):
    id: int
    players: list[PlayerOut]


class RoundIn(InputSchema):
    draw: text(Round, "draw") | None = Field(
        None,
        description="Tirage (EU+ACC?N) ; absent : tiré par le serveur, ou le coup suivant de la partie jouée "
        "(salle d'un simultané, fichier de partie, séance rejouée).",
    )
    top: text(Round, "top") | None = Field(
        None,
        description="Top en notation FISF, saisi avec le tirage dans une séance qui ne joue pas de partie (une "
        "partie sur papier) ; refusé (422) avec le tirage d'une partie jouée, dont le top se révèle une fois le "
        "coup joué (PUT …/rounds/{n}/top avec {}). Un tirage ne révèle jamais son top.",
    )


class RoundTopIn(InputSchema):
    top: text(Round, "top") | None = Field(
        None, description="Top en notation FISF ; absent : celui de la partie jouée, révélé."
    )


class RoundOut(Schema):
    number: int
    draw: str
    top: str | None = None
    top_score: int | None = None


class PlayerScoreIn(InputSchema):
    player: int = Field(ge=1, le=PLAYER_ID[1])
    score: int | None = Field(None, ge=SCORE[0], le=SCORE[1])
    move: text(Result, "move") | None = None


class ScoresIn(InputSchema):
    scores: list[PlayerScoreIn] = Field(max_length=MAX_PLAYERS)


class ScoresOut(Schema):
    saved: int


class RankingRowOut(Schema):
    player: int
    name: str
    place: int
    total: int
    gap: int
    percent: float
    solos: int


class RankingOut(Schema):
    tops_total: int
    rows: list[RankingRowOut]


class StateOut(Schema):
    finished: bool


class ChangeOut(Schema):
    at: str
    user: str | None
    round: int | None
    player: int | None
    field: str
    old: str
    new: str


class HistoryOut(Schema):
    entries: list[ChangeOut]


class ResultOut(Schema):
    score: int | None
    move: str
    reason: str
    warning: bool
    penalty: int


class ResultPatch(InputSchema):
    score: int | None = Field(None, ge=SCORE[0], le=SCORE[1])
    move: text(Result, "move") | None = None
    warning: bool | None = None
    penalty: int | None = Field(None, ge=0)  # at most the session's rule set's max_penalty: the service says so
    zero: bool | None = None


class RoundSummary(Schema):
    number: int
    draw: str
    top: str | None
    top_score: int | None


class PlayerResults(Schema):
    id: int
    name: str
    table: int | None
    absent: bool
    results: list[ResultOut | None]


class ResultsOut(Schema):
    rounds: list[RoundSummary]
    players: list[PlayerResults]


class RecapRowOut(Schema):
    number: int
    draw: str
    top: str = Field(description="Le top en notation FISF.")
    top_score: int
    move: str | None = Field(description="Le coup écrit par le joueur ; null pour un score seul ou sans bulletin.")
    score: int | None = Field(description="Son score sur le coup ; null sans bulletin (compté 0).")
    gap: int = Field(description="Score moins top sur ce coup.")
    solo: bool
    solo_points: int
    warning: bool
    penalty: int = Field(
        description="Points retirés sur ce coup (pénalité, avertissement au-delà du seuil), au plus son score."
    )
    total: int = Field(description="Total cumulé : ce qui compte au classement après ce coup.")
    tops_total: int = Field(description="Somme des tops jusqu'à ce coup.")
    percent: float = Field(description="Total en pourcentage des tops, une décimale.")


class PlayerRecapOut(Schema):
    player: int
    name: str
    place: int
    finished: bool = Field(description="Faux pendant la séance : seuls ses coups clos comptent.")
    rows: list[RecapRowOut]


class SeasonRowOut(Schema):
    place: int
    name: str
    sessions: int = Field(description="Séances de la saison qu'il a jouées.")
    counted: int = Field(description="Celles que son classement retient (toutes, ou ses meilleures).")
    total: int = Field(description="Total des points des séances retenues.")
    percent: float = Field(description="Moyenne des pourcentages du top des séances retenues, à deux décimales.")


class SeasonRankingOut(Schema):
    name: str
    start: datetime.date
    end: datetime.date
    ranked_by: str = Field(description="« percent » (moyenne des pourcentages du top) ou « total ».")
    best: int | None = Field(description="Séances retenues par joueur : ses N meilleures ; null pour toutes.")
    rows: list[SeasonRowOut]


class GameRoundIO(InputSchema):
    number: int = Field(ge=1, le=games.MAX_ROUNDS)
    draw: str = Field(max_length=games.MAX_TEXT, description="Le tirage en notation de club (EU+ACC?N).")
    top: str = Field(max_length=games.MAX_TEXT, description="Le top en notation FISF (H4 VAGUE).")
    top_score: int | None = Field(None, ge=0, le=9999)


class GameOut(Schema):
    format: str = games.FORMAT
    version: int = games.FORMAT_VERSION
    name: str
    date: str
    rules: str
    edition: str
    rounds: list[GameRoundIO] = Field(description="Les coups dont le top est placé, dans l'ordre.")


class GameIn(InputSchema):
    edition: text(Edition, "code") | None = Field(None, description="L'édition de la partie ; celle du simultané.")
    rounds: list[GameRoundIO] = Field(min_length=1, max_length=games.MAX_ROUNDS)


class SimultaneIn(InputSchema):
    name: text(Session, "name")
    edition: text(Edition, "code") | None = Field(None, description=EDITION)
    rules: text(RuleSet, "code") | None = Field(None, description=RULES)
    starts_at: str = Field(max_length=32, description="Date et heure ISO 8601 (2026-12-12T14:00:00+01:00).")
    move_seconds: int | None = Field(None, description=MOVE_SECONDS)
    body: int | None = Field(
        None, description="Fédération ou comité dont l'appelant est organisateur ; le seul qu'il organise par défaut."
    )
    game: GameIn | None = Field(None, description="La partie ; absente : le serveur la tire maintenant.")


class SimultaneOut(Schema):
    id: int
    moves: int


class SimultaneRowOut(Schema):
    place: int
    name: str
    club: str
    session: str
    series: str
    licence: str
    total: int
    gap: int
    percent: float


class SimultaneRankingOut(Schema):
    tops_total: int
    moves: int = Field(
        description="Les coups comptés : ceux que toutes les salles inscrites ont clos (toute la partie une fois le "
        "classement arrêté)."
    )
    rows: list[SimultaneRowOut]
