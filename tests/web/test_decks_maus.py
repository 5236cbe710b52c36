"""Maus au Chocolat decks in the deck API: listed per game, created for the
game, taught its faces (colour x value x coins), made the Maus camera's
deck without touching Mamma Mia!'s; every bad request refused with a clear
message, changing nothing."""
from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from companion.assets import MAUS_DECK_DIR
from companion.decks.games import GAMES
from companion.maus.engine import Card
from companion.web.maus_decks import maus_reader

from tools.synth.datasets import item_rng
from tools.synth.maus_photo import MausArt, left_to_right, random_laid_photo
from vision.cvcompat import encode_jpeg
from vision.maus import load_maus_deck

from .decks_support import blank_jpeg, face_png, files

FACES = [card.notation for card in GAMES["maus"].faces]


def maus_png(notation: str) -> bytes:
    """The Maus stand-in deck's face of a card, as a scan cut to its edges."""
    manifest = json.loads((MAUS_DECK_DIR / "manifest.json").read_text())
    image = next(entry["image"] for entry in manifest["cards"] if entry["card"] == notation)
    return (MAUS_DECK_DIR / image).read_bytes()


def new_maus_deck(client, name: str = "Our Maus cards") -> str:
    response = client.post("/api/decks", json={"name": name, "game": "maus"})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def teach(client, deck: str, notation: str, picture: bytes | None = None):
    return client.post(f"/api/decks/{deck}/faces?card={quote(notation, safe='')}",
                       data=maus_png(notation) if picture is None else picture, content_type="image/png")


@pytest.fixture
def deck(client) -> str:
    """A Maus deck with the red 3 with 3 coins taught."""
    deck = new_maus_deck(client)
    assert teach(client, deck, "r3/3").status_code == 201
    return deck


def test_each_game_lists_its_own_decks_and_the_one_its_camera_uses(client):
    maus = client.get("/api/decks?game=maus").get_json()
    assert maus["game"] == "maus" and maus["active"] == "maus-standin"
    assert [(d["id"], d["game"], d["faces"], d["total"], d["active"]) for d in maus["decks"]] == [
        ("maus-standin", "maus", 70, 70, True)]
    assert [d["id"] for d in client.get("/api/decks").get_json()["decks"]] == ["standin"]
    assert client.get("/api/decks/maus-standin").get_json()["taught"][0]["card"] == "r3/3"


def test_a_maus_deck_is_taught_its_faces_in_the_pads_order(client, deck):
    detail = client.get(f"/api/decks/{deck}").get_json()
    assert detail["game"] == "maus" and detail["faces"] == 1 and detail["total"] == 70
    assert detail["missing"] == FACES[1:] and detail["taught"][0]["card"] == "r3/3"
    assert client.get(detail["taught"][0]["image"]).mimetype == "image/png"
    assert teach(client, deck, "g5/3").get_json()["card"] == "g5/3"
    removed = client.delete(f"/api/decks/{deck}/faces/maus-g5-3")  # by its slug, or its notation (g5%2F3)
    assert removed.status_code == 200 and removed.get_json()["faces"] == 1
    assert teach(client, deck, "g5/3").status_code == 201
    assert client.delete(f"/api/decks/{deck}/faces/g5%2F3").get_json()["faces"] == 1


def test_a_maus_picture_sent_without_its_card_waits_for_a_tap(client, deck):
    held = client.post(f"/api/decks/{deck}/faces", data=maus_png("b4/2"), content_type="image/png").get_json()
    assert held["suggestions"][0]["card"] == "r3/4"  # the next face missing
    answer = client.post(f"/api/decks/{deck}/faces", json={"capture": held["capture"], "card": "b4/2"})
    assert answer.status_code == 201 and answer.get_json()["deck"]["faces"] == 2


def _refused(client, instance, request, status: int) -> dict:
    before = files(instance)
    response = request()
    assert response.status_code == status, response.get_json()
    assert files(instance) == before  # nothing changed
    return response.get_json()


