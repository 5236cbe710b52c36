"""The ``mamma-mia`` command explains itself, and its sub-commands work."""
import json

import pytest

from companion.cli import COMMANDS, build_parser, main


def sub_commands() -> list[str]:
    return [__import__(path, fromlist=["NAME"]).NAME for path in COMMANDS]


def test_top_level_help_lists_every_sub_command(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0 and "Mamma Mia!" in out
    assert all(name in out for name in sub_commands())


@pytest.mark.parametrize("name", sub_commands())
def test_every_sub_command_has_help(capsys, name):
    with pytest.raises(SystemExit) as done:
        main([name, "--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0 and f"mamma-mia {name}" in out and len(out) > 200


def test_simulate_json_reports_three_rounds(capsys):
    assert main(["simulate", "--players", "green,red", "--seed", "3", "--json"]) == 0
    games = json.loads(capsys.readouterr().out)
    assert len(games[0]["rounds"]) == 3 and len(games[0]["ranking"]) == 2


def test_simulate_refuses_unknown_colour(capsys):
    assert main(["simulate", "--players", "green,teal"]) == 2
    assert "unknown colour 'teal'" in capsys.readouterr().err


def test_demo_reveals_a_pile(capsys):
    assert main(["demo", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Revealing them one by one" in out and "DELIVERED" in out


def test_no_sub_command_is_an_error(capsys):
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args([])
    assert done.value.code == 2
