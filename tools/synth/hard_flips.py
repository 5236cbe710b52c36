"""Flip videos as hard as a real table: the set the tracker is judged on.

The first synthetic flip videos (:func:`~tools.synth.flip_plan.plan_flip_video`,
kept as a regression set) were easier than a real pile in four ways:

- each card landed with its own offset and turn drawn around the pile's
  centre (4 mm and 7 degrees, standard deviation), so two cards in a row lay
  about 6 mm and 10 degrees apart: their outlines alone told them apart;
- no card was ever laid turned half round, while a player turns cards over
  either way;
- every hand of a video came from the same side;
- runs came only as the bots played them, and doubles seldom followed one
  another.

Here cards land a few millimetres and degrees from the pile's middle, a
quarter of them almost exactly on the card below (a careful player), one in
six turned half round; each hand comes from any of the four sides; and the
sequence is made of runs of 2-5 identical ingredients, streaks of doubles
of different kinds and the cards of a bot game between them.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from companion.engine import Card, IngredientCard, INGREDIENTS, one_of_a_kind

from tools.synth.backgrounds import TABLE_KINDS
from tools.synth.flip_plan import (
    ALL_SIDES, Flip, FlipPlan, entry_direction, flip_timing, offscreen_start, sample_camera, sample_look,
)
from tools.synth.piles import simulated_pile
from vision.geometry import Camera, CardPose


@dataclass(frozen=True)
class Landing:
    """How cards land on the pile (mm and degrees)."""

    offset_mm: float = 2.0     # standard deviation of the offset from the pile's middle
    turn_deg: float = 3.0      # ... and of the turn from the pile's angle
    neat_share: float = 0.25   # cards laid almost exactly on the one below ...
    neat_mm: float = 0.6       # ... within this much
    neat_deg: float = 0.6      # ... and this many degrees
    half_turn_share: float = 1 / 6  # cards laid turned half round


HARD_LANDING = Landing()


def hard_sequence(length: int, rng: random.Random) -> list[Card]:
    """``length`` cards: runs of 2-5 identical ingredient cards, streaks of
    2-4 doubles of different kinds, and stretches of a bot game's pile (each
    order and the Mamma Mia! card at most once, as in a game)."""
    pile: list[Card] = []
    doubles = [IngredientCard(i, double=True) for i in INGREDIENTS]
    while len(pile) < length:
        roll = rng.random()
        if roll < 0.45:
            pile += [IngredientCard(rng.choice(INGREDIENTS))] * rng.randint(2, 5)
        elif roll < 0.6:
            pile += rng.sample(doubles, rng.randint(2, 4))
        else:
            game = simulated_pile(rng.randrange(2**32), rng.randint(2, 5), rng.random() < 0.5)
            start = rng.randrange(max(1, len(game) - 3))
            # another game's stretch may hold an order (or the Mamma Mia! card) this pile already holds: a
            # game has one of each, so the pile can never show it twice
            pile += [card for card in game[start:start + rng.randint(1, 4)]
                     if not (one_of_a_kind(card) and card in pile)]
    return pile[:length]


def landing_pose(below: CardPose | None, pile_angle: float, rng: np.random.Generator,
                 landing: Landing = HARD_LANDING) -> CardPose:
    """Where the next card lands: near the pile's middle, or almost exactly on ``below``."""
    if below is not None and rng.random() < landing.neat_share:
        x, y = below.x + rng.uniform(-1, 1) * landing.neat_mm, below.y + rng.uniform(-1, 1) * landing.neat_mm
        angle = below.angle + rng.uniform(-1, 1) * landing.neat_deg
    else:
        x, y = rng.normal(0, landing.offset_mm, 2)
        angle = pile_angle + rng.normal(0, landing.turn_deg)
    if rng.random() < landing.half_turn_share:
        angle += 180
    return CardPose(float(x), float(y), float(angle))


def hand_grip(camera: Camera, pose: CardPose, side: str, rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """The direction (on the table) a hand from ``side`` comes from, and the
    side of the card it holds (degrees from the card's own x axis)."""
    direction = entry_direction(camera, side)
    toward = math.degrees(math.atan2(direction[1], direction[0])) + rng.uniform(-15, 15)
    return direction, toward - pose.angle


def plan_hard_flip_video(cards: Sequence[Card], rng: np.random.Generator, size: tuple[int, int] = (960, 540),
                         fps: float = 15.0, fast_share: float = 0.25, pause_scale: float = 0.6,
                         landing: Landing = HARD_LANDING) -> FlipPlan:
    """Camera, table, and every card's pose, hand and timing (see the module doc)."""
    camera = sample_camera(size, rng)
    pile_angle = float(rng.uniform(-180, 180))
    fast = rng.random(len(cards)) < fast_share
    frame = int(rng.integers(4, 12))
    flips: list[Flip] = []
    for card, quick in zip(cards, fast):
        enter, hold, leave, pause = flip_timing(bool(quick), rng, pause_scale)
        pose = landing_pose(flips[-1].pose if flips else None, pile_angle, rng, landing)
        side = str(rng.choice(ALL_SIDES))
        direction, grip = hand_grip(camera, pose, side, rng)
        start = offscreen_start(camera, pose, direction)
        settled = frame + enter
        released = settled + hold
        flips.append(Flip(card, pose, start, frame, settled, released, released + leave, bool(quick), grip))
        frame = released + leave + pause
    away = rng.uniform(0, 2 * math.pi)
    stock = CardPose(95 * math.cos(away), 95 * math.sin(away), pile_angle + rng.normal(0, 5))
    look = sample_look(size, rng)
    return FlipPlan(size, fps, TABLE_KINDS[int(rng.integers(len(TABLE_KINDS)))], camera, look, "any",
                    tuple(flips), frame + int(rng.integers(6, 15)), stock)
