"""The Mamma Mia! rules engine: pure Python, no I/O.

>>> from companion.engine import Deck, Evaluation, Color, parse_pile, Decision
>>> ev = Evaluation(Deck.for_players(2), [Color.GREEN, Color.RED])
>>> outcomes = ev.run(parse_pile("4S P g:4S+P"), lambda pending: Decision.accept())
>>> outcomes[0].fulfilled, ev.table.notation
(True, '-')
"""
from .cards import MAMMA_MIA, Card, MammaMiaCard, Order, describe_card, parse_card
from .edition import (
    BASE_GAME, CLASSIC_RULES, DOUBLED_INGREDIENTS, SPANISH_RULES, Deck, Edition, Ruleset, Variant,
)
from .errors import *  # noqa: F401,F403  (the exception hierarchy is part of the API)
from .evaluation import Decision, Evaluation, OrderOutcome, PendingOrder, Reveal, best_option, covers
from .ingredients import Ingredients, Need
from .jsonform import card_from_json, card_to_json
from .notation import format_pile, parse_pile
from .pizzas import Bombastica, Minimale, Monotoni, Option, Recipe
from .vocabulary import INGREDIENTS, Color, Ingredient, IngredientCard