@pytest.mark.parametrize("card, message", [
    ("g5/9", "g5/9 is not a card of the game (its deck has no green 5 with 9 coins)"),
    ("g5", "'g5' lacks its coins: write it like \"g5/3\""),
    ("S", "not a card"),  # a Mamma Mia! card
    ("g:4A+P", "not a card"),
    ("", "card is missing: the card's notation, e.g. g5/3"),
])
def test_a_card_not_in_the_game(client, instance, deck, card, message):
    body = _refused(client, instance, lambda: teach(client, deck, card, maus_png("g5/3")), 400)
    assert message in body["error"] and body["field"] == "card"


def test_not_an_image(client, instance, deck):
    body = _refused(client, instance, lambda: client.post(f"/api/decks/{deck}/faces?card=g5%2F3",
                                                          data=b"not an image at all", content_type="image/png"), 400)
    assert "image" in body["error"]
    body = _refused(client, instance, lambda: client.post(f"/api/decks/{deck}/faces?card=g5%2F3",
                                                          data=blank_jpeg(), content_type="image/jpeg"), 422)
    assert body["problem"] == "no_card"


def test_a_second_image_for_a_face(client, instance, deck):
    body = _refused(client, instance, lambda: teach(client, deck, "r3/3"), 409)
    assert body["error"] == "r3/3 is already taught; remove it first to retake it" and body["field"] == "card"


def test_an_unknown_deck_or_game(client, instance, deck):
    body = _refused(client, instance, lambda: teach(client, "no-such-deck", "g5/3"), 404)
    assert body["error"] == "no deck 'no-such-deck'"
    body = _refused(client, instance, lambda: client.post("/api/decks", json={"name": "X", "game": "chess"}), 400)
    assert body["field"] == "game" and "game must be one of mamma-mia, maus" in body["error"]
    body = _refused(client, instance, lambda: client.get("/api/decks?game=chess"), 400)
    assert body["field"] == "game"
    body = _refused(client, instance, lambda: client.post("/api/decks", json={"name": "X", "game": "maus",
                                                                              "doubles": False}), 400)
    assert body["field"] == "doubles"


def test_a_mamma_mia_card_picture_is_not_taught_to_a_maus_deck_by_name(client, instance, deck):
    body = _refused(client, instance, lambda: client.post(f"/api/decks/{deck}/faces?card=S", data=face_png("S"),
                                                          content_type="image/png"), 400)
    assert body["field"] == "card"


def test_an_incomplete_maus_deck_is_not_made_active_nor_tried(client, instance, deck):
    body = _refused(client, instance, lambda: client.post(f"/api/decks/{deck}/activate"), 409)
    assert "still lacks 69 of its 70 faces" in body["error"]
    body = _refused(client, instance, lambda: client.post(f"/api/decks/{deck}/read", data=maus_png("r3/3"),
                                                          content_type="image/png"), 409)
    assert body["missing"] == 69


def test_a_complete_maus_deck_reads_a_row_and_becomes_the_maus_cameras_alone(app, client, instance):
    deck = new_maus_deck(client)
    for notation in FACES:
        assert teach(client, deck, notation).status_code == 201, notation
    photo = random_laid_photo(MausArt.of(), item_rng(777, 0))
    read = client.post(f"/api/decks/{deck}/read", data=encode_jpeg(photo.image, 92), content_type="image/jpeg")
    assert read.status_code == 200
    read_cards = [Card.from_notation(c["card"]) for c in read.get_json()["cards"]]
    assert [(c.ingredient, c.value) for c in read_cards] == [(c.ingredient, c.value) for c in left_to_right(photo)]
    assert client.post(f"/api/decks/{deck}/activate").get_json() == {"active": deck}
    assert client.get("/api/decks?game=maus").get_json()["active"] == deck
    assert client.get("/api/decks").get_json()["active"] == "standin"  # Mamma Mia!'s camera is untouched
    assert json.loads((instance / "decks" / "active.json").read_text()) == {"active": "standin", "maus": deck}
    with app.app_context():
        reader = maus_reader()
        assert reader.deck is load_maus_deck(instance / "decks" / deck)  # the taught faces, not the stand-in's
        assert reader.deck is not load_maus_deck(MAUS_DECK_DIR)
        assert [laid.card.notation for laid in reader.read(photo.image).cards] == [c.notation for c in read_cards]
    body = _refused(client, instance, lambda: client.post("/api/decks/standin/read", data=maus_png("r3/3"),
                                                          content_type="image/png"), 400)
    assert "for Maus au Chocolat decks" in body["error"]
