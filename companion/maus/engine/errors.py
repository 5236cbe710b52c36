"""Why the Maus au Chocolat engine refuses something.

Every refusal is a ``ValueError`` subclass whose message a player
understands, so a caller can catch ``ValueError`` broadly or one reason
precisely. Combination refusals share :class:`IllegalCombination`.
"""


class MausError(ValueError):
    """Base of everything the Maus au Chocolat engine refuses."""


class NotationError(MausError):
    """Text or a name that is not valid card notation."""


class IllegalCard(MausError):
    """A card that does not exist in the deck in play (a sweet value of 9)."""


class IllegalCombination(MausError):
    """Cards that may not be laid as a combination."""


class WrongCardCount(IllegalCombination):
    """Not three cards (or four with Amélie)."""


class NoCardLeft(IllegalCombination):
    """Laying the cards would leave the player's hand empty."""


class NotRunOrSet(IllegalCombination):
    """Values as laid that are neither consecutive nor equal."""


class ColoursNotAllowed(IllegalCombination):
    """Colours that make neither a one-colour nor a mixed combination."""


class IllegalHelperUse(IllegalCombination):
    """A helper used in a way its card does not allow."""


class IllegalSetup(MausError):
    """A table the game cannot be set up for (players, helpers, numbers)."""


class IllegalBids(MausError):
    """Bids that are not one coin count per player."""


class OutOfTurn(MausError):
    """A player acting while another player's turn comes first."""


class WrongPhase(MausError):
    """An action that does not belong in the game's current phase."""
