import json

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext
from django.views.decorators.http import condition, require_http_methods
from django_htmx.http import reselect, reswap, retarget

from clubsite.text import shown
from clubsite.throttling import answered
from clubsite.throttling import refusal as throttle_refusal

from .boards import BoardStore, GridRefusal, MemberBoardStore, VisitorBoardStore, board_rows
from .browser import bonus_sentence, page_data, total_sentence
from .engine.board import square_name
from .engine.errors import ScoringError, clause
from .engine.lexicon import in_lexicon
from .engine.movegen import MAX_RACK, OutOfTime, best_moves, words_from_letters
from .engine.moves import replay
from .engine.tracking import track
from .engine.typed import score_typed
from .forms import (
    MAX_WORDS,
    SQUARE_LABELS,
    BadShareLink,
    CounterForm,
    CounterState,
    GridForm,
    GridMove,
    WordInput,
    blank_mark,
    refusal_sentence,
)
from .models import Edition, Lexicon, RuleSet, move_index


@require_http_methods(["GET", "HEAD", "POST"])
def counter(request):
    """The typed counter. The page scores in the visitor's browser (static/js/counter_page.js); a form posted
    without JavaScript, a button or a share link is scored here, never stored nor logged."""
    return counter_page(request)


def counter_page(
    request,
    *,
    template_name="scoring/counter.html",
    edition_code=None,
    rules_code=None,
    actions=None,
    extra_context=None,
):
    """The typed counter, alone or inside another app's page that adds buttons (the sheet's "Inscrire pour").

    That page, `template_name`, extends "scoring/counter.html" and fills its blocks `counter_banner` and
    `counter_actions`; `extra_context` feeds them (with `grid_url`, the grid mode's address for this page).
    `actions` maps a button's value to a function (state, result, detail_text) that returns a response, or a
    French message when it refuses; `edition_code` fixes the edition, `rules_code` the rule set the move is
    counted with (the game's, the session's; the default one without it).
    """
    actions = actions or {}
    rules = RuleSet.objects.engine(rules_code)
    editions = list(Edition.objects.values_list("code", "name"))
    status = 200
    share_url = ""
    refusal = ""
    if request.method == "POST":
        edition = _edition_or_default(edition_code or request.POST.get("edition"))
        action = request.POST.get("action", "")
        state = CounterForm(request.POST).state(edition)
        _apply_action(state, action)
        if action in actions:
            result = _result(state, rules)
            outcome = actions[action](state, result, _detail_text(state, result))
            if not isinstance(outcome, str):
                return outcome
            refusal, status = outcome, 400
        if action == "share":
            share_url = request.build_absolute_uri(reverse("counter") + "?etat=" + state.to_token())
    elif "etat" in request.GET:
        try:
            state = CounterState.from_token(request.GET["etat"], Edition.objects.engine)
        except BadShareLink as error:
            state, status = CounterForm().state(Edition.objects.engine()), 400
            state.words[0].error = str(error)
    else:
        state = CounterForm().state(Edition.objects.engine(edition_code))
    result = _result(state, rules)
    if request.method == "POST" and (state.has_errors or isinstance(result, dict)):
        status = 400  # a word refused, or the move they make: the page shows why, as the grid and the word finder do
    codes = [state.edition_code] if edition_code else [code for code, _name in editions]
    context = {
        **page_data([Edition.objects.engine(code) for code in codes], rules),
        "tile_placeholder": TILE_PLACEHOLDER,
        "state": state,
        "result": result,
        "detail_text": _detail_text(state, result),
        "editions": editions,
        "edition_locked": bool(edition_code),
        "squares": SQUARE_LABELS,
        "max_words": MAX_WORDS,
        "share_url": share_url,
        "refusal": refusal,
        "grid_url": reverse("grid"),
        **(extra_context or {}),
    }
    response = render(request, template_name, context, status=status)
    if request.htmx and request.method == "POST":
        # A button (a share link, the host page's own): the page's template draws the form, with its blocks.
        return _swap_region(response, "#counter")
    return response


