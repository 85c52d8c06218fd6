"""What changes a game: each function checks the rules, then writes in one transaction.

Refusals raise `SheetError` with a French sentence; nothing is written then.
"""

import datetime
from contextlib import contextmanager

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clubsite.invitations import seats_invite
from clubsite.limits import max_length
from scoring.engine.draw import read_rack as engine_read_rack
from scoring.engine.editions import BLANK
from scoring.engine.endgame import check_racks, rack_letters, rack_value
from scoring.engine.errors import ScoringError, clause
from scoring.engine.moves import replay
from scoring.models import Edition, RuleSet

from .models import Game, Line, Player
from .sheet import build_sheet

# Bounds of what a member types on a sheet, shared with the page of the sheet kept in the browser.
PENALTY_MAX_POINTS = 1000
CHALLENGE_MAX_WORDS = 8
PENALTY_RANGE = gettext_lazy("Une pénalité retire de 1 à %(max)d points.")
FIRST_YEAR = 2000  # no game kept began before (the site did not exist)
CLOCK_AHEAD = datetime.timedelta(days=1)


# The lines a sheet may hold, however it comes (the browser's sheet, a GCG file): a long four-player game has
# about 120.
MAX_LINES = 400
# Said alike whether or not an address typed has an account.
INVITED = gettext_lazy(
    "Les membres indiqués sont invités à figurer dans la partie : chacun l'accepte ou la refuse sur sa page, et "
    "d'ici là sa place ne porte que le nom saisi."
)


class SheetError(ValueError):
    pass


class StaleSheet(SheetError):
    """A form that describes the sheet as it was before another write: sent twice (a double click), or from a tab
    left open while the sheet changed elsewhere. Taking it would write the same line twice, or give it to the
    player whose turn it no longer is."""

    status = 409

    def __init__(self):
        super().__init__(
            _(
                "Ce formulaire a déjà été envoyé, ou la feuille a changé depuis son affichage : rien n'a été "
                "inscrit de plus, la feuille ci-dessous est à jour."
            )
        )


@contextmanager
def _writing(game: Game, after: int | None):
    """One write on the sheet, holding the game's row so that writers take turns: the turn and the checks are read
    once the lock is held. `after` is the last line the form saw (`Sheet.last_line_pk`): if the sheet has another
    one now, nothing is written (StaleSheet). Writes with no form behind them (imports) pass None."""
    with transaction.atomic():
        Game.objects.select_for_update().filter(pk=game.pk).values_list("pk").first()
        if after is not None and after != (game.lines.order_by("-pk").values_list("pk", flat=True).first() or 0):
            raise StaleSheet
        yield


def check_player_count(count: int, message=None) -> None:
    """Refuse a game of `count` players that no rule set admits (RuleSet.min_players, max_players), in `message`
    (with %(min)d and %(max)d) or the sheet's own sentence."""
    low, high = RuleSet.objects.player_bounds()
    if not low <= count <= high:
        sentence = message or _("Une partie classique se joue de %(min)d à %(max)d joueurs.")
        raise SheetError(sentence % {"min": low, "max": high})


def fallback_note(rule_set: RuleSet) -> str:
    """What the sheet says of a game of more players than `rule_set` admits: the rule set it takes instead."""
    return ngettext(
        "Au-delà de %(max)d joueur, la feuille quitte « %(rules)s » pour « %(fallback)s ».",
        "Au-delà de %(max)d joueurs, la feuille quitte « %(rules)s » pour « %(fallback)s ».",
        rule_set.max_players,
    ) % {"max": rule_set.max_players, "rules": rule_set.name, "fallback": rule_set.fallback.name}


def fallback_notes() -> list[str]:
    """`fallback_note` of every rule set that has a fallback, for the new game's page."""
    return [
        fallback_note(rule_set)
        for rule_set in RuleSet.objects.filter(fallback__isnull=False).select_related("fallback")
    ]


def game_create(*, owner, players: list[tuple[str, object]], edition: Edition, rule_set: RuleSet, timer_seconds=0):
    """A new game for `players` [(name, member or None)], each member invited to his seat. Returns (game,
    switched): tournament rules hold for two players only, so with more the game takes the rule set's fallback
    (the box rules) and says so; a count neither admits is refused with their bounds."""
    rules = rule_set.build()
    check_player_count(len(players))
    switched = not rules.allows_players(len(players)) and rule_set.fallback is not None
    if switched:
        rule_set = rule_set.fallback
    if not rule_set.build().allows_players(len(players)):
        raise SheetError(
            _("Les règles « %(rules)s » se jouent de %(min)d à %(max)d joueurs.")
            % {"rules": rule_set.name, "min": rule_set.min_players, "max": rule_set.max_players}
        )
    with transaction.atomic():
        game = Game.objects.create(owner=owner, edition=edition, rule_set=rule_set, timer_seconds=timer_seconds)
        _seat_players(
            game,
            owner,
            [
                (position, name.strip()[: max_length(Player, "name")], member)
                for position, (name, member) in enumerate(players)
            ],
        )
    return game, switched


