"""Judging a laid combination: legal or why not, what is kept, the points,
and for Mathieu, Maurice and Claude every legal use of the helper.

>>> best = judge(parse_cards("b4 b5 r6"), Helper.CLAUDE).best
>>> best.points, format_cards(best.kept), best.use
(6, 'r6', HelperUse.from_notation('claude r6>b6'))

Which card is lowest or highest is decided by the values as laid (after
Mathieu or Maurice); the points are the printed values.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

from .cards import INGREDIENTS, Card, format_cards, parse_cards
from .deck import Deck
from .errors import IllegalCombination, IllegalHelperUse, NotationError
from .helpers import Helper
from .legality import Kind, check_cards, check_colours, check_count, check_hand_left, check_shape
from .rules import STANDARD_RULES, Colouring, MausRules


@dataclass(frozen=True)
class HelperUse:
    """What the holder's helper did to a combination.

    Mathieu, Maurice and Claude change one card (``index`` in laying order,
    ``laid`` the card as laid); Lilly and Amélie change how it scores.

    >>> HelperUse.from_notation("mathieu g6>g5").laid.value
    5
    """

    helper: Helper
    index: int | None = None
    laid: Card | None = None
    printed: Card | None = None

    @property
    def notation(self) -> str:
        if self.printed is None or self.laid is None:
            return self.helper.value
        return f"{self.helper.value} {self.printed.notation}>{self.laid.notation}"

    @classmethod
    def from_notation(cls, text: str, index: int | None = None) -> HelperUse:
        name, _, change = text.partition(" ")
        helper = Helper.from_name(name)
        if not change:
            return cls(helper)
        printed, sep, laid = change.partition(">")
        if not sep:
            raise NotationError(f"{text!r}: a change is written printed>laid, like mathieu g6>g5")
        return cls(helper, index, Card.from_notation(laid), Card.from_notation(printed))

    def describe(self) -> str:
        if self.laid is None or self.printed is None:
            return {Helper.LILLY: "Lilly: the mixed run scores as one colour",
                    Helper.AMELIE: "Amélie: four cards, one more kept"}.get(self.helper, self.helper.title)
        if self.laid.value != self.printed.value:
            verb = "lowers" if self.laid.value < self.printed.value else "raises"
            return f"{self.helper.title} {verb} the {self.printed.describe()} to {self.laid.value}"
        return f"{self.helper.title} makes the {self.printed.describe()} {self.laid.ingredient.value}"

    def __repr__(self) -> str:
        return f"HelperUse.from_notation({self.notation!r})"


@dataclass(frozen=True)
class Scoring:
    """One legal way to lay the cards, and what it scores."""

    cards: tuple[Card, ...]   # as printed, in laying order
    laid: tuple[Card, ...]    # as laid (after the helper's change)
    kind: Kind
    single_colour: bool
    kept_indices: tuple[int, ...]
    use: HelperUse | None

    @property
    def kept(self) -> tuple[Card, ...]:
        return tuple(self.cards[i] for i in self.kept_indices)

    @property
    def discarded(self) -> tuple[Card, ...]:
        return tuple(c for i, c in enumerate(self.cards) if i not in self.kept_indices)

    @property
    def points(self) -> int:
        return sum(card.value for card in self.kept)

    @property
    def outcome(self) -> tuple[object, ...]:
        """What the table sees: two ways with the same outcome are one option."""
        return self.kind, self.single_colour, tuple(sorted(self.kept, key=str)), self.points

    def __repr__(self) -> str:
        use = f", {self.use.notation}" if self.use else ""
        return f"<Scoring {format_cards(self.cards)}: {self.kind.value}{use}, keep {format_cards(self.kept)}, {self.points} points>"


@dataclass(frozen=True)
class Judgement:
    """The verdict on some cards: legal with every way to lay them, best
    first, or illegal with the reason (``error``, a specific subclass)."""

    cards: tuple[Card, ...]
    helper: Helper | None
    options: tuple[Scoring, ...] = ()
    error: IllegalCombination | None = None

    @property
    def legal(self) -> bool:
        return bool(self.options)

    @property
    def best(self) -> Scoring | None:
        return self.options[0] if self.options else None

    @property
    def reason(self) -> str | None:
        return None if self.error is None else str(self.error)

    def __repr__(self) -> str:
        verdict = repr(self.best) if self.best else f"illegal: {self.reason}"
        return f"<Judgement {verdict}>"


def judge(cards: Sequence[Card], helper: Helper | None = None, hand_after: int | None = None,
          rules: MausRules = STANDARD_RULES, deck: Deck | None = None) -> Judgement:
    """Judge cards laid by the holder of ``helper``; raises only for a card
    the deck does not have (:class:`IllegalCard`)."""
    cards, deck = tuple(cards), deck or Deck.load()
    check_cards(cards, deck)
    try:
        check_count(cards, helper)
        check_hand_left(hand_after)
    except IllegalCombination as error:
        return Judgement(cards, helper, error=error)
    ways, error = _legal_ways(cards, helper, deck, rules)
    if not ways:
        return Judgement(cards, helper, error=error)
    return Judgement(cards, helper, tuple(sorted(ways, key=lambda w: -w.points)))


def lay(cards: Sequence[Card], helper: Helper | None = None, change: HelperUse | None = None,
        hand_after: int | None = None, rules: MausRules = STANDARD_RULES, deck: Deck | None = None) -> Scoring:
    """The checked entry point: lay ``cards`` with the helper's ``change``
    (``None``: no card changed; any ``Scoring.use`` the judge offered is
    accepted) or raise why it is not allowed."""
    cards, deck = tuple(cards), deck or Deck.load()
    check_cards(cards, deck)
    check_count(cards, helper)
    check_hand_left(hand_after)
    laid = cards if change is None else _changed(cards, helper, change, deck, rules)
    return _score(cards, laid, helper, change, rules)


def _legal_ways(cards: tuple[Card, ...], helper: Helper | None, deck: Deck,
                rules: MausRules) -> tuple[list[Scoring], IllegalCombination | None]:
    ways: dict[tuple[object, ...], Scoring] = {}
    plain_error: IllegalCombination | None = None
    for change, laid in _variants(cards, helper, deck, rules):
        try:
            way = _score(cards, laid, helper, change, rules)
        except IllegalCombination as error:
            plain_error = plain_error or error
            continue
        ways.setdefault(way.outcome, way)  # the first way to an outcome: as printed, then by card
    if not ways and plain_error is not None and helper is not None and helper.chooses:
        plain_error = type(plain_error)(f"{plain_error}, and {helper.title} cannot make it a combination")
    return list(ways.values()), plain_error


def _variants(cards: tuple[Card, ...], helper: Helper | None, deck: Deck,
              rules: MausRules) -> Iterator[tuple[HelperUse | None, tuple[Card, ...]]]:
    """The cards as printed, then every change the helper can make."""
    yield None, cards
    for index, card in enumerate(cards):
        for laid in _changes(card, helper, deck, rules):
            yield HelperUse(helper, index, laid, card), cards[:index] + (laid,) + cards[index + 1:]  # type: ignore[arg-type]


def _changes(card: Card, helper: Helper | None, deck: Deck, rules: MausRules) -> list[Card]:
    if helper in (Helper.MATHIEU, Helper.MAURICE):
        value = card.value + (-1 if helper is Helper.MATHIEU else 1)
        return [card.with_value(value)] if rules.helper_values.allows(value, deck.values) else []
    if helper is Helper.CLAUDE:
        return [card.with_ingredient(i) for i in INGREDIENTS if i is not card.ingredient]
    return []


def _changed(cards: tuple[Card, ...], helper: Helper | None, change: HelperUse, deck: Deck,
             rules: MausRules) -> tuple[Card, ...]:
    if change.helper is not helper:
        raise IllegalHelperUse(f"{change.helper.title} is not the helper this player holds")
    if change.laid is None and not helper.chooses:  # Lilly and Amélie change no card: a judged use laid back
        return cards
    if change.index is None or not 0 <= change.index < len(cards) or change.laid is None:
        raise IllegalHelperUse(f"{change.helper.title} changes one of the laid cards; say which")
    card = cards[change.index]
    if change.laid not in _changes(card, helper, deck, rules):
        raise IllegalHelperUse(f"{change.helper.title} cannot lay the {card.describe()} as {change.laid.describe()}")
    return cards[:change.index] + (change.laid,) + cards[change.index + 1:]


def _score(cards: tuple[Card, ...], laid: tuple[Card, ...], helper: Helper | None,
           change: HelperUse | None, rules: MausRules) -> Scoring:
    kind = check_shape(laid)
    one_colour = check_colours(laid, rules) is Colouring.ONE
    lilly = helper is Helper.LILLY and kind is Kind.RUN and not one_colour
    kept = _kept(cards, laid, kind, one_colour or lilly)
    use = change or (HelperUse(Helper.LILLY) if lilly else HelperUse(Helper.AMELIE) if len(cards) == 4 else None)
    return Scoring(cards, laid, kind, one_colour, kept, use)


def _kept(cards: tuple[Card, ...], laid: tuple[Card, ...], kind: Kind, scores_as_one_colour: bool) -> tuple[int, ...]:
    """Indices kept: a run's lowest (highest if one colour), a set's best one
    (two if one colour); with four cards also the lowest still available."""
    lowest_first = sorted(range(len(cards)), key=lambda i: (laid[i].value, cards[i].value, i))
    if kind is Kind.RUN:
        kept = [lowest_first[-1] if scores_as_one_colour else lowest_first[0]]
    else:
        best_first = sorted(range(len(cards)), key=lambda i: (-cards[i].value, i))
        kept = best_first[:2 if scores_as_one_colour else 1]
    if len(cards) == 4:
        kept.append(next(i for i in lowest_first if i not in kept))
    return tuple(sorted(kept))


__all__ = ["HelperUse", "Judgement", "Scoring", "judge", "lay", "parse_cards"]
