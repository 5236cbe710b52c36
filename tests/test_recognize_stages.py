"""Each recognition stage on synthetic images with known answers."""
import dataclasses

import cv2
import numpy as np
import pytest

from tools.synth.backgrounds import table_background
from tools.synth.datasets import Art, photo_stream
from vision.recognize import pipeline
from vision.recognize import refine as refine_module
from vision.recognize.config import DEFAULT_CONFIG
from vision.recognize.corners import corner_hypotheses
from vision.recognize.detect import EdgeChains, detect, hull_fits, order_corners, reduce
from vision.recognize.identify import ReferenceDeck, canonical_face, identify
from vision.recognize.pipeline import Recogniser
from vision.recognize.rectify import image_outline, rectify, rectify_many
from vision.recognize.refine import align, refine
from vision.recognize.types import Match, Quad
from vision.recognize.verify import Gradients, outline_support
from tools.synth.style import STYLES

ART = Art.of()
DECK = ReferenceDeck.from_faces(ART.faces.items())
TRUTH = np.array([[420, 180], [640, 230], [575, 560], [350, 505]], np.float32)  # TL, TR, BR, BL


@pytest.fixture(scope="module")
def alt_deck() -> tuple[Art, ReferenceDeck]:
    """The second deck style's art, and its references drawn from it."""
    alt = Art.of(STYLES["alt"])
    return alt, ReferenceDeck.from_faces(alt.faces.items())


def place(face: np.ndarray, corners: np.ndarray, size=(1280, 720), background=(60, 90, 50), seed=0,
          table: np.ndarray | None = None) -> np.ndarray:
    """``face`` warped onto ``table`` (default: a plain, slightly noisy one) so its corners land on ``corners``."""
    if table is None:
        rng = np.random.default_rng(seed)
        image = np.empty((size[1], size[0], 3), np.uint8)
        image[:] = background
        image = cv2.add(image, rng.integers(0, 12, image.shape, dtype=np.uint8))
    else:
        image = table.copy()
    h, w = face.shape[:2]
    matrix = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), corners)
    warped = cv2.warpPerspective(face, matrix, size)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, size)
    image[mask > 127] = warped[mask > 127]
    return image


