"""Maus au Chocolat's own page: setting a game up. The round and scores
pages are the shared ones (:mod:`companion.web.pages`) with this game's
templates.

The set-up asks for the players in seating order (clockwise), the oldest
player, the helper each one was dealt, and the helpers' order numbers. The
numbers are printed on the table's own helper cards: the first game asks to
check them, and every later game starts from the numbers the last one used.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for

from ...maus.engine import HELPERS, Deck, GameStarted, MausError
from .. import storage
from ..db import get_db
from ..i18n import gettext as _
from .api import MAX_NAME_LENGTH, default_spare
from .kind import KIND
from .words import refusal_text

bp = Blueprint("maus", __name__)

MIN_PLAYERS, MAX_PLAYERS = 2, 6


@bp.route("/maus/new", methods=["GET", "POST"])
def new_game() -> Any:
    kept = kept_numbers()
    numbers = {h.value: request.form.get(f"number_{h.value}", str(kept[h.value])) for h in HELPERS}
    rows = [{"name": request.form.get(f"name{i}", ""),
             "helper": request.form.get(f"helper{i}", HELPERS[i].value)} for i in range(MAX_PLAYERS)]
    oldest = request.form.get("oldest", "0")
    errors: list[str] = []
    if request.method == "POST":
        started, errors = read_form(rows, oldest, numbers)
        if started is not None:
            try:
                stored = storage.create_game(get_db(), started)
            except MausError as refused:
                errors = [refusal_text(refused)]
            else:
                return redirect(url_for("pages.game", game_id=stored.id), 303)
    first_time = storage.latest_start(get_db(), KIND.name) is None  # the numbers have not been confirmed yet
    page = render_template("maus/new_game.html", rows=rows, oldest=oldest, numbers=numbers, errors=errors,
                           helpers=[h.value for h in HELPERS], first_time=first_time,
                           max_name=MAX_NAME_LENGTH)
    return page, 400 if errors else 200


def kept_numbers() -> dict[str, int]:
    """The order numbers the table's last game used; the deck's before its first."""
    last = storage.latest_start(get_db(), KIND.name)
    numbers = last.numbers if last is not None and last.numbers is not None else Deck.load().helper_numbers
    return numbers.as_dict()


def read_form(rows: list[dict[str, str]], oldest_field: str, numbers_field: dict[str, str]
              ) -> tuple[GameStarted | None, list[str]]:
    """The form's set-up, or the messages saying what to fix (in the page's language)."""
    errors: list[str] = []
    seats = [(i, r["name"].strip(), r["helper"]) for i, r in enumerate(rows) if r["name"].strip()]
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        errors.append(_("maus.err_players"))
    names = [name.casefold() for _i, name, _h in seats]
    helpers = [helper for _i, _n, helper in seats]
    if any(len(name) > MAX_NAME_LENGTH or not name.isprintable() for _i, name, _h in seats):
        errors.append(_("err.name_long", n=MAX_NAME_LENGTH))
    if len(set(names)) != len(names):
        errors.append(_("maus.err_name_twice"))
    if any(h not in {x.value for x in HELPERS} for h in helpers) or len(set(helpers)) != len(helpers):
        errors.append(_("maus.err_helper_twice"))
    oldest_row = int(oldest_field) if oldest_field.isdigit() else -1
    oldest = next((k for k, (i, _n, _h) in enumerate(seats) if i == oldest_row), None)
    if oldest is None:
        errors.append(_("maus.err_oldest"))
    numbers: dict[str, int] = {}
    for helper, text in numbers_field.items():
        if not text.strip().isdigit() or not 1 <= int(text) <= 99:
            errors.append(_("maus.err_numbers"))
            break
        numbers[helper] = int(text)
    else:
        if len(set(numbers.values())) != len(numbers):
            errors.append(_("maus.err_numbers_twice"))
    if errors:
        return None, errors
    payload = {"players": [name for _i, name, _h in seats], "oldest": oldest, "held": helpers,
               "spare": default_spare(helpers, numbers), "numbers": numbers}
    try:
        return GameStarted.from_payload(payload), []
    except MausError as refused:
        return None, [refusal_text(refused)]


@bp.app_template_filter("maus_helper")
def helper_label(name: str) -> str:
    """``Mathieu (dung beetle)`` in the page's language: the names are the cards' own."""
    from ...maus.engine import Helper

    helper = Helper.from_name(name)
    animal = _(f"maus.animal_{name}")
    return f"{helper.title} ({animal})"


@bp.app_template_filter("maus_card")
def card_label(notation: str) -> str:
    """``green 5`` in the page's language."""
    from ...maus.engine import Card

    card = Card.from_notation(notation)
    return _("maus.card", colour=_(f"maus.colour_{card.ingredient.value}"), value=card.value)
