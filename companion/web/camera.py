"""The camera's part of the JSON API: frames, photos and video files.

* ``POST /api/games/<id>/frame?device=D&t=MS`` — one camera frame as a raw
  ``image/jpeg`` (or ``image/png``) body; ``t`` is the capture time in
  milliseconds on the client's clock. The frame goes to the device's tracker
  (:mod:`.scanning`); sure cards are revealed at once, in order; an unsure one
  waits for ``POST .../camera/confirm``. Answers the game state plus
  ``camera`` (what the tracker sees, the card waiting for a choice, the cards
  revealed by this frame with their capture time).
* ``POST /api/games/<id>/camera/confirm`` — JSON ``{"device", "id", "card"}``:
  the card the player picked for the unsure entry ``id`` (``null``: it was not
  a card; drop it).
* ``POST /api/games/<id>/photo`` — one photo of the pile's top card: proposes
  the likeliest card that can come next and the candidates to offer;
  changes nothing (the page reveals a sure card, or the player's pick,
  through ``reveal``). ``POST /api/photo`` reads a photo the same way with no
  game (trying out the active deck).
* ``POST /api/games/<id>/video`` — a video file: a fresh tracker reads it and
  the answer is the card sequence; changes nothing (the page reveals the cards
  one by one, stopping at each order).
* ``GET /api/sample-video`` — the same for the bundled sample (the demo).

Every reading is judged among the cards the game allows next
(:mod:`.readings`): a card the rules rule out is never proposed.

Bodies are raw files with their own content type, never form encodings: like
the JSON API, a page on another site cannot send those here without a CORS
preflight, which is never granted.
"""
from __future__ import annotations

import os
import re
import tempfile
import time
from typing import Any, Callable

from flask import Blueprint, Response, current_app, jsonify, request

from vision.recognize.types import Match
from vision.track.sources import MAX_VIDEO_PIXELS
from vision.track.types import Landing

from ..assets import DEMO_VIDEO
from ..engine.errors import RulesError
from ..engine.legality import NextCard
from ..engine.table import TableGame, TablePhase
from ..engine.tablelog import BadPayload, CardRevealed, event_from_json
from . import live, storage
from .db import get_db
from .mammamia.words import rules_refusal
from .jsonapi import ApiError, body_bytes, image_body, json_body, or_404
from .present import game_json
from .readings import judge, judge_sequence, reading_json, refusal_json
from .recognition import scanner
from .scanning import CameraSession, RateLimited, Scanner

MAX_FRAME_BYTES = 2 * 1024 * 1024  # a 640-pixel JPEG is ~50 kB; a phone photo fits too
# a frame is a video frame: the page sends 640 pixels wide. Each camera's tracker keeps its last
# frame, so a frame of 40 megapixels (a photo's limit) would hold over 100 MB per camera
MAX_FRAME_PIXELS = MAX_VIDEO_PIXELS
MAX_VIDEO_FRAMES = 15 * 60 * 5     # five minutes at 15 fps: the rest of a longer file is not read
MAX_VIDEO_WORK_SECONDS = 60.0      # and no upload keeps a server thread busy longer than this
VIDEO_TYPES_PREFIX = "video/"
DEVICE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
bp = Blueprint("camera", __name__, url_prefix="/api")
# the live camera and video reveal the cards of a Mamma Mia! round; a Maus
# au Chocolat game reads its photos through its own endpoint (companion/web/maus)
CAMERA_GAME = "mamma-mia"


# frames -------------------------------------------------------------------------------------


