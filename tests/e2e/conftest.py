"""A real server and Debian's Chromium, driven by Playwright (no browser download).

The app runs in a thread (the cheroot server of ``mamma-mia serve`` on a free
port, a fresh SQLite file); the browser is /usr/bin/chromium (``apt-get install chromium``,
which ``make test`` does when root). Set ``MAMMA_MIA_SCREENSHOTS`` to a folder
to have the test save its key screens there, and ``MAMMA_MIA_VIEWPORT`` (e.g.
``800x1280``) for the screen size (default: a phone, 390x844).
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

import pytest

from companion.web import create_app
from companion.web.server import WsgiApp, build_server, serve_in_thread

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions"]


@pytest.fixture(scope="module")
def instance_folder(tmp_path_factory) -> Path:
    """The server's instance folder: the decks taught and the one made active
    stay with it, not in the checkout's."""
    return tmp_path_factory.mktemp("e2e")


@contextmanager
def serving(instance_folder: Path, wrap: Callable[[WsgiApp], WsgiApp] = lambda app: app,
            config: dict | None = None) -> Iterator[str]:
    """The app on a free port, as ``wrap(app)`` (a test may slow it down) with
    ``config`` added, for as long as the block lasts."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MAMMA_MIA_INSTANCE", str(instance_folder))
        # no polling: what reaches a page from another device was pushed, and a page
        # cut off from the pushes stays stale (the stale-page test needs one)
        app = create_app({"DATABASE": str(instance_folder / "mamma-mia.sqlite"), "SECRET_KEY": "e2e",
                          "POLL_SECONDS": 0, **(config or {})})
    server = build_server(wrap(app), "127.0.0.1", 0, on_stop=app.extensions["live"].close)
    thread = serve_in_thread(server)
    try:
        yield f"http://127.0.0.1:{server.bind_addr[1]}"
    finally:
        server.stop()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def server(instance_folder) -> Iterator[str]:
    with serving(instance_folder) as url:
        yield url


@pytest.fixture(scope="module")
def browser(playwright_driver) -> Iterator[object]:
    launched = playwright_driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield launched
    launched.close()


@pytest.fixture
def page(browser, server) -> Iterator[object]:
    width, height = map(int, os.environ.get("MAMMA_MIA_VIEWPORT", "390x844").split("x"))
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US",
                                  base_url=server, has_touch=True)
    context.set_default_timeout(15_000)
    tab = context.new_page()
    yield tab
    context.close()


def save_screenshot(page, name: str, full_page: bool = False, size: dict | None = None) -> None:  # noqa: ANN001
    """Save ``page`` (a Playwright page) as PREFIX-NAME.png when MAMMA_MIA_SCREENSHOTS names a
    folder; a page of a fixed ``size`` only in the run of that size (MAMMA_MIA_VIEWPORT)."""
    folder = os.environ.get("MAMMA_MIA_SCREENSHOTS")
    if size is not None and os.environ.get("MAMMA_MIA_VIEWPORT", "390x844") != f"{size['width']}x{size['height']}":
        return
    if folder:
        prefix = os.environ.get("MAMMA_MIA_SCREENSHOT_PREFIX", "phone")
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{prefix}-{name}.png"), full_page=full_page)


@pytest.fixture
def shoot(page):
    """``shoot("name")`` saves the page when MAMMA_MIA_SCREENSHOTS is set."""
    def save(name: str, full_page: bool = False) -> None:
        save_screenshot(page, name, full_page)
    return save


# the live camera: Chromium's fake camera fed a generated flip video --------------------------


def cached_video(name: str, recipe: str, render: Callable[[Path], None]) -> Path:
    """``render(path)`` once per ``recipe`` (the text its output depends on),
    kept between runs in ``MAMMA_MIA_E2E_CACHE`` (a temporary folder by
    default); ``render`` writes elsewhere and renames, so a run cut short
    leaves no half file behind."""
    cache = Path(os.environ.get("MAMMA_MIA_E2E_CACHE", Path(tempfile.gettempdir()) / "mamma-mia-e2e-camera"))
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / f"{name}-{hashlib.sha1(recipe.encode()).hexdigest()[:10]}.mjpeg"
    if not path.exists():
        render(path)
    return path

FAKE_CAMERA_ARGS = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]


@pytest.fixture(scope="module")
def playwright_driver() -> Iterator[object]:
    """Playwright itself, one per module: for the shared browser, and for tests
    that launch a browser of their own (one per camera video)."""
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), "install Debian's Chromium: apt-get install -y chromium"
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture
def camera_page(playwright_driver, server):
    """``camera_page(video)`` opens a phone-sized tab in a new Chromium whose camera
    plays ``video`` (a ``.mjpeg``; it loops at its end), closing the one opened before."""
    launched: list = []

    def open_tab(video: Path):
        while launched:  # one camera at a time: the previous round's browser goes
            launched.pop().close()
        browser = playwright_driver.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS + FAKE_CAMERA_ARGS + [f"--use-file-for-fake-video-capture={video}"])
        launched.append(browser)
        width, height = map(int, os.environ.get("MAMMA_MIA_VIEWPORT", "390x844").split("x"))
        context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US",
                                      base_url=server, has_touch=True)
        context.set_default_timeout(15_000)
        return context.new_page()

    yield open_tab
    for browser in launched:
        browser.close()
