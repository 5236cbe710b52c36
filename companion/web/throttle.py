"""Slowing down guesses of the table code.

A six-digit code holds a million values: typed freely, a script finds it in
minutes. After a few wrong codes each further try waits twice as long as the
last (up to :data:`MAX_WAIT_SECONDS`), counted per network address and per
device, so a phone that mistypes twice loses nothing while a guesser needs
years.

>>> clock = [0.0]
>>> limiter = AttemptLimiter(free=2, clock=lambda: clock[0])
>>> for _ in range(3):
...     limiter.failed("10.0.0.7")
>>> limiter.wait("10.0.0.7"), limiter.wait("10.0.0.8")
(1.0, 0.0)
>>> clock[0] = 1.0; limiter.wait("10.0.0.7")
0.0
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable, Hashable

FREE_ATTEMPTS = 5
FIRST_WAIT_SECONDS = 1.0
MAX_WAIT_SECONDS = 300.0
MAX_KEYS = 10_000  # addresses and devices remembered; the oldest are forgotten first


@dataclass
class _Failures:
    count: int
    last: float


class AttemptLimiter:
    """Wrong attempts per key (an address, a device), and how long each key
    must wait before its next try. Thread-safe: the server answers devices in
    parallel."""

    def __init__(self, free: int = FREE_ATTEMPTS, first_wait: float = FIRST_WAIT_SECONDS,
                 max_wait: float = MAX_WAIT_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self.free, self.first_wait, self.max_wait, self.clock = free, first_wait, max_wait, clock
        self._failures: dict[Hashable, _Failures] = {}
        self._lock = threading.Lock()

    def wait(self, *keys: Hashable) -> float:
        """Seconds before any of ``keys`` may try again (0: now)."""
        now = self.clock()
        with self._lock:
            return max((self._wait_of(self._failures.get(key), now) for key in keys), default=0.0)

    def _wait_of(self, failures: _Failures | None, now: float) -> float:
        if failures is None or failures.count <= self.free:
            return 0.0
        delay = min(self.first_wait * 2 ** (failures.count - self.free - 1), self.max_wait)
        return max(0.0, failures.last + delay - now)

    def failed(self, *keys: Hashable) -> None:
        now = self.clock()
        with self._lock:
            for key in keys:
                failures = self._failures.pop(key, None) or _Failures(0, now)
                self._failures[key] = _Failures(failures.count + 1, now)  # re-inserted: newest last
            while len(self._failures) > MAX_KEYS:
                del self._failures[next(iter(self._failures))]

    def succeeded(self, *keys: Hashable) -> None:
        with self._lock:
            for key in keys:
                self._failures.pop(key, None)
