"""The interface in six languages, without a build step.

Each language is one JSON catalog in ``catalogs/`` mapping a key to a
``str.format`` template (``"Round {round} of {rounds}"``). Pages call
``_("key", ...)``; the round page's script gets the whole catalog of the
page's language. Ingredient and pizza names follow the rule sheets of each
language (German: the names on German-language packs).

The language is the ``lang`` cookie when set (the selector in the header),
otherwise the browser's Accept-Language, otherwise English. A key missing
from a catalog falls back to English, and a test keeps every catalog complete.
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from flask import Flask, g, has_request_context, request

DEFAULT = "en"
# shown in their own language in the selector, so anyone can find theirs
LANGUAGES: dict[str, str] = {
    "en": "English",
    "nl": "Nederlands",
    "fr": "Français",
    "es": "Español",
    "cs": "Čeština",
    "de": "Deutsch",
}
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict[str, str]:
    """The catalog of one language (read once per process)."""
    text = resources.files("companion.web").joinpath("catalogs", f"{lang}.json").read_text("utf-8")
    return json.loads(text)


def choose_language() -> str:
    """This request's language: the cookie, else the browser's preference."""
    chosen = request.cookies.get(COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES), default=DEFAULT) or DEFAULT


def current_language() -> str:
    if not has_request_context():
        return DEFAULT
    if "lang" not in g:
        g.lang = choose_language()
    return g.lang


def translate(lang: str, key: str, **values: Any) -> str:
    template = catalog(lang).get(key) or catalog(DEFAULT).get(key) or key
    return template.format(**values) if values else template


def gettext(key: str, **values: Any) -> str:
    """``key`` in the request's language, with ``{placeholders}`` filled."""
    return translate(current_language(), key, **values)


def ingredient_name(name: str) -> str:
    return gettext(f"ing.{name}")


def color_name(name: str) -> str:
    return gettext(f"color.{name}")


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(_=gettext, ingredient_name=ingredient_name, color_name=color_name,
                                 LANGUAGES=LANGUAGES)
    app.context_processor(lambda: {"lang": current_language()})
