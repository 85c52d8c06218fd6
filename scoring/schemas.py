from typing import Annotated

from django.utils.translation import gettext_lazy as _
from ninja import Field, Schema
from pydantic import NonNegativeInt, StringConstraints

from clubsite.schemas import InputSchema

from .engine.movegen import MAX_RACK

# The characters each kind of field may hold, stated in the OpenAPI schema and checked before the engine reads
# the text (which then names what it cannot read). \w is Unicode: accented letters, Ç, Ñ, Ł... are letters.
EDITION_PATTERN = r"^[-a-zA-Z0-9_]+$"
MOVE_PATTERN = r"^(?:[^\W_]|[\s()·])*$"  # letters, the coordinate's digits, spaces, (X) for a blank, L·L
LETTERS_PATTERN = r"^(?:[^\W\d_]|[\s?·])*$"  # letters, ? for a blank

# What a value refused by one of those patterns should look like, in the API's French error message.
PATTERN_HINTS = {
    EDITION_PATTERN: _("un code d'édition comme fr, en ou es"),
    MOVE_PATTERN: _("une coordonnée puis un mot en lettres, comme « H4 VAGUE » ou « 4G AVIONS »"),
    LETTERS_PATTERN: _("des lettres seulement, « ? » pour un joker"),
}

EditionCode = Annotated[str, StringConstraints(min_length=1, max_length=8, pattern=EDITION_PATTERN)]
MoveText = Annotated[str, StringConstraints(max_length=40, pattern=MOVE_PATTERN)]
Letters = Annotated[str, StringConstraints(max_length=20, pattern=LETTERS_PATTERN)]


class MoveIn(InputSchema):
    edition: EditionCode | None = Field(
        None, description="Code de l'édition : fr, en, es, it, de, pl, nl, ca, pt ; absent : l'édition par défaut."
    )
    board: list[MoveText] = Field(
        default_factory=list, max_length=120, description="Coups déjà sur la grille, dans l'ordre, en notation FISF."
    )
    check_words: bool = Field(
        False, description="Dire pour chaque mot s'il est dans la liste de mots libre de l'édition (pas l'ODS)."
    )
    move: MoveText = Field(description="Le coup à compter, en notation FISF : « H4 VAGUE », « 4G AVIONS ».")


class WordOut(Schema):
    word: str
    score: NonNegativeInt
    calculation: str
    in_list: bool | None = Field(None, description="Présent avec check_words : le mot est-il dans la liste ?")


class ScoreOut(Schema):
    score: NonNegativeInt
    tiles_placed: NonNegativeInt
    bonus: NonNegativeInt
    words: list[WordOut]


class TopIn(InputSchema):
    edition: EditionCode | None = Field(None, description="Code de l'édition ; absent : l'édition par défaut.")
    board: list[MoveText] = Field(default_factory=list, max_length=120)
    rack: Letters = Field(
        description=f"Le tirage : lettres, « ? » pour un joker, {MAX_RACK} jetons au plus, pas plus d'une lettre (ni "
        "de jokers) que le jeu de l'édition n'en a."
    )
    limit: int = Field(20, ge=1, le=200)


class TopMoveOut(Schema):
    move: str
    score: NonNegativeInt
    words: list[WordOut]


class TopOut(Schema):
    moves: list[TopMoveOut]
    count: NonNegativeInt = Field(description="Nombre de coups trouvés.")
    complete: bool = Field(description="Faux quand la recherche a été arrêtée faute de temps.")
    detail: str | None = Field(
        None, description="Présent quand la recherche a été arrêtée : pourquoi la liste est partielle."
    )


class WordsIn(InputSchema):
    edition: EditionCode | None = Field(None, description="Code de l'édition ; absent : l'édition par défaut.")
    letters: Letters = Field(description=f"Lettres, « ? » pour un joker, comme un tirage ({MAX_RACK} au plus).")


class FoundWordOut(Schema):
    word: str
    values: list[NonNegativeInt]
    total: NonNegativeInt


class WordsOut(Schema):
    words: list[FoundWordOut]
    count: NonNegativeInt
    complete: bool = Field(description="Faux quand la recherche a été arrêtée faute de temps.")
    detail: str | None = Field(
        None, description="Présent quand la recherche a été arrêtée : pourquoi la liste est partielle."
    )
