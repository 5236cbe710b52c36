"""The host's home page, as a phone's camera would see it: the QR code it
shows, photographed from the browser's screen, reads back as the address
tablets and phones open."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import cv2
import numpy as np
import pytest

from companion.web import create_app
from companion.web.server import build_server, serve_in_thread

ADDRESS = "https://192.168.1.20:5000/"


@pytest.fixture(scope="module")
def server(instance_folder: Path) -> Iterator[str]:
    """Overrides conftest's server: one that says it is served to the network at ADDRESS."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MAMMA_MIA_INSTANCE", str(instance_folder))
        app = create_app({"DATABASE": str(instance_folder / "join.sqlite"), "SECRET_KEY": "e2e",
                          "TABLE_CODE": "482913", "JOIN_ADDRESS": ADDRESS})
    served = build_server(app, "127.0.0.1", 0)
    thread = serve_in_thread(served)
    try:
        yield f"http://127.0.0.1:{served.bind_addr[1]}"
    finally:
        served.stop()
        thread.join(timeout=10)


def test_the_qr_code_on_the_host_screen_reads_as_the_address(page, shoot) -> None:
    page.goto("/")
    panel = page.locator("#join")
    panel.scroll_into_view_if_needed()
    shoot("join")
    assert panel.get_by_role("link", name=ADDRESS).get_attribute("href") == ADDRESS
    picture = cv2.imdecode(np.frombuffer(page.locator("#join .join-qr").screenshot(), np.uint8), cv2.IMREAD_COLOR)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(picture)
    assert text == ADDRESS
    box = page.locator("#join .join-qr svg").bounding_box()
    assert box["width"] >= 150 and box["x"] + box["width"] <= page.viewport_size["width"]  # whole, and big enough
