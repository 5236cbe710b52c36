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


@pytest.fixture(scope="session")
def hard_deck() -> tuple[Art, ReferenceDeck]:
    """The hard deck style's art (orders told apart by a thin frame or one
    topping), and its references drawn from it."""
    hard = Art.of(STYLES["hard"])
    return hard, ReferenceDeck.from_faces(hard.faces.items())


@pytest.fixture(scope="session", autouse=True)
def deck_cache(tmp_path_factory: pytest.TempPathFactory):
    """Built decks are kept in a folder of the test session's own, not the user's cache."""
    folder = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(folder))
        yield folder
