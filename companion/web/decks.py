"""The decks' part of the JSON API, under ``/api/decks``: list a game's
decks, create one for a game, teach it faces from pictures, remove a face,
and make a deck its game's camera deck. docs/api.md describes every request
and answer.

Refusals are ``{"error", "field"}`` like the rest of the API (a refused
picture adds ``problem`` and ``hint``; an incomplete deck ``missing``), and
change nothing: 400 bad input, 404 unknown deck, face or picture, 409 a
read-only deck, a face already taught, a deck not complete or one whose
files cannot be read, 422 a picture that would make a poor reference.
Pictures are raw ``image/jpeg`` or ``image/png`` bodies, like the camera's.
"""
from __future__ import annotations

import mimetypes
from urllib.parse import unquote
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, send_file, url_for

from vision.recognize.decks import DeckError

from ..decks import store as decks
from ..decks.games import MAMMA_MIA, DeckGame, game_named
from ..decks.teaching import Held, PictureRefused, Taught, UnknownCapture, held_capture, teach_held, teach_picture
from .jsonapi import ApiError, api_error, decoded_image, image_bytes, json_body
from .maus_decks import load_reader
from .recognition import activate, deck_store, refresh

bp = Blueprint("decks", __name__, url_prefix="/api/decks")

SUFFIXES = {"image/jpeg": ".jpg", "image/png": ".png"}
# each refusal of the deck store: its status and the request field at fault
REFUSALS: dict[type[decks.DeckStoreError], tuple[int, str | None]] = {
    decks.UnknownDeck: (404, None),
    decks.ReadOnlyDeck: (409, None),
    decks.NotInDeck: (400, "card"),
    decks.AlreadyTaught: (409, "card"),
    decks.NotTaught: (404, "card"),
    decks.Incomplete: (409, None),
    decks.BadName: (400, "name"),
    decks.BadGame: (400, "game"),
    UnknownCapture: (404, "capture"),
    PictureRefused: (422, None),
}


@bp.errorhandler(decks.DeckStoreError)
def refused(error: decks.DeckStoreError) -> tuple[Response, int]:
    status, field = next(answer for kind, answer in REFUSALS.items() if isinstance(error, kind))
    extra: dict[str, Any] = {}
    if isinstance(error, PictureRefused):
        extra = {"problem": error.problem.code, "hint": error.problem.hint}
    elif isinstance(error, decks.Incomplete):
        extra = {"missing": error.missing}
    return api_error(ApiError(status, str(error), field, **extra))


@bp.errorhandler(DeckError)
def unusable(error: DeckError) -> tuple[Response, int]:
    """A deck whose files cannot be read (edited by hand, or a given folder gone since)."""
    return api_error(ApiError(409, f"the deck cannot be used: {error}"))


@bp.get("")
def index() -> Response:
    """One game's decks (``?game=maus``; Mamma Mia!'s without it) and the one its camera uses."""
    game = _game(request.args.get("game", MAMMA_MIA))
    store = deck_store()
    return jsonify({"game": game.id, "active": store.active_ids[game.id],
                    "decks": [summary_json(d) for d in store.decks(game)]})


@bp.post("")
def create() -> tuple[Response, int, dict[str, str]]:
    body = json_body({"name", "doubles", "game"})
    game = _game(body.get("game", MAMMA_MIA))
    doubles = body.get("doubles", True)
    if game.id != MAMMA_MIA and "doubles" in body:
        raise ApiError(400, "doubles is for Mamma Mia! decks only: a Maus deck teaches all its faces", "doubles")
    if not isinstance(doubles, bool):
        raise ApiError(400, "doubles must be true (51 faces, with the Doubled Ingredients) or false (46)",
                       "doubles")
    deck = deck_store().create(body.get("name"), doubles, game.id)
    return jsonify(detail_json(deck)), 201, {"Location": url_for("decks.detail", deck_id=deck.id)}


@bp.get("/<deck_id>")
def detail(deck_id: str) -> Response:
    return jsonify(detail_json(deck_store().get(deck_id)))


@bp.get("/<deck_id>/faces/<slug>.png")
def face_image(deck_id: str, slug: str) -> Response:
    deck = deck_store().get(deck_id)
    try:
        card = decks.card_named(slug, deck.game)
    except decks.NotInDeck:
        example = deck.game.slug(deck.game.faces[0])
        raise ApiError(404, f"no face {slug!r} (faces are named like {example})") from None
    if card not in deck.faces:
        raise decks.NotTaught(f"{card.notation} is not taught in {deck.name}")
    return _image_file(deck.faces[card])


@bp.post("/<deck_id>/faces")
def add_face(deck_id: str) -> tuple[Response, int] | Response:
    """A picture of a card (its card named with ``?card=``, or not yet), or
    JSON naming the card of a picture sent before."""
    store = deck_store()
    game = store.get(deck_id).game  # an unknown deck is said before anything else
    if request.is_json:
        body = json_body({"capture", "card"})
        token, card = body.get("capture"), _card(body.get("card"), game)
        if not isinstance(token, str):
            raise ApiError(400, "capture must be the token of a picture sent before", "capture")
        return _taught(teach_held(store, deck_id, token, card))
    deck = store.editable(deck_id)
    card = _card(request.args["card"], game) if "card" in request.args else None
    if card is not None:
        store.check_new_face(deck, card)  # refused before the picture is read
    data = image_bytes(current_app.config["MAX_CONTENT_LENGTH"])
    result = teach_picture(store, deck, decoded_image(data), data, SUFFIXES[request.mimetype], card)
    return _taught(result) if isinstance(result, Taught) else _held(result)


