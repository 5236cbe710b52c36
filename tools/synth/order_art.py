"""Order card faces. A style names how its orders are drawn
(:attr:`~tools.synth.style.DeckStyle.order_art`), and :data:`ORDER_ARTS`
holds one drawing function per name:

``filled``: the order's colour fills the card around a pizza that shows
every topping.

Whatever the art, the orders of one colour differ only inside
:attr:`~tools.synth.card_layout.CardLayout.pizza_panel`.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from companion.engine import INGREDIENTS, Bombastica, Minimale, Monotoni, Order

from vision.cvcompat import Color3, fit_text_scale, put_text_centered
from tools.synth.card_layout import CardLayout, layout_for
from tools.synth.icons import draw_ingredient, mix
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
    scale = fit_text_scale(text, style.title_font, 1.3 * radius, 0.8 * radius, 2)
    put_text_centered(image, text, center, style.title_font, scale, style.ink, 2)


def label(image: np.ndarray, text: str, layout: CardLayout, style: DeckStyle) -> None:
    """A special order's name on a rounded paper strip."""
    x0, y0, x1, y1 = layout.label
    box = rounded_rect_points(x0, y0, x1, y1, (y1 - y0) / 2)
    fill_polygon(image, box, style.paper)
    stroke(image, box, style.ink, 2, closed=True)
    scale = fit_text_scale(text, style.title_font, 0.8 * (x1 - x0), 0.55 * (y1 - y0), 2)
    put_text_centered(image, text, ((x0 + x1) / 2, (y0 + y1) / 2), style.title_font, scale, style.ink, 2)


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
    scale = fit_text_scale(style.header_text, style.title_font, 0.7 * (hx1 - hx0), 0.6 * (hy1 - hy0), 2)
    put_text_centered(image, style.header_text, ((hx0 + hx1) / 2, (hy0 + hy1) / 2), style.title_font, scale,
                      text_color, 2)
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


ORDER_ARTS: dict[str, OrderArt] = {"filled": filled_order}
