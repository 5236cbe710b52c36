"""Camera readings judged with what the game already knows.

The recogniser says which card it sees, how sure it is and what else the
card might be (:class:`~vision.recognize.types.Match`). The game knows which
cards can still come next (:class:`~companion.engine.legality.NextCard`): a
colour nobody plays, an order already delivered or already on the pile this
round, a double without the variant, one copy too many. A reading is judged
among the cards still possible:

* a card the rules rule out is never proposed: the likeliest possible card
  is, and the player is offered the next few in order of likelihood;
* when the vision's own card is possible, its sureness is the recogniser's
  rule applied among the possible cards: a close face the closer look could
  not rule out counts only if it is possible, and the margin is taken over
  the most similar possible card; so a reading whose only close rival is
  ruled out by the rules can become sure;
* when the vision's own card is ruled out, the card proposed instead was
  never compared with its own close faces, so it is never sure: the player
  confirms it with a tap.

>>> from vision.recognize.types import Match
>>> from companion.engine import Color, Deck, NextCard, parse_card
>>> upcoming = NextCard(Deck.for_players(2), (Color.GREEN, Color.RED))
>>> unsure = Match(parse_card("y:15+"), 0.9, False, parse_card("g:15+"), 0.9, (parse_card("g:15+"),),
...                ((parse_card("O"), 0.3),))
>>> judge(unsure, lambda match: True, upcoming.can_be)  # yellow is not at the table
Reading(g:15+, unsure, candidates g:15+ O)
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable

from vision.recognize.types import Match

from ..engine.cards import Card
from ..engine.legality import NextCard
from .mammamia.words import rules_refusal

MAX_CANDIDATES = 4  # the chooser's buttons: the likeliest few, then "something else" (the pad)

Possible = Callable[[Card], bool]


@dataclass(frozen=True)
class Reading:
    """A reading judged among the possible cards: the card proposed (the
    first of ``candidates``, the likeliest possible ones), whether it needs
    no confirmation, and the vision's own card when the rules ruled it out."""

    match: Match  # the recogniser's, with its card, runner-up, candidates and others among the possible cards
    sure: bool
    candidates: tuple[Card, ...]
    ruled_out: Card | None = None

    @property
    def card(self) -> Card:
        return self.match.card

    @property
    def confidence(self) -> float:
        return self.match.confidence

    @property
    def runner_up(self) -> Card | None:
        return self.match.runner_up

    def __repr__(self) -> str:
        cards = " ".join(c.notation for c in self.candidates)
        return f"Reading({self.card.notation}, {'sure' if self.sure else 'unsure'}, candidates {cards})"


def judge(match: Match, is_sure: Callable[[Match], bool], possible: Possible | None = None) -> Reading | None:
    """``match`` judged among the cards ``possible`` says can come next (all
    cards when ``None``) with the recogniser's rule ``is_sure``; ``None``
    when no card it might be is possible."""
    can_be = possible or (lambda card: True)
    rivals = [(c, s) for c, s in match.rivals if c != match.card and can_be(c)]
    if can_be(match.card):
        card, confidence, ruled_out = match.card, match.confidence, None
    elif rivals:
        (card, confidence), rivals, ruled_out = rivals[0], rivals[1:], match.card
    else:
        return None
    runner_up, runner_up_confidence = rivals[0] if rivals else (None, 0.0)
    among = replace(match, card=card, confidence=confidence, runner_up=runner_up,
                    runner_up_confidence=runner_up_confidence,
                    candidates=tuple(c for c in match.candidates if c != card and can_be(c)),
                    others=tuple((c, s) for c, s in match.others if c != card and can_be(c)))
    candidates = (card, *(c for c, _ in rivals))[:MAX_CANDIDATES]
    return Reading(among, ruled_out is None and bool(is_sure(among)), candidates, ruled_out)


def judge_sequence(matches: Iterable[Match], is_sure: Callable[[Match], bool],
                   upcoming: NextCard | None) -> list[Reading | None]:
    """Readings of cards revealed one after another (a video's), each judged
    as if the cards before it were the ones proposed for them."""
    judged: list[Reading | None] = []
    for match in matches:
        reading = judge(match, is_sure, upcoming.can_be if upcoming else None)
        judged.append(reading)
        if reading is not None and upcoming is not None:
            upcoming = upcoming.after(reading.card)
    return judged


def reading_json(reading: Reading) -> dict[str, Any]:
    """One camera reading as the API gives it: the card proposed, how
    confident, the runner-up, whether it needs the player's confirmation,
    and the candidates to offer (the card first, at most
    :data:`MAX_CANDIDATES`), likeliest first."""
    match = reading.match
    return {"card": reading.card.notation, "confidence": round(float(match.confidence), 3),
            "runner_up": reading.runner_up.notation if reading.runner_up else None,
            "runner_up_confidence": round(float(match.runner_up_confidence), 3), "sure": reading.sure,
            "candidates": [c.notation for c in reading.candidates]}


def refusal_json(match: Match, upcoming: NextCard | None) -> dict[str, Any]:
    """Why the vision's card cannot come next, as the camera answer lists it."""
    reason = upcoming.why_not(match.card) if upcoming is not None else None
    return {"card": match.card.notation, "reason": rules_refusal(reason) if reason else "not a card of this game"}
