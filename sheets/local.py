"""The score sheet kept in the browser (seeds 000 and 003), for visitors and members alike.

The page plays the whole game in the browser and sends nothing, so it receives here, once, every figure the
rules need (from the admin's rule sets and editions, never written in its script). A member may copy a game
into his account (`POST /api/sheets/local-games`, sheets/api.py): its shape is read by `sheets.schemas.LocalGameIn`,
what needs the rule sets and its seats checked here, before `services.game_import_local` writes it through the same
functions as the member's own sheet.
"""

from django.utils.translation import gettext as _

from clubsite.text import refused_character
from scoring.engine.editions import BLANK, DIGRAPH_PARTS, LIGATURES, MAX_WORD_TILES
from scoring.engine.endgame import MAX_RACK_VALUE
from scoring.models import Edition, RuleSet

from . import services
from .models import Line, Player
from .services import CHALLENGE_MAX_WORDS, MAX_LINES, PENALTY_MAX_POINTS, SheetError

MAX_BODY_BYTES = 64 * 1024
GAMES_KEPT = 20  # in the browser: seed 003's "les 20 dernières parties"
DUPLICATE_MIN_PLAYERS = 1  # a duplicate game may be played alone, against the tops (seed 000)
TEMPLATE = "sheets/includes/browser_sheet.html"

MAX_NAME_LENGTH = Player._meta.get_field("name").max_length
MAX_RACK_LENGTH = Player._meta.get_field("rack_left").max_length
RULE_FIELDS = (
    "code",
    "name",
    "min_players",
    "max_players",
    "fallback_code",
    "max_move_points",
    "challenge_penalty",
    "penalty_offer",
    "consecutive_pass_limit",
    "passes_per_player_limit",
    "pass_rounds_limit",
    "end_of_game",
    "solo_bonus",
    "solo_min_players",
    "move_seconds",
    "move_seconds_choices",
)


def sheet_context(*, below_counter: bool) -> dict:
    """What the sheet's template needs, on its own page or under the counter (`below_counter`): its figures, and
    the seats as many as the rule sets admit players."""
    low, high = RuleSet.objects.player_bounds()
    return {
        "template": TEMPLATE,
        "below_counter": below_counter,
        "config": browser_config((low, high)),
        "games_kept": GAMES_KEPT,
        "min_players": low,
        "max_players": high,
        "counts": range(low, high + 1),
        "seats": range(1, high + 1),
    }


def browser_config(player_bounds: tuple[int, int] | None = None) -> dict:
    """What the page's script needs: the rule sets and editions as the admin left them, the engine's figures
    for reading what is typed (static/js/sheet_rules.js applies its rules with them), the players each type of
    game admits, and the bounds of what it may keep and send, so that a game it accepts is one the server accepts
    too."""
    low, high = player_bounds or RuleSet.objects.player_bounds()
    return {
        "players": {
            "classic": {"min": low, "max": high},
            "duplicate": {"min": DUPLICATE_MIN_PLAYERS, "max": high},
        },
        "rules": [_rules_for_browser(code, is_default) for code, is_default in _codes(RuleSet)],
        "editions": [_edition_for_browser(code, is_default) for code, is_default in _codes(Edition)],
        "kinds": dict(Line.Kind.choices),
        "turn_kinds": list(Line.TURN_KINDS),
        "notation": {
            "blank": BLANK,
            "max_word_tiles": MAX_WORD_TILES,
            "max_rack_value": MAX_RACK_VALUE,
            "ligatures": LIGATURES,
            "digraph_parts": sorted(DIGRAPH_PARTS),
        },
        "limits": {
            "lines": MAX_LINES,
            "games": GAMES_KEPT,
            "name": MAX_NAME_LENGTH,
            "rack": MAX_RACK_LENGTH,
            "penalty": PENALTY_MAX_POINTS,
            "challenge_words": CHALLENGE_MAX_WORDS,
        },
    }


def _codes(model):
    return model.objects.order_by("-is_default", "name").values_list("code", "is_default")


def _rules_for_browser(code: str, is_default: bool) -> dict:
    rules = RuleSet.objects.engine(code)
    return {field: getattr(rules, field) for field in RULE_FIELDS} | {"is_default": is_default}


def _edition_for_browser(code: str, is_default: bool) -> dict:
    edition = Edition.objects.engine(code)
    return {
        "code": edition.code,
        "name": edition.name,
        "is_default": is_default,
        "values": edition.values,
        "counts": edition.counts(),
    }


def check_local_game(game):
    """What a game the page sent (a `sheets.schemas.LocalGameIn`, its shape already read) must also be before it is
    copied: as many players as a rule set admits, named without an invisible character, its edition and rules
    known, each line a seat's, one rack a player, a date the site could have seen. SheetError with a French
    sentence, else the game dated (`started` an aware datetime, never later than now)."""
    services.check_player_count(len(game.players))
    refused = [refusal for refusal in map(refused_character, game.players) if refusal]
    if refused:
        raise SheetError(refused[0].in_field(_("Un nom de joueur")))
    if not Edition.objects.named(game.edition).exists():
        raise SheetError(_("Édition inconnue."))
    if not RuleSet.objects.named(game.rules).exists():
        raise SheetError(_("Jeu de règles inconnu."))
    for number, line in enumerate(game.lines, start=1):
        if line.player >= len(game.players):
            raise SheetError(_("Ligne %(number)d : joueur inconnu.") % {"number": number})
    if game.racks is not None:
        _check_racks(game.racks, len(game.players))
    return game.model_copy(update={"started": services.game_date(game.started)})


def _check_racks(racks: list[str], player_count: int):
    if len(racks) != player_count:
        raise SheetError(_("Fin de partie illisible : une case de lettres restantes par joueur."))
    for rack in racks:
        value = rack.strip()
        # Python reads "²" as a digit but cannot count it; a value is written in plain digits, and kept small.
        if value.isdigit() and not (value.isascii() and int(value) <= MAX_RACK_VALUE):
            raise SheetError(_("La valeur des lettres restantes va de 0 à %(max)d.") % {"max": MAX_RACK_VALUE})
