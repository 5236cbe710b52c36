"""Whether an outline runs along edges, as a real card's sides do."""
import numpy as np

from vision.recognize.config import DEFAULT_CONFIG
from vision.recognize.detect import reduce
from vision.recognize.verify import Gradients, outline_support

from .recognize_support import ART, TRUTH, place


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
