"""Scanning the oven pile: one flip tracker per (game, device), held in memory.

A tablet's camera page posts frames; each frame goes to the tracker of its
:class:`CameraSession`. A card the tracker reports joins the session's queue;
:mod:`.camera` reveals the queue's sure cards in order through the ordinary
event log. The queue is what keeps the camera honest about order:

* an *unsure* card (low confidence, or too close to a card it might be)
  stops the queue until the player picks one of its candidates with one
  tap; the sure cards seen after it wait behind it, so the timeline keeps
  the pile's order. Whether a card is sure is judged among the cards the
  game allows next (:mod:`.readings`) when it reaches the head;
* while an order waits for its owner's decision nothing is revealed (the rules
  engine would refuse it anyway); cards seen meanwhile wait and are revealed
  once the order is decided.

Sessions are few and cheap (a tracker keeps a handful of 192-pixel grey
frames), bounded by :class:`SessionStore`: idle ones are dropped, and the
least recently used goes when a new device arrives at a full store. The
recogniser (the reference deck, the expensive part) is loaded once per app
and shared: it keeps no per-call state. Making another deck active swaps it
(:meth:`Scanner.use`); each session then starts a new tracker on its next
frame, keeping its queue.
"""
from __future__ import annotations

import itertools
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from vision.recognize.types import Match
from vision.track.types import Landing

from ..engine.cards import Card
from .readings import Reading, judge, reading_json

MAX_SESSIONS = 4
IDLE_SECONDS = 120.0
MAX_FRAMES_PER_SECOND = 20
MAX_QUEUE = 64  # a runaway tracker cannot grow a session without bound


@dataclass
class QueuedCard:
    """A card the tracker saw land, not yet revealed. ``reading`` is the
    tracker's reading judged among the cards that could come next when it
    was last looked at (:mod:`.readings`: the head of the queue is judged
    again against the game as it is); a player's tap settles it
    (``chosen``)."""

    id: int
    landing: Landing
    reading: Reading
    captured_ms: float | None  # the client's capture time of the frame in which the tracker decided
    frame: int = 0  # the session's frame count when it was seen
    chosen: Card | None = None
    reported: bool = False  # the rules' refusal of the tracker's own card was told once

    @property
    def card(self) -> Card:
        return self.chosen if self.chosen is not None else self.reading.card

    @property
    def sure(self) -> bool:
        return self.chosen is not None or self.reading.sure

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, **reading_json(self.reading), "captured": self.captured_ms}


class RateLimited(Exception):
    """More frames from one device than :data:`MAX_FRAMES_PER_SECOND`."""


@dataclass
class CameraSession:
    """The tracker of one device filming one game's pile, and its queue."""

    game_id: int
    device: str
    round: int
    tracker: Any  # vision.track.tracker.FlipTracker
    # the card already on top of the pile when the camera started: its first
    # report is that card again, not a new one (see :meth:`take`)
    known_top: Card | None = None
    queue: deque[QueuedCard] = field(default_factory=deque)
    refused: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    arrivals: deque[float] = field(default_factory=lambda: deque(maxlen=MAX_FRAMES_PER_SECOND))
    last_used: float = field(default_factory=time.monotonic)
    last_time: float | None = None  # seconds, as fed to the tracker
    frames: int = 0
    failures: int = 0
    deck_version: int = 0  # the scanner's version when the tracker was made (see Scanner.use)
    _ids: Any = field(default_factory=lambda: itertools.count(1))

    def take(self, landings: list[Landing], is_sure: Callable[[Match], bool]) -> None:
        """Queue the tracker's reports (``time`` is the frame's capture time)."""
        for landing in landings:
            if self.known_top is not None:
                repeat, self.known_top = landing.card == self.known_top, None
                if repeat:
                    continue
            if len(self.queue) >= MAX_QUEUE:
                self.queue.popleft()
            captured = landing.time * 1000.0 if landing.time is not None else None
            reading = judge(landing.match, is_sure)  # among all cards until it heads the queue
            assert reading is not None  # every card is possible when nothing is ruled out
            self.queue.append(QueuedCard(next(self._ids), landing, reading, captured, self.frames))

    def waiting_choice(self) -> QueuedCard | None:
        """The unsure card at the head of the queue, which holds up the rest."""
        return self.queue[0] if self.queue and not self.queue[0].sure else None

    def status(self) -> str:
        """What the camera sees now, for the page's status line."""
        return "starting" if self.frames == 0 else self.tracker.status()

    def top_card(self) -> str | None:
        top = self.tracker.top_card
        return top.notation if top is not None else None


