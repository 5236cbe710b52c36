"""A Maus au Chocolat game driven through the API, remembering the version last seen."""
from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from .conftest import Table

THREE = {"players": ["Ann", "Bob", "Cy"], "oldest": 0, "held": ["mathieu", "lilly", "claude"]}


class MausTable(Table):
    def __init__(self, client: FlaskClient, setup: dict[str, Any] = THREE) -> None:
        self.start(client, "/api/maus/games", setup)

    def judge(self, seat: int, cards: list[str]) -> dict[str, Any]:
        response = self.client.post(f"/api/games/{self.id}/judge", json={"seat": seat, "cards": cards})
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def lay_best(self, cards: list[str]) -> dict[str, Any]:
        """The player whose turn it is lays ``cards`` the best way the judge offers."""
        seat = self.state["next_to_lay"]
        verdict = self.judge(seat, cards)
        assert verdict["legal"], verdict
        return self.ok("combination", seat=seat, cards=cards, change=verdict["options"][0]["change"])

    def skip(self) -> dict[str, Any]:
        return self.ok("skip", seat=self.state["next_to_lay"])

    def get(self) -> dict[str, Any]:
        return self.client.get(f"/api/games/{self.id}").get_json()
