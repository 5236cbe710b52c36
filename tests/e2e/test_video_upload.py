"""A video sent from the camera panel: how much has gone, then the reading, in the status line.

Chromium's upload is slowed down to about 1 MB/s so that the 3.7 MB sample
video takes a few seconds to send, as over a phone's connection.
"""
from __future__ import annotations

import json
import re
import urllib.request

from playwright.sync_api import Page, expect

from companion.assets import DEMO_VIDEO

UPLOAD_BYTES_PER_SECOND = 1_000_000


def test_a_video_upload_shows_its_progress_then_the_reading(page: Page, server: str) -> None:
    request = urllib.request.Request(f"{server}/api/games", method="POST", headers={"Content-Type": "application/json"},
                                     data=json.dumps({"doubled": True, "players": [
                                         {"name": "Ann", "color": "yellow"}, {"name": "Bob", "color": "brown"}]}).encode())
    game_id = json.load(urllib.request.urlopen(request))["id"]
    page.goto(f"/games/{game_id}")
    page.evaluate("""() => {
        const line = document.getElementById("cam-status");
        const bar = document.getElementById("cam-upload");
        window.statusSeen = [];
        new MutationObserver(() => window.statusSeen.push([line.textContent, bar.hidden, bar.value]))
            .observe(line, { childList: true, characterData: true, subtree: true });
    }""")
    network = page.context.new_cdp_session(page)
    network.send("Network.enable")
    network.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1,
                                                      "uploadThroughput": UPLOAD_BYTES_PER_SECOND})

    page.locator("#cam-fallback summary").click()
    page.locator("#cam-video-file").set_input_files(str(DEMO_VIDEO))
    expect(page.locator("#cam-status")).to_contain_text("Card 1 of", timeout=60_000)
    expect(page.locator("#cam-upload")).to_be_hidden()

    seen = page.evaluate("window.statusSeen")
    texts = [text for text, _, _ in seen]
    uploading = [int(m.group(1)) for text in texts if (m := re.fullmatch(r"Uploading the video: (\d+)%", text))]
    assert uploading and uploading[0] == 0 and any(0 < p < 100 for p in uploading), texts
    assert uploading == sorted(uploading), texts
    reading = texts.index("Reading the video (a long one can take a minute)…")
    assert reading > texts.index(f"Uploading the video: {uploading[-1]}%"), texts
    assert all(not hidden for text, hidden, _ in seen[:reading + 1]), "the bar shows while the video goes"
    assert any(0 < value < 1 for _, _, value in seen), seen
