"""The flip tracker on moments cut from the benchmark's hard videos (960x540,
the stand-in deck): a few seconds around cards once dropped, the cards laid
before lying on the pile from the first frame (:meth:`FlipPlan.window`)."""
from __future__ import annotations

from functools import lru_cache
from itertools import islice

import numpy as np

from tools.synth.datasets import Art, video_plan
from tools.synth.flip_plan import Flip, FlipPlan
from tools.synth.gestures import GesturePlan
from tools.synth.video_sets import render_frames
from vision.cvcompat import decode_image

from .test_track_tracker import track
from .track_support import notations


@lru_cache(maxsize=2)
def moment(seed: int, index: int, first: int, last: int) -> tuple[FlipPlan, FlipPlan, tuple[np.ndarray, ...]]:
    """Hard video ``index`` of ``seed`` (as the benchmark makes it), its
    window of flips ``first`` to ``last - 1``, and that window's frames."""
    plan, rng = video_plan(seed, index, (18, 24), kind="hard")
    window = plan.window(first, last)
    art = Art.of()
    return plan, window, tuple(f.shot.image for f in render_frames(window, art.faces, rng, art.back, "hard"))


def gesture_moment(seed: int, index: int, first: int, last: int,
                   jpeg: bool = False) -> tuple[GesturePlan, tuple[np.ndarray, ...]]:
    """As :func:`moment`, from video ``index`` of the benchmark's gestures set
    (20 to 60 cards): its flips ``first`` to ``last - 1``, and the gestures made
    meanwhile (``jpeg``: as the camera gives them, compressed)."""
    plan, rng = video_plan(seed, index, (20, 60), kind="gestures")
    assert isinstance(plan, GesturePlan)
    flips = plan.flips.window(first, last)
    sooner = plan.flips.flips[first].entered - flips.flips[first].entered
    gestures = tuple(g.earlier(sooner) for g in plan.gestures
                     if sooner <= g.entered and g.left - sooner <= flips.frame_count)
    window = GesturePlan(flips, gestures)
    art = Art.of()
    shots = render_frames(window, art.faces, rng, art.back, "gestures")
    return window, tuple(decode_image(f.shot.jpeg) if jpeg else f.shot.image for f in shots)


def nudge_moment(seed: int, index: int, frames: int) -> tuple[GesturePlan, tuple[np.ndarray, ...]]:
    """The first ``frames`` frames of video ``index`` of the benchmark's
    nudges set (3 to 5 cards, the pile nudged in between), as its camera
    gives them (JPEG), and its plan."""
    plan, rng = video_plan(seed, index, (3, 5), kind="nudges")
    assert isinstance(plan, GesturePlan)
    art = Art.of()
    shots = render_frames(plan, art.faces, rng, art.back, "nudges")
    return plan, tuple(decode_image(f.shot.jpeg) for f in islice(shots, frames))


def turn(a: float, b: float) -> float:
    """Degrees from angle ``a`` to ``b``, in -180..180."""
    return (b - a + 180) % 360 - 180


def test_a_card_read_while_fingers_still_lie_on_it_is_not_taken_as_seen_clear():
    # the pineapple is read as the hand lets go, its fingers over one side of the card: a tenth of the
    # ring around it, a third of that side. Its face taken then would be the view the next two pineapples,
    # each laid turned half round, are registered on: with the fingers on it, neither registered
    plan, window, frames = moment(4531, 19, 8, 11)
    run = plan.flips[8:11]
    assert [f.card.notation for f in run] == ["A", "A", "A"]
    assert all(abs(abs(turn(a.pose.angle, b.pose.angle)) - 180) < 5 for a, b in zip(run, run[1:]))
    assert notations(track(frames)[0]) == "A A A"


def test_a_twin_laid_fast_and_turned_half_round_counts_though_nothing_was_seen_passing_over():
    # the third pineapple is carried in within two frames and laid turned half round: the hand hides
    # nothing of the one below that motion notices, but no hand turns a card half round in place
    plan, window, frames = moment(4731, 36, 6, 10)
    laid = plan.flips[8]
    assert laid.fast and abs(abs(turn(plan.flips[7].pose.angle, laid.pose.angle)) - 180) < 10
    assert notations(track(frames)[0]) == "P P P P"


