"""The Mamma Mia! rules engine: pure Python, no I/O.

>>> from companion.engine import Deck, Evaluation, Color, parse_pile, Decision
>>> ev = Evaluation(Deck.for_players(2), [Color.GREEN, Color.RED])
>>> outcomes = ev.run(parse_pile("4S P g:4S+P"), lambda pending: Decision.accept())
>>> outcomes[0].fulfilled, ev.table.notation
(True, '-')
"""
from .cards import MAMMA_MIA, Card, MammaMiaCard, Order, describe_card, one_of_a_kind, parse_card
from .edition import (
    BASE_GAME, CLASSIC_RULES, DOUBLED_INGREDIENTS, SPANISH_RULES, Deck, Edition, Ruleset, Variant,
)
from .errors import (
    ColorNotAtTable, DuplicateOrder, IllegalCard, IllegalChoice, IllegalHandCards, IllegalSetup, IllegalTurn,
    MammaMiaInPile, NoPendingOrder, NotationError, OrderPending, PileExhausted, RulesError, TooManyIngredients,
    WrongPhase,
)
from .evaluation import Decision, Evaluation, OrderOutcome, PendingOrder, Reveal, best_option, covers
from .ingredients import Ingredients, Need
from .jsonform import card_from_json, card_to_json
from .legality import NextCard
from .notation import format_pile, parse_pile
from .pizzas import Bombastica, Minimale, Monotoni, Option, Recipe
from .vocabulary import INGREDIENTS, Color, Ingredient, IngredientCard

__all__ = [
    "BASE_GAME",
    "Bombastica",
    "CLASSIC_RULES",
    "Card",
    "Color",
    "ColorNotAtTable",
    "DOUBLED_INGREDIENTS",
    "Decision",
    "Deck",
    "DuplicateOrder",
    "Edition",
    "Evaluation",
    "INGREDIENTS",
    "IllegalCard",
    "IllegalChoice",
    "IllegalHandCards",
    "IllegalSetup",
    "IllegalTurn",
    "Ingredient",
    "IngredientCard",
    "Ingredients",
    "MAMMA_MIA",
    "MammaMiaCard",
    "MammaMiaInPile",
    "Minimale",
    "Monotoni",
    "Need",
    "NextCard",
    "NoPendingOrder",
    "NotationError",
    "Option",
    "Order",
    "OrderOutcome",
    "OrderPending",
    "PendingOrder",
    "PileExhausted",
    "Recipe",
    "Reveal",
    "RulesError",
    "Ruleset",
    "SPANISH_RULES",
    "TooManyIngredients",
    "Variant",
    "WrongPhase",
    "best_option",
    "card_from_json",
    "card_to_json",
    "covers",
    "describe_card",
    "one_of_a_kind",
    "format_pile",
    "parse_card",
    "parse_pile",
]
