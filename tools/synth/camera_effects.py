"""What a cheap camera does to a scene: uneven light, colour cast, glare,
focus and motion blur, sensor noise and JPEG compression.

:class:`CameraLook` holds the (seeded) choices so a photo's defects can be
recorded next to its ground truth and replayed exactly.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import cv2
import numpy as np

from vision.cvcompat import decode_image, encode_jpeg


@dataclass(frozen=True)
class Glare:
    x: float
    y: float
    radius_x: float
    radius_y: float
    angle: float
    strength: float


@dataclass(frozen=True)
class CameraLook:
    exposure: float = 1.0
    gamma: float = 1.0
    light_gradient: float = 0.0
    light_angle: float = 0.0
    vignette: float = 0.0
    cast: tuple[float, float, float] = (1.0, 1.0, 1.0)
    glare: Glare | None = None
    blur: str = "none"  # "none", "focus" or "motion"
    blur_amount: float = 0.0
    blur_angle: float = 0.0
    noise: float = 0.0
    jpeg_quality: int = 90

    @classmethod
    def sample(cls, size: tuple[int, int], rng: np.random.Generator, harsh: float = 1.0) -> CameraLook:
        """Typical phone/webcam defects; ``harsh`` scales how bad they get."""
        w, h = size
        glare = None
        if rng.random() < 0.3 * harsh:
            glare = Glare(rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h, rng.uniform(30, 160),
                          rng.uniform(20, 90), rng.uniform(0, 180), rng.uniform(60, 200) * harsh)
        blur = str(rng.choice(["none", "focus", "motion"], p=[0.5, 0.3, 0.2]))
        amount = {"none": 0.0, "focus": rng.uniform(0.6, 2.6) * harsh, "motion": rng.uniform(3, 14) * harsh}[blur]
        return cls(
            exposure=float(rng.uniform(1 - 0.28 * harsh, 1 + 0.2 * harsh)),
            gamma=float(rng.uniform(0.85, 1.15)),
            light_gradient=float(rng.uniform(0, 0.5) * harsh),
            light_angle=float(rng.uniform(0, 360)),
            vignette=float(rng.uniform(0, 0.45) * harsh),
            cast=tuple(float(c) for c in rng.uniform(1 - 0.15 * harsh, 1 + 0.15 * harsh, 3)),  # type: ignore[arg-type]
            glare=glare,
            blur=blur,
            blur_amount=float(amount),
            blur_angle=float(rng.uniform(0, 180)),
            noise=float(rng.uniform(1, 9) * harsh),
            jpeg_quality=int(rng.integers(40, 93)),
        )

    def as_json(self) -> dict:
        return asdict(self)


def light_field(size: tuple[int, int], look: CameraLook) -> np.ndarray:
    """Per-pixel brightness gain: a linear gradient times a vignette."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = math.radians(look.light_angle)
    along = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h)
    gain = 1.0 + look.light_gradient * along * 2
    r2 = ((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2
    return (gain * (1.0 - look.vignette * r2 / 2)).astype(np.float32)


def _glare(size: tuple[int, int], glare: Glare) -> np.ndarray:
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = math.radians(glare.angle)
    dx, dy = xx - glare.x, yy - glare.y
    u = (dx * math.cos(a) + dy * math.sin(a)) / glare.radius_x
    v = (-dx * math.sin(a) + dy * math.cos(a)) / glare.radius_y
    return (glare.strength * np.exp(-(u * u + v * v) * 1.5)).astype(np.float32)


def motion_kernel(length: float, angle: float) -> np.ndarray:
    n = max(3, int(round(length)) | 1)
    kernel = np.zeros((n, n), np.float32)
    c = n // 2
    a = math.radians(angle)
    for t in np.linspace(-c, c, 4 * n):
        kernel[int(round(c + t * math.sin(a))), int(round(c + t * math.cos(a)))] = 1.0
    return kernel / kernel.sum()


def blur(image: np.ndarray, kind: str, amount: float, angle: float) -> np.ndarray:
    if kind == "focus" and amount > 0:
        return cv2.GaussianBlur(image, (0, 0), amount)
    if kind == "motion" and amount >= 2:
        return cv2.filter2D(image, -1, motion_kernel(amount, angle))
    return image


def expose(image: np.ndarray, look: CameraLook, field: np.ndarray | None = None) -> np.ndarray:
    """Light, cast, exposure, gamma and glare on a float image (0..255)."""
    size = (image.shape[1], image.shape[0])
    f = image.astype(np.float32)
    f *= (field if field is not None else light_field(size, look))[..., None]
    f *= np.array(look.cast, np.float32)[None, None, :] * look.exposure
    if look.glare is not None:
        f += _glare(size, look.glare)[..., None]
    f = 255.0 * (np.clip(f, 0, 255) / 255.0) ** look.gamma
    return f


def add_noise(image: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Sensor noise: luminance-dependent Gaussian, a little chroma."""
    if sigma <= 0:
        return np.clip(image, 0, 255).astype(np.uint8)  # type: ignore[no-any-return]
    f = np.clip(image.astype(np.float32), 0, 255)
    luma = rng.standard_normal(f.shape[:2], dtype=np.float32)[..., None]
    chroma = rng.standard_normal(f.shape, dtype=np.float32)
    scale = sigma * (0.6 + 0.4 * np.sqrt(f / 255.0))
    return np.clip(f + scale * (0.8 * luma + 0.45 * chroma), 0, 255).astype(np.uint8)


class SensorNoise:
    """The noise of :func:`add_noise` drawn once for a whole video and cut at
    a random place for each frame: a video renders about twice as fast, and
    consecutive frames still carry unrelated noise."""

    PAD, FIELDS = 48, 3

    def __init__(self, size: tuple[int, int], rng: np.random.Generator) -> None:
        w, h = size[0] + self.PAD, size[1] + self.PAD
        self.size = size
        self.fields = [0.8 * rng.standard_normal((h, w, 1), dtype=np.float32) +
                       0.45 * rng.standard_normal((h, w, 3), dtype=np.float32) for _ in range(self.FIELDS)]

    def add(self, image: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
        f = np.clip(image.astype(np.float32), 0, 255)
        if sigma <= 0:
            return f.astype(np.uint8)  # type: ignore[no-any-return]
        k, dy, dx = int(rng.integers(self.FIELDS)), int(rng.integers(self.PAD)), int(rng.integers(self.PAD))
        noise = self.fields[k][dy:dy + self.size[1], dx:dx + self.size[0]]
        scale = sigma * (0.6 + 0.4 * np.sqrt(f / 255.0))
        return np.clip(f + scale * noise, 0, 255).astype(np.uint8)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Shot:
    """A finished photo: the decoded image and the JPEG bytes it came from."""

    image: np.ndarray
    jpeg: bytes


def develop(scene: np.ndarray, look: CameraLook, field: np.ndarray | None = None) -> np.ndarray:
    """What the lens and light make of a scene (float image): the same for
    every frame of a still scene, so a video of one computes it once."""
    return blur(expose(scene, look, field), look.blur, look.blur_amount, look.blur_angle)


def capture(developed: np.ndarray, look: CameraLook, rng: np.random.Generator,
            noise: SensorNoise | None = None) -> bytes:
    """One frame's sensor noise and JPEG coding of a developed scene."""
    noisy = noise.add(developed, look.noise, rng) if noise is not None else add_noise(developed, look.noise, rng)
    return encode_jpeg(noisy, look.jpeg_quality)


def shoot(scene: np.ndarray, look: CameraLook, rng: np.random.Generator, field: np.ndarray | None = None,
          noise: SensorNoise | None = None) -> Shot:
    """Turn a clean scene into what the camera delivers (``noise``: a video's
    noise drawn once, else fresh noise)."""
    data = capture(develop(scene, look, field), look, rng, noise)
    return Shot(decode_image(data), data)