def game_again(*, game: Game, owner) -> Game:
    """ "Nouvelle partie avec les mêmes joueurs": the same seats, names, edition, rules and timer; the members
    linked to the game are invited to the new one (each game is his to accept)."""
    with transaction.atomic():
        copy = Game.objects.create(
            owner=owner, edition=game.edition, rule_set=game.rule_set, timer_seconds=game.timer_seconds
        )
        seats = [
            (player.position, player.name or (player.member.get_username() if player.member else ""), player.member)
            for player in game.players.select_related("member")
        ]
        _seat_players(copy, owner, seats)
    return copy


def _seat_players(game: Game, owner, seats: list[tuple[int, str, object]]):
    """The game's players [(position, name, member or None)], linked to nobody: each member named is invited to
    his seat (clubsite.invitations), and linked once he accepts; the owner placing himself is linked at once."""
    players = Player.objects.bulk_create(Player(game=game, position=position, name=name) for position, name, _ in seats)
    seats_invite(
        inviter=owner,
        invites=[(player, member) for player, (_, _, member) in zip(players, seats, strict=True) if member],
    )


def play_detail(play) -> str:
    """A line's calculation for a move scored on the board: each word's, then the bonus for the whole rack (paid
    when the tiles placed are the rule set's rack, so their count is its size)."""
    detail = " · ".join(f"{word.word} : {word.calculation}" for word in play.words)
    if play.bonus:
        count = play.tiles_placed
        bonus = ngettext(
            "Prime pour %(count)d jeton posé : +%(bonus)d", "Prime pour %(count)d jetons posés : +%(bonus)d", count
        )
        detail += " · " + bonus % {"count": count, "bonus": play.bonus}
    return detail


def line_record(
    *,
    game: Game,
    kind: str,
    points: int = 0,
    player: Player | None = None,
    move="",
    detail="",
    tiles=(),
    after: int | None = None,
):
    """A turn for the player whose turn it is (or `player`): points, a pass, an exchange, a withdrawn word.
    `move` is a play laid on the game's board; `tiles` the new tiles of a play counted in typed mode (`?` for a
    blank), which leave the tile tracking although they are on no board. `after`: see `_writing`."""
    with _writing(game, after):
        return _line_record(game, kind, points, player, move, detail, tiles)


def _line_record(game, kind, points, player, move, detail, tiles):
    _refuse_if_finished(game)
    # The sheet (a replay of every line) only when the turn or the bag is needed: an import names each player.
    sheet = build_sheet(game) if player is None or kind == Line.Kind.EXCHANGE else None
    line = _turn_line(
        game,
        game.engine_rules(),
        kind=kind,
        points=points,
        player=player or sheet.turn,
        bag=sheet.bag if sheet else None,
        move=move,
        detail=detail,
        tiles=tiles,
    )
    line.save()
    return line


def _turn_line(game, rules, *, kind, points, player, bag, move="", detail="", tiles=()) -> Line:
    """A turn's line as the rules take it, not yet saved: a play's points within the rules, an exchange only with
    enough tiles in the `bag` (None: unknown, not checked), no points for the other turns."""
    if kind == Line.Kind.PLAY and not 0 <= points <= rules.max_move_points:
        raise SheetError(_("Un coup vaut de 0 à %(max)d points.") % {"max": rules.max_move_points})
    if kind == Line.Kind.EXCHANGE and bag is not None and not rules.exchange_allowed(bag):
        raise SheetError(
            _("Changer est refusé : il reste %(bag)d jetons dans le sac, il en faut au moins %(min)d.")
            % {"bag": bag, "min": rules.exchange_min_bag}
        )
    if kind != Line.Kind.PLAY:
        points, move, detail, tiles = 0, "", "", ()
    return Line(game=game, player=player, kind=kind, points=points, move=move, detail=detail, tiles=list(tiles))


def board_place(*, game: Game, move: str, after: int | None = None):
    """ "Poser sur la grille sans marquer": the move goes on the game's board, with no points and no turn."""
    with _writing(game, after):
        _refuse_if_finished(game)
        player = build_sheet(game).turn
        return Line.objects.create(game=game, player=player, kind=Line.Kind.BOARD, move=move)


