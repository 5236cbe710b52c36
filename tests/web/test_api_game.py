"""A whole three-round game through the JSON API, restart, undo and exports."""
import csv
import io

from companion.engine import parse_pile
from companion.web import create_app


def cards(pile: str) -> list[str]:
    """``"2S g:4S+P"`` → ``["S", "S", "g:4S+P"]``."""
    return [card.notation for card in parse_pile(pile)]


def player(state, name):
    return next(p for p in state["players"] if p["name"] == name)


def play_round_one(table):
    table.reveal(*cards("P 2S 3A 4M g:4A+P"))  # RULES.md: short 1 pineapple
    pending = table.state["pending"]
    assert (pending["player"], pending["card"], pending["table"]["notation"]) == ("Ann", "g:4A+P", "2S 3A 4M P")
    assert [o["add_from_hand"] for o in pending["options"]] == ["1 pineapple"]
    table.ok("decide", accept=True)
    assert table.state["table"]["notation"] == "2S 4M"  # 4 pineapple + 1 pepper used
    table.reveal("r:S+4M")                                 # all face up: no question asked
    assert table.state["pending"] is None and table.state["timeline"][-1]["outcome"]["fulfilled"]
    table.ok("end-round")


def play_round_two(table):
    table.reveal(*cards("4P S 2M 4A g:P+6J"))  # Czech sheet Monotoni: 4P 2S 2M 4A
    options = table.state["pending"]["options"]
    assert [(o["choice"], o["needed_total"]) for o in options] == [
        ("pineapple", 2), ("salami", 4), ("mushroom", 4), ("olive", 6)]
    table.ok("decide", accept=True, choice="pineapple")
    table.reveal("r:15+")
    assert table.state["pending"]["options"][0]["needed"] == {"any": 8}
    table.ok("decide", accept=False)
    table.ok("end-round")


def play_round_three(table):
    table.reveal(*cards("3A g:P+3?"))  # French/Czech Minimale: salami and mushroom tie
    assert [o["choice"] for o in table.state["pending"]["options"]] == ["salami", "mushroom"]
    table.ok("decide", accept=True, choice="mushroom")
    table.reveal("r:S+4A")
    table.ok("decide", accept=False)
    table.ok("end-round")


def test_a_whole_game_through_the_api(table):
    play_round_one(table)
    state = table.state
    assert state["round"] == 2 and state["leftovers_in"]["notation"] == "S"
    assert state["table"]["notation"] == "S"  # leftovers carried into round 2
    assert state["history"][0]["delivered"] == {"green": ["g:4A+P"], "red": ["r:S+4M"]}
    play_round_two(table)
    assert table.state["history"][1]["returned"] == {"green": [], "red": ["r:15+"]}
    assert table.state["table"]["notation"] == "2S 2M 3P"
    play_round_three(table)
    state = table.state
    assert state["phase"] == "counting" and state["next"].startswith("enter how many")
    ann, bob = player(state, "Ann"), player(state, "Bob")
    assert ann["delivered_per_round"] == [1, 1, 1] and bob["delivered_per_round"] == [1, 0, 0]
    assert len(ann["remaining"]) == 5 and "r:15+" in [o["card"] for o in bob["remaining"]]
    table.ok("hands", counts={"green": 2, "red": 5})
    ranking = table.state["ranking"]
    assert [(r["place"], r["name"], r["delivered"], r["hand_cards"]) for r in ranking] == [
        (1, "Ann", 3, 2), (2, "Bob", 1, 5)]
    assert table.state["phase"] == "over"


def test_the_new_game_answer_shows_the_set_up(new_table):
    state = new_table([{"name": "Ann", "color": "green"}, {"name": "Bob", "color": "red"},
                       {"name": "Cy", "color": "purple"}]).state
    assert state["version"] == 1 and state["phase"] == "evaluating" and state["round"] == 1
    assert state["setup"]["remove_per_kind"] == 3 and state["setup"]["unused_colors"] == ["yellow", "brown"]
    assert [p["revealable"] for p in state["players"]][2][:1] == ["p:4S+O"]


