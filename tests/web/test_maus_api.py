"""Maus au Chocolat through the JSON API: set-up, bids, combinations in
helper order, the verdict before laying, the end at 30, undo and exports."""
from __future__ import annotations

import csv
import io

import pytest

from companion.web.i18n import COOKIE
from tests.web.maus_support import THREE, MausTable


@pytest.fixture
def maus(client) -> MausTable:
    return MausTable(client)


def test_a_new_game_starts_with_five_cards_and_the_helper_order(maus):
    state = maus.state
    assert state["kind"] == "maus" and state["phase"] == "bidding" and state["round"] == 1
    assert [p["hand"] for p in state["players"]] == [5, 5, 5]
    # Claude 7, Mathieu 5, Lilly 3 (the stand-in numbers): Cy lays first, then Ann, then Bob
    assert state["helper_order"] == [2, 0, 1]
    assert state["spare"] == ["etienne", "henri", "maurice", "amelie"] and state["target"] == 30
    assert state["can_undo"] is False


def test_the_bids_give_the_picking_order_of_the_worked_example(client):
    """RULES-MAUS.md: A 3 coins, B 5, C 5, D 7; B holds Mathieu (5), C Lilly (3): D, B, C, A."""
    table = MausTable(client, {"players": ["A", "B", "C", "D"], "oldest": 0,
                               "held": ["etienne", "mathieu", "lilly", "claude"]})
    state = table.ok("bids", coins=[3, 5, 5, 7])
    assert [p["seat"] for p in state["picks"]] == [3, 1, 2, 0]
    assert state["phase"] == "laying" and [p["hand"] for p in state["players"]] == [6, 6, 6, 6]


def test_henris_holder_bids_two_more(client):
    table = MausTable(client, {"players": ["Ann", "Bob"], "oldest": 0, "held": ["henri", "claude"]})
    picks = table.ok("bids", coins=[3, 4])["picks"]
    assert [(p["seat"], p["total"], p["bonus"]) for p in picks] == [(0, 5, 2), (1, 4, 0)]


@pytest.mark.parametrize("helper, cards, points, use", [
    ("lilly", ["b4", "b5", "r6"], 6, {"helper": "lilly", "printed": None, "laid_as": None}),
    ("claude", ["b4", "b5", "r6"], 6, {"helper": "claude", "printed": "r6", "laid_as": "b6"}),
    ("mathieu", ["g3", "g4", "g6"], 6, {"helper": "mathieu", "printed": "g6", "laid_as": "g5"}),
])
def test_the_judge_shows_the_best_use_of_the_players_helper_first(client, helper, cards, points, use):
    table = MausTable(client, {"players": ["Ann", "Bob"], "oldest": 0, "held": [helper, "etienne"]})
    table.ok("bids", coins=[5, 1])
    verdict = table.judge(0, cards)
    assert verdict["legal"] and verdict["helper"] == helper
    best = verdict["options"][0]
    assert best["points"] == points and best["use"] == use
    assert [o["points"] for o in verdict["options"]] == sorted((o["points"] for o in verdict["options"]), reverse=True)


def test_an_illegal_combination_says_why_in_the_pages_language(maus, client):
    maus.ok("bids", coins=[1, 2, 3])
    verdict = maus.judge(2, ["r3", "g5", "b7"])
    assert verdict == {**verdict, "legal": False, "reason": "NotRunOrSet", "options": []}
    assert "neither a run" in verdict["why"]
    client.set_cookie(COOKIE, "de")
    german = client.post(f"/api/games/{maus.id}/judge", json={"seat": 2, "cards": ["r3", "g5", "b7"]}).get_json()
    assert "weder eine Straße" in german["why"]