def challenge_record(*, game: Game, challenger: Player, words: int = 1, after: int | None = None):
    """A challenge of a valid word costs the challenger the rules' penalty per word, without using a turn."""
    with _writing(game, after):
        _refuse_if_finished(game)
        line = _challenge_line(game, game.engine_rules(), challenger, words)
        line.save()
        return line


def _challenge_line(game, rules, challenger: Player, words: int) -> Line:
    if not rules.challenge_penalty:
        raise SheetError(_("Ces règles ne prévoient pas de pénalité de contestation."))
    if not 1 <= words <= CHALLENGE_MAX_WORDS:
        raise SheetError(_("De 1 à %(max)d mots contestés.") % {"max": CHALLENGE_MAX_WORDS})
    return Line(game=game, player=challenger, kind=Line.Kind.CHALLENGE, points=-rules.challenge_penalty * words)


def penalty_record(*, game: Game, player: Player, points: int, after: int | None = None):
    with _writing(game, after):
        _refuse_if_finished(game)
        line = _penalty_line(game, player, points)
        line.save()
        return line


def _penalty_line(game, player: Player, points: int) -> Line:
    if not 1 <= points <= PENALTY_MAX_POINTS:
        raise SheetError(PENALTY_RANGE % {"max": PENALTY_MAX_POINTS})
    return Line(game=game, player=player, kind=Line.Kind.PENALTY, points=-points)


def line_update_points(*, line: Line, points: int):
    _refuse_if_finished(line.game)
    if not line.is_editable:
        raise SheetError(_("Les points de cette ligne découlent des règles : supprimez-la plutôt."))
    rules = line.game.engine_rules()
    if line.kind == Line.Kind.PLAY and not 0 <= points <= rules.max_move_points:
        raise SheetError(_("Un coup vaut de 0 à %(max)d points.") % {"max": rules.max_move_points})
    if line.kind == Line.Kind.PENALTY and not -PENALTY_MAX_POINTS <= points <= -1:
        raise SheetError(PENALTY_RANGE % {"max": PENALTY_MAX_POINTS})
    line.points = points
    line.save(update_fields=["points"])


def line_delete(*, line: Line):
    line.delete()


def line_undo_last(*, game: Game, after: int | None = None):
    """ "Annuler la dernière ligne": sent twice, it takes back one line, not two."""
    with _writing(game, after):
        last = game.lines.order_by("-pk").first()
        if last is None:
            raise SheetError(_("La feuille n'a encore aucune ligne."))
        last.delete()
    return last


def read_rack(text: str, *, edition, rack_size: int, placed: list[str] = ()) -> str:
    """A rack as a member or a GCG file writes it, in our spelling, read by the engine (`draw.read_rack`), or a
    SheetError saying why no draw could give it; first, a text longer than the column that keeps it."""
    if len("".join(text.split())) > max_length(Line, "rack"):
        raise SheetError(_("Un chevalet porte au plus %(size)d jetons.") % {"size": rack_size})
    try:
        return "".join(engine_read_rack(text, edition, rack_size=rack_size, placed=placed))
    except ScoringError as error:
        raise SheetError(error.translated(_)) from error


def line_set_rack(*, line: Line, rack: str):
    """The rack a turn was played from, typed on the review (empty: forgotten), checked against the tiles the
    move placed. It changes no score: a finished game takes it too."""
    if not line.takes_rack:
        raise SheetError(_("Un tirage se saisit pour un coup joué, un passe ou un échange."))
    game = line.game
    text = rack.strip()
    if text:
        text = read_rack(
            text, edition=game.engine_edition(), rack_size=game.engine_rules().rack_size, placed=_tiles_placed(line)
        )
    line.rack = text
    line.save(update_fields=["rack"])


def _tiles_placed(line: Line) -> list[str]:
    """The tiles `line`'s move took from the rack (`?` for a blank), replayed on the board as it stood then."""
    if not line.move:
        return []
    game = line.game
    moves = game.lines.filter(pk__lte=line.pk).exclude(move="").order_by("pk").values_list("move", flat=True)
    replayed = replay(list(moves), game.engine_edition(), game.engine_rules())
    if not replayed.laid or replayed.laid[-1] != line.move or len(replayed.laid) != len(moves):
        return []  # the move no longer fits the board: nothing to check the rack against
    return [BLANK if tile.blank else tile.letter for _index, tile in replayed.plays[-1].placed]


