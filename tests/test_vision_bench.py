"""The benchmark's scoring and plug-in contract, proven with an oracle and
with the naive baseline."""
from __future__ import annotations

import json

import numpy as np
import pytest

from companion.engine import parse_card, parse_pile
from tools.bench.baseline import make_tracker
from tools.synth.datasets import Art, photo_stream
from tools.synth.deck_files import render_deck
from tools.bench.metrics import PhotoScore, VideoScore, edit_distance
from tools.bench.protocols import load_plugin
from vision.recognize.types import Detection, Match
from vision.track.types import Landing

SIZE = (480, 270)


def test_edit_distance():
    assert edit_distance([], []) == 0
    assert edit_distance(list("SSSA"), list("SSA")) == 1
    assert edit_distance(list("SA"), list("AS")) == 2
    assert edit_distance(list("SAM"), list("SPM")) == 1


NOWHERE = np.zeros((4, 2), np.float32)


def found(card, confidence: float = 1.0) -> Detection:
    return Detection(Match(card, confidence, False, None, 0.0), NOWHERE)


def landed(card, frame: int) -> Landing:
    return Landing(Match(card, 1.0, False, None, 0.0), frame, None, NOWHERE)


def test_photo_score_counts_kinds_empties_and_confusions():
    art = Art.of()
    score = PhotoScore()
    photos = list(photo_stream(art, 12, 9, size=SIZE))
    for photo in photos:
        oracle = [found(c.card) for c in photo.cards if c.top]
        score.add(photo, oracle, 1.0)
    summary = score.summary()
    assert summary["overall_accuracy"] == 1.0 and summary["top_confusions"] == []
    layout_cards = sum(len(p.cards) for p in photos if p.spec.kind == "layout")
    top_photos = sum(1 for p in photos if p.spec.kind != "layout")
    assert sum(summary["layout_counts"].values()) == layout_cards
    assert sum(summary["counts"].values()) == top_photos
    assert summary["layout_overall_accuracy"] in (None, 1.0)
    wrong = PhotoScore()
    for photo in photos:
        wrong.add(photo, [found(parse_card("!"))], 2.0)
    s = wrong.summary()
    assert s["accuracy"].get("empty", 0.0) == 0.0 and s["overall_accuracy"] < 0.5
    assert s["ms_per_photo"]["median"] == 2.0


def placed(card, corners, confidence: float = 0.95, runner_up_confidence: float = 0.0) -> Detection:
    return Detection(Match(card, confidence, False, None, runner_up_confidence), np.float32(corners))


def test_sureness_counts_right_and_sure_and_wrong_and_sure_per_kind():
    photos = list(photo_stream(Art.of(), 30, 9, size=SIZE))
    kinds = {p.spec.kind for p in photos}
    assert kinds == {"top", "layout", "empty"}
    wrong = parse_card("!")
    score = PhotoScore()
    for photo in photos:
        if photo.spec.kind == "top":
            top = photo.cards[-1]
            # sure and right, or sure and wrong for the Mamma Mia! card's stand-in, or unsure
            card = wrong if top.card != wrong else parse_card("S")
            score.add(photo, [placed(top.card, top.corners)], 1.0)
            score.add(photo, [placed(card, top.corners)], 1.0)
            score.add(photo, [placed(top.card, top.corners, 0.9, 0.88)], 1.0)
        elif photo.spec.kind == "layout":
            first, *rest = photo.cards
            far = np.float32(first.corners) + 10_000  # centred on no card
            detections = [placed(wrong if first.card != wrong else parse_card("S"), first.corners),
                          placed(wrong, far)] + [placed(c.card, c.corners, 0.9, 0.88) for c in rest]
            score.add(photo, detections, 1.0)
        else:
            score.add(photo, [], 1.0)
            score.add(photo, [placed(wrong, np.zeros((4, 2)))], 1.0)
    s = score.summary()
    for kind, row in s["sureness"].items():
        if kind == "empty":
            assert row["right"] == row["right_sure"] == row["wrong_sure"] == row["n"] // 2
        else:
            assert row["n"] == 3 * row["right_sure"] == 3 * row["wrong_sure"] and row["right"] == 2 * row["right_sure"]
    layouts = [p for p in photos if p.spec.kind == "layout"]
    rows = s["layout_sureness"].values()
    assert sum(r["wrong_sure"] for r in rows) == len(layouts) and sum(r["right_sure"] for r in rows) == 0
    assert sum(r["n"] for r in rows) == sum(len(p.cards) for p in layouts)
    assert s["layout_false_positives_sure"] == len(layouts)


def test_the_bench_judges_sureness_by_the_plugin_when_it_can():
    from tools.bench import vision_bench as bench
    from tools.bench.plugins import recognise
    from vision.recognize.config import DEFAULT_CONFIG

    baseline = load_plugin("tools.bench.baseline")
    judge, name = bench.sure_judge(baseline, baseline.make_recogniser(render_deck()))
    assert judge == DEFAULT_CONFIG.is_sure and name.endswith("DEFAULT_CONFIG.is_sure")
    reader = recognise.make_recogniser(render_deck())
    judge, name = bench.sure_judge(recognise, reader)
    assert name == "vision.recognize.is_sure"
    close = Match(parse_card("S"), 0.9, False, parse_card("A"), 0.88)
    assert not judge(close) and judge(Match(parse_card("S"), 0.9, False, parse_card("A"), 0.5))


def test_video_score_exact_and_edit_accuracy():
    truth = [(c, 10 * i) for i, c in enumerate(parse_pile("S S S g:4A+P"))]
    score = VideoScore()
    score.add(truth, [landed(c, f + 2) for c, f in truth], [1.0])
    score.add(truth, [landed(c, f) for c, f in truth[:3]], [3.0])
    s = score.summary()
    assert s["exact_sequence_rate"] == 0.5
    assert s["edit_accuracy"] == pytest.approx(1 - 1 / 8)
    assert s["latency_frames"]["median"] == 2


def test_baseline_is_a_plugin_and_answers(tmp_path):
    plugin = load_plugin("tools.bench.baseline")
    deck = render_deck()
    recogniser = plugin.make_recogniser(deck)
    assert "baseline" in recogniser.name
    face = deck[12]
    found = recogniser.identify_photo(np.ascontiguousarray(np.pad(face.image, ((50, 50), (80, 80), (0, 0)))))
    assert found and found[0].card == face.card
    tracker = make_tracker(deck)
    assert tracker.feed(face.image) == [] and tracker.finish() == []
    with pytest.raises(ValueError):
        load_plugin("vision.geometry")


def test_bench_script_runs_end_to_end(tmp_path):
    from tools.bench import vision_bench as bench

    out = tmp_path / "result.json"
    assert bench.main(["--photos", "6", "--videos", "1", "--cards", "3-3", "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["photos"]["photos"] == 6 and result["videos"]["cards"] == 3
    assert set(result["photos"]["sureness"]) == set(result["photos"]["counts"])
    assert "baseline" in result["photos"]["recogniser"]
