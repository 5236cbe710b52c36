"""Writing a deck's files so that a server stopped at any moment leaves
each file either as it was or as it was meant to be, never half-written:
the new content goes to a temporary file beside it, which then replaces it
in one step (``os.replace`` is atomic within a file system)."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

TEMPORARY_PREFIX = ".writing-"  # never a deck's own file name: those are lower-case slugs


def write_atomic(path: Path, data: bytes) -> None:
    """Put ``data`` at ``path`` all at once."""
    handle, temporary = tempfile.mkstemp(prefix=TEMPORARY_PREFIX, dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())  # the content reaches the disk before the name points at it
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_json_atomic(path: Path, value: Any) -> None:
    write_atomic(path, (json.dumps(value, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))


def read_json(path: Path) -> Any:
    """The JSON in ``path``; None when the file is missing or not JSON (a
    file someone edited by hand, say), which callers treat as absent."""
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
