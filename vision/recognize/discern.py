"""Stage 4: tell close faces apart where they differ, before a reading is sure.

The descriptor of :mod:`.identify` compares whole faces at low resolution:
it finds the card's layout surely, but faces that differ only in a thin
coloured frame or one small topping score nearly alike. At deck build, faces
that look alike are grouped (a *family*: every order of one printing, say)
and put in one frame, each seen against its own paper, so the pixels where
any two members differ are known. A reading is then looked at again at
fine resolution, aligned with the face it was taken for, seen against its
own paper, and set against every member of the family where the two
differ. The card becomes the member the reading is nearest; a reading is
sure only when every close face has lost such a comparison clearly, and the
ones that have not are kept, likeliest first, as the candidates a player
chooses among.

Nothing here knows how any deck's art looks: the differences are learnt
from the deck's own faces.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Sequence

import cv2
import numpy as np

from .config import DEFAULT_CONFIG, VisionConfig
from .paper import paper_balanced
from .rectify import image_outline
from .refine import align
from .types import Quad


@dataclass(frozen=True, eq=False)
class Looks:
    """A family's faces, seen against their paper, at the informative
    pixels: (k, n, 3)."""

    faces: np.ndarray

    @cached_property
    def planes(self) -> np.ndarray:
        """``faces`` channel by channel: (k, 3, n), each channel a contiguous row."""
        return np.ascontiguousarray(self.faces.transpose(0, 2, 1))

    @cached_property
    def sums(self) -> np.ndarray:
        """Each member's channels summed at each pixel: (k, n)."""
        return self.faces.sum(axis=2)

    @cached_property
    def squares(self) -> np.ndarray:
        """Each member's squared channels summed at each pixel: (k, n)."""
        return (self.faces * self.faces).sum(axis=2)


@dataclass(frozen=True, eq=False)
class Family:
    """Faces that look alike at low resolution, registered in one frame.

    ``members`` index the deck's cards. ``into_frame`` maps each member's own
    face (at ``config.fine_size``) into the frame. ``looks`` hold the
    members' colours, seen against their paper, at the frame's informative
    pixels (where any two members differ); ``valid`` says where a member's
    face covers such a pixel (a face cut a little inside its card lacks its
    rim), ``covered`` where any member's does over the whole frame."""

    members: tuple[int, ...]
    into_frame: np.ndarray   # (k, 3, 3) float32: member face -> frame, a homography
    pixels: np.ndarray       # (n,) flat indices of the informative pixels
    looks: Looks
    valid: np.ndarray        # (k, n) bool
    telling: np.ndarray      # (k, k) float32: how different two members must be at a pixel for it to count
    close: np.ndarray        # (k, k) bool: the members whose descriptors correlate ``config.fine_close`` or more
    covered: np.ndarray      # (height, width) bool
    shifts: np.ndarray       # (k,) how far each member was moved into the frame (its corners, fine pixels)

    @property
    def frame_size(self) -> tuple[int, int]:
        return self.covered.shape[1], self.covered.shape[0]


@dataclass(frozen=True)
class Verdict:
    """What the fine comparison made of a reading: its card (a deck index)
    and the close faces it could not rule out, likeliest first."""

    card: int
    unresolved: tuple[int, ...]


