"""Working on the calling thread alone.

The vision stages make many small calls into OpenCV and BLAS (a face of a
few thousand pixels, an 8 x 8 Hessian, a matrix product over 51 cards). Both
libraries would hand each call to a pool of worker threads; for work this
small the handing over costs more than it saves, and on a busy machine the
workers' waiting shows as system time (a flip video of 60 cards: 4 of 18
seconds of CPU). So each recognition and each tracked frame runs on the
calling thread.
"""
from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache
from typing import Iterator

import cv2
from threadpoolctl import ThreadpoolController


@lru_cache(maxsize=1)
def _blas() -> ThreadpoolController:
    return ThreadpoolController()


@contextmanager
def one_thread() -> Iterator[None]:
    """A context in which OpenCV and BLAS work on the calling thread alone
    (OpenCV's setting is the process's: it is put back as it was after).

    >>> with one_thread():
    ...     cv2.getNumThreads()
    1
    """
    before = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        with _blas().limit(limits=1, user_api="blas"):
            yield
    finally:
        cv2.setNumThreads(before)
