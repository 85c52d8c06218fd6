from django.utils.translation import gettext
from ninja import Router

from .errors import ScoringError, gettext_noop
from .lexicon import in_lexicon
from .models import Edition, Lexicon, RuleSet
from .moves import Board, Move
from .schemas import ErrorOut, ScoreIn, ScoreOut

router = Router(tags=["Compteur"])


@router.post(
    "/score",
    response={200: ScoreOut, 400: ErrorOut, 413: ErrorOut, 422: ErrorOut},
    summary="Compter un coup",
    exclude_none=True,
    description="Valide le coup sur la grille formée par `board` et renvoie son score, mot principal en tête.",
)
def score(request, payload: ScoreIn):
    edition = Edition.objects.engine(payload.edition)
    rules = RuleSet.objects.engine()
    board = Board()
    for number, text in enumerate(payload.board, start=1):
        try:
            board.play(Move.parse(text, edition), edition, rules)
        except ScoringError as error:
            raise ScoringError(
                gettext_noop("Grille, coup %(number)d (« %(move)s ») : %(reason)s"),
                number=number,
                move=text,
                reason=error.translated(gettext),
            ) from error
    play = board.evaluate(Move.parse(payload.move, edition), edition, rules)
    words = [{"word": w.word, "score": w.score, "calculation": w.calculation} for w in play.words]
    if payload.check_words:
        lexicon = Lexicon.objects.engine_for(edition.code)
        if lexicon is None:
            raise ScoringError(
                gettext_noop("Aucune liste de mots n'est définie pour l'édition « %(code)s »."), code=edition.code
            )
        for word, scored in zip(words, play.words, strict=True):
            word["in_list"] = in_lexicon(scored, lexicon)
    return {"score": play.score, "tiles_placed": play.tiles_placed, "bonus": play.bonus, "words": words}
