"""The pages of the decks: Your cards (every deck, the one the camera uses, a
new deck, switching with one tap) and where the teaching page starts from.
What the teaching page does in a browser is tests/e2e/test_teach_deck.py."""
from __future__ import annotations

import json
import re
import shutil

import pytest
from markupsafe import escape

from companion.assets import DEFAULT_DECK_DIR
from companion.decks.store import cards_of
from companion.web import create_app
from companion.web.i18n import LANGUAGES, translate

from .conftest import form_token
from .decks_support import new_deck, teach
from .test_pages import token
from .test_pages_access import CODE, PHONE


def deck_lines(client) -> dict[str, str]:
    """Each deck's line on the Your cards page, by deck id."""
    page = client.get("/cards").get_data(as_text=True)
    return dict(re.findall(r'<li class="deck-line[^"]*" data-deck="([^"]+)">(.*?)</li>', page, re.S))


def post(client, path: str, **fields: str):
    return client.post(path, data={"csrf_token": token(client, "/cards"), **fields})


def complete_deck(client) -> str:
    deck = new_deck(client, "Ours", doubles=False)
    for card in cards_of(doubles=False):
        teach(client, deck, card.notation)
    return deck


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_your_cards_and_a_teaching_page_in_every_language(client, lang):
    deck = new_deck(client, "Our cards", doubles=False)
    teach(client, deck, "S")
    headers = {"Accept-Language": lang}
    page = client.get("/cards", headers=headers).get_data(as_text=True)
    assert f'<html lang="{lang}">' in page
    for key, values in [("cards.title", {}), ("cards.standin_name", {}), ("cards.in_use", {}),
                        ("cards.progress", {"n": 1, "total": 46}), ("cards.continue", {})]:
        assert escape(translate(lang, key, **values)) in page, key
    response = client.get(f"/cards/{deck}/teach", headers=headers)
    assert response.status_code == 200
    teaching = response.get_data(as_text=True)
    assert escape(translate(lang, "teach.pad")) in teaching
    # the page's script draws the pad from the deck and the catalog embedded in it
    embedded = json.loads(re.search(r'id="deck-data">(.*?)</script>', teaching, re.S).group(1))
    assert embedded["taught"][0]["card"] == "S" and len(embedded["missing"]) == 45
    catalog = json.loads(re.search(r'id="catalog-data">(.*?)</script>', teaching, re.S).group(1))
    assert catalog["teach.capture_title"] == translate(lang, "teach.capture_title")


def test_the_home_page_and_the_camera_panel_lead_to_your_cards(client, table):
    assert 'href="/cards"' in client.get("/").get_data(as_text=True)
    assert 'href="/cards"' in client.get(f"/games/{table.id}").get_data(as_text=True)


def test_every_deck_is_listed_with_its_progress_and_the_one_the_camera_uses(client):
    deck = new_deck(client, "Half taught")
    teach(client, deck, "S")
    teach(client, deck, "A")
    lines = deck_lines(client)
    assert list(lines) == ["standin", deck]
    assert "51 of 51 faces" in lines["standin"] and "The camera uses this deck" in lines["standin"]
    assert "Use this deck" not in lines["standin"] and "teach" not in lines["standin"]  # read-only
    assert "Half taught" in lines[deck] and "2 of 51 faces" in lines[deck]
    assert f'href="/cards/{deck}/teach">Continue teaching</a>' in lines[deck]
    assert "Use this deck" not in lines[deck]  # not complete


def test_a_deck_folder_given_to_the_server_is_listed_read_only_and_in_use(database, tmp_path):
    folder = tmp_path / "Club deck"
    shutil.copytree(DEFAULT_DECK_DIR, folder)
    app = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "t", "DECK_DIR": str(folder)})
    client = app.test_client()
    lines = deck_lines(client)
    assert list(lines) == ["standin", "club-deck"]
    assert "Club deck" in lines["club-deck"] and "A deck folder given to the server · read-only" in lines["club-deck"]
    assert "The camera uses this deck" in lines["club-deck"] and "teach" not in lines["club-deck"]
    assert "Use this deck" in lines["standin"]


def test_a_new_deck_is_made_from_the_form_and_opens_its_teaching_page(client):
    response = post(client, "/cards", name="Our cards")  # the box left unticked: no doubles
    assert response.status_code == 303 and response.headers["Location"] == "/cards/our-cards/teach"
    assert client.get("/api/decks/our-cards").get_json()["total"] == 46
    response = post(client, "/cards", name="Our cards", doubles="on")
    assert response.headers["Location"] == "/cards/our-cards-2/teach"
    assert client.get("/api/decks/our-cards-2").get_json()["total"] == 51
    assert "Start teaching" in deck_lines(client)["our-cards"]


@pytest.mark.parametrize("name", ["", "   ", "x" * 41])
def test_a_bad_name_is_said_and_makes_nothing(client, name):
    response = post(client, "/cards", name=name, doubles="on")
    assert response.status_code == 400
    assert "Give the deck a name of 1 to 40 characters." in response.get_data(as_text=True)
    assert [d["id"] for d in client.get("/api/decks").get_json()["decks"]] == ["standin"]


def test_one_tap_makes_a_complete_deck_the_cameras_and_one_tap_switches_back(client):
    deck = complete_deck(client)
    assert "Use this deck" in deck_lines(client)[deck] and "Faces and retakes" in deck_lines(client)[deck]
    response = post(client, f"/cards/{deck}/activate")
    assert response.status_code == 303 and response.headers["Location"] == "/cards"
    assert client.get("/api/decks").get_json()["active"] == deck
    lines = deck_lines(client)
    assert "The camera uses this deck" in lines[deck] and "Use this deck" in lines["standin"]
    assert post(client, "/cards/standin/activate").status_code == 303
    assert client.get("/api/decks").get_json()["active"] == "standin"


def test_an_incomplete_deck_cannot_be_used_and_nothing_changes(client):
    deck = new_deck(client, doubles=False)
    teach(client, deck, "S")
    response = post(client, f"/cards/{deck}/activate")
    assert response.status_code == 409
    assert "This deck still lacks 45 faces" in response.get_data(as_text=True)
    assert client.get("/api/decks").get_json()["active"] == "standin"


def test_unknown_and_read_only_decks_have_no_teaching_page(client):
    response = client.get("/cards/nothing-here/teach")
    assert response.status_code == 404 and "There is no such deck." in response.get_data(as_text=True)
    response = client.get("/cards/standin/teach")
    assert response.status_code == 404 and "cannot be taught: it is read-only" in response.get_data(as_text=True)
    assert post(client, "/cards/nothing-here/activate").status_code == 404


def test_a_deck_whose_files_cannot_be_read_is_said_not_a_crash(client, instance):
    deck = new_deck(client)
    teach(client, deck, "S")
    (instance / "decks" / deck / "manifest.json").write_text("{not json")
    response = client.get("/cards")
    assert response.status_code == 409 and "manifest.json" in response.get_data(as_text=True)


def test_another_device_gives_the_table_code_before_a_form_changes_anything(app):
    app.config["TABLE_CODE"] = CODE
    phone = app.test_client()
    page = phone.get("/cards", environ_base=PHONE).get_data(as_text=True)
    csrf = form_token(page)
    response = phone.post("/cards", data={"csrf_token": csrf, "name": "Mine"}, environ_base=PHONE)
    assert response.status_code == 302 and response.headers["Location"].startswith("/join?next=/cards")
    assert [d["id"] for d in phone.get("/api/decks", environ_base=PHONE).get_json()["decks"]] == ["standin"]
