"""Finding card outlines: traced edges, corners put in order, hulls fitted
around a thumb, and corners proposing cards where outlines run on."""
import cv2
import numpy as np

from vision.recognize.config import DEFAULT_CONFIG
from vision.recognize.corners import corner_hypotheses
from vision.recognize.detect import EdgeChains, colour_edges, detect, hull_fits, order_corners, reduce, smoothed
from vision.recognize.types import Quad

from .recognize_support import ART, TRUTH, place, same_outline


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


def test_colour_edges_are_opencvs_edges_of_all_three_channels():
    """The channel-choosing edges are the very edges ``cv2.Canny`` traces on a
    colour image, on a card photographed on a noisy table, at every width the
    recogniser searches."""
    photo = place(ART.faces[next(iter(ART.faces))], TRUTH, seed=3)
    for width in (320, 640, 704):
        image = smoothed(reduce(photo, width))
        low, high = DEFAULT_CONFIG.edge_low, DEFAULT_CONFIG.edge_high
        expected = cv2.Canny(image, low, high)
        assert expected.any()
        assert np.array_equal(colour_edges(image, low, high), expected)

