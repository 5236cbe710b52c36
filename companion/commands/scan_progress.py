"""A progress bar for long scans on standard error, which the lines the scan
prints meanwhile never garble."""
from __future__ import annotations

from pathlib import Path
from typing import TextIO


class Progress:
    """A one-line bar redrawn with a carriage return; other lines are printed
    above it (the bar is cleared first) so the two never garble each other."""

    WIDTH = 24

    def __init__(self, total: int, stream: TextIO, enabled: bool = True) -> None:
        self.total, self.stream, self.enabled = total, stream, enabled
        self.done = 0
        self.line = ""

    def show(self, current: str) -> None:
        if self.enabled:
            filled = round(self.WIDTH * self.done / max(1, self.total))
            bar = "#" * filled + "-" * (self.WIDTH - filled)
            self._draw(f"scan [{bar}] {self.done}/{self.total} {Path(current).name}")
        self.done += 1

    def advance(self, done: int, current: str) -> None:
        """Redraw at ``done`` items (for streams counted by the caller)."""
        self.done = done
        if self.total:
            self.show(current)
        elif self.enabled:
            self._draw(f"scan {current}")

    def say(self, text: str, stream: TextIO | None = None) -> None:
        line = self.line
        self._clear()
        print(text, file=stream or self.stream, flush=True)
        if line:
            self._draw(line)

    def finish(self, summary: str) -> None:
        if self.enabled:
            self._clear()
            print(f"scan [{'#' * self.WIDTH}] {summary}", file=self.stream, flush=True)

    def _draw(self, line: str) -> None:
        self._clear()
        self.stream.write("\r" + line)
        self.stream.flush()
        self.line = line

    def _clear(self) -> None:
        if self.line:
            self.stream.write("\r" + " " * len(self.line) + "\r")
            self.stream.flush()
            self.line = ""
