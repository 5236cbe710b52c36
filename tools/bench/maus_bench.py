"""Benchmark the Maus au Chocolat camera on fresh synthetic photos of cards laid in a row.

    python -m tools.bench.maus_bench --photos 1000 --style default
    python -m tools.bench.maus_bench --photos 1000 --style alt --seed 2
    python -m tools.bench.maus_bench --photos 200 --numbers tesseract
    python -m tools.bench.maus_bench --photos 1000 --style alt --teach /tmp/maus-alt

Each photo (:mod:`tools.synth.maus_photo`: 3 or 4 cards side by side, a
table, a camera's defects) is read by :class:`vision.maus.MausReader`,
taught the faces of ``--style`` (the clean renders of the deck the photos
show, as a table teaching its deck would give); ``--teach DIR`` teaches it
instead from the phone photos in DIR (``python -m tools.synth
maus-enroll-photos``) as ``mamma-mia enroll DIR`` does, taking a refused
picture again (another photo of the same card) up to ``--retakes`` times,
and reports the pictures refused and the computer time. Per card, left to right
against the truth: right (colour and value), right and sure, wrong and sure,
and missed; the coins likewise; milliseconds per photo (wall and CPU; the
rendering is not timed). ``--numbers`` picks the reader of the printed
value; ``--compare-numbers N`` also reads the value of every card found in
the first N photos with both readers, on the same faces, for their accuracy
and time side by side. Results go to ``tools/bench/results/maus-STYLE.json``.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=int, default=1000, help="photos to generate (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="data seed (default 1)")
    parser.add_argument("--style", default="default", help="Maus deck style photographed and taught: default or alt")
    parser.add_argument("--numbers", default="templates", help="value reader: templates or tesseract")
    parser.add_argument("--compare-numbers", type=int, default=0, metavar="N",
                        help="read the values of the first N photos' cards with both readers")
    parser.add_argument("--teach", type=Path, default=None, metavar="DIR",
                        help="teach the reader from the phone photos in DIR (maus-enroll-photos) instead")
    parser.add_argument("--retakes", type=int, default=8, help="retakes of a refused picture with --teach (default 8)")
    parser.add_argument("--out", type=Path, default=None, help="result JSON (default tools/bench/results/maus-STYLE.json)")
    return parser.parse_args(argv)


class Tally:
    """Counts per card of colour-and-value and of coins."""

    def __init__(self) -> None:
        self.counts = {k: 0 for k in ("cards", "right", "right_sure", "wrong", "wrong_sure", "missed", "extra",
                                      "coins_right", "coins_right_sure", "coins_wrong_sure")}
        self.confusions: dict[str, int] = {}
        self.photos = self.photos_all_right = self.photos_all_sure = 0

    def add(self, truth: list, reading) -> None:
        c = self.counts
        read = list(reading.cards)
        self.photos += 1
        c["cards"] += len(truth)
        if len(read) != len(truth):
            # cards missed or seen twice: pair each true card with the reading nearest its centre
            read = _paired(truth, read, c)
        all_right = len(read) == len(truth)
        for true, card in zip(truth, read):
            if card is None:
                c["missed"] += 1
                all_right = False
                continue
            right = card.ingredient is true.card.ingredient and card.card.value == true.card.value
            c["right"] += right
            c["right_sure"] += right and card.sure
            c["wrong"] += not right
            c["wrong_sure"] += (not right) and card.sure
            all_right &= right
            if not right:
                key = f"{true.card.notation} -> {card.card.notation}"
                self.confusions[key] = self.confusions.get(key, 0) + 1
            coins_right = right and card.card.coins == true.card.coins
            c["coins_right"] += coins_right
            c["coins_right_sure"] += coins_right and card.coins.sure
            c["coins_wrong_sure"] += (not coins_right) and card.coins.sure and card.sure
        self.photos_all_right += all_right
        self.photos_all_sure += all_right and reading.sure

    def summary(self) -> dict:
        c, n = self.counts, max(1, self.counts["cards"])
        return {**c, "photos": self.photos, "photos_all_right": self.photos_all_right,
                "photos_all_right_and_sure": self.photos_all_sure,
                "right_share": c["right"] / n, "right_sure_share": c["right_sure"] / n,
                "coins_right_share": c["coins_right"] / n, "coins_right_sure_share": c["coins_right_sure"] / n,
                "confusions": dict(sorted(self.confusions.items(), key=lambda kv: -kv[1])[:10])}


def _paired(truth: list, read: list, counts: dict) -> list:
    centres = [np.mean(t.corners, axis=0) for t in truth]
    paired: list = [None] * len(truth)
    for card in read:
        k = int(np.argmin([np.linalg.norm(np.array(card.centre) - c) for c in centres]))
        if paired[k] is None:
            paired[k] = card
        else:
            counts["extra"] += 1
    return paired


def _spread(values: list[float]) -> dict:
    if not values:
        return {"median": None, "p95": None}
    return {"median": float(np.median(values)), "p95": float(np.percentile(values, 95))}


def run(args: argparse.Namespace) -> dict:
    from tools.synth.maus_art import render_maus_deck
    from tools.synth.maus_photo import MausArt, laid_photo_stream
    from tools.synth.maus_style import maus_style_named
    from vision.maus import DEFAULT_MAUS_CONFIG, MausDeck, MausReader

    style = maus_style_named(args.style)
    config = replace(DEFAULT_MAUS_CONFIG, number_reader=args.numbers)
    taught = None
    if args.teach is not None:
        taught = teach_from_photos(args.teach, args.retakes)
        faces = taught.pop("faces")
    else:
        faces = [(f.card, f.image) for f in render_maus_deck(style)]
    deck = MausDeck.from_faces(faces, config)
    reader = MausReader(deck, config)
    tally, wall, cpu, compared = Tally(), [], [], []
    for index, photo in enumerate(laid_photo_stream(MausArt.of(style), args.photos, args.seed)):
        truth = sorted(photo.cards, key=lambda t: float(np.mean([x for x, _ in t.corners])))
        start, start_cpu = time.perf_counter(), time.thread_time()
        reading = reader.read(photo.image)
        cpu.append((time.thread_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
        tally.add(truth, reading)
        if index < args.compare_numbers:
            compared += _both_readers(photo.image, truth, reading, deck, config)
    return {"style": args.style, "seed": args.seed, "numbers": args.numbers, "taught": taught, **tally.summary(),
            "ms_per_photo": _spread(wall), "cpu_ms_per_photo": _spread(cpu),
            "number_readers": _compare_summary(compared) if compared else None}


def teach_from_photos(folder: Path, retakes: int) -> dict:
    """The faces enrolled from the phone photos in ``folder`` as ``mamma-mia
    enroll`` does, each refused picture taken again up to ``retakes`` times."""
    from companion.decks.games import GAMES
    from tools.synth.maus_enroll import retake_maus_photos
    from vision.recognize.decks import read_manifest
    from vision.recognize.enroll import enroll_entries

    start = time.process_time()
    outcomes: dict = {}
    refused_first = runs = 0
    for attempt in range(retakes + 1):
        runs += 1
        entries = [e for e in read_manifest(folder, GAMES["maus"].read) if e.card not in outcomes]
        failed = []
        for outcome in enroll_entries(entries):
            if outcome.status == "ok":
                outcomes[outcome.entry.card] = outcome.face
            else:
                failed.append(outcome.entry.image.name)
        refused_first += len(failed) if attempt == 0 else 0
        if not failed or attempt == retakes:
            break
        retake_maus_photos(folder, failed, attempt + 1)
    order = list(GAMES["maus"].faces)
    faces = sorted(outcomes.items(), key=lambda item: order.index(item[0]))
    return {"faces": faces, "taught": len(faces), "refused_first": refused_first, "runs": runs,
            "cpu_seconds": time.process_time() - start}


def _both_readers(image: np.ndarray, truth: list, reading, deck, config) -> list[dict]:
    """Each card found read by both number readers, on the same face."""
    from vision.maus.numbers import TesseractNumerals, read_face
    from vision.recognize.types import Quad

    tesseract = TesseractNumerals(config=config)
    rows = []
    for card in reading.cards:
        true = min(truth, key=lambda t: float(np.linalg.norm(np.mean(t.corners, axis=0) - np.array(card.centre))))
        face = read_face(image, Quad(np.array(card.corners, np.float32)), config)
        for name, read in (("templates", lambda f: deck.numerals.read(f, card.card)), ("tesseract", tesseract.read)):
            start = time.perf_counter()
            numeral = read(face)
            rows.append({"reader": name, "right": numeral.value == true.card.value, "sure": numeral.sure,
                         "ms": (time.perf_counter() - start) * 1000})
    return rows


def _compare_summary(rows: list[dict]) -> dict:
    result = {}
    for name in ("templates", "tesseract"):
        mine = [r for r in rows if r["reader"] == name]
        result[name] = {"cards": len(mine), "right": sum(r["right"] for r in mine),
                        "right_sure": sum(r["right"] and r["sure"] for r in mine),
                        "wrong_sure": sum((not r["right"]) and r["sure"] for r in mine),
                        "ms_per_card": _spread([r["ms"] for r in mine])}
    return result


def print_report(result: dict) -> None:
    n = max(1, result["cards"])
    print(f"\nMaus camera, style {result['style']}, seed {result['seed']}, value reader {result['numbers']}")
    print(f"  photos {result['photos']}: every card right {result['photos_all_right']}, "
          f"and all sure {result['photos_all_right_and_sure']}")
    print(f"  cards {result['cards']}: colour and value right {result['right']} ({result['right'] / n:.2%}), "
          f"right and sure {result['right_sure']} ({result['right_sure'] / n:.2%}), "
          f"wrong {result['wrong']}, wrong and sure {result['wrong_sure']}, missed {result['missed']}, "
          f"extra {result['extra']}")
    print(f"  coins right {result['coins_right']} ({result['coins_right'] / n:.2%}), right and sure "
          f"{result['coins_right_sure']} ({result['coins_right_sure'] / n:.2%}), "
          f"wrong and sure {result['coins_wrong_sure']}")
    if result.get("taught"):
        t = result["taught"]
        print(f"  taught from phone photos: {t['taught']} faces, {t['refused_first']} pictures refused at first, "
              f"{t['runs']} runs, {t['cpu_seconds']:.1f} s of computer time")
    ms, cpu = result["ms_per_photo"], result["cpu_ms_per_photo"]
    print(f"  ms per photo: median {ms['median']:.1f}, p95 {ms['p95']:.1f} "
          f"(CPU: median {cpu['median']:.1f}, p95 {cpu['p95']:.1f})")
    if result["confusions"]:
        print("  confusions: " + ", ".join(f"{k} x{v}" for k, v in result["confusions"].items()))
    for name, row in (result.get("number_readers") or {}).items():
        print(f"  value reader {name}: {row['cards']} cards, right {row['right']}, right and sure "
              f"{row['right_sure']}, wrong and sure {row['wrong_sure']}, ms per card median "
              f"{row['ms_per_card']['median']:.2f}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    result = run(args)
    result["seconds"] = time.perf_counter() - started
    out = args.out or ROOT / "tools" / "bench" / "results" / f"maus-{args.style}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    print_report(result)
    print(f"results: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
