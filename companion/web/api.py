"""The JSON API the table pages use, under ``/api``: what every game shares.

The games, a game's state, undo and the exports are here; each game adds its
own moves (:meth:`.kinds.GameKind.blueprints`). Every write names the
``version`` of the game it was based on and answers with the whole new state
(its new ``version`` included); an undo's answer also names what it took back
(``undone``: the event, as in the export). Errors are ``{"error": "...",
"field": ...}`` with 400 (bad input, a move the rules refuse, or a move of
another game), 404 (no such game) or 409 (another device changed the game
first); on any error nothing changes.

Only ``application/json`` bodies are read: a browser cannot send those across
sites without asking first, which keeps other web pages from acting here.
"""
from __future__ import annotations

import json
from typing import Any, Mapping

from flask import Blueprint, Response, jsonify, url_for

from . import live, storage
from .db import get_db
from .jsonapi import ApiError, json_body, or_404
from .kinds import GameKind, Undo, all_kinds, kind
from .present import export_csv, export_json, export_name, game_json, summary_json

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.get("")
def index() -> Response:
    """What the API offers, for people poking at it."""
    actions = sorted({"undo"}.union(*(k.actions for k in all_kinds())))
    return jsonify({"games": url_for("api.games"), "decks": url_for("decks.index"), "actions": actions,
                    "kinds": [k.name for k in all_kinds()], "exports": ["export.json", "export.csv"]})


@bp.get("/games")
def games() -> Response:
    return jsonify({"games": [summary_json(g) for g in storage.list_games(get_db())]})


@bp.get("/games/<game:game_id>")
def game(game_id: int) -> Response:
    return jsonify(game_json(or_404(storage.load_game, get_db(), game_id)))


@bp.post("/games/<game:game_id>/undo")
def undo(game_id: int) -> Response:
    """Take back the last action still in effect, in any game."""
    version = read_version(json_body({"version"}))
    # what an undo takes back, read at the version it is based on (a change since is a 409 below)
    target_version, target = or_404(storage.undo_target, get_db(), game_id)
    answer = answer_write(game_id, version, Undo(), None)
    if target is not None and target_version == version:
        answer = {**answer, "undone": {"type": target.type, **target.payload()}}  # for this device only
    return jsonify(answer)


@bp.get("/games/<game:game_id>/export.json")
def export_game_json(game_id: int) -> Response:
    db = get_db()
    stored = or_404(storage.load_game, db, game_id)
    text = json.dumps(export_json(stored, storage.event_log(db, game_id)), indent=2)
    return _download(text, "application/json", export_name(stored, "json"))


@bp.get("/games/<game:game_id>/export.csv")
def export_game_csv(game_id: int) -> Response:
    stored = or_404(storage.load_game, get_db(), game_id)
    # a text/* type gets its charset=utf-8 from Flask: naming it here said it twice
    return _download(export_csv(stored), "text/csv", export_name(stored, "csv"))


# what the games' own endpoints share ---------------------------------------------------------


def answer_write(game_id: int, version: int, event: Any, field: str | None) -> dict[str, Any]:
    """Append ``event`` to the game's log and tell every open page; the new
    state, or the refusal as an :class:`ApiError` pointing at ``field`` or
    where the game's kind says (nothing changed)."""
    try:
        stored = or_404(storage.append_event, get_db(), game_id, version, event)
    except storage.StaleWrite as stale:
        raise ApiError(409, str(stale), "version", version=stale.current) from None
    except (storage.NothingToUndo, storage.WrongKind) as refused:
        raise ApiError(400, str(refused), None) from None
    except Exception as refused:
        game_kind = _kind_of(game_id)
        if game_kind is None or not isinstance(refused, game_kind.refusals):
            raise
        raise ApiError(400, game_kind.refusal_text(refused), game_kind.refusal_field(refused, field)) from None
    answer = game_json(stored)
    live.changed(answer)
    return answer


def read_version(body: Mapping[str, Any]) -> int:
    version = body.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ApiError(400, "version must be the game's version as last loaded (a whole number ≥ 1)", "version")
    return version


def guard(game_kind: GameKind, function: Any, *args: Any, field: str | None) -> Any:
    """Call the game's engine; a refusal (an unreadable payload among them)
    becomes a 400 naming its field, or ``field``."""
    try:
        return function(*args)
    except game_kind.refusals as refused:
        raise ApiError(400, game_kind.refusal_text(refused), getattr(refused, "field", None) or field) from None


def _kind_of(game_id: int) -> GameKind | None:
    name = storage.kind_name(get_db(), game_id)
    return None if name is None else kind(name)


def _download(text: str, mimetype: str, filename: str) -> Response:
    return Response(text, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
