"""Games in and out of GCG records (poslfit.com/scrabble/gcg; facts §5).

Export needs every move's placement (counted on the grid); import re-scores each move with the engine and
keeps the score the file wrote beside it, so the sheet can mark the moves where the two differ.
"""

import datetime
import re
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.invitations import seats_invite
from clubsite.limits import integer_range, max_length
from clubsite.text import refused_character
from scoring.engine.editions import BLANK
from scoring.engine.errors import ScoringError, clause
from scoring.engine.gcg import (
    LINE_TAG,
    distribution_name,
    edition_code,
    format_gcg_coordinate,
    format_gcg_word,
    gcg_move,
    parse_gcg,
)
from scoring.engine.moves import Board, Move, replay
from scoring.models import Edition, RuleSet

from . import services
from .models import Game, Line, Player
from .services import SheetError
from .sheet import build_sheet

RULES_PRAGMA = "clubsite-rules"
DATE_PRAGMA = "clubsite-date"
TIMER_PRAGMA = "clubsite-timer"
MEMBER_PRAGMA = "clubsite-member"
# What an import reads at most: a real record is a few kilobytes, and every move is scored again on reading.
MAX_FILE_BYTES = 64 * 1024
MAX_MOVES = services.MAX_LINES
# Before a play whose rack is unknown: its rack field then gives only the tiles placed, which GCG requires.
NO_RACK_TAG = "no-rack"
# The lines whose text the sheet keeps: the players' names and nicks, the moves (a word is quoted in its detail).
KEPT_LINE = re.compile(r"\s*(?:>|#player\d)")


def _nick(player: Player) -> str:
    return re.sub(r"[^\w-]", "_", player.display_name)[:20] or f"joueur{player.position + 1}"


def game_to_gcg(game: Game) -> str:
    """The game as a GCG file; refused when a play was typed as points only (its placement is unknown)."""
    sheet = build_sheet(game)
    if any(row.line.kind == Line.Kind.PLAY and not row.line.move for row in sheet.rows):
        raise SheetError(
            _("Seuls les coups comptés sur la grille s'exportent en GCG : cette partie a des coups saisis en points.")
        )
    off_board = next((row for row in sheet.rows if row.off_board), None)
    if off_board:
        raise SheetError(
            _(
                "Ligne %(number)d (« %(move)s ») : elle ne tient plus sur la grille (%(reason)s) ; corrigez la feuille "
                "avant d'exporter."
            )
            % {"number": off_board.number, "move": off_board.line.move, "reason": off_board.off_board}
        )
    edition = game.engine_edition()
    rules = game.engine_rules()
    nicks = {player.pk: _nick(player) for player in sheet.players}
    out = ["#character-encoding UTF-8"]
    for number, player in enumerate(sheet.players, start=1):
        out.append(f"#player{number} {nicks[player.pk]} {player.display_name}")
    out.append(f"#tile-distribution {distribution_name(game.edition.code)}")
    # What GCG has no word for, kept in our own pragmas so that an import gives the same sheet back.
    out.append(f"#{RULES_PRAGMA} {game.rule_set.code}")
    out.append(f"#{DATE_PRAGMA} {game.created_at.date().isoformat()}")
    if game.timer_seconds:
        out.append(f"#{TIMER_PRAGMA} {game.timer_seconds}")
    for number, player in enumerate(sheet.players, start=1):
        if player.member:
            out.append(f"#{MEMBER_PRAGMA}{number} {player.member.get_username()}")
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
                out.append(f"#{LINE_TAG} {Line.Kind.BOARD}")
            elif not line.rack:
                out.append(f"#{LINE_TAG} {NO_RACK_TAG}")
            out.append(
                f"{head} {line.rack or placed} {format_gcg_coordinate(play.move)} {format_gcg_word(play)} "
                f"{line.points:+d} {cumulative}"
            )
        elif line.kind in (Line.Kind.PASS, Line.Kind.WITHDRAWN):
            if line.kind == Line.Kind.WITHDRAWN:
                out.append(f"#{LINE_TAG} {Line.Kind.WITHDRAWN}")
            out.append(f"{head} {line.rack or '-'} - {line.points:+d} {cumulative}")
        elif line.kind == Line.Kind.EXCHANGE:
            out.append(f"{head} {line.rack or '-'} -? {line.points:+d} {cumulative}")
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


