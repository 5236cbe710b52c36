"""The games the table app knows, each behind one small interface.

What every game shares (the list of games, the event log and undo, exports,
the scores chart, languages, the table code, live updates) knows a game only
through its :class:`GameKind`: how to read its events back, replay them,
apply one more, summarise it for the list, show it as JSON and as CSV, and
which pages draw it. A game's own rules engine, blueprints and templates
live in its package (``companion/web/mammamia``, ``companion/web/maus``);
adding a game is a new package and one line in :data:`KIND_MODULES`.

>>> kind("maus").title_key, kind("mamma-mia").name
('game.maus', 'mamma-mia')
>>> kind("chess")
Traceback (most recent call last):
...
companion.web.kinds.UnknownKind: there is no game called 'chess'
"""
from __future__ import annotations

import importlib
from typing import Any, ClassVar, Iterable, Mapping, Sequence

from flask import Blueprint

JSON = dict[str, Any]

# the kind name stored in ``games.kind`` -> the module whose ``KIND`` it is
KIND_MODULES: dict[str, str] = {
    "mamma-mia": "companion.web.mammamia.kind",
    "maus": "companion.web.maus.kind",
}


class UnknownKind(LookupError):
    def __init__(self, name: str) -> None:
        super().__init__(f"there is no game called {name!r}")


class GameKind:
    """What the shared parts need of one game. A subclass sets the class
    attributes and overrides the methods; every method is pure (no I/O)."""

    name: ClassVar[str]                     # stored in games.kind, part of export file names
    title_key: ClassVar[str]                # the game's name in the catalogs
    page_template: ClassVar[str]            # the round page: gets ``state`` and ``catalog``
    scores_template: ClassVar[str]          # the scores page: gets ``state`` and ``chart``
    line_template: ClassVar[str]            # one entry of the home page's list: gets ``entry``
    start_template: ClassVar[str]           # the home page's buttons that start one
    refusals: ClassVar[tuple[type[Exception], ...]]  # the engine's "no", a 400 for the API
    csv_columns: ClassVar[Sequence[str]]
    actions: ClassVar[frozenset[str]]       # the moves its API adds under /api/games/<id>/

    def starts(self, event: Any) -> bool:
        """Whether ``event`` sets up a game of this kind."""
        raise NotImplementedError

    def owns(self, event: Any) -> bool:
        """Whether ``event`` is one of this game's events."""
        raise NotImplementedError

    def event_from_json(self, type_: str, payload: Mapping[str, Any]) -> Any:
        """An event read back from the log, an ``undo`` among them (its own
        event class, or :class:`Undo`, whose ``type`` is ``"undo"``)."""
        raise NotImplementedError

    def replay(self, events: Sequence[Any]) -> Any:
        """The game from its events in effect, the set-up first."""
        raise NotImplementedError

    def apply(self, game: Any, event: Any) -> None:
        """Check and apply one event, or raise one of :attr:`refusals`."""
        raise NotImplementedError

    def summary(self, game: Any) -> JSON:
        """What the list of games shows: JSON kept beside the log."""
        raise NotImplementedError

    def state(self, game: Any) -> JSON:
        """Everything the game's pages draw, as the API sends it."""
        raise NotImplementedError

    def refusal_text(self, refused: Exception) -> str:
        """A refusal in the request's language where the catalogs have its words."""
        return str(refused)

    def refusal_field(self, refused: Exception, field: str | None) -> str | None:
        """The request field a refusal points at (``field``: the action's own)."""
        return field

    def csv_rows(self, game_id: int, game: Any) -> Iterable[Mapping[str, Any]]:
        raise NotImplementedError

    def chart(self, state: JSON) -> JSON:
        """The scores chart's data: ``{"values": [[per round] per player],
        "players": [{"name", "fill"}], "line": a target or None}``."""
        raise NotImplementedError

    def blueprints(self) -> list[Blueprint]:
        """The game's own pages and API actions."""
        return []


def kind(name: str) -> GameKind:
    module = KIND_MODULES.get(name)
    if module is None:
        raise UnknownKind(name)
    return importlib.import_module(module).KIND


def all_kinds() -> list[GameKind]:
    return [kind(name) for name in KIND_MODULES]


def kind_starting(event: Any) -> GameKind:
    """The kind of game ``event`` sets up."""
    for candidate in all_kinds():
        if candidate.starts(event):
            return candidate
    raise UnknownKind(type(event).__name__)


class Undo:
    """Takes back the last event still in effect, whichever the game: undo
    belongs to the shared log, not to a game's rules (see :mod:`.storage`)."""

    type: ClassVar[str] = "undo"

    def payload(self) -> JSON:
        return {}

    def __eq__(self, other: object) -> bool:
        return getattr(other, "type", None) == "undo"

    def __hash__(self) -> int:
        return hash(self.type)

    def __repr__(self) -> str:
        return "Undo()"
