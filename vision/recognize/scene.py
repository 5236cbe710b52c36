"""One image as the recogniser's search sees it."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Sequence

import numpy as np

from .config import VisionConfig
from .detect import EdgeChains
from .verify import Gradients
from .work import Allowance, Work, unlimited


@dataclass(frozen=True)
class Scene:
    """One image as a search sees it: full size, its edge chains (with the
    reduced copy), the scales alignment works on, the work it may still
    cost, the alignments it may still make in vain and, once a card is to be
    kept, the gradients its outline is checked against."""

    image: np.ndarray
    chains: EdgeChains
    levels: Sequence[tuple[np.ndarray, float]]
    work: Work
    allowance: Allowance

    @cached_property
    def gradients(self) -> Gradients:
        return Gradients(self.chains.smooth, self.chains.scale)

    @classmethod
    def of(cls, image: np.ndarray, config: VisionConfig, work: Work | None = None) -> Scene:
        chains = EdgeChains.of(image, config)
        return cls(image, chains, ((chains.small, chains.scale), (image, 1.0)), work or unlimited(), Allowance(config))
