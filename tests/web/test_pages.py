"""The HTML pages through Flask's test client: each page in each language,
the new-game form (its CSRF token, its messages) and the scores page."""
from __future__ import annotations

import json
import re

import pytest

from companion.web.i18n import LANGUAGES

from .conftest import ANN_BOB, Table, form_token

# the Salami/pineapple/... names each rule sheet uses (German: the usual pack names)
PINEAPPLE = {"en": "pineapple", "nl": "ananas", "fr": "ananas", "es": "piña", "cs": "ananas", "de": "Ananas"}
PEPPER = {"en": "pepper", "nl": "paprika", "fr": "piment", "es": "pimiento", "cs": "paprička", "de": "Paprika"}
NEW_GAME = {"en": "New game", "nl": "Nieuw spel", "fr": "Nouvelle partie", "es": "Nueva partida",
            "cs": "Nová hra", "de": "Neues Spiel"}


def token(client, path: str = "/games/new") -> str:
    page = client.get(path).get_data(as_text=True)
    return form_token(page)


def new_game(client, **fields: str):
    return client.post("/games/new", data={"csrf_token": token(client), **fields})


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_page_renders_in_every_language(client, table, lang):
    headers = {"Accept-Language": f"{lang},en;q=0.5"}
    table.reveal("P", "S", "g:P+3?")
    for path in ["/", "/games/new", f"/games/{table.id}", f"/games/{table.id}/scores"]:
        page = client.get(path, headers=headers)
        text = page.get_data(as_text=True)
        assert page.status_code == 200, path
        assert f'<html lang="{lang}">' in text
    home = client.get("/", headers=headers).get_data(as_text=True)
    assert NEW_GAME[lang] in home
    round_page = client.get(f"/games/{table.id}", headers=headers).get_data(as_text=True)
    assert PEPPER[lang] in round_page  # the face-up rows, drawn on the server
    # the round page's script gets the page's catalog: it draws the pad's keys
    catalog = json.loads(re.search(r'id="catalog-data">(.*?)</script>', round_page, re.S).group(1))
    assert catalog["ing.pepper"] == PEPPER[lang] and catalog["ing.pineapple"] == PINEAPPLE[lang]


