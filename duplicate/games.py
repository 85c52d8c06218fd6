"""A duplicate game as a file: its edition and, move by move, the draw and the top (README, "Fichier de partie").

A game comes from a session played here, from a federation's simultané drawn ahead of time, or from elsewhere
(another club, another program). Whatever its origin it is checked move by move as the arbiter's console checks a
typed draw and top: each draw from the letters still in the bag, keeping the previous move's reliquat (FISF §3.2,
§3.7), each top played on the board with that draw, the first one across (§3.4), its score the board's own. A
session created from a game plays its moves in that order (`services.rounds.round_add`).
"""

import json
from collections import Counter
from dataclasses import dataclass, fields

from django.utils.translation import gettext as _

from clubsite.text import shown
from scoring.engine.autoplay import automatic_game
from scoring.engine.draw import Draw, bag_after, check_draw, parse_draw
from scoring.engine.editions import BLANK, Edition
from scoring.engine.errors import ScoringError, clause
from scoring.engine.moves import Board, Move, Play
from scoring.engine.rules import RuleSet

from .errors import DuplicateError

FORMAT = "clubsite.duplicate.game"
FORMAT_VERSION = 1
MAX_FILE_BYTES = 64 * 1024
# 102 tiles, at least one laid a move: a real game has 20 to 30 moves; this bounds what a file may ask to check.
MAX_ROUNDS = 100
MAX_TEXT = 40  # the columns of Round.draw and Round.top
# What a game file holds (`document`), the fields of the API's GameOut (a test holds the two together): any other
# key is refused, as the API refuses a field it does not know.
FILE_KEYS = frozenset({"format", "version", "name", "date", "rules", "edition", "rounds"})
KEY_SHOWN = 30  # characters of an unknown key a refusal quotes


@dataclass(frozen=True)
class GameRound:
    number: int
    draw: str
    top: str
    top_score: int

    def as_dict(self) -> dict:
        return {"number": self.number, "draw": self.draw, "top": self.top, "top_score": self.top_score}


ROUND_KEYS = frozenset(field.name for field in fields(GameRound))


def message(error: ScoringError) -> str:
    """The engine's French refusal; a hidden character it quotes from what was typed written as its code."""
    return shown(error.translated(_))


# The checks a move goes through, whether typed at the console or read from a file.


def check_draw_on(edition: Edition, rules: RuleSet, board: Board, reliquat: list[str], number: int, draw: Draw):
    """Refuse a draw that cannot follow the board and the reliquat as move `number` (French reason)."""
    on_board = [tile for _i, tile in board.tiles()]
    available = bag_after(edition, on_board, [])
    missing = Counter(draw.letters) - Counter(available)
    if missing:
        raise DuplicateError(
            _("Ce tirage demande des jetons qui ne sont plus dans le sac : %(letters)s.")
            % {"letters": "".join(sorted(missing.elements()))}
        )
    if draw.kept and Counter(draw.kept) != Counter(reliquat):
        raise DuplicateError(
            _("Les lettres gardées (%(kept)s) ne sont pas le reliquat du coup précédent (%(reliquat)s).")
            % {"kept": "".join(draw.kept), "reliquat": "".join(reliquat) or "—"}
        )
    try:
        check_draw(
            draw, available=available, reliquat=reliquat, move_number=number, edition=edition, rack_size=rules.rack_size
        )
    except ScoringError as error:
        raise DuplicateError(message(error)) from error


def evaluate_top(edition: Edition, rules: RuleSet, board: Board, draw_text: str, top_text: str) -> Play:
    """The top `top_text` played on `board` with the draw `draw_text`, scored; refused with its French reason."""
    try:
        play = board.evaluate(Move.parse(top_text, edition), edition, rules)
    except ScoringError as error:
        raise DuplicateError(_("Top refusé : %(reason)s") % {"reason": clause(message(error))}) from error
    if board.is_empty and not play.move.horizontal:
        raise DuplicateError(_("Le premier top se joue horizontalement (FISF §3.4) : %(move)s.") % {"move": play.move})
    if not fits_draw(play, parse_draw(draw_text, edition, rules.rack_size).letters):
        raise DuplicateError(
            _("Le top %(move)s ne se joue pas avec le tirage %(draw)s.")
            % {"move": play.move.notation, "draw": draw_text}
        )
    return play