class FineDeck:
    """The families of a deck, and the fine comparison of a reading."""

    def __init__(self, images: Sequence[np.ndarray], matrix: np.ndarray,
                 config: VisionConfig = DEFAULT_CONFIG) -> None:
        """``images``: each card's face as taught; ``matrix``: the deck's
        descriptors, every card upright and then every card turned (as
        :class:`~.identify.ReferenceDeck` keeps them). A face taught upside
        down (which end of unknown art is its top is a guess) is turned to
        match its family, and so is every reading of it."""
        self.config = config
        count = len(images)
        upright, turned = matrix[:count], matrix[count:]
        alike = np.maximum(upright @ upright.T, upright @ turned.T)
        groups = families(alike, config.fine_close)
        self.turned: set[int] = set()
        for members in groups:
            anchor = members[int(np.argmax(alike[np.ix_(members, members)].sum(axis=1)))]
            self.turned |= {m for m in members if upright[anchor] @ turned[m] > upright[anchor] @ upright[m]}
        fine = [cv2.resize(cv2.rotate(image, cv2.ROTATE_180) if i in self.turned else image, config.fine_size,
                           interpolation=cv2.INTER_AREA).astype(np.float32) for i, image in enumerate(images)]
        self.grays = [cv2.cvtColor(face, cv2.COLOR_BGR2GRAY) for face in fine]
        self._family_of: dict[int, Family] = {}
        for members in groups:
            close = alike[np.ix_(members, members)] >= config.fine_close
            family = _build_family(members, fine, self.grays, close, config)
            for member in members:
                self._family_of[member] = family

    def family_of(self, index: int) -> Family | None:
        return self._family_of.get(index)

    def judge(self, image: np.ndarray, outline: Quad, index: int) -> Verdict | None:
        """The fine comparison of the face at ``outline`` (corners in face
        order, aligned with card ``index``'s face) within that card's family;
        ``None`` when the card has no close faces. When another member is
        nearer the reading, it takes the card's place, and so on while
        another is nearer still; the last is the verdict's card."""
        family = self._family_of.get(index)
        if family is None:
            return None
        if index in self.turned:
            outline = outline.turned()
        face, valid = _seen(image, self._placed(image, outline, family, family.members.index(index)),
                            family, self.config)
        seen, valid = face.reshape(-1, 3)[family.pixels], valid.ravel()[family.pixels]
        member, tried = family.members.index(index), set()
        while True:
            tried.add(member)
            leads = _leads(family, seen, valid, member, self.config)
            challenger = int(np.argmin(leads))
            if leads[challenger] >= 0 or challenger in tried:
                break
            member = challenger
        # a face far from this one at low resolution is told apart there (by the reading's margin)
        unresolved = [int(r) for r in np.argsort(leads)
                      if leads[r] < self.config.fine_sure and family.close[member, r]]
        return Verdict(family.members[member], tuple(family.members[r] for r in unresolved))

    def _placed(self, image: np.ndarray, outline: Quad, family: Family, member: int) -> np.ndarray:
        """The homography from the family's frame to ``image``, for a reading
        at ``outline`` of ``member``'s face: the outline aligned with that
        face as taught (its gray face at fine size; members of a family share
        their layout, so this holds whichever of them the reading is), then
        taken into the frame as that face was."""
        width, height = self.config.fine_size
        face = image_outline(width, height)
        aligned = align(image, outline, self.grays[family.members[member]], self.config.fine_align, self.config)
        to_image = cv2.getPerspectiveTransform(face, (aligned or outline).corners.astype(np.float32))
        return to_image @ np.linalg.inv(family.into_frame[member])


def families(alike: np.ndarray, close: float) -> list[tuple[int, ...]]:
    """Groups of faces linked, directly or through others, by a likeness
    (``alike``, one row and column per face) of at least ``close``; only
    groups of two or more.

    >>> rows = np.eye(3, dtype=np.float32); rows[1] = [0.8, 0.6, 0]
    >>> families(rows @ rows.T, 0.7)
    [(0, 1)]
    """
    count = len(alike)
    parent = list(range(count))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in zip(*np.nonzero(np.triu(alike >= close, 1))):
        parent[root(int(i))] = root(int(j))
    groups: dict[int, list[int]] = {}
    for i in range(count):
        groups.setdefault(root(i), []).append(i)
    return [tuple(g) for g in groups.values() if len(g) > 1]


