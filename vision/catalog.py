"""The 51 distinct card faces, taken from the rules engine rather than typed
again, plus readable file names and the coarse *kind* used in reports.

>>> len(distinct_faces())
51
>>> face_slug(distinct_faces()[0]), face_slug(Order.from_notation("g:P+3?"))
('ingredient-salami', 'order-green-P+3q')
"""
from __future__ import annotations

from companion.engine import Card, Edition, IngredientCard, Order

KINDS = ("ingredient", "double", "order", "special", "mamma_mia")


def distinct_faces() -> list[Card]:
    """Ingredients, doubles, each colour's 8 orders, then the Mamma Mia! card."""
    return list(Edition.load().faces())


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
