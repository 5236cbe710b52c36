"""Maus au Chocolat ingredient faces drawn from scratch, and the deck on disk.

A face shows what the rule sheet says a card shows: the ingredient's colour,
the sweet value large in the centre, and the chocolate coins in the upper
corners (the same count in each, so a corner hidden under a neighbour still
shows them). An icon of the ingredient sits below the value. Faces of one
colour and value differ only in their coins, the hard case for a camera.

A deck folder is the one the camera's teaching reads (``manifest.json`` with
Maus card notation, ``{"cards": [{"image": "g5-3.png", "card": "g5/3"}]}``,
and one PNG per distinct face):

>>> deck = render_maus_deck()
>>> len(deck), deck[0].card
(70, Card.from_notation('r3/3'))
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np

from companion.maus.engine import Card, Deck, Ingredient

from vision.cvcompat import Color3, encode_png, write_bytes
from tools.synth.deck_files import DeckFace
from tools.synth.icons import mix
from tools.synth.lettering import write
from tools.synth.maus_style import DEFAULT_MAUS_STYLE, MausStyle
from tools.synth.pen import Pen, fill_polygon, rounded_rect_points, stroke

MANIFEST = "manifest.json"


def maus_faces(deck: Deck | None = None) -> list[Card]:
    """Every distinct face (ingredient x value x coins) of ``deck`` (default:
    the stand-in), in the deck's order."""
    return list((deck or Deck.load()).faces())


def render_maus_face(card: Card, style: MausStyle = DEFAULT_MAUS_STYLE) -> np.ndarray:
    """The face of ``card`` (with its coins) as a BGR image of ``style.size``; deterministic."""
    return _render_cached(card, style).copy()


def render_maus_back(style: MausStyle = DEFAULT_MAUS_STYLE) -> np.ndarray:
    """A card back: chocolate brown with a paper border."""
    image = np.full((style.height, style.width, 3), style.paper, np.uint8)
    m = _margin(style)
    panel = rounded_rect_points(m, m, style.width - m, style.height - m, style.corner_radius * 0.7)
    fill_polygon(image, panel, (40, 62, 96))
    Pen(image, (style.width / 2, style.height / 2), 0.5 * style.width).disk(0, 0, 1, style.coin, style.ink, 0.05)
    return image


def render_maus_deck(style: MausStyle = DEFAULT_MAUS_STYLE, deck: Deck | None = None) -> list[DeckFace]:
    return [DeckFace(card, render_maus_face(card, style)) for card in maus_faces(deck)]


def face_file(card: Card) -> str:
    """``g5/3`` -> ``g5-3.png``."""
    return card.notation.replace("/", "-") + ".png"


def write_maus_deck(out_dir: str | Path, style: MausStyle = DEFAULT_MAUS_STYLE) -> Path:
    """Each face as PNG and the manifest; returns the manifest's path."""
    out = Path(out_dir)
    items = []
    for face in render_maus_deck(style):
        write_bytes(out / face_file(face.card), encode_png(face.image))
        items.append({"image": face_file(face.card), "card": face.card.notation})
    manifest = out / MANIFEST
    write_bytes(manifest, (json.dumps({"cards": items}, indent=1) + "\n").encode())
    return manifest


# drawing ---------------------------------------------------------------------------

def _margin(style: MausStyle) -> float:
    return 0.04 * style.width