def fits_draw(play: Play, letters) -> bool:
    """Whether the rack `letters` holds the tiles `play` lays (a joker as `?`)."""
    needed = Counter(BLANK if tile.blank else tile.letter for _index, tile in play.placed)
    return not needed - Counter(letters)


def reliquat_after(letters, play: Play) -> list[str]:
    """The letters of a draw left on the rack once `play` is laid: the next draw keeps them."""
    left = Counter(letters)
    for _index, tile in play.placed:
        left[BLANK if tile.blank else tile.letter] -= 1
    return sorted(left.elements())


def written_play(board: Board, result, edition: Edition, rules: RuleSet) -> Play | None:
    """A bulletin's written move (`Result`) laid on the board of its move, or None: no bulletin, a score alone, or
    a move refused (it scored 0, as its bulletin says), whether on saving or by this board."""
    if result is None or not result.move or result.reason:
        return None
    try:
        return board.evaluate(Move.parse(result.move, edition), edition, rules)
    except ScoringError:
        return None


def same_draw(edition: Edition, rules: RuleSet, typed: str, expected: str) -> bool:
    """Whether a typed draw is the game's: the same letters, in any order, after a rejet or not."""
    try:
        mine = parse_draw(typed, edition, rules.rack_size)
    except ScoringError:
        return False
    theirs = parse_draw(expected, edition, rules.rack_size)
    return Counter(mine.letters) == Counter(theirs.letters) and bool(mine.rejets) == bool(theirs.rejets)


def same_top(edition: Edition, typed: str, expected: str) -> bool:
    """Whether a typed top is the game's: the same square, direction and word, jokers included."""
    try:
        return Move.parse(typed, edition) == Move.parse(expected, edition)
    except ScoringError:
        return False


# Reading and checking a game


