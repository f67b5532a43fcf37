"""Every scenario file under tests/scenarios runs and all its expectations hold."""
from pathlib import Path

import pytest

from magewars.scenario import run_scenario

SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path):
    result = run_scenario(str(path))
    assert result.error is None, result.error.format()
    failed = [c.format() for c in result.failed]
    assert not failed, "\n".join(failed) + "\n\n" + result.game.log.render()
