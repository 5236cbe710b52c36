"""The pizza on an order card: the base, and where its toppings go.

Topping slots depend only on how many toppings there are, never on which, so
two orders with the same count differ in the icons drawn, not their places.
"""
from __future__ import annotations

import math
from typing import Iterable, Iterator

import numpy as np

from companion.engine import Ingredient

from tools.synth.icons import mix
from tools.synth.pen import Pen, rounded_rect_points
from tools.synth.style import DeckStyle

_CHEESE_BLOBS = ((-.45, -.3, .3, .2, 20), (.3, -.5, .28, .18, -30), (.5, .2, .3, .22, 60), (-.1, .05, .38, .26, 5),
                 (-.5, .42, .26, .2, -50), (.15, .55, .3, .18, 15), (-.05, -.62, .2, .14, 80))


def draw_pizza(image: np.ndarray, center: tuple[float, float], radius: float, style: DeckStyle) -> None:
    """Crust, tomato sauce and melted cheese, round or square per the style."""
    pen = Pen(image, center, 2 * radius)
    if style.pizza_shape == "square":
        pen.fill(rounded_rect_points(-1, -1, 1, 1, .18), style.crust, style.ink, style.outline)
        pen.fill(rounded_rect_points(-.88, -.88, .88, .88, .1), style.sauce)
    else:
        pen.disk(0, 0, 1.0, mix(style.crust, style.ink, .25))
        pen.disk(0, 0, .96, style.crust)
        pen.disk(0, 0, .86, style.sauce)
    for x, y, ax, ay, rot in _CHEESE_BLOBS:
        pen.ellipse(x, y, ax, ay, style.cheese, rot)


def _ring(count: int, radius: float, start: float = -90.0) -> list[tuple[float, float]]:
    return [(radius * math.cos(math.radians(start + 360 * k / count)),
             radius * math.sin(math.radians(start + 360 * k / count))) for k in range(count)]


def _slots(count: int, has_centre: bool, crowded: bool) -> list[tuple[float, float]]:
    """Unit-radius slot positions: the centre first if used, then rings."""
    if crowded:
        return _ring(11, .68, -90) + _ring(4, .4, -45)
    centre = [(0.0, 0.0)] if has_centre else []
    around = count - len(centre)
    return centre + _ring(around, .58, -45 if around == 4 else -90)


def pizza_toppings(need: Iterable[tuple[Ingredient, int]], center: tuple[float, float], radius: float,
                   crowded: bool = False) -> Iterator[tuple[Ingredient, tuple[float, float], float, float]]:
    """(ingredient, centre, size, angle) of each topping icon.

    A lone ingredient among a bigger group takes the centre (1 P + 4 X shows
    P in the middle); one-of-each puts all five on a ring.
    """
    items = [(i, n) for i, n in need]
    singles = [i for i, n in items if n == 1]
    has_centre = not crowded and len(singles) == 1 and len(items) > 1
    order = singles + [i for i, n in items if n != 1 for _ in range(n)] if has_centre else \
        [i for i, n in items for _ in range(n)]
    slots = _slots(len(order), has_centre, crowded)
    size = (.56 if crowded else .64) * radius
    for k, (ingredient, (x, y)) in enumerate(zip(order, slots)):
        angle = (k * 47) % 70 - 35
        yield ingredient, (center[0] + x * radius, center[1] + y * radius), size, angle
