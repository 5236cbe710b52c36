"""Maus au Chocolat's pages: started from the home page, set up by a form
whose helper numbers are kept, its round and scores pages, and a photo of
laid cards read for the page."""
from __future__ import annotations

import re

from tests.maus_photo_support import laid_photo
from tests.web.conftest import form_token
from tests.web.maus_support import MausTable
from tests.web.test_maus_api import play_to_thirty

FORM = {"name0": "Ann", "helper0": "mathieu", "name1": "Bob", "helper1": "lilly", "name2": "Cy",
        "helper2": "claude", "oldest": "1"}
NUMBERS = {"number_etienne": "1", "number_henri": "2", "number_lilly": "3", "number_maurice": "4",
           "number_mathieu": "5", "number_amelie": "6", "number_claude": "7"}


def post_form(client, **changes):
    token = form_token(client.get("/maus/new").get_data(as_text=True))
    return client.post("/maus/new", data={**FORM, **NUMBERS, **changes, "csrf_token": token})


def test_the_home_page_starts_either_game_and_lists_both(client, table):
    maus = MausTable(client)
    page = client.get("/").get_data(as_text=True)
    assert 'href="/games/new"' in page and 'href="/maus/new"' in page
    assert f'data-game="{maus.id}"' in page and f'data-game="{table.id}"' in page
    assert "Maus au Chocolat" in page and "Ann (0), Bob (0), Cy (0)" in page


def test_the_set_up_form_starts_a_game_in_seating_order(client):
    page = client.get("/maus/new").get_data(as_text=True)
    assert "Mathieu (dung beetle)" in page and 'name="number_claude"' in page
    assert re.search(r'<details class="numbers" id="helper-numbers"\s+open>', page)  # the first game asks to check
    response = post_form(client)
    assert response.status_code == 303
    state = client.get(response.headers["Location"].replace("/games/", "/api/games/")).get_json()
    assert [p["name"] for p in state["players"]] == ["Ann", "Bob", "Cy"]
    assert [p["helper"] for p in state["players"]] == ["mathieu", "lilly", "claude"] and state["oldest"] == 1


def test_the_helper_numbers_confirmed_once_are_kept_for_the_next_game(client):
    assert post_form(client, number_claude="9", number_amelie="8").status_code == 303
    page = client.get("/maus/new").get_data(as_text=True)
    assert 'name="number_claude" value="9"' in page and 'name="number_amelie" value="8"' in page
    assert not re.search(r'id="helper-numbers"\s+open', page)
    state = client.get("/api/games").get_json()["games"][0]
    assert client.get(f"/api/games/{state['id']}").get_json()["numbers"]["claude"] == 9


def test_a_form_the_game_cannot_start_from_says_what_to_fix_and_starts_nothing(client):
    cases = [({"name1": "", "name2": ""}, "Enter 2 to 6 players."),
             ({"helper1": "mathieu"}, "Each player holds a different helper."),
             ({"name1": "ann"}, "Each player needs a name of their own."),
             ({"oldest": "5"}, "Mark the oldest player"),
             ({"number_henri": "x"}, "whole number from 1 to 99"),
             ({"number_henri": "1"}, "cannot share an order number")]
    for changes, words in cases:
        response = post_form(client, **changes)
        assert response.status_code == 400 and words in response.get_data(as_text=True), changes
    assert client.get("/api/games").get_json()["games"] == []
    no_token = client.post("/maus/new", data={**FORM, **NUMBERS})
    assert no_token.status_code == 400 and client.get("/api/games").get_json()["games"] == []


def test_the_round_page_carries_the_state_and_its_scripts(client):
    maus = MausTable(client)
    page = client.get(f"/games/{maus.id}").get_data(as_text=True)
    assert 'id="maus"' in page and "maus.js" in page and 'id="m-bid-photo"' in page
    assert '"kind": "maus"' in page and '"maus.why_shape"' in page  # the state and the words for the script


def test_the_scores_page_shows_points_per_round_and_the_line_at_thirty(client):
    maus = MausTable(client)
    play_to_thirty(maus)
    page = client.get(f"/games/{maus.id}/scores").get_data(as_text=True)
    assert page.count('<rect class="bar') == 15 and 'class="target"' in page  # 3 players x 5 rounds
    assert "y7 y7 y7" not in page and "yellow 7, yellow 7, yellow 7" in page
    assert "<script" not in page.split("</main>")[0].split("<main>")[1]


def test_a_photo_of_laid_cards_is_read_left_to_right(client):
    maus = MausTable(client)
    cards = ["g3/4", "g4/3", "b6/2"]
    response = client.post(f"/api/games/{maus.id}/read", data=laid_photo(cards, seed=31),
                           headers={"Content-Type": "image/jpeg"})
    assert response.status_code == 200, response.get_json()
    read = response.get_json()
    assert [c["card"] for c in read["cards"]] == ["g3", "g4", "b6"] and read["sure"]
    assert maus.get()["version"] == 1  # reading writes nothing


def test_a_photo_that_is_not_an_image_is_refused(client):
    maus = MausTable(client)
    for body, kind in ((b"not a picture", "image/jpeg"), (b"{}", "application/json")):
        response = client.post(f"/api/games/{maus.id}/read", data=body, headers={"Content-Type": kind})
        assert response.status_code == 400, response.get_json()
    assert client.post("/api/games/99/read", data=b"x", headers={"Content-Type": "image/jpeg"}).status_code == 404