@bp.post("/games/<game:game_id>/frame")
def frame(game_id: int) -> Response:
    device = _device(request.args.get("device"))
    captured = _capture_time(request.args.get("t"))
    db = get_db()
    stored = or_404(storage.load_game, db, game_id, CAMERA_GAME)
    if stored.game.phase is not TablePhase.EVALUATING:
        raise ApiError(400, "the game is not revealing a round: there is no pile to scan")
    scan = scanner()
    scan.recogniser  # noqa: B018 (the first frame loads the deck here, not under the store's lock)
    try:
        session = scan.store.arrive(game_id, device, stored.game.round, lambda: _new_session(scan, stored, device))
    except RateLimited:
        raise ApiError(429, f"too many frames from this device (at most {scan.store.max_fps} a second); "
                            "this one was not read", "device") from None
    # only after the cheap checks: decoding is the costly part
    image = image_body(MAX_FRAME_BYTES, MAX_FRAME_PIXELS)
    with session.lock:
        if session.round != stored.game.round:  # a new round: a new pile
            _restart(scan, session, stored)
        elif session.deck_version != scan.version:  # another deck was made active
            _new_tracker(scan, session, stored)
        seconds = captured / 1000.0 if captured is not None else None
        if seconds is not None and session.last_time is not None and seconds <= session.last_time:
            raise ApiError(400, "t must increase from one frame to the next (capture time in milliseconds)", "t")
        session.last_time = seconds if seconds is not None else session.last_time
        session.frames += 1
        try:
            session.take(session.tracker.feed(image, seconds), scan.is_sure)
        except Exception:  # a fault in the recogniser costs this frame, not the game or the session
            current_app.logger.exception("the flip tracker failed on a frame of game %s", game_id)
            session.failures += 1
        stored, landed = _reveal_queue(db, game_id, session, scan.is_sure, from_frame=True)
        return jsonify(_answer(stored, session, landed))


@bp.post("/games/<game:game_id>/camera/confirm")
def confirm(game_id: int) -> Response:
    """The player's pick for the unsure card holding up the queue."""
    body = json_body({"device", "id", "card"})
    device = _device(body.get("device"))
    db = get_db()
    or_404(storage.load_game, db, game_id, CAMERA_GAME)
    scan = scanner()
    session = scan.store.get(game_id, device)
    if session is None:
        raise ApiError(400, "this device has no camera running for this game", "device")
    with session.lock:
        waiting = session.waiting_choice()
        if waiting is None or body.get("id") != waiting.id:
            raise ApiError(409, "that card no longer waits for a choice", "id")
        if body.get("card") is None:
            session.queue.popleft()
        else:
            waiting.chosen = _card(body.get("card"))
            waiting.captured_ms = None  # revealed on a tap: no camera latency to measure
        stored, landed = _reveal_queue(db, game_id, session, scan.is_sure)
        return jsonify(_answer(stored, session, landed))


def _new_session(scan: Scanner, stored: storage.StoredGame, device: str) -> CameraSession:
    version = scan.version  # read first: a deck swapped meanwhile costs one more new tracker, no more
    session = CameraSession(stored.id, device, stored.game.round, scan.new_tracker(), deck_version=version)
    session.known_top = _top_of_pile(stored)
    return session


def _restart(scan: Scanner, session: CameraSession, stored: storage.StoredGame) -> None:
    session.round = stored.game.round
    _new_tracker(scan, session, stored)
    session.queue.clear()
    session.refused.clear()
    session.last_time = None


def _new_tracker(scan: Scanner, session: CameraSession, stored: storage.StoredGame) -> None:
    """A tracker comparing with the scanner's deck as it is now. The card on
    top of the pile is known, so the new tracker seeing it is not a new card;
    cards already queued keep their readings."""
    session.deck_version = scan.version
    session.tracker, session.known_top = scan.new_tracker(), _top_of_pile(stored)


def _top_of_pile(stored: storage.StoredGame) -> Any:
    evaluation = stored.game.evaluation
    return evaluation.revealed[-1] if evaluation is not None and evaluation.revealed else None


def _reveal_queue(db: Any, game_id: int, session: CameraSession, is_sure: Callable[[Match], bool],
                  from_frame: bool = False) -> tuple[storage.StoredGame, list[dict]]:
    """Reveal the queue's sure cards in order, until an unsure card or an order
    waiting for its decision. The card at the head is judged among the cards
    the game allows next, as it is now (:mod:`.readings`). The camera is the
    source of truth here, so a reveal goes in at the current version (a tap
    on another tablet in between only means reading the game again)."""
    stored = storage.load_game(db, game_id)
    landed: list[dict] = []
    session.refused.clear()
    for _attempt in range(len(session.queue) * 2 + 2):
        head = session.queue[0] if session.queue else None
        game = stored.game
        if head is None or game.phase is not TablePhase.EVALUATING:
            break
        if head.chosen is None and not _judge_head(session, game, is_sure):
            continue
        if not head.sure or game.pending is not None:
            break
        try:
            stored = storage.append_event(db, game_id, stored.version, CardRevealed(head.card))
        except storage.StaleWrite:
            stored = storage.load_game(db, game_id)
            continue
        except RulesError as refused:  # a tapped card the rules refuse
            session.queue.popleft()
            session.refused.append({"card": head.card.notation, "reason": rules_refusal(refused)})
            continue
        session.queue.popleft()
        live.changed()
        # the capture time goes back only for a card shown in answer to the frame that
        # settled it: one that waited (for a tap, a decision) says nothing of latency
        fresh = head.frame == session.frames and from_frame
        landed.append({"card": head.card.notation, "index": len(stored.game.evaluation.revealed) - 1,
                       "captured": head.captured_ms if fresh else None})
    return stored, landed


