"""`mamma-mia serve` for real: cheroot in a subprocess, answering, then stopped by a signal;
and serving a deck enrolled from photos."""
from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Callable, Iterator

import cv2
import pytest

from companion.cli import main
from companion.web.server import TableServer
from tools.synth.deck_art import render_face

from .test_enroll import ALT, CARDS, PHOTO_QUADS, card_photo, write_manifest

ROOT = Path(__file__).resolve().parents[1]
START_SECONDS = 60  # Flask, OpenCV and the deck load slowly on a busy two-core machine
STOP_SECONDS = 30

Start = Callable[..., tuple[subprocess.Popen, int]]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def instance(tmp_path) -> Path:
    return tmp_path / "instance"


@pytest.fixture
def serve(instance) -> Iterator[Start]:
    """``serve(*options)`` starts `mamma-mia serve` on a free port with its own instance folder."""
    started: list[subprocess.Popen] = []

    def start(*options: str) -> tuple[subprocess.Popen, int]:
        port = free_port()
        process = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "serve", "--port", str(port), *options],
            cwd=ROOT, env={**os.environ, "MAMMA_MIA_INSTANCE": str(instance)},
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        started.append(process)
        return process, port

    yield start
    for process in started:  # a failed test must not leave a server behind
        if process.poll() is None:
            process.kill()
            process.communicate()


def first_answer(process: subprocess.Popen, url: str, context: ssl.SSLContext | None = None) -> int:
    """The status of the first answer to GET ``url`` while the server starts."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            out, err = process.communicate()
            pytest.fail(f"serve exited with {process.returncode}:\n{out}\n{err}")
        try:
            with urllib.request.urlopen(url, timeout=5, context=context) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code
        except OSError:
            time.sleep(0.2)  # not listening yet
    pytest.fail(f"serve did not answer {url} within {START_SECONDS} s")


def stop(process: subprocess.Popen, number: int) -> tuple[str, str]:
    process.send_signal(number)
    return process.communicate(timeout=STOP_SECONDS)


def unverified() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the certificate is self-signed
    return context


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_serve_answers_then_stops_cleanly_on_a_signal(serve, instance, number):
    process, port = serve()
    assert first_answer(process, f"http://127.0.0.1:{port}/") == 200
    out, err = stop(process, number)
    assert process.returncode == 0, err
    assert f"Open http://127.0.0.1:{port}/" in out
    assert f"Games are kept in {instance / 'mamma-mia.sqlite'}" in out
    assert out.endswith("Stopped.\n")
    assert "development server" not in (out + err).lower()
    assert err == ""  # no traceback, no server chatter


def test_serve_https_answers_with_the_instance_certificate(serve, instance):
    process, port = serve("--https")
    assert first_answer(process, f"https://127.0.0.1:{port}/", unverified()) == 200
    served = ssl.get_server_certificate(("127.0.0.1", port))
    assert ssl.PEM_cert_to_DER_cert(served) == ssl.PEM_cert_to_DER_cert((instance / "table-cert.pem").read_text())
    with urllib.request.urlopen(f"https://127.0.0.1:{port}/", timeout=5, context=unverified()) as home:
        cookie = home.headers["Set-Cookie"]  # the session, holding the page's form token
    assert cookie and "; Secure" in cookie
    with contextlib.suppress(OSError):  # plain HTTP to the TLS port: refused, and not worth a console line
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).close()
    out, err = stop(process, signal.SIGINT)
    assert process.returncode == 0, err
    assert f"Open https://127.0.0.1:{port}/" in out and f"Certificate: {instance / 'table-cert.pem'}" in out
    assert out.endswith("Stopped.\n") and err == ""


def test_a_taken_port_is_reported_without_listing_addresses(instance, monkeypatch, capsys):
    monkeypatch.setenv("MAMMA_MIA_INSTANCE", str(instance))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 1
    captured = capsys.readouterr()
    assert f"serve: cannot listen on 127.0.0.1 port {port}" in captured.err and "Open" not in captured.out


def test_the_server_reports_warnings_and_errors_but_not_its_chatter(capsys):
    server = TableServer(("127.0.0.1", 0), lambda environ, start_response: [])
    server.error_log("Client dropped the TLS connection", level=logging.INFO)
    server.error_log("Error in HTTPServer.serve", level=logging.ERROR)
    assert capsys.readouterr().err == "Error in HTTPServer.serve\n"


def test_serve_uses_a_deck_enrolled_from_photos(serve, tmp_path, capsys):
    folder = tmp_path / "my-deck"
    folder.mkdir()
    items = []
    for k, (card, pose) in enumerate(zip(CARDS, PHOTO_QUADS)):
        cv2.imwrite(str(folder / f"IMG_{k}.jpg"), card_photo(render_face(card, ALT), PHOTO_QUADS[pose], seed=k))
        items.append({"image": f"IMG_{k}.jpg", "card": card.notation})
    write_manifest(folder, items)
    assert main(["enroll", str(folder)]) == 0
    assert f"Play with it: mamma-mia serve --deck {folder}" in capsys.readouterr().out
    process, port = serve("--deck", str(folder))
    assert first_answer(process, f"http://127.0.0.1:{port}/api/decks") == 200
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/decks", timeout=5) as response:
        listed = json.load(response)
    out, err = stop(process, signal.SIGINT)
    assert process.returncode == 0, err
    assert "Camera deck: my-deck (3 of 51 faces: the other 48 cannot be read)\n" in out
    assert listed["active"] == "my-deck"
    assert [(d["id"], d["faces"], d["editable"]) for d in listed["decks"]] == [("standin", 51, False),
                                                                             ("my-deck", 3, False)]


def test_serve_gives_a_maus_deck_folder_to_the_maus_camera(serve, tmp_path, capsys):
    from companion.maus.engine import Card
    from tools.synth.maus_enroll import write_maus_enroll_photos

    folder = tmp_path / "maus-deck"
    write_maus_enroll_photos(folder, seed=7, cards=[Card.from_notation(n) for n in ("r3/3", "r4/2", "g5/3")])
    assert main(["enroll", str(folder)]) == 0
    capsys.readouterr()
    process, port = serve("--deck", str(folder))
    assert first_answer(process, f"http://127.0.0.1:{port}/api/decks?game=maus") == 200
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/decks?game=maus", timeout=5) as response:
        maus = json.load(response)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/decks", timeout=5) as response:
        mamma_mia = json.load(response)
    out, err = stop(process, signal.SIGINT)
    assert process.returncode == 0, err
    assert "Camera deck: maus-deck (3 of 70 faces: the other 67 cannot be read)\n" in out
    assert maus["active"] == "maus-deck" and mamma_mia["active"] == "standin"
    assert [(d["id"], d["faces"], d["editable"]) for d in maus["decks"]] == [("maus-standin", 70, False),
                                                                          ("maus-deck", 3, False)]
