"""The catalogs' words: counts in the right plural form, ordinals as each
language writes them, and one term per idea, as each language's glossary says."""
from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from babel import Locale

from companion.web.i18n import DEFAULT, LANGUAGES, catalog, translate

GLOSSARY = Path(__file__).resolve().parents[2] / "companion" / "web" / "catalogs" / "glossary"
COUNTS = (0, 1, 2, 5, 22)
# placeholders that hold a number of things: a plain string must not put a plural noun after one
COUNT_NAMES = ("n", "total", "count", "limit", "singles", "doubles", "players")
# every message that says how many of something, in every language
COUNTED = ["setup.for", "setup.remove", "setup.doubles", "setup.single_cards", "setup.double_cards",
           "setup.in_play_plain", "needs.bombastica", "err.name_long", "rank.delivered_n", "rank.hand_n",
           "cards.progress", "cards.err_name", "cards.err_incomplete", "refusal.too_many"]


def glossary(lang: str) -> dict:
    data = json.loads((GLOSSARY / f"{lang}.json").read_text("utf-8"))
    return {concept: entry for concept, entry in data.items() if not concept.startswith("_")}


def forms(message) -> list[str]:
    return list(message.values()) if isinstance(message, dict) else [message]


def texts(message) -> list[str]:
    """The wording of a message: every form of a counted one."""
    if isinstance(message, dict):
        return [text for name, text in message.items() if name not in ("count", "ordinal")]
    return [message]


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def integer_categories(lang: str, ordinal: bool) -> set[str]:
    """The categories whole numbers up to 1,000 fall in (Czech ``many`` is for fractions only)."""
    locale = Locale.parse(lang)
    rule = locale.ordinal_form if ordinal else locale.plural_form
    return {rule(n) for n in range(1001)}


# plurals ------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_counted_message_has_the_forms_its_language_needs(lang):
    locale = Locale.parse(lang)
    for key, message in catalog(lang).items():
        if not isinstance(message, dict):
            continue
        ordinal = "ordinal" in message
        chooser = message["ordinal" if ordinal else "count"]
        given = set(message) - {"count", "ordinal"}
        tags = (locale.ordinal_form if ordinal else locale.plural_form).tags | {"other"}
        assert given <= tags, (lang, key, given - tags)
        assert integer_categories(lang, ordinal) <= given, (lang, key)
        names = {frozenset(placeholders(text)) for text in texts(message)}
        assert len(names) == 1, (lang, key, names)  # every form fills the same values
        assert ordinal or chooser in next(iter(names)), (lang, key)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_messages_that_count_are_counted_in_every_language(lang):
    for key in COUNTED:
        assert isinstance(catalog(lang)[key], dict), (lang, key)


def test_no_plain_english_message_puts_a_plural_noun_after_a_count():
    counted = re.compile(r"\{(?:%s)\} (?:\w+ )?[a-z]{3,}s\b" % "|".join(COUNT_NAMES))
    plain = {key: text for key, text in catalog(DEFAULT).items() if isinstance(text, str)}
    assert {key: text for key, text in plain.items() if counted.search(text)} == {}


@pytest.mark.parametrize("lang, expected", [
    ("en", ["0 cards in hand", "1 card in hand", "2 cards in hand", "5 cards in hand", "22 cards in hand"]),
    ("nl", ["0 kaarten in de hand", "1 kaart in de hand", "2 kaarten in de hand", "5 kaarten in de hand",
            "22 kaarten in de hand"]),
    ("fr", ["0 carte en main", "1 carte en main", "2 cartes en main", "5 cartes en main", "22 cartes en main"]),
    ("es", ["0 cartas en mano", "1 carta en mano", "2 cartas en mano", "5 cartas en mano", "22 cartas en mano"]),
    ("cs", ["0 karet v ruce", "1 karta v ruce", "2 karty v ruce", "5 karet v ruce", "22 karet v ruce"]),
    ("de", ["0 Karten auf der Hand", "1 Karte auf der Hand", "2 Karten auf der Hand", "5 Karten auf der Hand",
            "22 Karten auf der Hand"]),
])
def test_hand_cards_are_counted_in_each_language(lang, expected):
    assert [translate(lang, "rank.hand_n", n=n) for n in COUNTS] == expected


@pytest.mark.parametrize("lang, nouns", [
    ("en", ["cards", "card", "cards", "cards", "cards"]),
    ("nl", ["kaarten", "kaart", "kaarten", "kaarten", "kaarten"]),
    ("fr", ["carte", "carte", "cartes", "cartes", "cartes"]),
    ("es", ["cartas", "carta", "cartas", "cartas", "cartas"]),
    ("cs", ["karet", "kartu", "karty", "karet", "karet"]),
    ("de", ["Karten", "Karte", "Karten", "Karten", "Karten"]),
])
def test_the_cards_to_put_back_are_counted(lang, nouns):
    said = [translate(lang, "setup.remove", n=n) for n in COUNTS]
    assert [re.search(rf"\b{n} (\w+)", text).group(1) for n, text in zip(COUNTS, said)] == nouns


