"""The table code (when served beyond loopback) and the `serve` command that sets it."""
from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from flask import Flask

import companion.web
import companion.web.server
from companion.cli import main
from companion.web.access import is_loopback_host
from companion.web.throttle import FREE_ATTEMPTS

from .conftest import ANN_BOB, form_token

PHONE = {"REMOTE_ADDR": "192.168.1.23"}
CODE = "482913"


@pytest.fixture
def remote_app(app):
    app.config["TABLE_CODE"] = CODE
    return app


def csrf(client, path: str = "/join") -> str:
    page = client.get(path, environ_base=PHONE).get_data(as_text=True)
    return form_token(page)


def test_a_remote_device_needs_the_code_before_any_api_write(remote_app, table):
    phone = remote_app.test_client()
    response = phone.post("/api/games", json={"players": ANN_BOB}, environ_base=PHONE)
    assert response.status_code == 403
    assert response.get_json()["field"] == "table_code"
    response = phone.post(f"/api/games/{table.id}/reveal", json={"card": "S", "version": 1}, environ_base=PHONE)
    assert response.status_code == 403
    assert table.get()["version"] == 1  # nothing changed
    assert phone.get(f"/api/games/{table.id}", environ_base=PHONE).status_code == 200  # reading is fine


def test_a_remote_form_post_without_the_code_goes_to_the_code_page(remote_app):
    phone = remote_app.test_client()
    token = csrf(phone, "/games/new")
    response = phone.post("/games/new", data={"csrf_token": token, "name0": "Ann", "color0": "green",
                                              "name1": "Bob", "color1": "red"}, environ_base=PHONE)
    assert response.status_code == 302 and response.headers["Location"].startswith("/join?next=/games/new")
    assert phone.get("/api/games", environ_base=PHONE).get_json() == {"games": []}


def test_the_right_code_grants_the_device_for_its_session(remote_app, table):
    phone = remote_app.test_client()
    page = phone.get(f"/games/{table.id}", environ_base=PHONE).get_data(as_text=True)
    assert "View only" in page and CODE not in page  # the code is shown only on the host
    wrong = phone.post("/join", data={"csrf_token": csrf(phone), "code": "000000"}, environ_base=PHONE)
    assert wrong.status_code == 400 and "That is not the table code" in wrong.get_data(as_text=True)
    right = phone.post("/join", data={"csrf_token": csrf(phone), "code": CODE, "next": f"/games/{table.id}"},
                       environ_base=PHONE)
    assert right.status_code == 303 and right.headers["Location"] == f"/games/{table.id}"
    response = phone.post(f"/api/games/{table.id}/reveal", json={"card": "S", "version": 1}, environ_base=PHONE)
    assert response.status_code == 200
    other_phone = remote_app.test_client()
    response = other_phone.post(f"/api/games/{table.id}/reveal", json={"card": "S", "version": 2},
                                environ_base=PHONE)
    assert response.status_code == 403


def test_the_code_form_needs_its_csrf_token(remote_app):
    phone = remote_app.test_client()
    phone.get("/join", environ_base=PHONE)
    response = phone.post("/join", data={"code": CODE}, environ_base=PHONE)
    assert response.status_code == 400 and "This form has expired" in response.get_data(as_text=True)


def test_the_host_screen_is_trusted_and_shows_the_code(remote_app, client):
    page = client.get("/").get_data(as_text=True)
    assert f"Table code: {CODE}" in page
    assert client.post("/api/games", json={"players": ANN_BOB}).status_code == 201


def test_without_a_table_code_nobody_is_asked(client):
    assert client.post("/api/games", json={"players": ANN_BOB}, environ_base=PHONE).status_code == 201
    assert "Table code" not in client.get("/").get_data(as_text=True)


def test_the_api_still_reads_only_json(client, table):
    response = client.post(f"/api/games/{table.id}/reveal", data={"card": "S", "version": "1"})
    assert response.status_code == 400 and "application/json" in response.get_json()["error"]


@pytest.mark.parametrize("host, loopback", [("127.0.0.1", True), ("::1", True), ("localhost", True),
                                            ("0.0.0.0", False), ("192.168.1.5", False), ("::", False)])
def test_loopback_hosts(host, loopback):
    assert is_loopback_host(host) is loopback


def run_serve(monkeypatch, tmp_path, *argv: str) -> Flask:
    """`mamma-mia serve` with a test database and without actually listening."""
    made: list[Flask] = []
    real_create_app = companion.web.create_app

    def create_app() -> Flask:
        made.append(real_create_app({"DATABASE": str(tmp_path / "db.sqlite"), "SECRET_KEY": "t"}))
        return made[-1]

    monkeypatch.setattr(companion.web, "create_app", create_app)
    monkeypatch.setattr(companion.web.server, "build_server", lambda *args: SimpleNamespace(prepare=lambda: None))
    monkeypatch.setattr(companion.web.server, "serve_until_stopped", lambda server: None)
    assert main(["serve", *argv]) == 0
    return made[0]


def test_serve_beyond_loopback_makes_and_prints_a_table_code(monkeypatch, tmp_path, capsys):
    app = run_serve(monkeypatch, tmp_path, "--host", "0.0.0.0", "--port", "5123")
    code = app.config["TABLE_CODE"]
    assert re.fullmatch(r"\d{6}", code)
    assert f"Table code: {code}" in capsys.readouterr().out


def test_serve_on_loopback_asks_no_code(monkeypatch, tmp_path, capsys):
    app = run_serve(monkeypatch, tmp_path)
    assert app.config["TABLE_CODE"] is None and "Table code" not in capsys.readouterr().out


def test_wrong_codes_slow_the_guesser_down_per_address_and_per_device(remote_app):
    phone = remote_app.test_client()

    def attempt(code: str, client=phone, address: dict = PHONE):
        return client.post("/join", data={"csrf_token": csrf(client), "code": code}, environ_base=address)

    for guess in range(FREE_ATTEMPTS):
        assert attempt(f"{guess:06d}").status_code == 400  # a few mistypes cost nothing
    assert attempt("999999").status_code == 400            # the first one that counts sets a wait
    waiting = attempt(CODE)                                  # even the right code waits its turn
    assert waiting.status_code == 429 and "Try again in" in waiting.get_data(as_text=True)
    new_cookies = remote_app.test_client()                   # dropping the cookie keeps the address
    assert attempt(CODE, new_cookies).status_code == 429
    elsewhere = remote_app.test_client()                     # another device at another address is free
    assert attempt(CODE, elsewhere, {"REMOTE_ADDR": "192.168.1.77"}).status_code == 303
