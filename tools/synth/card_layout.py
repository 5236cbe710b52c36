"""Where the regions of a card face lie, as pixel boxes proportional to the
style's size, so every kind of face and every order art agrees on them."""
from __future__ import annotations

from dataclasses import dataclass

from tools.synth.style import DeckStyle

Box = tuple[int, int, int, int]  # x0, y0, x1, y1


@dataclass(frozen=True)
class CardLayout:
    """Pixel boxes of a card's regions, proportional to the style's size."""

    width: int
    height: int
    header_at_bottom: bool = False

    def _box(self, x0: float, y0: float, x1: float, y1: float) -> Box:
        return (round(x0 * self.width), round(y0 * self.height), round(x1 * self.width), round(y1 * self.height))

    @property
    def margin(self) -> int:
        return round(0.035 * self.width)

    @property
    def header(self) -> Box:
        return self._box(0.1, 0.86, 0.9, 0.955) if self.header_at_bottom else self._box(0.1, 0.045, 0.9, 0.14)

    @property
    def pizza_panel(self) -> Box:
        """Everything that tells one order of a colour from another lies here."""
        return self._box(0.075, 0.165, 0.925, 0.835)

    @property
    def footer(self) -> Box:
        return self._box(0.1, 0.045, 0.9, 0.14) if self.header_at_bottom else self._box(0.1, 0.855, 0.9, 0.955)

    @property
    def name_y(self) -> float:
        """Where an ingredient card prints its name."""
        return (0.2 if self.header_at_bottom else 0.82) * self.height

    @property
    def pizza_center(self) -> tuple[float, float]:
        x0, y0, x1, _ = self.pizza_panel
        return (x0 + x1) / 2, y0 + (x1 - x0) / 2 + 0.01 * self.height

    @property
    def pizza_radius(self) -> float:
        x0, _, x1, _ = self.pizza_panel
        return 0.45 * (x1 - x0)

    @property
    def label(self) -> Box:
        return self._box(0.16, 0.755, 0.84, 0.82)


def layout_for(style: DeckStyle) -> CardLayout:
    return CardLayout(style.width, style.height, style.header_at_bottom)
