"""Comparing sequences: card piles against the truth, a word read against a word printed."""
from __future__ import annotations

from typing import Hashable, Sequence


def edit_distance(truth: Sequence[Hashable], found: Sequence[Hashable]) -> int:
    """Levenshtein distance: insertions, deletions and substitutions.

    >>> edit_distance(["S", "S", "A"], ["S", "A"]), edit_distance("PIZZERIA", "PIZERIA")
    (1, 1)
    """
    previous = list(range(len(found) + 1))
    for i, a in enumerate(truth, 1):
        current = [i]
        for j, b in enumerate(found, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a != b)))
        previous = current
    return previous[-1]
