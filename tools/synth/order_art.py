"""Order card faces. A style names how its orders are drawn
(:attr:`~tools.synth.style.DeckStyle.order_art`), and :data:`ORDER_ARTS`
holds one drawing function per name:

``filled``: the order's colour fills the card around a pizza that shows
every topping.

``framed``: a paper card whose colour is only a thin frame along its edge;
the pizza is the same plain one on every order, and the recipe is a strip of
small topping icons with their counts, so two recipes that share all but one
ingredient differ in one small icon.

Whatever the art, the orders of one colour differ only inside
:attr:`~tools.synth.card_layout.CardLayout.pizza_panel`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from companion.engine import INGREDIENTS, Bombastica, Ingredient, Minimale, Monotoni, Order

from vision.cvcompat import Color3
from tools.synth.card_layout import CardLayout, layout_for
from tools.synth.icons import draw_ingredient, mix
from tools.synth.lettering import write
from tools.synth.pen import Pen, fill_polygon, rounded_rect_points, stroke
from tools.synth.pizza_art import draw_pizza, pizza_toppings
from tools.synth.style import DeckStyle

OrderArt = Callable[[np.ndarray, Order, DeckStyle], None]


def draw_order(image: np.ndarray, order: Order, style: DeckStyle) -> None:
    """Draw ``order``'s face onto a paper-coloured ``image`` the way ``style`` draws orders."""
    ORDER_ARTS[style.order_art](image, order, style)


def badge(image: np.ndarray, text: str, center: tuple[float, float], radius: float, style: DeckStyle,
          ring: Color3) -> None:
    """A paper disc with a coloured ring and a short text."""
    pen = Pen(image, center, 2 * radius)
    pen.disk(0, 0, 1.0, ring)
    pen.disk(0, 0, 0.84, style.paper)
    write(image, text, center, (1.3 * radius, 0.8 * radius), style, style.ink, 2)


def label(image: np.ndarray, text: str, layout: CardLayout, style: DeckStyle) -> None:
    """A special order's name on a rounded paper strip."""
    x0, y0, x1, y1 = layout.label
    box = rounded_rect_points(x0, y0, x1, y1, (y1 - y0) / 2)
    fill_polygon(image, box, style.paper)
    stroke(image, box, style.ink, 2, closed=True)
    write(image, text, ((x0 + x1) / 2, (y0 + y1) / 2), (0.8 * (x1 - x0), 0.55 * (y1 - y0)), style, style.ink, 2)


def special_name(order: Order) -> str | None:
    pizza = order.pizza
    if isinstance(pizza, Bombastica):
        return "BOMBASTICA"
    if isinstance(pizza, Monotoni):
        return "MONOTONI"
    if isinstance(pizza, Minimale):
        return "MINIMALE"
    return None


# filled: the colour fills the card ------------------------------------------------

def filled_order(image: np.ndarray, order: Order, style: DeckStyle) -> None:
    _filled_frame(image, style.colors[order.color], style)
    layout = layout_for(style)
    draw_pizza(image, layout.pizza_center, layout.pizza_radius, style)
    if special_name(order):
        _special_pizza(image, order, style)
    else:
        for ingredient, center, size, angle in pizza_toppings(order.pizza.need.items(), layout.pizza_center,
                                                             layout.pizza_radius):
            draw_ingredient(image, ingredient, center, size, style, style.cheese, angle)


