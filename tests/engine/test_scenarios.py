"""Every scenario file under tests/scenarios runs and all its expectations hold."""
from pathlib import Path

import pytest

from magewars.scenario import run_scenario

ROOT = Path(__file__).resolve().parents[1] / "scenarios"
SCENARIOS = sorted(ROOT.rglob("*.yaml"))
# The shared test cards sit beside this file, outside the scenarios' folder: allowed explicitly,
# as `magewars simulate scenario --cards-root tests/engine/cards` does.
CARDS_ROOT = Path(__file__).resolve().parent / "cards"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.relative_to(ROOT).with_suffix("").as_posix() for p in SCENARIOS])
def test_scenario(path):
    result = run_scenario(str(path), (CARDS_ROOT,))
    if result.scenario.xfail:
        # a ruling the engine cannot reach yet: it must still fail, or the mark is stale
        assert not result.ok, f"{path.name} passes now: remove its `xfail: {result.scenario.xfail}`"
        pytest.xfail(result.scenario.xfail)
    assert result.error is None, result.error.format()
    failed = [c.format() for c in result.failed]
    assert not failed, "\n".join(failed) + "\n\n" + result.game.log.render()
