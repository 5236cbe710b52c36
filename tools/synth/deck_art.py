"""Card faces drawn from scratch: ingredient, double, order and Mamma Mia!
(orders are drawn by :mod:`tools.synth.order_art`).

The layout is shared by all cards of a kind, so the orders of one colour
differ only inside :attr:`~tools.synth.card_layout.CardLayout.pizza_panel`
(the hard case for recognition), and everything else a recogniser could
latch on to (the frame, the header, the footer) is identical within a colour.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from companion.engine import Card, Color, IngredientCard, Order

from tools.synth.card_layout import layout_for
from tools.synth.icons import draw_ingredient, mix
from tools.synth.lettering import write
from tools.synth.order_art import badge, draw_order
from tools.synth.pen import Pen, ellipse_points, fill_polygon, rounded_rect_points, stroke
from tools.synth.style import DEFAULT_STYLE, DeckStyle


@lru_cache(maxsize=16)
def _face_mask_cached(width: int, height: int) -> np.ndarray:
    mask = np.zeros((height, width), np.uint8)
    radius = 22 * width / 400
    fill_polygon(mask, rounded_rect_points(0, 0, width - 1, height - 1, radius), (255, 255, 255))
    result = mask.astype(np.float32) / 255.0
    result.setflags(write=False)
    return result


def face_mask(image: np.ndarray) -> np.ndarray:
    """A rounded-corner mask for any face image (e.g. one loaded from disk)."""
    return _face_mask_cached(image.shape[1], image.shape[0])


def render_face(card: Card, style: DeckStyle = DEFAULT_STYLE) -> np.ndarray:
    """The face of ``card`` as a BGR image of ``style.size``; deterministic."""
    return _render_cached(card, style).copy()


@lru_cache(maxsize=256)
def _render_cached(card: Card, style: DeckStyle) -> np.ndarray:
    image = np.full((style.height, style.width, 3), style.paper, np.uint8)
    if isinstance(card, IngredientCard):
        _ingredient_face(image, card, style)
    elif isinstance(card, Order):
        draw_order(image, card, style)
    else:
        _mamma_mia_face(image, style)
    image.setflags(write=False)
    return image


def render_back(style: DeckStyle = DEFAULT_STYLE, color: Color | None = None) -> np.ndarray:
    """A card back: the supply's (neutral) or an order colour's."""
    layout = layout_for(style)
    base = style.colors[color] if color else mix(style.sauce, style.ink, 0.35)
    image = np.full((style.height, style.width, 3), style.paper, np.uint8)
    m = layout.margin
    fill_polygon(image, rounded_rect_points(m, m, style.width - m, style.height - m, style.corner_radius), base)
    light = mix(base, style.paper, 0.3)
    step = style.width // 8
    for k in range(-style.height // step, style.width // step + style.height // step):
        x = k * step
        stroke(image, np.array([[x, m], [x + style.height, style.height - m]], float), light, 3)
        stroke(image, np.array([[x, style.height - m], [x + style.height, m]], float), light, 3)
    stroke(image, rounded_rect_points(m, m, style.width - m, style.height - m, style.corner_radius), style.paper, 8, True)
    cx, cy = style.width / 2, style.height / 2
    fill_polygon(image, ellipse_points(cx, cy, 0.3 * style.width, 0.16 * style.width), style.paper)
    write(image, "MAMMA MIA!", (cx, cy), (0.5 * style.width, 0.06 * style.height), style, base, 2)
    return image


# ingredient cards ------------------------------------------------------------------

def _ingredient_face(image: np.ndarray, card: IngredientCard, style: DeckStyle) -> None:
    w, h = style.width, style.height
    look = style.ingredients[card.ingredient]
    m = layout_for(style).margin
    panel = rounded_rect_points(m, m, w - m, h - m, style.corner_radius * 0.7)
    fill_polygon(image, panel, look.tint)
    stroke(image, panel, look.dark, max(3, w // 100), closed=True)
    dy = 0.07 * h if style.header_at_bottom else 0.0
    if card.double:
        draw_ingredient(image, card.ingredient, (0.4 * w, 0.36 * h + dy), 0.5 * w, style, look.tint, -12)
        draw_ingredient(image, card.ingredient, (0.6 * w, 0.58 * h + dy), 0.5 * w, style, look.tint, 12)
        badge(image, style.double_mark, (0.8 * w, 0.1 * h), 0.1 * w, style, look.dark)
    else:
        draw_ingredient(image, card.ingredient, (0.5 * w, 0.47 * h + dy), 0.66 * w, style, look.tint)
    draw_ingredient(image, card.ingredient, (0.14 * w, 0.1 * h), 0.15 * w, style, look.tint)
    draw_ingredient(image, card.ingredient, (0.86 * w, 0.9 * h), 0.15 * w, style, look.tint, 180)
    name = card.ingredient.value.upper()
    write(image, name, (0.5 * w, layout_for(style).name_y), (0.56 * w, 0.045 * h), style, style.ink, 2)


# the Mamma Mia! card ----------------------------------------------------------------

def _mamma_mia_face(image: np.ndarray, style: DeckStyle) -> None:
    w, h = style.width, style.height
    m = layout_for(style).margin
    green, red = style.colors[Color.GREEN], style.colors[Color.RED]
    thirds = [(m, green), (w / 3, style.paper), (2 * w / 3, red)]
    for k, (x, color) in enumerate(thirds):
        x1 = w - m if k == 2 else (k + 1) * w / 3
        fill_polygon(image, np.array([[x, m], [x1, m], [x1, h - m], [x, h - m]], float), color)
    outline = rounded_rect_points(m, m, w - m, h - m, style.corner_radius * 0.7)
    stroke(image, outline, style.ink, max(3, w // 100), closed=True)
    pen = Pen(image, (w / 2, 0.5 * h), 0.8 * w)
    pen.ellipse(0, 0, 1.0, 1.15, style.paper, 0, style.ink, 0.02)
    for side in (-1, 1):
        pen.fill(np.array([[0, .05], [side * .25, -.05], [side * .55, .02], [side * .75, -.12],
                           [side * .7, .1], [side * .45, .2], [side * .15, .16]]), style.ink)
    for text, y, size in (("MAMMA", 0.34, 0.09), ("MIA!", 0.7, 0.11)):
        write(image, text, (w / 2, y * h), (0.62 * w, size * h), style, style.ink, 3)
