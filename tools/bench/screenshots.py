"""Screenshots of the key screens for the README, at phone and tablet size.

Plays the end-to-end games (tests/e2e/test_manual_game.py, the live-camera
game of tests/e2e/test_camera_game.py, teaching a deck in
tests/e2e/test_teach_deck.py, the phone round and the games list of
tests/e2e/test_phone_round.py and test_games_home.py, the Maus au Chocolat
game of tests/e2e/test_maus_game.py) once per size with
MAMMA_MIA_SCREENSHOTS set, then re-saves each PNG with a reduced palette so
the files stay small in the repository. A test that fails leaves the screens
it reached: the tool says which run failed and exits with 1.

  .venv/bin/python -m tools.bench.screenshots            # writes docs/screenshots/*.png
  .venv/bin/python -m tools.bench.screenshots maus       # only the screens of the tests named maus
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "screenshots"
SIZES = {"phone": "390x844", "tablet": "800x1280"}
LEVELS = 16  # per channel after quantising: flat UI colours survive, PNG compresses well


def shoot(prefix: str, viewport: str, only: str | None = None) -> bool:
    """The screens at one size (of the tests whose file names contain
    ``only``, when given); False when a test failed."""
    env = {**os.environ, "MAMMA_MIA_SCREENSHOTS": str(OUT), "MAMMA_MIA_SCREENSHOT_PREFIX": prefix,
           "MAMMA_MIA_VIEWPORT": viewport}
    e2e = ROOT / "tests" / "e2e"
    tests = [str(e2e / "test_manual_game.py"),
             str(e2e / "test_camera_game.py") + "::test_a_whole_game_through_the_live_camera",
             str(e2e / "test_teach_deck.py"), str(e2e / "test_phone_round.py"),
             str(e2e / "test_games_home.py") + "::test_games_look_like_links_and_are_archived_or_deleted",
             str(e2e / "test_maus_game.py") + "::test_a_whole_game_to_thirty_by_tapping_with_one_round_through_the_camera"]
    tests = [t for t in tests if only is None or only in Path(t.split("::")[0]).name]
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests], env=env, cwd=ROOT)
    if run.returncode:
        print(f"{prefix}: a test failed; its screens are those it reached", file=sys.stderr)
    return run.returncode == 0


def shrink(path: Path) -> None:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    step = 256 // LEVELS
    quantised = (image // step) * step + step // 2
    # keep pure white white (page backgrounds) rather than shifting it to 248
    quantised[np.all(image >= 250, axis=2)] = 255
    cv2.imwrite(str(path), quantised.astype(np.uint8), [cv2.IMWRITE_PNG_COMPRESSION, 9])


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    only = sys.argv[1] if len(sys.argv) > 1 else None
    started = {path: path.stat().st_mtime for path in OUT.glob("*.png")}
    passed = [shoot(prefix, viewport, only) for prefix, viewport in SIZES.items()]
    for path in sorted(OUT.glob("*.png")):
        if started.get(path) == path.stat().st_mtime:
            continue  # not written by this run: already shrunk
        before = path.stat().st_size
        shrink(path)
        print(f"{path.relative_to(ROOT)}: {before // 1024} KB -> {path.stat().st_size // 1024} KB")
    return 0 if all(passed) else 1


if __name__ == "__main__":
    sys.exit(main())
