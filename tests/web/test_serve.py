"""`mamma-mia serve`: its help, the addresses it prints and its certificate."""
import stat

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.commands.serve import addresses, deck_line, host_names
from companion.decks.store import DeckStore
from companion.web.certificate import certificate_names, ensure_certificate


def test_serve_help_explains_the_options(capsys):
    with pytest.raises(SystemExit) as done:
        main(["serve", "--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0 and "--https" in out and "127.0.0.1" in out and "--port" in out
    assert "--deck DIR" in out


def test_a_bad_port_is_refused(capsys):
    with pytest.raises(SystemExit) as done:
        main(["serve", "--port", "70000"])
    assert done.value.code == 2 and "not between 1 and 65535" in capsys.readouterr().err


def test_loopback_is_served_as_given():
    assert addresses("127.0.0.1", 8000, "https") == ["https://127.0.0.1:8000/"]
    assert addresses("::1", 5000) == ["http://[::1]:5000/"]


def test_every_interface_lists_loopback_last():
    assert host_names("0.0.0.0")[-1] == "127.0.0.1"


def test_the_certificate_is_made_once_and_remade_for_a_new_address(tmp_path):
    cert, key = ensure_certificate(tmp_path, ["192.168.1.20"])
    assert certificate_names(cert.read_bytes()) == ["127.0.0.1", "192.168.1.20", "localhost"]
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    first = cert.read_bytes()
    assert ensure_certificate(tmp_path, ["192.168.1.20"])[0].read_bytes() == first
    ensure_certificate(tmp_path, ["10.0.0.7"])
    assert "10.0.0.7" in certificate_names(cert.read_bytes()) and cert.read_bytes() != first


def test_the_deck_line_says_which_deck_the_camera_uses(tmp_path):
    store = DeckStore(tmp_path / "decks")
    assert deck_line(store.active()) == "Camera deck: Stand-in deck (51 faces)"
    deck = store.create("Our cards", doubles=False)
    assert deck_line(deck) == "Camera deck: Our cards (0 of 46 faces: the other 46 cannot be read)"


def test_serve_says_why_it_cannot_use_a_deck_folder(tmp_path, capsys):
    assert main(["serve", "--deck", str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("serve: cannot use the deck: ") and "no such folder" in err
    photos = tmp_path / "photos"  # a manifest of photos, not enrolled yet
    photos.mkdir()
    (photos / "manifest.json").write_text('{"cards": [{"image": "IMG_1.jpg", "card": "S"}]}')
    cv2.imwrite(str(photos / "IMG_1.jpg"), np.full((600, 800, 3), 120, np.uint8))
    assert main(["serve", "--deck", str(photos)]) == 2
    assert f"run: mamma-mia enroll {photos}" in capsys.readouterr().err
