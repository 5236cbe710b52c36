"""Making another deck the camera's while the app runs, keeping that choice
across restarts, and a deck's files surviving a failure mid-write."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from companion.assets import SAMPLE_PHOTOS
from companion.decks import files as deck_files
from companion.decks.store import cards_of
from companion.web import create_app
from companion.web.recognition import scanner
from companion.web.scanning import Scanner

from .conftest import Table
from .decks_support import face_png, files, new_deck, teach
from .test_camera_queue import ScriptedTracker, blank_jpeg

BASE = [card.notation for card in cards_of(doubles=False)]


def _next_of_its_kind(cards: list[str]) -> dict[str, str]:
    """Each face under the name of the next card of its kind on the pad:
    ingredients among ingredients, orders among orders (teaching refuses an
    ingredient's face under an order's name as cut unlike the other orders)."""
    kinds = [[c for c in cards if ":" not in c and c != "!"], [c for c in cards if ":" in c], ["!"]]
    return {face: kind[(k + 1) % len(kind)] for kind in kinds for k, face in enumerate(kind)}


# the pineapple's face is called mushroom, the red salami order's the red mushroom order, ...
RELABELLED = _next_of_its_kind(BASE)


@pytest.fixture(scope="module")
def relabelled_deck(tmp_path_factory) -> Path:
    """A complete deck without the doubles, taught through the API: the
    stand-in faces, each under another card's name."""
    instance = tmp_path_factory.mktemp("teaching")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MAMMA_MIA_INSTANCE", str(instance))
        client = create_app({"TESTING": True, "DATABASE": str(instance / "db.sqlite"), "SECRET_KEY": "t"}).test_client()
    deck = new_deck(client, "Relabelled", doubles=False)
    for face, label in RELABELLED.items():
        teach(client, deck, label, face_png(face))
    return instance / "decks" / deck


@pytest.fixture
def relabelled(instance, relabelled_deck) -> str:
    """The relabelled deck, copied into this test's instance folder."""
    shutil.copytree(relabelled_deck, instance / "decks" / relabelled_deck.name)
    return relabelled_deck.name


def top_card(client, table: Table) -> str:
    photo = (SAMPLE_PHOTOS / "top-00.jpg").read_bytes()  # a pineapple on top of a pile
    response = client.post(f"/api/games/{table.id}/photo", data=photo, content_type="image/jpeg")
    assert response.status_code == 200, response.get_json()
    return response.get_json()["proposal"]["card"]


def test_the_camera_reads_with_the_deck_made_active_without_a_restart(client, table, relabelled):
    assert top_card(client, table) == "A"
    response = client.post(f"/api/decks/{relabelled}/activate")
    assert response.status_code == 200 and response.get_json() == {"active": relabelled}
    assert top_card(client, table) == RELABELLED["A"] == "M"
    listed = client.get("/api/decks").get_json()
    assert listed["active"] == relabelled
    assert [d["active"] for d in listed["decks"]] == [False, True]
    assert client.post("/api/decks/standin/activate").status_code == 200
    assert top_card(client, table) == "A"


def test_trying_a_deck_out_reads_a_photo_with_the_active_deck_and_no_game(client, relabelled):
    """``POST /api/photo``: what the teaching page's Try it shows."""
    def read(picture: bytes, kind: str = "image/jpeg"):
        return client.post("/api/photo", data=picture, content_type=kind)

    photo = (SAMPLE_PHOTOS / "top-00.jpg").read_bytes()
    assert read(photo).get_json()["proposal"]["card"] == "A"
    client.post(f"/api/decks/{relabelled}/activate")
    assert read(photo).get_json()["proposal"]["card"] == "M"
    empty = read(blank_jpeg()).get_json()
    assert empty["proposal"] is None and empty["message"].startswith("no card found")
    refused = read(b"not a picture")
    assert refused.status_code == 400 and refused.get_json()["error"].startswith("not a usable image")
    assert client.get("/api/games").get_json()["games"] == []  # nothing was made or changed


def test_the_active_deck_is_kept_across_restarts(app, client, database, relabelled, instance):
    client.post(f"/api/decks/{relabelled}/activate")
    assert json.loads((instance / "decks" / "active.json").read_text()) == {"active": relabelled}
    again = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test"})
    assert again.test_client().get("/api/decks").get_json()["active"] == relabelled
    with again.app_context():
        assert Path(scanner().deck_dir) == instance / "decks" / relabelled  # the camera's deck too


