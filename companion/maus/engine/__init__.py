"""The Maus au Chocolat rules engine: pure Python, no I/O.

>>> from companion.maus.engine import Helper, judge, parse_cards
>>> verdict = judge(parse_cards("g3 g4 g6"), Helper.MATHIEU)
>>> verdict.best.points, verdict.best.use.describe()
(6, 'Mathieu lowers the green 6 to 5')
>>> judge(parse_cards("g3 g4 g6")).reason
'3-4-6 is neither a run (consecutive values) nor a set (equal values)'
"""
from .bidding import HENRI_BONUS, Pick, check_bids, picking_order
from .cards import INGREDIENTS, Card, Ingredient, format_cards, parse_cards
from .combination import HelperUse, Judgement, Scoring, judge, lay
from .deck import Deck
from .errors import (
    ColoursNotAllowed, IllegalBids, IllegalCard, IllegalCombination, IllegalHelperUse, IllegalSetup, MausError,
    NoCardLeft, NotationError, NotRunOrSet, OutOfTurn, WrongCardCount, WrongPhase,
)
from .events import (
    EVENT_TYPES, BadPayload, BidsRevealed, CombinationLaid, CombinationSkipped, Event, GameStarted, event_from_json,
)
from .game import MausGame, Phase, RoundRecord, Standing
from .helpers import HELPERS, Helper, HelperNumbers, HelperSeating
from .legality import Kind
from .rules import (
    ALL_DIFFERENT, MAY_LEAVE_RANGE, NOT_ALL_ONE, STANDARD_RULES, STAY_IN_RANGE, ColourReading, Colouring,
    HandLimitCheck, HelperValues, MausRules, TieBreakHelpers,
)

__all__ = [
    "ALL_DIFFERENT", "BadPayload", "BidsRevealed", "EVENT_TYPES", "Card", "ColourReading", "Colouring", "ColoursNotAllowed",
    "CombinationLaid", "CombinationSkipped", "Deck", "Event", "GameStarted", "HELPERS", "HENRI_BONUS",
    "HandLimitCheck", "Helper", "HelperNumbers", "HelperSeating", "HelperUse", "HelperValues", "INGREDIENTS",
    "IllegalBids", "IllegalCard", "IllegalCombination", "IllegalHelperUse", "IllegalSetup", "Ingredient",
    "Judgement", "Kind", "MAY_LEAVE_RANGE", "MausError", "MausGame", "MausRules", "NOT_ALL_ONE", "NoCardLeft",
    "NotRunOrSet", "NotationError", "OutOfTurn", "Phase", "Pick", "RoundRecord", "STANDARD_RULES",
    "STAY_IN_RANGE", "Scoring", "Standing", "TieBreakHelpers", "WrongCardCount", "WrongPhase", "check_bids",
    "event_from_json", "format_cards", "judge", "lay", "parse_cards", "picking_order",
]
