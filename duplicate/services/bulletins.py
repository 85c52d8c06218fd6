"""The arbiter's bulletins at the keyboard: the player a bulletin names (his table, or the start of his name), the
score or move written on it, and who is still missing on the move."""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring.engine.lexicon import normalise_word

from ..errors import DuplicateError
from ..models import Player, Result, Round, Session
from .results import entry_enter


@dataclass
class Bulletins:
    """Where a move's entry stands: how many players have a result, and who is still missing."""

    entered: int
    total: int
    missing: list[Player]


def bulletins(round_: Round, players=None, results=None) -> Bulletins:
    """The move's bulletins in two queries whatever the number of players, none when the page already holds its
    `players` and their `results` (player id → Result)."""
    if players is None:
        players = round_.session.players.all()
    if results is None:
        entered = set(round_.results.exclude(score=None).values_list("player_id", flat=True))
    else:
        entered = {player_id for player_id, result in results.items() if result.score is not None}
    present = [player for player in players if not player.absent]
    entered &= {player.pk for player in present}
    return Bulletins(len(entered), len(present), [player for player in present if player.pk not in entered])


def bulletin_enter(*, round_: Round, table: str, entry: str, by=None) -> tuple[Player, Result]:
    """A bulletin typed at the keyboard: the table number (or, for a player without a table, the start of his
    name), then the score or the move written on it."""
    player = bulletin_player(round_.session, table)
    return player, entry_enter(round_=round_, player=player, entry=entry, by=by)


def bulletin_player(session: Session, text: str) -> Player:
    """The player a bulletin names: his table number, or the start of his name or of one of its words when he has
    no table ("mar" for Martine, "roux" for Thibault Roux), which must name one player only."""
    text = " ".join(text.split())
    if not text:
        raise DuplicateError(_("Tapez le numéro de table du bulletin (ou le nom d'un joueur sans table)."))
    if text.isascii() and text.isdigit():
        player = session.players.filter(table=int(text)).first() if len(text) < 6 else None
        if player is None:
            raise DuplicateError(_("Aucun joueur à la table %(table)s.") % {"table": text})
        return player
    wanted = _folded(text)
    named = [player for player in session.players.filter(table=None) if _name_starts(player.name, wanted)]
    exact = [player for player in named if _folded(player.name) == wanted]
    if len(exact) == 1 or len(named) == 1:
        return (exact or named)[0]
    if not named:
        tabled = [p for p in session.players.exclude(table=None) if _name_starts(p.name, wanted)]
        if len(tabled) == 1:
            raise DuplicateError(
                _("%(name)s est à la table %(table)d : tapez %(table)d.")
                % {"name": tabled[0].name, "table": tabled[0].table}
            )
        raise DuplicateError(_("Aucun joueur sans table ne s'appelle « %(name)s ».") % {"name": text[:40]})
    raise DuplicateError(
        _("« %(name)s » désigne plusieurs joueurs : %(names)s. Tapez davantage du nom.")
        % {"name": text[:40], "names": ", ".join(player.name for player in named[:5])}
    )


def _name_starts(name: str, wanted: str) -> bool:
    """Whether the name, or one of its words, starts as typed: "roux" and "thib" both name Thibault Roux."""
    folded = _folded(name)
    return folded.startswith(wanted) or any(word.startswith(wanted) for word in folded.split())


def _folded(text: str) -> str:
    """A name as compared at the keyboard: the word list's spelling (no case, no accents), spaces single."""
    return normalise_word(" ".join(text.split()))
