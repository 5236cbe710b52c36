"""Evaluate a whole oven pile: which orders succeed, what each owner must add.

Reads the JSON request from FILE (or standard input with -) and prints the
result. Input:

  {"players": ["green", "red"], "doubles": false,
   "table": {"salami": 2},                 face-up leftovers, in units
   "pile": [CARD, ...],                    in reveal order
   "hands": {"green": {"pineapple": 1}},   optional: what owners could add
   "choices": {"12": "mushroom"},          optional: Monotoni/Minimale choice
   "declines": [7]}                        optional: owners who do not add

CARD: {"kind": "ingredient", "ingredient": "salami", "double": false},
{"kind": "order", "color": "green", "recipe": {"pineapple": 4, "pepper": 1}},
{"kind": "order", "color": "green", "special": "monotoni", "fixed": "pepper"},
or the short notation "S", "S2", "g:4A+P", "g:15+", "g:P+6J", "g:P+3?".

Bad input: exit code 2 and one line on standard error naming the field.
"""
from __future__ import annotations

import argparse
import json

NAME = "evaluate"
HELP = "evaluate an oven pile given as JSON (the contract other tools use)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", default="-", metavar="FILE|-",
                        help="the JSON request; - or nothing reads standard input")
    parser.add_argument("--json", action="store_true",
                        help="print the result as JSON (the contract); otherwise as text for people")


def run(args: argparse.Namespace) -> int:
    from ..contract import evaluate_request
    from ..jsonrequest import answer_request
    from ..report import format_evaluation

    result = answer_request(NAME, args.file, evaluate_request)
    if result is None:
        return 2
    print(json.dumps(result, indent=2) if args.json else format_evaluation(result))
    return 0
