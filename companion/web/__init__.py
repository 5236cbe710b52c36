"""The table web app: a Flask application factory.

>>> app = create_app({"DATABASE": ":memory:", "SECRET_KEY": "test"})
>>> app.url_map.bind("").match("/api/games/3", "GET")
('api.game', {'game_id': 3})

Configuration: ``DATABASE`` (default ``instance/mamma-mia.sqlite``),
``MAX_CONTENT_LENGTH`` (uploads: photos and video files; camera frames have
their own smaller limit), ``DECK_DIR`` (a deck folder the camera recognises,
listed read-only and active from the start; without it, the deck last made
active, see :mod:`.recognition`), ``CAMERA_MAX_FPS`` (frames a second one
device may send, default 20),
``SECRET_KEY`` (default: a random key kept in ``instance/secret_key``),
``LIVE_STREAMS`` (live connections open at once, see :mod:`.live`),
``TABLE_CODE`` (set by ``serve`` when bound beyond loopback: other devices
must type it before changing anything, see :mod:`.access`);
``instance/config.py`` may set any of them.

The instance folder (database, secret key, HTTPS certificate, ``config.py``,
the decks taught in the app)
is the one the ``MAMMA_MIA_INSTANCE`` environment variable names (a relative
path is taken from the current folder); without it, Flask's default: the
``instance`` folder beside the source in a checkout, or
``<sys.prefix>/var/companion.web-instance`` for an installed package.

Templates and static files are the top-level ``templates/`` and ``static/``
folders, found through :mod:`companion.assets` in the source tree and in an
installed wheel alike.
"""
from __future__ import annotations

import os
import secrets
from typing import Any, Mapping

from flask import Flask, current_app, render_template, request
from werkzeug.exceptions import HTTPException
from werkzeug.routing import IntegerConverter

from ..assets import STATIC, TEMPLATES

MAX_UPLOAD_BYTES = 16 * 1024 * 1024  # a phone photo or a short video clip
STATIC_MAX_AGE_SECONDS = 24 * 3600


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True, instance_path=_instance_path(),
                template_folder=str(TEMPLATES), static_folder=str(STATIC))
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "mamma-mia.sqlite"),
        MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES,
        SECRET_KEY=None,
        SESSION_COOKIE_SAMESITE="Lax",  # the session (table code, CSRF token) stays on this site
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = _instance_secret(app.instance_path)

    from . import access, api, camera, db, deck_pages, decks, i18n, jsonapi, live, pages
    from .kinds import all_kinds

    app.url_map.converters["game"] = GameIdConverter

    database = app.config["DATABASE"]
    if database != ":memory:":
        os.makedirs(os.path.dirname(os.path.abspath(database)), exist_ok=True)
        db.init_db(database)  # a first start (or `make run`) needs no separate init step
    db.init_app(app)
    access.init_app(app)
    i18n.init_app(app)
    jsonapi.init_app(app)
    app.register_blueprint(api.bp)
    live.init_app(app)
    app.register_blueprint(camera.bp)
    app.register_blueprint(decks.bp)
    app.register_blueprint(pages.bp)
    for game_kind in all_kinds():  # each game's own pages and moves
        for blueprint in game_kind.blueprints():
            app.register_blueprint(blueprint)
    app.register_blueprint(deck_pages.bp)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(access.CsrfError, _csrf_error)
    _cache_static(app)
    return app


class GameIdConverter(IntegerConverter):
    """``<game:game_id>``: a game id SQLite can hold (1 .. 2**63 - 1); a
    larger number is an unknown address (404), not an overflow (500).

    >>> app = create_app({"DATABASE": ":memory:", "SECRET_KEY": "test"})
    >>> app.test_client().get("/api/games/9223372036854775808").status_code
    404
    """

    def __init__(self, map: Any) -> None:
        super().__init__(map, min=1, max=2**63 - 1)


def _cache_static(app: Flask) -> None:
    """Scripts and styles are cached for a day under an address that names
    their version (``?v=`` the file's modification time): a page load asks for
    none of them again, and an update is fetched at once."""
    if app.config.get("SEND_FILE_MAX_AGE_DEFAULT") is None:  # Flask's default: ask again on every load
        app.config["SEND_FILE_MAX_AGE_DEFAULT"] = STATIC_MAX_AGE_SECONDS

    @app.url_defaults
    def _static_version(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            path = os.path.join(app.static_folder or "", values["filename"])
            try:
                values["v"] = int(os.stat(path).st_mtime)
            except OSError:
                pass  # a missing file is a 404 as before


def _http_error(error: HTTPException) -> Any:
    """JSON for the API (unknown address, wrong method, upload too large);
    a page in the visitor's language elsewhere."""
    if error.code is None or error.code < 400:  # not an error: let it through as is
        return error
    if not request.path.startswith("/api"):
        return render_template("error.html", error=error), error.code or 500
    from .jsonapi import error_response

    if error.code == 413:
        limit = current_app.config["MAX_CONTENT_LENGTH"]
        return error_response(413, f"the upload is larger than the limit of {limit / 1024 / 1024:g} MB")
    return error_response(error.code or 500, error.description or error.name)


def _csrf_error(error: Exception) -> Any:
    from .i18n import gettext

    return render_template("error.html", error=None, message=gettext("err.csrf")), 400


def _instance_path() -> str | None:
    """The folder MAMMA_MIA_INSTANCE names, absolute as Flask wants it; None leaves Flask's default."""
    folder = os.environ.get("MAMMA_MIA_INSTANCE")
    return os.path.abspath(os.path.expanduser(folder)) if folder else None


def _instance_secret(instance_path: str) -> str:
    """A random secret kept across restarts, so sessions survive them."""
    os.makedirs(instance_path, exist_ok=True)
    path = os.path.join(instance_path, "secret_key")
    if not os.path.exists(path):
        with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as handle:
            handle.write(secrets.token_hex(32))
    with open(path, encoding="utf-8") as handle:
        return handle.read().strip()
