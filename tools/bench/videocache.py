"""Synthetic flip videos rendered once and kept on disk.

Rendering costs far more than tracking (about 65 ms a frame at 960x540), so
benchmark runs keep each seeded video as the exact JPEG bytes the synthetic
camera produced, one concatenated ``.mjpeg`` file per video: decoding gives
back the very frames an in-memory run would feed. Rendering runs in worker
processes; the worker lives in this importable module so it can be pickled.
"""
from __future__ import annotations

import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Iterator

import numpy as np


def cache_name(seed: int, index: int, cards: tuple[int, int], style: str, kind: str = "classic") -> str:
    prefix = "flip" if kind == "classic" else f"flip-{kind}"  # the classic set keeps the names it had
    return f"{prefix}-{style}-s{seed}-c{cards[0]}-{cards[1]}-{index:04d}.mjpeg"


def fill_cache(cache: Path, count: int, seed: int, cards: tuple[int, int], workers: int = 1,
               style: str = "default", kind: str = "classic") -> list[Path]:
    """Paths of videos ``0..count-1`` of the seeded set, rendering the missing ones."""
    cache.mkdir(parents=True, exist_ok=True)
    paths = [cache / cache_name(seed, i, cards, style, kind) for i in range(count)]
    missing = [(seed, i, cards, style, kind, str(p)) for i, p in enumerate(paths) if not p.exists()]
    if missing:
        print(f"rendering {len(missing)} videos into {cache} with {workers} worker(s)", file=sys.stderr)
        with ProcessPoolExecutor(max(1, workers)) as pool:
            for done in pool.map(render_cached, missing):
                print(f"  {done}", file=sys.stderr)
    return paths


def render_cached(job: tuple[int, int, tuple[int, int], str, str, str]) -> str:
    """Render one video of the seeded set into its file (worker process)."""
    from tools.synth.datasets import Art, video_plan
    from tools.synth.style import style_named
    from tools.synth.video_sets import render_frames

    import cv2

    from threadpoolctl import threadpool_limits

    threadpool_limits(1, user_api="blas")  # workers share the machine: spinning library threads only waste it
    cv2.setNumThreads(1)
    seed, index, cards, style, kind, path = job
    art = Art.of(style_named(style))
    plan, rng = video_plan(seed, index, cards, kind=kind)
    partial = Path(path + ".part")
    with partial.open("wb") as out:
        for frame in render_frames(plan, art.faces, rng, art.back, kind):
            out.write(frame.shot.jpeg)
    partial.rename(path)  # a run killed half-way leaves no truncated video behind
    return Path(path).name


def cached_frames(path: Path) -> Iterator[np.ndarray]:
    from vision.cvcompat import decode_image
    from tools.synth.video_files import split_mjpeg

    for data in split_mjpeg(path.read_bytes()):
        yield decode_image(data)
