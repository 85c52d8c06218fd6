from ninja import Router

from .engine.errors import ScoringError, gettext_noop
from .engine.lexicon import in_lexicon
from .engine.movegen import generate_moves, words_from_letters
from .engine.moves import Move, replay
from .models import Edition, Lexicon, RuleSet, move_index
from .schemas import ErrorOut, ScoreIn, ScoreOut, TopIn, TopOut, WordsIn, WordsOut

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
    board = replay(payload.board, edition, rules, strict=True).board
    play = board.evaluate(Move.parse(payload.move, edition), edition, rules)
    return _play_out(play, payload.check_words, edition)


def _play_out(play, check_words, edition):
    words = [{"word": w.word, "score": w.score, "calculation": w.calculation} for w in play.words]
    if check_words:
        lexicon = Lexicon.objects.engine_for(edition.code)
        if lexicon is None:
            raise ScoringError(
                gettext_noop("Aucune liste de mots n'est définie pour l'édition « %(code)s »."), code=edition.code
            )
        for word, scored in zip(words, play.words, strict=True):
            word["in_list"] = in_lexicon(scored, lexicon)
    return {"score": play.score, "tiles_placed": play.tiles_placed, "bonus": play.bonus, "words": words}


def _index_for(edition):
    index = move_index(edition.code)
    if index is None:
        raise ScoringError(
            gettext_noop("Aucune liste de mots n'est définie pour l'édition « %(code)s »."), code=edition.code
        )
    return index


@router.post(
    "/top",
    response={200: TopOut, 400: ErrorOut, 413: ErrorOut, 422: ErrorOut},
    summary="Meilleurs coups d'un tirage",
    exclude_none=True,
    description="Tous les coups légaux du tirage sur la grille, mots de la liste libre de l'édition (pas l'ODS), "
    "du meilleur au moins bon ; `count` les compte tous, `moves` en donne `limit`.",
)
def top(request, payload: TopIn):
    edition = Edition.objects.engine(payload.edition)
    rules = RuleSet.objects.engine()
    board = replay(payload.board, edition, rules, strict=True).board
    candidates = generate_moves(board, payload.rack, edition, _index_for(edition), rules)
    plays = [candidate.play(board, edition, rules) for candidate in candidates[: payload.limit]]
    moves = [{"move": play.move.notation, **_play_out(play, False, edition)} for play in plays]
    return {"moves": moves, "count": len(candidates)}


@router.post(
    "/words",
    response={200: WordsOut, 400: ErrorOut, 413: ErrorOut, 422: ErrorOut},
    summary="Trouver un mot avec des lettres",
    description="Les mots de la liste libre que forment les lettres (« ? » : joker), les plus longs d'abord.",
)
def words(request, payload: WordsIn):
    edition = Edition.objects.engine(payload.edition)
    found = words_from_letters(payload.letters, edition, _index_for(edition))
    return {"words": [{"word": w.word, "values": list(w.values), "total": w.total} for w in found], "count": len(found)}
