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

import ctypes
import ctypes.util
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

# a table has a handful of tablets, each holding a live stream (at most live.MAX_STREAMS
# of them), and one or two cameras sending frames: the rest of the pool answers those
THREADS = 16
SHUTDOWN_SECONDS = 5  # on stop, requests under way get this long to finish
STOP_POLL_SECONDS = 0.25  # how soon a noted Ctrl+C is acted on
MALLOC_ARENAS = 2
MMAP_THRESHOLD_BYTES = 1024 * 1024
_M_MMAP_THRESHOLD, _M_ARENA_MAX = -3, -8  # mallopt's parameters, from glibc's malloc.h


class TableServer(wsgi.Server):
    """cheroot's WSGI server reporting only warnings and errors (on standard
    error): a browser dropping its first TLS handshake with a self-signed
    certificate, or a tablet leaving mid-request, is no news to the players.
    Stopping first calls ``on_stop`` (the app's live streams end at once
    rather than keeping the shutdown waiting)."""

    on_stop: Callable[[], None] | None = None

    def stop(self) -> None:
        if self.on_stop is not None:
            self.on_stop()
        super().stop()

    def error_log(self, msg: str = "", level: int = logging.INFO, traceback: bool = False) -> None:
        if level >= logging.WARNING:
            super().error_log(msg, level, traceback)


def build_server(app: WsgiApp, host: str, port: int, cert: PathLike | None = None, key: PathLike | None = None,
                 on_stop: Callable[[], None] | None = None) -> TableServer:
    """A server for ``app`` on ``host``:``port`` (0: any free port), HTTPS
    when given a certificate and its key. It listens once prepared
    (``server.prepare()``, which :func:`serve_in_thread` does if needed).
    ``on_stop`` defaults to closing the live streams of ``app`` (a Flask app
    of :mod:`companion.web`); pass it for an app wrapped in something else."""
    if (cert is None) != (key is None):
        raise ValueError("HTTPS needs both a certificate and its key")
    server = TableServer((host, port), app, numthreads=THREADS, shutdown_timeout=SHUTDOWN_SECONDS)
    hub = getattr(app, "extensions", {}).get("live")
    server.on_stop = on_stop or (hub.close if hub is not None else None)
    if cert is not None and key is not None:
        server.ssl_adapter = BuiltinSSLAdapter(os.fspath(cert), os.fspath(key))
    return server


def return_freed_memory() -> bool:
    """Have glibc's malloc give large freed blocks back to the system at once;
    call it before the server's threads start. False where the C library is
    not glibc (nothing changes there).

    glibc gives each thread that meets another in malloc an arena of its own
    (up to eight per core), and raises its threshold for serving a block by a
    mapping of its own to the largest block freed so far, up to 32 MB. After
    one large picture, blocks of tens of MB are then carved from the arenas,
    and each of cheroot's threads keeps what it freed: a series of uploads
    climbed to 600 MB that way. A fixed threshold (which also ends the
    raising) makes every block over 1 MB a mapping that is unmapped when
    freed, and two arenas bound what smaller blocks leave behind. The
    environment's MALLOC_ARENA_MAX is read as the process starts, too early
    for a Python program to set it; ``mallopt`` applies from the call on."""
    library = ctypes.util.find_library("c")
    libc = ctypes.CDLL(library) if library else None
    if libc is None or not hasattr(libc, "mallopt") or not hasattr(libc, "gnu_get_libc_version"):
        return False
    return bool(libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)) and bool(
        libc.mallopt(_M_ARENA_MAX, MALLOC_ARENAS))


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
