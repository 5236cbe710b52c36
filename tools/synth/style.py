"""How a stand-in deck looks, as data.

Every colour, font, shape family and layout proportion the renderer uses comes
from a :class:`DeckStyle`, so another, deliberately different deck (to show a
recogniser is not tuned to one artwork) is a new value, not new code.
Colours are BGR, as OpenCV draws them.

Three styles: ``default`` (the stand-in deck), ``alt`` (other shapes, colours,
fonts and layout) and ``hard``, which is hard to tell apart in the ways real
decks can be: the five colours' orders differ only in a thin frame, recipes
that share all but one topping differ in one small icon, every colour is a
pale tint, and the lettering is another face.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

import cv2

from companion.engine import Color, Ingredient

from vision.cvcompat import Color3


@dataclass(frozen=True)
class IngredientLook:
    """The palette of one ingredient: its icon colours and its card's tint."""

    main: Color3
    dark: Color3
    light: Color3
    tint: Color3


@dataclass(frozen=True)
class DeckStyle:
    """All the choices behind one deck's art; frozen so it can key caches."""

    name: str
    width: int = 400
    height: int = 624
    paper: Color3 = (222, 238, 246)
    ink: Color3 = (40, 34, 30)
    corner_radius: int = 22
    font: int = cv2.FONT_HERSHEY_DUPLEX
    title_font: int = cv2.FONT_HERSHEY_DUPLEX
    lettering: str = "hershey"  # how text is drawn: a name in tools.synth.lettering.LETTERINGS
    icon_family: str = "soft"  # "soft": shaded whole ingredients; "outlined": flat slices with ink outlines
    outline: float = 0.0  # icon outline width in unit coordinates (0: none)
    pizza_shape: str = "round"  # "round" or "square"
    crust: Color3 = (96, 170, 222)
    sauce: Color3 = (48, 62, 196)
    cheese: Color3 = (150, 222, 246)
    order_art: str = "filled"  # how orders are drawn: a name in tools.synth.order_art.ORDER_ARTS
    frame_width: float = 0.03  # the "framed" order art's coloured frame, share of the card's width
    header_text: str = "PIZZERIA"
    header_at_bottom: bool = False  # order title below the pizza, ingredient name above the icon
    double_mark: str = "x2"
    joker_mark: str = "J"
    minimale_mark: str = "?"
    colors: Mapping[Color, Color3] = field(default_factory=dict)
    ingredients: Mapping[Ingredient, IngredientLook] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "colors", MappingProxyType(dict(self.colors)))
        object.__setattr__(self, "ingredients", MappingProxyType(dict(self.ingredients)))

    def __hash__(self) -> int:
        return hash(self.name)

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return self.width, self.height


DEFAULT_STYLE = DeckStyle(
    name="default",
    colors={
        Color.RED: (46, 52, 168),
        Color.YELLOW: (40, 196, 236),
        Color.BROWN: (40, 82, 128),
        Color.GREEN: (70, 150, 52),
        Color.PURPLE: (130, 56, 118),
    },
    ingredients={
        Ingredient.SALAMI: IngredientLook(main=(52, 48, 182), dark=(36, 30, 120), light=(170, 160, 236), tint=(200, 206, 244)),
        Ingredient.PINEAPPLE: IngredientLook(main=(40, 196, 244), dark=(20, 130, 200), light=(60, 168, 60), tint=(180, 236, 250)),
        Ingredient.MUSHROOM: IngredientLook(main=(96, 128, 168), dark=(50, 72, 104), light=(196, 222, 236), tint=(196, 214, 226)),
        Ingredient.PEPPER: IngredientLook(main=(40, 150, 44), dark=(22, 92, 26), light=(130, 214, 140), tint=(194, 232, 200)),
        Ingredient.OLIVE: IngredientLook(main=(52, 38, 46), dark=(20, 16, 20), light=(150, 140, 150), tint=(222, 206, 214)),
    },
)