def test_combinations_follow_the_helper_order_and_score(maus):
    maus.ok("bids", coins=[1, 2, 3])
    state = maus.lay_best(["b4", "b5", "r6"])  # Cy with Claude: the red 6 made blue, the 6 kept
    assert state["players"][2]["points"] == 6 and state["players"][2]["hand"] == 3
    assert state["laid"][0]["kept"] == ["r6"] and state["next_to_lay"] == 0
    state = maus.skip()
    state = maus.lay_best(["y5", "p5", "g5"])  # Bob: a mixed set keeps one 5
    assert state["round"] == 2 and state["phase"] == "bidding"
    assert [p["points"] for p in state["players"]] == [0, 5, 6]
    assert [p["hand"] for p in state["players"]] == [6, 3, 3]
    assert state["history"][0]["scores"] == [0, 5, 6]
    # the helpers moved on: Ann (oldest) puts Mathieu at the end of the row, Bob takes its leftmost
    assert [p["helper"] for p in state["players"]] == ["claude", "etienne", "lilly"]


def play_round(maus: MausTable, combinations: dict[int, list[str]]) -> dict:
    """One round: bids, then each seat in helper order lays its cards when it
    still holds a card more than it lays, or nothing."""
    maus.ok("bids", coins=[1, 2, 3][:len(maus.state["players"])])
    while maus.state["phase"] == "laying":
        seat = maus.state["next_to_lay"]
        cards = combinations.get(seat)
        if cards and maus.state["players"][seat]["hand"] > len(cards):
            maus.lay_best(cards)
        else:
            maus.skip()
    return maus.state


def test_at_least_one_card_stays_in_hand(maus):
    """Cy lays in rounds 1 and 2 (6 cards -> 3, 4 -> 1); in round 4 Cy holds
    exactly three cards and may not lay them."""
    for _round in range(3):
        play_round(maus, {2: ["y6", "y6", "y6"]})
    maus.ok("bids", coins=[1, 2, 3])
    seat = next(p["seat"] for p in maus.state["players"] if p["name"] == "Cy")
    assert maus.state["players"][seat]["hand"] == 3
    while maus.state["next_to_lay"] != seat:
        maus.skip()
    verdict = maus.judge(seat, ["g5", "g5", "g5"])
    assert not verdict["legal"] and verdict["reason"] == "NoCardLeft" and "at least one card" in verdict["why"].lower()
    refused = maus.post("combination", seat=seat, cards=["g5", "g5", "g5"], change=None)
    assert refused.status_code == 400 and "at least one card" in refused.get_json()["error"].lower()


def test_refused_moves_change_nothing(maus, client):
    maus.ok("bids", coins=[1, 2, 3])
    before = maus.get()
    cases = [
        ("combination", {"seat": 0, "cards": ["b4", "b5", "b6"], "change": None}, 400, "lays first"),  # Cy first
        ("combination", {"seat": 2, "cards": ["b4", "b5"], "change": None}, 400, "three cards"),
        ("combination", {"seat": 2, "cards": ["b4", "b9", "b6"], "change": None}, 400, None),
        ("combination", {"seat": 2, "cards": "b4 b5 b6", "change": None}, 400, None),
        ("combination", {"seat": 2, "cards": ["b4", "b5", "r6"], "change": {"helper": "mathieu", "card": 2,
                                                                           "laid_as": "b6"}}, 400, None),
        ("skip", {"seat": 7}, 400, None),
        ("bids", {"coins": [1, 2, 3]}, 400, None),
        ("skip", {"seat": 2, "extra": 1}, 400, "unknown field"),
    ]
    for action, body, status, words in cases:
        response = maus.post(action, **body)
        assert response.status_code == status, (action, body, response.get_json())
        if words:
            assert words in response.get_json()["error"], response.get_json()
    stale = client.post(f"/api/games/{maus.id}/skip", json={"version": maus.version - 1, "seat": 2})
    assert stale.status_code == 409 and stale.get_json()["field"] == "version"
    assert maus.get() == before


def test_bad_bids_are_refused(maus):
    for coins in ([1, 2], [1, 2, -1], [1, 2, "3"], [1, 2, True], "3 4 5"):
        response = maus.post("bids", coins=coins)
        assert response.status_code == 400 and response.get_json()["field"] == "coins", coins
    assert maus.get()["version"] == 1


