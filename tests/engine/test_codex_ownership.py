"""The codex owns the rules (issue 9, item 2): for each codex entry that states rules, remove them (in a
copy of the compiled codex) and show that the outcome of at least one scenario changes.

A scenario "involves" an entry when, in its unmodified run, some object carries the entry (as a trait,
a condition or a token) or some attack has it as a trait.  Each entry is tried on the scenarios that
involve it until one outcome (the final state as every player sees it, plus every attack made, plus an
error if the run stops) differs.  An entry no scenario depends on is a missing scenario: it is listed in
tests/data/codex_entries_without_scenario.txt, a list that may only shrink (the test fails on a new
entry and on a listed entry that now has a scenario).
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from magewars.scenario import run_scenario
from magewars.scenario import runner

SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "scenarios").rglob("*.yaml"))
CARDS_ROOT = Path(__file__).resolve().parent / "cards"  # the shared test cards (as in test_scenarios)
MISSING = Path(__file__).resolve().parents[1] / "data" / "codex_entries_without_scenario.txt"


def _outcome(path: Path) -> tuple[str, set]:
    """(the outcome as text, the codex entries the run involved)."""
    try:
        result = run_scenario(str(path), (CARDS_ROOT,))
    except Exception as exc:  # a scenario that cannot even start without the rule
        return f"error: {type(exc).__name__}: {exc}", set()
    game = result.game
    involved: set = set()
    if game is not None:
        for o in game.state.objects.values():
            involved.update(o.markers)
            involved.update(t.key for t in o.card.traits)
            if o.in_play:
                involved.update(game.effects.derived(o).traits)
            for a in o.card.attacks:
                involved.update(t.key for t in a.traits)
                involved.update(name for row in a.effect_die for (name, _n) in row.outcomes)  # Push...
                for alt in a.alternatives:
                    involved.update(t.key for t in alt)
        for atk in game.attacks.history:
            involved.update(t.key for t in atk.traits)
    view = game.view() if game is not None else {}
    if game is not None:  # where a card went when it left play is public too (Cantrip, Devour, Obliterate)
        for oid, o in game.state.objects.items():
            if o.left_to is not None and oid in view["objects"]:
                view["objects"][oid]["left_to"] = o.left_to
    attacks = [a.summary() for a in game.attacks.history] if game is not None else []
    err = result.error.format(False) if result.error is not None else None
    return json.dumps({"view": view, "attacks": attacks, "error": err}, sort_keys=True, default=str), involved


@pytest.fixture(scope="module")
def baseline():
    base = runner.base_corpus()
    out = {p: _outcome(p) for p in SCENARIOS}
    return base, out


def _with_entry_stripped(base, name):
    codex = dict(base.codex)
    codex[name] = dataclasses.replace(codex[name], abilities=())
    return dataclasses.replace(base, codex=codex)


def test_every_codex_entry_that_states_rules_changes_some_scenario(baseline, monkeypatch):
    base, before = baseline
    stated = sorted(n for n, d in base.codex.items() if d.abilities)
    owned, unowned = {}, []
    for name in stated:
        candidates = [p for p, (_, involved) in before.items() if name in involved]
        found = None
        if candidates:
            monkeypatch.setitem(runner._BASE, "corpus", _with_entry_stripped(base, name))
            for p in candidates:
                if _outcome(p)[0] != before[p][0]:
                    found = p.stem
                    break
            monkeypatch.setitem(runner._BASE, "corpus", base)
        if found:
            owned[name] = found
        else:
            unowned.append(name)
    listed = [l.strip() for l in MISSING.read_text(encoding="utf-8").splitlines()
              if l.strip() and not l.startswith("#")]
    new = sorted(set(unowned) - set(listed))
    fixed = sorted(set(listed) - set(unowned))
    assert len(owned) >= 20, f"only {len(owned)} codex entries are owned by a scenario"
    assert not new, "codex entries whose rules no scenario depends on (write a scenario):\n  " + "\n  ".join(new)
    assert not fixed, ("these entries now change a scenario: delete them from "
                       f"{MISSING.name}:\n  " + "\n  ".join(fixed))