def _build_family(members: tuple[int, ...], fine: list[np.ndarray], grays: list[np.ndarray], close: np.ndarray,
                  config: VisionConfig) -> Family:
    width, height = config.fine_size
    pad_x, pad_y = round(width * config.fine_pad), round(height * config.fine_pad)
    frame_size = (width + 2 * pad_x, height + 2 * pad_y)
    placed = np.float32([[1, 0, pad_x], [0, 1, pad_y], [0, 0, 1]])
    consensus = np.median(np.stack([grays[m] for m in members]), axis=0).astype(np.float32)
    consensus_frame = cv2.warpPerspective(consensus, placed, frame_size)
    consensus_valid = cv2.warpPerspective(np.ones(consensus.shape, np.uint8), placed, frame_size)
    warps = [_register(grays[m], consensus_frame, consensus_valid, placed, config) for m in members]
    colours = np.stack([cv2.warpPerspective(fine[m], w, frame_size, flags=cv2.INTER_LINEAR)
                        for m, w in zip(members, warps)])
    valid = np.stack([_covered(grays[m].shape, w, frame_size) for m, w in zip(members, warps)])
    for k in range(len(members)):
        colours[k] = paper_balanced(colours[k], valid[k], config)
    flat, flat_valid = colours.reshape(len(members), -1, 3), valid.reshape(len(members), -1)
    flat = _agreed(flat, flat_valid, config.fine_agree)
    telling = _telling(flat, flat_valid, config)
    pixels = _informative(flat, flat_valid, telling)
    looks = Looks(np.ascontiguousarray(flat[:, pixels], np.float32))
    return Family(members, np.stack(warps), pixels, looks, flat_valid[:, pixels], telling, close,
                  valid.any(axis=0), np.array([_shift(w, placed, grays[0].shape) for w in warps], np.float32))


def _shift(warp: np.ndarray, placed: np.ndarray, shape: tuple[int, ...]) -> float:
    """How far ``warp`` puts a face's corners from where ``placed`` does."""
    outline = image_outline(shape[1], shape[0]).reshape(-1, 1, 2).astype(np.float64)
    moved = cv2.perspectiveTransform(outline, warp.astype(np.float64))
    return float(np.abs(moved - cv2.perspectiveTransform(outline, placed.astype(np.float64))).max())


def _agreed(faces: np.ndarray, valid: np.ndarray, radius: float) -> np.ndarray:
    """``faces`` (k, n, 3) with each member's colour at each pixel replaced
    by the mean of the members whose colours lie within ``radius`` of it
    there. Each face was taught from its own photo, with its own light,
    glare and blur, and what sets one apart where the print is the same (a
    pizza all the orders share, the green frame of the eight green orders)
    would otherwise count as a difference between two faces; where the print
    differs (a green frame and a red one), the groups stay apart."""
    out = faces.copy()
    for start in range(0, faces.shape[1], AGREE_BLOCK):
        block, shown = faces[:, start:start + AGREE_BLOCK], valid[:, start:start + AGREE_BLOCK]
        gaps = np.sqrt(((block[:, None] - block[None]) ** 2).sum(axis=-1))   # (k, k, pixels)
        near = ((gaps <= radius) & shown[None] & shown[:, None]).astype(np.float32)
        total = near.sum(axis=1)
        mean = np.einsum("kjp,jpc->kpc", near, block) / np.maximum(total, 1)[..., None]
        out[:, start:start + AGREE_BLOCK] = np.where((total > 0)[..., None], mean, block)
    return out


AGREE_BLOCK = 1024  # pixels compared at once: (k, k, 1024) distances, a few MB for 40 members


def _telling(faces: np.ndarray, valid: np.ndarray, config: VisionConfig) -> np.ndarray:
    """For each two members, the difference a pixel needs to count as one
    where they differ: ``config.fine_share`` of their strongest differences
    (the 99th percentile, over every fourth pixel), and at least
    ``config.fine_floor``. Faces taught from photos differ a little
    everywhere (JPEG, light, a cut a pixel off); what tells two faces apart
    stands well above that."""
    count = len(faces)
    telling = np.full((count, count), np.inf, np.float32)
    sample = np.ascontiguousarray(faces[:, ::4]), valid[:, ::4]
    for i in range(count):
        squared = _squared_differences(sample[0], i)
        squared[~(sample[1][i] & sample[1])] = 0
        strongest = np.sqrt(np.quantile(squared, 0.99, axis=1))
        telling[i] = np.maximum(config.fine_floor, config.fine_share * strongest)
    np.fill_diagonal(telling, np.inf)
    return np.minimum(telling, telling.T)


