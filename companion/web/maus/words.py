"""The Maus au Chocolat engine's refusals in the request's language.

The engine writes its reasons in English with the cards named; the pages
say the same reason in the player's language, the kind of refusal deciding
the words. A payload the API cannot read keeps the engine's own message,
which names the field at fault (as for Mamma Mia!).
"""
from __future__ import annotations

from ...maus.engine import (
    BadPayload, ColoursNotAllowed, IllegalBids, IllegalCard, IllegalHelperUse, IllegalSetup, NoCardLeft, NotRunOrSet,
    OutOfTurn, WrongCardCount, WrongPhase,
)
from ..i18n import gettext

# most specific first: the first class a refusal is an instance of names its words
REFUSAL_KEYS: tuple[tuple[type[Exception], str], ...] = (
    (BadPayload, ""),
    (WrongCardCount, "maus.why_count"),
    (NoCardLeft, "maus.why_hand"),
    (NotRunOrSet, "maus.why_shape"),
    (ColoursNotAllowed, "maus.why_colours"),
    (IllegalHelperUse, "maus.why_helper"),
    (IllegalCard, "maus.why_card"),
    (IllegalBids, "maus.why_bids"),
    (OutOfTurn, "maus.why_turn"),
    (WrongPhase, "maus.why_phase"),
    (IllegalSetup, "maus.why_setup"),
)


def refusal_key(refused: Exception) -> str | None:
    """The catalog key of a refusal's words (None: the engine's own message)."""
    for kind, key in REFUSAL_KEYS:
        if isinstance(refused, kind):
            return key or None
    return None


def refusal_text(refused: Exception) -> str:
    key = refusal_key(refused)
    if key is None:
        return str(refused)
    if key == "maus.why_setup":  # what is wrong with a set-up is said by the engine, after the words
        return gettext(key, detail=str(refused))
    return gettext(key)
