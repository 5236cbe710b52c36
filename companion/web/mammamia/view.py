"""What the table app shows of a :class:`TableGame`, as JSON-ready data:
the state the API sends and the pages draw.

>>> from companion.engine.table import TableGame
>>> from companion.engine.tablelog import CardRevealed, GameCreated, Seat
>>> game = TableGame(GameCreated((Seat("Ann", Color.GREEN), Seat("Bob", Color.RED))))
>>> for card in parse_pile("4P 2S 2M 4A g:P+6J"):
...     game.apply(CardRevealed(card))
>>> [(o["choice"], o["needed_total"]) for o in table_view(game)["pending"]["options"]]
[('pineapple', 2), ('salami', 4), ('mushroom', 4), ('olive', 6)]
"""
from __future__ import annotations

from typing import Any

from ...engine.cards import Card, Order, describe_card
from ...engine.edition import Deck
from ...engine.evaluation import OrderOutcome, PendingOrder
from ...engine.game import Standing
from ...engine.ingredients import Ingredients
from ...engine.pizzas import Minimale, Option
from ...engine.table import RoundRecord, TableGame, TablePhase, cheapest_first
from ...engine.vocabulary import INGREDIENTS, Color

JSON = dict[str, Any]


def table_view(game: TableGame) -> JSON:
    """Everything a page needs to draw the game now."""
    return {
        "phase": game.phase.value,
        "round": game.round,
        "rounds": game.rounds,
        "doubled": game.deck.doubles,
        "setup": setup_view(game),
        "players": [_player(game, s.color) for s in game.seats],
        "table": ingredients_view(game.table),
        "leftovers_in": ingredients_view(game.leftovers_in),
        "timeline": _timeline(game) if game.evaluation else [],
        "pending": pending_view(game, game.pending) if game.pending else None,
        "history": [_round(game, r) for r in game.history],
        "ranking": _ranking(game, game.ranking()),
        "can_undo": game.can_undo,
        "next": _next_step(game),
    }


def setup_view(game: TableGame) -> JSON:
    """The cards to put back in the box for this player count and variant."""
    deck = game.deck
    setup = deck_setup_view(deck)
    steps = [f"remove {deck.removed_per_kind} card{'s' if deck.removed_per_kind != 1 else ''} "
             "of each ingredient" if deck.removed_per_kind else "keep all ingredient cards"]
    if deck.doubles:
        steps.append(f"then replace {deck.variant.doubles_per_kind} more of each by the double cards")
    return {
        **setup,
        "order_colors": [c.value for c in game.colors],
        "unused_colors": [c.value for c in Color if c not in game.colors],
        "text": ", ".join(steps) + "; leave out the orders of colours nobody plays",
    }


def deck_setup_view(deck: Deck) -> JSON:
    """The card counts of a set-up, before any game exists (the new-game form)."""
    return {
        "players": deck.player_count,
        "remove_per_kind": deck.removed_per_kind,
        "doubles_per_kind": deck.variant.doubles_per_kind,
        "singles_per_kind": deck.singles_per_kind,
    }


def ingredients_view(ingredients: Ingredients) -> JSON:
    """Face-up rows as on the table: one row per ingredient, singles and doubles."""
    rows = [
        {"ingredient": i.value, "letter": i.letter, "singles": s, "doubles": d, "units": s + 2 * d}
        for i, s, d in zip(INGREDIENTS, ingredients.singles, ingredients.doubles)
    ]
    return {"notation": ingredients.notation, "units": ingredients.total_units, "rows": rows}


def option_view(option: Option) -> JSON:
    return {
        "choice": option.choice.value if option.choice else None,
        "requirement": option.requirement.as_dict(),
        "needed": option.needed.as_dict(),
        "needed_total": option.needed.total,
        "add_from_hand": option.needed.describe(),
    }


def pending_view(game: TableGame, pending: PendingOrder) -> JSON:
    """Whose order, what it needs, what is face up, what the owner must add."""
    order = pending.order
    return {
        "index": pending.index,
        **_order_card(game, order),
        "table": ingredients_view(pending.table),
        "options": [option_view(o) for o in cheapest_first(pending.options)],
        "choose": len(pending.options) > 1,
    }


