"""Progress of long scans on standard error: a tqdm bar only on a terminal;
redirected to a file or a pipe, no carriage-return frames, only the lines the
scan prints and one summary line at the end."""
from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from pathlib import Path

from companion import cli
from companion.commands.scan_progress import Progress

ROOT = Path(__file__).resolve().parent.parent
PHOTO = ROOT / "sample_images" / "photos" / "top-05.jpg"


class Terminal(io.StringIO):
    """Standard error as a terminal: tqdm draws its bar here."""

    def isatty(self) -> bool:
        return True


def batch(folder: Path) -> list[str]:
    """Three files that are not photos (refused at once) and one real photo:
    enough images for progress reporting, quick to scan."""
    paths = []
    for name in ("a.jpg", "b.jpg", "c.jpg"):
        (folder / name).write_text("not a photo\n")
        paths.append(str(folder / name))
    return paths + [str(PHOTO)]


def test_stderr_redirected_to_a_file_holds_the_lines_and_a_summary_but_no_frames(tmp_path):
    paths = batch(tmp_path)
    with open(tmp_path / "err.txt", "w") as err:
        result = subprocess.run([sys.executable, "-m", "companion.cli", "scan", "--no-text", *paths],
                                stdout=subprocess.PIPE, stderr=err, text=True, cwd=ROOT, timeout=120)
    text = (tmp_path / "err.txt").read_text()
    assert result.returncode == 1, text
    assert "\r" not in text
    lines = text.splitlines()
    assert lines[-1] == "scan: 4 images scanned, 3 could not be read"
    assert len(lines) == 4 and all(line.startswith(f"scan: {path}: ") for line, path in zip(lines, paths[:3]))
    assert result.stdout.startswith(f"{PHOTO}: green order 4 pineapple + 1 pepper")


def test_a_terminal_shows_a_tqdm_bar_that_never_garbles_the_lines(tmp_path):
    paths = batch(tmp_path)
    out, err = io.StringIO(), Terminal()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["scan", "--no-text", *paths])
    text = err.getvalue()
    assert code == 1
    assert "\rscan:   0%|" in text and "| 0/4 [" in text and "| 3/4 [" in text and "a.jpg]" in text
    # each line said ends a frame of its own: the bar was cleared before it, redrawn after
    said = [frame for frame in text.split("\r") if "\n" in frame]
    assert [line.split(": ")[1] for line in said[:3]] == paths[:3]
    assert said[-1] == "scan: 4 images scanned, 3 could not be read\n" and text.endswith(said[-1])
    assert "\r" not in out.getvalue() and out.getvalue().startswith(f"{PHOTO}: green order 4")


def test_off_a_terminal_the_lines_come_as_they_are_then_the_summary():
    err = io.StringIO()
    progress = Progress(3, err, unit="image")
    for done, name in enumerate(["a.jpg", "b.jpg", "c.jpg"], 1):
        progress.show(name)
        progress.advance(done)
        progress.say(f"scan: {name}: broken")
    progress.finish("3 images scanned, 3 could not be read")
    assert err.getvalue() == ("scan: a.jpg: broken\nscan: b.jpg: broken\nscan: c.jpg: broken\n"
                              "scan: 3 images scanned, 3 could not be read\n")


def test_frames_of_unknown_number_are_counted_on_a_terminal():
    err = Terminal()
    progress = Progress(None, err, unit="frame")
    for index in range(30):
        progress.advance(index + 1)
    progress.say("#1 frame 12: salami 0.97")
    progress.finish("1 card revealed")
    text = err.getvalue()
    assert "\rscan: 30frame [" in text and "\r#1 frame 12: salami 0.97\n" in text
    assert text.endswith("\rscan: 1 card revealed\n")


def test_disabled_progress_prints_only_the_lines_even_on_a_terminal():
    err = Terminal()
    progress = Progress(None, err, enabled=False)
    progress.advance(10)
    progress.say("#1 frame 3: salami 0.97")
    progress.finish("1 card revealed")
    assert err.getvalue() == "#1 frame 3: salami 0.97\n"
