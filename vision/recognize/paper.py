"""A face seen against its own paper: colour casts, uneven light and the
table around a card taken out, so that two pictures of one card, taken
under different light, compare alike where the card's print is alike."""
from __future__ import annotations

import cv2
import numpy as np

from .config import DEFAULT_CONFIG, VisionConfig


def paper_balanced(face: np.ndarray, where: np.ndarray, config: VisionConfig = DEFAULT_CONFIG,
                   ink_ceiling: float | None = None) -> np.ndarray:
    """``face`` (float, BGR) seen against its own paper: on each channel,
    less its darkest ink, divided by the light around each pixel (the
    brightest nearby, smoothed), then blurred a little. A colour cast,
    whether it tints the light or washes over the whole picture, light
    falling off across the card and a little blur then change it little, while a thin
    coloured frame or a small topping keeps its colour against the paper next
    to it. Measured within ``where`` (the card), and what lies outside it
    (the table, or nothing) is first replaced by the card's edge spread
    outwards, so that it sways neither the light nor the blur at the rim.

    The ink taken out is at most ``ink_ceiling`` (if given) of the paper, on
    each channel: glare can wash out a card's dark print until its darkest
    pixels are a coloured frame, which would otherwise be taken out as ink
    (a red frame would come out nearly black, and nearer a brown one)."""
    inside = np.flatnonzero(where)
    if len(inside) < 50:
        return face
    ink = _ink(face, inside)
    if ink_ceiling is not None:
        ink = np.minimum(ink, ink_ceiling * _paper(face, inside)).astype(np.float32)
    lifted = np.maximum(_filled(face, where) - ink, 0).astype(np.float32)
    reach = config.fine_light_reach
    light = cv2.dilate(lifted, cv2.getStructuringElement(cv2.MORPH_RECT, (reach, reach)))
    light = cv2.GaussianBlur(light, (0, 0), reach / 2)
    return cv2.GaussianBlur(200.0 * lifted / np.maximum(light, 8.0), (0, 0), config.fine_blur)


def gains_matched(face: np.ndarray, at: np.ndarray, shared: np.ndarray, where: np.ndarray | None = None,
                  spread: float = 2.0) -> np.ndarray:
    """``face`` (float32, BGR, seen against its paper) with its three
    channels brought to one gain against ``shared``: the colours (3, m), a
    channel to a row, that the face should show at its flat pixels ``at``
    (m,), where ``where`` (a flat mask of ``face``, if given) says it is
    seen. Each channel is fitted there as an offset plus a gain of
    ``shared``; each is then divided by its gain and multiplied by their
    mean, so contrast stays as it was while a channel that came out stronger
    than the others is evened out. A camera that clips one channel of the
    bright paper (a strong cast, overexposed) leaves that channel's paper too
    dark for the tints printed on it, and the paper alone cannot set it
    right; the print a face shares with its family can. ``face`` is returned
    as it is when too little of ``shared`` is seen, or it shows too little
    of some channel to fit that channel's gain, or when the gains lie more
    than ``spread`` apart (the face does not show that print: another card,
    or none).

    >>> shared = np.float64([[0, 100, 200] * 300] * 3)
    >>> face = np.float32([[10, 10, 10], [60, 110, 110], [110, 210, 210]] * 300)[None]
    >>> gains_matched(face, np.arange(900), shared)[0, :3].round().astype(int).tolist()
    [[10, 10, 10], [93, 93, 93], [177, 177, 177]]
    """
    if where is not None:
        seen = where[at]
        at, shared = at[seen], shared[:, seen]
    if not print_sets_gains(shared):
        return face
    # least squares of each channel on the shared colours, the three at once, a channel to a row
    count = len(at)
    sum_x = shared.sum(axis=1)
    variance = np.einsum("ij,ij->i", shared, shared) - sum_x * sum_x / count
    y = face.reshape(-1, 3)[at].T.astype(np.float64)
    sum_y = y.sum(axis=1)
    gains = (np.einsum("ij,ij->i", shared, y) - sum_x * sum_y / count) / variance
    if gains.min() <= 0 or gains.max() > spread * gains.min():
        return face
    offsets = (sum_y - gains * sum_x) / count
    scale = gains.mean() / gains
    matrix = np.zeros((3, 4), np.float32)
    matrix[[0, 1, 2], [0, 1, 2]] = scale
    matrix[:, 3] = offsets.mean() - offsets * scale
    return cv2.transform(face, matrix)