def test_a_twin_laid_on_a_card_still_read_is_registered_on_its_clear_view():
    # two mushrooms laid fast, 0.7 mm apart: the first is still being read when the second is carried
    # over it, and the view with that hand by it must not replace its clear view
    plan, window, frames = moment(4731, 32, 9, 13)
    first, second = plan.flips[11:13]
    assert first.card == second.card and first.fast and second.fast and second.entered - first.hand_left <= 2
    assert notations(track(frames)[0]) == "y:A+3? S2 M M"


def test_a_twin_laid_where_the_top_card_was_being_read_again_is_one_card():
    # the pineapple on top is read again when the next one, 0.3 mm off, is laid on it: the reading became a
    # new card then, and the clear view of the card below is not the view that new card is registered on
    plan, window, frames = moment(4731, 14, 1, 3)
    below, twin = plan.flips[1:3]
    assert below.card == twin.card and np.hypot(twin.pose.x - below.pose.x, twin.pose.y - below.pose.y) < 0.5
    assert notations(track(frames)[0]) == "P P"


def test_a_card_read_once_and_then_covered_square_by_another_counts():
    # the first card, a double mushroom, is carried in and out within four frames and read once, sure of
    # itself, before a double olive is laid on it half a millimetre off: two cards, though the second
    # lies where the first was read
    plan, window, frames = moment(4931, 21, 0, 2)
    first, second = plan.flips[:2]
    assert first.fast and np.hypot(second.pose.x - first.pose.x, second.pose.y - first.pose.y) < 0.6
    assert notations(track(frames)[0]) == "M2 O2"


def test_a_twin_laid_a_fifth_of_a_millimetre_off_counts_by_its_face_registered_face_on_face():
    # laid slowly, 0.2 mm and no degree off the last pineapple: the hand passed over the pile, and the
    # face, registered face on face, moved by 0.0033 of its width (fingers pull a registration by 0.004)
    plan, window, frames = moment(5131, 13, 11, 13)
    below, twin = plan.flips[11:13]
    assert np.hypot(twin.pose.x - below.pose.x, twin.pose.y - below.pose.y) < 0.25 and not twin.fast
    assert notations(track(frames)[0]) == "A A"


def laid_apart(a: Flip, b: Flip) -> float:
    """Millimetres between where two flips laid their cards."""
    return float(np.hypot(b.pose.x - a.pose.x, b.pose.y - a.pose.y))


def test_a_twin_laid_fast_and_turned_half_round_on_a_face_alike_turned_counts_by_the_ground_beside():
    # the third olive is carried in within three frames, 1.7 mm off and turned half round: an olive looks
    # so alike turned that its face registers only loosely either way, fingers on it, and nothing was
    # seen passing over; the card below plainly lies where it lay, its cut still showing
    plan, window, frames = moment(5531, 12, 4, 7)
    below, twin = plan.flips[5:7]
    assert twin.fast and abs(abs(turn(below.pose.angle, twin.pose.angle)) - 180) < 5
    assert notations(track(frames)[0]) == "O O O"


def test_the_cut_of_a_card_with_a_frame_printed_by_its_edge_is_its_outer_edge():
    # the stand-in deck prints a frame just inside the card's edge; the outline lies on it. A mushroom laid
    # fast 1.6 mm off the last leaves the old card's edge bare, not that printed line, which the twin's
    # own white border covers
    plan, window, frames = moment(5731, 28, 9, 11)
    below, twin = plan.flips[9:11]
    assert twin.fast and 1.0 < laid_apart(below, twin) < 2.0
    assert notations(track(frames)[0]) == "M M"


def test_three_peppers_laid_fast_each_count_by_the_outer_edge_of_the_one_below():
    plan, window, frames = moment(5531, 33, 17, 20)
    assert all(f.fast for f in plan.flips[17:20])
    assert notations(track(frames)[0]) == "P P P"


def test_a_twin_laid_fast_counts_by_the_whole_cut_of_the_card_below_where_the_ground_says_little():
    # two olives laid fast, 2.7 mm apart, the card below the second one read with the next hand by it:
    # the ground beside it says little either way, the face registers face on face, and the old card's
    # cut shows whole where the twin does not lie; a push takes it away
    plan, window, frames = moment(5531, 38, 14, 17)
    below, twin = plan.flips[15:17]
    assert twin.fast and 2.0 < laid_apart(below, twin) < 3.0
    assert notations(track(frames)[0]) == "O O O"


