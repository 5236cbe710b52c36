"""What every JSON endpoint shares: refusals as ``{"error", "field"}`` with
their status, the request's JSON body checked against its fields, an image
body decoded, and an unknown game as a 404. :func:`init_app` makes every :class:`ApiError` such an
answer, whichever blueprint raised it.

Large pictures are read one at a time. Decoding one costs up to about 150 MB
for a moment (see :mod:`vision.recognize.imagefile`), and recognising it tens
of MB more, so a request whose picture declares more than
:data:`LARGE_IMAGE_PIXELS` waits for its turn and keeps it until it is
answered. A camera frame (640 pixels wide) never waits; a phone's photo may,
for the second or so another one takes. One that waits more than
:data:`LARGE_IMAGE_WAIT_SECONDS` is answered 503, and nothing changed."""
from __future__ import annotations

import threading
from typing import Any, Mapping

from flask import Flask, Response, g, jsonify, request

from . import storage

UPLOAD_PIECE_BYTES = 64 * 1024  # an upload is read this much at a time
JSON_BLUEPRINTS = frozenset({"api", "camera", "decks", "live"})
IMAGE_TYPES = frozenset({"image/jpeg", "image/png"})
LARGE_IMAGE_PIXELS = 1920 * 1080  # more than a full-HD frame
LARGE_IMAGE_WAIT_SECONDS = 20.0
LARGE_IMAGE_TURNS = threading.BoundedSemaphore(1)  # per process: memory is the process's


class ApiError(Exception):
    """A refusal with its HTTP status and the request field at fault."""

    def __init__(self, status: int, message: str, field: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.field, self.extra = status, field, extra


def error_response(status: int, message: str, field: str | None = None, **extra: Any) -> tuple[Response, int]:
    return jsonify({"error": message, "field": field, **extra}), status


def api_error(error: ApiError) -> tuple[Response, int]:
    return error_response(error.status, str(error), error.field, **error.extra)


def json_body(allowed: frozenset[str] | set[str]) -> Mapping[str, Any]:
    """The request's JSON object, with no field outside ``allowed``."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # silent covers malformed JSON only, not JSON nested past Python's limit
        raise ApiError(400, "the request body is nested too deeply") from None
    if not request.is_json:
        raise ApiError(400, "send a JSON object with Content-Type: application/json")
    if not isinstance(data, dict):
        raise ApiError(400, "the request body must be a JSON object")
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ApiError(400, f"unknown field {unknown[0]!r} (expected {', '.join(sorted(allowed)) or 'none'})",
                       unknown[0])
    return data


def image_body(limit: int, max_pixels: int | None = None) -> Any:
    """The body as a decoded image (at most ``limit`` bytes, and ``max_pixels``
    when given), or a 400 saying why not (nothing changes)."""
    return decoded_image(image_bytes(limit), max_pixels)


def image_bytes(limit: int) -> bytes:
    """The body as sent, when it is declared an image of at most ``limit`` bytes."""
    if request.mimetype not in IMAGE_TYPES:
        raise ApiError(400, "send the image itself as the body, with Content-Type image/jpeg or image/png")
    return body_bytes(limit, "the image")


def body_bytes(limit: int, what: str) -> bytes:
    """The request body, or a 413 once it passes ``limit`` bytes, however it
    is sent: a chunked body declares no length, and is counted as it comes."""
    too_large = ApiError(413, f"{what} is larger than the limit of {limit / 1024 / 1024:g} MB")
    if request.content_length is not None and request.content_length > limit:
        raise too_large
    stream, chunks, size = request.stream, [], 0
    while piece := stream.read(min(UPLOAD_PIECE_BYTES, limit + 1 - size)):
        chunks.append(piece)
        size += len(piece)
        if size > limit:
            raise too_large
    return b"".join(chunks)


def decoded_image(data: bytes, max_pixels: int | None = None) -> Any:
    """``data`` decoded, reduced to the recogniser's working size, after
    waiting for a turn when it is a large picture."""
    from vision.recognize.imagefile import MAX_PIXELS, WORK_PIXELS, ImageFileError, declared_size, decode_image

    try:
        width, height = declared_size(data)
    except ImageFileError:
        width = height = 0  # decode_image says why, in the same words as everywhere else
    if width * height > LARGE_IMAGE_PIXELS:
        _take_large_image_turn()
    try:
        return decode_image(data, max_pixels or MAX_PIXELS, WORK_PIXELS)
    except ImageFileError as error:
        raise ApiError(400, f"not a usable image: {error}") from None


def _take_large_image_turn() -> None:
    """Wait for the turn to read a large picture; it is kept until the request ends."""
    if g.get("large_image_turn"):
        return
    if not LARGE_IMAGE_TURNS.acquire(timeout=LARGE_IMAGE_WAIT_SECONDS):
        raise ApiError(503, "busy reading other large pictures: try again in a moment")
    g.large_image_turn = True


def _end_large_image_turn(_error: BaseException | None = None) -> None:
    if g.pop("large_image_turn", False):
        LARGE_IMAGE_TURNS.release()


def or_404(function: Any, *args: Any) -> Any:
    """``function(*args)``, with an unknown game as a 404 and a game of
    another kind than the one asked for as a 400."""
    try:
        return function(*args)
    except storage.GameNotFound as missing:
        raise ApiError(404, str(missing)) from None
    except storage.WrongKind as other:
        raise ApiError(400, str(other)) from None


def is_json_request() -> bool:
    """Whether the request is for a JSON endpoint (the API and the camera's
    part of it, and each game's moves, whose blueprints are named ``<game>_api``):
    those answer JSON errors and are not forms with a CSRF token."""
    blueprint = request.blueprint or ""
    return blueprint in JSON_BLUEPRINTS or blueprint.endswith("_api")


def init_app(app: Flask) -> None:
    app.register_error_handler(ApiError, api_error)
    app.teardown_request(_end_large_image_turn)
