"""The camera endpoints on real pictures: a small flip video rendered by our
synthetic camera (frames posted one by one, and the same video uploaded as a
file), photos of the bundled sample set, and the demo round."""
from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from companion.assets import SAMPLE_PHOTOS
from companion.engine.notation import parse_pile
from companion.web import create_app

from .conftest import Table, form_token

PILE = "S A g:4A+P M"  # Ann (green) must add three pineapple and a pepper from hand
SEED = 0  # a rendering the tracker reads card for card, both as frames and re-encoded as an AVI (6 of seeds 0-7 do)
FPS = 15.0


@pytest.fixture(scope="module")
def flip_video(tmp_path_factory) -> dict[str, Any]:
    """JPEG frames of a 640x360 flip video of ``PILE`` and the same as an MJPEG AVI."""
    from vision.cvcompat import write_mjpg_avi
    from tools.synth.datasets import Art
    from tools.synth.flip_plan import plan_flip_video
    from vision.recognize.imagefile import decode_image
    from tools.synth.synth_video import render_flip_frames

    art = Art.of()
    rng = np.random.default_rng(SEED)
    plan = plan_flip_video(parse_pile(PILE), rng, size=(640, 360), fps=FPS, fast_share=0.0, pause_scale=0.5)
    jpegs = [frame.shot.jpeg for frame in render_flip_frames(plan, art.faces, rng, art.back)]
    avi = tmp_path_factory.mktemp("camera") / "flip.avi"
    write_mjpg_avi(avi, (decode_image(j) for j in jpegs), FPS, plan.size)
    return {"jpegs": jpegs, "avi": avi}


@pytest.fixture
def app(database):
    return create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test", "CAMERA_MAX_FPS": 1000})


def test_frames_of_a_flip_video_reveal_its_cards_in_order(table, client, flip_video):
    seen_pending, asked = None, []
    for index, jpeg in enumerate(flip_video["jpegs"]):
        captured = round(index * 1000 / FPS)  # milliseconds, as a page sends Date.now()
        response = client.post(f"/api/games/{table.id}/frame?device=cam&t={captured}",
                               data=jpeg, content_type="image/jpeg")
        assert response.status_code == 200, response.get_json()
        state = response.get_json()
        table.state = state
        camera = state["camera"]
        assert camera["failures"] == 0
        if camera["choose"]:  # an unsure card: tap the true one, as a player would
            expected = PILE.split()[len(state["timeline"])]
            assert expected in (camera["choose"]["card"], camera["choose"]["runner_up"])
            asked.append(expected)
            picked = client.post(f"/api/games/{table.id}/camera/confirm",
                                 json={"device": "cam", "id": camera["choose"]["id"], "card": expected})
            assert picked.status_code == 200
        for landed in camera["landed"]:  # a card comes with the capture time of the frame that settled it
            assert landed["captured"] == captured
        if state["pending"] and seen_pending is None:
            seen_pending = [e["card"] for e in state["timeline"]]
            table.ok("decide", accept=True, choice=None)
    assert seen_pending == ["S", "A", "g:4A+P"]
    assert len(asked) <= 1  # this rendering leaves the tracker unsure of one card at most
    final = table.get()
    assert [e["card"] for e in final["timeline"]] == PILE.split()
    assert final["timeline"][2]["outcome"]["fulfilled"] is True
    assert final["version"] == 1 + len(PILE.split()) + 1  # four reveals and one decision: nothing else


def test_an_uploaded_video_gives_its_cards_and_changes_nothing(table, client, flip_video):
    response = client.post(f"/api/games/{table.id}/video", data=flip_video["avi"].read_bytes(),
                           content_type="video/x-msvideo")
    assert response.status_code == 200, response.get_json()
    found = response.get_json()["cards"]
    assert [c["card"] for c in found] == PILE.split() and response.get_json()["complete"] is True
    assert all({"runner_up", "confidence", "sure"} <= set(c) for c in found)
    assert table.get()["version"] == 1


def test_an_uploaded_video_never_proposes_a_card_the_rules_rule_out(new_table, client, flip_video):
    """Green is nobody's colour here: the video's green order is not offered;
    the cards around it are judged as usual, each with its candidates."""
    table = new_table([{"name": "Cid", "color": "yellow"}, {"name": "Dee", "color": "red"}])
    response = client.post(f"/api/games/{table.id}/video", data=flip_video["avi"].read_bytes(),
                           content_type="video/x-msvideo")
    found = response.get_json()["cards"]
    assert len(found) == 4 and [found[i]["card"] for i in (0, 1, 3)] == ["S", "A", "M"]
    green = found[2]
    assert all("g:4A+P" not in c["candidates"] for c in found)
    if green["refused"] is None:  # proposed as another card, never surely
        assert green["card"] != "g:4A+P" and green["sure"] is False and green["candidates"][0] == green["card"]
    else:
        assert green["candidates"] == [] and "green is not at this table" in green["refused"]
    assert all(c["candidates"][:1] == [c["card"]] and len(c["candidates"]) <= 4 for c in found if not c["refused"])


def test_a_video_s_cards_are_judged_one_after_another(table, client, flip_video):
    """The green order was revealed before the video: the video's sight of it
    cannot be that order again."""
    table.reveal("g:4A+P")
    table.ok("decide", accept=False, choice=None)
    found = client.post(f"/api/games/{table.id}/video", data=flip_video["avi"].read_bytes(),
                        content_type="video/x-msvideo").get_json()["cards"]
    assert found[2]["card"] != "g:4A+P" and found[2]["sure"] is False
    assert [found[i]["card"] for i in (0, 1, 3)] == ["S", "A", "M"]


