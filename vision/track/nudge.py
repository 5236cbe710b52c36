"""Whether the pile moved along with its top card: a nudge, not a twin laid a little off.

A card of the top card's kind laid a few millimetres from it and the top card
pushed as far show the same thing on the face: the same picture, moved. What
differs is the card that was on top. Under a twin it stays where it lay, and
the stretch of its edge the twin leaves bare shows exactly as before; pushed,
it went along, and what shows at its old edge now is what lay beside it then
(the cards below, the table), moved as the face moved.

So the ground just outside the old outline is compared, pixel by pixel and
by its edges, with the earlier view as it was and with the earlier view
moved as the face moved (the registration of :mod:`vision.track.faces`).
Pixels that neither explains (a finger) count for neither. The ground leaves
no evidence when the new card covers it (a twin within a millimetre: the
face registration tells that one apart) or when it is plain; the pile then
counts as not pushed.

A table stays put under a pushed card as under a twin, so where its own
grain is strong (a checked cloth) it speaks for staying either way. The
card's cut then tells: its outer edge, where the card does not lie now,
keeps its strength under a twin and is gone when the card was pushed away.

Read the other way, the same ground and cut tell a twin carried in so fast
that nothing was seen passing over the pile: the face moved, while what lay
beside it and the old cut stayed as they were (:func:`stayed_put`).

Many decks print a frame just inside the card's edge, and the outline found
may lie on it. The cut is then the outermost strong edge beyond the outline,
not the printed line (which a twin's own border covers), and a twin laid a
millimetre or two off covers the ground just outside the old outline with
that border: the old view moved, as a push shows it. So the ground is judged
only beyond where the card now lies out to its cut; where none is left
bare, a face with nothing on it and the old cut showing whole tell alone.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .config import TrackerConfig
from .faces import Face, Shift


def moved_along(before: Face, shift: Shift, config: TrackerConfig) -> bool:
    """Whether the bare ground just outside the top card's old outline, in
    the view ``shift`` registered on ``before`` (cleanly, and moved by at
    least ``edge_least_move``: a card moved less keeps its own blurred edge in
    that ground), shows the earlier view moved as the face moved clearly more
    than the earlier view as it was: the card and what lay beside it were
    pushed together."""
    votes = _ground_votes(before, shift, config)
    if votes is None:
        return False
    for_push, for_stay = votes
    if for_push >= config.edge_pushed and for_push >= config.edge_ratio * for_stay:
        # said weakly, by a face with nothing on it whose cut still shows whole where it lay: a twin's
        # shadow moved that ground, and the card below it stayed
        if for_push >= config.edge_plain or shift.match < config.cut_match:
            return True
        kept = cut_kept(before, shift.warp, shift.seen, config)
        return kept is None or kept < config.twin_cut_whole
    # a table's own grain stays put under a pushed card as under a twin: the card's cut tells then, on a
    # view with no hand on it (the hand that laid a twin hides the old cut as well as a push takes it away)
    if shift.match < config.cut_match:
        return False
    kept = cut_kept(before, shift.warp, shift.seen, config)
    return kept is not None and kept < config.cut_kept and for_push >= config.cut_ratio * for_stay


def stayed_put(before: Face, shift: Shift, config: TrackerConfig) -> bool:
    """The other way round: whether that ground shows the earlier view as it
    was clearly more than moved, and the card's old cut still shows where
    the face no longer lies (``twin_cut_kept`` of its strength): the card
    that was on top lies where it lay, and the face moved is another card of
    its kind, laid a few millimetres off. Where the ground says so plainly
    (``edge_plain``), a cut kept as no push keeps it (``cut_kept``) will do:
    a softer view and the twin's shadow weaken it. A face registered only at
    ``face_sure_match`` (fingertips on it) will do: a hand may hide the old
    cut, never show it where the card no longer lies. So will one registered
    only loosely (``face_loose_match``: a twin laid turned half round on a face
    that looks almost alike turned, fingers on it), where the ground says so
    plainly, as :func:`pushed_plainly` tells a push. Where the ground says
    little either way (the cards below lie close), a face with nothing on it
    (``cut_match``) and its cut kept whole (``twin_cut_whole``) tell alone."""
    votes = _ground_votes(before, shift, config, config.face_loose_match)
    if votes is None:
        # no ground lies bare beside the card (the twin's border covers it): the cut alone may tell
        if shift.warp is None or shift.seen is None or shift.moved < config.edge_least_move:
            return False
        votes = (0.0, 0.0)
    for_push, for_stay = votes
    says = for_stay >= config.edge_pushed and for_stay >= config.edge_ratio * for_push
    plain = says and for_stay >= config.edge_plain
    clean = shift.match >= config.cut_match and for_stay >= for_push
    if not (plain or (says and shift.match >= config.face_sure_match) or clean):
        return False
    kept = cut_kept(before, shift.warp, shift.seen, config)
    # a ground that says so plainly needs only a cut not gone as a push leaves it
    least = config.cut_kept if plain else config.twin_cut_kept if says else config.twin_cut_whole
    return kept is not None and kept >= least


def pushed_plainly(before: Face, shift: Shift, config: TrackerConfig) -> bool:
    """Whether a face registered only loosely (at ``face_loose_match`` or
    better: fingers on it, which the registration could not leave out) was
    pushed with what lay beside it beyond doubt: the ground votes for the
    push with at least ``edge_plain`` of it and ``edge_ratio`` times staying,
    and the card's cut is gone (under ``cut_kept``). The fingers that push a
    pile rest on its top card; a twin laid leaves the ground as it was."""
    votes = _ground_votes(before, shift, config, config.face_loose_match)
    if votes is None:
        return False
    for_push, for_stay = votes
    if for_push < config.edge_plain or for_push < config.edge_ratio * for_stay:
        return False
    kept = cut_kept(before, shift.warp, shift.seen, config)
    return kept is not None and kept < config.cut_kept


def _ground_votes(before: Face, shift: Shift, config: TrackerConfig,
                  least_match: float | None = None) -> tuple[float, float] | None:
    """How much of the bare ground beside the old outline the earlier view
    moved with the face explains clearly better than that view as it was,
    and the other way round; None when the face did not register at
    ``least_match`` (default ``face_sure_match``), moved too little, or too
    little ground lies bare."""
    least = config.face_sure_match if least_match is None else least_match
    if shift.warp is None or shift.seen is None or shift.match < least or shift.moved < config.edge_least_move:
        return None
    ground = _bare_ground(before, shift.warp, config)
    if int(ground.sum()) < config.edge_least_pixels:
        return None
    height, width = before.patch.shape
    pushed = cv2.warpAffine(before.patch, shift.warp, (width, height), borderMode=cv2.BORDER_REPLICATE)
    # edges, not grey levels: the new card's shadow darkens the card it lies on smoothly
    seen, as_it_was, as_pushed = (_gradients(patch)[ground] for patch in (shift.seen, before.patch, pushed))
    off_was = np.linalg.norm(seen - as_it_was, axis=1)
    off_pushed = np.linalg.norm(seen - as_pushed, axis=1)
    explained = np.minimum(off_was, off_pushed) < config.edge_explained
    for_push = float(((off_was - off_pushed > config.edge_contrast) & explained).mean())
    for_stay = float(((off_pushed - off_was > config.edge_contrast) & explained).mean())
    return for_push, for_stay


def cut_kept(before: Face, warp: np.ndarray, seen: np.ndarray, config: TrackerConfig) -> float | None:
    """How much of the top card's cut (its outer edge: see :func:`_cuts`)
    still shows where it was, where the card does not lie now: about 1
    under a twin, which leaves the card below it as it lay; about 0 when the
    card was pushed away from there. None when too little of the cut lies
    bare (``cut_least`` samples).

    An outline may lie on a frame printed inside the card, the cut a few
    pixels beyond it; a twin has the same border, so a stretch of the cut
    lies bare only when it lies that far and ``cut_gap`` more outside the
    outline where the card lies now."""
    grad_seen = _gradients(seen)
    now = (np.c_[before.outline, np.ones(4)] @ warp.T).astype(np.float32).reshape(-1, 1, 2)
    gap = config.cut_gap * config.face_width
    was = still = 0.0
    count = 0
    for cut in _cuts(before, config):
        bare = np.array([cv2.pointPolygonTest(now, (float(x), float(y)), True) < -(gap + cut.beyond)
                         for x, y in cut.points])
        inside = (cut.points[:, 0] > 1) & (cut.points[:, 1] > 1) & \
            (cut.points[:, 0] < seen.shape[1] - 2) & (cut.points[:, 1] < seen.shape[0] - 2)
        use = bare & inside
        across_seen = grad_seen[..., 0] * cut.normal[0] + grad_seen[..., 1] * cut.normal[1]
        was += float(cut.step[use].sum())
        still += float((cut.sign * _sample(across_seen, cut.points))[use].sum())
        count += int(use.sum())
    if count < config.cut_least or was <= 0:
        return None
    return still / was


@dataclass(frozen=True)
class _Cut:
    """One side of a card's cut on a face patch: where it was found."""

    points: np.ndarray  # along the side (x, y)
    normal: np.ndarray  # outward, unit
    beyond: float       # its distance outside the outline (patch pixels)
    sign: float         # of the step across it, outward
    step: np.ndarray    # that step at each point, signed to be positive on the cut


