from django.conf import settings
from django.utils.translation import gettext
from ninja import Router

from clubsite.schemas import ErrorOut
from clubsite.throttling import throttles

from .engine.errors import ScoringError, gettext_noop
from .engine.lexicon import in_lexicon
from .engine.movegen import OutOfTime, best_moves, words_from_letters
from .engine.moves import Move, replay
from .models import Edition, Lexicon, RuleSet, move_index
from .schemas import MoveIn, ScoreOut, TopIn, TopOut, WordsIn, WordsOut

router = Router(tags=["Compteur"])
ERRORS = {400: ErrorOut, 413: ErrorOut, 422: ErrorOut, 429: ErrorOut}


@router.post(
    "/score",
    response={200: ScoreOut, **ERRORS},
    summary="Compter un coup",
    exclude_none=True,
    description="Valide le coup sur la grille formée par `board` et renvoie son score, mot principal en tête.",
    throttle=throttles("api"),
)
def score(request, payload: MoveIn):
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
            raise _no_word_list(edition)
        for word, scored in zip(words, play.words, strict=True):
            word["in_list"] = in_lexicon(scored, lexicon)
    return {"score": play.score, "tiles_placed": play.tiles_placed, "bonus": play.bonus, "words": words}


def _no_word_list(edition) -> ScoringError:
    return ScoringError(
        gettext_noop("Aucune liste de mots n'est définie pour l'édition « %(code)s »."), code=edition.code
    )


def _index_for(edition):
    index = move_index(edition.code)
    if index is None:
        raise _no_word_list(edition)
    return index


def _searched(search):
    """What `search()` found, and None, or what it had found when its time ran out, and the French sentence that
    says so: the answer's `complete` and `detail`."""
    try:
        return search(), None
    except OutOfTime as stopped:
        return stopped.found, stopped.translated(gettext)


@router.post(
    "/top",
    response={200: TopOut, **ERRORS},
    summary="Meilleurs coups d'un tirage",
    exclude_none=True,
    description="Tous les coups légaux du tirage sur la grille, mots de la liste libre de l'édition (pas l'ODS), "
    "du meilleur au moins bon ; `count` les compte tous, `moves` en donne `limit`. Une recherche trop longue "
    "s'arrête : `complete` est faux et `detail` le dit.",
    throttle=throttles("search"),
)
def top(request, payload: TopIn):
    edition = Edition.objects.engine(payload.edition)
    rules = RuleSet.objects.engine()
    board = replay(payload.board, edition, rules, strict=True).board
    index = _index_for(edition)
    ranking, detail = _searched(
        lambda: best_moves(
            board, payload.rack, edition, index, rules, limit=payload.limit, time_limit=settings.SEARCH_TIME_LIMIT
        )
    )
    plays = [candidate.play(board, edition, rules) for candidate in ranking.moves]
    moves = [{"move": play.move.notation, **_play_out(play, False, edition)} for play in plays]
    return {"moves": moves, "count": ranking.count, "complete": detail is None, "detail": detail}


@router.post(
    "/words",
    response={200: WordsOut, **ERRORS},
    summary="Trouver un mot avec des lettres",
    exclude_none=True,
    description="Les mots de la liste libre que forment les lettres (« ? » : joker), les plus longs d'abord. Une "
    "recherche trop longue s'arrête : `complete` est faux et `detail` le dit.",
    throttle=throttles("search"),
)
def words(request, payload: WordsIn):
    edition = Edition.objects.engine(payload.edition)
    index = _index_for(edition)
    found, detail = _searched(
        lambda: words_from_letters(payload.letters, edition, index, time_limit=settings.SEARCH_TIME_LIMIT)
    )
    words = [{"word": w.word, "values": list(w.values), "total": w.total} for w in found]
    return {"words": words, "count": len(found), "complete": detail is None, "detail": detail}
