"""The readings of the rule sheet, as data.

Where the Dutch sheet leaves something open, RULES-MAUS.md chooses a
reading; each such point is a named option here, consulted in one place, so
another reading is a setting, not a rewrite.

============================  =========================  =====================================
option                        default                    the other reading
============================  =========================  =====================================
``colours``                   ``NOT_ALL_ONE``: two of a  ``ALL_DIFFERENT``: a mixed combination
                              colour and one other is    needs every card in its own colour;
                              "not all one colour"       two of a colour plus one is no
                                                         combination
``hand_limit``                ``WHEN_HAND_GROWS``: down  ``AT_ROUND_END``: down to 8 once the
                              to 8 as soon as a hand     round's combinations are laid
                              grows past it
``helper_values``             ``MAY_LEAVE_RANGE``: a 7   ``STAY_IN_RANGE``: values as laid stay
                              raised to 8, a 3 lowered   within the printed values
                              to 2
``tie_break``                 ``LAST_ROUND_HELPERS``:    ``PASSED_ON_HELPERS``: the helpers as
                              the helpers held in the    passed on at the end of that round
                              final round
============================  =========================  =====================================

Each choice has a short key (``not_all_one``, ``at_round_end``...) for
:meth:`MausRules.as_dict`. The last point is not marked in RULES-MAUS.md:
the sheet breaks a final tie by "the highest helper card at that moment",
and the helpers move on at the end of every round, so the moment is read
here as the final round's.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from .cards import Ingredient
from .errors import ColoursNotAllowed, IllegalSetup


class Colouring(enum.Enum):
    ONE = "one colour"
    MIXED = "mixed"


@dataclass(frozen=True)
class ColourReading:
    """What "not all one colour" covers."""

    key: str
    mixed_needs_all_different: bool

    def colouring(self, ingredients: Sequence[Ingredient]) -> Colouring:
        distinct = len(set(ingredients))
        if distinct == 1:
            return Colouring.ONE
        if self.mixed_needs_all_different and distinct != len(ingredients):
            raise ColoursNotAllowed(
                "the cards must be all one colour or all different colours (this table's reading)")
        return Colouring.MIXED


NOT_ALL_ONE = ColourReading("not_all_one", mixed_needs_all_different=False)
ALL_DIFFERENT = ColourReading("all_different", mixed_needs_all_different=True)


class HandLimitCheck(enum.Enum):
    """When a hand over the limit is brought back down to it."""

    WHEN_HAND_GROWS = "when_hand_grows"
    AT_ROUND_END = "at_round_end"


@dataclass(frozen=True)
class HelperValues:
    """Whether Mathieu and Maurice may take a value past the printed range."""

    key: str
    may_leave_range: bool

    def allows(self, value: int, values: Sequence[int]) -> bool:
        return self.may_leave_range or min(values) <= value <= max(values)


MAY_LEAVE_RANGE = HelperValues("may_leave_range", may_leave_range=True)
STAY_IN_RANGE = HelperValues("stay_in_range", may_leave_range=False)


class TieBreakHelpers(enum.Enum):
    """Whose helper decides a final tie: as held in the last round, or as passed on after it."""

    LAST_ROUND_HELPERS = "last_round_helpers"
    PASSED_ON_HELPERS = "passed_on_helpers"


@dataclass(frozen=True)
class MausRules:
    """One reading of the sheet: every open point chosen. Its dict form
    (option to choice, all text) travels with a stored game.

    >>> MausRules.from_dict({"colours": "all_different"}).as_dict()["colours"]
    'all_different'
    >>> MausRules.from_dict(STANDARD_RULES.as_dict()) == STANDARD_RULES
    True
    """

    name: str = field(default="own reading", compare=False)
    colours: ColourReading = NOT_ALL_ONE
    hand_limit: HandLimitCheck = HandLimitCheck.WHEN_HAND_GROWS
    helper_values: HelperValues = MAY_LEAVE_RANGE
    tie_break: TieBreakHelpers = TieBreakHelpers.LAST_ROUND_HELPERS

    def as_dict(self) -> dict[str, str]:
        return {"colours": self.colours.key, "hand_limit": self.hand_limit.value,
                "helper_values": self.helper_values.key, "tie_break": self.tie_break.value}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MausRules:
        """Options left out keep RULES-MAUS.md's reading."""
        chosen: dict[str, Any] = {}
        for option, value in data.items():
            if option not in CHOICES:
                raise IllegalSetup(f"unknown rule option {option!r} (one of {', '.join(CHOICES)})")
            if value not in CHOICES[option]:
                raise IllegalSetup(f"{option} may be {' or '.join(CHOICES[option])}, not {value!r}")
            chosen[option] = CHOICES[option][value]
        rules = cls(**chosen)
        return STANDARD_RULES if rules == STANDARD_RULES else rules


STANDARD_RULES = MausRules("RULES-MAUS.md")
CHOICES: dict[str, dict[str, Any]] = {
    "colours": {r.key: r for r in (NOT_ALL_ONE, ALL_DIFFERENT)},
    "hand_limit": {c.value: c for c in HandLimitCheck},
    "helper_values": {v.key: v for v in (MAY_LEAVE_RANGE, STAY_IN_RANGE)},
    "tie_break": {t.value: t for t in TieBreakHelpers},
}
