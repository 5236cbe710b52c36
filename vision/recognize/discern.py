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
from typing import Sequence

import cv2
import numpy as np

from .config import DEFAULT_CONFIG, VisionConfig
from .families import Family, alignment_template, build_family, families
from .leads import weigh, weigh_regions
from .paper import gains_matched, ink_share, paper_balanced
from .rectify import image_outline
from .refine import align
from .types import Quad
from .work import REGIONS, SEEN, Work, judge_cost, step_cost, unlimited, weigh_cost


@dataclass(frozen=True)
class Verdict:
    """What the fine comparison made of a reading: its card (a deck index),
    the close faces it could not rule out, likeliest first, and how much of
    the reading its card's face explains where the family's faces differ
    (0..1: a card of the family shows its face there; a pattern of the
    table that glanced like one does not)."""

    card: int
    unresolved: tuple[int, ...]
    fit: float


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
        self._templates = [alignment_template(gray, config) for gray in self.grays]
        self.ink_ceiling = max(config.fine_ink_floor,
                               config.fine_ink_slack * float(np.median([ink_share(face) for face in fine])))
        self._family_of: dict[int, Family] = {}
        for members in groups:
            close = alike[np.ix_(members, members)] >= config.fine_close
            family = build_family(members, fine, self.grays, close, config, self.ink_ceiling)
            for member in members:
                self._family_of[member] = family
        # the dearest family's: what a card's fine comparison costs up to its first weighing
        self.judge_cost = max((judge_cost(len(f.members), len(f.pixels), config)
                               for f in self._family_of.values()), default=0.0)

    def family_of(self, index: int) -> Family | None:
        return self._family_of.get(index)

    def judge(self, image: np.ndarray, outline: Quad, index: int, work: Work | None = None) -> Verdict | None:
        """The fine comparison of the face at ``outline`` (corners in face
        order, aligned with card ``index``'s face) within that card's family;
        ``None`` when the card has no close faces. When another member is
        nearer the reading, it takes the card's place, and so on while
        another is nearer still; the last is the verdict's card, unless the
        steps lead back to a member already weighed or have taken
        ``config.fine_max_weighs`` comparisons, or when ``work`` cannot pay for
        another (the first is always made). What it does is charged to ``work``."""
        family = self._family_of.get(index)
        if family is None:
            return None
        if index in self.turned:
            outline = outline.turned()
        work = work or unlimited()
        work.charge(step_cost(self.config.fine_align) + SEEN)
        face, valid, evened = _seen(image, self._placed(image, outline, family, family.members.index(index)),
                                    family, self.config, self.ink_ceiling)
        seen, valid = face.reshape(-1, 3)[family.pixels], valid.ravel()[family.pixels]
        member, tables = family.members.index(index), {}
        cost = weigh_cost(len(family.members), len(family.pixels))
        while member not in tables and len(tables) < self.config.fine_max_weighs and (not tables or work.fits(cost)):
            tables[member] = leads = weigh(family, seen, valid, member, self.config)
            work.charge(cost)
            challenger = int(np.argmin(leads))
            if leads[challenger] >= 0:
                break
            member = challenger
        else:
            # round in a circle (each nearer than the last, the last beaten by the first), or
            # still going after the comparisons one reading may take or the work can pay: the
            # member whose worst comparison is the mildest; the others stay candidates
            member = max(tables, key=lambda m: tables[m].min())
        leads = tables[member]
        # a face far from this one at low resolution is told apart there (by the reading's margin);
        # when the reading's channels could not be evened out on a print the family shares (the
        # camera clipped most of it, or the reading does not show it), its colours say too little
        # to rule out any close face they lean from (a brown frame under a magenta cast,
        # overexposed, comes out nearly red)
        sure_from = self.config.fine_sure if evened or not family.sets_gains else 1.0
        unresolved = [int(r) for r in np.argsort(leads) if leads[r] < sure_from and family.close[member, r]]
        if sure_from < 1 and self._told_by_regions(family, seen, valid, member, unresolved, leads, work):
            unresolved = []
        return Verdict(family.members[member], tuple(family.members[r] for r in unresolved),
                       _explained(family.looks.faces[member][valid], seen[valid]))

    def _told_by_regions(self, family: Family, seen: np.ndarray, valid: np.ndarray, member: int,
                         unresolved: list[int], leads: np.ndarray, work: Work) -> bool:
        """Whether every close face in ``unresolved`` (likeliest first), left
        by the pixels, is ruled out by the regions where it differs from
        ``member`` (:func:`~.leads.weigh_regions`): by ``config.fine_sure``
        there, or less as far as the pixels' lead makes up. All or none: while one is
        left the reading is not sure, and the candidates stay as the pixels
        left them; so the weighing stops at the first that stays (or when
        ``work`` cannot pay for another)."""
        config = self.config
        if not unresolved or leads[unresolved[0]] < config.fine_region_floor:
            return False
        for other in unresolved:
            needed = min(config.fine_sure, max(config.fine_region_least, config.fine_region_together - leads[other]))
            if not work.take(REGIONS) or weigh_regions(family, seen, valid, member, other, config) < needed:
                return False
        return True

    def _placed(self, image: np.ndarray, outline: Quad, family: Family, member: int) -> np.ndarray:
        """The homography from the family's frame to ``image``, for a reading
        at ``outline`` of ``member``'s face: the outline aligned with the
        family's common face when ``member`` looks like every other member at
        low resolution (the orders of one printing: its own face would pull
        the outline towards itself where they differ), else with its own face
        (a family of faces unlike one another has a blurred common face), and
        taken into the frame as that face was; when alignment fails, the
        outline as it is, taken in as ``member``'s face was."""
        width, height = self.config.fine_size
        face = image_outline(width, height)
        common = bool(family.close[member].all())
        template, placed = (family.face, family.placed) if common else \
            (self._templates[family.members[member]], family.into_frame[member])
        aligned = align(image, outline, template, self.config.fine_align, self.config)
        corners, into_frame = (aligned.corners, placed) if aligned else (outline.corners, family.into_frame[member])
        to_image = cv2.getPerspectiveTransform(face, corners.astype(np.float32))
        return to_image @ np.linalg.inv(into_frame)


