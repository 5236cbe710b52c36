"""Counting ingredients: what an order needs, and a multiset of ingredient cards.

The face-up rows on the table, a player's ingredient hand cards and the used
pile are all an :class:`Ingredients` value. Amounts are in *units*: a double
card is one card but two units.
"""
from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from typing import Iterable, Mapping

from .errors import NotationError
from .vocabulary import INGREDIENTS, Ingredient, IngredientCard

Counts = tuple[int, int, int, int, int]
ZERO: Counts = (0, 0, 0, 0, 0)

_RUN = re.compile(r"^(\d+)?([SAMPO]2?)$")


def parse_ingredient_run(token: str) -> tuple[IngredientCard, int]:
    """Read ``3S`` (three salami) or ``S2`` (one double salami).

    >>> parse_ingredient_run("2M2")
    (IngredientCard.from_notation('M2'), 2)
    """
    match = _RUN.match(token)
    if not match:
        raise NotationError(f"{token!r} is not an ingredient card (like S, S2 or 3S)")
    count = int(match.group(1)) if match.group(1) else 1
    if count == 0:
        raise NotationError(f"{token!r}: a count must be at least 1")
    return IngredientCard.from_notation(match.group(2)), count


def _counts(values: Iterable[int]) -> Counts:
    result = tuple(values)
    if len(result) != 5 or any(v < 0 for v in result):
        raise ValueError(f"five non-negative counts expected, got {result}")
    return result  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Need:
    """Units an order asks for (or misses), per ingredient, plus ``any`` units
    of whatever kind (Pizza Bombastica).

    >>> Need.of({Ingredient.PINEAPPLE: 1}).describe()
    '1 pineapple'
    """

    units: Counts = ZERO
    any: int = 0

    @classmethod
    def of(cls, mapping: Mapping[Ingredient, int] | None = None, any: int = 0) -> Need:
        units = [0] * 5
        for ingredient, n in (mapping or {}).items():
            units[ingredient.index] += n
        return cls(_counts(units), any)

    def __getitem__(self, ingredient: Ingredient) -> int:
        return self.units[ingredient.index]

    @property
    def total(self) -> int:
        return sum(self.units) + self.any

    def __bool__(self) -> bool:
        return self.total > 0

    def items(self) -> list[tuple[Ingredient, int]]:
        """The ingredients with a positive amount, in canonical order."""
        return [(i, n) for i, n in zip(INGREDIENTS, self.units) if n > 0]

    def as_dict(self) -> dict[str, int]:
        """JSON form: ``{"pineapple": 1}``, or ``{"any": 3}`` for Bombastica."""
        result = {i.value: n for i, n in self.items()}
        if self.any:
            result["any"] = self.any
        return result

    def shortfall(self, table: Ingredients) -> Need:
        """What the face-up table does not cover."""
        units = (max(0, need - have) for need, have in zip(self.units, table.unit_counts))
        missing_any = max(0, self.any - table.total_units) if self.any else 0
        return Need(_counts(units), missing_any)

    def describe(self) -> str:
        parts = [f"{n} {i.value}" for i, n in self.items()]
        if self.any:
            parts.append(f"{self.any} of any ingredient")
        return " and ".join(parts) if parts else "nothing"


