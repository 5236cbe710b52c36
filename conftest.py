"""Doctests of Mamma Mia!'s modules see its engine's public names (another
game's package, like companion/maus, keeps its own names); property tests have
no deadline (they check behaviour, and a shared machine's timing varies)."""
import pytest
from hypothesis import HealthCheck, settings

import companion.engine

settings.register_profile("shared-machine", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("shared-machine")


OTHER_GAMES = ("companion/maus/",)
ENGINE_NAMES = {k: v for k, v in vars(companion.engine).items() if not k.startswith("_")}


@pytest.fixture(autouse=True)
def _engine_names(request: pytest.FixtureRequest, doctest_namespace: dict) -> None:
    # the namespace lives for the whole session: another game's doctests must have the names taken out
    if request.node.nodeid.startswith(OTHER_GAMES):
        for name in ENGINE_NAMES:
            doctest_namespace.pop(name, None)
    else:
        doctest_namespace.update(ENGINE_NAMES)