def test_the_ground_beside_a_card_is_judged_beyond_the_border_a_twin_laid_off_covers():
    # a salami laid fast 1.6 mm off the last covers the ground beside the old one's outline with its own
    # white border, which is the old view moved: only beyond that border does the ground tell
    plan, window, frames = moment(5931, 9, 9, 12)
    below, twin = plan.flips[10:12]
    assert twin.fast and 1.0 < laid_apart(below, twin) < 2.0
    assert notations(track(frames)[0]) == "S S S"


def test_a_twin_seen_a_pixel_off_in_flight_that_lands_closer_is_no_push():
    # the second of two pineapples laid fast lands 0.6 mm off the first; in flight its face showed a whole
    # small pixel off, as a pushed pile's does, but a pushed face stays where it slid
    plan, window, frames = moment(5931, 3, 12, 15)
    below, twin = plan.flips[13:15]
    assert below.fast and twin.fast and laid_apart(below, twin) < 0.7
    assert notations(track(frames)[0]) == "A A A"


def test_a_card_whose_face_was_taken_with_a_hand_by_it_is_taken_again_once_the_hand_has_gone():
    # the salami settles while the hand that laid it is still by it; its face, taken then, registers the
    # next salami (0.3 mm off, laid fast) only within what fingers pull a registration. Taken again once
    # the hand has gone, clear, it tells the twin
    plan, window, frames = moment(5731, 23, 1, 4)
    below, twin = plan.flips[2:4]
    assert twin.fast and laid_apart(below, twin) < 0.4 and twin.entered - below.hand_left > 8
    assert notations(track(frames)[0]) == "O S S"


def test_a_card_being_read_again_is_no_reading_of_the_card_the_next_hand_brings():
    # a whole benchmark video: the double olive is reported while its hand is still by it, and then read
    # again and again; the double pepper laid on it then is another card, not a reading that settles the
    # olive's dispute as one more olive
    plan, rng = video_plan(5531, 26, (18, 24), kind="hard")
    art = Art.of()
    frames = [f.shot.image for f in render_frames(plan, art.faces, rng, art.back, "hard")]
    assert notations(track(frames)[0]) == " ".join(f.card.notation for f in plan.flips)


def test_a_twin_laid_as_the_card_below_is_covered_is_told_by_that_card_s_clear_face():
    # two peppers laid fast, the second 0.4 mm off the first as the hand that laid the first leaves: the
    # first, read clear once, is judged covered by the second; once the second rests, the first card's
    # clear face tells it lies a fraction of a millimetre off, where an outline could not
    plan, window, frames = moment(6331, 19, 0, 3)
    below, twin = plan.flips[1:3]
    assert below.fast and twin.fast and laid_apart(below, twin) < 0.5 and twin.entered == below.hand_left
    assert notations(track(frames)[0]) == "O P P"


def test_a_twin_laid_by_fingers_that_touched_the_card_below_counts_when_its_face_moved_beyond_their_pull():
    # the second artichoke is laid fast 0.7 mm off the first, whose outline was read with the hand by it:
    # its face registers cleanly (0.988, fingers just gone) and moved 0.015 of its width, more than
    # fingers by a card pull a registration (0.012)
    plan, window, frames = moment(6331, 23, 14, 17)
    below, twin = plan.flips[15:17]
    assert twin.fast and laid_apart(below, twin) < 0.8 and below.card == twin.card
    assert notations(track(frames)[0]) == "P A A"


def test_an_olive_laid_on_an_order_over_an_olive_is_no_olive_uncovered():
    # the olive, the yellow order 0.6 mm off it and a second olive 0.8 mm off that: the second olive lies
    # within a fifth of a millimetre of the first. Registered face on face, nothing blurring the view, it
    # moved more than the first card would have, uncovered by the order lifted off
    plan, window, frames = moment(6531, 16, 1, 4)
    assert [f.card.notation for f in plan.flips[1:4]] == ["O", "y:S+A+M+P+O", "O"]
    assert notations(track(frames)[0]) == "O y:S+A+M+P+O O"