# The tile static/js/counter_page.js copies for each letter typed, its placeholders filled in the browser.
TILE_PLACEHOLDER = {"letter": "@L@", "value": "@v@", "forced_blank": True}


def _edition_or_default(code):
    try:
        return Edition.objects.engine(code or None)
    except ScoringError:
        return Edition.objects.engine()


def _apply_action(state, action: str):
    """The form's buttons: add a secondary word, remove one."""
    if action == "add" and len(state.words) < MAX_WORDS:
        state.words.append(WordInput(""))
    elif action.startswith("remove-"):
        index = action.removeprefix("remove-")
        if index.isascii() and index.isdigit() and 0 < int(index) < len(state.words):
            del state.words[int(index)]


def _result(state, rules):
    """Score the typed words with `rules` and hang each word's calculation on it; None while there is nothing to
    count."""
    if state.is_empty or state.has_errors:
        return None
    try:
        result = score_typed(state.typed_words(), Edition.objects.engine(state.edition_code), rules)
    except ScoringError as error:
        return {"error": refusal_sentence(error)}
    lexicon = Lexicon.objects.engine_for(state.edition_code) if state.check_words else None
    scored = iter(result.words)
    for word in state.words:
        if word.tiles:
            word.score = next(scored)
            word.in_list = in_lexicon(word.score, lexicon) if lexicon else None
    return result


def _detail_text(state, result) -> str:
    """The calculation as readable text, for "Copier le détail"."""
    if not result or isinstance(result, dict):
        return ""
    lines = [f"{word.score.word} : {word.score.calculation}" for word in state.words if word.score]
    lines.append(f"{gettext('Jetons posés depuis le chevalet')} : {result.tiles_placed}")
    if result.bonus:
        lines.append(bonus_sentence(result.tiles_placed) % {"count": result.tiles_placed, "bonus": result.bonus})
    if result.too_many_tiles:
        lines.append(gettext(result.warning))
    else:
        lines.append(total_sentence(result.score) % {"score": result.score})
    return "\n".join(lines)


@require_http_methods(["GET", "HEAD", "POST"])
def grid(request):
    """Grid mode: letters typed from a start square fill the free squares; "Poser sur la grille" keeps the move.

    The board is the visitor's (session) or the member's (account); the letters being typed are only scored,
    never stored.
    """
    store = MemberBoardStore(request.user) if request.user.is_authenticated else VisitorBoardStore(request)
    return grid_page(request, store)


