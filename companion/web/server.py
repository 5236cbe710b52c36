"""The server behind ``mamma-mia serve``: cheroot, one process, a pool of threads.

Camera sessions are kept in the process's memory, so the app is served by a
single process whose threads share them. HTTPS uses Python's own ``ssl``
module through cheroot's built-in adapter, with the self-signed certificate of
:mod:`.certificate`.

>>> server = build_server(lambda environ, start_response: [], "127.0.0.1", 0)
>>> server.bind_addr, server.ssl_adapter
(('127.0.0.1', 0), None)
"""
from __future__ import annotations

import logging
import os
import signal
import threading
from types import FrameType
from typing import Any, Callable, Iterable

from cheroot import wsgi
from cheroot.ssl.builtin import BuiltinSSLAdapter

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
PathLike = str | os.PathLike[str]

THREADS = 10  # a table has a handful of tablets polling and one or two cameras sending frames
SHUTDOWN_SECONDS = 5  # on stop, requests under way get this long to finish
STOP_POLL_SECONDS = 0.25  # how soon a noted Ctrl+C is acted on


class TableServer(wsgi.Server):
    """cheroot's WSGI server reporting only warnings and errors (on standard
    error): a browser dropping its first TLS handshake with a self-signed
    certificate, or a tablet leaving mid-request, is no news to the players."""

    def error_log(self, msg: str = "", level: int = logging.INFO, traceback: bool = False) -> None:
        if level >= logging.WARNING:
            super().error_log(msg, level, traceback)


def build_server(app: WsgiApp, host: str, port: int,
                 cert: PathLike | None = None, key: PathLike | None = None) -> TableServer:
    """A server for ``app`` on ``host``:``port`` (0: any free port), HTTPS
    when given a certificate and its key. It listens once prepared
    (``server.prepare()``, which :func:`serve_in_thread` does if needed)."""
    if (cert is None) != (key is None):
        raise ValueError("HTTPS needs both a certificate and its key")
    server = TableServer((host, port), app, numthreads=THREADS, shutdown_timeout=SHUTDOWN_SECONDS)
    if cert is not None and key is not None:
        server.ssl_adapter = BuiltinSSLAdapter(os.fspath(cert), os.fspath(key))
    return server


class ServingThread(threading.Thread):
    """``server.serve()`` in its own thread, keeping what ended it unexpectedly."""

    def __init__(self, server: TableServer) -> None:
        # daemon: a main thread leaving on an error must not be kept waiting by it
        super().__init__(name="table-server", daemon=True)
        self.server = server
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.server.serve()
        except BaseException as error:  # handed to whoever waits for the server
            self.error = error


def serve_in_thread(server: TableServer) -> ServingThread:
    """Listen (unless already listening) and serve in a new thread; ``server.stop()`` ends it."""
    if not server.ready:
        server.prepare()
    serving = ServingThread(server)
    serving.start()
    return serving


class _StopRequest:
    """A signal handler that only notes the request: raising KeyboardInterrupt
    instead could land in any of cheroot's frames, even in a finaliser that
    swallows it, and leave the server running."""

    def __init__(self) -> None:
        self.requested = False

    def __call__(self, number: int, frame: FrameType | None) -> None:
        self.requested = True


def serve_until_stopped(server: TableServer) -> None:
    """Serve until Ctrl+C or SIGTERM, then stop: no new connections, and
    requests under way get SHUTDOWN_SECONDS to finish. Call it from the main
    thread, the one Python runs signal handlers in. An error that ends the
    server by itself is raised here."""
    stop = _StopRequest()
    # set for SIGINT too: a shell starting the server in the background leaves it ignored
    previous = {number: signal.signal(number, stop) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        serving = serve_in_thread(server)
        while serving.is_alive() and not stop.requested:
            serving.join(STOP_POLL_SECONDS)
    finally:
        server.stop()
        for number, handler in previous.items():
            signal.signal(number, handler)
    serving.join()
    if serving.error is not None:
        raise serving.error