def test_a_twin_laid_two_millimetres_off_counts_by_the_cut_its_shadow_leaves_mostly_whole():
    # the second olive, laid fast 1.9 mm and 3.4 degrees off the first: no ground is left bare beside the
    # first, and the twin's shadow weakens the first card's cut where it shows (0.77 of its strength); a
    # push takes the cut away
    plan, window, frames = moment(5131, 9, 17, 20)
    below, twin = plan.flips[18:20]
    assert twin.fast and 1.5 < laid_apart(below, twin) < 2.5
    assert notations(track(frames)[0]) == "S2 O O"


def test_a_twin_held_beside_the_pile_while_the_last_one_is_read_is_the_next_being_brought():
    # two olives laid fast, the second 0.7 mm off and turned half round, brought as the first one's hand
    # leaves: while the first is read once, the second shows in the hand beside the pile. The top card
    # cannot lie there and be in the hand: the one held is the next card, not the top one lifted off
    plan, frames = gesture_moment(2771, 4, 20, 24)
    first, second = plan.flips.flips[22:24]
    assert first.fast and second.fast and second.entered == first.hand_left
    assert notations(track(frames)[0]) == "S O O O"


def test_a_card_lifted_off_a_pushed_pile_shows_the_card_below_where_the_push_took_it():
    # the pile is pushed 6 mm, then its top card (an order) lifted off and put back: the artichoke below
    # shows meanwhile where the push took it, not where it lay when it was the top card
    plan, frames = gesture_moment(2771, 12, 27, 29)
    assert [g.kind for g in plan.gestures] == ["rest", "nudge", "lift"]
    assert notations(track(frames)[0]) == "A b:M+3?"


def test_a_run_s_card_below_seen_while_the_top_one_is_held_up_is_that_card_uncovered():
    # three mushrooms, the last lifted off and put back, then the pile pushed: while the hand holds the
    # top one up, the one below shows where it lay, registered only loosely with that hand over part of
    # it. It is the card below uncovered, not another mushroom laid, and the top one was lifted
    plan, frames = gesture_moment(2771, 1, 53, 56)
    assert [g.kind for g in plan.gestures] == ["lift", "nudge"]
    assert notations(track(frames)[0]) == "M M M"


def test_a_twin_laid_on_a_card_pushed_while_the_next_hand_came_counts():
    # the mushroom is pushed 4.6 mm; its face is read again cleanly, untouched, as the hand bringing the
    # next mushroom comes, and that view is the one the next is registered on: on the view from before
    # the push, the ground beside it shows that push, as though the new card were the old one pushed
    plan, frames = gesture_moment(2771, 14, 19, 23)
    assert [g.kind for g in plan.gestures] == ["pass", "pass", "nudge", "nudge"]
    assert notations(track(frames)[0]) == "P P M M"


def test_a_twin_whose_shadow_moves_the_ground_a_little_counts_by_the_cut_of_the_card_below_kept_whole():
    # the second pineapple is laid 2.5 mm and 3.6 degrees off the first: a little of the ground beside the
    # first (0.13 of it) reads as moved along, in the twin's shadow, and nothing as staying; but the first
    # card's cut shows where it lay, nearly whole (0.86 of its strength), which no push leaves
    plan, window, frames = moment(6731, 4, 10, 13)
    below, twin = plan.flips[11:13]
    assert below.card == twin.card and not twin.fast and 2 < laid_apart(below, twin) < 3
    assert notations(track(frames)[0]) == "O A A"


def test_a_twin_laid_fast_on_a_card_read_with_fingers_in_its_outline_counts_by_its_face():
    # the first salami was read with the hand that laid it by it, its fingers merged into the outline; the
    # second is carried in fast 0.7 mm off it, nothing seen passing over. The outline, smaller now, says
    # only that the fingers are gone; the face, registered face on face and moved, says a twin landed
    plan, window, frames = moment(6731, 5, 19, 22)
    below, twin = plan.flips[19:21]
    assert twin.fast and laid_apart(below, twin) < 0.8 and below.card == twin.card
    assert notations(track(frames)[0]) == "S S S"


