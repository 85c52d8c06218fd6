"""The game's own board in the grid counter: the sheet's lines laid on the grid (`scoring.boards.BoardStore`)."""

from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.boards import GridRefusal

from . import services
from .models import Game, Line
from .sheet import build_sheet


class GameBoardStore:
    """The board of a classic game: "Inscrire pour <joueur>" writes the move on the sheet and keeps it on the
    board; "Poser sur la grille sans marquer" only places it."""

    template_name = "sheets/grid.html"
    edition_locked = True
    actions = ("place", "inscribe")

    def __init__(self, game: Game, after: int | None = None):
        """`after`: the last line the page's form saw, so that a button pressed twice writes once."""
        self.game = game
        self.after = after
        self.edition_code = game.edition.code
        self.rules_code = game.rule_set.code
        self.moves = list(game.lines.exclude(move="").order_by("pk").values_list("move", flat=True))
        self.player_count = game.players.count()
        self.sheet = build_sheet(game)  # once a request: the turn, the banner and the tracking read it
        self.off_board_tiles = tuple(self.sheet.typed_tiles)

    def save(self, edition_code, moves):
        """The edition is the game's and the moves are its lines: nothing to save."""

    def act(self, action, *, pending, edition):
        if not pending.play:
            raise GridRefusal(pending.error or _("Tapez d'abord un mot sur la grille."))
        notation = pending.play.move.notation
        turn = self.sheet.turn
        try:
            if action == "place":
                services.board_place(game=self.game, move=notation, after=self.after)
                message = _("« %(move)s » est posé sur la grille, sans marquer.") % {"move": notation}
            else:
                detail = services.play_detail(pending.play)
                services.line_record(
                    game=self.game,
                    kind=Line.Kind.PLAY,
                    points=pending.play.score,
                    move=notation,
                    detail=detail,
                    after=self.after,
                )
                message = _("%(points)d points inscrits pour %(name)s (%(move)s).") % {
                    "points": pending.play.score,
                    "name": turn.display_name,
                    "move": notation,
                }
        except services.SheetError as error:
            raise GridRefusal(str(error)) from error
        self.moves.append(notation)
        self.sheet = build_sheet(self.game)  # a line was written: the banner shows the next turn
        return message

    def context(self):
        sheet = self.sheet
        return {
            "game": self.game,
            "sheet": sheet,
            "turn": sheet.turn,
            "typed_url": reverse("sheets:counter", args=[self.game.pk]),
        }
