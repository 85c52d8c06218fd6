"""What changes a duplicate session: each function checks the FISF rules, then writes in one transaction.

Refusals raise `duplicate.errors.DuplicateError` with a French sentence; nothing is written then. Every write bumps
the session's `version`, which the room's screens poll, except a result on the move being played
(`results._result_written`): those screens show the moves closed only.

One module a concern, imported as itself (`from ..services import rounds`, then `rounds.round_add(...)`); this file
re-exports nothing:

- `sessions`: a session created with its players, finished, reopened, played again;
- `players`: the players seated from a list, corrected one by one, taken out;
- `board`: the board before a move, the letters left, the grid as the room sees it;
- `rounds`: each draw with the top finder's moves, its top placed, revealed or corrected, the last move cancelled;
- `results`: the players' scores and moves, several at once, a bulletin taken back, the arbiter's marks;
- `bulletins`: the arbiter's bulletins at the keyboard, and who is still missing on a move;
- `rankings`: a session's ranking and its input, the room's ranking, the results a reader may see;
- `sheet`: the game sheet and the game document a game file holds;
- `game_files`: a game file sent to the site, read with its editions and the rules chosen;
- `replays`: a finished session replayed alone against its tops;
- `tournaments`, `seasons`: sessions ranked together;
- `export_requests`, `export_jobs`: a results file asked for, and built by a worker;
- `history`: what every change goes through (a finished session refuses it, the change is kept).

The errors are in `duplicate.errors`, the figures in `duplicate.limits`, the pasted lists' parser in
`duplicate.player_lines`.
"""
