"""Bad input gets a clear message naming the field, and changes nothing."""
import pytest

from companion.web import create_app

FIVE = [{"name": n, "color": c} for n, c in
        zip(["Ann", "Bob", "Cy", "Di", "Ed"], ["green", "red", "yellow", "brown", "purple"])]


def refused(table, action, status, field, message, **body):
    """Post ``action``; check the refusal and that the game did not change."""
    before = table.get()
    response = table.post(action, **body)
    data = response.get_json()
    assert response.status_code == status, data
    assert data["field"] == field and message in data["error"], data
    assert table.get() == before
    return data


@pytest.mark.parametrize("card, message", [
    ("y:4S+A", "yellow is not at this table"),
    ("!", "never part of the oven pile"),
    ("S2", "only used with the Doubled Ingredients variant"),
    ("g:9A+P", "not one of green's eight order cards"),
    ("X", "unknown ingredient letter 'X'"),
    ("", "card must be card notation"),
])
def test_a_card_that_cannot_exist_is_refused(table, card, message):
    refused(table, "reveal", 400, "card", message, card=card)


def test_a_fourteenth_salami_is_refused(new_table):
    table = new_table(FIVE)
    table.reveal(*["S"] * 13)
    refused(table, "reveal", 400, "card", "There is no 14th salami card (S): a 5-player game has only 13 salami cards.",
            card="S")


THREE = [{"name": "Ann", "color": "green"}, {"name": "Bob", "color": "red"}, {"name": "Cy", "color": "yellow"}]


@pytest.mark.parametrize("lang, card, message", [
    ("en", "S", "There is no 11th salami card (S): a 3-player game has only 10 salami cards."),
    ("nl", "S", "Er is geen 11e kaart met salami (S): in een spel met 3 spelers zijn er maar 10 kaarten met salami."),
    ("fr", "S", "Il n'y a pas de 11e carte salami (S) : une partie à 3 joueurs n'en compte que 10."),
    ("es", "S", "No hay una 11.ª carta de salami (S): una partida de 3 jugadores solo tiene 10 cartas de salami."),
    ("cs", "S", "Karta S by byla už 11. karta tohoto druhu (salám), ale při 3 hráčích je ve hře jen 10 takových karet."),
    ("de", "S", "Es gibt keine 11. Salami-Karte (S): Bei 3 Spielern sind nur 10 Salami-Karten im Spiel."),
    ("fr", "S2", "Il n'y a pas de 3e carte salami double (S2) : une partie à 3 joueurs n'en compte que 2."),
    ("cs", "S2", "Karta S2 by byla už 3. karta tohoto druhu (dvojitá karta: salám), ale při 3 hráčích jsou ve hře "
                 "jen 2 takové karty."),
])
def test_a_card_beyond_the_supply_is_refused_in_the_page_language(client, new_table, lang, card, message):
    """The refusal a table meets most (often a camera misread) reads as the rest of the page."""
    table = new_table(THREE, doubled=card.endswith("2"))
    table.reveal(*[card] * (10 if card == "S" else 2))
    client.set_cookie("lang", lang)
    assert refused(table, "reveal", 400, "card", message, card=card)["error"] == message


def test_an_order_already_delivered_is_refused(table):
    table.reveal("S", "S", "S", "S", "P", "g:4S+P")
    table.ok("end-round")
    refused(table, "reveal", 400, "card", "green order 4 salami + 1 pepper (g:4S+P) was already delivered",
            card="g:4S+P")


def test_a_decision_when_none_is_pending_is_refused(table):
    refused(table, "decide", 400, None, "no order is waiting for a decision", accept=True)


def test_revealing_or_ending_the_round_while_an_order_waits_is_refused(table):
    table.reveal("g:4S+P")
    refused(table, "reveal", 400, "card", "still waits for its owner's decision", card="S")
    refused(table, "end-round", 400, None, "decide before ending the round")


def test_a_choice_the_rules_do_not_allow_is_refused(table):
    table.reveal(*["P"] * 4, "g:P+6J")
    refused(table, "decide", 400, "choice", "the joker may not be pepper", accept=True, choice="pepper")
    refused(table, "decide", 400, "choice", "unknown ingredient 'ham'", accept=True, choice="ham")
    refused(table, "decide", 400, "accept", "accept must be true", accept="yes")


def test_a_stale_write_is_a_conflict_and_changes_nothing(table, client):
    table.reveal("S")
    other_tablet = client.post(f"/api/games/{table.id}/reveal", json={"version": table.version, "card": "A"})
    assert other_tablet.status_code == 200
    data = refused(table, "reveal", 409, "version", "changed on another device", card="M")
    assert data["version"] == table.version + 1
    assert "you saw version 2, it is now at version 3" in data["error"]


