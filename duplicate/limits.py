"""The figures a duplicate session holds to: how many players, which tables, the largest penalty, and the lengths
of a player's columns (read from the model, as `clubsite.limits` does), for the services, the forms, the API and
the parser of pasted lists alike."""

from clubsite.limits import max_length

from .models import Player

MAX_PLAYERS = 2000
MAX_TABLE = 9999
MAX_PENALTY = 100  # points, on one move

PLAYER_NAME = max_length(Player, "name")
LICENCE = max_length(Player, "licence")
PLAYER_CLUB = max_length(Player, "club_name")
SERIES = max_length(Player, "series")