@dataclass(frozen=True, slots=True)
class Ingredients:
    """A multiset of ingredient cards: single and double cards per kind.

    >>> Ingredients.from_notation("2S S2 A").units(Ingredient.SALAMI)
    4
    """

    singles: Counts = ZERO
    doubles: Counts = ZERO

    # construction -----------------------------------------------------------

    @classmethod
    def from_cards(cls, cards: Iterable[IngredientCard]) -> Ingredients:
        singles, doubles = [0] * 5, [0] * 5
        for card in cards:
            (doubles if card.double else singles)[card.ingredient.index] += 1
        return cls(_counts(singles), _counts(doubles))

    @classmethod
    def from_notation(cls, text: str) -> Ingredients:
        text = text.strip()
        if text in ("", "-"):
            return cls()
        cards: list[IngredientCard] = []
        for token in text.split():
            card, count = parse_ingredient_run(token)
            cards.extend([card] * count)
        return cls.from_cards(cards)

    # reading ----------------------------------------------------------------

    def units(self, ingredient: Ingredient) -> int:
        i = ingredient.index
        return self.singles[i] + 2 * self.doubles[i]

    @property
    def unit_counts(self) -> Counts:
        return tuple(s + 2 * d for s, d in zip(self.singles, self.doubles))  # type: ignore[return-value]

    @property
    def total_units(self) -> int:
        return sum(self.singles) + 2 * sum(self.doubles)

    @property
    def card_count(self) -> int:
        return sum(self.singles) + sum(self.doubles)

    def count(self, card: IngredientCard) -> int:
        return (self.doubles if card.double else self.singles)[card.ingredient.index]

    def cards(self) -> list[IngredientCard]:
        """Every card, in canonical order, singles before doubles of a kind."""
        result: list[IngredientCard] = []
        for ingredient, s, d in zip(INGREDIENTS, self.singles, self.doubles):
            result += [IngredientCard(ingredient)] * s + [IngredientCard(ingredient, True)] * d
        return result

    def unit_map(self) -> dict[Ingredient, int]:
        return dict(zip(INGREDIENTS, self.unit_counts))

    def __bool__(self) -> bool:
        return self.card_count > 0

    # changing (each returns a new value) -------------------------------------

    def add(self, card: IngredientCard) -> Ingredients:
        counts = list(self.doubles if card.double else self.singles)
        counts[card.ingredient.index] += 1
        grown: Counts = tuple(counts)  # type: ignore[assignment]
        return Ingredients(self.singles, grown) if card.double else Ingredients(grown, self.doubles)

    def __add__(self, other: Ingredients) -> Ingredients:
        # sums of valid counts are valid: no re-check on this hot path
        return Ingredients(
            tuple(map(operator.add, self.singles, other.singles)),  # type: ignore[arg-type]
            tuple(map(operator.add, self.doubles, other.doubles)),  # type: ignore[arg-type]
        )

    def __sub__(self, other: Ingredients) -> Ingredients:
        singles = [a - b for a, b in zip(self.singles, other.singles)]
        doubles = [a - b for a, b in zip(self.doubles, other.doubles)]
        if min(singles + doubles) < 0:
            raise ValueError(f"cannot take {other.notation} from {self.notation}")
        return Ingredients(_counts(singles), _counts(doubles))

    def contains(self, other: Ingredients) -> bool:
        return all(a >= b for a, b in zip(self.singles + self.doubles, other.singles + other.doubles))

    # what an order takes ------------------------------------------------------

    def take_for(self, need: Need) -> Ingredients:
        """The face-up cards an order uses for ``need``.

        Doubles of a kind go first and may overpay (a needed 1 taken as a
        double uses 2); where the table is short, it gives all it has of that
        kind. ``need.any`` (Bombastica) takes every card.
        """
        if need.any:
            return self
        singles, doubles = [0] * 5, [0] * 5
        for i, wanted in enumerate(need.units):
            if wanted <= 0:
                continue
            doubles[i] = min(self.doubles[i], (wanted + 1) // 2)
            singles[i] = min(self.singles[i], max(0, wanted - 2 * doubles[i]))
        return Ingredients(_counts(singles), _counts(doubles))

    def cover(self, shortfall: Need) -> Ingredients | None:
        """Hand cards that make up ``shortfall``, or ``None`` if they can't.

        Spends as few units as possible: doubles for pairs, singles for the
        rest, a double only where no single is left (overpaying by one).
        """
        singles, doubles = list(self.singles), list(self.doubles)
        used_s, used_d = [0] * 5, [0] * 5

        def spend(kinds: Iterable[int], wanted: int) -> int:
            """Spend cards of ``kinds`` towards ``wanted`` units; return what is still missing."""
            kinds = tuple(kinds)
            for i in kinds:  # pairs: doubles
                n = min(doubles[i], wanted // 2)
                doubles[i], used_d[i], wanted = doubles[i] - n, used_d[i] + n, wanted - 2 * n
            for i in kinds:  # the rest: singles
                n = min(singles[i], wanted)
                singles[i], used_s[i], wanted = singles[i] - n, used_s[i] + n, wanted - n
            for i in kinds:  # no single left: a double overpays by one
                if wanted > 0 and doubles[i]:
                    doubles[i], used_d[i], wanted = doubles[i] - 1, used_d[i] + 1, wanted - 2
            return max(0, wanted)

        for i, wanted in enumerate(shortfall.units):
            if wanted and spend((i,), wanted):
                return None
        if shortfall.any and spend(range(5), shortfall.any):
            return None
        return Ingredients(_counts(used_s), _counts(used_d))

    # notation -------------------------------------------------------------------

    @property
    def notation(self) -> str:
        """``2S S2 3A``; ``-`` when empty."""
        tokens = []
        for ingredient, s, d in zip(INGREDIENTS, self.singles, self.doubles):
            if s:
                tokens.append(f"{s if s > 1 else ''}{ingredient.letter}")
            if d:
                tokens.append(f"{d if d > 1 else ''}{ingredient.letter}2")
        return " ".join(tokens) or "-"

    def __repr__(self) -> str:
        return f"Ingredients.from_notation({self.notation!r})"

    def __str__(self) -> str:
        return self.notation