def test_a_czech_count_of_two_to_four_takes_the_few_form():
    assert [translate("cs", "rank.delivered_n", n=n) for n in (1, 3, 4, 5)] == [
        "1 vyřízená objednávka", "3 vyřízené objednávky", "4 vyřízené objednávky", "5 vyřízených objednávek"]


def test_the_set_up_of_four_players_puts_one_card_back(client):
    """The set-up page in Dutch, where '1 kaarten' was said."""
    client.set_cookie("lang", "nl")
    page = client.get("/games/new").get_data(as_text=True)
    assert "Leg van elk ingrediënt 1 kaart terug in de doos." in page
    assert "1 kaarten" not in page


# ordinals -----------------------------------------------------------------------------------

@pytest.mark.parametrize("lang, key, expected", [
    ("en", "num.nth", ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]),
    ("fr", "num.nth", ["1er", "2e", "3e", "4e", "11e", "12e", "13e", "21e", "22e", "101e", "111e"]),
    ("fr", "num.nth_f", ["1re", "2e", "3e", "4e", "11e", "12e", "13e", "21e", "22e", "101e", "111e"]),
    ("nl", "num.nth", ["1e", "2e", "3e", "4e", "11e", "12e", "13e", "21e", "22e", "101e", "111e"]),
    ("es", "num.nth", ["1.º", "2.º", "3.º", "4.º", "11.º", "12.º", "13.º", "21.º", "22.º", "101.º", "111.º"]),
    ("es", "num.nth_f", ["1.ª", "2.ª", "3.ª", "4.ª", "11.ª", "12.ª", "13.ª", "21.ª", "22.ª", "101.ª", "111.ª"]),
    ("cs", "num.nth", ["1.", "2.", "3.", "4.", "11.", "12.", "13.", "21.", "22.", "101.", "111."]),
    ("de", "num.nth", ["1.", "2.", "3.", "4.", "11.", "12.", "13.", "21.", "22.", "101.", "111."]),
])
def test_ordinals_are_written_as_each_language_writes_them(lang, key, expected):
    assert [translate(lang, key, n=n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == expected


@pytest.mark.parametrize("lang, expected", [
    ("en", "There is no 11th salami card (S)"),
    ("nl", "Er is geen 11e kaart met salami (S)"),
    ("fr", "Il n'y a pas de 11e carte salami (S)"),
    ("es", "No hay una 11.ª carta de salami (S)"),
    ("cs", "Karta S by byla už 11. karta tohoto druhu (salami)"),
    ("de", "Es gibt keine 11. salami-Karte (S)"),
])
def test_an_ordinal_placeholder_is_filled_in_a_message(lang, expected):
    said = translate(lang, "refusal.too_many", nth=11, kind="salami", card="S", players=3, limit=10)
    assert said.startswith(expected)
    assert "{" not in said and " a 11th" not in said


# the glossary -------------------------------------------------------------------------------

def test_every_language_has_a_glossary_of_the_same_ideas():
    ideas = set(glossary(DEFAULT))
    assert ideas
    for lang in LANGUAGES:
        assert set(glossary(lang)) == ideas, lang


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_each_idea_is_named_by_its_glossary_term(lang):
    """Where the English text names an idea, every catalog uses the glossary's word for it."""
    words = glossary(lang)
    for idea, entry in glossary(DEFAULT).items():
        for key in entry["keys"]:
            said = " ".join(texts(catalog(lang)[key])).lower()
            assert any(word.lower() in said for word in words[idea]["use"]), (lang, idea, key, said)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_no_catalog_uses_a_word_its_glossary_avoids(lang):
    """'pizzastapel' and 'Ovenstapel' for the same pile, say: the glossary keeps one."""
    found = []
    for idea, entry in glossary(lang).items():
        for pattern in entry["avoid"]:
            avoided = re.compile(pattern, re.IGNORECASE)
            found += [(idea, key, text) for key, message in catalog(lang).items()
                      for text in texts(message) if avoided.search(text)]
    assert found == []


def test_the_glossary_check_finds_a_word_to_avoid():
    """The check above can fail: the Dutch glossary rules out the old name of the oven pile."""
    avoided = [re.compile(p, re.IGNORECASE) for p in glossary("nl")["oven pile"]["avoid"]]
    assert any(p.search("Ovenstapel scannen") for p in avoided)
    assert not any(p.search(translate("nl", "cam.title")) for p in avoided)
