"""Rule sets as plain data: every figure a rule of the game depends on, so none is written in a view.

The Django model `scoring.models.RuleSet` stores the same fields (admin-editable) and hands the apps the
`RuleSet` built here. The two built-in sets carry the figures of seeds 000 and 003 and facts §4–5.
"""

from dataclasses import dataclass
from enum import StrEnum


def move_time(move_seconds: int) -> str:
    """A time per move as the forms offer it: "3 min", "2 min 30", "45 s"."""
    minutes, seconds = divmod(move_seconds, 60)
    if not minutes:
        return f"{seconds} s"
    return f"{minutes} min {seconds:02d}" if seconds else f"{minutes} min"


class EndOfGame(StrEnum):
    # FISF classic art. 5.1: the finisher gains the others' remaining values, each other player loses his own.
    FINISHER_GAINS_OTHERS = "finisher_gains_others"
    # NASPA / Woogles: the finisher gains twice the others' remaining values, nobody loses anything.
    FINISHER_GAINS_DOUBLE = "finisher_gains_double"


@dataclass(frozen=True)
class RuleSet:
    code: str
    name: str
    # Classic game
    min_players: int = 2
    max_players: int = 4
    fallback_code: str = ""  # rule set the sheet switches to beyond max_players
    rack_size: int = 7
    bingo_bonus: int = 50
    exchange_min_bag: int = 0  # tiles that must remain in the bag for an exchange; 0: no minimum
    challenge_penalty: int = 0  # per word wrongly challenged; 0: the rules give none
    default_penalty: int = 10  # offered by the "Pénalité" panel when the rules give no figure
    consecutive_pass_limit: int = 0  # passes in a row, all players together; 0: no such limit
    passes_per_player_limit: int = 0  # of those, each player's share
    pass_rounds_limit: int = 0  # every player passed this many times in a row; 0: no such limit
    end_of_game: EndOfGame = EndOfGame.FINISHER_GAINS_OTHERS
    max_move_points: int = 2000
    # Duplicate (FISF règlement du duplicate)
    solo_bonus: int = 10
    solo_min_players: int = 16
    duplicate_penalty: int = 5
    max_penalty: int = 100  # the most an arbiter's penalty may take on one move
    warnings_before_penalty: int = 4
    warnings_before_penalty_blitz: int = 6
    blitz_move_seconds: int = 60  # a session of at most this time per move is played in blitz
    move_seconds: int = 180
    move_seconds_choices: tuple[int, ...] = (60, 120, 150, 180)

    @property
    def penalty_offer(self) -> int:
        """The figure the "Pénalité" panel proposes: the rules' own, or the default where they give none."""
        return self.challenge_penalty or self.default_penalty

    def allows_players(self, count: int) -> bool:
        return self.min_players <= count <= self.max_players

    def exchange_allowed(self, bag_count: int) -> bool:
        return bag_count >= self.exchange_min_bag

    @property
    def first_move_seconds(self) -> int:
        """The time per move a form offers first: the rule set's own, or its longest choice when it does not offer
        its own (static/js/duplicate_sheet.js chooses the same)."""
        choices = self.move_seconds_choices
        return self.move_seconds if self.move_seconds in choices else choices[-1]

    def move_time_choices(self) -> list[tuple[int, str]]:
        """The times per move a form offers, each with its label ("1 min 30")."""
        return [(seconds, move_time(seconds)) for seconds in self.move_seconds_choices]

    def is_blitz(self, move_seconds: int) -> bool:
        return move_seconds <= self.blitz_move_seconds

    def warnings_threshold(self, blitz: bool) -> int:
        """The avertissement from which each one costs the duplicate penalty."""
        return self.warnings_before_penalty_blitz if blitz else self.warnings_before_penalty

    def solo_bonus_for(self, player_count: int) -> int:
        return self.solo_bonus if player_count >= self.solo_min_players else 0

    def pass_limit_reached(self, passes: list[int], player_count: int) -> bool:
        """`passes`: the player index of each pass in the current run of consecutive passes, oldest first."""
        if self.consecutive_pass_limit and len(passes) >= self.consecutive_pass_limit:
            run = passes[-self.consecutive_pass_limit :]
            if not self.passes_per_player_limit:
                return True
            return all(run.count(player) >= self.passes_per_player_limit for player in range(player_count))
        if self.pass_rounds_limit:
            return len(passes) >= self.pass_rounds_limit * player_count
        return False


TOURNAMENT = RuleSet(
    code="tournoi",
    name="Règles de tournoi (FISF)",
    max_players=2,
    fallback_code="boite",
    exchange_min_bag=7,
    challenge_penalty=5,
    consecutive_pass_limit=6,
    passes_per_player_limit=3,
)

BOX = RuleSet(
    code="boite",
    name="Règles de la boîte",
    pass_rounds_limit=2,
)

BUILTIN_RULE_SETS = {rules.code: rules for rules in (TOURNAMENT, BOX)}
DEFAULT_RULES = TOURNAMENT
