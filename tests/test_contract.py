"""The ``mamma-mia evaluate --json`` contract."""
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.contract import ContractError, evaluate_request

GREEN_4A_P = {"kind": "order", "color": "green", "recipe": {"pineapple": 4, "pepper": 1}}


def ingredient(name: str, double: bool = False) -> dict:
    return {"kind": "ingredient", "ingredient": name, "double": double}


def run_cli(capsys, monkeypatch, request, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(request if isinstance(request, str) else json.dumps(request)))
    code = main(["evaluate", "-", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_worked_example_through_the_contract():
    result = evaluate_request({
        "players": ["green", "red"], "doubles": False, "table": {"pepper": 1, "salami": 2, "pineapple": 3},
        "pile": [ingredient("mushroom")] * 4 + [GREEN_4A_P],
    })
    assert result == {
        "orders": [{"index": 4, "color": "green", "card": GREEN_4A_P, "needed": {"pineapple": 1}, "fulfilled": True}],
        "table_after": {"salami": 2, "pineapple": 0, "mushroom": 4, "pepper": 0, "olive": 0},
        "delivered": {"green": 1, "red": 0},
    }


def test_hands_decide_and_are_reduced():
    request = {"players": ["green", "red"], "table": "P 3A 4M P 4S",
               "pile": ["g:4A+P", "g:4M+P", "g:4S+P"], "hands": {"green": {"pineapple": 1, "mushroom": 0}}}
    orders = evaluate_request(request)["orders"]
    assert [o["fulfilled"] for o in orders] == [True, True, False]
    assert orders[2]["needed"] == {"pepper": 1}
    request["hands"]["green"]["pineapple"] = 0
    assert evaluate_request(request)["orders"][0]["fulfilled"] is False


def test_a_colour_missing_from_hands_holds_nothing():
    result = evaluate_request({"players": ["green", "red"], "table": "3A P", "pile": ["g:4A+P"], "hands": {"red": "5A"}})
    assert result["orders"][0]["fulfilled"] is False and result["table_after"]["pineapple"] == 3


def test_declines():
    result = evaluate_request({"players": ["green", "red"], "table": "3A P 4S", "pile": ["g:4A+P", "g:4S+P"],
                               "declines": [0, 1]})
    assert [o["fulfilled"] for o in result["orders"]] == [False, True]   # nothing to add: declining is moot
    assert result["orders"][0]["reason"] == "not added from hand"


def test_monotoni_default_choice_prefers_what_the_hand_covers():
    base = {"players": ["green", "red"], "table": "4P 2S 2M 4A", "pile": ["g:P+6J"]}
    no_hands = evaluate_request(base)["orders"][0]
    assert no_hands["choice"] == "pineapple" and no_hands["needed"] == {"pineapple": 2}
    assert [o["choice"] for o in no_hands["options"]] == ["pineapple", "salami", "mushroom", "olive"]
    with_hand = evaluate_request({**base, "hands": {"green": {"mushroom": 4, "pineapple": 1}}})["orders"][0]
    assert with_hand["choice"] == "mushroom" and with_hand["fulfilled"]
    hopeless = evaluate_request({**base, "hands": {"green": {"olive": 1}}})["orders"][0]
    assert hopeless["choice"] == "pineapple" and not hopeless["fulfilled"]


def test_tied_default_choice_follows_ingredient_order():
    order = evaluate_request({"players": ["green", "red"], "table": "2P 2S 2M 3A", "pile": ["g:P+3?"]})["orders"][0]
    assert order["choice"] == "salami" and order["needed"] == {"salami": 1}


def test_explicit_choice():
    request = {"players": ["green", "red"], "table": "2P 2S 2M 3A", "pile": ["g:P+3?"], "choices": {"0": "mushroom"}}
    assert evaluate_request(request)["orders"][0]["choice"] == "mushroom"


def test_minimale_with_nothing_eligible():
    order = evaluate_request({"players": ["green", "red"], "table": "3P", "pile": ["g:P+3?"]})["orders"][0]
    assert order == {"index": 0, "color": "green", "card": order["card"], "needed": {}, "choice": None,
                     "options": [], "fulfilled": False, "reason": "no eligible ingredient"}


def test_bombastica_needs_any():
    order = evaluate_request({"players": ["green", "red"], "table": {"salami": 8}, "pile": ["r:15+"]})["orders"][0]
    assert order["needed"] == {"any": 7} and order["fulfilled"]


def test_doubles_in_table_and_hands():
    result = evaluate_request({
        "players": ["green", "red"], "doubles": True, "table": {"pineapple": {"single": 1, "double": 1}, "pepper": 1},
        "pile": [ingredient("salami", True), "g:4A+P"], "hands": {"green": "A2"}})
    assert result["orders"][0]["fulfilled"] and result["table_after"]["salami"] == 2


@pytest.mark.parametrize("request_, where", [
    ({"players": ["green", "red"], "pile": [], "tabel": {}}, "tabel: unknown field"),
    ({"players": ["green", "teal"], "pile": []}, "players[1]: unknown colour 'teal'"),
    ({"players": ["green"] * 6, "pile": []}, "players: each colour"),
    ({"players": ["green", "red", "yellow", "brown", "purple", "green"][:1], "pile": []}, "players: Mamma Mia! is played by"),
    ({"players": ["green", "red"], "pile": ["S", {"kind": "ingredient", "ingredient": "ham"}]}, "pile[1]: unknown ingredient 'ham'"),
    ({"players": ["green", "red"], "pile": ["9S"]}, "pile[0]"),
    ({"players": ["green", "red"], "pile": ["S"] * 9}, "pile[8]: a 9th salami card"),
    ({"players": ["green", "red"], "pile": ["p:4S+O"]}, "pile[0]: purple order 4 salami + 1 olive (p:4S+O): purple is not at this table"),
    ({"players": ["green", "red"], "pile": ["g:4S+P", "g:4S+P"]}, "pile[1]:"),
    ({"players": ["green", "red"], "pile": ["S2"]}, "pile[0]: a double salami"),
    ({"players": ["green", "red"], "table": {"salami": -1}, "pile": []}, "table.salami: must be a whole number"),
    ({"players": ["green", "red"], "pile": ["S"], "choices": {"0": "olive"}}, "choices['0']: pile[0] is not an order"),
    ({"players": ["green", "red"], "pile": ["g:4S+P"], "choices": {"0": "olive"}}, "no ingredient to choose"),
    ({"players": ["green", "red"], "pile": ["A"] * 6 + ["g:P+6J"], "choices": {"6": "pepper"}}, "choices['6']: green Pizza Monotoni: the joker may not be pepper"),
    ({"players": ["green", "red"], "pile": ["g:P+3?"], "choices": {"0": "olive"}}, "choices['0']"),
    ({"players": ["green", "red"], "pile": [], "declines": [3]}, "declines[0]: no card at pile index 3"),
    ({"players": ["green", "red"], "pile": [], "hands": {"yellow": {}}}, "hands.yellow: yellow is not at this table"),
    ({"players": ["green", "red"], "pile": [], "doubles": "no"}, "doubles: must be true or false"),
    ([], "input: must be a JSON object"),
    ({"players": ["green", "red"], "table": "9S", "pile": []}, "table: a 9th salami card"),
    ({"players": ["green", "red"], "table": {"salami": {"double": 1}}, "pile": []}, "table: a double salami"),
    ({"players": ["green", "red"], "pile": ["g:4S+P"], "hands": {"green": "S2"}}, "hands.green: a double salami"),
    ({"players": ["green", "red"], "pile": ["g:4S+P"], "declines": [1e400]}, "declines[0]: inf is not a pile index"),
    ({"players": ["green", "red"], "pile": ["g:4S+P"], "declines": [0.0]}, "declines[0]: 0.0 is not a pile index"),
])
def test_bad_input_names_the_field(request_, where):
    with pytest.raises(ContractError) as error:
        evaluate_request(request_)
    assert where in str(error.value)


def test_cli_bad_input_exit_code_two_and_one_line(capsys, monkeypatch):
    code, out, err = run_cli(capsys, monkeypatch, {"players": ["green", "red"], "pile": ["S"] * 9}, "--json")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("evaluate: pile[8]: a 9th salami card")


@pytest.mark.parametrize("request_", [
    '{"players": ["green", "red"], "table": "9S", "pile": []}',
    '{"players": ["green", "red"], "table": {"salami": {"double": 1}}, "pile": []}',
    '{"players": ["green", "red"], "pile": ["g:4S+P"], "declines": [1e400]}',
    "[" * 5000,
    '{"pile": ' + "[" * 5000 + "]" * 5000 + "}",
])
def test_cli_refuses_impossible_input_in_one_line(capsys, monkeypatch, request_):
    code, out, err = run_cli(capsys, monkeypatch, request_, "--json")
    assert code == 2 and out == ""
    assert err.startswith("evaluate: ") and err.count("\n") == 1 and "Traceback" not in err


def test_cli_not_json(capsys, monkeypatch):
    code, _, err = run_cli(capsys, monkeypatch, "{players: green", "--json")
    assert code == 2 and "not valid JSON" in err and err.count("\n") == 1


def test_cli_missing_file(capsys):
    assert main(["evaluate", "/nonexistent/pile.json"]) == 2
    assert "cannot read /nonexistent/pile.json" in capsys.readouterr().err


def test_cli_text_output_for_people(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, {"players": ["green", "red"], "table": "P 2S 3A 4M", "pile": ["g:4A+P"]})
    assert code == 0 and "green order 4 pineapple + 1 pepper: DELIVERED, 1 pineapple added from hand" in out


def test_installed_console_script(tmp_path: Path):
    script = Path(sys.executable).with_name("mamma-mia")
    request = tmp_path / "pile.json"
    request.write_text(json.dumps({"players": ["green", "red"], "table": "P 2S 3A 4M", "pile": ["g:4A+P"]}))
    done = subprocess.run([str(script), "evaluate", str(request), "--json"], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["delivered"] == {"green": 1, "red": 0}
