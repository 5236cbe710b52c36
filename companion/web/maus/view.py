"""What the table app shows of a :class:`MausGame`, as JSON-ready data: the
state the API sends and the pages draw.

Cards travel in notation (``"g5"``); helpers by name (``"mathieu"``); seats
by their index in the seating order (clockwise from the first name).

>>> from companion.maus.engine import GameStarted, Helper, HelperSeating, MausGame
>>> seating = HelperSeating.from_held([Helper.MATHIEU, Helper.LILLY, Helper.CLAUDE], oldest=0)
>>> game = MausGame(GameStarted(("Ann", "Bob", "Cy"), seating))
>>> state = maus_view(game)
>>> state["phase"], state["helper_order"], [p["hand"] for p in state["players"]]
('bidding', [2, 0, 1], [5, 5, 5])
"""
from __future__ import annotations

from typing import Any

from ...maus.engine import Judgement, MausGame, Phase, Pick, RoundRecord, Scoring
from ...maus.engine.jsonform import use_to_json

JSON = dict[str, Any]


def maus_view(game: MausGame) -> JSON:
    """Everything a page needs to draw the game now."""
    held = game.seating.held
    following = game.seating.passed_on().held
    return {
        "phase": game.phase.value,
        "round": game.round,
        "target": game.deck.target,
        "hand_limit": game.deck.hand_limit,
        "numbers": game.numbers.as_dict(),
        "oldest": game.seating.oldest,
        "spare": [h.value for h in game.seating.spare],
        "helper_order": game.helper_order,
        "players": [{
            "seat": seat,
            "name": name,
            "helper": held[seat].value,
            "order": game.numbers[held[seat]],
            "hand": game.hands[seat],
            "points": game.scores[seat],
            "kept": [c.notation for c in game.scored[seat]],
            "points_per_round": [r.scores[seat] for r in game.history],
            "next_helper": following[seat].value if game.phase is not Phase.OVER else None,
        } for seat, name in enumerate(game.players)],
        "picks": [pick_view(p) for p in game.picks],
        "laid": [laid_view(seat, scoring) for seat, scoring in game.laid],
        "next_to_lay": game.next_to_lay,
        "history": [round_view(r) for r in game.history],
        "ranking": ranking_view(game) if game.phase is Phase.OVER else None,
        "rules": game.rules.as_dict(),
    }


def pick_view(pick: Pick) -> JSON:
    return {"seat": pick.seat, "coins": pick.coins, "bonus": pick.bonus, "total": pick.total,
            "helper": pick.helper.value}


def scoring_view(scoring: Scoring) -> JSON:
    """One way to lay cards: what it is, what is kept, the points, the helper's part."""
    use = scoring.use
    return {
        "cards": [c.notation for c in scoring.cards],
        "laid": [c.notation for c in scoring.laid],
        "kind": scoring.kind.value,
        "single_colour": scoring.single_colour,
        "kept": [c.notation for c in scoring.kept],
        "discarded": [c.notation for c in scoring.discarded],
        "points": scoring.points,
        # the change to send back to lay it this way; ``printed``: the card before the change
        "change": _change(scoring),
        "use": None if use is None else {"helper": use.helper.value,
                                         "printed": use.printed.notation if use.printed else None,
                                         "laid_as": use.laid.notation if use.laid else None},
    }


def _change(scoring: Scoring) -> JSON | None:
    change = use_to_json(scoring.use)
    if change is not None and "laid_as" in change:
        change["laid_as"] = scoring.use.laid.notation  # type: ignore[union-attr]
    return change


def laid_view(seat: int, scoring: Scoring | None) -> JSON:
    return {"seat": seat, "skipped": scoring is None, **(scoring_view(scoring) if scoring else {})}


def judgement_view(judgement: Judgement) -> JSON:
    """Legal with every way, best first, or why not (``reason``: the
    refusal's kind, for the page's words; ``text``: the engine's own)."""
    if not judgement.legal:
        error = judgement.error
        return {"legal": False, "reason": type(error).__name__ if error else None,
                "text": judgement.reason, "options": []}
    return {"legal": True, "options": [scoring_view(s) for s in judgement.options]}


def round_view(record: RoundRecord) -> JSON:
    return {
        "round": record.round,
        "held": [h.value for h in record.held],
        "picks": [pick_view(p) for p in record.picks],
        "laid": [laid_view(seat, scoring) for seat, scoring in record.laid],
        "limit_discards": list(record.limit_discards),
        "scores": list(record.scores),
    }


def ranking_view(game: MausGame) -> list[JSON]:
    scores = game.scores
    return [{"place": s.place, "seat": s.seat, "name": s.name, "points": s.points, "helper": s.helper.value,
             "tie_break": scores.count(s.points) > 1} for s in game.ranking()]
