"""What changes a duplicate session: each function checks the FISF rules, then writes in one transaction.

Refusals raise `DuplicateError` with a French sentence; nothing is written then. Every write bumps the
session's `version`, which the room's screens poll, except a result on the move being played
(`results._result_written`): those screens show the moves closed only. One module a concern: `sessions`, `players`,
`board`, `rounds`, `results`, `bulletins`, `rankings`, `sheet`, `replays`, `tournaments`, `seasons`,
`export_requests`, `export_jobs`, `history`; the pasted lists' parser is `duplicate.player_lines`, the figures
`duplicate.limits`.

TEMPORARY facade: the package re-exports the public names of the former `services.py`, and the errors and limits
it made importable from here (`services.DuplicateError`, `MAX_PLAYERS`), for its last two readers, `duplicate/api.py`
and `duplicate/schemas.py`, which other work is changing now; they move to the submodules next, and this file is
emptied then. Everything else imports the submodules (`from ..services import rounds`, then `rounds.round_add(...)`),
the errors from `duplicate.errors` and the figures from `duplicate.limits`. Nothing new imports from here, and the
submodules never do. The function `bulletins` is not re-exported: as the package's attribute it would hide the
`bulletins` submodule from `from ..services import bulletins`.
"""

from ..errors import Conflict, DuplicateError, LinesRefused, SessionClosed
from ..limits import LICENCE, MAX_PLAYERS, MAX_TABLE, PLAYER_CLUB, PLAYER_NAME, SERIES
from ..player_lines import HEADER_COLUMNS, NUMBER_WRITTEN, PlayerLine, licence_valid, parse_player_lines
from .board import Position, position, room_board
from .bulletins import Bulletins, bulletin_enter, bulletin_player
from .export_jobs import export_mark_stuck, export_purge, export_run
from .export_requests import ExportUnavailable, export_inline, export_request
from .players import PERSON_LABELS, player_remove, player_update, players_add
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
from .rounds import (
    DRAW_ATTEMPTS,
    SUGGESTIONS_KEPT,
    round_add,
    round_cancel,
    round_reveal_top,
    round_set_top,
    rounds_drawn,
    scripted_round,
    timer_start,
)
from .seasons import SeasonRanking, season_ranking
from .sessions import session_again, session_create, session_finish, session_reopen
from .sheet import GameSheet, SheetColumn, game_document, game_sheet
from .tournaments import TournamentPlayer, TournamentRanking, tournament_create, tournament_ranking

__all__ = [
    "Bulletins",
    "Conflict",
    "DRAW_ATTEMPTS",
    "DuplicateError",
    "Entry",
    "ExportUnavailable",
    "GameSheet",
    "HEADER_COLUMNS",
    "LICENCE",
    "LinesRefused",
    "MAX_PLAYERS",
    "MAX_TABLE",
    "NUMBER_WRITTEN",
    "NamedRow",
    "PERSON_LABELS",
    "PLAYER_CLUB",
    "PLAYER_NAME",
    "PlayerLine",
    "Position",
    "RankingInput",
    "ReplayStanding",
    "RoomRanking",
    "SERIES",
    "SUGGESTIONS_KEPT",
    "SeasonRanking",
    "SessionClosed",
    "SheetColumn",
    "TournamentPlayer",
    "TournamentRanking",
    "automatic_entry_check",
    "bulletin_enter",
    "bulletin_player",
    "check_notation",
    "closed_move",
    "entry_enter",
    "export_inline",
    "export_mark_stuck",
    "export_purge",
    "export_request",
    "export_run",
    "game_document",
    "game_sheet",
    "licence_valid",
    "move_score",
    "parse_player_lines",
    "player_remove",
    "player_update",
    "players_add",
    "position",
    "ranking",
    "ranking_input",
    "ranking_inputs",
    "replay_is_over",
    "replay_standing",
    "result_clear",
    "result_mark",
    "result_set",
    "results_readable",
    "results_set",
    "room_board",
    "room_ranking",
    "round_add",
    "round_cancel",
    "round_reveal_top",
    "round_set_top",
    "rounds_drawn",
    "scripted_round",
    "season_ranking",
    "session_again",
    "session_create",
    "session_finish",
    "session_reopen",
    "session_replay",
    "timer_start",
    "tournament_create",
    "tournament_ranking",
]
