"""The round page's script says counts and ordinals as the server does, in a
real browser: its Intl.PluralRules and the server's Babel apply the same CLDR rules."""
from __future__ import annotations

import json
import urllib.request

import pytest

from companion.web.i18n import LANGUAGES, translate

COUNTS = [0, 1, 2, 3, 4, 5, 11, 21, 22, 101]
SAID = [("rank.hand_n", "n"), ("rank.delivered_n", "n"), ("cards.err_incomplete", "n"), ("num.nth", "n"),
        ("num.nth_f", "n")]


def new_game(server: str) -> int:
    body = {"players": [{"name": "Ann", "color": "green"}, {"name": "Bob", "color": "red"}]}
    request = urllib.request.Request(f"{server}/api/games", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)["id"]


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_page_script_counts_as_the_server_does(page, server, lang):
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server}])
    page.goto(f"/games/{new_game(server)}")
    page.wait_for_function("() => typeof Cards !== 'undefined'")
    for key, name in SAID:
        in_browser = page.evaluate("([key, name, counts]) => counts.map((n) => Cards.t(key, { [name]: n }))",
                                   [key, name, COUNTS])
        assert in_browser == [translate(lang, key, **{name: n}) for n in COUNTS], (lang, key)
    values = {"nth": 11, "kind": "salami", "card": "S", "players": 3, "limit": 10}
    assert page.evaluate("(values) => Cards.t('refusal.too_many', values)", values) == translate(
        lang, "refusal.too_many", **values)