def test_a_restarted_server_resumes_exactly(database, table):
    play_round_one(table)
    table.reveal(*cards("4P S 2M 4A g:P+6J"))
    before = table.get()
    restarted = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "other"}).test_client()
    after = restarted.get(f"/api/games/{table.id}").get_json()
    assert after == before and after["pending"]["card"] == "g:P+6J"
    answer = restarted.post(f"/api/games/{table.id}/decide",
                            json={"version": after["version"], "accept": True, "choice": "pineapple"})
    assert answer.status_code == 200 and answer.get_json()["pending"] is None


def test_undo_takes_back_one_action_at_a_time(table):
    table.reveal(*cards("P 2S 3A 4M g:4A+P"))
    table.ok("decide", accept=True)
    table.ok("end-round")
    assert table.ok("undo")["round"] == 1 and table.state["table"]["notation"] == "2S 4M"
    assert table.ok("undo")["pending"]["card"] == "g:4A+P"
    table.ok("undo")  # the order card itself: correct it by revealing the right one
    assert table.state["pending"] is None and len(table.state["timeline"]) == 10
    table.reveal("g:4S+P")
    assert table.state["timeline"][-1]["card"] == "g:4S+P"
    assert table.version == 18  # every action, undos included, is one more event


def test_an_undo_names_what_it_took_back(table):
    table.reveal(*cards("3A P g:4A+P"))  # one pineapple short: Ann decides
    table.ok("decide", accept=True)
    table.ok("end-round")
    assert table.ok("undo")["undone"] == {"type": "round_ended"}
    assert table.ok("undo")["undone"] == {"type": "order_decided", "accept": True, "choice": None}
    assert table.ok("undo")["undone"] == {"type": "card_revealed", "card": "g:4A+P"}
    assert "undone" not in table.get()  # only the undo's own answer says it


def test_games_are_listed_newest_first(new_table, client):
    first = new_table()
    second = new_table([{"name": "Cy", "color": "yellow"}, {"name": "Di", "color": "brown"}])
    first.reveal(*cards("4S P g:4S+P"))
    listed = client.get("/api/games").get_json()["games"]
    assert [g["id"] for g in listed] == [second.id, first.id]
    assert listed[1]["players"][0] == {"name": "Ann", "color": "green", "delivered": 1}
    assert listed[1]["version"] == first.version and listed[0]["phase"] == "evaluating"


def test_export_json_holds_the_state_and_the_whole_log(table, client):
    table.reveal("S", "S")
    table.ok("undo")
    response = client.get(f"/api/games/{table.id}/export.json")
    assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"]
    assert response.headers["Content-Type"] == "application/json"
    data = response.get_json()
    assert data["game"]["version"] == 4 and data["game"]["table"]["notation"] == "S"
    assert [(e["seq"], e["type"], e["in_effect"]) for e in data["events"]] == [
        (1, "game_created", True), (2, "card_revealed", True), (3, "card_revealed", False), (4, "undo", False)]
    assert data["events"][0]["payload"]["players"][1] == {"name": "Bob", "color": "red"}


def test_export_csv_has_a_row_per_player_and_round_and_the_totals(table, client):
    play_round_one(table)
    play_round_two(table)
    play_round_three(table)
    table.ok("hands", counts={"green": 2, "red": 5})
    response = client.get(f"/api/games/{table.id}/export.csv")
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"  # the charset once
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert len(rows) == 8
    bob_two = next(r for r in rows if r["player"] == "Bob" and r["round"] == "2")
    assert (bob_two["delivered"], bob_two["returned_orders"]) == ("0", "r:15+")
    totals = {r["player"]: (r["delivered"], r["hand_cards"], r["place"]) for r in rows if r["round"] == "total"}
    assert totals == {"Ann": ("3", "2", "1"), "Bob": ("1", "5", "2")}