def _cuts(before: Face, config: TrackerConfig) -> list[_Cut]:
    """The card's cut on each side of its outline in ``before``: the line
    parallel to the side, within ``cut_band`` outside it, where the edge is
    strongest, or the outermost one nearly as strong (``cut_outer``: a line
    printed by the card's edge may be the stronger)."""
    grad_before = _gradients(before.patch)
    outline = before.outline.astype(np.float32)
    band = config.cut_band * config.face_width
    middle = outline.mean(axis=0)
    along = np.linspace(0.1, 0.9, 40, dtype=np.float32)[:, None]
    distances = np.arange(0.0, band + 0.01, 0.5, dtype=np.float32)  # of the lines searched for the cut
    cuts = []
    for a, b in zip(outline, np.roll(outline, -1, axis=0)):
        normal = np.array([b[1] - a[1], a[0] - b[0]], np.float32) / max(float(np.linalg.norm(b - a)), 1e-6)
        normal *= np.sign(float(np.dot(normal, (a + b) / 2 - middle))) or 1.0
        across = grad_before[..., 0] * normal[0] + grad_before[..., 1] * normal[1]
        line = a + along * (b - a)
        lines = [line + d * normal for d in distances]
        steps = [_sample(across, points) for points in lines]
        best = _outermost_edge(np.array([abs(float(step.mean())) for step in steps]), config.cut_outer)
        sign = float(np.sign(float(steps[best].mean())))
        cuts.append(_Cut(lines[best], normal, float(distances[best]), sign, sign * steps[best]))
    return cuts


