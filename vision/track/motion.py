"""The cheap measures the tracker takes of every frame, on a small grey copy:
what moved since a moment ago, whether the frame is blurred, and masks of
cards on that copy; and, where it is asked for, the copy's tint (colour
apart from brightness), in which a hand the grey of the table still shows."""
from __future__ import annotations

from collections import deque

import cv2
import numpy as np

from .config import TrackerConfig


class Motion:
    """The recent frames, small and grey, and what moved in them (bounded)."""

    def __init__(self, config: TrackerConfig) -> None:
        self.config = config
        self.recent: deque[tuple[float, np.ndarray]] = deque(maxlen=8)  # (time, small grey)
        self.motions: deque[tuple[float, np.ndarray]] = deque(maxlen=6)  # (time, moving mask)
        self.sharpness: deque[float] = deque(maxlen=9)  # of recent frames, to spot a blurred one
        # the brightness of the frames compared lately: a frame is compared with several others
        # (a moment ago, the resting pile, the top card's last view), and its median costs
        # more than the comparison itself
        self._levels: deque[tuple[np.ndarray, float]] = deque(maxlen=12)
        self.scale = 1.0  # small pixels per frame pixel
        self._tint: tuple[np.ndarray | None, np.ndarray | None] = (None, None)  # (frame, its tint) last asked

    def small(self, frame: np.ndarray) -> np.ndarray:
        """Grey, ``work_width`` wide (averaging away most sensor noise)."""
        self.scale = self.config.work_width / frame.shape[1]
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        return cv2.resize(grey, self._small_size(frame), interpolation=cv2.INTER_AREA).astype(np.float32)

    def _small_size(self, frame: np.ndarray) -> tuple[int, int]:
        """The size (width, height) of ``frame``'s small copy."""
        height, width = frame.shape[:2]
        return self.config.work_width, max(1, round(height * (self.config.work_width / width)))

    def tint(self, frame: np.ndarray) -> np.ndarray | None:
        """How far each pixel of the small copy of ``frame`` is bluer and
        redder than grey (two channels; None for a grey frame): a brown hand
        on brown wood is about the table's grey, not its tint. Made only
        when asked (a few frames of a card's life), once a frame."""
        seen, tint = self._tint
        if seen is frame:
            return tint
        tint = None
        if frame.ndim == 3:
            colour = cv2.resize(frame, self._small_size(frame), interpolation=cv2.INTER_AREA).astype(np.float32)
            grey = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
            tint = np.dstack([colour[..., 0] - grey, colour[..., 2] - grey])
        self._tint = (frame, tint)
        return tint

    def tint_changed(self, tint: np.ndarray | None, before: np.ndarray | None, small: np.ndarray,
                     view: np.ndarray) -> np.ndarray | bool:
        """Pixels whose tint differs beyond ``tint_level`` between ``before``
        (of the small grey ``view``) and ``tint`` (of ``small``), the
        brightness matched as :meth:`changed` does; False when either is unknown."""
        if tint is None or before is None or tint.shape != before.shape:
            return False
        gain = self.level(small) / max(1.0, self.level(view))
        return (np.abs(tint - before * gain) > self.config.tint_level).any(axis=2)

    def resized(self, small: np.ndarray) -> bool:
        """Whether ``small`` has another shape than the frames before (the source changed resolution)."""
        return bool(self.recent) and self.recent[0][1].shape != small.shape

    def feed(self, small: np.ndarray, now: float) -> np.ndarray | None:
        """Pixels that changed since a frame at least ``still_lag`` ago (the
        oldest kept if none is that old); None for the first frame (or the
        first at a new resolution)."""
        if self.resized(small):
            self.recent.clear()
        before = next((s for t, s in reversed(self.recent) if now - t >= self.config.still_lag * 0.999),
                      self.recent[0][1] if self.recent else None)
        self.recent.append((now, small))
        if before is None:
            return None
        moving = self.changed(small, before)
        self.motions.append((now, moving))
        return moving

    def changed(self, small: np.ndarray, before: np.ndarray) -> np.ndarray:
        """Pixels that differ beyond ``motion_level`` once the overall
        brightness of ``before`` is matched to ``small``, so light drifting
        (or a camera adjusting its exposure) does not read as motion."""
        gain = self.level(small) / max(1.0, self.level(before))
        return np.abs(small - before * gain) > self.config.motion_level

    def level(self, small: np.ndarray) -> float:
        """The median brightness of ``small``, remembered for the frames
        compared lately (by identity: frames are never changed in place)."""
        for seen, level in self._levels:
            if seen is small:
                return level
        level = float(np.median(small))
        self._levels.append((small, level))
        return level

    def blurred(self, small: np.ndarray) -> bool:
        """Whether this frame is much less sharp than the frames before it (a
        camera refocusing, a shaken table): no card is read from it."""
        edges = float(np.abs(cv2.Laplacian(small, cv2.CV_32F)).mean()) / max(1.0, self.level(small))
        usual = float(np.median(self.sharpness)) if len(self.sharpness) >= 3 else edges
        self.sharpness.append(edges)
        return edges < self.config.blur_ratio * usual

    def quiet(self, area: np.ndarray, now: float) -> bool:
        """Whether at most ``still_fraction`` of ``area`` moved in any frame of the last ``quiet_time``."""
        recent = [m for t, m in self.motions if now - t <= self.config.quiet_time + 1e-6]
        return bool(area.any()) and len(recent) >= 2 and \
            all(float(m[area].mean()) <= self.config.still_fraction for m in recent)

    def find_again(self, small: np.ndarray, before: np.ndarray, area: np.ndarray, offset: np.ndarray,
                   step: float, least: float | None = None) -> np.ndarray | None | bool:
        """Where what ``before`` showed in ``area`` shows in ``small``: its
        offset (x, y pixels), searched within ``step`` pixels of ``offset``
        (where it was found in the frame before), at a normalised correlation
        of at least ``least`` (default ``visible_match``). None when it is not found; False when
        ``area`` is too plain to tell."""
        ys, xs = np.nonzero(area)
        if not len(ys):
            return False
        y0, y1, x0, x1 = int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1
        template = before[y0:y1, x0:x1]
        if template.size < 16 or float(template.std()) < self.config.plain_level:
            return False
        r = max(1, int(np.ceil(step)))
        ox, oy = (int(round(v)) for v in offset)
        height, width = small.shape
        wy0, wx0 = max(0, y0 + oy - r), max(0, x0 + ox - r)
        window = small[wy0:min(height, y1 + oy + r), wx0:min(width, x1 + ox + r)]
        if window.shape[0] < template.shape[0] or window.shape[1] < template.shape[1]:
            return None
        score = cv2.matchTemplate(window, template, cv2.TM_CCOEFF_NORMED)
        _, best, _, (bx, by) = cv2.minMaxLoc(score)
        if best < (self.config.visible_match if least is None else least):
            return None
        return np.array([wx0 + bx - x0, wy0 + by - y0], np.float32)

    def busiest_side(self, changed: np.ndarray, ring: np.ndarray, corners: np.ndarray) -> float:
        """The largest share of ``changed`` pixels in any of ``ring_sectors``
        equal angles of ``ring`` (a mask around the quad ``corners``, frame
        pixels), seen from the quad's centre, the sectors taken twice, the
        second time turned by half a sector: a hand reaching over one side
        of a card fills that side, a small part of the whole ring, wherever
        the sectors' borders fall (a hand across one is not halved).

        >>> motion = Motion(TrackerConfig())
        >>> ring = np.ones((5, 5), bool); ring[2, 2] = False
        >>> changed = np.zeros((5, 5), bool); changed[:, 3:] = True
        >>> round(motion.busiest_side(changed, ring, np.float32([[1, 1], [3, 1], [3, 3], [1, 3]])), 2)
        1.0
        """
        ys, xs = np.nonzero(ring)
        if not len(ys):
            return 0.0
        cx, cy = corners.mean(axis=0) * self.scale
        sectors = self.config.ring_sectors
        angle = (np.arctan2(ys - cy, xs - cx) + np.pi) * (sectors / (2 * np.pi))
        weights = changed[ys, xs]
        busiest = 0.0
        for turn in (0.0, 0.5):
            side = (angle + turn).astype(np.intp) % sectors
            counts = np.bincount(side, minlength=sectors)
            hits = np.bincount(side, weights=weights, minlength=sectors)
            busiest = max(busiest, float((hits / np.maximum(counts, 1)).max()))
        return busiest

    def mask(self, corners: np.ndarray, shrink: float) -> np.ndarray:
        """The quad ``corners`` (frame pixels) scaled about its centre by
        ``shrink``, as a mask of the small grey frame."""
        shape = self.recent[-1][1].shape if self.recent else (1, self.config.work_width)
        center = corners.mean(axis=0)
        quad = (center + (corners - center) * shrink) * self.scale
        mask = np.zeros(shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
        return mask.astype(bool)
