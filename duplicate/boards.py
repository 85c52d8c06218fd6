"""The session's board in the grid counter, for the arbiter to lay the top of the current move
(`scoring.boards.BoardStore`)."""

from django.utils.translation import gettext as _

from scoring.boards import GridRefusal
from scoring.engine.draw import parse_draw

from . import services
from .models import Session


class TopBoardStore:
    """The board with every earlier top placed; "Placer ce top" sets the current move's top."""

    template_name = "duplicate/top_grid.html"
    edition_locked = True
    actions = ("top",)
    player_count = 1  # one rack: the draw everybody shares
    off_board_tiles = ()

    def __init__(self, session: Session, by=None):
        self.session = session
        self.by = by
        self.edition_code = session.edition.code
        rounds = list(session.rounds.all())
        self.current = rounds[-1] if rounds else None
        self.moves = [r.top for r in rounds if r.top and (self.current is None or r.number < self.current.number)]

    def save(self, edition_code, moves):
        """The edition is the session's and the moves are its tops: nothing to save."""

    def act(self, action, *, pending, edition):
        if self.current is None:
            raise GridRefusal(_("Faites d'abord le tirage du premier coup."))
        if not pending.play:
            raise GridRefusal(pending.error or _("Tapez d'abord le top sur la grille."))
        try:
            services.round_set_top(round_=self.current, top_text=pending.play.move.notation, by=self.by)
        except services.DuplicateError as error:
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
        return {"duplicate_session": self.session, "current_round": self.current, "default_rack": default_rack}
