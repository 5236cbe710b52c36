"""Your cards for Maus au Chocolat: its own list of decks (the one the Maus
camera uses among them), a new Maus deck from the form, its teaching page."""
from __future__ import annotations

import json
import re

from markupsafe import escape

from companion.web.i18n import LANGUAGES, translate

from .test_pages import token
from .test_pages_cards import deck_lines


def maus_lines(client) -> dict[str, str]:
    page = client.get("/cards?game=maus").get_data(as_text=True)
    return dict(re.findall(r'<li class="deck-line[^"]*" data-deck="([^"]+)">(.*?)</li>', page, re.S))


def test_each_game_has_its_own_list_of_decks(client):
    lines = maus_lines(client)
    assert list(lines) == ["maus-standin"]
    assert "Maus au Chocolat stand-in deck" in lines["maus-standin"] and "70 of 70 faces" in lines["maus-standin"]
    assert "The camera uses this deck" in lines["maus-standin"]
    assert list(deck_lines(client)) == ["standin"]
    page = client.get("/cards").get_data(as_text=True)
    assert 'href="/cards?game=maus"' in page and "With the Doubled Ingredients cards" in page
    assert client.get("/cards?game=chess").status_code == 404


def test_a_new_maus_deck_is_made_from_the_form_and_opens_its_teaching_page(client):
    page = client.get("/cards?game=maus").get_data(as_text=True)
    assert '<input type="hidden" name="game" value="maus">' in page
    assert "Doubled Ingredients" not in page and "(70 in all)" in page
    response = client.post("/cards", data={"csrf_token": token(client, "/cards"), "name": "Maus club",
                                           "game": "maus"})
    assert response.status_code == 303 and response.headers["Location"] == "/cards/maus-club/teach"
    assert "Start teaching" in maus_lines(client)["maus-club"] and "maus-club" not in deck_lines(client)
    teaching = client.get("/cards/maus-club/teach").get_data(as_text=True)
    embedded = json.loads(re.search(r'id="deck-data">(.*?)</script>', teaching, re.S).group(1))
    assert embedded["game"] == "maus" and len(embedded["missing"]) == 70 and embedded["missing"][0] == "r3/3"
    assert "mausfaces.js" in teaching and 'data-photo="/api/decks/maus-club/read"' in teaching
    assert 'href="/cards?game=maus"' in teaching


def test_the_maus_words_exist_in_every_language(client):
    for lang in sorted(LANGUAGES):
        page = client.get("/cards?game=maus", headers={"Accept-Language": lang}).get_data(as_text=True)
        for key, values in [("cards.standin_name_maus", {}), ("cards.game_maus", {}),
                            ("cards.new_explain_maus", {"n": 70})]:
            assert escape(translate(lang, key, **values)) in page, (lang, key)
        if lang != "en":
            assert translate(lang, "teach.maus_none") != translate("en", "teach.maus_none")
