"""Scoring recognisers and trackers against synthetic ground truth.

Photo accuracy is counted per card kind (ingredient, double, ordinary
order, special order, Mamma Mia!) plus ``empty`` (an empty table must give
no card), together with how sure the readings were: right and sure (no tap
needed in a game) and wrong and sure (a card silently credited wrongly).
Flip videos are scored on the whole revealed sequence.

>>> edit_distance(["S", "S", "A"], ["S", "A"])
1
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Hashable, Sequence

import numpy as np

from companion.engine import Card

from vision.catalog import KINDS, face_kind
from vision.geometry import inside_convex
from vision.recognize.config import DEFAULT_CONFIG
from vision.recognize.types import Detection, Match
from vision.track.types import Landing
from vision.sequences import edit_distance
from tools.synth.synth_photo import SyntheticPhoto

NONE = "none"


def percentile(values: Sequence[float], q: float) -> float | None:
    return float(np.percentile(values, q)) if len(values) else None


@dataclass
class Sureness:
    """Per kind, the readings that were sure, right or wrong."""

    right: Counter = field(default_factory=Counter)
    wrong: Counter = field(default_factory=Counter)

    def add(self, kind: str, right: bool, sure: bool) -> None:
        if sure:
            (self.right if right else self.wrong)[kind] += 1

    def table(self, totals: Counter, hits: Counter, kinds: Sequence[str]) -> dict[str, dict[str, int]]:
        """Counts per kind: ``n``, ``right``, ``right_sure`` and ``wrong_sure``."""
        return {k: {"n": totals[k], "right": hits[k], "right_sure": self.right[k], "wrong_sure": self.wrong[k]}
                for k in kinds}


@dataclass
class PhotoScore:
    """``is_sure`` judges a reading sure (a game takes it without asking)."""

    hits: Counter = field(default_factory=Counter)      # top cards and empty tables, per kind
    totals: Counter = field(default_factory=Counter)
    layout_hits: Counter = field(default_factory=Counter)  # cards of layout photos, per kind
    layout_totals: Counter = field(default_factory=Counter)
    confusions: Counter = field(default_factory=Counter)
    false_positives: int = 0
    millis: list[float] = field(default_factory=list)
    is_sure: Callable[[Match], bool] = DEFAULT_CONFIG.is_sure
    sure: Sureness = field(default_factory=Sureness)
    layout_sure: Sureness = field(default_factory=Sureness)
    false_positives_sure: int = 0

    def _count(self, kind: str, truth: str, found: str, layout: bool = False) -> None:
        (self.layout_totals if layout else self.totals)[kind] += 1
        if truth == found:
            (self.layout_hits if layout else self.hits)[kind] += 1
        else:
            self.confusions[(truth, found)] += 1

    def add(self, photo: SyntheticPhoto, detections: Sequence[Detection], millis: float) -> None:
        self.millis.append(millis)
        kind = photo.spec.kind
        if kind == "empty":
            self._count("empty", NONE, detections[0].card.notation if detections else NONE)
            # nothing reported is a right answer that needs no tap
            self.sure.add("empty", not detections, not detections or any(self.is_sure(d.match) for d in detections))
            return
        if kind == "top":
            truth = photo.cards[-1].card
            best = max(detections, key=lambda d: d.confidence) if detections else None
            self._count(face_kind(truth), truth.notation, best.card.notation if best else NONE)
            if best is not None:
                self.sure.add(face_kind(truth), best.card == truth, self.is_sure(best.match))
            return
        self._layout_sureness(photo, detections)
        remaining = [d.card for d in detections]
        for t in photo.cards:
            if t.card in remaining:
                remaining.remove(t.card)
                self._count(face_kind(t.card), t.card.notation, t.card.notation, layout=True)
            else:
                self._count(face_kind(t.card), t.card.notation, NONE, layout=True)
        self.false_positives += len(remaining)

    def _layout_sureness(self, photo: SyntheticPhoto, detections: Sequence[Detection]) -> None:
        """Each laid-out card is judged by the most confident detection centred
        on it; a sure detection centred on no card is a sure false positive."""
        centres = np.array([d.center for d in detections], np.float32).reshape(-1, 2)
        claimed = np.zeros(len(detections), bool)
        for truth in photo.cards:
            on_it = inside_convex(np.float32(truth.corners), centres)
            claimed |= on_it
            if on_it.any():
                best = max((d for d, hit in zip(detections, on_it) if hit), key=lambda d: d.confidence)
                self.layout_sure.add(face_kind(truth.card), best.card == truth.card, self.is_sure(best.match))
        self.false_positives_sure += sum(1 for d, c in zip(detections, claimed) if not c and self.is_sure(d.match))

    def summary(self) -> dict:
        kinds = [k for k in (*KINDS, "empty") if self.totals[k]]
        layout_kinds = [k for k in KINDS if self.layout_totals[k]]
        total = sum(self.totals.values())
        layout_total = sum(self.layout_totals.values())
        return {
            "photos": len(self.millis),
            "accuracy": {k: self.hits[k] / self.totals[k] for k in kinds},
            "counts": {k: self.totals[k] for k in kinds},
            "overall_accuracy": sum(self.hits.values()) / total if total else None,
            "layout_accuracy": {k: self.layout_hits[k] / self.layout_totals[k] for k in layout_kinds},
            "layout_counts": {k: self.layout_totals[k] for k in layout_kinds},
            "layout_overall_accuracy": sum(self.layout_hits.values()) / layout_total if layout_total else None,
            "layout_false_positives": self.false_positives,
            "sureness": self.sure.table(self.totals, self.hits, kinds),
            "layout_sureness": self.layout_sure.table(self.layout_totals, self.layout_hits, layout_kinds),
            "layout_false_positives_sure": self.false_positives_sure,
            "top_confusions": [{"truth": t, "found": f, "count": n} for (t, f), n in self.confusions.most_common(15)],
            "ms_per_photo": {"median": percentile(self.millis, 50), "p95": percentile(self.millis, 95)},
        }


@dataclass
class VideoScore:
    """Flip-video tracking: exact sequences, edit accuracy and how late each
    card is reported. Latencies are taken over the cards the tracker got right
    (aligned by edit distance), so one missed card does not hide the rest."""

    exact: int = 0
    videos: int = 0
    distance: int = 0
    length: int = 0
    dropped: int = 0
    added: int = 0
    misread: int = 0
    latencies: list[int] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)  # seconds of video from the hand leaving to the event
    millis: list[float] = field(default_factory=list)
    per_video: list[dict] = field(default_factory=list)

    def add(self, truth: Sequence[tuple[Card, int]], events: Sequence[Landing], millis: Sequence[float],
            hand_left: Sequence[int] | None = None, fps: float | None = None) -> None:
        """``truth``: (card, settled frame) in reveal order; ``hand_left``: the
        frame each card's hand has left the picture, scored in seconds at ``fps``."""
        want = [c.notation for c, _ in truth]
        got = [e.card.notation for e in events]
        d = edit_distance(want, got)
        self.videos += 1
        self.exact += int(d == 0)
        self.distance += d
        self.length += len(want)
        edits = Edits.between(want, got)
        self.dropped, self.added, self.misread = (self.dropped + edits.dropped, self.added + edits.added,
                                                  self.misread + edits.misread)
        self.millis.extend(millis)
        pairs = matched_pairs(want, got)
        self.latencies += [events[j].frame - truth[i][1] for i, j in pairs]
        if hand_left is not None and fps:
            self.delays += [(events[j].frame - hand_left[i]) / fps for i, j in pairs]
        self.per_video.append({"cards": len(want), "reported": len(got), "edit_distance": d,
                               "dropped": edits.dropped, "added": edits.added, "misread": edits.misread,
                               "truth": " ".join(want), "found": " ".join(got)})

    def summary(self) -> dict:
        return {
            "videos": self.videos,
            "exact_sequence_rate": self.exact / self.videos if self.videos else None,
            "edit_accuracy": max(0.0, 1 - self.distance / self.length) if self.length else None,
            "cards": self.length,
            "edit_distance_total": self.distance,
            "dropped": self.dropped, "added": self.added, "misread": self.misread,
            "latency_frames": {"median": percentile(self.latencies, 50), "p95": percentile(self.latencies, 95)},
            "delay_after_hand_left_s": {"median": percentile(self.delays, 50), "p95": percentile(self.delays, 95),
                                        "max": max(self.delays) if self.delays else None},
            "ms_per_frame": {"median": percentile(self.millis, 50), "p95": percentile(self.millis, 95),
                             "mean": float(np.mean(self.millis)) if self.millis else None},
            "per_video": self.per_video,
        }