def game_finish(*, game: Game, racks: dict[int, str]):
    """ "Terminer la partie": each player's remaining letters, as letters (`?` for a blank) or a value; the
    box of the player who finished stays empty, and only one may."""
    _refuse_if_finished(game)
    edition = game.engine_edition()
    players = list(game.players.all())
    values = {}
    for player in players:
        text = racks.get(player.position, "").strip()
        if not text:
            values[player.position] = None
            continue
        try:
            values[player.position] = rack_value(text, edition)
        except ScoringError as error:
            raise SheetError(
                _("%(player)s : %(reason)s") % {"player": player.display_name, "reason": clause(error.translated(_))}
            ) from error
    if sum(value is None for value in values.values()) > 1:
        raise SheetError(_("Un seul joueur peut avoir terminé : laissez vide une seule case."))
    letters = {player.display_name: rack_letters(racks.get(player.position, ""), edition) for player in players}
    try:
        check_racks(letters, build_sheet(game).tracking.remaining)
    except ScoringError as error:
        raise SheetError(error.translated(_)) from error
    with transaction.atomic():
        for player in players:
            player.rack_left = racks.get(player.position, "").strip()[:30]
            player.rack_value = values[player.position]
            player.save(update_fields=["rack_left", "rack_value"])
        game.finished_at = timezone.now()
        game.save(update_fields=["finished_at", "updated_at"])


def game_reopen(*, game: Game):
    """Undo "Terminer la partie" to correct the sheet."""
    with transaction.atomic():
        game.players.update(rack_left="", rack_value=None)
        game.finished_at = None
        game.save(update_fields=["finished_at", "updated_at"])


def game_import_local(*, owner, local) -> Game:
    """ "Enregistrer dans mon compte": a game kept in the browser (a `sheets.schemas.LocalGameIn`, already checked
    by `sheets.local.check_local_game`) becomes one of the member's games. Each line is checked by the rules a
    member's own sheet applies, as if typed here; a refused line refuses the whole game, nothing written. The lines
    are written together once all are checked: a game of 400 lines costs a few queries, not a replay a line."""
    with transaction.atomic():
        game, _switched = game_create(
            owner=owner,
            players=[(name, None) for name in local.players],
            edition=Edition.objects.get(code=local.edition),
            rule_set=RuleSet.objects.get(code=local.rules),
        )
        if local.started:
            Game.objects.filter(pk=game.pk).update(created_at=local.started)
        players = list(game.players.all())
        rules = game.engine_rules()
        # The browser's lines place no tile: the bag is the empty sheet's until a play, whose tiles are unknown,
        # leaves it unknown (as build_sheet says of a sheet with a play typed as points only).
        bag = build_sheet(game).bag
        lines = []
        for number, local_line in enumerate(local.lines, start=1):
            try:
                line = _local_line(game, rules, players[local_line.player], local_line, bag)
            except SheetError as error:
                raise SheetError(
                    _("Ligne %(number)d : %(reason)s") % {"number": number, "reason": clause(str(error))}
                ) from error
            if line.points != local_line.points:
                raise SheetError(
                    _("Ligne %(number)d : %(points)d points sur la feuille, %(rule)d selon les règles.")
                    % {"number": number, "points": local_line.points, "rule": line.points}
                )
            lines.append(line)
            if line.kind == Line.Kind.PLAY:
                bag = None
        Line.objects.bulk_create(lines)
        if local.racks is not None:
            game_finish(game=game, racks=dict(enumerate(local.racks)))
    return game


def _local_line(game: Game, rules, player: Player, local_line, bag: int | None) -> Line:
    if local_line.kind == Line.Kind.PENALTY:
        return _penalty_line(game, player, -local_line.points)
    if local_line.kind == Line.Kind.CHALLENGE:
        return _challenge_line(game, rules, player, local_line.words)
    return _turn_line(game, rules, kind=local_line.kind, points=local_line.points, player=player, bag=bag)


def _refuse_if_finished(game: Game):
    if game.is_finished:
        raise SheetError(_("La partie est terminée : rouvrez-la pour la corriger."))


def game_date(started: datetime.datetime | None) -> datetime.datetime | None:
    """When a game began (in the browser, or as a GCG file says), kept as the saved game's date: from New Year's Day
    of FIRST_YEAR to now (a time without an offset is UTC's). A browser's clock may run ahead of the server's, by
    less than CLOCK_AHEAD: its game is then dated now."""
    if started is None:
        return None
    if timezone.is_naive(started):
        started = timezone.make_aware(started, datetime.UTC)
    now = timezone.now()
    # Compared before anything converts it: year 1 at +01:00 is before year 1 in UTC, which Python cannot hold.
    if not datetime.datetime(FIRST_YEAR, 1, 1, tzinfo=datetime.UTC) <= started <= now + CLOCK_AHEAD:
        raise SheetError(
            _("Date de la partie impossible : du 1er janvier %(year)d à aujourd'hui.") % {"year": FIRST_YEAR}
        )
    return min(started, now)
