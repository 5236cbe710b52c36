"""The ``mamma-mia maus combination --json`` and ``maus ingredients --json`` contracts."""
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.jsonrequest import ContractError
from companion.maus.contract import combination_request, ingredients_listing


def card(ingredient: str, value: int) -> dict:
    return {"ingredient": ingredient, "value": value}


def run_cli(capsys, monkeypatch, request, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(request if isinstance(request, str) else json.dumps(request)))
    code = main(["maus", "combination", "-", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_legal_combination_with_its_helper_use_and_options():
    result = combination_request({"cards": [card("green", 3), card("green", 4), card("green", 6)],
                                  "helper": "mathieu", "hand_after": 2})
    assert result == {
        "legal": True, "kind": "run", "single_colour": True, "points": 6,
        "kept": [card("green", 6)], "discarded": [card("green", 3), card("green", 4)],
        "helper_use": {"helper": "mathieu", "card": 2, "laid_as": card("green", 5)},
        "options": [{"kind": "run", "single_colour": True, "points": 6, "kept": [card("green", 6)],
                     "discarded": [card("green", 3), card("green", 4)],
                     "helper_use": {"helper": "mathieu", "card": 2, "laid_as": card("green", 5)}}],
    }
    assert list(result) == ["legal", "kind", "single_colour", "points", "kept", "discarded", "helper_use", "options"]


def test_options_best_first_and_the_best_is_the_answer():
    result = combination_request({"cards": [card("blue", 4), card("blue", 5), card("red", 6)], "helper": "claude"})
    assert [o["points"] for o in result["options"]] == [6, 4]
    assert result["helper_use"] == {"helper": "claude", "card": 2, "laid_as": card("blue", 6)}
    assert result["options"][1]["helper_use"] is None and result["options"][1]["kept"] == [card("blue", 4)]
    assert {k: v for k, v in result.items() if k not in ("legal", "options")} == result["options"][0]


@pytest.mark.parametrize("helper, use", [(None, None), ("henri", None), ("lilly", {"helper": "lilly"})])
def test_helpers_without_a_choice(helper, use):
    result = combination_request({"cards": ["b4", "b5", "r6"], "helper": helper})
    assert result["helper_use"] == use and len(result["options"]) == 1
    assert result["points"] == (6 if helper == "lilly" else 4)


def test_amelie_four_cards():
    result = combination_request({"cards": [card("red", 7)] * 4, "helper": "amelie"})
    assert (result["kind"], result["points"], len(result["kept"]), result["helper_use"]) == \
        ("set", 21, 3, {"helper": "amelie"})


def test_coins_travel_with_the_cards():
    result = combination_request({"cards": [{"ingredient": "green", "value": 5, "coins": 3}, "g6", "g7/1"]})
    assert result["kept"] == [{"ingredient": "green", "value": 7, "coins": 1}]
    assert result["discarded"][0] == {"ingredient": "green", "value": 5, "coins": 3}


@pytest.mark.parametrize("request_, reason", [
    ({"cards": ["g5", "g6", "g7"], "hand_after": 0}, "at least one card must stay in hand after laying a combination"),
    ({"cards": ["g5", "g6"]}, "a combination is three cards, not 2"),
    ({"cards": []}, "a combination is three cards, not 0"),
    ({"cards": ["g5", "g6", "g7", "g7"], "helper": "lilly"}, "four cards make a combination only with Amélie"),
    ({"cards": ["g4", "g5", "g7"]}, "4-5-7 is neither a run (consecutive values) nor a set (equal values)"),
    ({"cards": ["g3", "g5", "g7"], "helper": "maurice"},
     "3-5-7 is neither a run (consecutive values) nor a set (equal values), and Maurice cannot make it a combination"),
])
def test_illegal_combinations_are_answers(request_, reason):
    assert combination_request(request_) == {"legal": False, "reason": reason}


@pytest.mark.parametrize("request_, where", [
    ([], "input: must be a JSON object"),
    ({"cards": ["g5", "g6", "g7"], "helpers": "lilly"}, "helpers: unknown field"),
    ({}, "cards: a list of the laid cards is required"),
    ({"cards": "g5 g6 g7"}, "cards: a list"),
    ({"cards": ["g5", "g6", card("teal", 7)]}, "cards[2]: unknown ingredient 'teal'"),
    ({"cards": ["g5", "g6", card("green", 9)]}, "cards[2]: green 9: sweet values run from 3 to 7"),
    ({"cards": ["g5", "g6", card("green", "7")]}, "cards[2]: a card's value must be a whole number"),
    ({"cards": ["g5", "g6", card("green", 7.0)]}, "cards[2]: a card's value must be a whole number"),
    ({"cards": ["g5", "g6", {"ingredient": "green", "value": 7, "colour": "red"}]}, "cards[2]: unknown card field 'colour'"),
    ({"cards": ["g5", "g6", "x7"]}, "cards[2]: unknown ingredient letter 'x'"),
    ({"cards": ["g5", "g6", "g"]}, "cards[2]: 'g' is not a card"),
    ({"cards": ["g5", "g6", 7]}, "cards[2]: a card is an object"),
    ({"cards": ["g5", "g6", "g7/9"]}, "cards[2]: green 7 with 9 coins"),
    ({"cards": ["g5", "g6", "g7"], "helper": "nestor"}, "helper: unknown helper 'nestor'"),
    ({"cards": ["g5", "g6", "g7"], "helper": "Lilly"}, "helper: unknown helper 'Lilly'"),
    ({"cards": ["g5", "g6", "g7"], "hand_after": -1}, "hand_after: must be a whole number ≥ 0"),
    ({"cards": ["g5", "g6", "g7"], "hand_after": 1.5}, "hand_after: must be a whole number ≥ 0"),
    ({"cards": ["g5", "g6", "g7"], "hand_after": True}, "hand_after: must be a whole number ≥ 0"),
])
def test_input_that_is_not_a_request_names_the_field(request_, where):
    with pytest.raises(ContractError) as error:
        combination_request(request_)
    assert str(error.value).startswith(where)


def test_cli_json_answer_legal_and_illegal_exit_zero(capsys, monkeypatch):
    code, out, err = run_cli(capsys, monkeypatch, {"cards": ["b4", "b5", "r6"], "helper": "lilly"}, "--json")
    assert code == 0 and err == "" and json.loads(out)["points"] == 6
    code, out, err = run_cli(capsys, monkeypatch, {"cards": ["b4", "b5", "r7"]}, "--json")
    assert code == 0 and err == "" and json.loads(out)["legal"] is False


@pytest.mark.parametrize("request_, start", [
    ({"cards": ["g5", "g6", card("green", 9)]}, "maus combination: cards[2]: green 9"),
    ('{"cards": [', "maus combination: input is not valid JSON"),
    ("[" * 5000, "maus combination: "),
    ('{"cards": ' + "[" * 5000 + "]" * 5000 + "}", "maus combination: "),
    ('"g5 g6 g7"', "maus combination: input: must be a JSON object"),
])
def test_cli_bad_input_exit_two_and_one_line(capsys, monkeypatch, request_, start):
    code, out, err = run_cli(capsys, monkeypatch, request_, "--json")
    assert code == 2 and out == ""
    assert err.startswith(start) and err.count("\n") == 1 and "Traceback" not in err


def test_cli_missing_or_binary_file(capsys, tmp_path):
    assert main(["maus", "combination", "/nonexistent/hand.json", "--json"]) == 2
    assert capsys.readouterr().err == "maus combination: cannot read /nonexistent/hand.json: No such file or directory\n"
    binary = tmp_path / "hand.json"
    binary.write_bytes(b"\xff\xfe{")
    assert main(["maus", "combination", str(binary)]) == 2
    assert capsys.readouterr().err.endswith("is not UTF-8 text\n")


def test_cli_text_for_people(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, {"cards": ["b4", "b5", "r6"], "helper": "claude"})
    assert code == 0
    assert out.splitlines() == ["Legal: a run of one colour, 6 points.", "Keep red 6; discard blue 4, blue 5.",
                                "Helper: Claude: card 3 laid as blue 6.", "Other ways:",
                                "  4 points: as printed, keep blue 4"]
    code, out, _ = run_cli(capsys, monkeypatch, {"cards": ["b4", "b5"]})
    assert code == 0 and out == "Not legal: a combination is three cards, not 2.\n"


def test_ingredients_listing():
    listing = ingredients_listing()
    assert [i["name"] for i in listing["ingredients"]] == ["red", "yellow", "green", "blue", "purple"]
    assert listing["values"] == [3, 4, 5, 6, 7]
    assert listing["deck"]["stand_in"] is True and listing["deck"]["cards"] == 80
    assert listing["deck"]["distinct_faces"] == 70
    helpers = {h["name"]: h for h in listing["helpers"]}
    assert list(helpers) == ["etienne", "henri", "mathieu", "maurice", "lilly", "amelie", "claude"]
    assert (helpers["mathieu"]["order"], helpers["mathieu"]["order_from_sheet"]) == (5, True)
    assert (helpers["lilly"]["order"], helpers["lilly"]["order_from_sheet"]) == (3, True)
    assert helpers["claude"]["order_from_sheet"] is False and helpers["amelie"]["title"] == "Amélie"


def test_every_listed_ingredient_is_accepted_by_the_combination_contract():
    for ingredient in ingredients_listing()["ingredients"]:
        name = ingredient["name"]
        assert combination_request({"cards": [card(name, 5), card(name, 6), card(name, 7)]})["single_colour"]


def test_cli_ingredients(capsys):
    assert main(["maus", "ingredients", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == ingredients_listing()
    assert main(["maus", "ingredients"]) == 0
    out = capsys.readouterr().out
    assert "red (r), yellow (y), green (g), blue (b), purple (p)" in out and "stand-in" in out
    assert "5  Mathieu the dung beetle (from the sheet)" in out


def test_maus_needs_a_command(capsys):
    with pytest.raises(SystemExit) as done:
        main(["maus"])
    assert done.value.code == 2


def test_installed_console_script(tmp_path: Path):
    script = Path(sys.executable).with_name("mamma-mia")
    request = tmp_path / "hand.json"
    request.write_text(json.dumps({"cards": [card("green", 5), card("green", 6), card("green", 7)]}))
    done = subprocess.run([str(script), "maus", "combination", str(request), "--json"],
                          capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["points"] == 7
