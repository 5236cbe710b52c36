"""What the recognition stage tests share: the stand-in deck's art and
references, and a card placed on a table at known corners."""
import cv2
import numpy as np

from tools.synth.datasets import Art
from vision.recognize.identify import ReferenceDeck


ART = Art.of()
DECK = ReferenceDeck.from_faces(ART.faces.items())
TRUTH = np.array([[420, 180], [640, 230], [575, 560], [350, 505]], np.float32)  # TL, TR, BR, BL


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