@lru_cache(maxsize=512)
def _render_cached(card: Card, style: MausStyle) -> np.ndarray:
    w, h = style.width, style.height
    image = np.full((h, w, 3), style.paper, np.uint8)
    main = style.colours[card.ingredient]
    tint = mix(main, style.paper, 0.72)
    m = _margin(style)
    panel = rounded_rect_points(m, m, w - m, h - m, style.corner_radius * 0.7)
    fill_polygon(image, panel, tint)
    stroke(image, panel, main, max(3, w // 60), closed=True)
    _value(image, card.value, main, tint, style)
    _ingredient_icon(image, card.ingredient, (0.5 * w, 0.82 * h), 0.3 * w, main, style)
    _coins(image, card.coins or 0, style)
    image.setflags(write=False)
    return image


def _value(image: np.ndarray, value: int, main: Color3, tint: Color3, style: MausStyle) -> None:
    w, h = style.width, style.height
    centre = (0.5 * w, 0.5 * h)
    if style.value_plate == "disc":
        Pen(image, centre, 0.62 * w).disk(0, 0, 1, style.paper, main, 0.05)
        colour = style.ink
    else:
        pen = Pen(image, centre, 0.66 * w, 45)
        pen.fill(np.array([[-.72, -.72], [.72, -.72], [.72, .72], [-.72, .72]]), mix(tint, style.paper, 0.5),
                 main, 0.03)
        colour = mix(main, style.ink, 0.35)
    write(image, str(value), centre, (0.4 * w, style.value_height * h), style.letters, colour, max(2, w // 28))


def _coins(image: np.ndarray, coins: int, style: MausStyle) -> None:
    """``coins`` coins in each upper corner: a column (discs) or a row (squares)."""
    w, h = style.width, style.height
    for side in (0, 1):
        for k in range(coins):
            if style.coin_shape == "disc":
                x, y = (0.13 if side == 0 else 0.87) * w, 0.075 * h + k * 0.058 * h
                Pen(image, (x, y), 0.1 * w).disk(0, 0, 1, style.coin, style.ink, 0.12)
            else:
                x = (0.1 + 0.085 * k) * w if side == 0 else (0.9 - 0.085 * k) * w
                Pen(image, (x, 0.065 * h), 0.08 * w, 45).fill(
                    np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * 0.8, style.coin, style.ink, 0.15)


def _ingredient_icon(image: np.ndarray, ingredient: Ingredient, centre: tuple[float, float], size: float,
                     main: Color3, style: MausStyle) -> None:
    pen = Pen(image, centre, size)
    dark = mix(main, style.ink, 0.5)
    if style.icon_family == "geometric":
        sides = {Ingredient.RED: 3, Ingredient.YELLOW: 4, Ingredient.GREEN: 5, Ingredient.BLUE: 6,
                 Ingredient.PURPLE: 8}[ingredient]
        t = np.linspace(0, 2 * np.pi, sides, endpoint=False) - np.pi / 2
        pen.fill(np.stack([np.cos(t), np.sin(t)], 1) * 0.9, main, dark, 0.08)
        return
    if ingredient is Ingredient.RED:  # a strawberry
        pen.fill(np.array([[0, .95], [-.8, .05], [-.7, -.5], [0, -.65], [.7, -.5], [.8, .05]]), main, dark, 0.06)
        for x, y in ((-.3, -.2), (.3, -.2), (0, .15), (-.3, .45), (.3, .45), (0, -.4)):
            pen.disk(x, y, .06, style.paper)
    elif ingredient is Ingredient.YELLOW:  # a banana
        t = np.linspace(0.15 * np.pi, 0.85 * np.pi, 24)
        outer = np.stack([np.cos(t), np.sin(t) - 0.4], 1) * (1.0, 1.0)
        inner = np.stack([np.cos(t[::-1]) * 0.8, np.sin(t[::-1]) * 0.55 - 0.4], 1)
        pen.fill(np.vstack([outer, inner]), main, dark, 0.06)
    elif ingredient is Ingredient.GREEN:  # a mint leaf
        t = np.linspace(0, np.pi, 24)
        upper = np.stack([np.cos(t), -0.55 * np.sin(t)], 1)
        pen.fill(np.vstack([upper, upper[::-1] * (1, -1)]), main, dark, 0.06)
        pen.line(np.array([[-1, 0], [1, 0]]), dark, 0.06)
    elif ingredient is Ingredient.BLUE:  # blueberries
        for x, y in ((-.45, .25), (.45, .25), (0, -.35)):
            pen.disk(x, y, .45, main, dark, 0.06)
            pen.disk(x, y - .12, .1, dark)
    else:  # a plum
        pen.disk(0, .1, .8, main, dark, 0.06)
        pen.ellipse(.35, -.75, .3, .14, mix(main, (60, 160, 60), 0.7), -30)
        pen.line(np.array([[0, -.7], [.05, -.95]]), dark, 0.08)