@pytest.mark.parametrize("setup, field", [
    ({**THREE, "players": ["Ann"], "held": ["mathieu"]}, "held"),
    ({**THREE, "held": ["mathieu", "mathieu", "claude"]}, "held"),
    ({**THREE, "held": ["mathieu", "lilly", "wolf"]}, "held"),
    ({**THREE, "players": ["Ann", "ann", "Cy"]}, "players"),
    ({**THREE, "players": ["Ann", "B" * 41, "Cy"]}, "players"),
    ({**THREE, "oldest": 3}, "held"),
    ({**THREE, "numbers": {"mathieu": 5}}, "numbers"),
    ({**THREE, "colour": "red"}, "colour"),
])
def test_a_set_up_the_game_cannot_have_is_refused(client, setup, field):
    response = client.post("/api/maus/games", json=setup)
    assert response.status_code == 400 and response.get_json()["field"] == field, response.get_json()
    assert client.get("/api/games").get_json()["games"] == []


def test_one_games_moves_are_refused_on_the_other_game(client, maus, table):
    maus_move = client.post(f"/api/games/{table.id}/bids", json={"version": table.version, "coins": [1, 2]})
    mamma_mia_move = client.post(f"/api/games/{maus.id}/reveal", json={"version": maus.version, "card": "S"})
    assert maus_move.status_code == 400 and "game of mamma-mia" in maus_move.get_json()["error"]
    assert mamma_mia_move.status_code == 400 and "game of maus" in mamma_mia_move.get_json()["error"]
    assert client.post(f"/api/games/{table.id}/judge", json={"seat": 0, "cards": ["g5"]}).status_code == 400
    assert maus.get()["version"] == 1 and table.get()["version"] == 1


def test_undo_takes_back_one_move_at_a_time(maus):
    assert maus.post("undo").status_code == 400  # only the set-up: nothing to take back
    maus.ok("bids", coins=[1, 2, 3])
    maus.lay_best(["b4", "b5", "r6"])
    undone = maus.ok("undo")
    assert undone["undone"]["type"] == "combination_laid" and undone["players"][2]["points"] == 0
    assert maus.ok("undo")["phase"] == "bidding" and maus.state["can_undo"] is False
    assert maus.version == 5


def play_to_thirty(maus: MausTable) -> None:
    """Bob lays a one-colour set of 5s (10 points) and Cy of 7s (14) whenever
    their hands allow, Ann nothing: after round 5 Cy has 42, Bob 30."""
    while maus.state["phase"] != "over":
        play_round(maus, {1: ["b5", "b5", "b5"], 2: ["y7", "y7", "y7"]})


def test_a_game_ends_after_the_round_in_which_someone_reaches_thirty(client):
    maus = MausTable(client, {"players": ["Ann", "Bob", "Cy"], "oldest": 0, "held": ["etienne", "henri", "claude"]})
    play_to_thirty(maus)
    state = maus.state
    assert state["phase"] == "over" and state["round"] == 5
    assert [p["points"] for p in state["players"]] == [0, 30, 42]
    assert [(r["name"], r["points"], r["tie_break"]) for r in state["ranking"]] == [
        ("Cy", 42, False), ("Bob", 30, False), ("Ann", 0, False)]
    assert maus.post("bids", coins=[1, 1, 1]).status_code == 400
    listed = client.get("/api/games").get_json()["games"][0]
    assert listed["kind"] == "maus" and listed["phase"] == "over" and listed["players"][2]["points"] == 42


def test_exports_have_the_log_and_a_row_per_player_and_round(client):
    maus = MausTable(client, {"players": ["Ann", "Bob", "Cy"], "oldest": 0, "held": ["etienne", "henri", "claude"]})
    play_to_thirty(maus)
    exported = client.get(f"/api/games/{maus.id}/export.json")
    assert 'filename="maus-game-' in exported.headers["Content-Disposition"]
    events = exported.get_json()["events"]
    assert events[0]["type"] == "game_started" and events[1] == {**events[1], "type": "bids_revealed",
                                                                  "payload": {"coins": [1, 2, 3]}}
    rows = list(csv.DictReader(io.StringIO(client.get(f"/api/games/{maus.id}/export.csv").get_data(as_text=True))))
    cy = [r for r in rows if r["player"] == "Cy"]
    assert [r["total"] for r in cy] == ["14", "28", "28", "28", "42", "42"] and cy[-1]["place"] == "1"
    assert cy[0]["laid"] == "y7 y7 y7" and cy[0]["kept"] == "y7 y7" and cy[0]["coins"] == "3"
