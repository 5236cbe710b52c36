"""Faces of a taught deck that do not fit the others: a picture cut inside
the card's edge, out over the table or across the card, which the checks
of one picture alone let through.

A printing's faces of one kind share their layout (every order has the
same frame, heading and panel, say), so the deck itself shows how a face
should be cut: a face that had to be moved onto its family's common cut
(:mod:`.discern`), or an order that looks like none of the other orders,
was most likely cut wrongly, and every reading of its card would suffer.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Iterable

import numpy as np

from companion.engine import Card, Order

from .capture import Problem
from .config import DEFAULT_CONFIG, VisionConfig
from .identify import ReferenceDeck

MOVED = "cut differently from the other cards like it (inside its edge, or out over the table)"
ALONE = "looks like none of the other {kind}: the card may be cut across, or another card"


def misfits(deck: ReferenceDeck) -> dict[Card, str]:
    """The faces of ``deck`` that look wrongly cut, each with why."""
    config, fine = deck.config, deck.fine
    found: dict[Card, str] = {}
    if fine is None:
        return found
    limit = config.fine_misfit_shift * config.fine_size[0]
    for index, card in enumerate(deck.cards):
        family = fine.family_of(index)
        if family is not None and family.shifts[family.members.index(index)] >= limit:
            found[card] = MOVED
    for kind, members in _kinds(deck.cards).items():
        groups = [fine.family_of(i) for i in members]
        sizes = {id(g): sum(1 for h in groups if h is g) for g in groups if g is not None}
        if not sizes or max(sizes.values()) < config.fine_misfit_share * len(members):
            continue  # no common look among them to hold a face to
        common = max(sizes, key=sizes.get)
        for index, group in zip(members, groups):
            if group is None or id(group) != common:
                found.setdefault(deck.cards[index], ALONE.format(kind=kind))
    return found


def misfits_among(faces: Iterable[tuple[Card, np.ndarray]], config: VisionConfig = DEFAULT_CONFIG) -> dict[Card, str]:
    """:func:`misfits` of the deck ``faces`` make, built only as finely as a
    face's cut is judged: taught faces are registered at the size readings
    are aligned at (``config.fine_align``), and the finer frame readings are
    compared in, which costs about a second more for a deck of 51, tells
    nothing about a cut. Teaching checks every order this way as it comes."""
    return misfits(ReferenceDeck.from_faces(faces, replace(config, fine_size=config.fine_align.template)))


MISFIT = Problem("misfit", "this card looks cut differently from the other cards like it",
                 "take it again on a plain table, the whole card in view, from straight above")


def fits(faces: Iterable[tuple[Card, np.ndarray]], card: Card) -> bool:
    """Whether ``card``'s face fits beside the others of ``faces`` (its own
    among them), when there are enough of its kind to tell."""
    faces = list(faces)
    if not isinstance(card, Order) or sum(isinstance(c, Order) for c, _ in faces) < MIN_KIND:
        return True
    return card not in misfits_among(faces)


def _kinds(cards: tuple[Card, ...]) -> dict[str, list[int]]:
    """The deck's indices by the kind of card that shares one layout in a
    printing: the orders (the five ingredient cards differ in their one big
    topping, and may well not look alike at all)."""
    orders = [index for index, card in enumerate(cards) if isinstance(card, Order)]
    return {"orders": orders} if len(orders) >= MIN_KIND else {}


MIN_KIND = 10  # fewer faces of a kind than this show no common look to hold one to
