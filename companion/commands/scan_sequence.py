"""``mamma-mia scan --sequence`` and ``--camera``: follow the oven pile as it
is flipped and report each card the moment it lands, optionally with the
engine's verdict at each order."""
from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from ..report import counted

if TYPE_CHECKING:  # the heavy modules load when a scan runs, so `mamma-mia evaluate` starts fast
    from vision.recognize.pipeline import Recogniser

    from .scan_progress import Progress


def scan_sequence(args: argparse.Namespace, recogniser: Recogniser) -> int:
    """The cards revealed in a video or a folder of frames, in order."""
    from vision.track.sources import SourceError, open_sequence

    from .scan_progress import Progress

    try:
        source = open_sequence(args.sequence, args.fps)
    except SourceError as error:
        print(f"scan: {error}", file=sys.stderr)
        return 2
    return _track(args, recogniser, source, Progress(source.total, sys.stderr, unit="frame"))


def scan_camera(args: argparse.Namespace, recogniser: Recogniser) -> int:
    """Each card revealed in front of the camera, printed as it lands."""
    from vision.track import sources

    from .scan_progress import Progress

    try:
        source = sources.open_camera(args.camera)
    except sources.SourceError as error:
        print(f"scan: camera {args.camera}: {error}", file=sys.stderr)
        return 2
    return _track(args, recogniser, source, Progress(None, sys.stderr, enabled=False))


def _track(args: argparse.Namespace, recogniser: Recogniser, source, progress: Progress) -> int:  # noqa: ANN001
    from vision.track.follow import follow
    from vision.track.narrate import LiveEvaluation, describe_event, parse_players, sequence_json
    from vision.track.factory import tracker_for
    from vision.track.sources import SourceError

    evaluation = LiveEvaluation(parse_players(args.players), args.doubles) if args.evaluate else None
    events, verdicts = [], []  # verdicts: the engine's words per event, with --evaluate

    def on_frame(frame) -> None:  # noqa: ANN001
        progress.advance(frame.index + 1)

    try:
        for event in follow(source, tracker_for(recogniser, fps=getattr(source, "fps", None)), on_frame):
            events.append(event)
            if not args.json:
                progress.say(describe_event(event, len(events), recogniser.config.is_sure(event.match)), sys.stdout)
            verdict = evaluation.reveal(event.card) if evaluation is not None else []
            verdicts.append(" ".join(line.strip() for line in verdict))
            for line in [] if args.json else verdict:
                progress.say(line, sys.stdout)
    except SourceError as error:
        progress.finish("stopped")
        print(f"scan: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # the player stops the camera: report what was seen
        source.close()
    progress.finish(f"{counted(len(events), 'card')} revealed")
    if args.json:
        result = sequence_json(events, recogniser.config.is_sure)
        if evaluation is not None:
            for event, verdict in zip(result["events"], verdicts):
                event["engine"] = verdict or None
        print(json.dumps(result, indent=2))
    elif not events:
        print("no card was revealed")
    return 0
