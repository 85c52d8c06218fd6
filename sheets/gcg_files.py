"""Games in and out of GCG records (poslfit.com/scrabble/gcg; facts §5).

Export needs every move's placement (counted on the grid); import re-scores each move with the engine and
keeps the score the file wrote beside it, so the sheet can mark the moves where the two differ.
"""

import re

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.engine.errors import ScoringError
from scoring.engine.gcg import (
    distribution_name,
    edition_code,
    format_gcg_coordinate,
    format_gcg_word,
    gcg_move,
    parse_gcg,
)
from scoring.engine.moves import Board, Move, replay
from scoring.models import Edition

from .models import Game, Line, Player
from .services import SheetError
from .sheet import build_sheet


def _nick(player: Player) -> str:
    return re.sub(r"[^\w-]", "_", player.display_name)[:20] or f"joueur{player.position + 1}"


def game_to_gcg(game: Game) -> str:
    """The game as a GCG file; refused when a play was typed as points only (its placement is unknown)."""
    sheet = build_sheet(game)
    if any(row.line.kind == Line.Kind.PLAY and not row.line.move for row in sheet.rows):
        raise SheetError(
            _("Seuls les coups comptés sur la grille s'exportent en GCG : cette partie a des coups saisis en points.")
        )
    edition = game.engine_edition()
    rules = game.engine_rules()
    nicks = {player.pk: _nick(player) for player in sheet.players}
    out = ["#character-encoding UTF-8"]
    for number, player in enumerate(sheet.players, start=1):
        out.append(f"#player{number} {nicks[player.pk]} {player.display_name}")
    out.append(f"#tile-distribution {distribution_name(game.edition.code)}")
    board = Board()
    totals = {player.pk: 0 for player in sheet.players}
    for row in sheet.rows:
        line = row.line
        totals[line.player_id] += line.points
        head = f">{nicks[line.player_id]}:"
        cumulative = totals[line.player_id]
        if line.move:
            play = board.play(Move.parse(line.move, edition), edition, rules)
            placed = "".join(tile.written.upper() if not tile.blank else "?" for _, tile in play.placed)
            if line.kind == Line.Kind.BOARD:
                out.append("#note posé sans marquer")
            out.append(
                f"{head} {placed} {format_gcg_coordinate(play.move)} {format_gcg_word(play)} "
                f"{line.points:+d} {cumulative}"
            )
        elif line.kind in (Line.Kind.PASS, Line.Kind.WITHDRAWN):
            out.append(f"{head} - - {line.points:+d} {cumulative}")
        elif line.kind == Line.Kind.EXCHANGE:
            out.append(f"{head} - -? {line.points:+d} {cumulative}")
        elif line.kind == Line.Kind.CHALLENGE:
            out.append(f"{head} - (challenge) {line.points:+d} {cumulative}")
        else:
            out.append(f"#note {line.get_kind_display()}")
            out.append(f"{head} - (time) {line.points:+d} {cumulative}")
    racks = {player.pk: player.rack_left.upper().replace(" ", "") for player in sheet.players}
    others = "".join(rack for rack in racks.values() if not rack.isdigit())
    for player, final in sheet.results or []:
        if final.adjustment:
            totals[player.pk] += final.adjustment
            if final.adjustment > 0:  # the finisher, given the others' letters
                out.append(f">{nicks[player.pk]}: ({others}) {final.adjustment:+d} {totals[player.pk]}")
            else:
                rack = racks[player.pk]
                out.append(f">{nicks[player.pk]}: {rack} ({rack}) {final.adjustment:+d} {totals[player.pk]}")
    return "\n".join(out) + "\n"


def game_from_gcg(*, owner, text: str, rule_set, filename: str = "", edition_code_override: str = "") -> Game:
    """A new game from a GCG record, every move re-scored by the engine.

    A move whose written score differs keeps the engine's score and the written one beside it; a move the
    engine cannot play keeps the written score and says why; a withdrawn phony (`--`) becomes "Mot repris".
    """
    try:
        record = parse_gcg(text)
    except ScoringError as error:
        raise SheetError(error.translated(_)) from error
    nicks = [nick for nick, _name in record.players] or list(dict.fromkeys(e.nick for e in record.events))
    if not 2 <= len(nicks) <= 4:
        raise SheetError(_("Le fichier doit décrire une partie de deux à quatre joueurs."))
    code = edition_code(edition_code_override or record.pragmas.get("tile-distribution", "fr"))
    try:
        edition = Edition.objects.engine(code)
    except ScoringError as error:
        raise SheetError(error.translated(_)) from error
    names = dict(record.players)
    rules = rule_set.build()
    with transaction.atomic():
        game = Game.objects.create(
            owner=owner, edition=Edition.objects.get(code=code), rule_set=rule_set, imported_from=filename[:200]
        )
        players = {
            nick: Player.objects.create(game=game, position=position, name=names.get(nick, nick)[:60])
            for position, nick in enumerate(nicks)
        }
        board = Board()
        last_play: dict[str, tuple[Line, object]] = {}
        for event in record.events:
            player = players.get(event.nick)
            if player is None:
                raise SheetError(
                    _("Ligne %(line)d : joueur inconnu « %(nick)s ».") % {"line": event.line, "nick": event.nick}
                )
            if event.kind == "play":
                line = _import_play(game, player, event, board, edition, rules)
                if line.move:
                    last_play[event.nick] = line
            elif event.kind == "phony":
                withdrawn = last_play.pop(event.nick, None)
                if withdrawn:
                    withdrawn.kind, withdrawn.points, withdrawn.recorded_points = Line.Kind.WITHDRAWN, 0, None
                    withdrawn.detail = _("Coup retiré : %(move)s") % {"move": withdrawn.move}
                    withdrawn.move = ""
                    withdrawn.save()
                    board = _replay(game, edition, rules)
            else:
                kind = {
                    "pass": Line.Kind.PASS,
                    "exchange": Line.Kind.EXCHANGE,
                    "challenge": Line.Kind.CHALLENGE,
                }.get(event.kind, Line.Kind.PENALTY)
                detail = _("Lettres restantes : %(rack)s") % {"rack": event.word} if event.kind == "end_rack" else ""
                Line.objects.create(game=game, player=player, kind=kind, points=event.score, detail=detail)
    return game


def _import_play(game, player, event, board, edition, rules) -> Line:
    try:
        move = gcg_move(event.position, event.word, board, edition)
        play = board.play(move, edition, rules)
    except ScoringError as error:
        return Line.objects.create(
            game=game,
            player=player,
            kind=Line.Kind.PLAY,
            points=event.score,
            recorded_points=event.score,
            detail=_("Coup injouable (%(position)s %(word)s) : %(reason)s")
            % {"position": event.position, "word": event.word, "reason": error.translated(_)},
        )
    return Line.objects.create(
        game=game,
        player=player,
        kind=Line.Kind.PLAY,
        points=play.score,
        recorded_points=event.score,
        move=play.move.notation,
        detail=" · ".join(f"{word.word} : {word.calculation}" for word in play.words),
    )


def _replay(game, edition, rules) -> Board:
    return replay(game.lines.exclude(move="").order_by("pk").values_list("move", flat=True), edition, rules).board
