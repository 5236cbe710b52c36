"""Benchmark a card recogniser and a flip tracker on fresh synthetic data.

    python -m tools.bench.vision_bench --quick
    python -m tools.bench.vision_bench --photos 1000 --videos 50 --plugin tools.bench.baseline
    python -m tools.bench.vision_bench --photos 0 --videos 50 --seed 2026 --plugin tools.bench.plugins.track \
        --cache sample_images/generated/bench --workers 2

A deck enrolled from phone photos, as a player would (never from the clean renders):

    python -m tools.synth enroll-photos --style hard --seed 2101 --out /tmp/hard-photos
    mamma-mia enroll /tmp/hard-photos
    python -m tools.bench.vision_bench --photos 300 --videos 0 --seed 2121 --style hard \
        --enroll /tmp/hard-photos/enrolled/manifest.json --plugin tools.bench.plugins.recognise

Generates a seeded set of table photos and flip videos in memory (nothing is
written but the results), runs the plug-in's ``make_recogniser(deck)`` on
each photo and ``make_tracker(deck)`` over each video, and reports accuracy
per card kind, how many readings were right and sure and wrong and sure (sure:
the plug-in's ``is_sure(match)`` when it has one, else the product's
``DEFAULT_CONFIG.is_sure``), the commonest confusions, milliseconds per photo / frame and,
for videos, the exact-sequence rate, edit-distance accuracy, the delay from
the hand leaving the picture to the event (seconds of video) and the
real-time factor (video seconds per second of tracking; rendering and
decoding are not timed). --cache keeps rendered videos on disk (rendering
costs far more than tracking) and --workers renders them in parallel; the
tracker itself always runs in this one process. Results go to
``tools/bench/results/`` as JSON.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=int, default=1000, help="photos to generate (default 1000)")
    parser.add_argument("--videos", type=int, default=50, help="flip videos to generate (default 50)")
    parser.add_argument("--cards", default="20-60", help="cards per video, MIN-MAX (default 20-60)")
    parser.add_argument("--set", dest="video_set", default="classic", choices=("classic", "hard", "gestures", "nudges"),
                        help="flip videos: classic (the regression set, default), hard (runs, doubles, cards "
                             "laid almost on the last, hands from any side), gestures (hands passing, nudges, "
                             "lifts and hands resting between a few flips: no card may be added) or nudges "
                             "(as gestures, every gesture a nudge of the pile)")
    parser.add_argument("--quick", action="store_true", help="small run: 60 photos, 3 videos of 10-15 cards")
    parser.add_argument("--seed", type=int, default=1, help="data seed (default 1)")
    parser.add_argument("--plugin", default="tools.bench.baseline",
                        help="module with make_recogniser(deck) / make_tracker(deck) (default: the naive baseline)")
    parser.add_argument("--style", default="default", help="deck style the camera films (default, alt, hard)")
    parser.add_argument("--enroll", default=None,
                        help="deck the plug-in is enrolled with: a style name (its clean renders) or a manifest "
                             "path, e.g. DIR/enrolled/manifest.json after mamma-mia enroll DIR (default: --style)")
    parser.add_argument("--out", type=Path, default=None, help="result JSON (default tools/bench/results/vision-<plugin>.json)")
    parser.add_argument("--cache", type=Path, default=None, metavar="DIR",
                        help="keep rendered flip videos in DIR (e.g. sample_images/generated/bench) and reuse them")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes rendering videos into --cache (tracking itself stays in one process)")
    args = parser.parse_args(argv)
    if args.quick:
        args.photos, args.videos, args.cards = min(args.photos, 60), min(args.videos, 3), "10-15"
    return args


def enrolled_deck(spec: str):
    from tools.synth.deck_files import load_deck, render_deck
    from tools.synth.style import STYLES

    return render_deck(STYLES[spec]) if spec in STYLES else load_deck(spec)


def sure_judge(plugin, recogniser) -> tuple[Callable, str]:
    """(is_sure, what it is): the recogniser's or the plug-in module's own
    ``is_sure(match)``, else the product's."""
    for owner, name in ((recogniser, recogniser.name), (plugin, plugin.__name__)):
        judge = getattr(owner, "is_sure", None)
        if callable(judge):
            return judge, f"{name}.is_sure"
    from vision.recognize.config import DEFAULT_CONFIG

    return DEFAULT_CONFIG.is_sure, "vision.recognize.config.DEFAULT_CONFIG.is_sure"


