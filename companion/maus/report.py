"""Plain text for people: the ``maus`` contracts' answers as lines to read."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .engine import Helper
from .engine.jsonform import card_from_json


def format_combination(result: Mapping[str, Any]) -> str:
    """A combination verdict.

    >>> print(format_combination({"legal": False, "reason": "a combination is three cards, not 2"}))
    Not legal: a combination is three cards, not 2.
    """
    if not result["legal"]:
        return f"Not legal: {result['reason']}."
    lines = [f"Legal: {_way(result)}, {_points(result['points'])}.",
             f"Keep {_cards(result['kept'])}; discard {_cards(result['discarded'])}."]
    if result["helper_use"]:
        lines.append(f"Helper: {_use(result['helper_use'])}.")
    others = result["options"][1:]
    if others:
        lines.append("Other ways:")
        lines += [f"  {_points(o['points'])}: {_use(o['helper_use']) if o['helper_use'] else 'as printed'}, "
                  f"keep {_cards(o['kept'])}" for o in others]
    return "\n".join(lines)


def format_ingredients(listing: Mapping[str, Any]) -> str:
    deck = listing["deck"]
    label = " (a stand-in spread of values and coins, not a printed deck's)" if deck["stand_in"] else ""
    lines = ["Ingredients, named by colour: " + ", ".join(f"{i['name']} ({i['letter']})" for i in listing["ingredients"]),
             f"Sweet values: {', '.join(map(str, listing['values']))}",
             f"Deck {deck['name']!r}{label}: {deck['cards']} cards, {deck['cards_per_ingredient']} per ingredient, "
             f"{deck['distinct_faces']} distinct faces"]
    lines += [f"  value {v}: {len(c)} cards of each ingredient, coins {', '.join(map(str, c))}"
              for v, c in deck["coins_per_value"].items()]
    lines.append("Helpers, highest order number first:")
    for h in sorted(listing["helpers"], key=lambda h: -h["order"]):
        source = "from the sheet" if h["order_from_sheet"] else "confirm from your cards"
        lines.append(f"  {h['order']}  {h['title']} the {h['animal']} ({source})")
    return "\n".join(lines)


def _way(result: Mapping[str, Any]) -> str:
    colour = "of one colour" if result["single_colour"] else "of mixed colours"
    return f"a {result['kind']} {colour}"


def _use(use: Mapping[str, Any]) -> str:
    helper = Helper.from_name(use["helper"])
    if "laid_as" not in use:
        return {Helper.LILLY: "Lilly scores the mixed run as one colour",
                Helper.AMELIE: "Amélie allows four cards and one more kept"}.get(helper, helper.title)
    laid = card_from_json(use["laid_as"])
    return f"{helper.title}: card {use['card'] + 1} laid as {laid.describe()}"


def _cards(cards: Sequence[Mapping[str, Any]]) -> str:
    return ", ".join(card_from_json(c).describe() for c in cards) or "nothing"


def _points(n: int) -> str:
    return f"{n} point{'s' if n != 1 else ''}"
