"""The app as a player installs it: a wheel built from this checkout, installed
into a fresh virtual environment outside it, finds its deck, sample photos,
templates and static files, and serves with the production server."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STARTUP_SECONDS = 30


class Installed:
    """A virtual environment with the wheel installed, and a way to run its
    commands from a folder that is not the checkout."""

    def __init__(self, home: Path, workdir: Path) -> None:
        self.home, self.workdir = home, workdir
        self.bin = home / "bin"
        self.env = {key: value for key, value in os.environ.items()
                    if key not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
        self.env["MAMMA_MIA_INSTANCE"] = str(workdir / "instance")

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.bin / args[0]), *args[1:]], cwd=self.workdir, env=self.env,
                              capture_output=True, text=True, timeout=300)

    def package_file(self, relative: str) -> Path:
        code = "import companion, pathlib; print(pathlib.Path(companion.__file__).parent)"
        return Path(self.run("python", "-c", code).stdout.strip()) / relative


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("wheel")
    dist = base / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)],
                   check=True, capture_output=True, text=True, timeout=600)
    wheel = next(dist.glob("*.whl"))
    venv.EnvBuilder(with_pip=True).create(base / "venv")
    workdir = base / "elsewhere"
    workdir.mkdir()
    target = Installed(base / "venv", workdir)
    result = target.run("python", "-m", "pip", "install", "-q", "--disable-pip-version-check", str(wheel))
    assert result.returncode == 0, result.stderr
    return target


def test_the_wheel_holds_the_product_and_its_files_but_no_tooling(installed):
    location = installed.package_file("")
    assert ROOT not in location.parents
    site = location.parent
    assert not (site / "tools").exists() and not (site / "tests").exists()
    for relative in ("web/templates/base.html", "web/static/table.js", "samples/deck/manifest.json",
                     "samples/videos/flip-sample.avi", "web/schema.sql",
                     "maus/engine/data/standin.json", "samples/maus_deck/manifest.json", "samples/maus_deck/g5-3.png"):
        assert (location / relative).is_file(), relative


def test_scan_reads_a_bundled_photo_with_the_bundled_deck(installed):
    photos = installed.package_file("samples/photos")
    truth = json.loads((photos / "photos.json").read_text("utf-8"))
    first = next(photo for photo in truth["photos"] if photo["kind"] == "top")
    top = next(card["card"] for card in first["cards"] if card["top"])
    result = installed.run("mamma-mia", "scan", "--json", str(photos / first["image"]))
    assert result.returncode == 0, result.stderr
    cards = json.loads(result.stdout)["images"][0]["cards"]
    assert cards and cards[0]["card"] == top and cards[0]["sure"] is True


def test_maus_finds_its_deck_data(installed):
    result = installed.run("mamma-mia", "maus", "ingredients", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["deck"]["cards"] == 80


def test_the_help_offers_no_synthesiser(installed):
    result = installed.run("mamma-mia", "--help")
    assert result.returncode == 0 and "serve" in result.stdout and "synth" not in result.stdout


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_serve_answers_with_the_production_server_and_stops_on_ctrl_c(installed):
    port = free_port()
    server = subprocess.Popen([str(installed.bin / "mamma-mia"), "serve", "--port", str(port)],
                              cwd=installed.workdir, env=installed.env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        home = wait_for_page(f"http://127.0.0.1:{port}/")
        style = urllib.request.urlopen(f"http://127.0.0.1:{port}/static/table.css", timeout=10)
        assert home.status == 200 and style.status == 200
        # each game's own templates and scripts are in the wheel too
        maus = urllib.request.urlopen(f"http://127.0.0.1:{port}/maus/new", timeout=10)
        script = urllib.request.urlopen(f"http://127.0.0.1:{port}/static/maus.js", timeout=10)
        assert maus.status == 200 and script.status == 200
    finally:
        server.send_signal(signal.SIGINT)
        output, _ = server.communicate(timeout=30)
    assert server.returncode == 0, output
    assert "development server" not in output.lower()
    assert f"127.0.0.1:{port}" in output


def wait_for_page(url: str):
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        try:
            return urllib.request.urlopen(url, timeout=5)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