def _order_card(game: TableGame, order: Order) -> JSON:
    return {
        "card": order.notation,
        "text": order.describe(),
        "color": order.color.value,
        "player": game.seat(order.color).name,
        "special": order.special,
    }


def _card(card: Card) -> JSON:
    kind = "order" if isinstance(card, Order) else "ingredient"
    return {"card": card.notation, "kind": kind, "text": describe_card(card)}


def outcome_view(outcome: OrderOutcome) -> JSON:
    """What became of a revealed order. ``choice`` is the joker or Minimale
    ingredient it was delivered with: an order that went back was made with
    none, whichever option the engine weighed. ``eligible`` (Minimale only)
    is empty when no ingredient could be chosen at all."""
    chosen = outcome.choice if outcome.fulfilled else None
    result: JSON = {
        "fulfilled": outcome.fulfilled,
        "choice": chosen.value if chosen else None,
        "needed": outcome.needed.as_dict(),
        "used_from_table": outcome.used_from_table.notation,
        "reason": outcome.reason,
    }
    if isinstance(outcome.order.pizza, Minimale):
        result["eligible"] = [o.choice.value for o in outcome.options if o.choice]
    return result


def _timeline(game: TableGame) -> list[JSON]:
    evaluation = game.evaluation
    assert evaluation is not None
    outcomes = {o.index: o for o in evaluation.outcomes}
    entries = []
    for index, card in enumerate(evaluation.revealed):
        entry = {"index": index, **_card(card)}
        if isinstance(card, Order):
            entry["player"] = game.seat(card.color).name
            entry["outcome"] = outcome_view(outcomes[index]) if index in outcomes else None
            entry["pending"] = index not in outcomes
        entries.append(entry)
    return entries


def _player(game: TableGame, color: Color) -> JSON:
    per_round = [game.delivered_in(r)[color] for r in range(1, game.rounds + 1)]
    return {
        "name": game.seat(color).name,
        "color": color.value,
        "personal": game.deck.personal(color).value,
        "delivered_per_round": [len(orders) for orders in per_round],
        "delivered_orders": [[o.notation for o in orders] for orders in per_round],
        "delivered_total": sum(map(len, per_round)),
        "remaining": [_card(o) for o in game.remaining(color)],
        "revealable": [o.notation for o in game.revealable(color)] if game.evaluation else [],
        "hand_cards": game.hand_counts.get(color) if game.hand_counts else None,
    }


def _round(game: TableGame, record: RoundRecord) -> JSON:
    return {
        "round": record.round,
        "leftovers_in": record.leftovers_in.notation,
        "pile": [c.notation for c in record.pile],
        "orders": [{"index": o.index, **_order_card(game, o.order), **outcome_view(o)} for o in record.outcomes],
        "delivered": {c.value: [o.notation for o in record.orders(c, True)] for c in game.colors},
        "returned": {c.value: [o.notation for o in record.orders(c, False)] for c in game.colors},
        "leftovers_out": record.leftovers_out.notation,
    }


def _ranking(game: TableGame, standings: list[Standing] | None) -> list[JSON] | None:
    if standings is None:
        return None
    delivered = [s.delivered for s in standings]
    return [
        {
            "place": s.place,
            "name": game.seat(s.color).name,
            "color": s.color.value,
            "delivered": s.delivered,
            "hand_cards": s.hand_cards,
            # the tie-break decided this place only when someone delivered as many
            "tie_break": delivered.count(s.delivered) > 1,
        }
        for s in standings
    ]


def _next_step(game: TableGame) -> str:
    if game.phase is TablePhase.OVER:
        return "the game is over"
    if game.phase is TablePhase.COUNTING:
        return "enter how many ingredient cards each player holds"
    if game.pending is not None:
        return f"{game.seat(game.pending.order.color).name} decides: added from hand, or can't / won't"
    return f"round {game.round}: reveal the next card of the oven pile, or end the round"
