"""Every threshold of the flip tracker, in one place.

Sizes are fractions of the card as seen (its short side) or of the frame, and
durations are seconds of video, never frames or pixels: the same tracker
serves a 15 fps synthetic video and a 30 fps webcam of any resolution.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TrackerConfig:
    # motion is measured on a grey copy of the frame this many pixels wide (a card is then ~25 px across)
    work_width: int = 192
    # a frame is compared with the one at least this long before it (one frame at 15 fps)
    still_lag: float = 0.06
    # grey levels (0..255, after matching overall brightness) a pixel must change by to count as moving
    motion_level: float = 14.0
    # ... and levels a pixel's tint (blue or red less grey) must change by for the ring around a card to count
    # as changed (see ``Motion.tint``): a hand as grey as the table differs from it in tint
    tint_level: float = 8.0
    # a frame whose edges are weaker than this share of the recent frames' is blurred: ignored
    blur_ratio: float = 0.7
    # the top card's region is still when at most this fraction of it moved
    still_fraction: float = 0.03
    # before any card is known, the whole frame is still when at most this fraction of it moved
    empty_still_fraction: float = 0.002
    # the pile was covered when this fraction of the top card differs from how it was last seen ...
    covered_fraction: float = 0.3
    # ... and the middle of its face is not found again, at this correlation, within this step (per card
    # width) of where it was found in the frame before, nor within this reach of where it lay: a nudged
    # pile slides its top face a little from frame to frame and is not covered, while a card laid on it
    # covers it at once (the middle of a card carried in never lands so close to where it will lie)
    visible_match: float = 0.75
    visible_step: float = 0.05
    visible_reach: float = 0.25
    # ... and it is hidden when found more than ``visible_step`` and this many small pixels (the search is in
    # whole pixels) from where it was found in the frame before: a card carried in fast jumps it
    visible_jump: float = 0.5
    # ... or, its middle found, this fraction of the whole card differs from that view (moved as much)
    overlaid_fraction: float = 0.35
    # ... or the face was found at least this far (per card width) from its place, within ``arrival_reach``,
    # and then back at its place: a card of its kind carried in and laid on it (a nudged pile's face moves
    # away and stays there)
    aside_reach: float = 0.07
    arrival_reach: float = 0.5
    # ... or found at least this far from its place (farther than a nudge moves a pile: a card of its kind
    # in flight) and then at rest within ``visible_reach`` of it: that card landed a few millimetres off
    flight_reach: float = 0.25
    # ... or part of its middle changed while the rest showed where it lay, after nothing had moved near it
    # for this long, and then its kind is read with the outline where it lay and a face that registers
    # on it cleanly (``face_sure_match``) and moved (``face_shift``), never seen slid a whole small pixel:
    # a card of its kind carried in fast and laid almost exactly on it hides nothing that looks
    # different, yet the fingers laying it touch it; a nudged pile is seen sliding
    touch_rest: float = 0.1
    # (a face in flight is blurred, a little turned and held by fingers: it is found beside its place at
    # this lower correlation)
    aside_match: float = 0.6
    # (a middle whose grey levels spread less than this is too plain to find again: its change decides)
    plain_level: float = 4.0
    # recognition looks this far (per card size) around the top card
    search_margin: float = 1.0
    # ... until this many searches there in a row found nothing: then it looks at the whole frame, and
    # the surest card anywhere may be the top
    lost_after: int = 3
    # a card of the kind on top is another card when its corners moved more than this (mean, per card width)
    pose_tolerance: float = 0.025
    # ... and at least this share of the frame's width (outlines are not finer than a pixel or two)
    pose_floor: float = 0.003
    # ... or, after a hand covered the pile, its face (registered on the picture itself, far finer than
    # outlines) moved more than this (mean corner shift, per card width): a card of the same kind laid
    # almost exactly on the last one; a hand passing over leaves the face where it was
    face_shift: float = 0.004
    # ... or this, when that face was taken with no view of the card's surroundings to tell that no fingers
    # touched it (a fingertip on the face shifts the registration by up to a pixel)
    unclear_face_shift: float = 0.012
    # ... or this, when it was taken clear and registers face on face (``twin_face_match``): no fingers on
    # either view, and the registration is precise to about 0.0005 of the width (a twin laid 0.2 mm off a
    # card 57 mm wide moves 0.0035)
    twin_face_shift: float = 0.002
    # a face seen slid a whole small pixel or more that then lies under this share of that from its place
    # was a twin in flight, not the pile pushed (see ``Sameness._slid_short``)
    slid_short: float = 0.5
    # the face is registered on a copy this many pixels across the card (precise to ~0.05 px)
    face_width: int = 96
    # ... until a step of the registration moves it less than this (pixels and radians): a face moves by
    # a hundredth of its width or stays within a few ten-thousandths of it, and finer steps cost most of
    # the iterations (half the registration time at 1e-4) without telling those apart any better
    face_register_step: float = 3e-3
    # ... and only trusted when the registered faces correlate at least this well
    face_match: float = 0.8
    # a face counts as turned half round only when it registers that way at least this much better than the
    # right way up: fingers on a face much like itself turned register about as well either way (0.945 and
    # 0.944), a twin laid the other way up 0.06 to 0.23 better
    turn_margin: float = 0.05
    # a twin laid on a card still being read (``Dispute.twin_laid_on``) registers on its face this well: a
    # twin lands face on face (0.999), while a card settling as the fingers leave it registers at 0.95 to
    # 0.97, seemingly moved by half a hundredth of its width
    twin_face_match: float = 0.99
    # ... and, below this, also registered turned half round: a card laid the other way up on its twin, whose
    # picture is much like itself turned, still registers loosely the first way
    face_sure_match: float = 0.95
    # a face of the top card's kind that moved (registered at ``face_sure_match``) is the top card pushed,
    # not a twin laid a little off, when the ground the card now leaves bare just outside its old outline
    # (within ``edge_band`` of it, farther than ``edge_gap`` from the card now; at least ``edge_least_pixels``
    # of the face patch) shows the earlier view moved with the face, not as it was: by its edges (gradients
    # on the face patch), at least ``edge_pushed`` of it ``edge_contrast`` nearer the one than the other,
    # within ``edge_explained`` of it, and ``edge_ratio`` times as much as the other way round. Under a twin
    # the old top card stays where it lay; pushed, the cards below and the card's own cut went along. Only
    # for a face moved at least ``edge_least_move``: the edge of a card moved less lies in that ground
    edge_least_move: float = 0.03
    edge_band: float = 0.06
    edge_gap: float = 0.04
    edge_least_pixels: int = 20
    edge_pushed: float = 0.1
    edge_ratio: float = 3.0
    edge_contrast: float = 20.0
    edge_explained: float = 40.0
    # ... or, when that ground says less (a table's grain stays put either way), when its cut (the strongest
    # edge within ``cut_band`` outside the outline: the card's edge, where the outline lies on a frame printed
    # inside it; farther than ``cut_gap`` from where the card's edge lies now, at least ``cut_least`` samples)
    # kept less than ``cut_kept`` of its strength, and the ground says at least ``cut_ratio`` as much for the
    # push as for staying; only on a face that registered at ``cut_match`` or better (nothing on it)
    cut_match: float = 0.97
    cut_band: float = 0.08
    cut_gap: float = 0.015
    cut_least: int = 20
    cut_kept: float = 0.3
    # the cut is the outermost edge in the band with at least this share of the strongest one's strength
    cut_outer: float = 0.5
    cut_ratio: float = 0.5
    # the other way round, a twin laid a few millimetres off: the ground says it stayed as clearly as a push
    # must be said, and the cut kept at least this much of its strength (see ``nudge.stayed_put``): a push
    # leaves under 0.3, a view a little softer than the one the face was taken from about 0.6 of a twin's;
    # where the ground says it stayed plainly (``edge_plain``), ``cut_kept`` will do (softer still and in the
    # twin's shadow, 0.43)
    twin_cut_kept: float = 0.5
    # ... and where the ground says little either way (or none lies bare beside the card), a cut kept at least
    # this much on a face registered at ``cut_match`` (under a twin about 1, pushed about 0; a twin laid 2 mm
    # and 3 degrees off, its shadow on the cut, 0.77)
    twin_cut_whole: float = 0.7
    # a face registered only loosely (fingers on it) was pushed when at least this much of the ground votes
    # for the push (and ``edge_ratio`` times staying) and its cut is gone (see ``nudge.pushed_plainly``)
    edge_plain: float = 0.3
    # ... or, for a move the outlines confirm (beyond ``pose_tolerance``), this well: a card turned a few
    # degrees shows the table through a corner of the registered middle
    face_loose_match: float = 0.6
    # a pushed face registered again without what differs between the two views (fingers): differing by
    # more than ``face_outlier`` (in units of the face's spread), and at least ``face_unhindered`` of it left
    face_outlier: float = 0.5
    face_unhindered: float = 0.6
    # sightings of one card agree when their corners are within this (outlines with a hand near are rough)
    agree_tolerance: float = 0.06
    # a sighting whose size (square root of its area) differs more than this (fraction) from the recent top
    # cards' is another outline
    size_tolerance: float = 0.25
    # ... or whose long side per short side differs more than this (fraction): part of a card (a slanted
    # camera alone changes it by up to a tenth or so, as the card is turned)
    aspect_tolerance: float = 0.15
    # an outline of the card on top this much larger (fraction) than a later one of its kind, holding it
    # within ``merged_margin`` (fraction), had fingers merged into it: the later one is the same card
    merged_growth: float = 0.08
    merged_margin: float = 0.03
    # after this many searches in a row finding only cards of an unusual size, the size is learnt anew
    relearn_size: int = 4
    # a card is seen undisturbed when nothing moved this far around it (per card size) for this long
    quiet_margin: float = 0.3
    quiet_time: float = 0.15
    # ... and the ring from ``bare_gap`` to ``bare_margin`` (per card size) outside it differs in at most
    # ``bare_fraction`` from when the pile last rested (a hand holding the card still is not motion, but
    # shows there), or it has been quiet this long since the card was read
    bare_gap: float = 0.15
    bare_margin: float = 0.6
    bare_fraction: float = 0.1
    # ... and in at most ``bare_side_fraction`` of any of ``ring_sectors`` equal sides of the ring: a hand
    # reaching over one side of the card fills that side, a tenth of the whole ring
    bare_side_fraction: float = 0.3
    ring_sectors: int = 8
    bare_wait: float = 1.0
    # a frame's card is a sighting only from this similarity on, whatever its lead over the
    # runner-up: a photo may report a weaker but clear match (a pale card under glare), but the
    # pile is filmed many times over, and a weak one-frame match is mostly a hand's blur
    min_sighting_confidence: float = 0.70
    # the recogniser's VisionConfig.outline_growth for tracking: 1.0, every card aligned. Sightings
    # are compared by pose and a very sure one is reported at once, so outlines must fit closely;
    # a photo's recogniser may take a card as sure from a look at its outline grown
    outline_growth: float = 1.0
    # ... and its detection scale and smoothing (VisionConfig.detect_width, edge_blur). A flip
    # video films one pile up close, with a hand moving over it: the finer edges that show a
    # small layout card's narrow border on a cloth are not needed, while a smeared edge traced
    # finely wanders (at 640 pixels, one card of the 2061 in the benchmark's videos was counted
    # twice), and the coarser scale costs less per frame
    detect_width: int = 512
    edge_blur: int = 5
    # ... and no second search of a frame, coarser where no card is found or finer where the
    # cards are small (its fallback_width and finer_width): a video looks at the pile again a
    # frame later, a frame with no card in it is mostly a hand over the pile, and the pile
    # is filmed up close
    fallback_width: int = 0
    finer_width: int = 0
    # ... but where a card should lie and that search found none (around the pile, or before the first card
    # in a frame of a table that no longer looks empty, ``table_changed_fraction``) it is searched again at
    # this scale and smoothing, the photo recogniser's: a pale card on a pale cloth (the hard style's green
    # order on a light check, in the whole frame) or a small one (its yellow order 80 pixels wide, on wood)
    # does not outline at 512 pixels smoothed by 5
    finer_detect_width: int = 640
    finer_edge_blur: int = 3
    # sightings that must agree before a card is reported ...
    agree: int = 2
    # ... and, while a hand may still touch the card, be this confident ...
    hurried_confidence: float = 0.85
    # ... unless one sighting is this sure (confidence and lead over the runner-up)
    instant_confidence: float = 0.93
    instant_margin: float = 0.10
    # readings that agree but leave other cards possible (unsure) yield to an earlier reading of the same
    # dispute that named one of those cards with none other possible, this far ahead of every other card
    named_margin: float = 0.3
    # while the pile looks changed but no card was found on it, look again this often; before the first
    # card, while more than ``table_changed_fraction`` of the picture differs from the empty table (a card
    # laid that one noisy frame did not read, the hand gone and nothing moving to prompt another look)
    retry_interval: float = 0.25
    table_changed_fraction: float = 0.01
    # a card still disputed after this long is reported with its runner-up, for the player to confirm
    max_wait: float = 1.2
    # a card is laid on the pile only if its middle lies within this (per card width) of the top card's:
    # a card held beside the pile (lifted off it, about to be put back) is not on it
    landing_reach: float = 0.45
    # cards below the top one remembered, to tell the top card lifted off the pile from a card laid ...
    stack_depth: int = 8
    # ... which shows the card below it where it lay, its face registered within this (per card width; a
    # view of an unmoved card registers within a few ten-thousandths)
    uncovered_shift: float = 0.002
    # sightings kept while a card is disputed
    max_sightings: int = 12
    # frame rate assumed only when the caller gives neither frame times nor a rate
    default_fps: float = 15.0


DEFAULT_TRACKER_CONFIG = TrackerConfig()
