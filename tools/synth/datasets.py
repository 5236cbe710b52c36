"""Seeded sets of synthetic photos and flip videos, in memory or on disk.

Item ``i`` of a set with seed ``s`` draws from its own generator seeded with
``(s, i)``, so any one item can be regenerated alone and a set can be grown
without changing its earlier items.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Mapping, Sequence

import numpy as np

from companion.engine import Card

from vision.cvcompat import write_bytes
from tools.synth.deck_art import render_back
from tools.synth.deck_files import render_deck
from tools.synth.photo_spec import PHOTO_KINDS
from tools.synth.style import DEFAULT_STYLE, DeckStyle
from tools.synth.synth_photo import SyntheticPhoto, random_photo
from tools.synth.video_files import VideoFiles, write_flip_video
from tools.synth.video_sets import AnyPlan, plan_video

PHOTO_MIX = {"top": 0.7, "layout": 0.15, "empty": 0.15}


@dataclass(frozen=True)
class Art:
    """The images a synthetic camera films: every face and the card back."""

    faces: Mapping[Card, np.ndarray]
    back: np.ndarray

    @classmethod
    def of(cls, style: DeckStyle = DEFAULT_STYLE) -> Art:
        return cls({f.card: f.image for f in render_deck(style)}, render_back(style))


def item_rng(seed: int, index: int) -> np.random.Generator:
    return np.random.default_rng([seed, index])


def photo_kind(rng: np.random.Generator, kinds: Sequence[str]) -> str:
    if len(kinds) == 1:
        return kinds[0]
    weights = np.array([PHOTO_MIX.get(k, 0.1) for k in kinds])
    return kinds[int(rng.choice(len(kinds), p=weights / weights.sum()))]


def photo_stream(art: Art, count: int, seed: int, kinds: Sequence[str] = PHOTO_KINDS,
                 size: tuple[int, int] = (1280, 720), start: int = 0) -> Iterator[SyntheticPhoto]:
    for index in range(start, start + count):
        rng = item_rng(seed, index)
        yield random_photo(art.faces, photo_kind(rng, kinds), rng, size, art.back)


def write_photo_set(out_dir: str | Path, count: int, seed: int, kinds: Sequence[str] = PHOTO_KINDS,
                    art: Art | None = None, size: tuple[int, int] = (1280, 720), prefix: str = "photo") -> Path:
    """JPEG photos plus ``photos.json`` (the truth of each, in order); returns the JSON path."""
    out = Path(out_dir)
    art = art or Art.of()
    truths = []
    for index, photo in enumerate(photo_stream(art, count, seed, kinds, size)):
        name = f"{prefix}-{index:05d}.jpg"
        write_bytes(out / name, photo.jpeg)
        truths.append(photo.truth_json(name))
    index_path = out / "photos.json"
    index_path.write_text(json.dumps({"seed": seed, "kinds": list(kinds), "photos": truths}, indent=1) + "\n")
    return index_path


def video_plan(seed: int, index: int, cards: tuple[int, int] = (20, 60), size: tuple[int, int] = (960, 540),
               fps: float = 15.0, kind: str = "classic") -> tuple[AnyPlan, np.random.Generator]:
    """The plan of video ``index`` of set ``kind`` (see :mod:`tools.synth.video_sets`)
    and the generator that then renders it."""
    rng = item_rng(seed, index)
    length = int(rng.integers(cards[0], cards[1] + 1))
    return plan_video(kind, length, rng, size, fps), rng


def write_video_set(out_dir: str | Path, count: int, seed: int, cards: tuple[int, int] = (20, 60),
                    art: Art | None = None, size: tuple[int, int] = (960, 540), fps: float = 15.0,
                    frames: bool = True, fake_camera: bool = False, prefix: str = "flip",
                    kind: str = "classic") -> list[VideoFiles]:
    art = art or Art.of()
    written = []
    for index in range(count):
        plan, rng = video_plan(seed, index, cards, size, fps, kind)
        written.append(write_flip_video(plan, art.faces, rng, out_dir, f"{prefix}-{index:04d}", frames=frames,
                                        fake_camera=fake_camera, back=art.back, kind=kind))
    return written