def print_sets_gains(shared: np.ndarray) -> bool:
    """Whether the colours ``shared`` (3, m) of a print, a channel to a row,
    are enough pixels varying enough in every channel to fit each channel's
    gain on them (:func:`gains_matched`).

    >>> print_sets_gains(np.float64([[0, 100, 200] * 300] * 3)), print_sets_gains(np.full((3, 900), 90.0))
    (True, False)
    """
    return shared.shape[1] >= GAIN_MIN_PIXELS and bool(shared.var(axis=1).min() >= GAIN_MIN_SPREAD ** 2)


# a face's channels are left as they are when fewer shared pixels than this are seen, or when
# the shared print varies less than this (a standard deviation, of 255) in a channel: its gain
# would be guessed from noise. Of an overexposed card under a cast, whose paper is clipped, the
# darker print (lettering, the pizza) leaves 550 to 800 of a family's shared pixels in view
GAIN_MIN_PIXELS = 400
GAIN_MIN_SPREAD = 20.0


def ink_share(face: np.ndarray) -> float:
    """How dark a face's ink is against its paper: the darkest 3 % of its
    pixels over its bright paper (the 90th percentile), on the channel where
    that share is largest. Near 0 for black print, near 1 for a pale print
    or a face washed out by glare.

    >>> face = np.full((20, 20, 3), 200, np.float32); face[:4, :4] = 50
    >>> round(ink_share(face), 2)
    0.25
    """
    everywhere = np.arange(face.shape[0] * face.shape[1])
    return float((_ink(face, everywhere) / np.maximum(_paper(face, everywhere), 1.0)).max())


def _ink(face: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """The colour of the darkest 3 % of ``face``'s pixels ``inside`` (flat indices)."""
    channels = face.reshape(-1, 3)
    bright = (channels[:, 0] + channels[:, 1] + channels[:, 2])[inside]
    darkest = max(1, len(bright) * 3 // 100)
    return channels[inside[np.argpartition(bright, darkest)[:darkest]]].mean(axis=0)


def _paper(face: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """Each channel's 90th percentile over ``face``'s pixels ``inside``: its
    bright paper. The two values it lies between are partitioned out and
    interpolated as ``np.percentile`` does (the same numbers in under half
    its time, which sorts more than it needs).

    >>> face = np.random.default_rng(0).random((30, 20, 3)).astype(np.float32)
    >>> inside = np.arange(0, 600, 2)
    >>> bool((_paper(face, inside) == np.percentile(face.reshape(-1, 3)[inside], 90, axis=0)).all())
    True
    """
    values = face.reshape(-1, 3)[inside]
    position = 0.9 * (len(values) - 1)
    low = int(position)
    high, share = min(low + 1, len(values) - 1), position - low
    parted = np.partition(values, (low, high), axis=0)
    below, above = parted[low], parted[high]
    step = above - below
    return above - step * (1 - share) if share >= 0.5 else below + step * share


def _filled(face: np.ndarray, where: np.ndarray) -> np.ndarray:
    """``face`` with its pixels outside ``where`` replaced by the nearby
    pixels inside, spread outwards (a normalised box blur, three times as
    wide the second time for what the first did not reach). Masked copies
    rather than products and ``np.where``: the same numbers in half the time."""
    face = face.astype(np.float32)
    mask = where.astype(np.uint8)
    for size in (5, 15):
        spread = cv2.blur(mask.astype(np.float32), (size, size))
        blurred = cv2.blur(cv2.copyTo(face, mask), (size, size))
        face = cv2.copyTo(face, mask, cv2.divide(blurred, cv2.merge([np.maximum(spread, np.float32(1e-3))] * 3)))
        mask = (spread > 1e-3).astype(np.uint8)
    return face
