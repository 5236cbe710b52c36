"""Doctests in the package see the engine's public names; property tests have
no deadline (they check behaviour, and a shared machine's timing varies)."""
import pytest
from hypothesis import HealthCheck, settings

import companion.engine

settings.register_profile("shared-machine", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("shared-machine")


@pytest.fixture(autouse=True)
def _engine_names(doctest_namespace: dict) -> None:
    doctest_namespace.update({k: v for k, v in vars(companion.engine).items() if not k.startswith("_")})