def same_outline(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance, over the four ways to start the same cycle."""
    return min(np.linalg.norm(np.roll(found, k, axis=0) - truth, axis=1).max() for k in range(4))


def test_detect_finds_a_drawn_card_within_a_few_pixels():
    image = place(ART.faces[next(iter(ART.faces))], TRUTH)
    errors = [same_outline(q.corners, TRUTH) for q in detect(image)]
    assert min(errors) < 4.0


def test_detected_corners_start_on_a_short_side():
    ordered = order_corners(TRUTH[[2, 0, 3, 1]])
    sides = np.linalg.norm(ordered - np.roll(ordered, -1, axis=0), axis=1)
    assert sides[0] < sides[1] and sides[2] < sides[3]


def test_a_corner_hidden_by_a_thumb_is_restored():
    clipped = np.array([[0, 0], [200, 0], [200, 260], [170, 310], [0, 310]], np.float32)  # BR corner cut off
    fits = [same_outline(q, np.float32([[0, 0], [200, 0], [200, 310], [0, 310]])) for q in hull_fits([clipped.reshape(-1, 1, 2)])[0]]
    assert min(fits) < 1.0


def test_hulls_are_fitted_together_in_their_own_order():
    square = np.array([[0, 0], [120, 0], [120, 187], [0, 187]], np.int32)
    clipped = np.array([[300, 0], [500, 0], [500, 260], [470, 310], [300, 310]], np.int32)
    triangle = np.array([[700, 0], [800, 200], [600, 200]], np.int32)  # too few sides for a card
    fits, owners = hull_fits([h.reshape(-1, 1, 2) for h in (triangle, clipped, square)])
    assert owners.tolist() == [1, 2]
    assert same_outline(fits[0], np.float32([[300, 0], [500, 0], [500, 310], [300, 310]])) < 1.0
    assert same_outline(fits[1], square.astype(np.float32)) < 1e-6


def test_a_corner_whose_arms_run_on_proposes_a_card_the_size_of_those_found():
    # a card's top-left corner where both its edges run on as a tablecloth's lines
    image = np.full((720, 1280, 3), (40, 60, 90), np.uint8)
    corner = np.array([300, 200])
    cv2.rectangle(image, tuple(int(v) for v in corner), (1000, 690), (230, 230, 230), -1)
    card = np.float32([corner, corner + [120, 0], corner + [120, 187], corner + [0, 187]])
    known = card + np.float32([700, 300])  # a card of the same size already found elsewhere
    chains = EdgeChains.of(image)

    def nearest(quads: list[Quad]) -> float:
        return min(same_outline(q.corners, card) for q in quads)

    assert nearest(corner_hypotheses(chains, DEFAULT_CONFIG, [known])) < 6.0
    assert nearest(corner_hypotheses(chains, DEFAULT_CONFIG)) > 30.0


def test_a_found_cards_own_edges_propose_nothing_but_lines_running_on_through_it_do():
    image = np.full((720, 1280, 3), (40, 60, 90), np.uint8)
    found = np.float32([[560, 300], [680, 300], [680, 487], [560, 487]])
    cv2.fillConvexPoly(image, found.astype(np.int32), (230, 230, 230))
    # a cloth's light stripes, their box centred on the card found; where they meet is
    # the corner of a card not found yet, its edges running on as the stripes
    cv2.rectangle(image, (100, 150), (1140, 200), (230, 230, 230), -1)
    cv2.rectangle(image, (100, 150), (150, 636), (230, 230, 230), -1)
    card = np.float32([[100, 150], [220, 150], [220, 337], [100, 337]])
    proposals = corner_hypotheses(EdgeChains.of(image), DEFAULT_CONFIG, [found])
    assert min(same_outline(q.corners, card) for q in proposals) < 6.0
    assert min(same_outline(q.corners, found) for q in proposals) > 30.0


def test_rectify_puts_the_first_corner_top_left():
    face = np.zeros((624, 400, 3), np.uint8)
    face[:312, :200] = (0, 0, 255)  # red top-left quarter
    image = place(face, TRUTH)
    upright = rectify(image, Quad(TRUTH), (40, 62))
    assert upright[5, 5, 2] > 200 and upright[5, 5, 1] < 60
    turned = rectify(image, Quad(TRUTH).turned(), (40, 62))
    assert turned[-5, -5, 2] > 200 and turned[5, 5, 2] < 100


@pytest.mark.parametrize("oversample", [1, 2])
def test_a_face_cut_out_upside_down_is_the_upright_face_turned(oversample):
    """Corners map to the outer corners of the face's corner pixels, so
    neither way up is sampled half a pixel off."""
    image = place(ART.faces[next(iter(ART.faces))], TRUTH)
    upright = rectify(image, Quad(TRUTH), (40, 62), oversample).astype(int)
    turned = rectify(image, Quad(TRUTH).turned(), (40, 62), oversample).astype(int)
    assert np.abs(upright - turned[::-1, ::-1]).max() <= 1


@pytest.mark.parametrize("oversample", [1, 4])
def test_faces_rectified_together_are_the_faces_rectified_one_by_one(oversample):
    image = place(ART.faces[next(iter(ART.faces))], TRUTH)
    outlines = np.stack([TRUTH, Quad(TRUTH).turned().corners, Quad(TRUTH).enlarged(0.8).corners, TRUTH + 7.3])
    together = rectify_many(image, outlines, (10, 16), oversample)
    assert together.shape == (4, 16, 10, 3)
    for face, outline in zip(together, outlines):
        assert np.array_equal(face, rectify(image, Quad(outline), (10, 16), oversample))
    assert rectify_many(image, outlines[:0], (10, 16), oversample).shape == (0, 16, 10, 3)


@pytest.mark.parametrize("card", list(ART.faces), ids=lambda c: c.notation)
def test_every_face_identifies_from_a_clean_render_either_way_up(card):
    face = canonical_face(ART.faces[card])
    upright, turned = identify(face, DECK), identify(np.ascontiguousarray(face[::-1, ::-1]), DECK)
    assert (upright.card, upright.upside_down) == (card, False) and upright.confidence > 0.99
    assert (turned.card, turned.upside_down) == (card, True) and turned.confidence > 0.99
    assert upright.runner_up != card and upright.margin > 0.02


def test_the_runner_up_is_the_next_best_card_and_a_deck_of_one_has_none():
    cards = list(ART.faces)[:3]
    blend = cv2.addWeighted(canonical_face(ART.faces[cards[0]]), 0.6, canonical_face(ART.faces[cards[1]]), 0.4, 0)
    match = identify(blend, ReferenceDeck.from_faces((c, ART.faces[c]) for c in cards))
    assert (match.card, match.runner_up) == (cards[0], cards[1]) and match.margin > 0
    alone = identify(blend, ReferenceDeck.from_faces([(cards[2], ART.faces[cards[2]])]))
    assert alone.card == cards[2] and alone.runner_up is None and alone.runner_up_confidence == 0.0


def test_refine_pulls_a_rough_outline_onto_the_card():
    card = next(c for c in ART.faces if getattr(c, "special", None) == "monotoni")
    image = place(ART.faces[card], TRUTH)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    rough = TRUTH + np.float32([[12, -9], [14, 6], [-10, 11], [-8, -12]])
    refined = refine([(gray, 1.0), (gray, 1.0)], Quad(rough), DECK.templates_of(card))
    assert refined is not None and np.linalg.norm(refined.corners - TRUTH, axis=1).max() < 3.5


def test_refine_stops_after_the_quick_look_when_the_outline_looks_unlike_the_card():
    card = next(c for c in ART.faces if getattr(c, "special", None) == "monotoni")
    image = place(ART.faces[card], TRUTH)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    looks: list[Quad] = []

    def unlike(quad: Quad) -> float:
        looks.append(quad)
        return DEFAULT_CONFIG.refine_steps[0].go_on - 0.01

    assert refine([(gray, 1.0), (gray, 1.0)], Quad(TRUTH), DECK.templates_of(card), look=unlike) is None
    assert len(looks) == 1  # the coarse and full-size steps never ran


def test_refine_goes_straight_to_full_size_when_the_quick_look_settles_the_outline():
    card = next(c for c in ART.faces if getattr(c, "special", None) == "monotoni")
    gray = cv2.cvtColor(place(ART.faces[card], TRUTH), cv2.COLOR_BGR2GRAY).astype(np.float32)
    looks: list[Quad] = []

    def exactly(quad: Quad) -> float:
        looks.append(quad)
        return 0.99

    rough = Quad(TRUTH + np.float32([[3, -2], [4, 2], [-3, 3], [-2, -3]]))
    refined = refine([(gray, 1.0), (gray, 1.0)], rough, DECK.templates_of(card), look=exactly)
    assert refined is not None and np.linalg.norm(refined.corners - TRUTH, axis=1).max() < 2.0
    assert len(looks) == 1  # looked at after the quick step only: the coarse step was passed over


@pytest.mark.parametrize("sure, steps", [(True, 1), (False, 2)])
def test_refine_stops_after_the_quick_look_only_when_the_outline_is_settled(sure, steps, monkeypatch):
    card = next(c for c in ART.faces if getattr(c, "special", None) == "monotoni")
    gray = cv2.cvtColor(place(ART.faces[card], TRUTH), cv2.COLOR_BGR2GRAY).astype(np.float32)
    aligned: list[Quad] = []
    monkeypatch.setattr(refine_module, "align", lambda *args, **kwargs: aligned.append(args[1]) or align(*args, **kwargs))
    rough = Quad(TRUTH + np.float32([[3, -2], [4, 2], [-3, 3], [-2, -3]]))
    settled: list[Quad] = []
    refined = refine([(gray, 1.0), (gray, 1.0)], rough, DECK.templates_of(card), look=lambda quad: 0.99,
                     settled=lambda quad: settled.append(quad) or sure)
    # the quick step's face is small: its outline is a few pixels off, the full-size one is not
    assert refined is not None and np.linalg.norm(refined.corners - TRUTH, axis=1).max() < (6.0 if sure else 2.0)
    assert len(settled) == 1 and len(aligned) == steps  # the full-size step only for an unsettled outline
    assert (refined is settled[0]) == sure


def _pale_card_under_glare(strength: float, centre: tuple[int, int], radius: float):
    """The mushroom (little printed on it) placed at TRUTH, with a round glare
    of ``strength`` levels added at ``centre``."""
    card = next(c for c in ART.faces if c.notation == "M")
    yy, xx = np.mgrid[0:720, 0:1280]
    glare = strength * np.exp(-((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / (2 * radius ** 2))
    return card, np.clip(place(ART.faces[card], TRUTH) + glare[..., None], 0, 255).astype(np.uint8)


@pytest.mark.parametrize("refit", [True, False])
def test_an_outline_the_coarse_steps_lose_is_aligned_at_full_size_when_its_face_names_the_card(refit, monkeypatch):
    """A pale card under glare, its printed border taken for its outline: the
    face inside is unsure but still names the card clearly, so the full-size
    step alone aligns it when the coarse steps give up."""
    card, image = _pale_card_under_glare(120, (520, 330), 60.0)
    border = Quad(TRUTH).enlarged(0.95)
    monkeypatch.setattr(pipeline, "refine", lambda *args, **kwargs: None)
    config = DEFAULT_CONFIG if refit else dataclasses.replace(DEFAULT_CONFIG, refit_margin=1.0)
    recogniser = Recogniser(ReferenceDeck.from_faces(ART.faces.items(), config))
    scene = pipeline._Scene.of(image, config)
    found = recogniser.aligned(scene, recogniser.glance(scene.chains, [border])[0])
    assert found.card == card
    error = np.linalg.norm(found.corners - TRUTH, axis=1).max()  # 10 pixels as the border lies
    assert (error < 7.0) if refit else np.allclose(found.corners, border.corners)


def test_a_card_whose_coarse_alignment_a_thumb_throws_off_is_aligned_at_full_size(alt_deck):
    """A benchmark-style photo in the second deck style: a thumb over a
    mushroom's corner fills much of the small faces the coarse steps align,
    and they fail; its face at full size names the card weakly (0.36) but
    clearly, and the full-size step alone aligns it."""
    alt, deck = alt_deck
    [photo] = photo_stream(alt, 1, 402, ("top",), start=331)
    assert photo.spec.thumb is not None
    top = photo.cards[-1].card
    assert [d.card for d in Recogniser(deck).recognise(photo.image)] == [top]
    stricter = dataclasses.replace(DEFAULT_CONFIG, refit_confidence=0.4)
    assert Recogniser(deck, stricter).recognise(photo.image) == []


@pytest.mark.parametrize("growth", [DEFAULT_CONFIG.outline_growth, 1.0])
def test_an_outline_just_inside_the_card_is_looked_at_larger_before_it_is_aligned(growth, monkeypatch):
    """An outline traced along the inner side of a card's edge: the face it
    frames is unsure, the same outline a little larger is sure, and no
    alignment is needed."""
    card = next(c for c in ART.faces if c.notation == "y:A+4O")
    image = place(ART.faces[card], TRUTH)
    inside = Quad(TRUTH).enlarged(0.92)
    aligned = []
    monkeypatch.setattr(pipeline, "refine", lambda *args, **kwargs: aligned.append(1) or refine(*args, **kwargs))
    config = dataclasses.replace(DEFAULT_CONFIG, outline_growth=growth)
    recogniser = Recogniser(ReferenceDeck.from_faces(ART.faces.items(), config))
    assert not config.is_sure(recogniser.examine(image, inside).match)
    scene = pipeline._Scene.of(image, config)
    found = recogniser.aligned(scene, recogniser.glance(scene.chains, [inside])[0])
    assert found.card == card and config.is_sure(found.match)
    if growth > 1.0:
        assert not aligned and np.linalg.norm(found.corners - TRUTH, axis=1).max() < 4.0
    else:
        assert len(aligned) == 1


def test_a_weak_glance_that_alignment_loses_is_looked_at_grown(monkeypatch):
    """A pale card under glare glances weakly from an outline just inside its
    edge, and ECC gives up on it; the face the outline frames, grown, still
    names the card clearly enough to report."""
    card, image = _pale_card_under_glare(110, (500, 360), 70.0)
    inside = Quad(TRUTH).enlarged(0.93)
    monkeypatch.setattr(pipeline, "refine", lambda *args, **kwargs: None)
    recogniser = Recogniser(DECK)
    assert not DEFAULT_CONFIG.is_confident(recogniser.examine(image, inside).match)
    scene = pipeline._Scene.of(image, DEFAULT_CONFIG)
    rough = recogniser.glance(scene.chains, [inside])[0]
    weak = pipeline.Detection(dataclasses.replace(rough.match, confidence=DEFAULT_CONFIG.weak_glance - 0.1), rough.corners)
    found = recogniser.aligned(scene, weak)
    assert found.card == card and DEFAULT_CONFIG.is_confident(found.match)
    assert np.linalg.norm(found.corners - TRUTH, axis=1).max() < 5.0


def test_a_recogniser_may_search_differently_from_its_deck_but_not_describe_faces_differently():
    assert Recogniser(DECK, dataclasses.replace(DEFAULT_CONFIG, outline_growth=1.0)).config.outline_growth == 1.0
    with pytest.raises(ValueError, match="face sizes"):
        Recogniser(DECK, dataclasses.replace(DEFAULT_CONFIG, face_size=(30, 47)))


def test_refine_goes_past_a_failed_step_for_an_outline_that_already_looks_like_the_card():
    card = next(c for c in ART.faces if getattr(c, "special", None) == "monotoni")
    gray = cv2.cvtColor(place(ART.faces[card], TRUTH), cv2.COLOR_BGR2GRAY).astype(np.float32)
    blank = np.full_like(gray, 128.0)  # nothing for the reduced steps to align with
    rough = Quad(TRUTH + np.float32([[3, -2], [4, 2], [-3, 3], [-2, -3]]))
    levels = [(blank, 1.0), (gray, 1.0)]
    alike = refine(levels, rough, DECK.templates_of(card), look=lambda quad: 0.99)
    assert alike is not None and np.linalg.norm(alike.corners - TRUTH, axis=1).max() < 2.0
    assert refine(levels, rough, DECK.templates_of(card), look=lambda quad: 0.3) is None


def test_recogniser_reports_the_card_upside_down_with_face_corners():
    card = next(c for c in ART.faces if c.notation == "y:A+4O")
    image = place(ART.faces[card], np.roll(TRUTH, 2, axis=0))  # lying upside down
    [found] = Recogniser(DECK).recognise(image)
    assert found.card == card and found.confidence > 0.9
    assert np.linalg.norm(found.corners - np.roll(TRUTH, 2, axis=0), axis=1).max() < 4.0


def test_a_card_whose_outline_merges_with_a_checked_cloth_is_found_from_its_printed_frame():
    yy, xx = np.mgrid[0:720, 0:1280].astype(np.float32)
    mix = (((xx // 50) % 2 + (yy // 50) % 2) / 2)[..., None]  # gingham: white, mid and dark checks
    cloth = (np.float32([240, 240, 240]) * (1 - mix) + np.float32([140, 60, 20]) * mix).astype(np.uint8)
    card = next(c for c in ART.faces if c.notation == "y:A+4O")
    image = place(ART.faces[card], (TRUTH - TRUTH.mean(axis=0)) * 0.5 + np.float32([640, 360]), table=cloth)
    assert [d.card for d in Recogniser(DECK).recognise(image)] == [card]
    without = dataclasses.replace(DEFAULT_CONFIG, inner_frame_scale=1.0)
    assert Recogniser(ReferenceDeck.from_faces(ART.faces.items(), without)).recognise(image) == []


def _alignments_with_and_without(setting: str, image: np.ndarray, card, monkeypatch) -> tuple[int, int]:
    """How many outlines are aligned in ``image`` with ``setting`` at its
    default and at 0; either way ``card`` alone is found."""
    aligned = []
    monkeypatch.setattr(pipeline, "refine", lambda *args, **kwargs: aligned.append(1) or refine(*args, **kwargs))
    counts = []
    for value in (getattr(DEFAULT_CONFIG, setting), 0.0):
        aligned.clear()
        config = dataclasses.replace(DEFAULT_CONFIG, **{setting: value})
        assert [d.card for d in Recogniser(ReferenceDeck.from_faces(ART.faces.items(), config)).recognise(image)] == [card]
        counts.append(len(aligned))
    return counts[0], counts[1]


def test_only_outlines_aligned_in_vain_spend_the_budget():
    """Three cards laid out, and a budget of one vain alignment: each card
    found gives back what it took, so all three are found."""
    image = None
    cards = [c for c in ART.faces if c.notation in ("S", "r:S+4A", "p:4A+O")]
    for shift, card in zip((0, 330, 660), cards):
        image = place(ART.faces[card], TRUTH + np.float32([shift, 0]), table=image)
    config = dataclasses.replace(DEFAULT_CONFIG, max_alignments=1)
    found = Recogniser(ReferenceDeck.from_faces(ART.faces.items(), config)).recognise(image)
    assert sorted(d.card.notation for d in found) == sorted(c.notation for c in cards)


def test_weak_glances_whose_outlines_run_along_no_edges_are_not_aligned(monkeypatch):
    """On a busy table many patterns glance weakly like a card; those whose
    outline no edges run along are left unaligned, and the card is found all
    the same."""
    table = table_background("busy", (1280, 720), np.random.default_rng(0))
    card = next(c for c in ART.faces if c.notation == "S")
    image = place(ART.faces[card], (TRUTH - TRUTH.mean(axis=0)) * 0.5 + np.float32([640, 360]), table=table)
    with_gate, without = _alignments_with_and_without("weak_min_support", image, card, monkeypatch)
    assert with_gate < without


@pytest.mark.parametrize("margin, aligned", [(0.3, True), (0.05, False)])
def test_a_weak_glance_clearly_naming_one_card_is_aligned_though_no_edges_run_along_it(margin, aligned):
    """A thumb across a card's edge or a far corner in perspective leaves an
    outline off the card's edges that still glances clearly like one card;
    a table's pattern glances nearly alike as several."""
    card, other = (next(c for c in ART.faces if c.notation == n) for n in ("!", "S"))
    scene = pipeline._Scene.of(place(ART.faces[card], TRUTH), DEFAULT_CONFIG)
    off_the_edges = TRUTH + np.float32([300, 0])  # on the bare table beside the card
    assert outline_support(scene.gradients, off_the_edges, DEFAULT_CONFIG) < DEFAULT_CONFIG.weak_min_support
    weak = DEFAULT_CONFIG.weak_glance - 0.1
    glance = pipeline.Detection(Match(card, weak, False, other, weak - margin), off_the_edges)
    assert Recogniser(DECK)._worth_aligning(scene, glance) is aligned


def test_outlines_far_smaller_than_every_card_kept_are_not_aligned(monkeypatch):
    """Once a card is kept, the table's card-like patterns a fraction of its
    size are left unaligned; the card is found all the same."""
    table = table_background("busy", (1280, 720), np.random.default_rng(2))
    card = next(c for c in ART.faces if c.notation == "S")
    image = place(ART.faces[card], TRUTH, table=table)
    with_gate, without = _alignments_with_and_without("min_size_of_kept", image, card, monkeypatch)
    assert with_gate < without


@pytest.mark.parametrize("seed, index, kinds", [
    (401, 1176, ("top",)),                    # an order smeared 13 px on a checked cloth
    (301, 63, ("top", "layout", "empty")),    # a Mamma Mia! card smeared 12 px, under a thumb
])
def test_a_card_smeared_by_motion_blur_is_found_by_the_coarser_second_search(seed, index, kinds, monkeypatch):
    """Two benchmark-style photos whose top card the search at the detection
    width misses: its edges are too gradual to trace there, and at half the
    width they are sharp."""
    [photo] = photo_stream(ART, 1, seed, kinds, start=index)
    assert photo.spec.look.blur == "motion" and photo.spec.look.blur_amount > 10
    searches = _searches(monkeypatch)
    found = Recogniser(DECK).recognise(photo.image)
    assert [d.card for d in found] == [photo.cards[-1].card]
    assert searches == [(DEFAULT_CONFIG.detect_width, []), (DEFAULT_CONFIG.fallback_width, [photo.cards[-1].card.notation])]
    assert Recogniser(DECK, dataclasses.replace(DEFAULT_CONFIG, fallback_width=0)).recognise(photo.image) == []


def test_a_smeared_card_under_a_thumb_is_found_at_the_coarser_width_from_corners_or_frames(monkeypatch):
    """A top card smeared 10 px and held by a thumb (from a set of such
    photos): even at half the detection width no traced outline fits it;
    its corners, and the frame printed inside it, still propose it there."""
    [photo] = photo_stream(ART, 1, 603, ("top",), start=4523)
    assert photo.spec.thumb is not None and photo.spec.look.blur_amount > 10
    card = photo.cards[-1].card
    searches = _searches(monkeypatch)
    assert [d.card for d in Recogniser(DECK).recognise(photo.image)] == [card]
    assert searches == [(DEFAULT_CONFIG.detect_width, []), (DEFAULT_CONFIG.fallback_width, [card.notation])]
    monkeypatch.setattr(pipeline, "corner_hypotheses", lambda *args: [])
    assert [d.card for d in Recogniser(DECK).recognise(photo.image)] == [card]  # from its frame
    unframed = dataclasses.replace(DEFAULT_CONFIG, inner_frame_scale=1.0)
    assert Recogniser(DECK, unframed).recognise(photo.image) == []


def test_an_image_no_wider_than_the_second_search_is_searched_once(monkeypatch):
    searches = _searches(monkeypatch)
    image = np.full((180, DEFAULT_CONFIG.fallback_width, 3), (40, 70, 120), np.uint8)
    assert Recogniser(DECK).recognise(image) == [] and searches == [(DEFAULT_CONFIG.detect_width, [])]
    assert Recogniser(DECK).recognise(cv2.resize(image, None, fx=2, fy=2)) == []
    assert [width for width, _ in searches[1:]] == [DEFAULT_CONFIG.detect_width, DEFAULT_CONFIG.fallback_width]


def test_a_small_card_merged_with_a_checked_cloth_is_found_by_the_finer_second_search(alt_deck, monkeypatch):
    """A benchmark-style layout in the second deck style: its Mamma Mia!
    card's narrow white border blurs into a green and white checked cloth at
    the detection width; the finer search, which small cards call for,
    traces it."""
    alt, deck = alt_deck
    [photo] = photo_stream(alt, 1, 202, ("layout",), start=65)
    assert photo.spec.table == "cloth"
    searches = _searches(monkeypatch)
    found = Recogniser(deck).recognise(photo.image)
    assert sorted(d.card.notation for d in found) == sorted(c.card.notation for c in photo.cards)
    assert [(width, "!" in cards) for width, cards in searches[:2]] == \
        [(DEFAULT_CONFIG.detect_width, False), (DEFAULT_CONFIG.finer_width, True)]


def test_small_cards_smeared_by_motion_blur_are_found_by_a_coarser_search_after_the_finer(alt_deck, monkeypatch):
    """A benchmark-style layout in the second deck style, smeared 11 px on a
    checked cloth: three of its cards are traced neither at the detection
    width nor at the finer one, and are at half the detection width."""
    alt, deck = alt_deck
    [photo] = photo_stream(alt, 1, 203, ("layout",), start=177)
    assert photo.spec.look.blur == "motion" and photo.spec.look.blur_amount > 10
    searches = _searches(monkeypatch)
    found = {d.card.notation for d in Recogniser(deck).recognise(photo.image)}
    assert [width for width, _ in searches] == \
        [DEFAULT_CONFIG.detect_width, DEFAULT_CONFIG.finer_width, DEFAULT_CONFIG.fallback_width]
    assert {"p:O+6J", "A", "y:A+4M"} <= found <= {c.card.notation for c in photo.cards}
    without = Recogniser(deck, dataclasses.replace(DEFAULT_CONFIG, fallback_width=0)).recognise(photo.image)
    assert not {"p:O+6J", "A", "y:A+4M"} & {d.card.notation for d in without}


def test_a_card_filmed_up_close_calls_for_no_second_search(monkeypatch):
    searches = _searches(monkeypatch)
    card = next(c for c in ART.faces if c.notation == "S")
    assert [d.card for d in Recogniser(DECK).recognise(place(ART.faces[card], TRUTH))] == [card]
    assert searches == [(DEFAULT_CONFIG.detect_width, ["S"])]


def _searches(monkeypatch) -> list[tuple[int, list[str]]]:
    """Each search recognisers make from now on: its detection width and the
    cards found when it ends."""
    searches = []
    original = Recogniser._search

    def search(self, image, found=()):
        result = original(self, image, found)
        searches.append((self.config.detect_width, [d.card.notation for d in result]))
        return result

    monkeypatch.setattr(Recogniser, "_search", search)
    return searches


def test_second_searches_search_no_further_and_take_no_weak_match():
    recogniser = Recogniser(DECK)
    coarser, finer = recogniser._coarser, recogniser._finer
    assert (coarser.config.detect_width, finer.config.detect_width) == (DEFAULT_CONFIG.fallback_width, DEFAULT_CONFIG.finer_width)
    assert all(s._coarser is None and s._finer is None for s in (coarser, finer))
    assert coarser.config.max_alignments == coarser.config.max_weak_alignments == DEFAULT_CONFIG.fallback_alignments
    assert finer.config.max_alignments == finer.config.max_weak_alignments == DEFAULT_CONFIG.finer_alignments
    for confidence, runner_up in ((0.60, 0.10), (0.72, 0.59)):  # far ahead; a red check as salami
        match = Match(next(iter(ART.faces)), confidence, False, None, runner_up)
        assert recogniser.config.is_confident(match)
        assert not coarser.config.is_confident(match) and not finer.config.is_confident(match)


def test_an_empty_table_reports_nothing():
    rng = np.random.default_rng(3)
    image = np.full((720, 1280, 3), (40, 70, 120), np.uint8)
    for _ in range(6):  # a few card-sized plain shapes: paper, a phone, a coaster
        x, y = rng.integers(0, 1100), rng.integers(0, 500)
        cv2.rectangle(image, (int(x), int(y)), (int(x) + 120, int(y) + 190), tuple(int(v) for v in rng.integers(0, 255, 3)), -1)
    assert Recogniser(DECK).recognise(image) == []


@pytest.mark.parametrize("confidence, runner_up, reported", [
    (0.72, 0.70, True),   # similar enough on its own
    (0.60, 0.30, True),   # weaker, but no other card comes near: a pale card under glare
    (0.60, 0.45, False),  # weaker, with a close runner-up
    (0.50, 0.05, False),  # too weak however clear: the table's patterns reach this
])
def test_a_weaker_match_is_reported_only_when_far_ahead_of_its_runner_up(confidence, runner_up, reported):
    card, other = list(ART.faces)[:2]
    match = Match(card=card, confidence=confidence, upside_down=False, runner_up=other, runner_up_confidence=runner_up)
    assert DEFAULT_CONFIG.is_confident(match) is reported


def test_thresholds_live_in_one_config_object():
    assert DECK.config is DEFAULT_CONFIG and Recogniser(DECK).config is DEFAULT_CONFIG


def test_a_card_outline_runs_along_edges_and_a_pattern_cut_out_does_not():
    """Stage 3b: the sides of a real card are edges; a quad laid across a
    checked cloth (where a red check can pass for salami) is not."""
    card = next(c for c in ART.faces if c.notation == "S")
    image = place(ART.faces[card], TRUTH)
    gradients = Gradients.of(*_reduced(image))
    assert outline_support(gradients, TRUTH) > 0.9
    cells = (np.indices((720, 1280)) // 40).sum(axis=0) % 2
    checked = np.where(cells[..., None] == 1, np.uint8([40, 40, 200]), np.uint8([235, 235, 240]))
    diamond = np.float32([[640, 200], [760, 360], [640, 520], [520, 360]])  # across the checks
    assert outline_support(Gradients.of(*_reduced(checked)), diamond) < 0.5


def test_gradients_are_central_differences_of_the_channel_that_changes_most():
    smooth = np.random.default_rng(3).integers(0, 256, (5, 7, 3), dtype=np.uint8)
    gradients = Gradients(smooth, 1.0)
    padded = np.pad(smooth.astype(np.float32), ((1, 1), (1, 1), (0, 0)), mode="edge")  # a border repeats
    gx, gy = padded[1:-1, 2:] - padded[1:-1, :-2], padded[2:, 1:-1] - padded[:-2, 1:-1]
    ys, xs = np.indices((5, 7))
    found_x, found_y = gradients.at(xs, ys)
    channel = np.argmax(gx * gx + gy * gy, axis=-1)
    assert np.array_equal(found_x, np.take_along_axis(gx, channel[..., None], -1)[..., 0])
    assert np.array_equal(found_y, np.take_along_axis(gy, channel[..., None], -1)[..., 0])


def _reduced(image: np.ndarray) -> tuple[np.ndarray, float]:
    small = reduce(image, DEFAULT_CONFIG.detect_width)
    return small, small.shape[1] / image.shape[1]


def test_glances_sample_a_coarse_copy_whose_outline_is_the_image_outline_scaled():
    image = place(ART.faces[next(iter(ART.faces))], TRUTH)
    chains = EdgeChains.of(image)
    assert chains.coarse.shape[:2] == (180, 320)  # 1280 x 720 reduced to 640 wide, then halved
    outline = chains.to_coarse(image_outline(1280, 720))
    np.testing.assert_allclose(outline, image_outline(320, 180))


def test_a_glance_finds_the_card_through_an_outline_a_few_pixels_off():
    """A glance (a small face) tolerates the rough outline of a pile; the
    full-size comparison, which tells close cards apart, does not."""
    card = next(c for c in ART.faces if c.notation == "y:A+4O")
    image = place(ART.faces[card], TRUTH)
    rough = Quad(TRUTH + np.float32([[20, -14], [22, 11], [-17, 17], [-13, -20]]))
    glance = Recogniser(DECK).glance(EdgeChains.of(image), [rough])[0]
    sharp = identify(rectify(image, rough, DEFAULT_CONFIG.face_size), DECK)
    assert glance.card == card and glance.confidence > sharp.confidence + 0.1
