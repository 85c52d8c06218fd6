"""The session's board in the grid counter, for the arbiter to lay the top of the current move
(`scoring.boards.BoardStore`), and what the grid and the typed counter share to inscribe a player's points."""

from django.utils.translation import gettext as _

from scoring.boards import GridRefusal
from scoring.engine.draw import parse_draw

from .errors import DuplicateError
from .models import Player, Result, Round, Session
from .services.results import move_score, result_set
from .services.rounds import round_set_top


class TopBoardStore:
    """The board with every earlier top placed; "Placer ce top" sets the current move's top, "Inscrire pour le
    joueur" records the move counted on the grid as the chosen player's score, without placing it."""

    template_name = "duplicate/top_grid.html"
    edition_locked = True
    actions = ("top", "inscribe")
    player_count = 1  # one rack: the draw everybody shares
    off_board_tiles = ()

    def __init__(self, session: Session, by=None, player_pk=None):
        self.session = session
        self.by = by
        self.player_pk = player_pk or ""
        self.edition_code = session.edition.code
        self.rules_code = session.rule_set.code
        rounds = list(session.rounds.all())
        self.current = rounds[-1] if rounds else None
        self.moves = [r.top for r in rounds if r.top and (self.current is None or r.number < self.current.number)]

    def save(self, edition_code, moves):
        """The edition is the session's and the moves are its tops: nothing to save."""

    def act(self, action, *, pending, edition):
        if self.current is None:
            raise GridRefusal(_("Faites d'abord le tirage du premier coup."))
        if not pending.play:
            empty = (
                _("Tapez d'abord le top sur la grille.")
                if action == "top"
                else _("Tapez d'abord un mot sur la grille.")
            )
            raise GridRefusal(pending.error or empty)
        try:
            if action == "inscribe":
                message = inscribe(
                    round_=self.current,
                    player_value=self.player_pk,
                    score=pending.play.score,
                    move=pending.play.move.notation,
                    by=self.by,
                )
                self.player_pk = ""  # the list opens again on the next player still to enter
                return message
            round_set_top(round_=self.current, top_text=pending.play.move.notation, by=self.by)
        except DuplicateError as error:
            raise GridRefusal(str(error)) from error
        self.moves.append(self.current.top)
        return _("Top du coup %(number)d : %(top)s, %(score)d points.") % {
            "number": self.current.number,
            "top": self.current.top,
            "score": self.current.top_score,
        }

    def context(self):
        draw = parse_draw(self.current.draw, self.session.edition_engine) if self.current else None
        # "Meilleurs coups" starts from the move's draw, the one rack every player shares.
        default_rack = "".join(draw.letters) if draw else ""
        return {
            "duplicate_session": self.session,
            "current_round": self.current,
            "default_rack": default_rack,
            "entries": move_entries(self.session, self.current),
            "chosen_player": self.player_pk,
        }


def move_entries(session: Session, round_: Round | None) -> list[tuple[Player, Result | None]]:
    """The players of "Inscrire pour le joueur", each with his result on the move (None while he has no score):
    those still to enter first, in table order, so that the list opens on the next bulletin to count."""
    results = {result.player_id: result for result in round_.results.exclude(score=None)} if round_ else {}
    entries = [(player, results.get(player.pk)) for player in session.players.all()]
    return sorted(entries, key=lambda entry: entry[1] is not None or entry[0].absent)


def inscribe(*, round_: Round | None, player_value: str, score: int, move: str = "", by=None) -> str:
    """ "Inscrire pour le joueur": `score` becomes the score, on the current move, of the player chosen in the list
    (`player_value`, his id as the form sends it), with the move laid on the grid when there is one that the move's
    draw makes (his recap then shows it beside the top); a move counted off the draw keeps its score alone.
    Returns the message to show; raises `DuplicateError`."""
    if round_ is None:
        raise DuplicateError(_("Faites d'abord le tirage du premier coup."))
    player = _chosen_player(round_.session, player_value)
    if move and move_score(round_, move) == (score, ""):
        result_set(round_=round_, player=player, move=move, by=by)
    else:
        result_set(round_=round_, player=player, score=score, by=by)
    return _("%(points)d points inscrits pour %(name)s (coup %(number)d).") % {
        "points": score,
        "name": player.name,
        "number": round_.number,
    }


def _chosen_player(session: Session, value) -> Player:
    """The player the form names; an id that is not one of this session's players is refused, not a 404."""
    value = (value or "").strip()
    if not value:
        raise DuplicateError(_("Choisissez le joueur pour qui inscrire les points."))
    player = None
    if value.isascii() and value.isdigit() and len(value) < 10:
        player = session.players.filter(pk=int(value)).first()
    if player is None:
        raise DuplicateError(_("Ce joueur ne participe pas à cette séance."))
    return player
