"""What changes a duplicate session: each function checks the FISF rules, then writes in one transaction.

Refusals raise `DuplicateError` with a French sentence; nothing is written then. Every write bumps the
session's `version`, which the room's screens poll, except a result on the move being played
(`results._result_written`): those screens show the moves closed only. One module a concern: `sessions`, `players`,
`board`, `rounds`, `results`, `bulletins`, `rankings`, `sheet`, `replays`, `tournaments`, `seasons`,
`export_requests`, `export_jobs`, `history`; the pasted lists' parser is `duplicate.player_lines`, the figures
`duplicate.limits`.

TEMPORARY facade: the package re-exports the names that the views, the counter and the API still read as
`services.X` (and the errors they catch there), so that they keep working while they are being split. Callers move
to the submodules in the next step (`from duplicate.services import rounds`, `rounds.round_add(...)`), and then this
file holds only this docstring. Nothing new should import from here; the submodules never do.
"""

from ..errors import Conflict, DuplicateError, LinesRefused, SessionClosed
from ..limits import MAX_PENALTY, MAX_PLAYERS
from ..player_lines import PlayerLine, parse_player_lines
from .board import Position, position, room_board
from .bulletins import Bulletins, bulletin_enter, bulletin_player, bulletins
from .export_jobs import export_mark_stuck, export_purge, export_run
from .export_requests import ExportUnavailable, export_inline, export_request
from .players import player_remove, player_update, players_add
from .rankings import (
    NamedRow,
    RankingInput,
    RoomRanking,
    closed_move,
    ranking,
    ranking_input,
    ranking_inputs,
    results_readable,
    room_ranking,
)
from .replays import ReplayStanding, automatic_entry_check, replay_is_over, replay_standing, session_replay
from .results import Entry, check_notation, entry_enter, move_score, result_clear, result_mark, result_set, results_set
from .rounds import round_add, round_cancel, round_reveal_top, round_set_top, rounds_drawn, scripted_round, timer_start
from .seasons import SeasonRanking, season_ranking
from .sessions import session_again, session_create, session_finish, session_reopen
from .sheet import GameSheet, SheetColumn, game_document, game_sheet
from .tournaments import TournamentPlayer, TournamentRanking, tournament_create, tournament_ranking

__all__ = [
    "Conflict",
    "DuplicateError",
    "LinesRefused",
    "SessionClosed",
    "MAX_PENALTY",
    "MAX_PLAYERS",
    "PlayerLine",
    "parse_player_lines",
    "session_create",
    "session_finish",
    "session_reopen",
    "session_again",
    "players_add",
    "player_update",
    "player_remove",
    "Position",
    "position",
    "room_board",
    "round_add",
    "scripted_round",
    "round_cancel",
    "round_reveal_top",
    "round_set_top",
    "timer_start",
    "rounds_drawn",
    "Entry",
    "result_set",
    "results_set",
    "result_clear",
    "check_notation",
    "entry_enter",
    "move_score",
    "result_mark",
    "Bulletins",
    "bulletins",
    "bulletin_enter",
    "bulletin_player",
    "NamedRow",
    "RankingInput",
    "ranking_input",
    "ranking_inputs",
    "ranking",
    "closed_move",
    "RoomRanking",
    "room_ranking",
    "results_readable",
    "game_document",
    "SheetColumn",
    "GameSheet",
    "game_sheet",
    "session_replay",
    "automatic_entry_check",
    "replay_is_over",
    "ReplayStanding",
    "replay_standing",
    "tournament_create",
    "TournamentPlayer",
    "TournamentRanking",
    "tournament_ranking",
    "SeasonRanking",
    "season_ranking",
    "export_inline",
    "ExportUnavailable",
    "export_request",
    "export_mark_stuck",
    "export_purge",
    "export_run",
]
