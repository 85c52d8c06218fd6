"""The figures a duplicate session holds to: how many players, which tables, and the lengths of a player's columns
(read from the model, as `clubsite.limits` does), for the services, the forms, the API and the parser of pasted
lists alike. The largest penalty is a rule, the session's rule set's `max_penalty`."""

from clubsite.limits import max_length

from .models import Player

MAX_PLAYERS = 2000
MAX_TABLE = 9999

PLAYER_NAME = max_length(Player, "name")
LICENCE = max_length(Player, "licence")
PLAYER_CLUB = max_length(Player, "club_name")
SERIES = max_length(Player, "series")