def _filled_frame(image: np.ndarray, color: Color3, style: DeckStyle) -> None:
    """Identical for all orders of a colour: frame, header, footer, panel."""
    w, h = style.width, style.height
    layout = layout_for(style)
    m = layout.margin
    fill_polygon(image, rounded_rect_points(m, m, w - m, h - m, style.corner_radius * 0.7), color)
    x0, y0, x1, y1 = layout.pizza_panel
    panel = rounded_rect_points(x0, y0, x1, y1, 0.04 * w)
    fill_polygon(image, panel, mix(style.paper, color, 0.12))
    stroke(image, panel, mix(color, style.ink, 0.5), max(2, w // 130), closed=True)
    text_color = style.paper if sum(color) < 450 else style.ink
    hx0, hy0, hx1, hy1 = layout.header
    write(image, style.header_text, ((hx0 + hx1) / 2, (hy0 + hy1) / 2), (0.7 * (hx1 - hx0), 0.6 * (hy1 - hy0)),
          style, text_color, 2)
    fx0, fy0, fx1, fy1 = layout.footer
    for k in range(5):
        cx = fx0 + (k + 0.5) * (fx1 - fx0) / 5
        Pen(image, (cx, (fy0 + fy1) / 2), 0.35 * (fy1 - fy0)).disk(0, 0, 1, text_color)


def _special_pizza(image: np.ndarray, order: Order, style: DeckStyle) -> None:
    layout = layout_for(style)
    (cx, cy), r = layout.pizza_center, layout.pizza_radius
    pizza = order.pizza
    if isinstance(pizza, Bombastica):
        mixed = [(INGREDIENTS[k % 5], 1) for k in range(pizza.minimum)]
        for ingredient, center, size, angle in pizza_toppings(mixed, (cx, cy), r, crowded=True):
            draw_ingredient(image, ingredient, center, size, style, style.cheese, angle)
        badge(image, f"{pizza.minimum}+", (cx, cy), 0.3 * r, style, style.sauce)
    else:
        draw_ingredient(image, pizza.fixed, (cx, cy), 0.46 * r, style, style.cheese)
        mark = style.joker_mark if isinstance(pizza, Monotoni) else style.minimale_mark
        ring = 0.6 * r
        for k in range(pizza.count):
            a = 2 * np.pi * k / pizza.count - np.pi / 2
            badge(image, mark, (cx + ring * np.cos(a), cy + ring * np.sin(a)), 0.2 * r, style, style.ink)
    label(image, special_name(order) or "", layout, style)


# framed: paper card, the colour only in a thin frame -----------------------------------

FRAME_INSET = 0.015  # paper left outside the coloured frame, share of the width
PIZZA_Y, PIZZA_RADIUS = 0.36, 0.26  # the plain pizza: centre (share of the height), radius (of the width)
STRIP = (0.12, 0.545, 0.88, 0.675)  # the recipe strip: x0, y0, x1, y1 as shares of width and height
ICON = 0.1  # a topping icon on the strip, share of the width (smaller when five share it)


@dataclass(frozen=True)
class RecipeEntry:
    """One item of the recipe strip: a count beside an ingredient's icon, or
    beside a badge with ``mark`` (a joker, a free choice)."""

    count: str
    ingredient: Ingredient | None = None
    mark: str = ""


def recipe_entries(order: Order, style: DeckStyle) -> list[RecipeEntry]:
    """What the strip shows, left to right.

    >>> from companion.engine import Order
    >>> from tools.synth.style import HARD_STYLE
    >>> [(e.count, e.ingredient and e.ingredient.value) for e in recipe_entries(Order.from_notation("r:S+4A"), HARD_STYLE)]
    [('1', 'salami'), ('4', 'pineapple')]
    """
    pizza = order.pizza
    if isinstance(pizza, Bombastica):
        return [RecipeEntry(f"{pizza.minimum}+", mark=style.joker_mark)]
    if isinstance(pizza, (Monotoni, Minimale)):
        mark = style.joker_mark if isinstance(pizza, Monotoni) else style.minimale_mark
        return [RecipeEntry("1", pizza.fixed), RecipeEntry(str(pizza.count), mark=mark)]
    return [RecipeEntry(str(count), ingredient) for ingredient, count in pizza.need.items()]


def framed_order(image: np.ndarray, order: Order, style: DeckStyle) -> None:
    _thin_frame(image, style.colors[order.color], style)
    _plain_order(image, style)
    _recipe_strip(image, recipe_entries(order, style), style)
    name = special_name(order)
    if name:
        label(image, name, layout_for(style), style)


def _thin_frame(image: np.ndarray, color: Color3, style: DeckStyle) -> None:
    """The only part of a framed order drawn in its colour: a band with a
    darker line on its inner side, as printed frames often have."""
    w, h = style.width, style.height
    outer, inner = FRAME_INSET * w, (FRAME_INSET + style.frame_width) * w
    radius = style.corner_radius
    fill_polygon(image, rounded_rect_points(outer, outer, w - outer, h - outer, 0.8 * radius), color)
    border = rounded_rect_points(inner, inner, w - inner, h - inner, 0.6 * radius)
    fill_polygon(image, border, style.paper)
    stroke(image, border, mix(color, style.ink, 0.35), max(2, w // 200), closed=True)


def _plain_order(image: np.ndarray, style: DeckStyle) -> None:
    """Header, panel, pizza, strip and footer: the same on every framed order."""
    w, h = style.width, style.height
    layout = layout_for(style)
    grey = mix(style.paper, style.ink, 0.45)
    hx0, hy0, hx1, hy1 = layout.header
    write(image, style.header_text, ((hx0 + hx1) / 2, (hy0 + hy1) / 2), (0.7 * (hx1 - hx0), 0.6 * (hy1 - hy0)),
          style, style.ink, 2)
    x0, y0, x1, y1 = layout.pizza_panel
    panel = rounded_rect_points(x0, y0, x1, y1, 0.04 * w)
    fill_polygon(image, panel, mix(style.paper, style.ink, 0.05))
    stroke(image, panel, grey, 2, closed=True)
    draw_pizza(image, (0.5 * w, PIZZA_Y * h), PIZZA_RADIUS * w, style)
    sx0, sy0, sx1, sy1 = STRIP
    strip = rounded_rect_points(sx0 * w, sy0 * h, sx1 * w, sy1 * h, 0.03 * w)
    fill_polygon(image, strip, style.paper)
    stroke(image, strip, grey, 2, closed=True)
    fx0, fy0, fx1, fy1 = layout.footer
    for k in range(5):
        cx = fx0 + (k + 0.5) * (fx1 - fx0) / 5
        Pen(image, (cx, (fy0 + fy1) / 2), 0.25 * (fy1 - fy0)).disk(0, 0, 1, grey)


def _recipe_strip(image: np.ndarray, entries: list[RecipeEntry], style: DeckStyle) -> None:
    """Each entry centred in its share of the strip: where an entry sits
    depends only on how many there are, never on what they are."""
    w, h = style.width, style.height
    x0, y0, x1, y1 = STRIP[0] * w, STRIP[1] * h, STRIP[2] * w, STRIP[3] * h
    slot = (x1 - x0) / len(entries)
    icon = min(ICON * w, 0.5 * slot)
    cy = (y0 + y1) / 2
    for k, entry in enumerate(entries):
        cx = x0 + (k + 0.5) * slot
        width = 0.5 * icon * len(entry.count)
        write(image, entry.count, (cx - 0.1 * icon - width / 2, cy), (width, 0.6 * icon), style, style.ink, 2,
              title=False)
        at = (cx + 0.4 * icon, cy)
        if entry.ingredient is not None:
            draw_ingredient(image, entry.ingredient, at, icon, style, style.paper)
        else:
            badge(image, entry.mark, at, 0.45 * icon, style, style.ink)


ORDER_ARTS: dict[str, OrderArt] = {"filled": filled_order, "framed": framed_order}
