"""Every bad request to the deck API is refused with a clear message and
changes nothing on disk."""
from __future__ import annotations

from typing import Callable
from urllib.parse import quote

import cv2
import numpy as np
import pytest
from flask.testing import FlaskClient

from companion.web import create_app

from .decks_support import blank_jpeg, face_png, files, new_deck, photo_jpeg, teach

PHONE = {"REMOTE_ADDR": "192.168.1.23"}


@pytest.fixture
def deck(client) -> str:
    """A deck without the doubles, with the salami taught and a picture waiting to be named."""
    deck = new_deck(client, doubles=False)
    teach(client, deck, "S")
    return deck


def refused(client: FlaskClient, instance, request: Callable[[], object], status: int) -> dict:
    before = files(instance)
    response = request()
    assert response.status_code == status, response.get_json()
    assert files(instance) == before  # nothing changed
    body = response.get_json()
    assert body["error"]
    return body


def post_picture(client: FlaskClient, deck: str, data: bytes, kind: str = "image/jpeg", card: str | None = None):
    query = f"?card={card}" if card is not None else ""
    return lambda: client.post(f"/api/decks/{deck}/faces{query}", data=data, content_type=kind)


@pytest.mark.parametrize("body, field", [
    ({"doubles": True}, "name"),
    ({"name": ""}, "name"),
    ({"name": "   "}, "name"),
    ({"name": "x" * 41}, "name"),
    ({"name": "tab\there"}, "name"),
    ({"name": 7}, "name"),
    ({"name": "Ours", "doubles": "yes"}, "doubles"),
    ({"name": "Ours", "colour": "red"}, "colour"),
])
def test_a_bad_new_deck(client, instance, body, field):
    assert refused(client, instance, lambda: client.post("/api/decks", json=body), 400)["field"] == field


def test_a_new_deck_must_be_json(client, instance):
    refused(client, instance, lambda: client.post("/api/decks", data="name=Ours"), 400)


@pytest.mark.parametrize("data, kind, message", [
    (b"nope", "image/png", "not a usable image"),
    (b"", "image/jpeg", "not a usable image"),
    (b"GIF89a", "image/gif", "Content-Type image/jpeg or image/png"),
    (b"card=S", "application/x-www-form-urlencoded", "Content-Type image/jpeg or image/png"),
])
def test_not_an_image(client, instance, deck, data, kind, message):
    assert message in refused(client, instance, post_picture(client, deck, data, kind, "A"), 400)["error"]


@pytest.mark.parametrize("card", [None, "A"])
def test_no_card_in_the_picture(client, instance, deck, card):
    body = refused(client, instance, post_picture(client, deck, blank_jpeg(), card=card), 422)
    assert body["problem"] == "no_card" and body["error"] == "no card found in the picture" and body["hint"]


def test_a_blurred_picture(client, instance, deck):
    body = refused(client, instance, post_picture(client, deck, photo_jpeg("A", blur=4.0), card="A"), 422)
    assert body["problem"] == "blurred" and "hold the camera still" in body["hint"]


@pytest.mark.parametrize("card, message", [
    ("Z", "not a card"),
    ("g:9S", "g:9S is not a card of the game"),
    ("A2", "A2 is a double ingredient, and Our cards is a deck without the doubles"),
    ("", "card is missing"),
])
def test_a_card_not_in_the_deck(client, instance, deck, card, message):
    body = refused(client, instance, post_picture(client, deck, face_png("A"), "image/png", card), 400)
    assert message in body["error"] and body["field"] == "card"


def test_a_second_image_for_a_face(client, instance, deck):
    body = refused(client, instance, post_picture(client, deck, photo_jpeg("S"), card="S"), 409)
    assert body["error"] == "S is already taught; remove it first to retake it" and body["field"] == "card"


def test_a_second_image_for_a_face_by_its_waiting_picture(client, instance, deck):
    token = client.post(f"/api/decks/{deck}/faces", data=photo_jpeg("S"),
                        content_type="image/jpeg").get_json()["capture"]
    refused(client, instance, lambda: client.post(f"/api/decks/{deck}/faces", json={"capture": token, "card": "S"}),
            409)


@pytest.mark.parametrize("body, status, field", [
    ({"capture": "NoSuchPictureWaiting00", "card": "A"}, 404, "capture"),
    ({"capture": "../../secret_key", "card": "A"}, 404, "capture"),
    ({"capture": 12, "card": "A"}, 400, "capture"),
    ({"card": "A"}, 400, "capture"),
    ({"capture": "NoSuchPictureWaiting00"}, 400, "card"),
    ({"capture": "NoSuchPictureWaiting00", "card": "A", "top": "left"}, 400, "top"),
])
def test_a_bad_capture_token(client, instance, deck, body, status, field):
    post = lambda: client.post(f"/api/decks/{deck}/faces", json=body)  # noqa: E731
    assert refused(client, instance, post, status)["field"] == field


def test_a_waiting_picture_belongs_to_its_deck(client, instance, deck):
    token = client.post(f"/api/decks/{deck}/faces", data=photo_jpeg("A"),
                        content_type="image/jpeg").get_json()["capture"]
    other = new_deck(client, "Other")
    refused(client, instance, lambda: client.post(f"/api/decks/{other}/faces", json={"capture": token, "card": "A"}),
            404)
    assert client.get(f"/api/decks/{other}/captures/{token}.png").status_code == 404


