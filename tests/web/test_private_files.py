"""What only the host's owner may read stays so: the games database and the
HTTPS key; under HTTPS the session cookie is never sent in the clear."""
from __future__ import annotations

import os
import stat

from companion.web import create_app
from companion.web.certificate import ensure_certificate


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_the_database_is_private_even_if_loosened(tmp_path):
    database = tmp_path / "games.sqlite"
    create_app({"DATABASE": str(database), "SECRET_KEY": "t"})
    assert mode(database) == 0o600
    os.chmod(database, 0o644)
    create_app({"DATABASE": str(database), "SECRET_KEY": "t"})
    assert mode(database) == 0o600


def test_a_loosened_key_is_made_private_again(tmp_path):
    cert, key = ensure_certificate(tmp_path, ["192.168.1.20"])
    os.chmod(key, 0o644)
    again = ensure_certificate(tmp_path, ["192.168.1.20"])
    assert again == (cert, key) and mode(key) == 0o600
