"""Malformed requests over every route of the app (tools/bench/fuzz_requests.py),
through the test client: no 5xx, and a refused request changes nothing."""
from __future__ import annotations

from flask import request

from companion.web import create_app
from tools.bench.attack_run import ClientSender, Targets, prepare, run
from tools.bench.fuzz_requests import BREAKERS, fuzz, routes

COUNT = 300


def test_malformed_requests_get_no_5xx_and_change_nothing(app, client):
    sender = ClientSender(client)
    targets = prepare(sender)
    probes = fuzz(app, targets, COUNT)
    tally = run(sender, probes, [targets.game], check_every=10)
    assert tally.server_errors == []
    assert tally.changed == []
    assert tally.requests == COUNT and tally.statuses[400] > COUNT // 10


def test_every_route_and_every_kind_of_damage_is_tried(app):
    probes = fuzz(app, prepare_free_targets(), 1000)
    endpoints = {p.what.rsplit("(", 1)[1].rstrip(")") for p in probes}
    assert endpoints == {r.endpoint for r in routes(app)}
    assert {p.what.split(":")[0] for p in probes} == {b.name for b in BREAKERS}


def test_a_new_route_is_fuzzed_and_its_failure_found(database):
    app = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test"})

    def fragile() -> str:
        return str(len(request.get_json(silent=True)))  # a body that is not JSON: len(None), a 500

    app.add_url_rule("/api/extra", endpoint="api.extra", view_func=fragile, methods=["POST"])
    sender = ClientSender(app.test_client())
    probes = [p for p in fuzz(app, prepare(sender), 1000) if p.target.startswith("/api/extra")]
    tally = run(sender, probes, [], check_every=len(probes))
    assert tally.server_errors and all("/api/extra" in error for error in tally.server_errors)


def prepare_free_targets() -> Targets:
    return Targets(game=1, version=4, deck="attack-deck")
