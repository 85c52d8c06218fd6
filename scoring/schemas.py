from typing import Annotated

from ninja import Field, Schema
from pydantic import StringConstraints

MoveText = Annotated[str, StringConstraints(max_length=40)]


class ScoreIn(Schema):
    edition: str = Field("fr", max_length=8, description="Code de l'édition : fr, en, es, it, de, pl, nl, ca, pt.")
    board: list[MoveText] = Field(
        default_factory=list, max_length=120, description="Coups déjà sur la grille, dans l'ordre, en notation FISF."
    )
    check_words: bool = Field(
        False, description="Dire pour chaque mot s'il est dans la liste de mots libre de l'édition (pas l'ODS)."
    )
    move: MoveText = Field(description="Le coup à compter, en notation FISF : « H4 VAGUE », « 4G AVIONS ».")


class WordOut(Schema):
    word: str
    score: int
    calculation: str
    in_list: bool | None = Field(None, description="Présent avec check_words : le mot est-il dans la liste ?")


class ScoreOut(Schema):
    score: int
    tiles_placed: int
    bonus: int
    words: list[WordOut]


class ErrorOut(Schema):
    detail: str


class TopIn(Schema):
    edition: str = Field("fr", max_length=8)
    board: list[MoveText] = Field(default_factory=list, max_length=120)
    rack: str = Field(max_length=20, description="Le tirage : lettres, « ? » pour un joker, 9 jetons au plus.")
    limit: int = Field(20, ge=1, le=200)


class TopMoveOut(Schema):
    move: str
    score: int
    words: list[WordOut]


class TopOut(Schema):
    moves: list[TopMoveOut]
    count: int


class WordsIn(Schema):
    edition: str = Field("fr", max_length=8)
    letters: str = Field(max_length=20, description="Lettres, « ? » pour un joker.")


class FoundWordOut(Schema):
    word: str
    values: list[int]
    total: int


class WordsOut(Schema):
    words: list[FoundWordOut]
    count: int
