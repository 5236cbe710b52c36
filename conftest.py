"""Doctests in the package see the engine's public names."""
import pytest

import companion.engine


@pytest.fixture(autouse=True)
def _engine_names(doctest_namespace: dict) -> None:
    doctest_namespace.update({k: v for k, v in vars(companion.engine).items() if not k.startswith("_")})
