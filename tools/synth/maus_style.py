"""How a stand-in Maus au Chocolat deck looks, as data.

Like :mod:`tools.synth.style` for Mamma Mia!, every colour, shape and
proportion the Maus renderer uses comes from a :class:`MausStyle`, so a second,
deliberately different deck (to judge the camera on art it was not tuned on)
is a new value, not new code. Lettering reuses the Mamma Mia! styles'
(``letters``: a :class:`~tools.synth.style.DeckStyle` whose font and
lettering :func:`tools.synth.lettering.write` draws with). Colours are BGR.

Two styles: ``default`` (the stand-in deck the product ships) and ``alt``
(other hues, a condensed chamfered numeral in the ingredient's colour on its
tint, square coins in a row, other icons).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

import cv2

from companion.maus.engine import Ingredient

from vision.cvcompat import Color3
from tools.synth.style import HARD_STYLE, DeckStyle


@dataclass(frozen=True)
class MausStyle:
    """All the choices behind one Maus deck's art; frozen so it can key caches."""

    name: str
    letters: DeckStyle  # the font and lettering the numerals are written in
    width: int = 250
    height: int = 390
    paper: Color3 = (226, 240, 248)
    ink: Color3 = (36, 30, 40)
    corner_radius: int = 14
    value_plate: str = "disc"  # "disc": ink numeral on a paper disc; "bare": numeral in the colour on the tint
    value_height: float = 0.24  # the numeral's height, share of the card's height
    coin: Color3 = (40, 170, 220)  # gold
    coin_shape: str = "disc"  # "disc" (a column down each upper corner) or "square" (a row along the top)
    icon_family: str = "fruit"  # "fruit" or "geometric"
    colours: Mapping[Ingredient, Color3] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "colours", MappingProxyType(dict(self.colours)))

    def __hash__(self) -> int:
        return hash(self.name)

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height


DEFAULT_MAUS_STYLE = MausStyle(
    name="default",
    letters=DeckStyle(name="maus-default", font=cv2.FONT_HERSHEY_DUPLEX, title_font=cv2.FONT_HERSHEY_DUPLEX),
    colours={
        Ingredient.RED: (52, 46, 196),
        Ingredient.YELLOW: (36, 196, 240),
        Ingredient.GREEN: (64, 156, 58),
        Ingredient.BLUE: (186, 112, 36),
        Ingredient.PURPLE: (146, 52, 126),
    },
)

ALT_MAUS_STYLE = MausStyle(
    name="alt",
    letters=HARD_STYLE,  # its chamfered lettering: numerals of another shape
    paper=(248, 248, 244),
    ink=(24, 24, 24),
    corner_radius=22,
    value_plate="bare",
    value_height=0.3,
    coin=(20, 140, 190),
    coin_shape="square",
    icon_family="geometric",
    colours={
        Ingredient.RED: (70, 40, 226),
        Ingredient.YELLOW: (20, 214, 250),
        Ingredient.GREEN: (120, 190, 30),
        Ingredient.BLUE: (226, 150, 60),
        Ingredient.PURPLE: (196, 70, 176),
    },
)

MAUS_STYLES: Mapping[str, MausStyle] = MappingProxyType({s.name: s for s in (DEFAULT_MAUS_STYLE, ALT_MAUS_STYLE)})


def maus_style_named(name: str) -> MausStyle:
    try:
        return MAUS_STYLES[name]
    except KeyError:
        raise ValueError(f"unknown Maus deck style {name!r} (one of {', '.join(MAUS_STYLES)})") from None
