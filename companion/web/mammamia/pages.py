"""Mamma Mia!'s own pages: a new game, the demo, and what its templates
draw cards with. The round and scores pages are the shared ones
(:mod:`companion.web.pages`) with this game's templates.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, redirect, render_template, request, url_for

from ...engine.cards import Order, parse_card
from ...engine.edition import Deck
from ...engine.errors import NotationError, RulesError
from ...engine.notation import parse_pile
from ...engine.tablelog import MAX_NAME_LENGTH, GameCreated, Seat
from ...engine.vocabulary import Color
from .. import live, storage
from ..db import get_db
from ..i18n import gettext as _
from .view import deck_setup_view
from .words import color_name, register_template_words

bp = Blueprint("mamma_mia", __name__)
register_template_words(bp)

MAX_PLAYERS = 5
MIN_PLAYERS = 2
# the form's first rows start with different colours so two players can just type names
DEFAULT_COLORS = ["green", "red", "yellow", "brown", "purple"]


@bp.app_context_processor
def _globals() -> dict[str, Any]:
    return {"colors": [c.value for c in Color]}


@bp.app_template_filter("card")
def card_parts(notation: str) -> dict[str, Any]:
    """What a card shows, for the templates' card macro (the script has its own)."""
    card = parse_card(notation)
    if isinstance(card, Order):
        pizza = card.pizza
        parts: dict[str, Any] = {"kind": "order", "color": card.color.value, "special": card.special,
                                 "notation": notation}
        if card.special == "bombastica":
            parts["minimum"] = pizza.minimum  # type: ignore[union-attr]
        elif card.special:
            parts["fixed"], parts["count"] = pizza.fixed.value, pizza.count  # type: ignore[union-attr]
        else:
            parts["items"] = [(i.value, n) for i, n in pizza.need.items()]  # type: ignore[union-attr]
        return parts
    return {"kind": "ingredient", "ingredient": card.ingredient.value,  # type: ignore[union-attr]
            "double": card.double, "notation": notation}  # type: ignore[union-attr]


@bp.app_template_filter("pile")
def pile_cards(notation: str) -> list[str]:
    """``"2S 4M"`` → ``["S", "S", "M", ...]``: face-up rows as single cards (``-``: none)."""
    return [c.notation for c in parse_pile(notation)] if notation.strip("- ") else []




@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> Any:
    setups = {n: {d: deck_setup_view(Deck.for_players(n, d)) for d in (False, True)}
              for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
    rows = [{"name": request.form.get(f"name{i}", ""),
             "color": request.form.get(f"color{i}", DEFAULT_COLORS[i])} for i in range(MAX_PLAYERS)]
    doubled = request.form.get("doubled") == "on"
    errors: list[str] = []
    if request.method == "POST":
        created, errors = _read_new_game(rows, doubled)
        if created is not None:
            try:
                stored = storage.create_game(get_db(), created)
            except RulesError as refused:
                errors = [_("err.refused", reason=str(refused))]
            else:
                return redirect(url_for("pages.game", game_id=stored.id), 303)
    page = render_template("mamma_mia/new_game.html", rows=rows, doubled=doubled, errors=errors, setups=setups,
                           max_name=MAX_NAME_LENGTH)
    return page, 400 if errors else 200


def _read_new_game(rows: list[dict[str, str]], doubled: bool) -> tuple[GameCreated | None, list[str]]:
    """The form's players, or the messages saying what to fix (in the page's language)."""
    players = [(r["name"].strip(), r["color"]) for r in rows if r["name"].strip()]
    errors: list[str] = []

    def refuse(message: str) -> None:
        if message not in errors:  # one message per problem, however many rows share it
            errors.append(message)

    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        refuse(_("err.players_count"))
    names, colors = [n.casefold() for n, _c in players], [c for _n, c in players]
    for name, color in players:
        if len(name) > MAX_NAME_LENGTH:
            refuse(_("err.name_long", n=MAX_NAME_LENGTH))
        if color not in {c.value for c in Color}:
            refuse(_("err.no_color", name=name))
        elif colors.count(color) > 1:
            refuse(_("err.color_twice", color=color_name(color)))
        if names.count(name.casefold()) > 1:
            refuse(_("err.name_twice", name=name))
    if errors:
        return None, errors
    try:  # the API's own checks as well, control characters in a name among them
        payload = {"players": [{"name": name, "color": color} for name, color in players], "doubled": doubled}
        return GameCreated.from_payload(payload), []
    except NotationError as error:
        return None, [_("err.refused", reason=str(error))]


# The bundled sample video shows orders of four colours and double cards, so the
# demo seats one player per colour it shows, with the Doubled Ingredients cards.
DEMO_PLAYERS = (("Ann", Color.YELLOW), ("Bob", Color.BROWN), ("Cleo", Color.GREEN), ("Dan", Color.PURPLE))


@bp.post("/demo")
def demo() -> Response:
    """A demo game whose first round is read from the bundled sample video;
    it replaces the previous demo game."""
    created = GameCreated(tuple(Seat(name, color) for name, color in DEMO_PLAYERS), True)
    stored = storage.replace_demo(get_db(), created)
    live.changed()
    return redirect(url_for("pages.game", game_id=stored.id), 303)