@bp.post("/<deck_id>/read")
def read_row(deck_id: str) -> Response:
    """Try a complete Maus deck: the cards laid in a photo, read left to
    right with this deck (whether or not it is the camera's yet)."""
    deck = deck_store().get(deck_id)
    if deck.game.id == MAMMA_MIA:
        raise ApiError(400, "reading a row of laid cards is for Maus au Chocolat decks; "
                            "try a Mamma Mia! deck with POST /api/camera/photo")
    if not deck.complete:
        missing = len(deck.missing)
        raise decks.Incomplete(f"{deck.name} still lacks {missing} of its {len(deck.cards)} faces; "
                               f"teach them before trying it", missing)
    data = image_bytes(current_app.config["MAX_CONTENT_LENGTH"])
    reading = load_reader(deck).read(decoded_image(data))
    return jsonify({"notation": reading.notation, "sure": reading.sure, "cards": [
        {"card": laid.card.notation, "sure": laid.sure, "coins_sure": laid.coins.sure,
         "confidence": round(laid.confidence, 3), "corners": [[round(x, 1), round(y, 1)] for x, y in laid.corners]}
        for laid in reading.cards]})


@bp.get("/<deck_id>/captures/<token>.png")
def capture_image(deck_id: str, token: str) -> Response:
    return _image_file(held_capture(deck_store().get(deck_id), token).face)


@bp.delete("/<deck_id>/faces/<face>")
@bp.delete("/<deck_id>/faces/<face>/<coins>")
def remove_face(deck_id: str, face: str, coins: str | None = None) -> Response:
    """A Maus card's "/" (``g5%2F3``) reaches here decoded by some servers,
    as two parts, and not by others (cheroot keeps an encoded slash as it
    is): either way it is read as one card."""
    face = unquote(face) if coins is None else f"{face}/{coins}"
    store = deck_store()
    game = store.editable(deck_id).game
    deck = store.remove_face(deck_id, decks.card_named(face, game))
    refresh(deck)
    return jsonify(summary_json(deck))


@bp.post("/<deck_id>/activate")
def make_active(deck_id: str) -> Response:
    return jsonify({"active": activate(deck_id).id})


# answers ------------------------------------------------------------------------------------


def summary_json(deck: decks.Deck) -> dict[str, Any]:
    return {"id": deck.id, "name": deck.name, "game": deck.game.id, "builtin": deck.builtin,
            "editable": deck.editable, "doubles": deck.doubles, "faces": len(deck.faces), "total": len(deck.cards),
            "complete": deck.complete, "active": deck_store().is_active(deck)}


def detail_json(deck: decks.Deck) -> dict[str, Any]:
    return {**summary_json(deck), "created": deck.created,
            "taught": [{"card": card.notation, "image": face_url(deck, card)} for card in deck.faces],
            "missing": [card.notation for card in deck.missing]}


def face_url(deck: decks.Deck, card: decks.Card) -> str:
    """The face's address, naming its file's version: a retaken face is never an old cached one."""
    path = deck.faces[card]
    version = path.stat().st_mtime_ns if path.exists() else 0
    return url_for("decks.face_image", deck_id=deck.id, slug=deck.game.slug(card), v=version)


def _taught(taught: Taught) -> tuple[Response, int]:
    refresh(taught.deck)
    deck = taught.deck
    similar = [{"card": like.card.notation, "similarity": round(like.similarity, 3), "where": like.where}
               for like in taught.similar]
    return jsonify({"card": taught.card.notation, "image": face_url(deck, taught.card), "similar": similar,
                    "deck": summary_json(deck)}), 201


def _held(held: Held) -> Response:
    suggestions = [{"card": s.card.notation, "reason": s.reason, "taught": s.taught} for s in held.suggestions]
    return jsonify({"capture": held.token,
                    "face": url_for("decks.capture_image", deck_id=held.deck.id, token=held.token),
                    "suggestions": suggestions})


def _card(value: Any, game: DeckGame) -> decks.Card:
    if value is None or value == "":
        examples = "S, A2, g:4A+P or !" if game.id == MAMMA_MIA else "g5/3 (a green 5 with 3 coins)"
        raise ApiError(400, f"card is missing: the card's notation, e.g. {examples}", "card")
    return decks.parse_card(value, game)


def _game(value: Any) -> DeckGame:
    try:
        return game_named(value)
    except ValueError as error:
        raise ApiError(400, str(error), "game") from None


def _image_file(path: Path) -> Response:
    if not path.is_file():
        raise ApiError(404, "the image is gone (removed meanwhile)")
    return send_file(path, mimetype=mimetypes.guess_type(path.name)[0] or "application/octet-stream")
