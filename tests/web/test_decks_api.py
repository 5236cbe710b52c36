"""The deck API: listing and creating decks, teaching faces from pictures
(named at once, or held until named), removing one, and the answers' shapes."""
from __future__ import annotations

import json

import pytest

from vision.catalog import distinct_faces

from .decks_support import face_png, files, new_deck, photo_jpeg, teach

PAD = [card.notation for card in distinct_faces()]  # ingredients, doubles, each colour's orders, !
SUMMARY = {"id", "name", "game", "builtin", "editable", "doubles", "faces", "total", "complete", "active"}


def test_the_stand_in_deck_is_listed_read_only_and_active(client):
    listed = client.get("/api/decks").get_json()
    assert listed == {"game": "mamma-mia", "active": "standin", "decks": [{
        "id": "standin", "name": "Stand-in deck", "game": "mamma-mia", "builtin": True, "editable": False, "doubles": True,
        "faces": 51, "total": 51, "complete": True, "active": True}]}
    detail = client.get("/api/decks/standin").get_json()
    assert [face["card"] for face in detail["taught"]] == PAD and detail["missing"] == []
    image = client.get(detail["taught"][0]["image"])
    assert image.status_code == 200 and image.mimetype == "image/png"


def test_a_new_deck_lacks_every_face_in_the_pads_order(client, instance):
    response = client.post("/api/decks", json={"name": "  Our cards ", "doubles": True})
    assert response.status_code == 201 and response.headers["Location"] == "/api/decks/our-cards"
    deck = response.get_json()
    assert set(deck) == SUMMARY | {"created", "taught", "missing"}
    assert (deck["id"], deck["name"], deck["faces"], deck["total"], deck["complete"]) == \
        ("our-cards", "Our cards", 0, 51, False)
    assert deck["missing"] == PAD and deck["taught"] == []
    assert json.loads((instance / "decks" / "our-cards" / "deck.json").read_text())["doubles"] is True
    assert [d["id"] for d in client.get("/api/decks").get_json()["decks"]] == ["standin", "our-cards"]


def test_a_deck_without_the_doubles_is_46_faces(client):
    deck = client.get(f"/api/decks/{new_deck(client, doubles=False)}").get_json()
    assert deck["total"] == 46 and deck["missing"] == [n for n in PAD if not n.endswith("2")]


def test_decks_with_the_same_name_get_their_own_ids(client):
    assert [new_deck(client, "Standin"), new_deck(client, "Our cards"), new_deck(client, "Our cards"),
            new_deck(client, "Café ☕")] == ["standin-2", "our-cards", "our-cards-2", "cafe"]


def test_a_face_named_at_once_is_stored_with_its_picture(client, instance):
    deck = new_deck(client)
    answer = teach(client, deck, "g:P+3?", photo_jpeg("g:P+3?"), "image/jpeg")
    assert answer["card"] == "g:P+3?" and answer["similar"] == []
    assert set(answer["deck"]) == SUMMARY and answer["deck"]["faces"] == 1
    folder = instance / "decks" / deck
    assert (folder / "captures" / "order-green-P+3q.jpg").read_bytes() == photo_jpeg("g:P+3?")
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest == {"cards": [{"image": "order-green-P+3q.png",
                                   "card": {"kind": "order", "color": "green", "special": "minimale",
                                            "fixed": "pepper"}}]}
    image = client.get(answer["image"])
    assert image.status_code == 200 and image.data == (folder / "order-green-P+3q.png").read_bytes()
    detail = client.get(f"/api/decks/{deck}").get_json()
    assert detail["taught"] == [{"card": "g:P+3?", "image": answer["image"]}]
    assert "g:P+3?" not in detail["missing"] and len(detail["missing"]) == 50


def test_faces_the_camera_might_confuse_are_named_with_where_they_differ(client):
    deck = new_deck(client)
    teach(client, deck, "g:P+3?")
    similar = teach(client, deck, "g:P+6J")["similar"]
    assert [(s["card"], s["where"]) for s in similar] == [("g:P+3?", "the centre")]
    assert 0.93 <= similar[0]["similarity"] < 1


def test_a_picture_without_its_card_waits_for_it(client, instance):
    deck = new_deck(client)
    teach(client, deck, "S")
    held = client.post(f"/api/decks/{deck}/faces", data=photo_jpeg("M"), content_type="image/jpeg")
    assert held.status_code == 200
    answer = held.get_json()
    assert answer["suggestions"] == [{"card": "A", "reason": "the next card still missing: pineapple",
                                      "taught": False}]
    face = client.get(answer["face"])
    assert face.status_code == 200 and face.mimetype == "image/png"
    assert client.get(f"/api/decks/{deck}").get_json()["faces"] == 1  # not taught yet
    named = client.post(f"/api/decks/{deck}/faces", json={"capture": answer["capture"], "card": "M"})
    assert named.status_code == 201 and named.get_json()["card"] == "M"
    assert (instance / "decks" / deck / "captures" / "ingredient-mushroom.jpg").read_bytes() == photo_jpeg("M")
    assert list((instance / "decks" / deck / "pending").iterdir()) == []
    again = client.post(f"/api/decks/{deck}/faces", json={"capture": answer["capture"], "card": "P"})
    assert again.status_code == 404 and again.get_json()["field"] == "capture"


def test_a_picture_of_a_face_already_taught_is_pointed_out(client):
    deck = new_deck(client)
    teach(client, deck, "S")
    answer = client.post(f"/api/decks/{deck}/faces", data=photo_jpeg("S"), content_type="image/jpeg").get_json()
    assert answer["suggestions"][0] == {"card": "S", "reason": "this looks like the salami you already taught",
                                        "taught": True}
    assert answer["suggestions"][1]["card"] == "A"


@pytest.mark.parametrize("name", ["S", "ingredient-salami"])
def test_a_face_is_removed_by_notation_or_slug_and_can_be_retaken(client, instance, name):
    deck = new_deck(client)
    teach(client, deck, "S")
    teach(client, deck, "A")
    response = client.delete(f"/api/decks/{deck}/faces/{name}")
    assert response.status_code == 200
    assert set(response.get_json()) == SUMMARY and response.get_json()["faces"] == 1
    folder = instance / "decks" / deck
    assert not (folder / "ingredient-salami.png").exists() and not list((folder / "captures").glob("ingredient-s*"))
    assert [c["image"] for c in json.loads((folder / "manifest.json").read_text())["cards"]] == \
        ["ingredient-pineapple.png"]
    teach(client, deck, "S", photo_jpeg("S"), "image/jpeg")
    assert [f["card"] for f in client.get(f"/api/decks/{deck}").get_json()["taught"]] == ["S", "A"]


def test_the_last_face_removed_leaves_a_deck_without_a_manifest(client, instance):
    deck = new_deck(client)
    teach(client, deck, "!")
    assert client.delete(f"/api/decks/{deck}/faces/!").get_json()["faces"] == 0
    assert not (instance / "decks" / deck / "manifest.json").exists()
    assert client.get(f"/api/decks/{deck}").get_json()["missing"] == PAD


def test_a_retaken_face_has_a_new_address(client):
    deck = new_deck(client)
    first = teach(client, deck, "S")["image"]
    client.delete(f"/api/decks/{deck}/faces/S")
    assert teach(client, deck, "S", photo_jpeg("S"), "image/jpeg")["image"] != first


def test_the_api_index_names_the_decks(client):
    assert client.get("/api").get_json()["decks"] == "/api/decks"
