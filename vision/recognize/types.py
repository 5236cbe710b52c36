"""Results of the recognition stages: small dataclasses, not tuples."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from companion.engine import Card

from ..geometry import inside_convex


@dataclass(frozen=True, eq=False)
class Quad:
    """A card outline in image pixels: four corners clockwise, the first edge
    a short side. Which short side is the top is known only after
    identification (a card may lie upside down)."""

    corners: np.ndarray  # shape (4, 2), float32

    @cached_property
    def area(self) -> float:
        # geometry.quad_areas on plain floats: numpy's overhead would be most of the cost,
        # and outlines are measured in the recogniser's innermost loops
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = self.corners.tolist()
        return abs((x2 - x0) * (y3 - y1) - (x3 - x1) * (y2 - y0)) / 2

    @cached_property
    def center(self) -> np.ndarray:
        return np.add.reduce(self.corners, axis=0) / 4  # .mean's bookkeeping costs more than the sum

    def turned(self) -> Quad:
        """The same outline read from the opposite short side (180 degrees)."""
        return Quad(self.corners[[2, 3, 0, 1]])

    def enlarged(self, factor: float) -> Quad:
        """The outline ``factor`` times as large about its centre."""
        return Quad(((self.corners - self.center) * factor + self.center).astype(np.float32))

    def nearby(self, moves: tuple[float, ...], scales: tuple[float, ...]) -> list[Quad]:
        """The outline moved by each pair of ``moves`` (shares of its sides:
        along the first, then along the second) and scaled by each of
        ``scales`` about its centre; not itself.

        >>> square = Quad(np.float32([[0, 0], [10, 0], [10, 10], [0, 10]]))
        >>> [q.corners[0].tolist() for q in square.nearby((0.0, 0.5), (1.0,))]
        [[0.0, 5.0], [5.0, 0.0], [5.0, 5.0]]
        """
        corners = self.corners.astype(np.float32)
        along, across = corners[1] - corners[0], corners[3] - corners[0]
        return [Quad(((corners - self.center) * scale + self.center + a * along + b * across).astype(np.float32))
                for scale in scales for a in moves for b in moves if (scale, a, b) != (1.0, 0.0, 0.0)]


def median_short_side(outlines: np.ndarray) -> float:
    """The median length of the first side of ``outlines`` (n, 4, 2, in face
    order, whose first side is the top edge: a short side).

    >>> median_short_side(np.array([[[0, 0], [3, 4], [3, 14], [0, 10]]] * 2))
    5.0
    """
    return float(np.median(np.linalg.norm(outlines[:, 1] - outlines[:, 0], axis=1)))


@dataclass(frozen=True)
class Match:
    """The best reference for a face, and the runner-up (another card).

    ``others`` lets a caller that knows some cards cannot be the one seen
    (the rules of a game) judge the reading among the rest: every card of
    the deck besides ``card`` and ``candidates`` that no closer look ruled
    out, with its similarity, most similar first. The margin of a reading
    without candidates is taken over the first of them.
    """

    card: Card
    confidence: float
    upside_down: bool
    runner_up: Card | None
    runner_up_confidence: float
    # the cards a closer look could not rule out, likeliest first (the runner-up among them)
    candidates: tuple[Card, ...] = ()
    others: tuple[tuple[Card, float], ...] = ()
    # how much of the reading its card's face explains where the faces of its family differ
    # (the fine comparison, 0..1; 0 when none was made)
    fit: float = 0.0
    # weighed against every other card of the deck, none of whose faces is close to its card's
    # (so no fine comparison was needed: the margin rules every other card out)
    alone: bool = False

    @property
    def margin(self) -> float:
        return self.confidence - self.runner_up_confidence

    @property
    def rivals(self) -> tuple[tuple[Card, float], ...]:
        """Every card the reading might be besides its own, likeliest first,
        with its similarity: the candidates (at the reading's own similarity,
        as nothing told them apart), then ``others``; a match made without
        ``others`` knows only its runner-up.

        >>> Match(parse_card("S"), 0.9, False, parse_card("A"), 0.5).rivals
        ((IngredientCard.from_notation('A'), 0.5),)
        """
        rest = self.others
        if not rest and self.runner_up is not None and self.runner_up not in self.candidates:
            rest = ((self.runner_up, self.runner_up_confidence),)
        return tuple((c, self.confidence) for c in self.candidates) + rest


@dataclass(frozen=True, eq=False)
class Detection:
    """A card found in an image: its :class:`Match` and its corners in the
    order top-left, top-right, bottom-right, bottom-left of the face as drawn.
    The photo recogniser returns these, and the flip tracker watches them
    frame by frame."""

    match: Match
    corners: np.ndarray  # (4, 2) float32

    @property
    def card(self) -> Card:
        return self.match.card

    @property
    def confidence(self) -> float:
        return self.match.confidence

    @property
    def width(self) -> float:
        """The face's short side in pixels (mean of top and bottom edges)."""
        c = self.corners
        return float((np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2)

    @property
    def height(self) -> float:
        """The face's long side in pixels (mean of left and right edges)."""
        c = self.corners
        return float((np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2)

    @property
    def center(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    def shifted(self, dx: float, dy: float) -> Detection:
        """The same detection in the coordinates of a larger image."""
        return Detection(self.match, (self.corners + np.array([dx, dy], np.float32)).astype(np.float32))

    def encloses(self, other: Detection, growth: float, margin: float) -> bool:
        """Whether this outline is ``other``'s grown by fingers: at least
        ``growth`` larger (square root of the area ratio, less one) with all of
        ``other`` inside it, grown by ``margin`` of its width."""
        if np.sqrt(self.width * self.height / max(1.0, other.width * other.height)) < 1 + growth:
            return False
        center = self.center
        return bool(inside_convex(center + (self.corners - center) * (1 + margin), other.corners).all())

    def pose_distance(self, other: Detection) -> float:
        """Mean corner displacement per card width; a card read upside down
        in one detection is still compared with itself."""
        a, b = self.corners, other.corners
        moved = min(float(np.linalg.norm(a - np.roll(b, k, axis=0), axis=1).mean()) for k in (0, 2))
        return moved / max(1.0, self.width)


@dataclass
class SetAside:
    """What the searches of one photo aligned but did not keep as a card:
    the readings that name only their card's family (the fine comparison
    decides on them later), and every reading at all, which a far smaller
    reading lying inside it may be a detail of."""

    of_family: list[Detection] = field(default_factory=list)
    read: list[Detection] = field(default_factory=list)
