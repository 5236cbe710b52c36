"""Every threshold and size of the recogniser, in one place."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .types import Match


@dataclass(frozen=True)
class AlignStep:
    """One ECC step of aligning an outline with the face it glanced as."""

    level: int                 # 0: the reduced image detection runs on; 1: full size
    template: tuple[int, int]  # the reference face's size here (width, height)
    iterations: int
    context: float             # margin of image around the outline that ECC sees, per side length
    go_on: float = 0.0         # the glance the outline must reach after this step to take the next
    skip_next: float = math.inf  # from this glance on, the next step is passed over for the one after


@dataclass(frozen=True)
class VisionConfig:
    # detection runs on a copy scaled to this width (the quad is then refined at full size)
    detect_width: int = 640
    # the reduced image is smoothed with a Gaussian this many pixels across before edges are
    # found (1: not at all)
    edge_blur: int = 3
    # Canny's hysteresis thresholds (gradient strength on the blurred, reduced image)
    edge_low: float = 20.0
    edge_high: float = 60.0
    # a card covers between these fractions of the image
    min_card_area: float = 0.004
    max_card_area: float = 0.8
    # long side / short side of a card face (57 x 89 mm), and how far a tilted view may stray
    card_aspect: float = 89 / 57
    aspect_tolerance: float = 0.5
    # corner angles of a card seen at a slant stay within about 50..130 degrees
    max_corner_cosine: float = 0.65
    # a corner's arms must be this long (fraction of the reduced image's size) to propose a card
    corner_min_arm: float = 0.035
    # corner proposals closer than this (fraction of card size) are one
    corner_tolerance: float = 0.12
    max_corner_proposals: int = 128
    # edge chains centred in a card already found are its own, and give no corners, unless
    # their box is more than this many times the card's: a card's edge merged with a
    # cloth's lines may be centred in any card, and holds the corners of cards not found yet
    own_chain_slack: float = 1.2
    # a corner's proposal sized like the cards already found ranks as its arms times this
    known_size_weight: float = 0.5
    # many cards print a frame inside their border; where a card's own outline merges with
    # a cloth's lines, its frame's outline this many times as large proposes the card
    inner_frame_scale: float = 1.35
    # the fitted quad against its hull: a clipped corner makes it larger, a poor fit smaller
    min_quad_fill: float = 0.75
    max_quad_growth: float = 1.6
    # size of the rectified face used for identification (width, height)
    face_size: tuple[int, int] = (40, 62)
    # a glance compares faces this small (width, height; cut out at oversample times the
    # size and averaged down): a rough outline then still finds its card, and the finest
    # detail, which tells close cards apart, is left to the full-size comparison. Glances
    # sample the reduced image halved once more: each sample then averages two by two
    # pixels, as four times oversampling of the reduced image would, at a quarter of the cost
    glance_size: tuple[int, int] = (10, 16)
    glance_oversample: int = 2
    # fraction cut from each border of the rectified face before comparing (quad error, rounded corners)
    face_margin: float = 0.04
    # an outline traced from edges tends to lie inside the card's edge (on the reduced image a
    # traced edge is a pixel or two wide, and a contour may follow its inner side; a printed
    # border's inner edge is often stronger than the card's own against the table): a face not
    # sure at its outline is looked at once more with the outline this much larger before it
    # is aligned. Of the cards' outlines not sure as they are, the median one is 0.91 of the
    # card's size across, on both decks measured. The outline of a card taken as sure this way
    # fits less closely than an aligned one (a similarity of 0.85-0.9 where alignment reaches
    # 0.95); 1.0: every card not sure at its outline is aligned
    outline_growth: float = 1.075
    # a traced outline may follow a printed frame well inside the card (a pale card's edge
    # against the cards below it is weaker than its frame), and from there ECC's coarse steps
    # lose a face of thin lines and pale print even when started on the card's true outline,
    # while its full-size step alone settles an outline within a few per cent: an outline
    # that alignment leaves unsure is looked at this much larger, and the larger outline
    # that reads best is aligned at full size alone
    frame_growths: tuple[float, ...] = (1.075, 1.15)
    # rough outlines whose first match reaches this similarity are aligned with ECC (on four
    # development sets, of the outlines glancing 0.30-0.35 that were aligned, 1 in 380 became
    # a confident card)
    refine_threshold: float = 0.35
    # coarse to fine. A quick look at a small face first: it costs a third of the
    # coarse step, and most of the table's patterns that glance like a card stop there;
    # an outline it leaves looking nearly exactly like the card goes straight to full size,
    # or stands as it is when the full-size face is already sure of its card
    refine_steps: tuple[AlignStep, ...] = (
        AlignStep(0, (20, 31), 10, 0.15, go_on=0.65, skip_next=0.93),
        AlignStep(0, (40, 62), 20, 0.15, go_on=0.5),
        AlignStep(1, (64, 100), 4, 0.06),
    )
    # ECC samples the image at the template's pixels; a region showing the card at
    # more than this many times the template's size is first averaged down to it
    refine_fit: float = 1.5
    refine_max_shift: float = 0.35   # larger corner moves (per card size) are rejected
    # an outline alignment loses is moved by these shares of the card's sides (along and
    # across, every pair) and scaled by these factors about its middle; where its card glances
    # this much better than at the outline itself, it is aligned once more from there
    nearby_moves: tuple[float, ...] = (-0.08, 0.0, 0.08)
    nearby_finer: tuple[float, ...] = (-0.04, 0.0, 0.04)
    nearby_scales: tuple[float, ...] = (0.92, 1.0, 1.08)
    nearby_gain: float = 0.05
    # ... at most this many times a search: a busy table loses many outlines, most of them its
    # own patterns, and the cards among them have glanced best and are aligned first
    max_nearby: int = 2
    max_refined: int = 8             # cards reported per image at most
    max_alignments: int = 6          # outlines per image aligned in vain at most
    # outlines glancing below this are weak; only a few of them are aligned per image
    weak_glance: float = 0.5
    max_weak_alignments: int = 6
    # ... and only if their rough outline is already edged this well (as min_outline_support
    # below): a table's pattern that glances weakly mostly has a side along no edge, while
    # a card that glances weakly (blur, glare) still has edged sides
    weak_min_support: float = 0.6
    # ... or if the glance names one card this far ahead of its runner-up: a table's pattern
    # glances nearly alike as several cards, while a card whose outline is off its edges (a
    # thumb across one, a far corner in perspective) still glances clearly as itself
    weak_clear_margin: float = 0.2
    # a card smeared by motion blur (10 pixels and more at full size) has edges too gradual to
    # trace at the detection width, which come out sharp at half of it: an image in which no
    # card is found is searched once more at this width (0: never), corners and printed
    # frames included (a smeared card's outline is often broken where a thumb holds it, or
    # merged with the smeared edges of the cards beneath), with this many alignments in vain
    # of each kind (an empty table pays this search); so is an image of small cards (below),
    # around the cards found, after the finer search
    fallback_width: int = 320
    fallback_alignments: int = 4
    # an image whose cards are small (their median short side below this fraction of the
    # image's width: a layout of cards laid out, not a pile filmed up close) is searched
    # once more at this finer width (0: never), with this many alignments in vain of each
    # kind: a small card's narrow border, blurred into a patterned cloth at the detection
    # width, is traced there
    finer_below: float = 0.133
    finer_width: int = 704
    finer_alignments: int = 2
    # the cards either second search adds must reach this similarity, however far ahead of
    # their runner-up: among its many more outlines, a red check of a cloth at 320 pixels
    # looked like the salami face at 0.72, while the cards the second searches found on the
    # development sets came to 0.77 and more
    second_confidence: float = 0.75
    # an outline smaller than this fraction of every card kept so far is not aligned: cards
    # are one size at about one distance (a camera at a slant shows the far ones at 0.4 of
    # the near ones), while a checked cloth is full of card-like squares a fraction as large
    min_size_of_kept: float = 0.3
    # ... and a card read inside an outline that large, which was aligned and read as a card from
    # this similarity (though not kept), is a detail of that card: a pale order under glare whose
    # pineapple icon was outlined and read as the pineapple card, sure at 0.78
    detail_host_confidence: float = 0.45
    # a card's sides are edges: the fraction of side points that must have a strong
    # gradient (on the reduced image) at right angles to the side within reach pixels
    min_outline_support: float = 0.6
    support_samples: int = 24     # per side
    support_reach: int = 2
    support_gradient: float = 8.0
    support_alignment: float = 0.85
    # an outline the coarse steps lose, though its face at full size already names the card
    # it glanced as with this similarity and this lead over the runner-up, is aligned by the
    # full-size step alone: a pale card with little printed on it gives a small face too
    # little to hold on to, and its own printed border is often taken for its outline; a
    # thumb over a large card fills much of a small face and throws the coarse steps off,
    # while at full size the card still outweighs it
    refit_confidence: float = 0.35
    refit_margin: float = 0.1
    # faces whose descriptors correlate this much (directly or through others) form a family,
    # compared again at full resolution where its members differ: the orders of one printing
    # that differ only in a thin frame or one topping. The family's faces are registered in
    # one frame this size (width, height) with this much room around the anchor face
    fine_close: float = 0.5
    fine_size: tuple[int, int] = (128, 200)
    fine_pad: float = 0.06
    fine_oversample: int = 2
    # a taught face is moved onto its family's consensus only when that closes this share of
    # the gap between their correlation and 1 (most faces are cut well, and are best left as
    # they are; a face unlike the others, a special order among the orders, correlates weakly
    # with their consensus, and a chance fit raises that a little wherever it is slid)
    fine_register_gain: float = 0.1
    # a reading is first aligned with its card's face at fine size
    fine_align: AlignStep = AlignStep(1, (96, 150), 8, 0.06)
    # two faces differ at a pixel where their colours (0..255, fitted to one another) are this
    # far apart; two faces whose differences add up to less than this energy cannot be told
    # apart by them (half the sum of squared differences over those pixels)
    # colours are seen against the paper within this many pixels (an odd count, at fine size;
    # more than a small topping is across), then blurred by this Gaussian: what a little blur or
    # a pixel's misalignment would change is then alike in the reading and the faces
    fine_light_reach: int = 15
    fine_blur: float = 1.0
    # the ink taken out of a face (its darkest pixels) is at most this multiple of the deck's own
    # (the median share of the paper its taught faces' ink has), and never held below this floor:
    # glare that washes out a card's dark print must not make its coloured frame the ink, while a
    # pale printing's grey ink, taught so, is taken out as it is
    fine_ink_slack: float = 1.2
    fine_ink_floor: float = 0.35
    # faces of a family whose colours at a pixel lie this close (0..255, seen against the paper)
    # are taken to show the same print there
    fine_agree: float = 45.0
    fine_floor: float = 20.0
    fine_share: float = 0.4
    fine_min_energy: float = 4000.0
    # the faces' rim (this share of their width in from the edge and out) tells two members
    # apart only where they differ along this share of each of its four sides (a frame in
    # another colour); a taught face cut a little out over the table differs on one side
    fine_rim: float = 0.06
    fine_rim_round: float = 0.3
    # the faces' outermost pixels (this many, in the frame) tell no two members apart: at a
    # card's cut a reading mixes the card with the table it lies on (blurred, a small card's thin
    # frame is half table there), and a taught face mixes it with the table it was taught on
    fine_cut_reach: int = 3
    # a taught face looks wrongly cut when it had to be moved this far (a share of the face's
    # width) onto its family's common cut, or when it is not in the family that holds this
    # share of the faces of its kind
    fine_misfit_shift: float = 0.025
    fine_misfit_share: float = 0.75
    # the reading must lie this far towards the winner on every comparison (1: exactly the
    # winner's face, -1: exactly the other) for the other face to be ruled out
    fine_sure: float = 0.55
    # ... and show at least this share of the face it leans to (a reading fitted as an offset
    # plus shares of the two faces; a small blurred card shows either only faintly)
    fine_min_shown: float = 0.3
    # a reading steps from member to nearer member at most this many times (each step weighs the
    # reading against every member)
    fine_max_weighs: int = 8
    # a close face the pixels did not rule out is ruled out by the mean colours of the regions
    # where the two differ when the pixels lean at least this far towards the winner too, and the
    # regions by fine_sure, or less where the pixels lean further (the two leads adding up to
    # fine_region_together, the regions' at least fine_region_least): the regions keep a thin
    # frame's colour that the pixels, read a little off, blur into the paper, but they are few,
    # and fit a chance reading more easily
    fine_region_floor: float = 0.2
    fine_region_together: float = 0.85
    fine_region_least: float = 0.3
    # what one image may cost beyond its first search, in units of about a microsecond of a
    # 2-core laptop-class machine (see work.py): an outline is aligned, and a second search
    # made, only when what is left pays for its worst case (an outline's: every alignment step,
    # the looks, its card's first fine comparison), so no image costs more than its first search
    # (about 9 000 at 1280 x 720) and this: about 150 ms here
    work_budget: float = 140_000.0
    # a match is reported only above this similarity (0..1), or above the second one when
    # it is this far ahead of its runner-up: a pale card with little printed on it under
    # glare correlates weakly with its reference, but with no other card nearly as well
    min_confidence: float = 0.70
    min_clear_confidence: float = 0.55
    clear_margin: float = 0.2
    # a card of a family that falls short of that (its faces look alike at low resolution, so
    # its margin is no help) is reported when it is as far ahead of every card outside
    # the family, and its card's face explains this share of it where the family's faces differ,
    # and at least 1 less its similarity: a weaker reading (a thumb over a pale card) must show
    # its card's face more plainly, where a pattern of the table that glanced like a card shows
    # none of it
    family_min_fit: float = 0.45
    # ... and its similarity reaches this, in every search: the second searches take no weak
    # match of their own (second_confidence), but a family's reading is weak by nature there too;
    # or this where no card was found at all (a lone card under a thumb: each such reading costs
    # a fine comparison, worth it where nothing else would be read)
    family_min_confidence: float = 0.55
    family_lone_confidence: float = 0.4
    family_lone_readings: int = 2
    # below this similarity, or this close to the runner-up, a match is "unsure"
    sure_confidence: float = 0.75
    sure_margin: float = 0.04
    # ... or, below that, when the fine comparison ruled out every close face (no candidates),
    # its card's face explains this share of the reading where they differ, and the reading is
    # this confident and this far ahead of every other card
    apart_fit: float = 0.6
    apart_confidence: float = 0.5
    apart_margin: float = 0.4
    # ... or, for a card no other face is close to (``Match.alone``), when the reading is this
    # confident and this far ahead of every other card: a pale card's plain face reads weakly
    # under a cast, yet far from every other
    alone_confidence: float = 0.6
    alone_margin: float = 0.3

    def is_confident(self, match: Match) -> bool:
        """Similar enough to its card to be reported."""
        return match.confidence >= self.min_confidence or \
            (match.confidence >= self.min_clear_confidence and match.margin >= self.clear_margin)

    def names_its_card(self, match: Match) -> bool:
        """Clear enough about its card for an outline the coarse steps lose to
        be aligned at full size."""
        return match.confidence >= self.refit_confidence and match.margin >= self.refit_margin

    def is_sure(self, match: Match) -> bool:
        """Confident enough, and clearly ahead of the runner-up; or told
        apart from every close face at full resolution, and far ahead of
        every other card; or, for a card without close faces, far enough
        ahead of every other card."""
        if match.confidence >= self.sure_confidence and match.margin >= self.sure_margin:
            return True
        if match.alone:
            return match.confidence >= self.alone_confidence and match.margin >= self.alone_margin
        return match.fit >= self.apart_fit and not match.candidates and \
            match.confidence >= self.apart_confidence and match.margin >= self.apart_margin


DEFAULT_CONFIG = VisionConfig()