def run_photos(plugin, deck, art, count: int, seed: int) -> dict:
    from tools.synth.datasets import photo_stream
    from tools.bench.metrics import PhotoScore

    recogniser = plugin.make_recogniser(deck)
    is_sure, sure_by = sure_judge(plugin, recogniser)
    score, cpu = PhotoScore(is_sure=is_sure), []
    for photo in photo_stream(art, count, seed):
        start, start_cpu = time.perf_counter(), time.thread_time()
        detections = recogniser.identify_photo(photo.image)
        cpu.append((time.thread_time() - start_cpu) * 1000)
        score.add(photo, detections, (time.perf_counter() - start) * 1000)
    # CPU time as well as wall time: on a shared machine the wall clock also counts other work
    return {"recogniser": recogniser.name, "sure_by": sure_by, **score.summary(), "cpu_ms_per_photo": _spread(cpu)}


def run_videos(plugin, deck, art, count: int, seed: int, cards: tuple[int, int], cache: Path | None = None,
               workers: int = 1, style: str = "default", kind: str = "classic") -> dict:
    """Track every video in this one process. Rendering (or decoding cached
    frames) is not timed; with ``cache`` the videos are first rendered by
    ``workers`` processes into files kept between runs."""
    from tools.synth.datasets import video_plan
    from tools.bench.metrics import VideoScore
    from tools.synth.video_sets import laid, render_frames
    from tools.bench.videocache import cached_frames, fill_cache

    paths = fill_cache(cache, count, seed, cards, workers, style, kind) if cache is not None else None
    score = VideoScore()
    name, cpu, seconds, video_seconds = None, [], 0.0, 0.0
    for index in range(count):
        plan, rng = video_plan(seed, index, cards, kind=kind)
        images = cached_frames(paths[index]) if paths else (f.shot.image for f in render_frames(
            plan, art.faces, rng, art.back, kind))
        tracker = plugin.make_tracker(deck)
        name = tracker.name
        feed = timed_feeder(tracker)
        events, millis = [], []
        for frame_index, image in enumerate(images):
            start, start_cpu = time.perf_counter(), time.thread_time()
            events += feed(image, frame_index / plan.fps)
            millis.append((time.perf_counter() - start) * 1000)
            cpu.append((time.thread_time() - start_cpu) * 1000)
        events += tracker.finish()
        seconds += sum(millis) / 1000
        video_seconds += len(millis) / plan.fps
        flips = laid(plan)
        score.add([(f.card, f.settled) for f in flips], events, millis, [f.hand_left for f in flips], plan.fps)
    summary = score.summary()
    return {"tracker": name, **summary, "cpu_ms_per_frame": _spread(cpu),
            "real_time_factor": video_seconds / seconds if seconds else None}


def _spread(values: list[float]) -> dict:
    import numpy as np

    if not values:
        return {"median": None, "p95": None, "p99": None, "max": None, "mean": None}
    return {"median": float(np.median(values)), "p95": float(np.percentile(values, 95)),
            "p99": float(np.percentile(values, 99)), "max": float(np.max(values)), "mean": float(np.mean(values))}


def timed_feeder(tracker):
    """``feed(image, seconds)`` for trackers that take frame times, ``feed(image)`` otherwise."""
    import inspect

    if len(inspect.signature(tracker.feed).parameters) >= 2:
        return tracker.feed
    return lambda image, _seconds: tracker.feed(image)


def _accuracy_table(accuracy: dict, counts: dict, overall: float | None) -> None:
    print(f"  {'kind':<12}{'n':>6}{'accuracy':>10}")
    for kind, acc in accuracy.items():
        print(f"  {kind:<12}{counts[kind]:>6}{acc:>10.3f}")
    if overall is not None:
        print(f"  {'overall':<12}{sum(counts.values()):>6}{overall:>10.3f}")


def _sureness_table(rows: dict) -> None:
    print(f"  {'kind':<12}{'n':>6}{'right':>14}{'right+sure':>16}{'wrong+sure':>12}")
    for kind, row in {**rows, "all": {k: sum(r[k] for r in rows.values()) for k in
                                      ("n", "right", "right_sure", "wrong_sure")}}.items():
        n = max(1, row["n"])
        print(f"  {kind:<12}{row['n']:>6}{row['right']:>6} {row['right'] / n:>6.1%}"
              f"{row['right_sure']:>8} {row['right_sure'] / n:>6.1%}{row['wrong_sure']:>12}")


