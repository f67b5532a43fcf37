"""Every scenario file under tests/scenarios runs and all its expectations hold."""
import re
from pathlib import Path

import pytest
import yaml

from magewars.dsl.vocab import STEP_TITLES
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


# A log text names a step by its title (dsl/vocab.py STEP_TITLES), as the engine's step and reveal-window
# lines do.  log_lacks is compared without case, so an expectation naming a step some other way (its
# name's words, "move to zone") could never match and would pass whatever the engine did.
_STEP_MENTION = re.compile(r"(?:window after|reveal after|revealed during|revealed after) (.+?)(?::|\?|$)")


def _expected_texts(path):
    """(key, text) of every log expectation of a scenario: its `expect` and the actions' own."""
    body = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    blocks = [body.get("expect") or {}] + [a["expect"] for a in body.get("actions") or []
                                           if isinstance(a, dict) and isinstance(a.get("expect"), dict)]
    for expect in blocks:
        for key in ("log_contains", "log_lacks"):
            for s in expect.get(key) or []:
                yield key, str(s)


def test_every_log_expectation_is_read():
    """_expected_texts finds every log_contains/log_lacks of the scenario files, wherever it is written."""
    def anywhere(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k in ("log_contains", "log_lacks"):
                    yield from ((k, str(s)) for s in v or [])
                else:
                    yield from anywhere(v)
        elif isinstance(node, list):
            for v in node:
                yield from anywhere(v)
    for path in SCENARIOS:
        body = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert sorted(_expected_texts(path)) == sorted(anywhere(body)), path
    assert sum(1 for path in SCENARIOS for _ in _expected_texts(path)) > 300


def test_log_expectations_name_steps_by_their_titles():
    titles = {t.lower() for t in STEP_TITLES.values()}
    bad = []
    for path in SCENARIOS:
        for key, text in _expected_texts(path):
            for m in _STEP_MENTION.finditer(text):
                if m.group(1).lower() not in titles:
                    bad.append(f"{path.relative_to(ROOT)}: {key} {text!r} names no step title ({m.group(1)!r})")
    assert not bad, "\n".join(bad)


def test_step_mentions_are_found_in_a_real_log():
    """The pattern above reads the engine's own lines: a window's line (a move's six steps, the one
    after Move to New Zone being where the reveal happened) and a mandatory reveal's (a zone attack on two
    creatures: Avoid Attack to Damage and Effects for each)."""
    found = []
    for name in ("rulings/spells/force_crush_too_late.yaml", "block_unavoidable_wasted.yaml"):
        result = run_scenario(str(ROOT / name), (CARDS_ROOT,))
        found += [(e.kind, m.group(1)) for e in result.game.log.events if e.kind in ("window", "rule")
                  for m in _STEP_MENTION.finditer(e.text)]
    move = ["Declare Move", "Pay Costs", "Leaving Zone Effects", "Walls", "Entering Zone Triggers"]
    per_target = ["Avoid Attack", "Roll Dice", "Damage and Effects"]
    assert found == ([("window", t) for t in move]  # (the reveal in the window after Move to New Zone)
                     + [("window", t) for t in ("Declare Attack", "Pay Costs", "Roll to Miss")]
                     + [("rule", "Avoid Attack")]  # Block must be revealed; each target of the zone attack
                     + [("window", t) for t in per_target + per_target + ["Attack Ends"]])
    assert {t for _, t in found} <= set(STEP_TITLES.values())