def _outermost_edge(strengths: np.ndarray, share: float) -> int:
    """The index of the last local peak of ``strengths`` with at least
    ``share`` of the strongest.

    >>> _outermost_edge(np.array([1.0, 9.0, 2.0, 6.0, 1.0]), 0.5)
    3
    >>> _outermost_edge(np.array([1.0, 9.0, 2.0, 3.0, 1.0]), 0.5)
    1
    """
    least = share * float(strengths.max())
    padded = np.r_[-np.inf, strengths, -np.inf]
    peaks = [i for i, value in enumerate(strengths)
             if value >= least and value >= padded[i] and value >= padded[i + 2]]
    return peaks[-1]


def _sample(image: np.ndarray, points: np.ndarray) -> np.ndarray:
    """``image`` at each of ``points`` (x, y), interpolated."""
    xs, ys = points[:, 0][None].astype(np.float32), points[:, 1][None].astype(np.float32)
    return cv2.remap(image, xs, ys, cv2.INTER_LINEAR)[0]


def _gradients(patch: np.ndarray) -> np.ndarray:
    """The horizontal and vertical gradient of ``patch`` at each pixel (rows, columns, 2)."""
    return np.dstack([cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3)])


def _bare_ground(before: Face, warp: np.ndarray, config: TrackerConfig) -> np.ndarray:
    """The pixels of ``before``'s patch just outside the card's outline there
    (within ``edge_band``: an outline may lie on a frame printed inside the
    cut, and the card's cut and what lay beside it are a few pixels out), and
    farther than ``edge_gap`` from the card where the registration puts it
    now, out to its cut (:func:`_cuts`: a card laid there covers that much;
    its edge blurs and casts a shadow)."""
    shape = before.patch.shape
    band, gap = (max(1, round(f * config.face_width)) for f in (config.edge_band, config.edge_gap))
    card = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(card, np.round(before.outline).astype(np.int32), 1)
    ground = (cv2.dilate(card, np.ones((2 * band + 1, 2 * band + 1), np.uint8)) > 0) & (card == 0)
    now = np.zeros(shape, np.uint8)
    extent = _extent(before.outline.astype(np.float32), _cuts(before, config))
    cv2.fillConvexPoly(now, np.round(np.c_[extent, np.ones(4)] @ warp.T).astype(np.int32), 1)
    ground &= cv2.dilate(now, np.ones((2 * gap + 1, 2 * gap + 1), np.uint8)) == 0
    # the border of the patch: the moved view is made up there
    ground[:band + 1], ground[-band - 1:], ground[:, :band + 1], ground[:, -band - 1:] = False, False, False, False
    return ground


def _extent(outline: np.ndarray, cuts: list[_Cut]) -> np.ndarray:
    """The corners of the card out to its cut: each corner of ``outline``
    moved out along the two sides' normals as far as their cuts lie (a
    card's corners are square)."""
    return np.array([corner + cuts[i - 1].normal * cuts[i - 1].beyond + cuts[i].normal * cuts[i].beyond
                     for i, corner in enumerate(outline)], np.float32)
