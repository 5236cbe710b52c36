"""Stage 2b: align a rough outline with the card it is thought to be.

Contours give outlines that may be off by the cards underneath a pile, a
thumb or blur. Enhanced correlation (ECC) moves the outline's four corners
until the reference face lines up with the image; ECC ignores brightness and
contrast, so light and colour casts do not pull it away. A failed or wild
alignment returns ``None`` and the rough outline stands.
"""
from __future__ import annotations

from typing import Callable, Sequence

import cv2
import numpy as np

from .config import DEFAULT_CONFIG, AlignStep, VisionConfig
from .detect import card_shaped
from .rectify import image_outline, resized_points
from .types import Quad
from .work import Work, step_cost


def refine(levels: Sequence[tuple[np.ndarray, float]], quad: Quad, templates: Sequence[np.ndarray],
           config: VisionConfig = DEFAULT_CONFIG, look: Callable[[Quad], float] | None = None,
           settled: Callable[[Quad], bool] | None = None, work: Work | None = None) -> Quad | None:
    """``quad`` (corners in face order, image pixels) aligned to the reference
    face, step by step as ``config.refine_steps`` says. ``levels`` pairs an
    image (BGR or gray) with its scale (its pixels per image pixel); ``templates``
    is the face in gray at each step's size. ``look``, when given, says how
    much an outline looks like the card; ``None`` comes back when a step's
    result looks less so than that step's ``go_on``. A step that fails ends
    the alignment with the result so far, unless the outline already looks
    as much like the card as the step asks: the next step then starts from it.
    A result that looks like the card at least the step's ``skip_next`` jumps
    over the next step, or, when ``settled`` says it needs no more, stands.
    Each step is charged to ``work``."""
    result, steps, index = None, config.refine_steps, 0
    while index < len(steps):
        step = steps[index]
        aligned = _aligned_by(step, templates[index], levels, result or quad, config, work)
        index += 1
        last = index == len(steps)
        if aligned is None:
            # at the quick look's small scale, glare on a large card can throw ECC off
            # an outline that the next step would settle
            if look is not None and not last and look(result or quad) >= step.go_on:
                continue
            return result
        result = aligned
        if look is not None and not last:
            seen = look(result)
            if seen < step.go_on:
                return None
            if seen >= step.skip_next and index + 1 < len(steps):
                if settled is not None and settled(result):
                    return result
                index += 1
    return result


def refine_finest(levels: Sequence[tuple[np.ndarray, float]], quad: Quad, templates: Sequence[np.ndarray],
                  config: VisionConfig = DEFAULT_CONFIG, work: Work | None = None) -> Quad | None:
    """``quad`` aligned by the last, finest step of ``config.refine_steps``
    alone (``levels`` and ``templates`` as :func:`refine` takes them)."""
    return _aligned_by(config.refine_steps[-1], templates[-1], levels, quad, config, work)


def _aligned_by(step: AlignStep, template: np.ndarray, levels: Sequence[tuple[np.ndarray, float]], quad: Quad,
                config: VisionConfig, work: Work | None = None) -> Quad | None:
    """One step of alignment on its level, in image pixels."""
    if work is not None:
        work.charge(step_cost(step))
    image, scale = levels[step.level]
    aligned = align(image, _resized(quad, scale), template, step, config)
    return None if aligned is None else _resized(aligned, 1 / scale)


def _resized(quad: Quad, factor: float) -> Quad:
    """``quad`` in the pixels of its image resized by ``factor``."""
    return Quad(resized_points(quad.corners, factor).astype(np.float32))


def align(image: np.ndarray, quad: Quad, template: np.ndarray, step: AlignStep,
          config: VisionConfig = DEFAULT_CONFIG) -> Quad | None:
    """One ECC alignment of ``quad`` with ``template`` (float32 gray), in
    ``image``'s pixels (BGR or gray), with ``step``'s iterations and context."""
    height, width = template.shape
    face = image_outline(width, height)
    origin, roi = _region(image, quad.corners, step.context)
    # only the region is turned gray: a full-size image is mostly not aligned on
    roi = (cv2.cvtColor(roi, cv2.COLOR_BGR2GRAY) if roi.ndim == 3 else roi).astype(np.float32)
    fit = _fit(quad, width, config)
    if fit < 1.0:
        roi = cv2.resize(roi, None, fx=fit, fy=fit, interpolation=cv2.INTER_AREA)
    seen = resized_points(quad.corners - origin, fit).astype(np.float32)
    start = cv2.getPerspectiveTransform(face, seen).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, step.iterations, 1e-4)
    try:
        _, warp = cv2.findTransformECC(template, roi, start, cv2.MOTION_HOMOGRAPHY, criteria, None, 3)
    except cv2.error:  # did not converge
        return None
    corners = resized_points(cv2.perspectiveTransform(face.reshape(-1, 1, 2), warp).reshape(-1, 2), 1 / fit) + origin
    moved = np.abs(corners - quad.corners).max()
    if not np.isfinite(corners).all() or moved > config.refine_max_shift * np.sqrt(quad.area):
        return None
    if not card_shaped(corners, config):  # homographies can fold a pattern into any shape
        return None
    return Quad(corners.astype(np.float32))


def _fit(quad: Quad, template_width: int, config: VisionConfig) -> float:
    """The scale that brings the card in ``quad`` to at most ``refine_fit``
    times the template's width (1: it is that small already)."""
    card_width = np.sqrt(quad.area / config.card_aspect)
    return min(1.0, config.refine_fit * template_width / max(float(card_width), 1.0))


def _region(image: np.ndarray, corners: np.ndarray, context: float) -> tuple[np.ndarray, np.ndarray]:
    """The part of the image around ``corners`` (ECC differentiates all of its input)."""
    low, high = corners.min(axis=0), corners.max(axis=0)
    pad = context * (high - low)
    x0, y0 = np.maximum(0, np.floor(low - pad)).astype(int)
    x1, y1 = np.minimum([image.shape[1], image.shape[0]], np.ceil(high + pad)).astype(int)
    return np.array([x0, y0], np.float32), image[y0:y1, x0:x1]
