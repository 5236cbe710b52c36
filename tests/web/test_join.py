"""How a tablet or phone joins: said when `serve` starts and on the host's home page,
with a QR code of the address that a QR reader (OpenCV's) reads back."""
from __future__ import annotations

import re
from types import SimpleNamespace

import cv2
import numpy as np
import pytest
from flask import Flask

import companion.commands.serve
import companion.web
import companion.web.server
from companion.cli import main

ADDRESS = "https://192.168.1.20:5000/"
PHONE = {"REMOTE_ADDR": "192.168.1.23"}


def read_qr(svg: str) -> str:
    """What a QR reader makes of an inline SVG QR code as segno draws it:
    one path of horizontal runs (``M x y`` / ``m dx dy`` moves, ``h n`` runs), one unit a module."""
    path = re.search(r'<path[^>]*class="qrline"[^>]* d="([^"]+)"', svg).group(1)
    x = y = 0.0
    dark: list[tuple[int, int, int]] = []
    for command, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?:\s+(-?[\d.]+))?", path.replace(",", " ")):
        if command == "M":
            x, y = float(a), float(b)
        elif command == "m":
            x, y = x + float(a), y + float(b)
        else:
            dark.append((int(y), int(x), int(x + float(a))))
            x += float(a)
    size = max(end for _, _, end in dark) + 4
    grid = np.full((size, size), 255, np.uint8)
    for row, start, end in dark:
        grid[row, start:end] = 0
    image = cv2.resize(grid, (size * 8, size * 8), interpolation=cv2.INTER_NEAREST)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    return text


def home(app: Flask, device: dict | None = None) -> str:
    return app.test_client().get("/", environ_base=device or {}).get_data(as_text=True)


def join_panel(page: str) -> str | None:
    found = re.search(r'<section class="panel join" id="join">(.*?)</section>', page, re.S)
    return found.group(1) if found else None


def test_the_host_sees_the_address_and_a_qr_code_of_it(app):
    app.config.update(TABLE_CODE="482913", JOIN_ADDRESS=ADDRESS)
    panel = join_panel(home(app))
    assert panel is not None and f'<a href="{ADDRESS}">{ADDRESS}</a>' in panel
    assert read_qr(re.search(r"<svg.*?</svg>", panel, re.S).group(0)) == ADDRESS
    assert f"<title>QR code of {ADDRESS}</title>" in panel
    assert "table code shown at the top" in panel and "certificate" in panel


def test_the_qr_reader_is_not_fooled():
    """The reader above reads what the code holds, not just any address."""
    from companion.web.joining import Joining

    assert read_qr(Joining("https://10.0.0.7:5000/").qr_svg("x")) == "https://10.0.0.7:5000/" != ADDRESS


def test_other_devices_are_not_shown_how_to_join(app):
    app.config.update(TABLE_CODE="482913", JOIN_ADDRESS=ADDRESS)
    assert join_panel(home(app, PHONE)) is None


def test_plain_http_says_the_cameras_need_https(app):
    app.config.update(TABLE_CODE="482913", JOIN_ADDRESS="http://192.168.1.20:5000/")
    panel = join_panel(home(app))
    assert "cameras stay off" in panel and "mamma-mia serve --host 0.0.0.0 --https" in panel


def test_a_host_served_on_loopback_is_told_how_to_let_tablets_in(app):
    panel = join_panel(home(app))
    assert "listens on this computer only" in panel
    assert "<code>make run</code>" in panel and "<code>mamma-mia serve --host 0.0.0.0 --https</code>" in panel
    assert "<svg" not in panel


def test_the_panel_speaks_the_page_language(app):
    app.config.update(TABLE_CODE="482913", JOIN_ADDRESS=ADDRESS)
    client = app.test_client()
    client.set_cookie("lang", "cs")
    panel = join_panel(client.get("/").get_data(as_text=True))
    assert "Hrajte z tabletu nebo telefonu" in panel and f"QR kód adresy {ADDRESS}" in panel


def serve(monkeypatch, tmp_path, *argv: str) -> Flask:
    """`mamma-mia serve` as far as its output, without listening; this computer at 192.168.1.20."""
    made: list[Flask] = []
    real_create_app = companion.web.create_app
    monkeypatch.setenv("MAMMA_MIA_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setattr(companion.web, "create_app", lambda: made.append(
        real_create_app({"DATABASE": str(tmp_path / "db.sqlite"), "SECRET_KEY": "t"})) or made[-1])
    monkeypatch.setattr(companion.web.server, "build_server", lambda *args: SimpleNamespace(prepare=lambda: None))
    monkeypatch.setattr(companion.web.server, "serve_until_stopped", lambda server: None)
    monkeypatch.setattr(companion.commands.serve, "lan_address", lambda: "192.168.1.20")
    assert main(["serve", *argv]) == 0
    return made[0]


def test_serving_to_the_network_prints_the_address_tablets_open(monkeypatch, tmp_path, capsys):
    app = serve(monkeypatch, tmp_path, "--host", "0.0.0.0", "--https", "--port", "5000")
    out = capsys.readouterr().out
    assert app.config["JOIN_ADDRESS"] == ADDRESS
    assert "Open https://127.0.0.1:5000/ on this computer" in out
    assert f"Tablets and phones on the same network: open {ADDRESS}" in out
    assert "accept it" in out and "Table code: " in out
    assert join_panel(home(app)) is not None


def test_serving_on_loopback_prints_how_to_let_tablets_in(monkeypatch, tmp_path, capsys):
    app = serve(monkeypatch, tmp_path)
    out = capsys.readouterr().out
    assert app.config["JOIN_ADDRESS"] is None
    assert "Open http://127.0.0.1:5000/ on this computer" in out
    assert "Tablets and phones cannot reach this address" in out
    assert "mamma-mia serve --host 0.0.0.0 --https" in out and "make run" in out


def test_plain_http_to_the_network_says_the_cameras_need_https(monkeypatch, tmp_path, capsys):
    serve(monkeypatch, tmp_path, "--host", "0.0.0.0")
    out = capsys.readouterr().out
    assert "open http://192.168.1.20:5000/" in out and "restart with --https" in out


@pytest.mark.parametrize("tty, lines", [(False, 0), (True, 10)])
def test_a_terminal_gets_the_qr_code_too(tty, lines):
    from companion.web.joining import Joining

    said = "\n".join(Joining(ADDRESS).console_lines(tty=tty))
    assert said.count("█") > 0 if tty else "█" not in said
    assert said.count("\n") >= lines
