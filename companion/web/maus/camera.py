"""The Maus au Chocolat camera in the table app: a photo of cards laid side
by side, read by :class:`vision.maus.MausReader` with the deck the Maus
camera uses (the stand-in the app ships until a table makes its own deck
active on the Your cards page: :mod:`companion.web.maus_decks`).
"""
from __future__ import annotations

from typing import Any

from ..maus_decks import maus_reader as reader

__all__ = ["reader", "reading_json"]


def reading_json(reading: Any) -> dict[str, Any]:
    """The cards read, left to right: each with whether its colour and value
    are sure, and the coins read (a bid needs them sure too)."""
    cards = [{"card": f"{laid.card.ingredient.letter}{laid.card.value}", "ingredient": laid.card.ingredient.value,
              "value": laid.card.value, "coins": laid.card.coins, "sure": laid.sure,
              "coins_sure": laid.coins.sure, "confidence": round(float(laid.confidence), 3)}
             for laid in reading.cards]
    return {"cards": cards, "sure": reading.sure, "notation": reading.notation}