def grid_page(request, store: BoardStore):
    """The grid counter over a board `store`: the visitor's, the member's, or another app's (see `BoardStore`)."""
    wanted = None if store.edition_locked else request.POST.get("edition")
    edition = _edition_or_default(wanted or store.edition_code)
    rules = RuleSet.objects.engine(store.rules_code)
    board, moves, refused_moves = _replay(store.moves, edition, rules)
    fixed = store.player_count
    # The tracking's players: the store's, or the visitor's choice up to the most any rule set admits.
    player_bounds = RuleSet.objects.player_bounds() if fixed is None else (fixed, fixed)
    form = GridForm(request.POST or None, player_bounds=player_bounds)
    pending = form.pending(board, edition, rules) if request.method == "POST" else GridMove()
    action = request.POST.get("action", "")
    message = ""
    refused = False
    if action in store.actions:
        before = list(store.moves)
        try:
            message = store.act(action, pending=pending, edition=edition)
        except GridRefusal as refusal:
            message, refused = str(refusal), True
            if message == pending.error:
                message = ""  # the move's own refusal is already on the page, once is enough
        board, moves, refused_moves = _replay(store.moves, edition, rules)
        if store.moves != before:
            pending = GridMove()
    elif moves and store.edition_code != edition.code:
        store.save(edition.code, moves)
    if action in store.actions and not pending.placements:
        # The letters typed went on the board (or the board changed under them): start a new move.
        kept = {name: request.POST.get(name, "") for name in ("players", "direction", "check", "rack")}
        form = GridForm(kept, player_bounds=player_bounds)
    tracking = track(edition, [tile for _, tile in board.tiles()] + list(store.off_board_tiles))
    lexicon = Lexicon.objects.engine_for(edition.code) if form.check_words else None
    words = pending.play.words if pending.play else ()
    players = fixed or form.player_count()
    best, best_error, best_status = (None, "", 200)
    if action in ("best", "show"):
        best, best_error, best_status = _best_moves(request, board, form, edition, rules)
    edition_locked = store.edition_locked or bool(moves)
    context = {
        **_grid_browser_data(store, edition if edition_locked else None, moves, rules),
        "editions": Edition.objects.values_list("code", "name"),
        "edition": edition,
        "edition_locked": edition_locked,
        "form": form,
        "pending": pending,
        "words": [(word, in_lexicon(word, lexicon) if lexicon else None) for word in words],
        "moves": moves,
        "message": message,
        "refused": refused,
        "rows": board_rows(board, pending),
        "tracking": tracking,
        "players": players,
        "players_fixed": fixed is not None,
        "default_rack": "",  # a host's store may offer one (the duplicate move's draw)
        "bag_count": tracking.in_bag(players, rules.rack_size),
        "store_actions": store.actions,
        "best": best,
        "best_error": best_error,
        "off_board": [
            shown(
                gettext("« %(move)s » ne tient plus sur la grille : %(reason)s")
                % {"move": refusal.params["move"], "reason": clause(refusal.error.translated(gettext))}
            )
            for refusal in refused_moves
        ],
        "typed_url": reverse("counter"),
        **store.context(),
    }
    # A button refused, letters or a start refused, or a rack "Meilleurs coups" refused: each a 400, as on the word
    # finder; the rate's refusal keeps its 429.
    status = 400 if refused or "start" in form.errors or pending.error else best_status
    response = answered(render(request, store.template_name, context, status=status), best_error)
    if not (request.htmx and request.method == "POST"):
        return response
    # A button redraws the whole grid, with the host page's own blocks (its banner, its buttons). A best move laid
    # from the list further down brings the board back into view, where the move now is.
    return _swap_region(response, "#grid-app", "outerHTML show:#board:top" if action == "show" else "outerHTML")


def _grid_browser_data(store, locked_edition, moves, rules) -> dict:
    """What the grid page's script counts with: the figures of the editions the page may count in (the board's
    alone once it is locked), the moves on the board, the tiles played off it and the racks the tracking takes."""
    codes = [locked_edition.code] if locked_edition else list(Edition.objects.values_list("code", flat=True))
    return {
        **page_data([Edition.objects.engine(code) for code in codes], rules),
        "board_data": json.dumps(
            {
                "moves": moves,
                "off_board_tiles": [{"letter": tile.letter, "blank": tile.blank} for tile in store.off_board_tiles],
                "players": store.player_count,
            }
        ),
    }


def _swap_region(response, selector, swap="outerHTML"):
    """Let htmx take `selector` out of a whole page and put it in place of the same region."""
    return reswap(reselect(retarget(response, selector), selector), swap)


BEST_MOVES_SHOWN = 20


