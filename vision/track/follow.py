"""Running a tracker over a frame source: the loop the CLI (and later the
web app) shares, with the source always closed afterwards."""
from __future__ import annotations

from typing import Callable, Iterator

from .sources import Frame, FrameSource
from .tracker import FlipTracker
from .types import Landing


def follow(source: FrameSource, tracker: FlipTracker,
           on_frame: Callable[[Frame], None] | None = None) -> Iterator[Landing]:
    """Each card as it lands, then whatever the tracker still holds at the end.
    :class:`~vision.track.sources.SourceError` from the source passes through."""
    try:
        for frame in source:
            if on_frame is not None:
                on_frame(frame)
            yield from tracker.feed(frame.image, frame.time)
        yield from tracker.finish()
    finally:
        source.close()