def test_the_language_cookie_beats_the_browser(client):
    response = client.post("/lang", data={"csrf_token": token(client, "/"), "lang": "cs", "next": "/games/new"})
    assert response.status_code == 303 and response.headers["Location"] == "/games/new"
    page = client.get("/games/new", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert '<html lang="cs">' in page and "Nová hra" in page


def test_the_language_switch_only_redirects_within_the_site(client):
    response = client.post("/lang", data={"csrf_token": token(client, "/"), "lang": "de",
                                          "next": "//evil.example/"})
    assert response.headers["Location"] == "/"


def test_a_new_game_starts_with_the_form(client):
    response = new_game(client, name0="Ann", color0="green", name1=" Bob ", color1="red", doubled="on")
    assert response.status_code == 303
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    state = client.get(f"/api/games/{game_id}").get_json()
    assert [(p["name"], p["color"]) for p in state["players"]] == [("Ann", "green"), ("Bob", "red")]
    assert state["doubled"] is True
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    # the page's script draws the pad from this state: the double cards only with the variant
    embedded = json.loads(re.search(r'id="state-data">(.*?)</script>', page, re.S).group(1))
    assert embedded["doubled"] is True


def test_the_form_shows_the_set_up_for_each_player_count(client):
    page = client.get("/games/new").get_data(as_text=True)
    for players, removed in [(2, "5 cards"), (3, "3 cards"), (4, "1 card")]:
        card = re.search(rf'data-players="{players}" data-doubled="no">(.*?)</div>', page, re.S).group(1)
        assert f"Put {removed} of each ingredient back in the box." in card
    five = re.search(r'data-players="5" data-doubled="yes">(.*?)</div>', page, re.S).group(1)
    assert "Keep all ingredient cards." in five and "11 single cards and 2 double cards" in five


@pytest.mark.parametrize("fields, message", [
    ({"name0": "Ann", "color0": "green"}, "Enter the names of 2 to 5 players."),
    ({"name0": "Ann", "color0": "green", "name1": "Bob", "color1": "green"},
     "The colour green is chosen twice"),
    ({"name0": "Ann", "color0": "green", "name1": "ann", "color1": "red"}, "The name ann is entered twice"),
    ({"name0": "A" * 41, "color0": "green", "name1": "Bob", "color1": "red"}, "at most 40 characters"),
    ({"name0": "Ann", "color0": "blue", "name1": "Bob", "color1": "red"}, "Choose an order colour for Ann."),
    ({"name0": "Ann", "color0": "green", "name1": "Bob\x1b[31m", "color1": "red"}, "may not hold control characters"),
    ({"name0": "Ann", "color0": "green", "name1": "\u202eboB", "color1": "red"}, "may not hold control characters"),
])
def test_bad_input_gets_a_clear_message_and_changes_nothing(client, fields, message):
    response = new_game(client, **fields)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert message in page
    assert 'value="Ann"' in page or 'value="AAAA' in page  # what was typed stays in the form
    assert client.get("/api/games").get_json() == {"games": []}


def test_messages_come_in_the_page_language(client):
    response = client.post("/games/new", data={"csrf_token": token(client), "name0": "Ann", "color0": "green"},
                           headers={"Accept-Language": "es"})
    assert "Escribe los nombres de 2 a 5 jugadores." in response.get_data(as_text=True)


def test_a_form_without_its_csrf_token_is_refused(client):
    client.get("/games/new")  # the session has a token, the post does not send it
    for data in [{}, {"csrf_token": "forged"}]:
        response = client.post("/games/new", data={**data, "name0": "Ann", "color0": "green",
                                                    "name1": "Bob", "color1": "red"})
        assert response.status_code == 400
        assert "This form has expired" in response.get_data(as_text=True)
    assert client.get("/api/games").get_json() == {"games": []}


def test_another_session_token_does_not_work(app, client):
    stolen = token(app.test_client())
    response = client.post("/games/new", data={"csrf_token": stolen, "name0": "Ann", "color0": "green",
                                               "name1": "Bob", "color1": "red"})
    assert response.status_code == 400


def test_the_home_page_lists_games_with_exports(client, table):
    page = client.get("/").get_data(as_text=True)
    assert f'data-game="{table.id}"' in page and "Ann" in page and "Bob" in page
    assert f"/api/games/{table.id}/export.json" in page and f"/api/games/{table.id}/export.csv" in page
    assert f"/games/{table.id}/scores" in page


def test_an_unknown_game_is_a_clear_404_page(client):
    response = client.get("/games/42", headers={"Accept-Language": "de"})
    assert response.status_code == 404 and "Spiel 42 gibt es nicht." in response.get_data(as_text=True)


def test_the_round_page_embeds_the_state_the_api_sends(client, table):
    table.reveal("P", "S", "g:P+6J")
    page = client.get(f"/games/{table.id}").get_data(as_text=True)
    state = json.loads(re.search(r'id="state-data">(.*?)</script>', page, re.S).group(1))
    assert state == table.get()
    assert 'id="camera-panel"' in page  # the place kept for the camera


def test_the_scores_page_has_rounds_leftovers_history_and_a_chart(client, new_table):
    table: Table = new_table(ANN_BOB)
    table.reveal("P", "S", "S", "A", "A", "A", "M", "M", "M", "M", "g:4A+P")
    table.ok("decide", accept=True)
    table.reveal("r:S+4O")
    table.ok("decide", accept=False)
    table.ok("end-round")
    page = client.get(f"/games/{table.id}/scores").get_data(as_text=True)
    rows = re.findall(r'<tr data-color="(\w+)">(.*?)</tr>', page, re.S)
    assert [(color, re.findall(r"<td>(?:<b>)?(\d+)", cells)) for color, cells in rows] == [
        ("green", ["1", "0", "0", "1"]), ("red", ["0", "0", "0", "0"])]
    assert page.count('<rect class="bar') == 6  # 3 rounds × 2 players, drawn on the server
    history = re.search(r'<article class="history" data-round="1">(.*?)</article>', page, re.S).group(1)
    assert "Delivered" in history and "Back under the waiter pile" in history
    leftovers = history.split("Leftovers carried on")[1]
    assert leftovers.count('data-card="S"') == 2 and leftovers.count('data-card="M"') == 4
    remaining = re.search(r'class="remaining" data-color="red">.*?\((\d+)\)', page, re.S).group(1)
    assert remaining == "8"
    assert "<script" not in page.split("</main>")[0].split("<main>")[1]  # the chart needs no script


def test_the_history_says_what_became_of_each_special_order(client, new_table):
    """A declined Minimale names no ingredient, one with nothing eligible says so, a delivered
    Monotoni names its joker."""
    table: Table = new_table(ANN_BOB)
    table.reveal("P", "g:P+3?")  # only Ann's own pepper face up: nothing is eligible
    table.reveal("S", "A", "A", "r:S+3?")  # pepper the one fewest for Bob: he declines
    table.ok("decide", accept=False)
    table.reveal("g:P+6J")
    table.ok("decide", accept=True, choice="pineapple")
    table.ok("end-round")
    page = client.get(f"/games/{table.id}/scores").get_data(as_text=True)
    items = re.findall(r'<li class="(delivered|returned)">(.*?)</li>', page, re.S)
    words = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text)) for _, text in items]
    said = [(kind, re.search(r"(?:Ann|Bob): .*", text).group(0).strip())  # after the drawn card
            for (kind, _), text in zip(items, words)]
    assert said == [("returned", "Ann: Back under the waiter pile · no ingredient was eligible"),
                    ("returned", "Bob: Back under the waiter pile"),
                    ("delivered", "Ann: Delivered · joker: pineapple")]
