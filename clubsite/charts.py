"""The box of a chart drawn on the server as an inline SVG, whichever app draws it (a duplicate player's recap and
progress, a classic game's review): its size and margins in the SVG's own units, the plot inside the margins."""

from dataclasses import dataclass


@dataclass(frozen=True)
class ChartBox:
    """A chart's size and margins, in the SVG's own units: the plot sits inside the margins, the values of the
    y axis written just left of it."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int

    @property
    def plot_end(self) -> int:
        return self.width - self.right

    @property
    def plot_width(self) -> int:
        return self.plot_end - self.left

    @property
    def plot_height(self) -> int:
        return self.height - self.top - self.bottom

    @property
    def y_label_x(self) -> int:
        return self.left - 6