def game_from_gcg(
    *,
    owner,
    text: str,
    rule_set,
    filename: str = "",
    edition_code_override: str = "",
    before_inviting: Callable[[], None] = lambda: None,
) -> tuple[Game, list[str]]:
    """A new game from a GCG record, every move re-scored by the engine, and the notes to show about it.
    `before_inviting` is called once, before anything is written, when the file names members other than the owner
    (who are invited to their seats): the page counts it against the owner's rate of invitations, and may raise.

    A move whose written score differs keeps the engine's score and the written one beside it; a move the
    engine cannot play keeps the written score and says why; a withdrawn phony (`--`) becomes "Mot repris".
    The end-of-game lines finish the game with each player's remaining letters. Our own pragmas (rules, date,
    timer, linked members, lines placed without scoring) are read back; `rule_set` serves a file without them.
    """
    _refuse_hidden_characters(text)
    try:
        record = parse_gcg(text)
    except ScoringError as error:
        raise SheetError(error.translated(_)) from error
    _refuse_a_nick_twice(record)
    nicks = [nick for nick, _name in record.players] or list(dict.fromkeys(e.nick for e in record.events))
    services.check_player_count(len(nicks), _("Le fichier doit décrire une partie de %(min)d à %(max)d joueurs."))
    low, high = integer_range(Line, "points")
    beyond = next((event for event in record.events if not low <= event.score <= high), None)
    if beyond:
        raise SheetError(
            _("Ligne %(line)d : score hors limites (%(score)d).") % {"line": beyond.line, "score": beyond.score}
        )
    code = edition_code(edition_code_override or record.pragmas.get("tile-distribution", "fr"))
    try:
        edition = Edition.objects.engine(code)
    except ScoringError as error:
        raise SheetError(error.translated(_)) from error
    rule_set = RuleSet.objects.named(record.pragmas.get(RULES_PRAGMA)).first() or rule_set
    rules = rule_set.build()
    names = dict(record.players)
    members = _members(record, len(nicks))
    if any(member != owner for member in members.values()):
        before_inviting()
    with transaction.atomic():
        game = Game.objects.create(
            owner=owner,
            edition=Edition.objects.get(code=code),
            rule_set=rule_set,
            timer_seconds=_pragma_int(record, TIMER_PRAGMA, 0, 600),
            imported_from=filename[:200],
        )
        if played_on := _pragma_date(record):
            Game.objects.filter(pk=game.pk).update(created_at=played_on)
            game.refresh_from_db(fields=["created_at"])
        players = {
            nick: Player.objects.create(game=game, position=position, name=names.get(nick, nick)[:60])
            for position, nick in enumerate(nicks)
        }
        # A member named in the file is invited to his seat, as on a new game: the file links nobody by itself.
        seats_invite(
            inviter=owner,
            invites=[(players[nick], members[position]) for position, nick in enumerate(nicks) if position in members],
        )
        invited = any(member != owner for member in members.values())
        # The lines are kept here as they are read, and written together once the record is read through.
        lines: list[Line] = []
        board = Board()
        undo = None  # the last move laid and the board before it, which a phony withdrawn at once gives back
        last_play: dict[str, Line] = {}
        endings = []
        refused_racks = []
        for event in record.events:
            player = players.get(event.nick)
            if player is None:
                raise SheetError(
                    _("Ligne %(line)d : joueur inconnu « %(nick)s ».") % {"line": event.line, "nick": event.nick}
                )
            if event.kind == "play":
                before = board.copy()
                line = _import_play(game, player, event, board, edition, rules, refused_racks)
                lines.append(line)
                if line.move:
                    undo = (line, before)
                if line.move and line.kind == Line.Kind.PLAY:
                    last_play[event.nick] = line
            elif event.kind == "phony":
                withdrawn = last_play.pop(event.nick, None)
                if withdrawn:
                    withdrawn.kind, withdrawn.points, withdrawn.recorded_points = Line.Kind.WITHDRAWN, 0, None
                    withdrawn.detail = _("Coup retiré : %(move)s") % {"move": withdrawn.move}
                    withdrawn.move = ""
                    if undo and undo[0] is withdrawn:
                        board = undo[1]
                    else:  # another move was laid since: the board again without the one withdrawn
                        board = replay([line.move for line in lines if line.move], edition, rules).board
                    undo = None
            elif event.kind == "end_rack":
                endings.append(event)
            else:
                kind = {
                    "pass": Line.Kind.WITHDRAWN if event.tag == Line.Kind.WITHDRAWN else Line.Kind.PASS,
                    "exchange": Line.Kind.EXCHANGE,
                    "challenge": Line.Kind.CHALLENGE,
                }.get(event.kind, Line.Kind.PENALTY)
                rack = _rack(event, edition, rules, [], refused_racks) if kind in Line.TURN_KINDS else ""
                lines.append(Line(game=game, player=player, kind=kind, points=event.score, rack=rack))
        Line.objects.bulk_create(lines)
        notes = _finish(game, players, endings, edition) if endings else []
    notes = [*refused_racks, *notes]
    return game, [*notes, str(services.INVITED)] if invited else notes