def test_a_stale_undo_is_a_conflict(table, client):
    table.reveal("S")
    client.post(f"/api/games/{table.id}/reveal", json={"version": table.version, "card": "A"})
    refused(table, "undo", 409, "version", "reload and try again")


def test_undo_with_nothing_to_take_back_is_refused(table):
    refused(table, "undo", 400, None, "nothing to undo")


@pytest.mark.parametrize("counts, field, message", [
    ({"green": 1, "red": 2, "purple": 3}, "counts", "purple is not at this table"),
    ({"green": 1}, "counts", "hand count missing for red"),
    ({"green": 1, "red": -2}, "counts", "whole number ≥ 0"),
    ({"green": 9, "red": 2}, "counts", "a hand has at most 7"),
    ({"teal": 1}, "counts", "unknown colour 'teal'"),
])
def test_bad_hand_counts_are_refused(table, counts, field, message):
    for _ in range(3):
        table.ok("end-round")
    refused(table, "hands", 400, field, message, counts=counts)


def test_hand_counts_before_the_end_are_refused(table):
    refused(table, "hands", 400, "counts", "after round 3", counts={"green": 1, "red": 1})


@pytest.mark.parametrize("body, field, message", [
    ({"card": "S"}, "version", "version must be"),
    ({"card": "S", "version": "2"}, "version", "version must be"),
    ({"card": "S", "version": 1, "colour": "x"}, "colour", "unknown field 'colour'"),
])
def test_bad_request_bodies_name_the_field(table, client, body, field, message):
    response = client.post(f"/api/games/{table.id}/reveal", json=body)
    assert response.status_code == 400
    assert response.get_json()["field"] == field and message in response.get_json()["error"]


def test_a_body_that_is_not_json_is_refused(table, client):
    response = client.post(f"/api/games/{table.id}/reveal", data="card=S&version=1")
    assert response.status_code == 400 and "application/json" in response.get_json()["error"]
    assert table.get()["version"] == 1


@pytest.mark.parametrize("body, field, message", [
    ({"players": [{"name": "Ann", "color": "green"}]}, "players", "played by 2, 3, 4, 5 players, not 1"),
    ({"players": [{"name": "Ann", "color": "green"}, {"name": "Bob", "color": "green"}]}, "players",
     "colour of their own"),
    ({"players": [{"name": "Ann", "color": "green"}, {"name": "Bob", "color": "teal"}]}, "players[1].color",
     "unknown colour 'teal'"),
    ({"players": [{"name": "", "color": "green"}]}, "players[0].name", "needs a name"),
    ({"players": "Ann"}, "players", "must be a list"),
    ({"players": FIVE + [{"name": "Fi", "color": "red"}]}, "players", "not 6"),
    ({"players": FIVE, "doubled": 1}, "doubled", "true or false"),
    ({"players": [{"name": "Ann", "color": "green", "admin": True}, {"name": "Bob", "color": "red"}]},
     "players[0].admin", "unknown field 'admin'"),
    ({"players": [{"name": "An\u0000n", "color": "green"}, {"name": "Bob", "color": "red"}]},
     "players[0].name", "control characters"),
    ({"players": [{"name": "Ann", "color": "green"}, {"name": "\u202eboB", "color": "red"}]},
     "players[1].name", "control characters"),
])
def test_a_game_that_cannot_be_set_up_is_refused(client, body, field, message):
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert response.get_json()["field"] == field and message in response.get_json()["error"]
    assert client.get("/api/games").get_json()["games"] == []


def test_unknown_games_and_addresses_are_404_in_json(client):
    for url in ["/api/games/99", "/api/games/99/export.csv", "/api/nowhere"]:
        response = client.get(url)
        assert response.status_code == 404 and response.get_json()["error"]
    response = client.post("/api/games/99/undo", json={"version": 1})
    assert response.status_code == 404 and response.get_json()["error"] == "there is no game 99"


def test_an_upload_over_the_limit_is_refused(database):
    client = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "t",
                         "MAX_CONTENT_LENGTH": 1024}).test_client()
    response = client.post("/api/games", json={"players": [{"name": "x" * 2000, "color": "green"}]})
    assert response.status_code == 413 and "larger than the limit" in response.get_json()["error"]


def test_malformed_json_is_refused(table, client):
    response = client.post(f"/api/games/{table.id}/reveal", data="{", content_type="application/json")
    assert response.status_code == 400 and "must be a JSON object" in response.get_json()["error"]
