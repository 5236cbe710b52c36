"""Writing a flip video: MJPEG AVI, a folder of JPEG frames, the truth JSON
and, optionally, a Chromium fake-camera ``.mjpeg`` file.

Chromium's ``--use-file-for-fake-video-capture=FILE.mjpeg`` reads a plain
concatenation of JPEG images and plays it at a fixed 30 frames per second, so
:func:`fake_camera_repeats` says how often each frame repeats to keep real-time speed.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Mapping

import cv2
import numpy as np

from companion.engine import Card

from vision.cvcompat import open_mjpg_avi
from tools.synth.synth_video import VideoFrame
from tools.synth.video_sets import AnyPlan, render_frames

CHROMIUM_MJPEG_FPS = 30.0


@dataclass(frozen=True)
class VideoFiles:
    avi: Path | None
    frames_dir: Path | None
    truth: Path
    mjpeg: Path | None
    frame_count: int


def fake_camera_repeats(index: int, source_fps: float, playback_fps: float = CHROMIUM_MJPEG_FPS) -> int:
    """How many times frame ``index`` of ``source_fps`` footage is shown so that
    it plays at its own speed at ``playback_fps``."""
    return playback_index(index + 1, source_fps, playback_fps) - playback_index(index, source_fps, playback_fps)


def playback_index(index: int, source_fps: float, playback_fps: float = CHROMIUM_MJPEG_FPS) -> int:
    """The first frame played that shows frame ``index`` of ``source_fps``
    footage: the sum of :func:`fake_camera_repeats` of the frames before it.

    >>> [playback_index(i, 15.0) for i in range(4)]
    [0, 2, 4, 6]
    """
    step = playback_fps / source_fps
    # the epsilon keeps a product that should be whole but rounds just below it from flooring one short
    return math.floor(index * step + 1e-9)


def split_mjpeg(data: bytes) -> list[bytes]:
    """The JPEG images of a concatenated ``.mjpeg`` file (SOI to EOI)."""
    frames, start = [], 0
    while (begin := data.find(b"\xff\xd8", start)) >= 0:
        end = data.find(b"\xff\xd9", begin)
        if end < 0:
            break
        frames.append(data[begin:end + 2])
        start = end + 2
    return frames


def write_flip_video(plan: AnyPlan, faces: Mapping[Card, np.ndarray], rng: np.random.Generator,
                     out_dir: str | Path, name: str, avi: bool = True, frames: bool = True,
                     fake_camera: bool = False, back: np.ndarray | None = None, kind: str = "classic") -> VideoFiles:
    """Render ``plan`` once and write every requested form of it."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    avi_path = out / f"{name}.avi" if avi else None
    frames_dir = out / f"{name}-frames" if frames else None
    mjpeg_path = out / f"{name}.mjpeg" if fake_camera else None
    if frames_dir:
        frames_dir.mkdir(exist_ok=True)
    writer = open_mjpg_avi(avi_path, plan.fps, plan.size) if avi_path else None
    mjpeg = mjpeg_path.open("wb") if mjpeg_path else None
    count = 0
    try:
        for frame in render_frames(plan, faces, rng, back, kind):
            _write_frame(frame, writer, frames_dir, mjpeg, plan.fps)
            count += 1
    finally:
        if writer is not None:
            writer.release()
        if mjpeg is not None:
            mjpeg.close()
    truth = out / f"{name}.truth.json"
    data = {"video": avi_path.name if avi_path else None, "frames_dir": frames_dir.name if frames_dir else None,
            "fake_camera": mjpeg_path.name if mjpeg_path else None, **plan.truth_json()}
    truth.write_text(json.dumps(data, indent=1) + "\n")
    return VideoFiles(avi_path, frames_dir, truth, mjpeg_path, count)


def _write_frame(frame: VideoFrame, writer: cv2.VideoWriter | None, frames_dir: Path | None,
                 mjpeg: BinaryIO | None, fps: float) -> None:
    if writer is not None:
        writer.write(frame.shot.image)
    if frames_dir is not None:
        (frames_dir / f"{frame.index:06d}.jpg").write_bytes(frame.shot.jpeg)
    if mjpeg is not None:
        mjpeg.write(frame.shot.jpeg * fake_camera_repeats(frame.index, fps))