def _refuse_a_nick_twice(record):
    """Each `#player` line names its own player: two with one nick would make one player of them, under the
    second name, every move his."""
    first_line = {}
    for (nick, _name), number in zip(record.players, record.player_lines, strict=True):
        if nick in first_line:
            raise SheetError(
                _("Ligne %(line)d : le surnom « %(nick)s » est déjà celui du joueur de la ligne %(first)d.")
                % {"line": number, "nick": nick, "first": first_line[nick]}
            )
        first_line[nick] = number


def _refuse_hidden_characters(text: str):
    """A name or a move holding a character that shows nothing or turns the text around is refused with its line,
    as it would lie on the sheet; a note or a pragma, which the sheet does not keep, is left to the parser."""
    for number, line in enumerate(text.splitlines(), start=1):
        if KEPT_LINE.match(line) and (refused := refused_character(line, lines=True)):
            raise SheetError(refused.on_line(number))


def _rack(event, edition, rules, placed: list[str], refused: list[str]) -> str:
    """The rack a turn was played from, as the file gives it; one no draw could give is left out, and said."""
    if not event.rack or event.rack == "-" or event.tag == NO_RACK_TAG:
        return ""
    try:
        return services.read_rack(event.rack, edition=edition, rack_size=rules.rack_size, placed=placed)
    except SheetError as error:
        refused.append(
            _clipped(
                _("Ligne %(line)d : tirage « %(rack)s » non retenu (%(reason)s).")
                % {"line": event.line, "rack": event.rack[:20], "reason": clause(str(error)).rstrip(".")}
            )
        )
        return ""


def _import_play(game, player, event, board, edition, rules, refused_racks) -> Line:
    """A play re-scored on the board, not yet saved; one the engine cannot play keeps the written score and says
    why."""
    kind = Line.Kind.BOARD if event.tag == Line.Kind.BOARD else Line.Kind.PLAY
    try:
        play = board.play(gcg_move(event.position, event.word, board, edition), edition, rules)
    except ScoringError as error:
        fields = {
            "points": event.score,
            "detail": _clipped(
                _("Coup injouable (%(position)s %(word)s) : %(reason)s")
                % {"position": event.position, "word": event.word, "reason": error.translated(_)}
            ),
        }
    else:
        fields = {
            "points": play.score if kind == Line.Kind.PLAY else 0,
            "move": play.move.notation,
            "detail": _clipped(services.play_detail(play)),
        }
    if kind == Line.Kind.PLAY:
        fields["recorded_points"] = event.score
        placed = [BLANK if tile.blank else tile.letter for _index, tile in play.placed] if "move" in fields else []
        fields["rack"] = _rack(event, edition, rules, placed, refused_racks)
    return Line(game=game, player=player, kind=kind, **fields)


