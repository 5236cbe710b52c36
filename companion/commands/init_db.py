"""Create the games database, or add the tables a newer version needs.

  mamma-mia init-db

Existing games are kept. The database is the one `mamma-mia serve` uses:
mamma-mia.sqlite in the instance folder, or the DATABASE that folder's
config.py sets. The instance folder is the one the MAMMA_MIA_INSTANCE
environment variable names; unset, it is instance/ beside the source (or
var/companion.web-instance in the Python installation, for an installed copy).
`serve` does the same at every start, so this is only needed to prepare a
database ahead, e.g. while installing. Says where the database is; exit code
1 when it cannot be written.
"""
from __future__ import annotations

import argparse
import sqlite3
import sys

NAME = "init-db"
HELP = "create or update the games database (serve also does it when it starts)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No options: the instance folder and its config.py say everything."""


def run(args: argparse.Namespace) -> int:
    from ..web import create_app
    from ..web.db import init_db

    try:
        # the app reads the instance folder's config.py, where DATABASE may be set
        database = create_app().config["DATABASE"]
        init_db(database)
    except (OSError, sqlite3.Error) as error:
        print(f"init-db: cannot write the database: {error}", file=sys.stderr)
        return 1
    print(f"Database ready: {database}")
    return 0