def _judge_head(session: CameraSession, game: TableGame, is_sure: Callable[[Match], bool]) -> bool:
    """Judge the queue's head among the cards ``game`` allows next; drop it
    (False) when it can be none of them. That the rules ruled out the
    tracker's own card is told once."""
    head, upcoming = session.queue[0], game.next_card
    match = head.landing.match
    reading = judge(match, is_sure, upcoming.can_be if upcoming else None)
    if reading is None or (reading.ruled_out is not None and not head.reported):
        session.refused.append(refusal_json(match, upcoming))
        head.reported = True
    if reading is None:
        session.queue.popleft()
        return False
    head.reading = reading
    return True


def _answer(stored: storage.StoredGame, session: CameraSession, landed: list[dict]) -> dict[str, Any]:
    waiting = session.waiting_choice()
    paused = stored.game.pending is not None
    return {**game_json(stored), "camera": {
        "device": session.device,
        "status": "paused" if paused else session.status(),
        "top": session.top_card(),
        "choose": waiting.as_json() if waiting else None,
        "queued": len(session.queue),
        "landed": landed,
        "refused": list(session.refused),
        "frames": session.frames,
        "failures": session.failures,  # frames the tracker failed on (logged on the server)
    }}


# photos and video files -------------------------------------------------------------------


@bp.post("/games/<game:game_id>/photo")
def photo(game_id: int) -> Response:
    """The top card of the pile in one photo, judged among the cards that can
    come next in this game, for the page to reveal (at once when sure)."""
    stored = or_404(storage.load_game, get_db(), game_id, CAMERA_GAME)
    return jsonify(read_photo(stored.game.next_card))


@bp.post("/photo")
def photo_alone() -> Response:
    """What the camera reads in a photo, with no game: trying a deck out."""
    return jsonify(read_photo(None))


def read_photo(upcoming: NextCard | None) -> dict[str, Any]:
    """The request's photo read with the active deck: its top card judged
    among the cards ``upcoming`` allows (any card without a game), or a
    message; ``refused`` says why the rules ruled out the card seen."""
    image = image_body(current_app.config["MAX_CONTENT_LENGTH"])
    scan = scanner()
    found = scan.recogniser.recognise(image)
    if not found:
        return {"proposal": None, "seen": [], "refused": None,
                "message": "no card found in the photo: hold the camera over the pile and try again"}
    best = found[0].match
    reading = judge(best, scan.is_sure, upcoming.can_be if upcoming else None)
    refused = refusal_json(best, upcoming) if reading is None or reading.ruled_out else None
    return {"proposal": reading_json(reading) if reading else None, "seen": [d.card.notation for d in found],
            "refused": refused, "message": None if reading else "the card seen cannot come next in this game"}


@bp.post("/games/<game:game_id>/video")
def video(game_id: int) -> Response:
    """The cards of an uploaded flip video, in order."""
    stored = or_404(storage.load_game, get_db(), game_id, CAMERA_GAME)
    kind = request.mimetype or ""
    if not (kind.startswith(VIDEO_TYPES_PREFIX) or kind == "application/octet-stream"):
        raise ApiError(400, "send the video file itself as the body, with Content-Type video/... "
                            "or application/octet-stream")
    data = body_bytes(current_app.config["MAX_CONTENT_LENGTH"], "the video file")
    if not data:
        raise ApiError(400, "the video file is empty")
    from vision.track.sources import video_container

    if video_container(data[:16]) is None:
        raise ApiError(400, "not a video file: send an MP4, MOV, AVI, MKV or WebM video, as a phone records it")
    handle, path = tempfile.mkstemp(suffix=".video")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        del data
        landings, complete = read_video(path)
    finally:
        os.unlink(path)
    return jsonify({"cards": sequence_json(landings, stored.game.next_card), "complete": complete})