def _finish(game, players: dict[str, Player], endings, edition) -> list[str]:
    """The end-of-game lines as the end of the game: `>bob: (EAU) +3` names the finisher and the letters he was
    given, `>ann: EAU (EAU) -3` a player's own letters. A player with no line of his own holds the finisher's
    letters when he is the only one left; otherwise the racks cannot be told apart, and the lines stay as
    adjustments on the sheet."""
    racks: dict[str, str | None] = {}
    given = ""
    for event in endings:
        if event.rack:
            racks[event.nick] = event.word
        elif event.score >= 0:
            racks[event.nick], given = None, event.word
    unknown = [nick for nick in players if nick not in racks]
    if len(unknown) == 1 and given:
        racks[unknown[0]] = given
    elif unknown:
        for event in endings:
            Line.objects.create(
                game=game,
                player=players[event.nick],
                kind=Line.Kind.PENALTY,
                points=event.score,
                detail=_clipped(_("Lettres restantes : %(rack)s") % {"rack": event.word}),
            )
        return [
            _(
                "Les lettres restantes de chaque joueur ne se lisent pas dans le fichier : elles sont inscrites "
                "comme ajustements, et la partie reste ouverte."
            )
        ]
    try:
        services.game_finish(game=game, racks={players[nick].position: rack or "" for nick, rack in racks.items()})
    except SheetError as error:
        raise SheetError(_("Fin de partie du fichier : %(reason)s") % {"reason": clause(str(error))}) from error
    written = {players[event.nick].position: event.score for event in endings}
    computed = {player.position: final.adjustment for player, final in build_sheet(game).results}
    # A player with no line of his own lost nothing in the file (NASPA rules: the finisher alone gains).
    differing = {
        position: written.get(position, 0) for position in computed if computed[position] != written.get(position, 0)
    }
    if not differing:
        return []
    return [
        _("Fin de partie : le fichier donne %(written)+d à %(name)s, les règles de la feuille %(computed)+d.")
        % {"written": score, "name": game.players.get(position=position).display_name, "computed": computed[position]}
        for position, score in differing.items()
    ]


def _clipped(detail: str) -> str:
    """A detail quoting the file, cut to its column: a word of a thousand letters is the file's, not ours."""
    limit = max_length(Line, "detail")
    return detail if len(detail) <= limit else detail[: limit - 1] + "…"


def _members(record, count: int) -> dict[int, object]:
    """The members named for the seats, by username, from our pragmas; an unknown username names nobody."""
    usernames = {
        number - 1: record.pragmas.get(f"{MEMBER_PRAGMA}{number}", "").strip() for number in range(1, count + 1)
    }
    users = get_user_model().objects.filter(username__in=[name for name in usernames.values() if name], is_active=True)
    by_name = {user.get_username(): user for user in users}
    return {position: by_name[name] for position, name in usernames.items() if name in by_name}


def _pragma_int(record, name: str, low: int, high: int) -> int:
    text = record.pragmas.get(name, "")
    return int(text) if text.isascii() and text.isdigit() and low <= int(text) <= high else low


def _pragma_date(record):
    try:
        day = datetime.date.fromisoformat(record.pragmas.get(DATE_PRAGMA, ""))
    except ValueError:
        return None
    # Noon, so that no offset takes the day out of the range; a day out of it is refused (issue 23: 0001-01-01).
    return services.game_date(timezone.make_aware(datetime.datetime.combine(day, datetime.time(12))))
