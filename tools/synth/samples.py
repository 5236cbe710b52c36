"""The small curated set kept in ``sample_images/``: the deck with its
manifest and contact sheet, a few photos of each kind, one short flip video.
Later demos and tests read these; ``python -m tools.synth samples`` rewrites them.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from pathlib import Path

from vision.cvcompat import encode_jpeg, write_bytes
from tools.synth.datasets import Art, item_rng
from tools.synth.deck_files import render_deck, write_contact_sheet, write_deck
from tools.synth.flip_plan import plan_flip_video
from tools.synth.piles import flip_sequence
from tools.synth.previews import photo_grid
from tools.synth.synth_photo import random_photo
from tools.synth.video_files import write_flip_video

SAMPLE_SEED = 20240601
SAMPLE_PHOTOS = (("top", 6), ("layout", 2), ("empty", 2))


@dataclass(frozen=True)
class SampleFiles:
    deck: Path
    contact_sheet: Path
    photos: Path
    photo_preview: Path
    video_truth: Path


def write_samples(root: str | Path, seed: int = SAMPLE_SEED, video_cards: int = 10) -> SampleFiles:
    root = Path(root)
    write_deck(root / "deck")
    sheet = write_contact_sheet(render_deck(), root / "deck_contact_sheet.png")
    art = Art.of()
    photos, truths, index = [], [], 0
    for kind, count in SAMPLE_PHOTOS:
        for _ in range(count):
            rng = item_rng(seed, index)
            photo = random_photo(art.faces, kind, rng, back=art.back)
            name = f"{kind}-{index:02d}.jpg"
            write_bytes(root / "photos" / name, photo.jpeg)
            truths.append(photo.truth_json(name))
            photos.append(photo)
            index += 1
    photos_json = root / "photos" / "photos.json"
    photos_json.write_text(json.dumps({"seed": seed, "photos": truths}, indent=1) + "\n")
    preview = root / "photos_preview.jpg"
    write_bytes(preview, encode_jpeg(photo_grid(photos), 85))
    rng = item_rng(seed, 1000)
    sequence = flip_sequence(video_cards, random.Random(seed))
    plan = plan_flip_video(sequence, rng, fast_share=0.5, pause_scale=0.3)
    plan = replace(plan, look=replace(plan.look, noise=min(plan.look.noise, 1.0)))  # keeps the committed file small
    files = write_flip_video(plan, art.faces, rng, root / "videos", "flip-sample", frames=False, back=art.back)
    return SampleFiles(root / "deck" / "manifest.json", sheet, photos_json, preview, files.truth)
