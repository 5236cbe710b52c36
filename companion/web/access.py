"""Who may change a game: the table code and CSRF tokens.

*Table code.* When ``serve`` binds beyond loopback it sets ``TABLE_CODE``;
then a device on the network must type that code (shown on the host's console
and on pages opened on the host itself) before any write. The grant lives in
the device's signed session cookie. Requests from loopback are the host's own
screen and are trusted. Without ``TABLE_CODE`` (loopback-only) nobody else can
connect, so no code is asked.

*Host names.* A request is answered only when addressed to this server by an
IP address, ``localhost``, the computer's own name or a name in
``ALLOWED_HOSTS``: a web page that points a name of its own at this computer
(DNS rebinding) reaches the server from loopback, and must not borrow the
host's trust, see its table code or write. Writes whose ``Origin`` is another
site are refused as well.

*CSRF.* HTML forms carry a token bound to the session and checked on every
form POST. The JSON API needs none: it reads only ``application/json`` bodies,
which another site's page cannot send here without a CORS preflight we never
grant.
"""
from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, current_app, has_app_context, redirect, request, session, url_for

from .jsonapi import error_response, is_json_request
from .throttle import AttemptLimiter

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
    """The request comes from the host computer itself, addressed to this
    server by a name only it can have (see :func:`host_allowed`)."""
    address = request.remote_addr or ""
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback and host_allowed(request.host)
    except ValueError:
        return False


def host_allowed(host: str) -> bool:
    """Whether ``host`` (a Host header) names this server: an IP address,
    ``localhost``, this computer's own names, or a name in the
    ``ALLOWED_HOSTS`` setting. Any other name is a page that made its own
    name point here (DNS rebinding) to borrow the host's trust.

    >>> host_allowed("192.168.1.20:5000"), host_allowed("[::1]:5000"), host_allowed("attacker.example")
    (True, True, False)
    """
    name = _host_name(host)
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    extra = current_app.config.get("ALLOWED_HOSTS", ()) if has_app_context() else ()
    return name in own_names() or name in {n.lower() for n in extra}


def _host_name(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


@lru_cache(maxsize=1)
def own_names() -> frozenset[str]:
    """``localhost`` and this computer's names, as a phone on the network may
    know it (``NAME`` and ``NAME.local``)."""
    names = {"localhost"}
    for name in (socket.gethostname(), socket.getfqdn()):
        if name:
            names |= {name.lower(), name.lower().split(".")[0] + ".local"}
    return frozenset(names)


def same_origin() -> bool:
    """A write's ``Origin`` (when the browser sends one) is this server: a page
    of another site may not post here, even a form it copied a token into."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:  # not even an address (``http://[::1``, a bracket left open): not this server
        return False
    return netloc.lower() == request.host.lower()


def table_code() -> str | None:
    return current_app.config.get("TABLE_CODE") or None


def may_write() -> bool:
    code = table_code()
    if code is None or from_loopback():
        return True
    return hmac.compare_digest(str(session.get("table_code", "")), code)


def grant(code: str) -> bool:
    """Remember the device if ``code`` is the table code; a wrong one counts
    against the device and its address (see :func:`code_wait`)."""
    expected = table_code()
    if expected is None or hmac.compare_digest(code.strip().replace(" ", ""), expected):
        session["table_code"] = expected or ""
        _limiter().succeeded(*_guesser())
        return True
    _limiter().failed(*_guesser())
    return False


def code_wait() -> float:
    """Seconds this device must wait before its next try of the table code."""
    return _limiter().wait(*_guesser())


def _limiter() -> AttemptLimiter:
    return current_app.extensions.setdefault("table_code_attempts", AttemptLimiter())


def _guesser() -> tuple[tuple[str, str], tuple[str, str]]:
    """The keys a wrong code counts against: the network address, and the
    device (its session; a guesser dropping cookies is still one address)."""
    device = session.setdefault("device", secrets.token_urlsafe(12))
    return ("address", request.remote_addr or ""), ("device", device)


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


class ForeignHost(Exception):
    """A request addressed to a name that is not this server's."""


def _check_host() -> None:
    if not host_allowed(request.host):
        raise ForeignHost()


def _check_write() -> Any:
    # an address no route matches is answered 404 (or 405) by Flask after this hook:
    # it changes nothing, so it needs neither a token nor the code
    if request.method not in WRITE_METHODS or request.url_rule is None:
        return None
    api = is_json_request()
    if not same_origin():
        return error_response(403, "writes come only from this table's own pages", "origin")
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
    app.config.setdefault("ALLOWED_HOSTS", ())
    app.before_request(_check_host)
    app.before_request(_check_write)
    app.register_error_handler(ForeignHost, _foreign_host)


def _foreign_host(error: ForeignHost) -> tuple[Any, int]:
    return error_response(400, "this server does not answer to that host name; open it by the address "
                               "`mamma-mia serve` printed", "host")