class SessionStore:
    """At most ``limit`` sessions; those idle for ``idle_seconds`` are dropped."""

    def __init__(self, limit: int = MAX_SESSIONS, idle_seconds: float = IDLE_SECONDS,
                 max_fps: int = MAX_FRAMES_PER_SECOND, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.idle_seconds, self.max_fps, self.clock = limit, idle_seconds, max_fps, clock
        self.sessions: dict[tuple[int, str], CameraSession] = {}
        self.lock = threading.Lock()

    def arrive(self, game_id: int, device: str, round_: int, make: Callable[[], CameraSession]) -> CameraSession:
        """The session a frame goes to, counting the frame against the rate
        limit (raises :class:`RateLimited` before any work is done)."""
        now = self.clock()
        with self.lock:
            self._drop_idle(now)
            key = (game_id, device)
            session = self.sessions.get(key)
            if session is None:
                if len(self.sessions) >= self.limit:
                    oldest = min(self.sessions, key=lambda k: self.sessions[k].last_used)
                    del self.sessions[oldest]
                session = self.sessions[key] = make()
            recent = session.arrivals
            if len(recent) >= self.max_fps and now - recent[0] < 1.0:
                raise RateLimited()
            recent.append(now)
            session.last_used = now
            return session

    def get(self, game_id: int, device: str) -> CameraSession | None:
        with self.lock:
            session = self.sessions.get((game_id, device))
            if session is not None:
                session.last_used = self.clock()
            return session

    def _drop_idle(self, now: float) -> None:
        for key in [k for k, s in self.sessions.items() if now - s.last_used > self.idle_seconds]:
            del self.sessions[key]


class Scanner:
    """The app's recogniser (loaded on first use) and its camera sessions.

    The deck can be changed while cameras run (:meth:`use`): the new
    recogniser replaces the old one at once, and ``version`` counts the
    changes, so a session whose tracker still compares with an older deck
    can notice and start a new tracker (:mod:`.camera` does, on its next
    frame). A call already under way finishes with the deck it started with.
    """

    def __init__(self, deck_dir: str | os.PathLike[str] | None, store: SessionStore) -> None:
        self.deck_dir, self.store = deck_dir, store
        self.version = 0
        self._recogniser: Any = None
        self._loading = threading.Lock()
        self.sample: list[Landing] | None = None  # the demo video's cards, once read
        self.sample_lock = threading.Lock()

    @property
    def recogniser(self) -> Any:
        with self._loading:
            if self._recogniser is None:
                self._recogniser = self.load(self.deck_dir)
            return self._recogniser

    @staticmethod
    def load(deck_dir: str | os.PathLike[str] | None) -> Any:
        """A recogniser for the deck in ``deck_dir`` (DeckError when it cannot be used)."""
        from vision.recognize.decks import load_reference_deck
        from vision.recognize.pipeline import Recogniser

        return Recogniser(load_reference_deck(deck_dir))

    def use(self, deck_dir: str | os.PathLike[str], recogniser: Any) -> None:
        """Compare with ``recogniser`` (loaded from ``deck_dir``) from now on."""
        with self._loading:
            self.deck_dir, self._recogniser = deck_dir, recogniser
            self.version += 1

    def new_tracker(self) -> Any:
        from vision.track.factory import tracker_for

        return tracker_for(self.recogniser)

    def is_sure(self, match: Match) -> bool:
        """Whether a reading needs no confirmation: the recogniser's own rule."""
        return self.recogniser.config.is_sure(match)
