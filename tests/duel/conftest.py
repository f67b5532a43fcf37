import pytest


@pytest.fixture(scope="session")
def corpus():
    from magewars.duel.runner import corpus as load
    return load()
