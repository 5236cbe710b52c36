"""Devices writing on the same version at the same moment, against cheroot
(tools/bench/race_test.py): one write wins each race, the rest get 409, and
the log grows by the winner's event alone."""
from __future__ import annotations

from companion.web.server import build_server, serve_in_thread
from tools.bench.race_test import run_races


def test_each_race_has_exactly_one_winner(app):
    server = build_server(app, "127.0.0.1", 0)
    serving = serve_in_thread(server)
    try:
        races = run_races(server.bind_addr[1], rounds=20, threads=6)
    finally:
        server.stop()
        serving.join()
    assert races.failures == []
    assert races.single_winner == 20 and races.statuses == {200: 20, 409: 100}
