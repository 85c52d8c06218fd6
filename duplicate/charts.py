"""The frame of the percentage charts drawn on the server (inline SVG, in a `clubsite.charts.ChartBox`): a player's
recap, move by move, and the progress page, session by session. Values run from a round low (at most 100 minus a
step) to at least 100 %, in steps of 10 (20 when they spread over more than 50); points are evenly spaced, one alone
in the middle."""

import math
from dataclasses import asdict, dataclass

from clubsite.charts import ChartBox


@dataclass(frozen=True)
class PercentFrame(ChartBox):
    count: int  # the points along the x axis
    low: int
    high: int
    step: int

    def x(self, i: int) -> float:
        plot_width = self.plot_width
        return round(self.left + (plot_width * i / (self.count - 1) if self.count > 1 else plot_width / 2), 1)

    def y(self, value: float) -> float:
        return round(self.top + self.plot_height * (self.high - max(self.low, value)) / (self.high - self.low), 1)

    @property
    def y_ticks(self) -> list[tuple[float, int]]:
        return [(self.y(value), value) for value in range(self.low, self.high + 1, self.step)]


def percent_frame(values, count: int, box: ChartBox) -> PercentFrame:
    """The frame in `box` that holds `values` (percentages), with `count` points along the x axis."""
    step = 10 if max(values) - min(values) <= 50 else 20
    low = min(step * math.floor(min(values) / step), 100 - step)
    high = max(100, step * math.ceil(max(values) / step))
    return PercentFrame(**asdict(box), count=count, low=low, high=high, step=step)
