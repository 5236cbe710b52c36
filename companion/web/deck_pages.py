"""The pages of the decks the camera knows: **Your cards** (every deck, the
one the camera uses, a new deck) and teaching one deck from the tablet.

Creating a deck and making one the camera's are plain form posts
(CSRF-checked and, from another device, needing the table code, in
:mod:`.access`) calling what the JSON API calls. The teaching page is drawn
by ``static/teach.js`` from the deck's DETAIL, embedded in the page and then
kept current through ``/api/decks``.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for

from vision.recognize.decks import DeckError

from ..decks.store import MAX_NAME, BadName, DeckStoreError, Incomplete, UnknownDeck
from . import i18n
from .decks import detail_json, summary_json
from .i18n import gettext as _
from .recognition import activate, deck_store

bp = Blueprint("cards", __name__, url_prefix="/cards")


@bp.errorhandler(UnknownDeck)
def unknown(error: UnknownDeck) -> Any:
    return render_template("error.html", error=None, message=_("cards.err_unknown")), 404


@bp.errorhandler(DeckStoreError)
@bp.errorhandler(DeckError)
def refused(error: Exception) -> Any:
    """A deck whose files cannot be read, or a change the store refuses for a reason not foreseen here."""
    return render_template("error.html", error=None, message=_("err.refused", reason=str(error))), 409


@bp.get("")
def index() -> str:
    return _index()


@bp.post("")
def create() -> Any:
    name, doubles = request.form.get("name", ""), request.form.get("doubles") == "on"
    try:
        deck = deck_store().create(name, doubles)
    except BadName:
        return _index(_("cards.err_name", n=MAX_NAME), name, doubles), 400
    return redirect(url_for("cards.teach", deck_id=deck.id), 303)


@bp.post("/<deck_id>/activate")
def use(deck_id: str) -> Any:
    try:
        activate(deck_id)
    except Incomplete as incomplete:
        return _index(_("cards.err_incomplete", n=incomplete.missing)), 409
    return redirect(url_for("cards.index"), 303)


@bp.get("/<deck_id>/teach")
def teach(deck_id: str) -> str:
    deck = deck_store().get(deck_id)
    if not deck.editable:
        abort(404, _("cards.err_read_only", name=deck.name))
    return render_template("teach.html", deck=detail_json(deck), catalog=i18n.catalog(i18n.current_language()))


def _index(error: str | None = None, name: str = "", doubles: bool = True) -> str:
    store = deck_store()
    decks = [summary_json(deck, store.active_id) for deck in store.decks()]
    return render_template("cards.html", decks=decks, error=error, name=name, doubles=doubles, max_name=MAX_NAME)
