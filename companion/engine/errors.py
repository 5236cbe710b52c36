"""Why the engine refuses something.

Every refusal is a ``ValueError`` subclass whose message a player understands,
so a caller can catch ``ValueError`` broadly or one reason precisely.
"""


class RulesError(ValueError):
    """Base of everything the engine refuses."""


class NotationError(RulesError):
    """Text that is not valid card notation."""


class IllegalCard(RulesError):
    """A card that does not exist in the deck in play."""


class ColorNotAtTable(IllegalCard):
    """An order of a colour nobody at this table plays."""


class DuplicateOrder(IllegalCard):
    """The same order card seen twice, or an order already delivered."""


class TooManyIngredients(IllegalCard):
    """More cards of an ingredient than the deck in play holds: ``card`` would
    be the ``nth`` of its kind, where a ``players``-player game has ``limit``.
    The facts let a caller say it in another language."""

    def __init__(self, message: str, card: object = None, nth: int = 0, limit: int = 0, players: int = 0) -> None:
        super().__init__(message)
        self.card, self.nth, self.limit, self.players = card, nth, limit, players


class MammaMiaInPile(IllegalCard):
    """The Mamma Mia! card never goes into the oven pile."""


class IllegalChoice(RulesError):
    """A Monotoni joker or Minimale ingredient the rules do not allow."""


class IllegalHandCards(RulesError):
    """Hand cards that do not cover what an order is missing."""


class NoPendingOrder(RulesError):
    """A decision given while no order waits for one."""


class OrderPending(RulesError):
    """A card revealed while an order still waits for its owner's decision."""


class PileExhausted(RulesError):
    """A reveal asked for when the oven pile is empty."""


class IllegalTurn(RulesError):
    """A phase-1 turn the rules do not allow."""


class WrongPhase(RulesError):
    """An action that does not belong in the game's current phase."""


class IllegalSetup(RulesError):
    """A table the game cannot be set up for (player count, colours)."""
