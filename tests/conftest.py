"""Fixtures shared by the recognition tests of several stages (built once a session)."""
import pytest

from tools.synth.datasets import Art
from vision.recognize.identify import ReferenceDeck
from tools.synth.style import STYLES


@pytest.fixture(scope="session")
def alt_deck() -> tuple[Art, ReferenceDeck]:
    """The second deck style's art, and its references drawn from it."""
    alt = Art.of(STYLES["alt"])
    return alt, ReferenceDeck.from_faces(alt.faces.items())
