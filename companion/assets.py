"""Where the files that are not code are found: page templates, static files,
the bundled stand-in decks, sample photos and the demo flip video.

In the source tree they sit at the top level (``templates/``, ``static/``,
``sample_images/``). A built wheel carries them inside the packages instead
(``pyproject.toml`` maps them to ``companion/web/templates``,
``companion/web/static`` and ``companion/samples``), so the installed app finds
them without the source tree. Both places are relative to the folder that holds
the ``companion`` package: the checkout, or ``site-packages``.

>>> (TEMPLATES / "base.html").is_file(), (DEFAULT_DECK_DIR / "manifest.json").is_file()
(True, True)
"""
from __future__ import annotations

from pathlib import Path

_HOME = Path(__file__).resolve().parent.parent


def asset_dir(installed: str, source: str) -> Path:
    """The folder at ``installed`` (its place in a wheel) if there is one,
    else at ``source`` (its place in the source tree)."""
    for candidate in (_HOME / installed, _HOME / source):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"{installed} (or {source}) is missing from {_HOME}: reinstall the app")


TEMPLATES = asset_dir("companion/web/templates", "templates")
STATIC = asset_dir("companion/web/static", "static")
SAMPLES = asset_dir("companion/samples", "sample_images")
DEFAULT_DECK_DIR = SAMPLES / "deck"  # the stand-in deck the camera knows out of the box
MAUS_DECK_DIR = SAMPLES / "maus_deck"  # the stand-in Maus au Chocolat deck, likewise
SAMPLE_PHOTOS = SAMPLES / "photos"
DEMO_VIDEO = SAMPLES / "videos" / "flip-sample.avi"
