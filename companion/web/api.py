"""The JSON API the table pages use, under ``/api``.

Every write names the ``version`` of the game it was based on and answers with
the whole new state (its new ``version`` included); an undo's answer also
names what it took back (``undone``: the event, as in the export). Errors are
``{"error": "...", "field": ...}`` with 400 (bad input or a move the rules
refuse), 404 (no such game) or 409 (another device changed the game first);
on any error nothing changes.

Only ``application/json`` bodies are read: a browser cannot send those across
sites without asking first, which keeps other web pages from acting here.
"""
from __future__ import annotations

import json
from typing import Any, Mapping

from flask import Blueprint, Response, jsonify, url_for

from ..engine.errors import IllegalChoice, RulesError
from ..engine.tablelog import BadPayload, GameCreated, event_from_json
from . import live, storage
from .db import get_db
from .i18n import rules_refusal
from .jsonapi import ApiError, json_body, or_404
from .present import export_csv, export_json, game_json, summary_json

bp = Blueprint("api", __name__, url_prefix="/api")

# what each action reads from its body (besides "version") and where a refusal points
ACTIONS: dict[str, tuple[str, frozenset[str], str | None]] = {
    "reveal": ("card_revealed", frozenset({"card"}), "card"),
    "decide": ("order_decided", frozenset({"accept", "choice"}), None),
    "undo": ("undo", frozenset(), None),
    "end-round": ("round_ended", frozenset(), None),
    "hands": ("hands_counted", frozenset({"counts"}), "counts"),
}


@bp.get("")
def index() -> Response:
    """What the API offers, for people poking at it."""
    return jsonify({"games": url_for("api.games"), "decks": url_for("decks.index"), "actions": sorted(ACTIONS),
                    "exports": ["export.json", "export.csv"]})


@bp.get("/games")
def games() -> Response:
    return jsonify({"games": [summary_json(g) for g in storage.list_games(get_db())]})


@bp.post("/games")
def create_game() -> tuple[Response, int, dict[str, str]]:
    body = json_body({"players", "doubled"})
    created = _guard(GameCreated.from_payload, body, field="players")
    stored = _guard(storage.create_game, get_db(), created, field="players")
    return jsonify(game_json(stored)), 201, {"Location": url_for("api.game", game_id=stored.id)}


@bp.get("/games/<game:game_id>")
def game(game_id: int) -> Response:
    return jsonify(game_json(or_404(storage.load_game, get_db(), game_id)))


@bp.post("/games/<game:game_id>/<any(reveal, decide, undo, 'end-round', hands):action>")
def act(game_id: int, action: str) -> Response:
    """One move: reveal a card, decide, undo, end the round or count hands."""
    event_type, fields, field = ACTIONS[action]
    body = json_body(fields | {"version"})
    version = _version(body)
    event = _guard(event_from_json, event_type, {k: v for k, v in body.items() if k != "version"}, field=field)
    db = get_db()
    # what an undo takes back, read at the version it is based on (a change since is a 409 below)
    target_version, target = or_404(storage.undo_target, db, game_id) if action == "undo" else (None, None)
    try:
        stored = or_404(storage.append_event, db, game_id, version, event)
    except storage.StaleWrite as stale:
        raise ApiError(409, str(stale), "version", version=stale.current) from None
    except RulesError as refused:
        raise ApiError(400, rules_refusal(refused), "choice" if isinstance(refused, IllegalChoice) else field) from None
    answer = game_json(stored)
    live.changed(answer)
    if target is not None and target_version == version:
        answer = {**answer, "undone": {"type": target.type, **target.payload()}}  # for this device only
    return jsonify(answer)


@bp.get("/games/<game:game_id>/export.json")
def export_game_json(game_id: int) -> Response:
    db = get_db()
    stored = or_404(storage.load_game, db, game_id)
    text = json.dumps(export_json(stored, storage.event_log(db, game_id)), indent=2)
    return _download(text, "application/json", f"mamma-mia-game-{game_id}.json")


@bp.get("/games/<game:game_id>/export.csv")
def export_game_csv(game_id: int) -> Response:
    stored = or_404(storage.load_game, get_db(), game_id)
    # a text/* type gets its charset=utf-8 from Flask: naming it here said it twice
    return _download(export_csv(stored), "text/csv", f"mamma-mia-game-{game_id}.csv")


# request reading ----------------------------------------------------------------------------


def _version(body: Mapping[str, Any]) -> int:
    version = body.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ApiError(400, "version must be the game's version as last loaded (a whole number ≥ 1)", "version")
    return version


def _guard(function: Any, *args: Any, field: str | None) -> Any:
    """Call the engine; a refusal becomes a 400 naming ``field``."""
    try:
        return function(*args)
    except BadPayload as bad:
        raise ApiError(400, str(bad), bad.field) from None
    except RulesError as refused:
        raise ApiError(400, rules_refusal(refused), field) from None


def _download(text: str, mimetype: str, filename: str) -> Response:
    return Response(text, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
