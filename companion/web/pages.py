"""The HTML pages every game shares: the games list, a game's round page
and scores page (drawn by the game's kind), the table code and the language.

The round page is drawn by the game's script from the same state the JSON
API sends (embedded in the page so it shows at once, then kept current through
the API). The other pages are plain server-rendered HTML; the forms that
change data here are the home page's archive, bring back and delete buttons
(CSRF-checked in :mod:`.access`); each game adds its own set-up pages
(:meth:`.kinds.GameKind.blueprints`).
"""
from __future__ import annotations

import math
from typing import Any

from flask import Blueprint, Response, abort, current_app, make_response, redirect, render_template, request, url_for

from . import access, i18n, live, storage
from .chart import scores_chart
from .db import get_db
from .i18n import gettext as _
from .joining import NETWORK_COMMAND, joining
from .kinds import all_kinds
from .present import game_json, summary_json

bp = Blueprint("pages", __name__)

@bp.app_context_processor
def _globals() -> dict[str, Any]:
    return {
        "csrf_token": access.csrf_token,
        "show_code": access.table_code() if access.from_loopback() else None,
        "may_write": access.may_write(),
        "kinds": all_kinds(),
        "line_templates": {k.name: k.line_template for k in all_kinds()},
    }


@bp.get("/")
def home() -> str:
    games = [summary_json(g) for g in storage.list_games(get_db())]
    archived = request.args.get("archived", type=int)
    # how tablets and phones join: said on the host's own screen, where it is needed
    join = joining(current_app.config) if access.from_loopback() else None
    return render_template("home.html", games=[g for g in games if not g["archived_at"]],
                           archived=[g for g in games if g["archived_at"]],
                           just_archived=archived if any(g["id"] == archived for g in games) else None,
                           join=join, network_command=NETWORK_COMMAND)


@bp.post("/games/<game:game_id>/archive")
def archive(game_id: int) -> Response:
    change_game(storage.set_archived, game_id, True)
    return redirect(url_for("pages.home", archived=game_id), 303)


@bp.post("/games/<game:game_id>/restore")
def restore(game_id: int) -> Response:
    change_game(storage.set_archived, game_id, False)
    return redirect(url_for("pages.home"), 303)


@bp.route("/games/<game:game_id>/delete", methods=["GET", "POST"])
def delete(game_id: int) -> Any:
    """GET asks first (a deleted game cannot come back); POST deletes."""
    if request.method == "POST":
        change_game(storage.delete_game, game_id)
        live.changed()  # a page still open on it says it is gone
        return redirect(url_for("pages.home"), 303)
    listed = next((g for g in storage.list_games(get_db()) if g.id == game_id), None)
    if listed is None:
        abort(404, _("err.not_found", id=game_id))
    return render_template("delete_game.html", game=summary_json(listed))


@bp.get("/games/<game:game_id>")
def game(game_id: int) -> Any:
    stored = load_page_game(game_id)
    state = game_json(stored)
    return render_template(stored.game_kind.page_template, state=state,
                           catalog=i18n.catalog(i18n.current_language()))


@bp.get("/games/<game:game_id>/scores")
def scores(game_id: int) -> str:
    stored = load_page_game(game_id)
    state = game_json(stored)
    return render_template(stored.game_kind.scores_template, state=state,
                           chart=scores_chart(stored.game_kind.chart(state), _))


@bp.route("/join", methods=["GET", "POST"])
def join() -> Any:
    target = _local_path(request.values.get("next", "/"))
    if request.method == "POST":
        wait = access.code_wait()
        if wait > 0:
            return render_template("join.html", target=target, error=_("code.wait", seconds=math.ceil(wait))), 429
        if access.grant(request.form.get("code", "")):
            return redirect(target, 303)
        return render_template("join.html", target=target, error=_("code.wrong")), 400
    return render_template("join.html", target=target, error=None)


@bp.post("/lang")
def set_language() -> Response:
    lang = request.form.get("lang", "")
    response = make_response(redirect(_local_path(request.form.get("next", "/")), 303))
    if lang in i18n.LANGUAGES:
        response.set_cookie(i18n.COOKIE, lang, max_age=i18n.COOKIE_MAX_AGE, samesite="Lax")
    return response


def change_game(change: Any, game_id: int, *args: Any) -> None:
    """``change(db, game_id, *args)``, with an unknown game as a 404 page."""
    try:
        change(get_db(), game_id, *args)
    except storage.GameNotFound:
        abort(404, _("err.not_found", id=game_id))


def load_page_game(game_id: int) -> storage.StoredGame:
    try:
        return storage.load_game(get_db(), game_id)
    except storage.GameNotFound:
        abort(404, _("err.not_found", id=game_id))


def _local_path(target: str) -> str:
    """Only paths on this site: a ``next`` must not send anyone elsewhere.
    Browsers drop tabs and line breaks from an address, so ``/\t/evil`` would
    become ``//evil``: any space or control character makes it the home page.

    >>> _local_path("/games/3"), _local_path("/\t/evil.example"), _local_path("//evil.example")
    ('/games/3', '/', '/')
    """
    if not target.startswith("/") or target.startswith("//") or "\\" in target \
            or any(ch.isspace() or not ch.isprintable() for ch in target):
        return "/"
    return target
