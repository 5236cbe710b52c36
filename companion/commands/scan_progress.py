"""How far a long scan is, on standard error.

On a terminal a tqdm bar moves while the scan runs, and the lines the scan
prints meanwhile appear above it. Anywhere else (a file, a pipe, a CI log)
a bar would leave a smear of carriage-return frames, so it stays off and one
summary line at the end says what was done.
"""
from __future__ import annotations

from typing import TextIO

from tqdm import tqdm


class Progress:
    """A bar on a terminal and a ``scan: SUMMARY`` line at the end; with
    ``enabled`` false (one photo, a live camera) neither, only the lines said."""

    def __init__(self, total: int | None, stream: TextIO, enabled: bool = True, unit: str = "it") -> None:
        self.stream, self.enabled = stream, enabled
        self.bar = tqdm(total=total or None, file=stream, desc="scan", unit=unit, leave=False,
                        disable=not (enabled and stream.isatty()))

    def show(self, current: str) -> None:
        """Names the item being worked on next to the bar."""
        self.bar.set_postfix_str(current)

    def advance(self, done: int) -> None:
        """Moves the bar to ``done`` items; tqdm itself limits how often it redraws."""
        self.bar.update(done - self.bar.n)

    def say(self, text: str, stream: TextIO | None = None) -> None:
        """Prints a line (to standard error unless ``stream``) without garbling the bar."""
        target = stream or self.stream
        tqdm.write(text, file=target)
        target.flush()

    def finish(self, summary: str) -> None:
        """Removes the bar and prints the summary line."""
        self.bar.close()
        if self.enabled:
            print(f"scan: {summary}", file=self.stream, flush=True)