def matched_pairs(truth: Sequence[Hashable], found: Sequence[Hashable]) -> list[tuple[int, int]]:
    """(truth index, found index) of the items an optimal edit script keeps.

    >>> matched_pairs(["S", "S", "A"], ["S", "A"])
    [(1, 0), (2, 1)]
    """
    return [(i, j) for op, i, j in edit_script(truth, found) if op == "keep"]


@dataclass(frozen=True)
class Edits:
    """An optimal edit script's counts: cards the tracker dropped (in the
    truth, not reported), added (reported, not laid) and misread."""

    dropped: int
    added: int
    misread: int

    @classmethod
    def between(cls, truth: Sequence[Hashable], found: Sequence[Hashable]) -> Edits:
        """
        >>> Edits.between("SSAM", "SAAM2")
        Edits(dropped=0, added=1, misread=1)
        """
        ops = Counter(op for op, _, _ in edit_script(truth, found))
        return cls(ops["drop"], ops["add"], ops["misread"])


def edit_script(truth: Sequence[Hashable], found: Sequence[Hashable]) -> list[tuple[str, int, int]]:
    """An optimal edit script as (``keep``, ``misread``, ``drop`` or ``add``,
    truth index, found index), in order; a drop has no found index, an add no
    truth index (-1)."""
    rows = [list(range(len(found) + 1))]
    for i, a in enumerate(truth, 1):
        row = [i]
        for j, b in enumerate(found, 1):
            row.append(min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (a != b)))
        rows.append(row)
    ops, i, j = [], len(truth), len(found)
    while i or j:
        if i and j and truth[i - 1] == found[j - 1] and rows[i][j] == rows[i - 1][j - 1]:
            ops.append(("keep", i - 1, j - 1))
            i, j = i - 1, j - 1
        elif i and j and rows[i][j] == rows[i - 1][j - 1] + 1:
            ops.append(("misread", i - 1, j - 1))
            i, j = i - 1, j - 1
        elif i and rows[i][j] == rows[i - 1][j] + 1:
            ops.append(("drop", i - 1, -1))
            i -= 1
        else:
            ops.append(("add", -1, j - 1))
            j -= 1
    return ops[::-1]
