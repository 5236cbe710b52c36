"""The HTML pages: the games list, a new game, the round page and the scores.

The round page is drawn by ``static/table.js`` from the same state the JSON
API sends (embedded in the page so it shows at once, then kept current through
the API). The other pages are plain server-rendered HTML; the only form that
changes data here are the new-game form and the home page's archive, bring
back and delete buttons (CSRF-checked in :mod:`.access`).
"""
from __future__ import annotations

import math
from typing import Any

from flask import Blueprint, Response, abort, current_app, make_response, redirect, render_template, request, url_for

from ..engine.cards import Order, parse_card
from ..engine.edition import Deck
from ..engine.errors import NotationError, RulesError
from ..engine.notation import parse_pile
from ..engine.tablelog import MAX_NAME_LENGTH, GameCreated, Seat
from ..engine.vocabulary import Color
from . import access, i18n, live, storage
from .chart import deliveries_chart
from .db import get_db
from .i18n import gettext as _
from .joining import NETWORK_COMMAND, joining
from .present import game_json, summary_json
from .view import deck_setup_view

bp = Blueprint("pages", __name__)

MAX_PLAYERS = 5
MIN_PLAYERS = 2
# the form's first rows start with different colours so two players can just type names
DEFAULT_COLORS = ["green", "red", "yellow", "brown", "purple"]


@bp.app_context_processor
def _globals() -> dict[str, Any]:
    return {
        "csrf_token": access.csrf_token,
        "show_code": access.table_code() if access.from_loopback() else None,
        "may_write": access.may_write(),
        "colors": [c.value for c in Color],
    }


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


@bp.get("/")
def home() -> str:
    games = [summary_json(g) for g in storage.list_games(get_db())]
    archived = request.args.get("archived", type=int)
    # how tablets and phones join: said on the host's own screen, where it is needed
    join = joining(current_app.config) if access.from_loopback() else None
    return render_template("home.html", games=[g for g in games if not g["archived_at"]],
                           archived=[g for g in games if g["archived_at"]],
                           just_archived=archived if any(g["id"] == archived for g in games) else None,
                           join=join, network_command=NETWORK_COMMAND)


@bp.post("/games/<game:game_id>/archive")
def archive(game_id: int) -> Response:
    _change(storage.set_archived, game_id, True)
    return redirect(url_for("pages.home", archived=game_id), 303)


@bp.post("/games/<game:game_id>/restore")
def restore(game_id: int) -> Response:
    _change(storage.set_archived, game_id, False)
    return redirect(url_for("pages.home"), 303)


@bp.route("/games/<game:game_id>/delete", methods=["GET", "POST"])
def delete(game_id: int) -> Any:
    """GET asks first (a deleted game cannot come back); POST deletes."""
    if request.method == "POST":
        _change(storage.delete_game, game_id)
        live.changed()  # a page still open on it says it is gone
        return redirect(url_for("pages.home"), 303)
    listed = next((g for g in storage.list_games(get_db()) if g.id == game_id), None)
    if listed is None:
        abort(404, _("err.not_found", id=game_id))
    return render_template("delete_game.html", game=summary_json(listed))


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
    page = render_template("new_game.html", rows=rows, doubled=doubled, errors=errors, setups=setups,
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
            refuse(_("err.color_twice", color=i18n.color_name(color)))
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


@bp.get("/games/<game:game_id>")
def game(game_id: int) -> Any:
    state = game_json(_load(game_id))
    # the sample video plays in round 1 of a demo game; a reload part way offers to go on
    demo = state["demo"] and state["round"] == 1 and state["phase"] == "evaluating"
    return render_template("game.html", state=state, catalog=i18n.catalog(i18n.current_language()), demo=demo)


@bp.get("/games/<game:game_id>/scores")
def scores(game_id: int) -> str:
    state = game_json(_load(game_id))
    return render_template("scores.html", state=state, chart=deliveries_chart(state, _))


@bp.route("/join", methods=["GET", "POST"])
def join() -> Any:
    target = _local_path(request.values.get("next", "/"))
    if request.method == "POST":
        wait = access.code_wait()
        if wait > 0:
            return render_template("join.html", target=target, error=_("code.wait", seconds=math.ceil(wait))), 429
        if access.grant(request.form.get("code", "")):
            return redirect(target, 303)
        return render_template("join.html", target=target, error=_("code.wrong")), 400
    return render_template("join.html", target=target, error=None)


@bp.post("/lang")
def set_language() -> Response:
    lang = request.form.get("lang", "")
    response = make_response(redirect(_local_path(request.form.get("next", "/")), 303))
    if lang in i18n.LANGUAGES:
        response.set_cookie(i18n.COOKIE, lang, max_age=i18n.COOKIE_MAX_AGE, samesite="Lax")
    return response


def _change(change: Any, game_id: int, *args: Any) -> None:
    """``change(db, game_id, *args)``, with an unknown game as a 404 page."""
    try:
        change(get_db(), game_id, *args)
    except storage.GameNotFound:
        abort(404, _("err.not_found", id=game_id))


def _load(game_id: int) -> storage.StoredGame:
    try:
        return storage.load_game(get_db(), game_id)
    except storage.GameNotFound:
        abort(404, _("err.not_found", id=game_id))


def _local_path(target: str) -> str:
    """Only paths on this site: a ``next`` must not send anyone elsewhere.
    Browsers drop tabs and line breaks from an address, so ``/\t/evil`` would
    become ``//evil``: any space or control character makes it the home page.

    >>> _local_path("/games/3"), _local_path("/\t/evil.example"), _local_path("//evil.example")
    ('/games/3', '/', '/')
    """
    if not target.startswith("/") or target.startswith("//") or "\\" in target \
            or any(ch.isspace() or not ch.isprintable() for ch in target):
        return "/"
    return target