def test_a_first_card_a_noisy_look_missed_is_looked_for_again_while_the_table_shows_it():
    # the first olive is read once while the hand still moves, and not at all by the look made as the hand
    # leaves; nothing moves afterwards to prompt another look, but the table no longer looks empty
    plan, window, frames = moment(7131, 12, 0, 2)
    first, second = plan.flips[0:2]
    assert first.card.notation == "O" and second.entered - first.hand_left >= 10
    assert notations(track(frames)[0]) == "O y:S+A+M+P+O"


def test_a_hand_as_pale_as_the_table_resting_on_a_card_is_something_by_it():
    # the hand that comes to push the pineapple rests on it first, about the grey of the table: in grey the
    # ring around the card looks as it did, the card would count as resting bare and its face be taken
    # again with the fingers in it, and the pineapple pushed away clear would not register on that view
    # (0.73): a new card. In tint the hand shows
    plan, frames = nudge_moment(3871, 10, 40)
    nudge = plan.gestures[0]
    assert nudge.kind == "nudge" and nudge.left < 40 and plan.flips.flips[1].entered > 40
    assert notations(track(frames)[0]) == "A"


def test_a_hand_as_brown_as_the_wood_holding_the_first_card_is_seen_by_its_tint():
    # the olive is read as the hand lets go, the brown hand on brown wood still around it: in grey the ring
    # around the card looks like the table, so the fingers' view of it would be taken as clear, and the two
    # nudges after it, registered on that view, would count as new olives
    plan, frames = nudge_moment(3871, 4, 110)
    assert [g.kind for g in plan.gestures[:2]] == ["nudge", "nudge"] and plan.gestures[1].left <= 110
    assert notations(track(frames)[0]) == "O"


def test_the_top_card_of_a_run_lifted_and_held_over_the_pile_waits_for_the_hand_to_go():
    # four pineapples, the last two each lifted off, held over the pile and put back. The pineapple seen
    # in the hand over the pile, the card lifted, is judged once the hand has gone, however long it holds
    # it: reported when the wait ran out, it was a fifth pineapple
    plan, frames = gesture_moment(2771, 2, 52, 56)
    assert [g.kind for g in plan.gestures] == ["pass", "lift", "lift"]
    assert notations(track(frames)[0]) == "A A A P"


def test_the_card_below_of_the_top_s_kind_shows_that_the_top_one_was_lifted():
    # the same moment as the camera gives it: the pineapple below shows where it lay, its face registered
    # there exactly, while the lifted one is held over the pile. That is the top card lifted off: put
    # back, it is no card laid
    plan, frames = gesture_moment(2771, 2, 52, 56, jpeg=True)
    assert notations(track(frames)[0]) == "A A A P"


def test_a_hand_resting_on_a_card_to_push_it_is_no_twin_laid_by_a_touch():
    # the olive lies clear; the hand that comes to push it rests its fingers on it, which pulls its face
    # 0.006 of its width and spoils it a little (0.95): as a twin laid fast almost on it would move it,
    # nothing seen passing over. Judged once the hand has gone, the olive was pushed
    plan, frames = nudge_moment(3971, 17, 80)
    assert plan.gestures[0].kind == "nudge" and plan.gestures[0].left <= 80
    assert notations(track(frames)[0]) == "O"


def test_a_face_seen_clear_is_kept_while_the_hand_that_pushes_the_pile_rests_on_it():
    # two olives, the pile nudged twice: the hand that pushes rests on the top olive first, where its face
    # registers on the clear view at 0.94, pulled 0.007 by the fingers. Taken again so, that view would
    # not register on the olive pushed (0.90), and the third olive laid 3 mm off it was taken for the push
    plan, frames = nudge_moment(3971, 7, 160)
    assert [g.kind for g in plan.gestures[:2]] == ["nudge", "nudge"] and plan.flips.flips[2].hand_left <= 160
    assert notations(track(frames)[0]) == "O O O"


def test_a_card_put_back_on_the_card_it_uncovered_is_not_kept_off_its_own_view():
    # three mushrooms, the last lifted off and put back, as the camera gives them: while it was lifted,
    # the face on top became the mushroom below's. The one put back registers on that face loosely and a
    # little off, as a card with fingers on it would: that is another card, and its own view is taken
    plan, frames = gesture_moment(2771, 1, 50, 56, jpeg=True)
    assert [g.kind for g in plan.gestures] == ["lift", "nudge"]
    assert notations(track(frames)[0]) == "P O O M M M"
