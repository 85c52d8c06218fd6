"""The duplicate app's models, one module a concern: `sessions` (a session and its players), `rounds` (its moves and
the results on them), `simultanes`, `tournaments`, `seasons`, `export_jobs`, `changes` (a session's history).

This package's one job is to keep `duplicate.models` what it was as a module: Django finds the app's models here,
and the app and its tests import them as `duplicate.models.X`, with the two figures read from here
(`ZERO_REASON`, `SEASON_BEST_OF_MAX`); the migrations name the keys' defaults and the on_delete rules by their
place here (`duplicate.models._new_key`, `duplicate.models.keep_played_sessions`). Nothing else goes in this file.
"""

from .changes import Change, unlink_keeping_the_username
from .export_jobs import ExportJob
from .rounds import ZERO_REASON, Result, Round
from .seasons import SEASON_BEST_OF_MAX, Season, SeasonCounting, SeasonRankedBy
from .sessions import Player, Session, _new_key, _new_seed, keep_played_sessions, keep_shared_sessions
from .simultanes import Simultane
from .tournaments import Tournament, keep_club_tournaments

__all__ = [
    "SEASON_BEST_OF_MAX",
    "ZERO_REASON",
    "Change",
    "ExportJob",
    "Player",
    "Result",
    "Round",
    "Season",
    "SeasonCounting",
    "SeasonRankedBy",
    "Session",
    "Simultane",
    "Tournament",
    "_new_key",
    "_new_seed",
    "keep_club_tournaments",
    "keep_played_sessions",
    "keep_shared_sessions",
    "unlink_keeping_the_username",
]
