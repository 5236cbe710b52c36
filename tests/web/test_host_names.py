"""Trust is for this server's own names: a page that points a name of its own
at the host computer (DNS rebinding) reaches the server from loopback, but is
neither answered nor trusted; writes from another site's pages are refused."""
from __future__ import annotations

import pytest

from companion.web import create_app
from companion.web.access import own_names

from .conftest import ANN_BOB

FOREIGN = "attacker.example:5000"


@pytest.fixture
def coded_app(database):
    return create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test", "TABLE_CODE": "123456"})


def test_a_foreign_host_name_gets_no_page_and_no_table_code(coded_app):
    client = coded_app.test_client()
    response = client.get("/", headers={"Host": FOREIGN})
    assert response.status_code == 400 and "123456" not in response.get_data(as_text=True)
    assert "123456" in client.get("/").get_data(as_text=True)  # the host's own screen shows it


def test_a_foreign_host_name_cannot_write_from_loopback(coded_app):
    client = coded_app.test_client()
    response = client.post("/api/games", json={"players": ANN_BOB}, headers={"Host": FOREIGN,
                                                                            "Origin": "http://" + FOREIGN})
    assert response.status_code == 400 and response.get_json()["field"] == "host"
    assert client.get("/api/games").get_json()["games"] == []


@pytest.mark.parametrize("host", ["127.0.0.1:5000", "localhost:5000", "[::1]:5000", "192.168.1.20:5000"])
def test_addresses_and_localhost_are_this_server(client, host):
    assert client.get("/", headers={"Host": host}).status_code == 200


def test_the_computers_own_name_and_configured_names_are_this_server(database):
    app = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "t", "ALLOWED_HOSTS": ["Table.Lan"]})
    client = app.test_client()
    assert client.get("/", headers={"Host": "table.lan"}).status_code == 200
    for name in own_names():
        assert client.get("/", headers={"Host": f"{name}:5000"}).status_code == 200


def test_a_write_from_another_sites_page_is_refused(client):
    response = client.post("/api/games", json={"players": ANN_BOB}, headers={"Origin": "http://evil.example"})
    assert response.status_code == 403 and response.get_json()["field"] == "origin"
    assert client.get("/api/games").get_json()["games"] == []
    same = client.post("/api/games", json={"players": ANN_BOB}, headers={"Origin": "http://localhost"})
    assert same.status_code == 201


@pytest.mark.parametrize("origin", ["http://[::1", "http://[", "null", "\x00"])
def test_an_origin_that_is_not_an_address_is_another_site(client, origin):
    response = client.post("/api/games", json={"players": ANN_BOB}, headers={"Origin": origin})
    assert response.status_code == 403 and response.get_json()["field"] == "origin"
    assert client.get("/api/games").get_json()["games"] == []
