"""The six catalogs: complete, well-formed, and chosen from cookie or browser."""
from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from companion.assets import STATIC, TEMPLATES
from companion.web.i18n import DEFAULT, LANGUAGES, catalog, translate

WEB = Path(__file__).resolve().parents[2] / "companion" / "web"  # the Python that names keys


def placeholders(message: str | dict[str, str]) -> set[str]:
    """The values a message fills, in any of its forms (a counted message has several)."""
    forms = [t for k, t in message.items() if k not in ("count", "ordinal")] if isinstance(message, dict) else [message]
    return {name for text in forms for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_catalog_has_every_key_with_the_same_placeholders(lang):
    english, other = catalog(DEFAULT), catalog(lang)
    assert set(other) == set(english)
    for key, text in english.items():
        assert other[key], key
        assert placeholders(other[key]) == placeholders(text), (lang, key)


def test_every_key_the_pages_and_scripts_use_exists():
    # every game's templates and Python too (templates/maus/, companion/web/maus/, ...)
    sources = [*TEMPLATES.rglob("*.html"), *STATIC.glob("*.js"), *WEB.rglob("*.py")]
    used = set()
    for path in sources:
        text = path.read_text("utf-8")
        used |= set(re.findall(r"""(?<![\w.])(?:_|t|gettext)\(\s*["'`]([a-z_]+\.[a-z_0-9]+)["'`]""", text))
    assert used, "no keys found: the pattern is out of date"
    assert used - set(catalog(DEFAULT)) == set()


def test_dynamic_keys_exist_for_every_ingredient_colour_pizza_and_phase():
    keys = set(catalog(DEFAULT))
    for group, names in {"ing": ["salami", "pineapple", "mushroom", "pepper", "olive"],
                         "color": ["red", "yellow", "brown", "green", "purple"],
                         "pizza": ["bombastica", "monotoni", "minimale"],
                         "needs": ["bombastica", "monotoni", "minimale"],
                         "phase": ["evaluating", "counting", "over"],
                         "verdict": ["delivered", "returned", "joker", "minimale"]}.items():
        assert {f"{group}.{n}" for n in names} <= keys


def test_dynamic_keys_exist_for_every_maus_colour_helper_refusal_and_way():
    from companion.maus.engine import HELPERS, INGREDIENTS
    from companion.web.maus.words import REFUSAL_KEYS

    keys = set(catalog(DEFAULT))
    assert {f"maus.colour_{i.value}" for i in INGREDIENTS} <= keys
    assert {f"maus.animal_{h.value}" for h in HELPERS} <= keys
    assert {f"maus.kind_{k}_{c}" for k in ("run", "set") for c in ("one", "mixed")} <= keys
    assert {"maus.use_lilly", "maus.use_amelie"} <= keys  # the helpers that change no card
    assert {key for _refusal, key in REFUSAL_KEYS if key} <= keys


def test_every_refusal_of_a_picture_and_every_part_of_a_face_has_its_words():
    """The teaching page says these in the page's language (the API's words are English)."""
    from vision.recognize.capture import PROBLEMS
    from vision.recognize.likeness import REGIONS

    keys = set(catalog(DEFAULT))
    assert {f"teach.{part}_{code}" for code in PROBLEMS for part in ("problem", "hint")} <= keys
    assert {f"teach.where_{region.removeprefix('the ')}" for region in REGIONS} <= keys


def test_names_follow_the_rule_sheets():
    assert [translate(lang, "ing.mushroom") for lang in ["nl", "fr", "es", "cs", "de"]] == [
        "champignon", "champignon", "champiñón", "houba", "Champignon"]
    assert translate("fr", "ing.pepper") == "piment" and translate("es", "ing.olive") == "aceituna"
    assert {translate(lang, "pizza.monotoni") for lang in LANGUAGES} == {"Pizza Monotoni"}


def test_placeholders_are_filled():
    assert translate("de", "game.round", round=2, rounds=3) == "Runde 2 von 3"


@pytest.mark.parametrize("header, expected", [("nl-BE,nl;q=0.9", "nl"), ("fr-CA", "fr"), ("cs", "cs"),
                                              ("ja, de;q=0.5", "de"), ("ja", "en"), ("", "en")])
def test_the_browser_language_is_used(client, header, expected):
    page = client.get("/", headers={"Accept-Language": header} if header else {}).get_data(as_text=True)
    assert f'<html lang="{expected}">' in page