def too_big() -> DuplicateError:
    """The refusal of a game file over MAX_FILE_BYTES, whether its size is known before reading or after."""
    return DuplicateError(_("Fichier de partie trop gros (%(size)d Ko au plus).") % {"size": MAX_FILE_BYTES // 1024})


def read_file(raw: bytes) -> dict:
    """A game file's JSON object; refused with a French reason when it is too big, not UTF-8 or not JSON, or nested
    deeper than Python's JSON reader goes (a file of 64 KB can open 30,000 lists, and a game nests three levels)."""
    if len(raw) > MAX_FILE_BYTES:
        raise too_big()
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise DuplicateError(_("Le fichier de partie n'est pas en UTF-8.")) from None
    except ValueError:
        raise DuplicateError(_("Le fichier de partie n'est pas du JSON lisible.")) from None
    except RecursionError:
        raise DuplicateError(
            _("Le fichier de partie imbrique trop de listes ou d'objets : ce n'est pas une partie.")
        ) from None
    if not isinstance(data, dict):
        raise DuplicateError(
            _("Le fichier de partie doit être un objet JSON avec « edition » et « rounds ».")
        ) from None
    if key := _unknown_key(data, FILE_KEYS):
        raise DuplicateError(_("Champ inconnu : « %(field)s ».") % {"field": key})
    return data


def _unknown_key(data: dict, known) -> str | None:
    """The first key of `data` not in `known`, as a refusal quotes it (cut short, a hidden character as its code)."""
    for key in data:
        if key not in known:
            return shown(key[:KEY_SHOWN] + ("…" if len(key) > KEY_SHOWN else ""))
    return None


def rounds_of(data: dict) -> list[tuple[str, str, int | None]]:
    """The (draw, top, top score or None) of each move of a game's JSON object, in their order, their shape checked:
    numbered 1, 2, 3…, texts within the columns' lengths, no NUL character."""
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise DuplicateError(_("Le fichier de partie n'a aucun coup (« rounds » : une liste de coups)."))
    if len(rounds) > MAX_ROUNDS:
        raise DuplicateError(_("Une partie a %(max)d coups au plus.") % {"max": MAX_ROUNDS})
    read = []
    for expected, item in enumerate(rounds, start=1):
        if not isinstance(item, dict):
            raise DuplicateError(
                _("Coup %(number)d : un objet {number, draw, top, top_score} attendu.") % {"number": expected}
            )
        if key := _unknown_key(item, ROUND_KEYS):
            raise DuplicateError(
                _("Coup %(number)d : champ inconnu « %(field)s ».") % {"number": expected, "field": key}
            )
        number = item.get("number", expected)
        if number != expected or isinstance(number, bool):
            raise DuplicateError(
                _("Les coups sont numérotés 1, 2, 3… : le coup n° %(expected)d porte le numéro %(number)s.")
                % {"expected": expected, "number": shown(str(number)[:10])}
            )
        draw, top, score = item.get("draw"), item.get("top"), item.get("top_score")
        for value in (draw, top):
            if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT or "\x00" in value:
                raise DuplicateError(
                    _("Coup %(number)d : tirage et top sont des textes de 1 à %(max)d caractères.")
                    % {"number": expected, "max": MAX_TEXT}
                )
        if score is not None and (not isinstance(score, int) or isinstance(score, bool) or not 0 <= score <= 9999):
            raise DuplicateError(_("Coup %(number)d : le score du top est un entier.") % {"number": expected})
        read.append((draw.strip(), " ".join(top.split()), score))
    return read


def check_game(rounds, edition: Edition, rules: RuleSet) -> list[GameRound]:
    """Every move of a game checked on the board as the console checks a typed draw and top; the moves rewritten
    in the club notation. A top score given must be the board's (a file written for another edition or word
    values says so here rather than in the ranking)."""
    board = Board()
    reliquat: list[str] = []
    checked = []
    for number, (draw_text, top_text, score) in enumerate(rounds, start=1):
        try:
            try:
                draw = parse_draw(draw_text, edition, rules.rack_size)
            except ScoringError as error:
                raise DuplicateError(message(error)) from error
            check_draw_on(edition, rules, board, reliquat, number, draw)
            play = evaluate_top(edition, rules, board, draw.text, top_text)
            if score is not None and score != play.score:
                raise DuplicateError(
                    _("%(move)s vaut %(score)d points sur cette grille, pas %(given)d.")
                    % {"move": play.move.notation, "score": play.score, "given": score}
                )
        except DuplicateError as error:
            raise DuplicateError(
                _("Coup %(number)d : %(reason)s") % {"number": number, "reason": clause(str(error))}
            ) from error
        board.place(play)
        reliquat = reliquat_after(draw.letters, play)
        checked.append(GameRound(number, draw.text, play.move.notation, play.score))
    return checked


def game_from_file(raw: bytes, editions) -> tuple[str, list[GameRound]]:
    """A game file read and checked: (its edition's code, its moves). `editions(code)` → (Edition, RuleSet) of the
    engine, or None for an edition the site does not know."""
    data = read_file(raw)
    code = data.get("edition")
    if code is None or isinstance(code, str) and not code.strip():
        raise DuplicateError(_("Le fichier de partie ne nomme pas son édition (« edition » : fr, en, es…)."))
    engines = editions(code) if isinstance(code, str) and len(code) <= 20 and "\x00" not in code else None
    if engines is None:
        raise DuplicateError(_("Édition du fichier de partie inconnue : %(code)s.") % {"code": shown(str(code)[:20])})
    return code, check_game(rounds_of(data), *engines)


def document(edition_code: str, rounds, **about) -> dict:
    """A game's JSON object, as the file exports it and the API answers: `about` adds the name, date, rules."""
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        **about,
        "edition": edition_code,
        "rounds": [game_round.as_dict() for game_round in rounds],
    }


# Drawing a game ahead of time


def draw_game(edition: Edition, rules: RuleSet, index, seed: int) -> list[GameRound]:
    """A whole game drawn by the server, as an automatic game plays it (scoring.engine.autoplay: FISF §3.2 draws,
    one generator per move from `seed` as a session draws, the best move of each draw as its top, the first one
    across), until the reliquat allows no draw or no move is possible (§3.7). `index`: the edition's word list."""
    played = automatic_game(edition, index, rules, seed=seed, moves_at_most=MAX_ROUNDS)
    return [GameRound(move.number, move.draw.text, move.top.move.notation, move.top.score) for move in played]
