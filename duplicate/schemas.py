from typing import Annotated

from ninja import Field, Schema
from pydantic import StringConstraints

Name = Annotated[str, StringConstraints(min_length=1, max_length=80)]


class SessionIn(Schema):
    name: str = Field(max_length=120)
    edition: str = Field("fr", max_length=8)
    rules: str = Field("tournoi", max_length=20, description="Code du jeu de règles.")
    date: str | None = Field(None, description="AAAA-MM-JJ ; aujourd'hui par défaut.")
    move_seconds: int = Field(180, description="60, 120, 150 ou 180.")
    players: list[Name] = Field(default_factory=list, max_length=2000)
    club: int | None = Field(
        None, description="Club dont l'appelant est organisateur ; sans club : séance personnelle."
    )


class PlayerOut(Schema):
    id: int
    name: str


class SessionOut(Schema):
    id: int
    players: list[PlayerOut]


class RoundIn(Schema):
    draw: str | None = Field(None, max_length=40, description="Tirage (EU+ACC?N) ; absent : tiré par le serveur.")
    top: str | None = Field(None, max_length=40, description="Top en notation FISF.")


class RoundOut(Schema):
    number: int
    draw: str
    top: str | None = None
    top_score: int | None = None


class PlayerScoreIn(Schema):
    player: int
    score: int | None = None
    move: str | None = Field(None, max_length=40)


class ScoresIn(Schema):
    scores: list[PlayerScoreIn] = Field(max_length=2000)


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


class ResultPatch(Schema):
    score: int | None = Field(None, ge=0, le=10000)
    move: str | None = Field(None, max_length=40)
    warning: bool | None = None
    penalty: int | None = Field(None, ge=0, le=100)
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