def _informative(faces: np.ndarray, valid: np.ndarray, telling: np.ndarray) -> np.ndarray:
    """Flat indices of the frame's pixels where some two members differ as
    ``telling`` asks."""
    chosen = np.zeros(faces.shape[1], bool)
    for i in range(len(faces)):
        squared = _squared_differences(faces, i)
        chosen |= ((squared >= telling[i][:, None] ** 2) & valid[i] & valid).any(axis=0)
    return np.flatnonzero(chosen)


def _squared_differences(faces: np.ndarray, i: int) -> np.ndarray:
    """|faces[i] - faces[k]|^2 at each pixel, for every k: (k, n)."""
    squared = np.zeros(faces.shape[:2], np.float32)
    for c in range(3):
        step = faces[:, :, c] - faces[i, :, c]
        squared += step * step
    return squared


def _covered(shape: tuple[int, ...], warp: np.ndarray, frame_size: tuple[int, int]) -> np.ndarray:
    """Where a face of ``shape`` lands in the frame, a pixel in from its cut."""
    inside = cv2.warpPerspective(np.ones(shape[:2], np.uint8), warp, frame_size, flags=cv2.INTER_NEAREST)
    return cv2.erode(inside, np.ones((3, 3), np.uint8)).astype(bool)


def _register(gray: np.ndarray, frame: np.ndarray, frame_valid: np.ndarray, placed: np.ndarray,
              config: VisionConfig) -> np.ndarray:
    """Where a member's face lies in the family's frame: as it was cut
    (``placed``), unless a move (ECC, a homography: a cut may be askew) onto the members' consensus
    (their median face, as cut) fits it clearly better. Most faces are cut
    along the card's edge and are left as they are, so a pale frame or a
    small topping that ECC barely sees cannot pull them askew; a face cut a
    little inside its card, or out over the table, is moved."""
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 1e-4)
    try:
        _, warp = cv2.findTransformECC(gray, frame, placed.copy(), cv2.MOTION_HOMOGRAPHY, criteria, frame_valid, 3)
    except cv2.error:
        return placed
    moved = warp.astype(np.float32)
    height, width = gray.shape
    outline = image_outline(width, height).reshape(-1, 1, 2)
    shift = cv2.perspectiveTransform(outline, moved) - cv2.perspectiveTransform(outline, placed)
    if not np.isfinite(shift).all() or np.abs(shift).max() > FARTHEST_MOVE * width or np.abs(shift).max() < 1.0:
        return placed
    before, after = (_correlation(gray, warp, frame, frame_valid) for warp in (placed, moved))
    return moved if after - before >= config.fine_register_gain else placed


# a face cut a sixth of its width out over the table is moved (and so found a misfit); beyond a
# quarter, ECC has slid onto another part of the card rather than found the cut
FARTHEST_MOVE = 0.25


def _correlation(gray: np.ndarray, warp: np.ndarray, frame: np.ndarray, frame_valid: np.ndarray) -> float:
    """The correlation of ``gray`` put into ``frame`` by ``warp`` with it,
    where both are defined."""
    size = (frame.shape[1], frame.shape[0])
    placed = cv2.warpPerspective(gray, warp, size)
    where = (cv2.warpPerspective(np.ones(gray.shape, np.uint8), warp, size, flags=cv2.INTER_NEAREST) > 0) & \
        (frame_valid > 0)
    a, b = placed[where], frame[where]
    a, b = a - a.mean(), b - b.mean()
    return float((a * b).sum() / (np.sqrt((a * a).sum() * (b * b).sum()) + 1e-6))


