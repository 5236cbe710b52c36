"""What every JSON endpoint shares: refusals as ``{"error", "field"}`` with
their status, the request's JSON body checked against its fields, and an
unknown game as a 404. :func:`init_app` makes every :class:`ApiError` such an
answer, whichever blueprint raised it."""
from __future__ import annotations

from typing import Any, Mapping

from flask import Flask, Response, jsonify, request

from . import storage

JSON_BLUEPRINTS = frozenset({"api", "camera"})


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


def or_404(function: Any, *args: Any) -> Any:
    """``function(*args)``, with an unknown game as a 404."""
    try:
        return function(*args)
    except storage.GameNotFound as missing:
        raise ApiError(404, str(missing)) from None


def is_json_request() -> bool:
    """Whether the request is for a JSON endpoint (the API and the camera's
    part of it): those answer JSON errors and are not forms with a CSRF token."""
    return request.blueprint in JSON_BLUEPRINTS


def init_app(app: Flask) -> None:
    app.register_error_handler(ApiError, api_error)
