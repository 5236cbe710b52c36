"""The 51 distinct card faces, taken from the rules engine rather than typed
again, plus readable file names and the coarse *kind* used in reports.

>>> len(distinct_faces())
51
>>> face_slug(distinct_faces()[0]), face_slug(Order.from_notation("g:P+3?"))
('ingredient-salami', 'order-green-P+3q')
"""
from __future__ import annotations

from companion.engine import INGREDIENTS, MAMMA_MIA, Card, Color, Deck, IngredientCard, Order

KINDS = ("ingredient", "double", "order", "special", "mamma_mia")


def distinct_faces() -> list[Card]:
    """Ingredients, doubles, each colour's 8 orders, then the Mamma Mia! card."""
    deck = Deck.for_players(5)
    faces: list[Card] = [IngredientCard(i) for i in INGREDIENTS]
    faces += [IngredientCard(i, double=True) for i in INGREDIENTS]
    for color in Color:
        faces += list(deck.orders(color))
    faces.append(MAMMA_MIA)
    return faces


def face_kind(card: Card) -> str:
    """One of :data:`KINDS`: what a benchmark reports accuracy by."""
    if isinstance(card, IngredientCard):
        return "double" if card.double else "ingredient"
    if isinstance(card, Order):
        return "special" if card.special else "order"
    return "mamma_mia"


def face_slug(card: Card) -> str:
    """A file-name-safe, human-readable name for a face."""
    if isinstance(card, IngredientCard):
        return ("double-" if card.double else "ingredient-") + card.ingredient.value
    if isinstance(card, Order):
        body = card.pizza.notation.replace("?", "q")
        return f"order-{card.color.value}-{body}"
    return "mamma-mia"