@pytest.mark.parametrize("body, content_type, message", [
    (b"not a video at all", "video/mp4", "not a video file"),
    (b"", "video/mp4", "empty"),
    (b"x=1", "application/x-www-form-urlencoded", "Content-Type video/"),
])
def test_an_upload_that_is_not_a_video_is_refused(table, client, body, content_type, message):
    response = client.post(f"/api/games/{table.id}/video", data=body, content_type=content_type)
    assert response.status_code == 400 and message in response.get_json()["error"]


def test_a_photo_proposes_the_top_card_and_changes_nothing(table, client):
    photo = (SAMPLE_PHOTOS / "top-00.jpg").read_bytes()  # a pineapple on top of a pile
    response = client.post(f"/api/games/{table.id}/photo", data=photo, content_type="image/jpeg")
    assert response.status_code == 200
    proposal = response.get_json()["proposal"]
    assert proposal["card"] == "A" and proposal["runner_up"] is not None
    assert table.get()["version"] == 1


def test_a_sure_photo_is_proposed_with_its_candidates_likeliest_first(table, client):
    photo = (SAMPLE_PHOTOS / "top-00.jpg").read_bytes()
    proposal = client.post(f"/api/games/{table.id}/photo", data=photo, content_type="image/jpeg").get_json()["proposal"]
    assert proposal["sure"] is True and proposal["candidates"][:2] == ["A", proposal["runner_up"]]
    assert len(proposal["candidates"]) == 4 and len(set(proposal["candidates"])) == 4


def test_a_photo_of_a_card_the_rules_rule_out_proposes_another_never_surely(table, client):
    table.reveal(*["A"] * 8)  # every pineapple of a two-player game is on the table
    photo = (SAMPLE_PHOTOS / "top-00.jpg").read_bytes()
    body = client.post(f"/api/games/{table.id}/photo", data=photo, content_type="image/jpeg").get_json()
    proposal = body["proposal"]
    assert proposal["card"] != "A" and "A" not in proposal["candidates"] and proposal["sure"] is False
    assert body["refused"]["card"] == "A" and "9th pineapple" in body["refused"]["reason"]
    assert table.get()["version"] == 9


def test_a_photo_without_a_game_is_judged_among_every_card(client):
    photo = (SAMPLE_PHOTOS / "top-00.jpg").read_bytes()
    body = client.post("/api/photo", data=photo, content_type="image/jpeg").get_json()
    assert body["proposal"]["card"] == "A" and body["refused"] is None


def test_a_photo_without_a_card_proposes_nothing(table, client):
    photo = (SAMPLE_PHOTOS / "empty-08.jpg").read_bytes()
    body = client.post(f"/api/games/{table.id}/photo", data=photo, content_type="image/jpeg").get_json()
    assert body["proposal"] is None and "no card" in body["message"]


def test_a_photo_that_is_not_an_image_is_refused(table, client):
    response = client.post(f"/api/games/{table.id}/photo", data=b"GIF89 nope", content_type="image/png")
    assert response.status_code == 400 and "not a usable image" in response.get_json()["error"]


def test_the_demo_round_plays_the_bundled_sample_video(client):
    page = client.get("/").get_data(as_text=True)
    token = form_token(page)
    created = client.post("/demo", data={"csrf_token": token})
    assert created.status_code == 303
    location = created.headers["Location"]
    assert 'data-demo="1"' in client.get(location).get_data(as_text=True)
    game_id = int(re.search(r"/games/(\d+)", location).group(1))

    sample = client.get(f"/api/sample-video?game={game_id}").get_json()
    assert all(c["candidates"][:1] == [c["card"]] for c in sample["cards"])
    notation = [c["card"] for c in sample["cards"]]
    truth = ["y:15+", "P2", "b:15+", "P", "P", "P", "g:4S+P", "p:4A+O", "O", "O2"]
    assert notation[:3] == truth[:3] and notation[-4:] == truth[-4:]  # the tracker may merge the three peppers
    # the page reveals them one by one, deciding each order: every card is legal for the demo's players
    demo = Table.__new__(Table)
    demo.client, demo.id, demo.state = client, game_id, client.get(f"/api/games/{game_id}").get_json()
    for card in notation:
        demo.ok("reveal", card=card)
        if demo.state["pending"]:
            demo.ok("decide", accept=False, choice=None)
    assert [e["card"] for e in demo.get()["timeline"]] == notation


def test_the_demo_form_needs_its_csrf_token(client):
    assert client.post("/demo").status_code == 400


def test_the_round_page_has_the_camera_panel_and_its_fallbacks(table, client):
    page = client.get(f"/games/{table.id}").get_data(as_text=True)
    assert 'id="camera-panel"' in page and f'data-frame="/api/games/{table.id}/frame"' in page
    assert 'accept="image/*" capture="environment"' in page  # the phone's own camera, over plain HTTP too
    assert 'id="cam-video-file" accept="video/*"' in page
    assert 'data-demo="0"' in page


def test_scripts_are_cached_under_versioned_addresses(table, client):
    """A page load asks for no script again (page-load figure); an update changes the address."""
    page = client.get(f"/games/{table.id}").get_data(as_text=True)
    address = re.search(r'src="(/static/camera\.js\?v=\d+)"', page).group(1)
    response = client.get(address)
    assert response.status_code == 200 and response.cache_control.max_age == 24 * 3600
