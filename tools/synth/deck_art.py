"""Card faces drawn from scratch: ingredient, double, order and Mamma Mia!.

The layout is shared by all cards of a kind, so the orders of one colour
differ only inside :attr:`CardLayout.pizza_panel` (the hard case for
recognition), and everything else a recogniser could latch on to (the frame,
the header, the footer) is identical within a colour.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from companion.engine import INGREDIENTS, Bombastica, Card, Color, IngredientCard, Minimale, Monotoni, Order

from vision.cvcompat import Color3, fit_text_scale, put_text_centered
from tools.synth.icons import draw_ingredient, mix
from tools.synth.pen import Pen, ellipse_points, fill_polygon, rounded_rect_points, stroke
from tools.synth.pizza_art import draw_pizza, pizza_toppings
from tools.synth.style import DEFAULT_STYLE, DeckStyle

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
        _order_face(image, card, style)
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
    scale = fit_text_scale("MAMMA MIA!", style.title_font, 0.5 * style.width, 0.06 * style.height, 2)
    put_text_centered(image, "MAMMA MIA!", (cx, cy), style.title_font, scale, base, 2)
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
        _badge(image, style.double_mark, (0.8 * w, 0.1 * h), 0.1 * w, style, look.dark)
    else:
        draw_ingredient(image, card.ingredient, (0.5 * w, 0.47 * h + dy), 0.66 * w, style, look.tint)
    draw_ingredient(image, card.ingredient, (0.14 * w, 0.1 * h), 0.15 * w, style, look.tint)
    draw_ingredient(image, card.ingredient, (0.86 * w, 0.9 * h), 0.15 * w, style, look.tint, 180)
    name = card.ingredient.value.upper()
    scale = fit_text_scale(name, style.title_font, 0.56 * w, 0.045 * h, 2)
    put_text_centered(image, name, (0.5 * w, layout_for(style).name_y), style.title_font, scale, style.ink, 2)


def _badge(image: np.ndarray, text: str, center: tuple[float, float], radius: float, style: DeckStyle,
           ring: Color3) -> None:
    pen = Pen(image, center, 2 * radius)
    pen.disk(0, 0, 1.0, ring)
    pen.disk(0, 0, 0.84, style.paper)
    scale = fit_text_scale(text, style.title_font, 1.3 * radius, 0.8 * radius, 2)
    put_text_centered(image, text, center, style.title_font, scale, style.ink, 2)


# order cards -----------------------------------------------------------------------

def _order_face(image: np.ndarray, order: Order, style: DeckStyle) -> None:
    _order_frame(image, style.colors[order.color], style)
    layout = layout_for(style)
    draw_pizza(image, layout.pizza_center, layout.pizza_radius, style)
    pizza = order.pizza
    if isinstance(pizza, (Bombastica, Monotoni, Minimale)):
        _special_pizza(image, order, style)
    else:
        for ingredient, center, size, angle in pizza_toppings(pizza.need.items(), layout.pizza_center,
                                                             layout.pizza_radius):
            draw_ingredient(image, ingredient, center, size, style, style.cheese, angle)


def _order_frame(image: np.ndarray, color: Color3, style: DeckStyle) -> None:
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
        _badge(image, f"{pizza.minimum}+", (cx, cy), 0.3 * r, style, style.sauce)
        name = "BOMBASTICA"
    else:
        draw_ingredient(image, pizza.fixed, (cx, cy), 0.46 * r, style, style.cheese)
        mark = style.joker_mark if isinstance(pizza, Monotoni) else style.minimale_mark
        ring = 0.6 * r
        for k in range(pizza.count):
            a = 2 * np.pi * k / pizza.count - np.pi / 2
            _badge(image, mark, (cx + ring * np.cos(a), cy + ring * np.sin(a)), 0.2 * r, style, style.ink)
        name = "MONOTONI" if isinstance(pizza, Monotoni) else "MINIMALE"
    _label(image, name, layout, style)


def _label(image: np.ndarray, text: str, layout: CardLayout, style: DeckStyle) -> None:
    x0, y0, x1, y1 = layout.label
    box = rounded_rect_points(x0, y0, x1, y1, (y1 - y0) / 2)
    fill_polygon(image, box, style.paper)
    stroke(image, box, style.ink, 2, closed=True)
    scale = fit_text_scale(text, style.title_font, 0.8 * (x1 - x0), 0.55 * (y1 - y0), 2)
    put_text_centered(image, text, ((x0 + x1) / 2, (y0 + y1) / 2), style.title_font, scale, style.ink, 2)


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
        scale = fit_text_scale(text, style.title_font, 0.62 * w, size * h, 3)
        put_text_centered(image, text, (w / 2, y * h), style.title_font, scale, style.ink, 3)
