"""The interface in six languages, without a build step.

Each language is one JSON catalog in ``catalogs/`` mapping a key to a
``str.format`` template (``"Round {round} of {rounds}"``). Pages call
``_("key", ...)``; the round page's script gets the whole catalog of the
page's language. Ingredient and pizza names follow the rule sheets of each
language (German: the names on German-language packs).

A message that takes a count is an object of forms, one per CLDR plural
category of the language, and names the placeholder that chooses
(``"count"``, or ``"ordinal"`` for ordinal categories)::

    "setup.remove": {"count": "n",
                     "one": "Put {n} card of each ingredient back in the box.",
                     "other": "Put {n} cards of each ingredient back in the box."}

Czech adds ``few`` (2–4 karty) to ``one`` and ``other``; French counts 0 as
``one``. A placeholder written ``{n:nth}`` (or ``{n:nth_f}``, feminine where
the language inflects it) is the ordinal of ``n`` as the catalog's
``num.nth`` says it: 11th, 11e, 11.ª, 11.

>>> translate("cs", "setup.remove", n=2)
'Od každé přísady vraťte do krabičky 2 karty.'
>>> [translate(lang, "num.nth_f", n=1) for lang in ("en", "fr", "es", "nl", "cs")]
['1st', '1re', '1.ª', '1e', '1.']

The categories come from Babel, which carries the Unicode CLDR plural rules:
the same rules the browsers' ``Intl.PluralRules`` apply on the round page, so
a message reads alike whichever side fills it. A table of our own would have
to follow CLDR's edge cases (French 0, Spanish and French millions) by hand.

The language is the ``lang`` cookie when set (the selector in the header),
otherwise the browser's Accept-Language, otherwise English. A key missing
from a catalog falls back to English, and a test keeps every catalog complete;
another checks them against each language's glossary (``catalogs/glossary/``).
"""
from __future__ import annotations

import json
import string
from functools import lru_cache
from importlib import resources
from typing import Any

from babel import Locale
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
# a catalog entry: a template, or one template per plural category
Message = str | dict[str, str]
ORDINAL_SPECS = frozenset({"nth", "nth_f"})  # {n:nth} -> catalog key num.nth
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict[str, Message]:
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
    """``key`` in ``lang``: the form that fits its count, ``{placeholders}`` filled."""
    message = catalog(lang).get(key) or catalog(DEFAULT).get(key) or key
    template = message if isinstance(message, str) else choose_form(lang, message, values)
    return _Filler(lang).vformat(template, (), values) if values else template


def choose_form(lang: str, forms: dict[str, str], values: dict[str, Any]) -> str:
    """The form of a counted message that fits its count in ``lang``.

    >>> forms = {"count": "n", "one": "{n} karta", "few": "{n} karty", "other": "{n} karet"}
    >>> [choose_form("cs", forms, {"n": n}) for n in (1, 3, 5)]
    ['{n} karta', '{n} karty', '{n} karet']
    """
    return forms.get(plural_category(lang, values, forms), forms["other"])


def plural_category(lang: str, values: dict[str, Any], forms: dict[str, str]) -> str:
    """The CLDR category (``one``, ``few``, ``other``…) of the count ``forms`` names."""
    rules = _locale(lang)
    if "ordinal" in forms:
        return rules.ordinal_form(values[forms["ordinal"]])
    return rules.plural_form(values[forms["count"]])


@lru_cache(maxsize=None)
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


class _Filler(string.Formatter):
    """``str.format`` with one more format spec: ``{n:nth}`` says ``n`` as an ordinal."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec in ORDINAL_SPECS:
            return translate(self.lang, f"num.{format_spec}", n=value)
        return super().format_field(value, format_spec)


def gettext(key: str, **values: Any) -> str:
    """``key`` in the request's language, with ``{placeholders}`` filled."""
    return translate(current_language(), key, **values)


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(_=gettext, LANGUAGES=LANGUAGES)
    app.context_processor(lambda: {"lang": current_language()})
