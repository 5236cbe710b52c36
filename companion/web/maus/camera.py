"""The Maus au Chocolat camera in the table app: a photo of cards laid side
by side, read by :class:`vision.maus.MausReader` with the stand-in deck the
app ships (``companion.assets.MAUS_DECK_DIR``).

The reader is built once per process (it learns its templates from the
deck's faces) and shared: reading is pure, so threads may share it.
"""
from __future__ import annotations

import threading
from typing import Any

_LOCK = threading.Lock()
_READER: Any = None


def reader() -> Any:
    """The app's reader, made on first use."""
    global _READER
    with _LOCK:
        if _READER is None:
            from vision.maus import MausReader

            _READER = MausReader.standin()
        return _READER


def reading_json(reading: Any) -> dict[str, Any]:
    """The cards read, left to right: each with whether its colour and value
    are sure, and the coins read (a bid needs them sure too)."""
    cards = [{"card": f"{laid.card.ingredient.letter}{laid.card.value}", "ingredient": laid.card.ingredient.value,
              "value": laid.card.value, "coins": laid.card.coins, "sure": laid.sure,
              "coins_sure": laid.coins.sure, "confidence": round(float(laid.confidence), 3)}
             for laid in reading.cards]
    return {"cards": cards, "sure": reading.sure, "notation": reading.notation}
