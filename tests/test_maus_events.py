"""A Maus au Chocolat game's events in JSON, as a stored log keeps them."""
import json

import pytest

from companion.maus.engine import (
    BadPayload, BidsRevealed, CombinationLaid, CombinationSkipped, GameStarted, Helper, HelperNumbers,
    HelperSeating, HelperUse, HandLimitCheck, MausGame, MausRules, STANDARD_RULES, event_from_json, parse_cards,
)

H = Helper
NUMBERS = HelperNumbers.from_dict({"etienne": 7, "henri": 6, "mathieu": 5, "maurice": 4, "lilly": 3, "amelie": 2,
                                   "claude": 1})
EVENTS = [
    GameStarted(("Ann", "Bob", "Cy"), HelperSeating.from_held([H.MATHIEU, H.LILLY, H.CLAUDE], 1,
                                                               [H.AMELIE, H.HENRI, H.MAURICE, H.ETIENNE]), NUMBERS,
                MausRules.from_dict({"hand_limit": "at_round_end"})),
    BidsRevealed((2, 4, 2)),
    CombinationLaid(0, parse_cards("g3 g4 g6"), HelperUse.from_notation("mathieu g6>g5", 2)),
    CombinationLaid(1, parse_cards("b4 b5 r6")),
    CombinationSkipped(2),
    BidsRevealed((0, 1, 5)),
]


def through_json(event):
    text = json.dumps({"type": event.type, "payload": event.payload()})
    stored = json.loads(text)
    return event_from_json(stored["type"], stored["payload"])


def test_every_event_survives_its_json_form():
    assert [through_json(e) for e in EVENTS] == EVENTS


def test_a_replayed_log_is_the_same_game():
    game = MausGame.replay([through_json(e) for e in EVENTS])
    assert game.scores == [6, 6, 0] and game.round == 2 and game.numbers == NUMBERS
    # Bob is oldest: his Lilly goes to the spare row, Cy takes its leftmost (Amélie)
    assert game.seating.held == (H.CLAUDE, H.MATHIEU, H.AMELIE)
    assert game.seating.spare == (H.HENRI, H.MAURICE, H.ETIENNE, H.LILLY)
    assert game.picks[0].seat == 2 and game.hands == [4, 4, 7]
    assert game.rules.hand_limit is HandLimitCheck.AT_ROUND_END


def test_a_log_without_rules_plays_rules_maus():
    payload = EVENTS[0].payload()
    del payload["rules"]
    assert event_from_json("game_started", payload).rules is STANDARD_RULES


@pytest.mark.parametrize("type_, payload, field", [
    ("dealt", {}, "type"),
    ("game_started", {"players": ["Ann", ""], "held": ["mathieu", "lilly"], "spare": [], "oldest": 0}, "players"),
    ("game_started", {"players": ["Ann", "Bob"], "held": ["mathieu", "nestor"], "spare": [], "oldest": 0}, "held"),
    ("game_started", {"players": ["Ann", "Bob"], "held": ["mathieu", "lilly"], "spare": [], "oldest": 0}, "held"),
    ("game_started", {"players": ["Ann", "Bob"], "held": ["mathieu", "lilly"],
                      "spare": ["etienne", "henri", "maurice", "amelie", "claude"], "oldest": -1}, "oldest"),
    ("game_started", {"players": ["Ann", "Bob"], "held": ["mathieu", "lilly"],
                      "spare": ["etienne", "henri", "maurice", "amelie", "claude"], "oldest": 0,
                      "numbers": {"mathieu": 5}}, "numbers"),
    ("game_started", {"players": ["Ann", "Bob"], "held": ["mathieu", "lilly"],
                      "spare": ["etienne", "henri", "maurice", "amelie", "claude"], "oldest": 0,
                      "rules": {"colours": "two_and_one"}}, "rules"),
    ("bids_revealed", {"coins": [1, -2]}, "coins"),
    ("bids_revealed", {"coins": "1 2"}, "coins"),
    ("combination_laid", {"seat": 0, "cards": ["g3", "g4", "g9x"]}, "cards"),
    ("combination_laid", {"seat": "0", "cards": ["g3", "g4", "g5"]}, "seat"),
    ("combination_laid", {"seat": 0, "cards": ["g3", "g4", "g6"], "change": {"helper": "mathieu", "card": 3,
                                                                             "laid_as": "g5"}}, "change.card"),
    ("combination_laid", {"seat": 0, "cards": ["g3", "g4", "g6"], "change": "mathieu g6>g5"}, "change"),
    ("combination_skipped", {"seat": True}, "seat"),
])
def test_a_bad_payload_names_its_field(type_, payload, field):
    with pytest.raises(BadPayload) as error:
        event_from_json(type_, payload)
    assert error.value.field == field
