"""Mamma Mia!'s part of the JSON API: a new game and the moves of a round.

The shared part (the games, a game's state, undo, exports) is
:mod:`companion.web.api`; every write here follows its rules: the body names
the ``version`` it was based on, the answer is the whole new state, and a
refusal changes nothing.
"""
from __future__ import annotations

from flask import Blueprint, Response, jsonify, url_for

from ...engine.tablelog import GameCreated
from .. import storage
from ..api import answer_write, guard, read_version
from ..db import get_db
from ..jsonapi import json_body
from ..present import game_json
from .kind import KIND

bp = Blueprint("mamma_mia_api", __name__, url_prefix="/api")

# what each action reads from its body (besides "version") and where a refusal points
ACTIONS: dict[str, tuple[str, frozenset[str], str | None]] = {
    "reveal": ("card_revealed", frozenset({"card"}), "card"),
    "decide": ("order_decided", frozenset({"accept", "choice"}), None),
    "end-round": ("round_ended", frozenset(), None),
    "hands": ("hands_counted", frozenset({"counts"}), "counts"),
}


@bp.post("/games")
def create_game() -> tuple[Response, int, dict[str, str]]:
    body = json_body({"players", "doubled"})
    created = guard(KIND, GameCreated.from_payload, body, field="players")
    stored = guard(KIND, storage.create_game, get_db(), created, field="players")
    return jsonify(game_json(stored)), 201, {"Location": url_for("api.game", game_id=stored.id)}


@bp.post("/games/<game:game_id>/<any(reveal, decide, 'end-round', hands):action>")
def act(game_id: int, action: str) -> Response:
    """One move: reveal a card, decide, end the round or count hands."""
    event_type, fields, field = ACTIONS[action]
    body = json_body(fields | {"version"})
    version = read_version(body)
    event = guard(KIND, KIND.event_from_json, event_type, {k: v for k, v in body.items() if k != "version"},
                  field=field)
    return jsonify(answer_write(game_id, version, event, field))
