"""The score sheet kept in the browser (seeds 000 and 003), for visitors and members alike.

The page plays the whole game in the browser and sends nothing, so it receives here, once, every figure the
rules need (from the admin's rule sets and editions, never written in its script). A member may copy a game
into his account: what the page sends is read here, each field checked at the edge with a French refusal,
before `services.game_import_local` writes it through the same functions as the member's own sheet.
"""

import datetime
import json
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.text import IN_FIELD, hidden_character
from scoring.engine.editions import BLANK, DIGRAPH_PARTS, LIGATURES, MAX_WORD_TILES
from scoring.engine.endgame import MAX_RACK_VALUE
from scoring.models import Edition, RuleSet

from . import services
from .models import Line, Player
from .services import CHALLENGE_MAX_WORDS, MAX_LINES, PENALTY_MAX_POINTS, SheetError

MAX_BODY_BYTES = 64 * 1024
GAMES_KEPT = 20  # in the browser: seed 003's "les 20 dernières parties"
FIRST_YEAR = 2000  # no game kept in a browser began before (the site did not exist)
CLOCK_AHEAD = datetime.timedelta(days=1)

MAX_NAME_LENGTH = Player._meta.get_field("name").max_length
MAX_RACK_LENGTH = Player._meta.get_field("rack_left").max_length
LOCAL_KINDS = (
    Line.Kind.PLAY,
    Line.Kind.PASS,
    Line.Kind.EXCHANGE,
    Line.Kind.WITHDRAWN,
    Line.Kind.CHALLENGE,
    Line.Kind.PENALTY,
)
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
)


@dataclass(frozen=True)
class LocalLine:
    player: int  # the seat, from 0
    kind: str
    points: int
    words: int = 1  # words wrongly challenged, for a lost challenge


@dataclass(frozen=True)
class LocalGame:
    edition: str
    rules: str
    names: list[str]
    lines: list[LocalLine]
    racks: list[str] | None  # each player's remaining letters once the game is over, the finisher's empty
    started: datetime.datetime | None


def browser_config() -> dict:
    """What the page's script needs: the rule sets and editions as the admin left them, the engine's figures
    for reading what is typed (static/js/sheet_rules.js applies its rules with them), and the bounds of what it
    may keep and send, so that a game it accepts is one the server accepts too."""
    return {
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


def read_local_game(body: bytes) -> LocalGame:
    """The game the page sent, or SheetError with a French sentence saying what is wrong in it."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):  # bad UTF-8 or JSON, a 5,000-digit number, arrays nested 20,000 deep
        raise SheetError(_("Partie illisible : le navigateur doit envoyer du JSON.")) from None
    if not isinstance(data, dict):
        raise SheetError(_("Partie illisible : le navigateur doit envoyer du JSON."))
    names = data.get("players")
    services.check_player_count(len(names) if isinstance(names, list) else 0)
    if not all(isinstance(name, str) and len(name) <= MAX_NAME_LENGTH for name in names):
        raise SheetError(_("Un nom de joueur compte %(max)d caractères au plus.") % {"max": MAX_NAME_LENGTH})
    if any("\x00" in name for name in names):
        raise SheetError(_("Un nom de joueur ne peut contenir le caractère nul."))
    hidden = [code for code in map(hidden_character, names) if code]
    if hidden:
        raise SheetError(IN_FIELD % {"what": _("Un nom de joueur"), "code": hidden[0]})
    return LocalGame(
        edition=_known_code(data.get("edition"), Edition, _("Édition inconnue.")),
        rules=_known_code(data.get("rules"), RuleSet, _("Jeu de règles inconnu.")),
        names=[name.strip() for name in names],
        lines=_read_lines(data.get("lines"), len(names)),
        racks=_read_racks(data.get("racks"), len(names)),
        started=_read_date(data.get("started")),
    )


def _known_code(code, model, refusal: str) -> str:
    if not model.objects.named(code).exists():
        raise SheetError(refusal)
    return code


def _integer(value) -> bool:
    # JSON's true and false are ints to Python: a seat or points written as a boolean is refused.
    return isinstance(value, int) and not isinstance(value, bool)


def _read_lines(lines, player_count: int) -> list[LocalLine]:
    if not isinstance(lines, list):
        raise SheetError(_("Partie illisible : la liste des lignes manque."))
    if len(lines) > MAX_LINES:
        raise SheetError(_("Une feuille compte %(max)d lignes au plus.") % {"max": MAX_LINES})
    read = []
    for number, line in enumerate(lines, start=1):
        if not isinstance(line, dict) or line.get("kind") not in LOCAL_KINDS:
            raise SheetError(_("Ligne %(number)d : action inconnue.") % {"number": number})
        player, points, words = line.get("player"), line.get("points"), line.get("words", 1)
        if not (_integer(player) and 0 <= player < player_count):
            raise SheetError(_("Ligne %(number)d : joueur inconnu.") % {"number": number})
        # The rules' own bounds are checked by the services that write each line; these keep numbers sane.
        if not (_integer(points) and abs(points) <= 100_000 and _integer(words) and 0 < words <= 100):
            raise SheetError(_("Ligne %(number)d : un nombre entier de points est attendu.") % {"number": number})
        read.append(LocalLine(player=player, kind=line["kind"], points=points, words=words))
    return read


def _read_racks(racks, player_count: int) -> list[str] | None:
    if racks is None:
        return None
    if not isinstance(racks, list) or len(racks) != player_count:
        raise SheetError(_("Fin de partie illisible : une case de lettres restantes par joueur."))
    for rack in racks:
        if not isinstance(rack, str) or len(rack) > MAX_RACK_LENGTH:
            raise SheetError(_("Lettres restantes : %(max)d caractères au plus par joueur.") % {"max": MAX_RACK_LENGTH})
        value = rack.strip()
        # Python reads "²" as a digit but cannot count it; a value is written in plain digits, and kept small.
        if value.isdigit() and not (value.isascii() and int(value) <= MAX_RACK_VALUE):
            raise SheetError(_("La valeur des lettres restantes va de 0 à %(max)d.") % {"max": MAX_RACK_VALUE})
    return racks


def _read_date(text) -> datetime.datetime | None:
    """When the game began in the browser, kept as the saved game's date: from New Year's Day of FIRST_YEAR to now.
    A browser's clock may run ahead of the server's, by less than CLOCK_AHEAD: its game is then dated now."""
    if text is None:
        return None
    try:
        started = datetime.datetime.fromisoformat(text)
    except (TypeError, ValueError):
        raise SheetError(_("Date de la partie illisible.")) from None
    if timezone.is_naive(started):
        started = timezone.make_aware(started, datetime.UTC)
    now = timezone.now()
    # Compared before anything converts it: year 1 at +01:00 is before year 1 in UTC, which Python cannot hold.
    if not datetime.datetime(FIRST_YEAR, 1, 1, tzinfo=datetime.UTC) <= started <= now + CLOCK_AHEAD:
        raise SheetError(
            _("Date de la partie impossible : du 1er janvier %(year)d à aujourd'hui.") % {"year": FIRST_YEAR}
        )
    return min(started, now)
