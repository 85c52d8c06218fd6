"""Tile tracking ("Jetons encore à venir", seed 000): the full set minus the tiles on the board."""

from dataclasses import dataclass

from .editions import BLANK, Edition


@dataclass(frozen=True)
class Tracking:
    remaining: dict[str, int]  # letter → tiles not yet on the board (blanks under "?"), never below 0
    overplayed: dict[str, tuple[int, int]]  # letter → (on the board, in the set) where the board holds more

    @property
    def unseen(self) -> int:
        return sum(self.remaining.values())

    def in_bag(self, players: int, rack_size: int = 7) -> int:
        """Tiles left in the bag once every rack is full: rack_size fewer per player."""
        return max(0, self.unseen - rack_size * players)


def track(edition: Edition, tiles) -> Tracking:
    """`tiles`: the Tiles on the board; a blank counts as "?" whatever letter it stands for."""
    counts = edition.counts()
    played: dict[str, int] = {}
    for tile in tiles:
        key = BLANK if tile.blank else tile.letter
        played[key] = played.get(key, 0) + 1
    remaining = {letter: max(0, count - played.get(letter, 0)) for letter, count in counts.items()}
    overplayed = {
        letter: (number, counts.get(letter, 0)) for letter, number in played.items() if number > counts.get(letter, 0)
    }
    return Tracking(remaining, overplayed)
