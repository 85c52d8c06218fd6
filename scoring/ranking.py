"""Places in a ranking: equal totals share a place, and the next place skips (1, 2, 2, 4)."""


def shared_places(totals: list[int]) -> list[int]:
    """The place of each total, in the order given; the highest total is first."""
    ordered = sorted(totals, reverse=True)
    first_place = {}
    for place, total in enumerate(ordered, start=1):
        first_place.setdefault(total, place)
    return [first_place[total] for total in totals]
