"""How much one image may cost the recogniser, counted rather than timed.

Work is counted in *units* of about a microsecond of this machine's time:
each search for outlines at a width, each ECC step, each look at a face,
each fine comparison of a reading with a family. An operation starts only
when what is left of the budget pays for its worst case (a second search;
the alignment of one outline with every step it may take, and the first
fine comparison of the card it may become, which is then set aside until
the searching is done), and is then charged what it did. A reading is
compared with its family's members again (a nearer member found) only while
the budget pays. So no image costs more than its first search and the
budget, however many outlines its table shows: the first search, then the
outlines that look most like a card, then (if anything is left) the second
searches.

>>> work = Work(100)
>>> work.take(60), work.take(60), work.take(40), work.spent
(True, False, True, 100.0)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .config import AlignStep, VisionConfig

# the costs below are in microseconds of this 2-core machine, measured on 1280 x 720 photos with
# the hard style's deck (its family of 40 orders is the dearest to compare)
SEARCH_PER_PIXEL = 0.04      # edges, contours and corners of the reduced image, per pixel
ECC_SETUP = (1000.0, 1700.0)  # an ECC step's region made gray and resized: on the reduced image, at full size
ECC_PER_PIXEL_ITERATION = 0.0165
LOOK = 200.0                 # a face cut out and described (a glance costs less)
GLANCE = 25.0                # one outline among many glanced at together
LOOKS_PER_ALIGNMENT = 4      # the looks an alignment may take besides its steps
WEIGH_PER_MEMBER_PIXEL = 0.0016
REGIONS = 300.0              # a reading weighed against one member by the regions where the two differ
SEEN = 1500.0                # a reading cut out of the image into the family's frame, against its paper


@dataclass
class Work:
    """The units one image may still spend, and those it has spent."""

    budget: float
    spent: float = field(default=0.0)
    reserved: float = field(default=0.0)  # set aside for work promised (cards found, to be compared finely)

    def fits(self, units: float) -> bool:
        """Whether an operation that may cost ``units`` may start."""
        return self.spent + self.reserved + units <= self.budget

    def reserve(self, units: float) -> None:
        """Set ``units`` aside for work that must follow."""
        self.reserved += units

    def release(self, units: float) -> None:
        """Free what :meth:`reserve` set aside, when that work begins."""
        self.reserved = max(0.0, self.reserved - units)

    def take(self, units: float) -> bool:
        """Spend ``units`` if they are left: whether the operation may start."""
        if not self.fits(units):
            return False
        self.spent += units
        return True

    def charge(self, units: float) -> None:
        """Count ``units`` spent: work done (a step, a comparison) of an
        operation that was let start, or the first search, which every image needs."""
        self.spent += units


def unlimited() -> Work:
    return Work(float("inf"))


def weigh_cost(members: int, pixels: int) -> float:
    """One comparison of a reading with every member of a family."""
    return members * pixels * WEIGH_PER_MEMBER_PIXEL


def search_cost(image_shape: tuple[int, ...], width: int) -> float:
    """A search for outlines at ``width`` (edges, contours, corners): the
    pixels of the image reduced to that width."""
    height, full_width = image_shape[:2]
    scale = min(1.0, width / full_width)
    return full_width * scale * height * scale * SEARCH_PER_PIXEL


def step_cost(step: AlignStep) -> float:
    """One ECC alignment step at its template's size."""
    width, height = step.template
    return ECC_SETUP[step.level] + width * height * step.iterations * ECC_PER_PIXEL_ITERATION


def alignment_cost(config: VisionConfig) -> float:
    """The most one outline's alignment may cost: each step, the finest
    step again (an outline the coarse steps lose), and the looks."""
    return sum(step_cost(s) for s in config.refine_steps) + step_cost(config.refine_steps[-1]) + \
        LOOKS_PER_ALIGNMENT * LOOK


def judge_cost(members: int, pixels: int, config: VisionConfig) -> float:
    """The fine comparison of one card in a family of ``members`` with
    ``pixels`` informative pixels, up to its first weighing: its alignment,
    the reading cut out, one comparison with every member."""
    return step_cost(config.fine_align) + SEEN + weigh_cost(members, pixels)


class Allowance:
    """How many outlines one search may still align in vain: an outline that
    becomes a card costs nothing, so a layout of many cards has as much left
    for the patterns among them as a single card. Outlines that glance
    weakly are mostly patterns of the table (a weak glance rarely becomes a
    card), so they get a small allowance of their own; so do the searches
    near an outline that alignment lost."""

    def __init__(self, config: VisionConfig) -> None:
        self._weak_below = config.weak_glance
        self._left = {False: config.max_alignments, True: config.max_weak_alignments}  # keyed by weakness
        self._nearby_left = config.max_nearby

    def take(self, glance: float) -> bool:
        """Spend one alignment on an outline that glanced ``glance``, if any is left."""
        weak = glance < self._weak_below
        self._left[weak] -= 1
        return self._left[weak] >= 0

    def take_nearby(self) -> bool:
        """Spend one search near an outline that alignment lost, if any is left."""
        self._nearby_left -= 1
        return self._nearby_left >= 0

    def give_back(self, glance: float) -> None:
        """Return what :meth:`take` spent on an outline that became a card."""
        self._left[glance < self._weak_below] += 1