def _explained(face: np.ndarray, reading: np.ndarray) -> float:
    """The share of ``reading``'s variance (pixels by channels) that an
    offset plus a multiple of ``face`` accounts for, the multiple at least 0.

    >>> face = np.float32([[10, 20, 30], [200, 180, 160]])
    >>> _explained(face, face * 0.5 + 40), _explained(face, face[::-1])
    (1.0, 0.0)
    """
    a, o = face.ravel().astype(np.float64), reading.ravel().astype(np.float64)
    if a.size < 2:
        return 0.0
    a, o = a - a.mean(), o - o.mean()
    aa, oo, ao = float(a @ a), float(o @ o), float(a @ o)
    if aa <= 0 or oo <= 0 or ao <= 0:
        return 0.0
    return min(1.0, ao * ao / (aa * oo))


def _seen(image: np.ndarray, frame_to_image: np.ndarray, family: Family, config: VisionConfig,
          ink_ceiling: float | None = None) -> tuple[np.ndarray, np.ndarray, bool]:
    """The reading in the family's frame, seen against its paper (its ink
    at most ``ink_ceiling`` of it) and its channels evened out on the print
    the family shares; where the picture covers it; and whether the channels
    were evened out (:func:`~.paper.gains_matched`)."""
    frame_w, frame_h = family.frame_size
    k = config.fine_oversample
    # pixel x of the oversampled frame covers frame pixels (x + 0.5) / k - 0.5
    from_big = np.array([[1 / k, 0, 0.5 / k - 0.5], [0, 1 / k, 0.5 / k - 0.5], [0, 0, 1]])
    matrix = frame_to_image @ from_big
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    big = cv2.warpPerspective(image, matrix, (k * frame_w, k * frame_h), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    face = cv2.resize(big, family.frame_size, interpolation=cv2.INTER_AREA).astype(np.float32)
    valid = _inside_picture(image.shape, matrix, k, family.frame_size)
    balanced = paper_balanced(face, valid & family.covered, config, ink_ceiling)
    # a channel the camera clipped (glare, bright paper under a cast) says nothing of its gain
    unclipped = cv2.reduce(face.reshape(-1, 3), 1, cv2.REDUCE_MAX).ravel() < CLIPPED
    evened = gains_matched(balanced, family.shared, family.shared_colours, valid.ravel() & unclipped)
    return evened, valid, evened is not balanced


# a pixel this bright in a channel may have been clipped there (of 255)
CLIPPED = 250.0


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
