"""A reading's channels evened out on the print its family shares
(:func:`vision.recognize.paper.gains_matched`)."""
from __future__ import annotations

import numpy as np
import pytest

from companion.engine import Order
from vision.recognize.paper import GAIN_MIN_PIXELS, GAIN_MIN_SPREAD, gains_matched

from .recognize_support import DECK

RNG = np.random.default_rng(7)


def _shared(count: int = 3000, spread: tuple[float, float, float] = (40.0, 40.0, 40.0)) -> np.ndarray:
    """Colours (3, count) of a print: each channel around 120, with ``spread``."""
    return np.stack([120 + s * RNG.standard_normal(count) for s in spread])


def _face(shared: np.ndarray, gains: tuple[float, float, float], offsets: tuple[float, float, float]) -> np.ndarray:
    """A face (1, count, 3) showing ``shared`` with each channel's gain and offset, and a little noise."""
    channels = [g * row + o + RNG.normal(0, 1, row.size) for row, g, o in zip(shared, gains, offsets)]
    return np.stack(channels, axis=-1)[None].astype(np.float32)


def test_a_channel_that_came_out_stronger_is_brought_to_the_others_gain():
    shared = _shared()
    face = _face(shared, (1.0, 1.3, 1.0), (5.0, -40.0, 5.0))
    matched = gains_matched(face, np.arange(shared.shape[1]), shared)[0]
    # every channel now the same gain (the mean, 1.1) and offset of the print
    for channel in range(3):
        slope, _ = np.polyfit(shared[channel], matched[:, channel], 1)
        assert slope == pytest.approx(1.1, abs=0.01)
    assert np.abs(matched[:, 1] - matched[:, 0] - (shared[1] - shared[0]) * 1.1).mean() < 2.0


def test_pixels_left_out_take_no_part_in_the_fit():
    """Clipped pixels (``where`` false) would pull the green gain down; left
    out, the fit is that of the rest."""
    shared = _shared()
    face = _face(shared, (1.0, 1.3, 1.0), (0.0, 0.0, 0.0))
    clipped = shared[1] > 130
    face[0, clipped, 1] = 160.0
    where = ~clipped
    matched = gains_matched(face, np.arange(shared.shape[1]), shared, where)[0]
    slope, _ = np.polyfit(shared[1][where], matched[where, 1], 1)
    assert slope == pytest.approx(1.1, abs=0.01)


@pytest.mark.parametrize("case", ["few pixels", "flat channel", "gains far apart"])
def test_a_face_is_left_as_it_is_when_the_print_cannot_set_its_gains(case):
    count = GAIN_MIN_PIXELS - 1 if case == "few pixels" else 3000
    spread = (40.0, 40.0, GAIN_MIN_SPREAD / 2) if case == "flat channel" else (40.0, 40.0, 40.0)
    shared = _shared(count, spread)
    gains = (1.0, 2.5, 1.0) if case == "gains far apart" else (1.0, 1.3, 1.0)
    face = _face(shared, gains, (0.0, 0.0, 0.0))
    assert gains_matched(face, np.arange(count), shared) is face


def test_the_stand_in_orders_share_too_little_print_to_set_gains():
    """The stand-in deck's orders share little but their pizza and paper, whose red
    barely varies: their readings keep the gains their paper gives."""
    fine = DECK.fine
    family = fine.family_of(DECK.cards.index(Order.from_notation("g:4A+P")))
    assert family.shared_colours.std(axis=1).min() < GAIN_MIN_SPREAD
