"""The seven helper cards, their order numbers, and how they move on.

>>> seating = HelperSeating.from_held([Helper.MATHIEU, Helper.LILLY, Helper.HENRI], oldest=0)
>>> [h.value for h in seating.spare]
['etienne', 'maurice', 'amelie', 'claude']
>>> [h.value for h in seating.passed_on().held]
['henri', 'etienne', 'lilly']
"""
from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from .errors import IllegalSetup, NotationError


class Helper(enum.Enum):
    ETIENNE = "etienne"
    HENRI = "henri"
    MATHIEU = "mathieu"
    MAURICE = "maurice"
    LILLY = "lilly"
    AMELIE = "amelie"
    CLAUDE = "claude"

    @property
    def title(self) -> str:
        """The name printed on the card: ``Amélie``."""
        return "Amélie" if self is Helper.AMELIE else self.value.capitalize()

    @property
    def animal(self) -> str:
        return _ANIMALS[self]

    @property
    def chooses(self) -> bool:
        """Whether the holder chooses how to use it on a combination (which
        card to lower, raise or recolour)."""
        return self in (Helper.MATHIEU, Helper.MAURICE, Helper.CLAUDE)

    @classmethod
    def from_name(cls, name: object) -> Helper:
        """Read a helper's name as the JSON contract writes it.

        >>> Helper.from_name("amelie").title
        'Amélie'
        """
        for helper in cls:
            if helper.value == name:
                return helper
        names = ", ".join(h.value for h in cls)
        raise NotationError(f"unknown helper {name!r} (one of {names})")

    def __repr__(self) -> str:
        return f"<Helper.{self.name}: {self.value!r}>"


_ANIMALS = {
    Helper.ETIENNE: "squirrel", Helper.HENRI: "hamster", Helper.MATHIEU: "dung beetle",
    Helper.MAURICE: "mole", Helper.LILLY: "bee", Helper.AMELIE: "ant", Helper.CLAUDE: "cockroach",
}
HELPERS: tuple[Helper, ...] = tuple(Helper)


@dataclass(frozen=True)
class HelperNumbers:
    """The order number printed on each helper card, all different.

    They decide the order of combinations and break ties in bids and in the
    final ranking. The sheet names two (Mathieu 5, Lilly 3); a table confirms
    the others from its own cards.

    >>> HelperNumbers.from_dict({"etienne": 1, "henri": 2, "lilly": 3, "maurice": 4,
    ...                          "mathieu": 5, "amelie": 6, "claude": 7})[Helper.CLAUDE]
    7
    """

    numbers: tuple[int, ...]  # in the order of :data:`HELPERS`

    def __post_init__(self) -> None:
        if len(self.numbers) != len(HELPERS):
            raise IllegalSetup(f"every one of the {len(HELPERS)} helpers needs its order number")
        if any(isinstance(n, bool) or not isinstance(n, int) or n < 1 for n in self.numbers):
            raise IllegalSetup("helper order numbers are whole numbers from 1 up")
        if len(set(self.numbers)) != len(self.numbers):
            raise IllegalSetup("two helpers cannot share an order number")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HelperNumbers:
        helpers = {Helper.from_name(name): number for name, number in data.items()}
        missing = [h.value for h in HELPERS if h not in helpers]
        if missing:
            raise IllegalSetup(f"no order number for {', '.join(missing)}")
        return cls(tuple(helpers[h] for h in HELPERS))

    def __getitem__(self, helper: Helper) -> int:
        return self.numbers[HELPERS.index(helper)]

    def as_dict(self) -> dict[str, int]:
        return {h.value: self[h] for h in HELPERS}

    def highest_first(self, helpers: Iterable[Helper]) -> list[Helper]:
        return sorted(helpers, key=self.__getitem__, reverse=True)


@dataclass(frozen=True)
class HelperSeating:
    """Who holds which helper, and the spare row beside the oldest player.

    ``held``: one helper per seat, seats in clockwise order, so each seat's
    left neighbour is the next seat. ``spare``: the row, leftmost first.
    """

    held: tuple[Helper, ...]
    spare: tuple[Helper, ...]
    oldest: int

    def __post_init__(self) -> None:
        if not 2 <= len(self.held) <= 6:
            raise IllegalSetup(f"Maus au Chocolat is played by 2 to 6 players, not {len(self.held)}")
        if not 0 <= self.oldest < len(self.held):
            raise IllegalSetup(f"the oldest player must be one of the {len(self.held)} seats")
        if sorted(self.held + self.spare, key=HELPERS.index) != list(HELPERS):
            raise IllegalSetup("each helper is held by one player or lies in the spare row, once")

    @classmethod
    def from_held(cls, held: Sequence[Helper], oldest: int, spare: Sequence[Helper] | None = None) -> HelperSeating:
        """Helpers per seat; the spare row defaults to the others in canonical order."""
        if spare is None:
            spare = [h for h in HELPERS if h not in held]
        return cls(tuple(held), tuple(spare), oldest)

    @classmethod
    def deal(cls, players: int, oldest: int, rng: random.Random) -> HelperSeating:
        """One helper to each player at random, the rest in the spare row."""
        shuffled = list(HELPERS)
        rng.shuffle(shuffled)
        return cls(tuple(shuffled[:players]), tuple(shuffled[players:]), oldest)

    def passed_on(self) -> HelperSeating:
        """The next round's helpers: each to the left neighbour, except the
        oldest player's, which goes to the right end of the spare row; the
        oldest player's left neighbour takes the leftmost spare helper."""
        n = len(self.held)
        row = self.spare + (self.held[self.oldest],)
        held = [self.held[(seat - 1) % n] for seat in range(n)]
        held[(self.oldest + 1) % n] = row[0]
        return HelperSeating(tuple(held), row[1:], self.oldest)
