"""``mamma-mia serve`` in a subprocess, as a player starts it: on a free
loopback port, with its own instance folder (``MAMMA_MIA_INSTANCE``), so an
attack reaches cheroot, the app and SQLite exactly as they run at a table.
"""
from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

START_SECONDS = 120.0  # a cold start on a loaded two-core machine imports OpenCV and NumPy slowly
POLL_SECONDS = 0.1


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve_command() -> list[str]:
    """The ``mamma-mia`` script beside this Python (a venv), else the same entry point through ``-m``."""
    script = Path(sys.executable).with_name("mamma-mia")
    return [str(script)] if script.exists() else [sys.executable, "-m", "companion.cli"]


def call(port: int, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    """One JSON request to the server on ``port``; ConnectionError (or OSError) when the server is gone."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        data = json.dumps(body).encode() if body is not None else None
        connection.request(method, path, data, {"Content-Type": "application/json"} if data else {})
        response = connection.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw else None
    finally:
        connection.close()


class LiveServer:
    """A server on ``instance``; :meth:`start` again after :meth:`kill` resumes the same games."""

    def __init__(self, instance: Path, log: Path | None = None) -> None:
        self.instance, self.log = instance, log or instance.with_name(instance.name + "-server.log")
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0

    @property
    def pid(self) -> int:
        assert self.process is not None, "not started"
        return self.process.pid

    def start(self) -> LiveServer:
        """Start and wait until it answers; a port taken meanwhile is tried again with another."""
        self.log.parent.mkdir(parents=True, exist_ok=True)
        for _attempt in range(5):
            self.port = free_port()
            env = {**os.environ, "MAMMA_MIA_INSTANCE": str(self.instance)}
            with self.log.open("ab") as log:
                self.process = subprocess.Popen([*serve_command(), "serve", "--port", str(self.port)], env=env,
                                                stdout=subprocess.DEVNULL, stderr=log)
            if self._ready():
                return self
        raise RuntimeError(f"the server did not start; see {self.log}")

    def _ready(self) -> bool:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                return False  # exited: most likely the port was taken
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api", timeout=5).close()
                return True
            except (OSError, urllib.error.URLError):
                time.sleep(POLL_SECONDS)
        self.kill()
        return False

    def kill(self) -> None:
        """``kill -9``: no chance to finish anything."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def memory_mb(self, field: str = "VmHWM") -> float:
        """The server's peak resident memory (``VmHWM``), or another field of ``/proc/PID/status``."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
        raise RuntimeError(f"no {field} for process {self.pid}")

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
