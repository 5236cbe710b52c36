"""Mamma Mia!'s words in the request's language: ingredient and colour
names, and the engine's refusals where the catalogs have the words."""
from __future__ import annotations

from flask import Blueprint
from flask.blueprints import BlueprintSetupState

from ...engine.errors import RulesError, TooManyIngredients
from ...engine.vocabulary import IngredientCard
from ..i18n import gettext


def ingredient_name(name: str) -> str:
    return gettext(f"ing.{name}")


def rules_refusal(refused: RulesError) -> str:
    """Why the rules engine refused, in the request's language where the
    catalog has the words (a card beyond the deck's supply, the refusal a
    table meets most, camera misreads included); otherwise the engine's English."""
    if isinstance(refused, TooManyIngredients) and isinstance(refused.card, IngredientCard):
        card = refused.card
        kind = ingredient_name(card.ingredient.value)
        if card.double:
            kind = gettext("ing.double", name=kind)
        return gettext("refusal.too_many", nth=refused.nth, kind=kind, card=card.notation,
                       players=refused.players, limit=refused.limit)
    return str(refused)


def color_name(name: str) -> str:
    return gettext(f"color.{name}")


def register_template_words(bp: Blueprint) -> None:
    """Names the templates use, as globals: macros imported without context see them too."""
    def record(state: BlueprintSetupState) -> None:
        state.app.jinja_env.globals.update(ingredient_name=ingredient_name, color_name=color_name)

    bp.record_once(record)