@bp.get("/sample-video")
def sample_video() -> Response:
    """The bundled sample video's cards (read once per app): the demo round;
    ``?game=ID`` judges them among the cards that game allows."""
    scan = scanner()
    game_id = request.args.get("game", type=int)
    upcoming = or_404(storage.load_game, get_db(), game_id, CAMERA_GAME).game.next_card if game_id is not None else None
    with scan.sample_lock:
        if scan.sample is None:
            scan.sample = read_video(str(DEMO_VIDEO))[0]
    return jsonify({"cards": sequence_json(scan.sample, upcoming), "video": DEMO_VIDEO.name})


def sequence_json(landings: list[Landing], upcoming: NextCard | None) -> list[dict[str, Any]]:
    """A video's cards for the page, each judged as if the cards before it
    were the ones proposed; a card none of whose readings can come next
    carries ``refused`` (the page skips it, saying why)."""
    scan = scanner()
    readings = judge_sequence([landing.match for landing in landings], scan.is_sure, upcoming)
    cards = []
    for landing, reading in zip(landings, readings):
        if reading is None:
            refusal = refusal_json(landing.match, upcoming)
            cards.append({"card": refusal["card"], "sure": False, "candidates": [], "refused": refusal["reason"],
                          "time": landing.time})
        else:
            cards.append({**reading_json(reading), "refused": None, "time": landing.time})
    return cards


def read_video(path: str) -> tuple[list[Landing], bool]:
    """Run a fresh tracker over a video file: the cards that landed, and
    whether the whole video was read (a long one is read for
    MAX_VIDEO_FRAMES frames or MAX_VIDEO_WORK_SECONDS, whichever ends
    first); 400 when it is not a video."""
    from vision.track.follow import follow
    from vision.track.sources import SourceError, open_sequence

    scan = scanner()
    tracker = scan.new_tracker()
    try:
        source = open_sequence(path)
    except SourceError:
        raise ApiError(400, "not a video file that can be read (try an AVI or MP4 from a phone)") from None
    frames = FirstFrames(source, MAX_VIDEO_FRAMES, MAX_VIDEO_WORK_SECONDS)
    try:
        landings = list(follow(frames, tracker))
    except SourceError as error:
        raise ApiError(400, f"the video cannot be read to the end: {error}") from None
    except Exception:  # a fault in the recogniser: say so instead of a bare 500
        current_app.logger.exception("the flip tracker failed on a video")
        raise ApiError(500, "the card reader failed on this video; nothing was changed") from None
    return landings, not frames.cut_short


class FirstFrames:
    """At most ``limit`` frames of ``source``, read within ``seconds``: bounds
    the work one upload costs, whatever its frames hold."""

    def __init__(self, source: Any, limit: int, seconds: float, clock: Any = time.monotonic) -> None:
        self.source, self.limit, self.total = source, limit, None
        self.seconds, self.clock = seconds, clock
        self.cut_short = False

    def __iter__(self) -> Any:
        deadline = self.clock() + self.seconds
        for index, frame in enumerate(self.source):
            if index >= self.limit or self.clock() > deadline:
                self.cut_short = True
                return
            yield frame

    def close(self) -> None:
        self.source.close()


# request reading ----------------------------------------------------------------------------


def _device(value: Any) -> str:
    if not isinstance(value, str) or not DEVICE.match(value):
        raise ApiError(400, "device must be 1 to 64 letters, digits, - or _ (one id per camera page)", "device")
    return value


def _capture_time(value: str | None) -> float | None:
    if value is None or value == "":
        return None
    try:
        captured = float(value)
    except ValueError:
        captured = float("nan")
    if not captured >= 0 or captured == float("inf"):
        raise ApiError(400, "t must be the capture time in milliseconds (a number ≥ 0)", "t")
    return captured


def _card(value: Any) -> Any:
    try:
        return event_from_json("card_revealed", {"card": value}).card
    except BadPayload as bad:
        raise ApiError(400, str(bad), "card") from None