def _fmt(value) -> str:
    return "-" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def print_report(result: dict) -> None:
    photos, videos = result.get("photos"), result.get("videos")
    if photos:
        print(f"\nPhotos ({photos['photos']}), recogniser {photos['recogniser']}")
        print("  top card of a pile, and empty tables (nothing reported):")
        _accuracy_table(photos["accuracy"], photos["counts"], photos["overall_accuracy"])
        if photos["layout_counts"]:
            print("  every card of layout photos:")
            _accuracy_table(photos["layout_accuracy"], photos["layout_counts"], photos["layout_overall_accuracy"])
        print(f"  layout false positives: {photos['layout_false_positives']}"
              f" ({photos['layout_false_positives_sure']} of them sure)")
        print(f"  sureness of top cards and empty tables (sure: {photos['sure_by']}):")
        _sureness_table(photos["sureness"])
        if photos["layout_sureness"]:
            print("  sureness of every card of layout photos (the detection centred on it):")
            _sureness_table(photos["layout_sureness"])
        ms = photos["ms_per_photo"]
        print(f"  ms per photo: median {_fmt(ms['median'])}, p95 {_fmt(ms['p95'])}")
        cpu = photos.get("cpu_ms_per_photo")
        if cpu:
            print(f"  CPU ms per photo: median {_fmt(cpu['median'])}, p95 {_fmt(cpu['p95'])}, "
                  f"p99 {_fmt(cpu['p99'])}, max {_fmt(cpu['max'])}")
        print("  commonest confusions (truth -> found):")
        for c in photos["top_confusions"][:8]:
            print(f"    {c['truth']:>12} -> {c['found']:<12} x{c['count']}")
    if videos:
        print(f"\nFlip videos ({videos['videos']}, {videos['cards']} cards), tracker {videos['tracker']}")
        print(f"  exact-sequence rate: {_fmt(videos['exact_sequence_rate'])}")
        print(f"  edit-distance accuracy: {_fmt(videos['edit_accuracy'])}")
        print(f"  cards dropped {videos['dropped']}, added {videos['added']}, misread {videos['misread']}")
        lat, ms, cpu = videos["latency_frames"], videos["ms_per_frame"], videos["cpu_ms_per_frame"]
        delay = videos["delay_after_hand_left_s"]
        print(f"  latency after settling (frames): median {_fmt(lat['median'])}, p95 {_fmt(lat['p95'])}")
        print(f"  delay after the hand left (s): median {_fmt(delay['median'])}, p95 {_fmt(delay['p95'])}, "
              f"max {_fmt(delay['max'])}")
        print(f"  ms per frame: median {_fmt(ms['median'])}, p95 {_fmt(ms['p95'])}, mean {_fmt(ms['mean'])}"
              f" (CPU: median {_fmt(cpu['median'])}, p95 {_fmt(cpu['p95'])}, mean {_fmt(cpu['mean'])})")
        print(f"  real-time factor: {_fmt(videos['real_time_factor'])}x")
    print(f"\nwall time {result['seconds']:.1f} s")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from tools.synth.datasets import Art
    from tools.bench.protocols import load_plugin
    from tools.synth.style import style_named

    started = time.perf_counter()
    plugin = load_plugin(args.plugin)
    art = Art.of(style_named(args.style))
    deck = enrolled_deck(args.enroll or args.style)
    low, _, high = args.cards.partition("-")
    cards = (int(low), int(high or low))
    result: dict = {"plugin": args.plugin, "seed": args.seed, "style": args.style, "enroll": args.enroll or args.style,
                    "set": args.video_set}
    if args.photos and hasattr(plugin, "make_recogniser"):
        result["photos"] = run_photos(plugin, deck, art, args.photos, args.seed)
    if args.videos and hasattr(plugin, "make_tracker"):
        result["videos"] = run_videos(plugin, deck, art, args.videos, args.seed, cards, args.cache, args.workers,
                                      args.style, args.video_set)
    result["seconds"] = time.perf_counter() - started
    out = args.out or ROOT / "tools" / "bench" / "results" / f"vision-{args.plugin.rsplit('.', 1)[-1]}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    print_report(result)
    print(f"results: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
