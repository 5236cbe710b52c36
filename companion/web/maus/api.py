"""Maus au Chocolat's part of the JSON API: a new game, the bids, each
player's combination or none, the verdict on cards before they are laid,
and a photo of laid cards read.

The shared part (the games, a game's state, undo, exports) is
:mod:`companion.web.api`; every write here follows its rules: the body names
the ``version`` it was based on, the answer is the whole new state, and a
refusal (bad input, a move the rules refuse, a stale version) changes nothing.
"""
from __future__ import annotations

from typing import Any, Mapping

from flask import Blueprint, Response, current_app, jsonify, url_for

from ...maus.engine import HELPERS, Card, GameStarted, MausError
from ...maus.engine.jsonform import card_from_json
from .. import storage
from ..api import answer_write, guard, read_version
from ..db import get_db
from ..jsonapi import ApiError, decoded_image, image_bytes, json_body, or_404
from ..present import game_json
from .camera import reading_json, reader
from .kind import KIND
from .view import judgement_view
from .words import refusal_text

bp = Blueprint("maus_api", __name__, url_prefix="/api")

MAX_NAME_LENGTH = 40
# what each move reads from its body (besides "version") and the event it makes
ACTIONS: dict[str, tuple[str, frozenset[str], str | None]] = {
    "bids": ("bids_revealed", frozenset({"coins"}), "coins"),
    "combination": ("combination_laid", frozenset({"seat", "cards", "change"}), "cards"),
    "skip": ("combination_skipped", frozenset({"seat"}), "seat"),
}


@bp.post("/maus/games")
def create_game() -> tuple[Response, int, dict[str, str]]:
    """``{"players": [names, clockwise], "oldest": SEAT, "held": [helper per seat],
    "numbers": {helper: order number} | null}``; ``spare`` (the row, leftmost
    first) defaults to the helpers nobody holds, by their order numbers."""
    body = dict(json_body({"players", "oldest", "held", "spare", "numbers"}))
    check_names(body.get("players"))
    if body.get("spare") is None and isinstance(body.get("held"), list):
        body["spare"] = default_spare(body["held"], body.get("numbers"))
    started = guard(KIND, GameStarted.from_payload, body, field="players")
    stored = guard(KIND, storage.create_game, get_db(), started, field="held")
    return jsonify(game_json(stored)), 201, {"Location": url_for("api.game", game_id=stored.id)}


@bp.post("/games/<game:game_id>/<any(bids, combination, skip):action>")
def act(game_id: int, action: str) -> Response:
    """One move: the bids turned up, a combination laid, or none."""
    event_type, fields, field = ACTIONS[action]
    body = json_body(fields | {"version"})
    version = read_version(body)
    payload = {k: v for k, v in body.items() if k != "version"}
    event = guard(KIND, KIND.event_from_json, event_type, payload, field=field)
    return jsonify(answer_write(game_id, version, event, field))


@bp.post("/games/<game:game_id>/judge")
def judge(game_id: int) -> Response:
    """``{"seat": SEAT, "cards": [...]}``: the verdict if that player laid
    these cards now, with their helper and hand; nothing is written."""
    body = json_body({"seat", "cards"})
    stored = or_404(storage.load_game, get_db(), game_id, KIND.name)
    game = stored.game
    seat = body.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(game.players):
        raise ApiError(400, f"seat must be one of the {len(game.players)} seats (0 to {len(game.players) - 1})", "seat")
    cards = read_cards(body.get("cards"))
    try:
        verdict = game.judge(seat, cards)
    except MausError as refused:
        raise ApiError(400, refusal_text(refused), "cards") from None
    answer = judgement_view(verdict)
    if verdict.error is not None:
        answer["why"] = refusal_text(verdict.error)
    return jsonify({**answer, "seat": seat, "helper": game.seating.held[seat].value, "hand": game.hands[seat]})


@bp.post("/games/<game:game_id>/read")
def read(game_id: int) -> Response:
    """A photo of cards laid side by side (a combination, or the bids turned
    up), read left to right; nothing is written: the page shows the cards
    for the players to check before they are laid or bid."""
    or_404(storage.load_game, get_db(), game_id, KIND.name)
    image = decoded_image(image_bytes(current_app.config["MAX_CONTENT_LENGTH"]))
    return jsonify(reading_json(reader().read(image)))


# request reading ----------------------------------------------------------------------------


def check_names(players: Any) -> None:
    if not isinstance(players, list):
        return  # the engine says what is missing
    for name in players:
        if isinstance(name, str) and (len(name.strip()) > MAX_NAME_LENGTH
                                      or any(not ch.isprintable() for ch in name)):
            raise ApiError(400, f"a name is at most {MAX_NAME_LENGTH} printable characters", "players")
    names = [n.strip().casefold() for n in players if isinstance(n, str)]
    if len(set(names)) != len(names):
        raise ApiError(400, "each player needs a name of their own", "players")


def default_spare(held: list[Any], numbers: Mapping[str, Any] | None) -> list[str]:
    """The helpers nobody holds, lowest order number first (the table may
    lay its row otherwise and say so with ``spare``)."""
    order = {h.value: i for i, h in enumerate(HELPERS)}
    if isinstance(numbers, Mapping) and all(isinstance(numbers.get(h.value), int) for h in HELPERS):
        order = {h.value: numbers[h.value] for h in HELPERS}
    return sorted((h.value for h in HELPERS if h.value not in held), key=lambda name: order[name])


def read_cards(data: Any) -> list[Card]:
    if not isinstance(data, list) or not data or len(data) > 8:
        raise ApiError(400, "cards must be a list of 1 to 8 cards, like [\"g5\", \"b5\", \"r5\"]", "cards")
    try:
        return [card_from_json(c) for c in data]
    except MausError as bad:
        raise ApiError(400, str(bad), "cards") from None


__all__ = ["bp"]