def test_a_deck_gone_since_the_last_run_gives_way_to_the_stand_in_deck(client, database, relabelled, instance):
    client.post(f"/api/decks/{relabelled}/activate")
    shutil.rmtree(instance / "decks" / relabelled)
    again = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test"})
    assert again.test_client().get("/api/decks").get_json()["active"] == "standin"


def test_a_running_camera_starts_a_new_tracker_on_its_next_frame(client, table, relabelled, monkeypatch):
    made = []

    def tracker(self):
        made.append(Path(self.deck_dir).name)
        return ScriptedTracker([[("S", 0.95, "A", 0.2)], [], [("P", 0.95, "A", 0.2)]])
    monkeypatch.setattr(Scanner, "new_tracker", tracker)

    def frame(t: int) -> dict:
        response = client.post(f"/api/games/{table.id}/frame?device=cam&t={t}", data=blank_jpeg(),
                               content_type="image/jpeg")
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    assert [e["card"] for e in frame(1000)["timeline"]] == ["S"]
    assert frame(1100)["camera"]["frames"] == 2 and made == ["deck"]  # the stand-in deck's folder
    client.post(f"/api/decks/{relabelled}/activate")
    state = frame(1200)
    assert made == ["deck", relabelled]
    assert state["camera"]["frames"] == 3  # the same session, with a new tracker
    assert [e["card"] for e in state["timeline"]] == ["S"]  # its first report: the salami on top, not new


def test_retaking_a_face_of_the_active_deck_reaches_the_camera_once_complete(app, client, relabelled):
    client.post(f"/api/decks/{relabelled}/activate")
    camera = app.extensions["mamma_mia_scanner"]
    version = camera.version
    assert client.delete(f"/api/decks/{relabelled}/faces/M").status_code == 200
    assert camera.version == version  # incomplete: the camera keeps the faces it has
    teach(client, relabelled, "M", face_png("A"))
    assert camera.version == version + 1


def test_a_deck_folder_given_to_the_server_is_listed_read_only_and_active(database, instance, relabelled_deck):
    folder = instance.parent / "Our Deck"
    shutil.copytree(relabelled_deck, folder)
    (folder / "deck.json").unlink()
    app = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test", "DECK_DIR": str(folder)})
    client = app.test_client()
    listed = client.get("/api/decks").get_json()
    assert listed["active"] == "our-deck"
    assert listed["decks"][1] == {"id": "our-deck", "name": "Our Deck", "game": "mamma-mia", "builtin": False,
                                  "editable": False, "doubles": False, "faces": 46, "total": 46, "complete": True, "active": True}
    before = files(folder)
    response = client.delete("/api/decks/our-deck/faces/S")
    assert response.status_code == 409 and files(folder) == before
    assert client.post("/api/decks/standin/activate").status_code == 200
    assert client.post("/api/decks/our-deck/activate").status_code == 200


def test_a_failure_writing_the_manifest_leaves_the_deck_as_it_was(client, instance, monkeypatch):
    deck = new_deck(client)
    teach(client, deck, "S")
    folder = instance / "decks" / deck
    before = files(folder)
    replace = os.replace

    def failing(source, target):
        if Path(target).name == "manifest.json":
            raise OSError(28, "No space left on device")
        replace(source, target)
    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises(OSError):
        client.post(f"/api/decks/{deck}/faces?card=A", data=face_png("A"), content_type="image/png")
    assert files(folder) == before  # no face without its manifest entry, no temporary file
    monkeypatch.setattr(os, "replace", replace)
    assert [f["card"] for f in client.get(f"/api/decks/{deck}").get_json()["taught"]] == ["S"]


def test_a_write_cut_short_keeps_the_previous_file(tmp_path, monkeypatch):
    target = tmp_path / "manifest.json"
    target.write_text('{"cards": []}')

    def cut_short(descriptor: int) -> None:
        raise OSError(5, "Input/output error")
    monkeypatch.setattr(os, "fsync", cut_short)
    with pytest.raises(OSError):
        deck_files.write_json_atomic(target, {"cards": [{"image": "x.png", "card": "S"}]})
    assert target.read_text() == '{"cards": []}' and [p.name for p in tmp_path.iterdir()] == ["manifest.json"]