def _seen(image: np.ndarray, frame_to_image: np.ndarray, family: Family,
          config: VisionConfig) -> tuple[np.ndarray, np.ndarray]:
    """The reading in the family's frame, seen against its paper, and where
    the picture covers it."""
    frame_w, frame_h = family.frame_size
    k = config.fine_oversample
    # pixel x of the oversampled frame covers frame pixels (x + 0.5) / k - 0.5
    from_big = np.array([[1 / k, 0, 0.5 / k - 0.5], [0, 1 / k, 0.5 / k - 0.5], [0, 0, 1]])
    matrix = frame_to_image @ from_big
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    big = cv2.warpPerspective(image, matrix, (k * frame_w, k * frame_h), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    face = cv2.resize(big, family.frame_size, interpolation=cv2.INTER_AREA).astype(np.float32)
    valid = _inside_picture(image.shape, matrix, k, family.frame_size)
    return paper_balanced(face, valid & family.covered, config), valid


def _inside_picture(shape: tuple[int, ...], matrix: np.ndarray, k: int, frame_size: tuple[int, int]) -> np.ndarray:
    """Which frame pixels the picture covers (a card may reach past its edge)."""
    frame_w, frame_h = frame_size
    corners = cv2.perspectiveTransform(image_outline(k * frame_w, k * frame_h).reshape(-1, 1, 2),
                                       matrix).reshape(-1, 2)
    height, width = shape[:2]
    if corners.min() >= 0 and corners[:, 0].max() < width - 1 and corners[:, 1].max() < height - 1:
        return np.ones((frame_h, frame_w), bool)
    inside = cv2.warpPerspective(np.ones((height, width), np.uint8), matrix, (k * frame_w, k * frame_h),
                                 flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP)
    return cv2.resize(inside, frame_size, interpolation=cv2.INTER_AREA) > 0


def _leads(family: Family, seen: np.ndarray, valid: np.ndarray, current: int,
           config: VisionConfig) -> np.ndarray:
    """For each member, how clearly the reading is ``current`` rather than
    it, at the pixels where the two differ: the reading fitted as an offset
    plus a share of each face, ``(a - b) / (|a| + |b|)`` of the shares: +1
    only ``current``, -1 only the other, 0 undecided (``current`` itself:
    +inf). The shares, not the distances, decide: a blurred or washed-out
    reading shows a thin frame with less contrast than a taught face, but
    still with its colour. Where two faces differ too little, 0."""
    looks = family.looks
    planes = looks.planes                        # (k, 3, n): a member's channels, each a row
    mine, reading = planes[current], np.ascontiguousarray(seen.T)
    cross = _dot(planes, mine)                   # b . a at each pixel, for each member b
    towards = _dot(planes, reading)              # b . o
    own = looks.squares                          # b . b
    squared = own + own[current] - 2 * cross     # |a - b|^2
    where = (squared >= family.telling[current][:, None] ** 2) & family.valid & (family.valid[current] & valid)
    weights = where.astype(np.float32)
    energy = (weights * squared).sum(axis=1) / 2
    n = np.maximum(weights.sum(axis=1) * 3, 1)
    sum_a, sum_o = weights @ mine.sum(axis=0), weights @ reading.sum(axis=0)
    sum_aa, sum_ao = weights @ own[current], weights @ (mine * reading).sum(axis=0)
    sum_b, sum_bb = (weights * looks.sums).sum(axis=1), (weights * own).sum(axis=1)
    sum_ab, sum_bo = (weights * cross).sum(axis=1), (weights * towards).sum(axis=1)
    aa, bb, ab = sum_aa - sum_a ** 2 / n, sum_bb - sum_b ** 2 / n, sum_ab - sum_a * sum_b / n
    ao, bo = sum_ao - sum_a * sum_o / n, sum_bo - sum_b * sum_o / n
    determinant = aa * bb - ab * ab
    safe = np.where(determinant > 0, determinant, 1)
    share_a, share_b = (bb * ao - ab * bo) / safe, (aa * bo - ab * ao) / safe
    decided = (energy >= config.fine_min_energy) & (determinant > 1e-6 * np.maximum(aa * bb, 1e-6))
    leads = np.where(decided, (share_a - share_b) / np.maximum(np.abs(share_a) + np.abs(share_b), 1e-6), 0.0)
    leads[current] = np.inf
    return leads


def _dot(planes: np.ndarray, other: np.ndarray) -> np.ndarray:
    """Each member's colour dotted with ``other``'s (3, n) at each pixel:
    (k, n), one channel at a time (three passes over (k, n) cost a fraction
    of one over (k, n, 3))."""
    return planes[:, 0] * other[0] + planes[:, 1] * other[1] + planes[:, 2] * other[2]
