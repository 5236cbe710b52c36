"""What every JSON contract of the ``mamma-mia`` command shares: reading a
request from a file or standard input, and refusing one that is not a
request with a single line naming the culprit (exit code 2)."""
from __future__ import annotations

import json
import sys
from typing import Any, Callable, TypeVar

T = TypeVar("T")


class ContractError(ValueError):
    """Bad input, naming the offending field or card."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where


class UnreadableRequest(ValueError):
    """Input that cannot be read as JSON at all."""


def read_request(file: str) -> Any:
    """The JSON in ``file`` (``-``: standard input)."""
    try:
        text = sys.stdin.read() if file == "-" else open(file, encoding="utf-8").read()
    except OSError as error:
        raise UnreadableRequest(f"cannot read {file}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise UnreadableRequest(f"{'input' if file == '-' else file} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise UnreadableRequest(
            f"input is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}") from None


def answer_request(prog: str, file: str, handle: Callable[[Any], T]) -> T | None:
    """``handle`` the request in ``file``; for input that is not a request,
    print one line on standard error and return ``None`` (the caller exits 2)."""
    try:
        return handle(read_request(file))
    except (UnreadableRequest, ContractError) as error:
        message = str(error)
    except RecursionError:
        message = "input is nested too deeply to be a request"
    print(f"{prog}: {message}", file=sys.stderr)
    return None
