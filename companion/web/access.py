"""Who may change a game: the table code and CSRF tokens.

*Table code.* When ``serve`` binds beyond loopback it sets ``TABLE_CODE``;
then a device on the network must type that code (shown on the host's console
and on pages opened on the host itself) before any write. The grant lives in
the device's signed session cookie. Requests from loopback are the host's own
screen and are trusted. Without ``TABLE_CODE`` (loopback-only) nobody else can
connect, so no code is asked.

*CSRF.* HTML forms carry a token bound to the session and checked on every
form POST. The JSON API needs none: it reads only ``application/json`` bodies,
which another site's page cannot send here without a CORS preflight we never
grant.
"""
from __future__ import annotations

import hmac
import ipaddress
import secrets
from typing import Any

from flask import Flask, current_app, redirect, request, session, url_for

from .jsonapi import error_response, is_json_request

CODE_DIGITS = 6
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# form posts that change no game: choosing a language, typing the table code
CODE_FREE_ENDPOINTS = frozenset({"pages.join", "pages.set_language"})


def new_table_code() -> str:
    """Six digits: easy to type on a phone keypad, enough for a living room."""
    return "".join(secrets.choice("0123456789") for _ in range(CODE_DIGITS))


def is_loopback_host(host: str) -> bool:
    """``serve --host`` values that only this computer can reach.

    >>> is_loopback_host("127.0.0.1"), is_loopback_host("localhost"), is_loopback_host("0.0.0.0")
    (True, True, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def from_loopback() -> bool:
    """The request comes from the host computer itself."""
    address = request.remote_addr or ""
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


def table_code() -> str | None:
    return current_app.config.get("TABLE_CODE") or None


def may_write() -> bool:
    code = table_code()
    if code is None or from_loopback():
        return True
    return hmac.compare_digest(str(session.get("table_code", "")), code)


def grant(code: str) -> bool:
    """Remember the device if ``code`` is the table code."""
    expected = table_code()
    if expected is None or hmac.compare_digest(code.strip().replace(" ", ""), expected):
        session["table_code"] = expected or ""
        return True
    return False


def csrf_token() -> str:
    """The session's form token, made on first use."""
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def csrf_valid() -> bool:
    sent = request.form.get("csrf_token", "")
    expected = session.get("csrf", "")
    return bool(expected) and hmac.compare_digest(sent, expected)


class CsrfError(Exception):
    """A form posted without this session's token (expired page or another site)."""


def _check_write() -> Any:
    # an address no route matches is answered 404 (or 405) by Flask after this hook:
    # it changes nothing, so it needs neither a token nor the code
    if request.method not in WRITE_METHODS or request.url_rule is None:
        return None
    api = is_json_request()
    if not api and not csrf_valid():
        raise CsrfError()
    if request.endpoint in CODE_FREE_ENDPOINTS or may_write():
        return None
    if api:
        from .i18n import gettext

        return error_response(403, gettext("code.required_api"), "table_code")
    return redirect(url_for("pages.join", next=request.path))


def init_app(app: Flask) -> None:
    app.config.setdefault("TABLE_CODE", None)
    app.before_request(_check_write)
