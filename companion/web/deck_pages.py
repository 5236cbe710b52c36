"""The pages of the decks the camera knows: **Your cards** (one game's
decks, the one its camera uses, a new deck; ``?game=maus`` for Maus au
Chocolat's) and teaching one deck from the tablet.

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

from ..decks.games import GAMES, MAMMA_MIA, DeckGame
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
    return _index(_game(request.args.get("game")))


@bp.post("")
def create() -> Any:
    game = _game(request.form.get("game"))
    name, doubles = request.form.get("name", ""), request.form.get("doubles") == "on"
    try:
        deck = deck_store().create(name, doubles, game.id)
    except BadName:
        return _index(game, _("cards.err_name", n=MAX_NAME), name, doubles), 400
    return redirect(url_for("cards.teach", deck_id=deck.id), 303)


@bp.post("/<deck_id>/activate")
def use(deck_id: str) -> Any:
    game = deck_store().get(deck_id).game
    try:
        activate(deck_id)
    except Incomplete as incomplete:
        return _index(game, _("cards.err_incomplete", n=incomplete.missing)), 409
    return redirect(_index_url(game), 303)


@bp.get("/<deck_id>/teach")
def teach(deck_id: str) -> str:
    deck = deck_store().get(deck_id)
    if not deck.editable:
        abort(404, _("cards.err_read_only", name=deck.name))
    return render_template("teach.html", deck=detail_json(deck), catalog=i18n.catalog(i18n.current_language()),
                           cards_url=_index_url(deck.game))


def _index(game: DeckGame, error: str | None = None, name: str = "", doubles: bool = True) -> str:
    decks = [summary_json(deck) for deck in deck_store().decks(game)]
    games = [(other.id, _index_url(other)) for other in GAMES.values()]
    return render_template("cards.html", decks=decks, error=error, name=name, doubles=doubles, max_name=MAX_NAME,
                           game=game.id, games=games, maus_total=GAMES["maus"].total())


def _game(value: str | None) -> DeckGame:
    """The game a page is about: Mamma Mia! unless it names another (an unknown one is not found)."""
    if value in (None, "", MAMMA_MIA):
        return GAMES[MAMMA_MIA]
    if value not in GAMES:
        abort(404)
    return GAMES[value]


def _index_url(game: DeckGame) -> str:
    return url_for("cards.index") if game.id == MAMMA_MIA else url_for("cards.index", game=game.id)
