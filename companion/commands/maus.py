"""Maus au Chocolat: judge a combination, list the names the engine uses.

  mamma-mia maus combination [FILE|-] [--json]
      Reads {"cards": [{"ingredient": "green", "value": 5}, ...],
             "helper": "lilly", "hand_after": 2}
      (helper: null or etienne, henri, mathieu, maurice, lilly, amelie, claude;
      hand_after: optional, the cards left in hand after laying) and prints
      whether it is legal, what is kept and discarded, the points, and every
      legal use of the helper, best first. A card may also be written "g5".

  mamma-mia maus ingredients [--json]
      The five ingredient names, the sweet values, the deck (a stand-in
      spread of values and coins) and the helpers with their order numbers.

Exit code 0 for an answer, legal or not; 2 with one line on standard error
for input that is not a request.
"""
from __future__ import annotations

import argparse
import json

NAME = "maus"
HELP = "Maus au Chocolat: judge a combination, list ingredients and helpers (JSON contract)"
COMBINATION_HELP = """Judge one Maus au Chocolat combination given as JSON:

  {"cards": [{"ingredient": "green", "value": 5}, ...], "helper": "lilly", "hand_after": 2}

Answers whether it is legal (or why not), its kind, what is kept and
discarded, the points, and every legal use of the helper, best first.
Exit code 0 for an answer, legal or not; 2 with one line on standard error
for input that is not a request."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    commands = parser.add_subparsers(dest="maus_command", metavar="COMMAND", required=True)
    combination = commands.add_parser("combination", help="judge one combination given as JSON",
                                      description=COMBINATION_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    combination.add_argument("file", nargs="?", default="-", metavar="FILE|-",
                             help="the JSON request; - or nothing reads standard input")
    _json_option(combination)
    combination.set_defaults(maus_run=_combination)
    ingredients = commands.add_parser("ingredients", help="the ingredient names, values, deck and helpers",
                                      description="The names the maus contract uses, and the deck behind them.")
    _json_option(ingredients)
    ingredients.set_defaults(maus_run=_ingredients)


def _json_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true",
                        help="print the answer as JSON (the contract); otherwise as text for people")


def run(args: argparse.Namespace) -> int:
    return int(args.maus_run(args))


def _combination(args: argparse.Namespace) -> int:
    from ..jsonrequest import answer_request
    from ..maus.contract import combination_request
    from ..maus.report import format_combination

    result = answer_request(f"{NAME} combination", args.file, combination_request)
    if result is None:
        return 2
    print(json.dumps(result, indent=2, ensure_ascii=False) if args.json else format_combination(result))
    return 0


def _ingredients(args: argparse.Namespace) -> int:
    from ..maus.contract import ingredients_listing
    from ..maus.report import format_ingredients

    listing = ingredients_listing()
    print(json.dumps(listing, indent=2, ensure_ascii=False) if args.json else format_ingredients(listing))
    return 0