def _best_moves(request, board, form, edition, rules):
    """ "Meilleurs coups": the first moves of the rack on the board, each with the fields that lay it on the grid.

    Gives (the moves and their count, or None; the reason there are none; the page's status)."""
    if not form.rack_text.strip():
        return None, gettext("Tapez d'abord le tirage."), 400
    index = move_index(edition.code)
    if index is None:
        return None, gettext("Aucune liste de mots n'est définie pour cette édition."), 400
    refusal = throttle_refusal(request, "search")
    if refusal:
        return None, refusal, 429
    stopped = ""
    try:
        ranking = best_moves(
            board, form.rack_text, edition, index, rules, limit=BEST_MOVES_SHOWN, time_limit=settings.SEARCH_TIME_LIMIT
        )
    except OutOfTime as out_of_time:
        ranking, stopped = out_of_time.found, out_of_time.translated(gettext)
    except ScoringError as error:
        return None, refusal_sentence(error), 400
    best = []
    for candidate in ranking.moves:
        play = candidate.play(board, edition, rules)
        placed = sorted(play.placed)
        best.append(
            {
                "notation": play.move.notation,
                "score": play.score,
                "start": square_name(placed[0][0]),
                "direction": "h" if play.move.horizontal else "v",
                "letters": "".join(tile.letter for _index, tile in placed),
                "blanks": ",".join(blank_mark(index, tile) for index, tile in placed if tile.blank),
            }
        )
    return {"moves": best, "count": ranking.count, "stopped": stopped}, "", 200


def _replay(moves, edition, rules):
    """The board from the kept moves; a move the board no longer accepts (another edition, a sheet line deleted
    under it) is left off."""
    replayed = replay(moves, edition, rules)
    return replayed.board, replayed.laid, replayed.refused


WORDS_SHOWN = 500  # a page a phone still scrolls; the count says how many more there are
# Past this many characters (the field takes 20) the text is no rack: refused by its length, not read tile by tile.
LETTERS_READ = 100


@require_http_methods(["GET", "HEAD", "POST"])
def word_finder(request):
    """ "Trouver un mot avec des lettres": the words of the free list the letters make, longest first."""
    edition = _edition_or_default(request.POST.get("edition"))
    letters = request.POST.get("letters", "")
    found, error, stopped, status = None, "", "", 200
    if request.method == "POST":
        found, error, stopped, status = _words(request, letters, edition)
    context = {
        "editions": Edition.objects.values_list("code", "name"),
        "edition": edition,
        "letters": letters[:LETTERS_READ],
        "found": found,
        "shown": found[:WORDS_SHOWN] if found else found,
        "error": error,
        "stopped": stopped,
    }
    return answered(render(request, "scoring/words.html", context, status=status), error)


def _words(request, letters, edition):
    """The word finder's search: (the words found or None, a refusal, a note that the list is partial, status)."""
    if not letters.strip():
        return None, gettext("Tapez d'abord des lettres (un ? pour un joker)."), "", 400
    if len(letters) > LETTERS_READ:
        message = gettext("Le tirage compte %(count)d caractères : %(size)d lettres au plus, jokers compris.")
        return None, message % {"count": len(letters), "size": MAX_RACK}, "", 400
    index = move_index(edition.code)
    if index is None:
        return None, gettext("Aucune liste de mots n'est définie pour cette édition."), "", 400
    refusal = throttle_refusal(request, "search")
    if refusal:
        return None, refusal, "", 429
    try:
        return words_from_letters(letters, edition, index, time_limit=settings.SEARCH_TIME_LIMIT), "", "", 200
    except OutOfTime as out_of_time:
        return out_of_time.found, "", out_of_time.translated(gettext), 200
    except ScoringError as error:
        return None, refusal_sentence(error), "", 400


# A download's address never serves other bytes (its version changes with the list): browsers may keep it a year.
WORD_LIST_MAX_AGE = 365 * 24 * 3600


@require_http_methods(["GET", "HEAD"])
@condition(etag_func=lambda request, edition, version: version)
def word_list(request, edition, version):
    """An edition's default word list, as "Vérifier les mots dans une liste de mots libre" downloads it once and
    keeps it (static/js/counter_page.js): the gzip of its words, one a line, at an address that carries its version
    (`Lexicon.download_version`). The only file that check sends the visitor; nothing is sent back."""
    lexicon = Lexicon.objects.download(edition, version)
    if lexicon is None:
        raise Http404(gettext("Cette liste de mots a changé : rechargez la page."))
    response = HttpResponse(lexicon.download_bytes(), content_type="application/gzip")
    patch_cache_control(response, public=True, max_age=WORD_LIST_MAX_AGE, immutable=True)
    return response