ALT_STYLE = DeckStyle(
    name="alt",
    paper=(250, 250, 250),
    ink=(20, 20, 20),
    corner_radius=34,
    font=cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
    title_font=cv2.FONT_HERSHEY_SCRIPT_COMPLEX,
    icon_family="outlined",
    outline=0.06,
    pizza_shape="square",
    crust=(70, 140, 200),
    sauce=(30, 40, 220),
    cheese=(180, 240, 255),
    header_text="TRATTORIA",
    header_at_bottom=True,
    double_mark="2x",
    minimale_mark="min",
    colors={
        Color.RED: (30, 30, 230),
        Color.YELLOW: (0, 220, 250),
        Color.BROWN: (20, 70, 110),
        Color.GREEN: (60, 200, 20),
        Color.PURPLE: (200, 40, 160),
    },
    ingredients={
        Ingredient.SALAMI: IngredientLook(main=(60, 80, 220), dark=(30, 30, 140), light=(235, 235, 255), tint=(230, 225, 255)),
        Ingredient.PINEAPPLE: IngredientLook(main=(90, 230, 255), dark=(0, 170, 230), light=(200, 250, 255), tint=(215, 250, 255)),
        Ingredient.MUSHROOM: IngredientLook(main=(200, 215, 230), dark=(110, 130, 150), light=(240, 245, 250), tint=(220, 225, 200)),
        Ingredient.PEPPER: IngredientLook(main=(50, 200, 110), dark=(20, 120, 50), light=(200, 255, 220), tint=(220, 255, 230)),
        Ingredient.OLIVE: IngredientLook(main=(60, 170, 140), dark=(30, 100, 80), light=(60, 60, 230), tint=(240, 240, 220)),
    },
)

# pale: every colour is a light tint of low saturation, so the frames, icons and
# paper sit close together in brightness; the hues stay apart for a human eye
HARD_STYLE = DeckStyle(
    name="hard",
    paper=(236, 242, 245),
    ink=(84, 78, 74),
    corner_radius=18,
    lettering="chamfered",
    icon_family="outlined",
    outline=0.05,
    crust=(168, 204, 228),
    sauce=(168, 174, 226),
    cheese=(214, 238, 248),
    order_art="framed",
    frame_width=0.03,
    header_text="OSTERIA",
    double_mark="x2",
    colors={
        Color.RED: (168, 168, 234),
        Color.YELLOW: (156, 222, 238),
        Color.BROWN: (132, 158, 188),
        Color.GREEN: (172, 218, 166),
        Color.PURPLE: (226, 172, 200),
    },
    ingredients={
        Ingredient.SALAMI: IngredientLook(main=(152, 152, 222), dark=(118, 118, 182), light=(214, 214, 244), tint=(228, 230, 248)),
        Ingredient.PINEAPPLE: IngredientLook(main=(150, 222, 240), dark=(112, 186, 214), light=(214, 240, 250), tint=(222, 244, 248)),
        Ingredient.MUSHROOM: IngredientLook(main=(200, 210, 224), dark=(150, 164, 184), light=(234, 239, 244), tint=(226, 230, 234)),
        Ingredient.PEPPER: IngredientLook(main=(162, 214, 164), dark=(122, 174, 126), light=(214, 240, 216), tint=(226, 242, 228)),
        Ingredient.OLIVE: IngredientLook(main=(186, 160, 176), dark=(142, 118, 132), light=(170, 170, 230), tint=(236, 228, 234)),
    },
)

STYLES: Mapping[str, DeckStyle] = MappingProxyType({s.name: s for s in (DEFAULT_STYLE, ALT_STYLE, HARD_STYLE)})


def style_named(name: str) -> DeckStyle:
    try:
        return STYLES[name]
    except KeyError:
        raise ValueError(f"unknown deck style {name!r} (one of {', '.join(STYLES)})") from None
