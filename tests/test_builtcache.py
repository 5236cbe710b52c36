"""Built decks kept on disk: found again only when built from the same files, settings and code."""
from dataclasses import dataclass
from pathlib import Path

import pytest

from vision import builtcache
from vision.builtcache import cache_dir, kept


@dataclass(frozen=True)
class Settings:
    size: int = 96


class Builder:
    """Counts the builds, and builds what the folder holds."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.count = folder, 0

    def __call__(self) -> dict[str, bytes]:
        self.count += 1
        return {p.name: p.read_bytes() for p in sorted(self.folder.iterdir())}


@pytest.fixture
def deck(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = tmp_path / "deck"
    folder.mkdir()
    (folder / "manifest.json").write_text('{"cards": []}')
    (folder / "face.png").write_bytes(b"one")
    return folder


def test_a_deck_built_once_is_loaded_the_next_time(deck: Path) -> None:
    build = Builder(deck)
    first = kept(deck, Settings(), build)
    again = kept(deck, Settings(), build)
    assert build.count == 1 and again == first == {"face.png": b"one", "manifest.json": b'{"cards": []}'}
    assert len(list(cache_dir().glob("*.pickle"))) == 1


def test_a_changed_face_or_setting_builds_anew(deck: Path) -> None:
    build = Builder(deck)
    kept(deck, Settings(), build)
    (deck / "face.png").write_bytes(b"two")
    assert kept(deck, Settings(), build)["face.png"] == b"two"
    kept(deck, Settings(size=64), build)
    assert build.count == 3


def test_other_code_builds_anew(deck: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build = Builder(deck)
    kept(deck, Settings(), build)
    monkeypatch.setattr(builtcache, "_code_digest", lambda: "another version")
    kept(deck, Settings(), build)
    assert build.count == 2


def test_a_spoilt_entry_is_built_again_and_replaced(deck: Path) -> None:
    build = Builder(deck)
    kept(deck, Settings(), build)
    (entry,) = cache_dir().glob("*.pickle")
    entry.write_bytes(b"cut short by a cra")
    assert kept(deck, Settings(), build)["face.png"] == b"one" and build.count == 2
    assert kept(deck, Settings(), build) and build.count == 2


def test_a_cache_that_cannot_be_written_still_builds(deck: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = deck.parent / "not-a-folder"
    blocker.write_text("a file where the cache folder would go")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    build = Builder(deck)
    assert kept(deck, Settings(), build)["face.png"] == b"one"
    assert kept(deck, Settings(), build) and build.count == 2
    assert not list(deck.parent.glob("**/*.part"))


def test_only_the_newest_entries_are_kept(deck: Path) -> None:
    build = Builder(deck)
    for size in range(builtcache.KEPT + 3):
        kept(deck, Settings(size), build)
    assert len(list(cache_dir().glob("*.pickle"))) == builtcache.KEPT
