"""The five ingredient icons, in two families of shapes.

``soft``: whole, shaded ingredients (salami slice, pineapple fruit, mushroom,
bell pepper, black olive). ``outlined``: flat slices with ink outlines
(sausage chunk, pineapple ring, mushroom section, pepper ring, green olive
with pimento). Each family keeps its own silhouette per ingredient, so shape,
not only colour, tells the ingredients apart.
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from companion.engine import Ingredient

from vision.cvcompat import Color3
from tools.synth.pen import Pen, ellipse_points, rounded_rect_points
from tools.synth.style import DeckStyle, IngredientLook

Drawer = Callable[[Pen, IngredientLook, DeckStyle, Color3], None]

_SALAMI_SPECKS = ((-.35, -.30, .10), (.30, -.42, .08), (.08, .04, .11), (-.42, .30, .09), (.40, .28, .10),
                  (-.05, .52, .08), (.55, -.05, .07), (-.14, -.58, .07), (-.62, -.02, .06), (.20, .62, .05))


def mix(a: Color3, b: Color3, t: float) -> Color3:
    """Linear blend of two colours: ``t`` = 0 gives ``a``."""
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b))  # type: ignore[return-value]


def _polar(radius: Callable[[np.ndarray], np.ndarray], n: int = 72) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    r = radius(t)
    return np.stack([r * np.cos(t), r * np.sin(t)], axis=1)


# soft family -------------------------------------------------------------------------

def _soft_salami(pen: Pen, look: IngredientLook, style: DeckStyle, backdrop: Color3) -> None:
    pen.disk(0, 0, .94, look.dark)
    pen.disk(0, 0, .84, look.main)
    pen.ellipse(-.25, -.3, .42, .28, mix(look.main, look.light, .25), -35)
    for x, y, r in _SALAMI_SPECKS:
        pen.ellipse(x, y, r, r * .8, look.light, 30)


def _soft_pineapple(pen: Pen, look: IngredientLook, style: DeckStyle, backdrop: Color3) -> None:
    for angle in (-42, -21, 0, 21, 42):
        a = math.radians(angle - 90)
        tip = (.05 * math.cos(a) + .62 * math.cos(a), -.38 + .62 * math.sin(a))
        side = (.09 * math.cos(a + math.pi / 2), .09 * math.sin(a + math.pi / 2))
        pen.fill(np.array([[-side[0], -.36 - side[1]], tip, [side[0], -.36 + side[1]]]), look.light)
    pen.ellipse(0, .28, .52, .68, look.main)
    for row in range(-3, 4):
        for col in range(-3, 4):
            x, y = col * .22 + (row % 2) * .11, .28 + row * .2
            if (x / .46) ** 2 + ((y - .28) / .6) ** 2 < 1:
                pen.fill(np.array([[x, y - .07], [x + .07, y], [x, y + .07], [x - .07, y]]), look.dark)


def _soft_mushroom(pen: Pen, look: IngredientLook, style: DeckStyle, backdrop: Color3) -> None:
    pen.fill(rounded_rect_points(-.24, -.1, .24, .86, .14), look.light)
    pen.ellipse(.1, .4, .06, .3, mix(look.light, look.main, .35))
    cap = np.concatenate([ellipse_points(0, .02, .92, .82, 0, 180, 360, 40),
                          ellipse_points(0, .02, .92, .2, 0, 0, 180, 24)])
    pen.fill(cap, look.main)
    pen.ellipse(0, .08, .7, .1, look.dark)
    pen.ellipse(-.38, -.42, .22, .1, mix(look.main, look.light, .5), -28)


def _soft_pepper(pen: Pen, look: IngredientLook, style: DeckStyle, backdrop: Color3) -> None:
    pen.ellipse(-.36, .18, .4, .7, look.main, 8)
    pen.ellipse(.36, .18, .4, .7, look.main, -8)
    pen.ellipse(0, .24, .4, .72, mix(look.main, look.light, .18))
    pen.line(np.array([[-.2, -.2], [-.16, .3], [-.2, .8]]), look.dark, .05)
    pen.line(np.array([[.2, -.2], [.16, .3], [.2, .8]]), look.dark, .05)
    pen.ellipse(0, -.4, .56, .18, look.dark)
    pen.fill(np.array([[-.08, -.48], [.08, -.48], [.14, -.82], [.3, -.94], [.22, -1.0], [.02, -.86], [-.05, -.48]]),
             look.dark)
    pen.ellipse(-.5, .1, .07, .3, look.light, 8)


def _soft_olive(pen: Pen, look: IngredientLook, style: DeckStyle, backdrop: Color3) -> None:
    pen.ellipse(0, 0, .6, .86, look.dark, 28)
    pen.ellipse(0, 0, .54, .8, look.main, 28)
    pen.ellipse(.26, -.52, .14, .11, look.dark, 28)
    pen.ellipse(-.2, -.18, .09, .3, look.light, 28)


# outlined family ---------------------------------------------------------------------

def _flat_salami(pen: Pen, look: IngredientLook, style: DeckStyle, backdrop: Color3) -> None:
    w = style.outline
    pen.fill(rounded_rect_points(-.9, -.5, .5, .5, .42), look.dark, style.ink, w)
    pen.ellipse(.48, 0, .36, .5, look.main, 0, style.ink, w)
    for x, y, r in ((.42, -.22, .07), (.58, .1, .06), (.36, .2, .06), (.6, -.1, .05)):
        pen.disk(x, y, r, look.light)
    pen.line(np.array([[-.6, -.3], [-.3, -.34], [0, -.3]]), look.light, .05)


def _flat_pineapple(pen: Pen, look: IngredientLook, style: DeckStyle, backdrop: Color3) -> None:
    w = style.outline
    pen.disk(0, 0, .92, look.dark, style.ink, w)
    pen.disk(0, 0, .78, look.main)
    for k in range(12):
        a = k * math.pi / 6
        pen.line(np.array([[.36 * math.cos(a), .36 * math.sin(a)], [.72 * math.cos(a), .72 * math.sin(a)]]),
                 look.dark, .035)
    pen.disk(0, 0, .28, backdrop, style.ink, w)


def _flat_mushroom(pen: Pen, look: IngredientLook, style: DeckStyle, backdrop: Color3) -> None:
    w = style.outline
    cap = np.concatenate([ellipse_points(0, 0, .92, .7, 0, 180, 360, 40),
                          np.array([[.92, .12], [-.92, .12]])])
    stem = rounded_rect_points(-.26, -.1, .26, .86, .12)
    pen.fill(cap, look.main, style.ink, w)
    pen.fill(stem, look.main, style.ink, w)
    pen.fill(rounded_rect_points(-.2, -.05, .2, .8, .1), look.main)
    for x in (-.6, -.35, .35, .6):
        pen.line(np.array([[x * .9, .1], [x * .5, -.1]]), look.dark, .03)


def _flat_pepper(pen: Pen, look: IngredientLook, style: DeckStyle, backdrop: Color3) -> None:
    w = style.outline
    outer = _polar(lambda t: .86 + .1 * np.cos(3 * t + .5))
    inner = _polar(lambda t: .56 + .08 * np.cos(3 * t + .5))
    pen.fill(outer, look.main, style.ink, w)
    pen.fill(inner, backdrop, style.ink, w * .7)
    for k in range(3):
        a = k * 2 * math.pi / 3 - .5 / 3 + math.pi / 3
        pen.line(np.array([[.5 * math.cos(a), .5 * math.sin(a)], [.2 * math.cos(a), .2 * math.sin(a)]]),
                 look.light, .07)


def _flat_olive(pen: Pen, look: IngredientLook, style: DeckStyle, backdrop: Color3) -> None:
    w = style.outline
    pen.ellipse(0, .05, .58, .84, look.main, -20, style.ink, w)
    pen.ellipse(-.18, -.58, .24, .16, look.light, -20, style.ink, w * .7)
    pen.ellipse(.2, .2, .08, .26, mix(look.main, (255, 255, 255), .5), -20)


_FAMILIES: dict[str, dict[Ingredient, Drawer]] = {
    "soft": {
        Ingredient.SALAMI: _soft_salami, Ingredient.PINEAPPLE: _soft_pineapple, Ingredient.MUSHROOM: _soft_mushroom,
        Ingredient.PEPPER: _soft_pepper, Ingredient.OLIVE: _soft_olive,
    },
    "outlined": {
        Ingredient.SALAMI: _flat_salami, Ingredient.PINEAPPLE: _flat_pineapple, Ingredient.MUSHROOM: _flat_mushroom,
        Ingredient.PEPPER: _flat_pepper, Ingredient.OLIVE: _flat_olive,
    },
}


def draw_ingredient(image: np.ndarray, ingredient: Ingredient, center: tuple[float, float], size: float,
                    style: DeckStyle, backdrop: Color3, angle: float = 0.0) -> None:
    """Draw one ingredient icon ``size`` pixels across; ``backdrop`` fills holes
    (a pineapple ring's centre) so they look cut through."""
    drawer = _FAMILIES[style.icon_family][ingredient]
    drawer(Pen(image, center, size, angle), style.ingredients[ingredient], style, backdrop)