@pytest.mark.parametrize("method, path", [
    ("get", "/api/decks/nowhere"),
    ("post", "/api/decks/nowhere/activate"),
    ("delete", "/api/decks/nowhere/faces/S"),
    ("get", "/api/decks/nowhere/faces/ingredient-salami.png"),
])
def test_an_unknown_deck(client, instance, method, path):
    assert "no deck" in refused(client, instance, lambda: getattr(client, method)(path), 404)["error"]


@pytest.mark.parametrize("path", ["/api/decks/..%2Fsecret_key", "/api/decks/standin/faces/..%2F..%2Fsecret_key.png",
                                  "/api/decks/.%2Fstandin"])
def test_a_path_outside_the_decks_is_never_read(client, instance, path):
    refused(client, instance, lambda: client.get(path), 404)


def test_an_unknown_deck_for_a_picture(client, instance):
    refused(client, instance, post_picture(client, "nowhere", face_png("S"), "image/png", "S"), 404)


@pytest.mark.parametrize("request_for", [
    lambda c: c.post("/api/decks/standin/faces?card=S", data=face_png("S"), content_type="image/png"),
    lambda c: c.post("/api/decks/standin/faces", data=face_png("S"), content_type="image/png"),
    lambda c: c.post("/api/decks/standin/faces", json={"capture": "NoSuchPictureWaiting00", "card": "S"}),
    lambda c: c.delete("/api/decks/standin/faces/S"),
])
def test_a_read_only_deck_is_409(client, instance, request_for):
    assert "read-only" in refused(client, instance, lambda: request_for(client), 409)["error"]


def test_removing_a_face_not_taught(client, instance, deck):
    assert refused(client, instance, lambda: client.delete(f"/api/decks/{deck}/faces/A"), 404)["field"] == "card"
    assert refused(client, instance, lambda: client.delete(f"/api/decks/{deck}/faces/Z"), 400)["field"] == "card"
    refused(client, instance, lambda: client.get(f"/api/decks/{deck}/faces/ingredient-pineapple.png"), 404)
    refused(client, instance, lambda: client.get(f"/api/decks/{deck}/faces/no-such-face.png"), 404)


def test_an_incomplete_deck_cannot_be_made_active(client, instance, deck):
    body = refused(client, instance, lambda: client.post(f"/api/decks/{deck}/activate"), 409)
    assert body["missing"] == 45 and "lacks 45 of its 46 faces" in body["error"]
    assert client.get("/api/decks").get_json()["active"] == "standin"


def test_a_picture_over_the_size_limit(database, instance):
    app = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test", "MAX_CONTENT_LENGTH": 10_000})
    client = app.test_client()
    deck = new_deck(client)
    body = refused(client, instance, post_picture(client, deck, face_png("S"), "image/png", "S"), 413)
    assert "limit of" in body["error"]


def test_a_device_without_the_table_code_changes_no_deck(app, client, instance, deck):
    app.config["TABLE_CODE"] = "482913"
    phone = app.test_client()
    for request_for in (lambda: phone.post("/api/decks", json={"name": "Mine"}, environ_base=PHONE),
                        lambda: phone.post(f"/api/decks/{deck}/faces?card=A", data=face_png("A"),
                                           content_type="image/png", environ_base=PHONE),
                        lambda: phone.delete(f"/api/decks/{deck}/faces/S", environ_base=PHONE),
                        lambda: phone.post("/api/decks/standin/activate", environ_base=PHONE)):
        assert refused(phone, instance, request_for, 403)["field"] == "table_code"
    assert phone.get("/api/decks", environ_base=PHONE).status_code == 200  # reading is fine


def test_a_deck_whose_files_cannot_be_read(client, instance, deck):
    (instance / "decks" / deck / "manifest.json").write_text("{not json")
    for request_for in (lambda: client.get(f"/api/decks/{deck}"), lambda: client.get("/api/decks"),
                        lambda: client.post(f"/api/decks/{deck}/activate")):
        assert "the deck cannot be used" in refused(client, instance, request_for, 409)["error"]


def test_an_order_cut_unlike_the_orders_already_taught(client, instance, deck):
    """Once enough orders are taught, an order whose face was cut well inside
    its edge (each picture's own checks see nothing wrong with a scan) is
    refused for not fitting them; a well cut one is taught."""
    from companion.engine import Order
    from vision.catalog import distinct_faces

    orders = [card.notation for card in distinct_faces() if isinstance(card, Order)]
    for notation in orders[:11]:
        teach(client, deck, notation)
    face = cv2.imdecode(np.frombuffer(face_png(orders[11]), np.uint8), cv2.IMREAD_COLOR)
    height, width = face.shape[:2]
    inset = round(0.06 * width)
    cut = cv2.resize(face[inset:height - inset, inset:width - inset], (width, height))
    picture = cv2.imencode(".png", cut)[1].tobytes()
    card = quote(orders[11], safe="")
    body = refused(client, instance, post_picture(client, deck, picture, "image/png", card), 422)
    assert body["problem"] == "misfit" and "take it again" in body["hint"]
    teach(client, deck, orders[11])
