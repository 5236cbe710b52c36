"""Glances: small faces from a coarse copy of the image, which tolerate a
rough outline."""
import numpy as np

from vision.recognize.config import DEFAULT_CONFIG
from vision.recognize.detect import EdgeChains
from vision.recognize.identify import identify
from vision.recognize.pipeline import Recogniser
from vision.recognize.rectify import image_outline, rectify
from vision.recognize.types import Quad

from .recognize_support import ART, DECK, TRUTH, place


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
