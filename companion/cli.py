"""The ``mamma-mia`` command: one console script, one module per sub-command.

Each module in :data:`COMMANDS` provides ``NAME``, ``HELP``,
``add_arguments(parser)`` and ``run(args) -> int``; heavy imports (OpenCV,
Flask) happen inside ``run`` so ``mamma-mia evaluate`` starts fast.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

COMMANDS = [
    "companion.commands.evaluate",
    "companion.commands.maus",
    "companion.commands.simulate",
    "companion.commands.demo",
    "companion.commands.scan",
    "companion.commands.enroll",
    "companion.commands.serve",
    "companion.commands.init_db",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mamma-mia",
        description="Table companion for the card game Mamma Mia!: checks the oven pile "
                    "at round end, recognises cards with a camera, keeps the scores. "
                    "'mamma-mia maus' judges Maus au Chocolat combinations.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for path in COMMANDS:
        module = importlib.import_module(path)
        sub = subparsers.add_parser(module.NAME, help=module.HELP, description=module.__doc__,
                                    formatter_class=argparse.RawDescriptionHelpFormatter)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
