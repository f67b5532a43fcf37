"""The codex owns the rules (issue 9, item 2): for each codex entry that states rules, remove them (in a
copy of the compiled codex) and show that the outcome of at least one scenario, or of one spellbook
check, changes.

A scenario "involves" an entry when, in its unmodified run, some object carries the entry (as a trait,
a condition or a token), some attack has it as a trait, or an effect record names it (a trait gained
until the end of an attack).  A spellbook involves the entries its spells
and its Mage carry as traits.  Each entry is tried on what involves it until one outcome differs:

* a scenario's final state as every player sees it, every attack made, an error if the run stops, and
  the values its expectations read (a channeling, an offered action...);
* failing that, the scenario's event record (so a rule whose effect is transient, such as a die
  modifier or a trait lasting one attack, counts too).  Trace records that only say a rule was
  looked at (`trigger`, `info`, `note`) and refusals (`unsupported`) are left out: an entry owns a
  scenario by what it changes, not by being mentioned;
* a spellbook check (tests/data/ownership_books and the shipped books): its diagnostics and its
  points per spell (Epic, Novice: spellbook building is the only procedure that reads them).

An entry nothing depends on is a missing scenario: it is listed in
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
from magewars.spellbook import load_spellbook, shipped_books, validate
from magewars.spellbook.report import summary

TESTS = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((TESTS / "scenarios").rglob("*.yaml"))
CARDS_ROOT = Path(__file__).resolve().parent / "cards"  # the shared test cards (as in test_scenarios)
MISSING = TESTS / "data" / "codex_entries_without_scenario.txt"
BOOKS = sorted((TESTS / "data" / "ownership_books").glob("*.book")) + sorted(shipped_books().values())
#: event kinds that trace what the engine looked at rather than what happened
TRACE_KINDS = frozenset({"trigger", "info", "note", "unsupported"})


def _involved(game) -> set:
    involved: set = set()
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
    # traits held for a while only (`gains [...] until end of attack`): named by the effect records
    effects = [e.text for e in game.log.events if e.kind == "effect"]
    if effects:
        involved.update(k for k in game.codex if any(f"{k} " in t or f"{k}," in t or f"{k})" in t for t in effects))
    return involved


def _outcome(path: Path) -> tuple[str, str, set]:
    """(the outcome as text, the event record as text, the codex entries the run involved)."""
    try:
        result = run_scenario(str(path), (CARDS_ROOT,))
    except Exception as exc:  # a scenario that cannot even start without the rule
        return f"error: {type(exc).__name__}: {exc}", "", set()
    game = result.game
    involved = _involved(game) if game is not None else set()
    view = game.view() if game is not None else {}
    if game is not None:  # where a card went when it left play is public too (Cantrip, Devour, Obliterate)
        for oid, o in game.state.objects.items():
            if o.left_to is not None and oid in view["objects"]:
                view["objects"][oid]["left_to"] = o.left_to
    attacks = [a.summary() for a in game.attacks.history] if game is not None else []
    err = result.error.format(False) if result.error is not None else None
    observed = [(c.what, repr(c.actual)) for c in result.checks]  # what the scenario's expectations read
    record = [(e.kind, e.text) for e in game.log.events if e.kind not in TRACE_KINDS] if game is not None else []
    return (json.dumps({"view": view, "attacks": attacks, "error": err, "observed": observed},
                       sort_keys=True, default=str),
            json.dumps(record), involved)


def _book_outcome(path: Path, corpus) -> tuple[str, set]:
    """(the check of a spellbook as text: its diagnostics and points, the codex entries it involves)."""
    book = load_spellbook(path, corpus=corpus)
    diags = [d.format(False) for d in validate(book)]
    s = summary(book)
    points = [(row["name"], row["points"]) for row in s["cards"]]
    involved = {t.key for e in book.entries if e.card is not None for t in e.card.traits}
    for card in (book.mage, book.stats):
        if card is not None:
            involved.update(t.key for t in card.traits)
    return json.dumps({"diagnostics": diags, "points": points, "total": s["points"]}), involved


@pytest.fixture(scope="module")
def baseline():
    base = runner.base_corpus()
    scenarios = {p: _outcome(p) for p in SCENARIOS}
    books = {p: _book_outcome(p, base) for p in BOOKS}
    return base, scenarios, books


def _with_entry_stripped(base, name):
    codex = dict(base.codex)
    codex[name] = dataclasses.replace(codex[name], abilities=())
    return dataclasses.replace(base, codex=codex)


def owners(base, scenarios, books, monkeypatch) -> tuple[dict, list]:
    """{entry: (what it changes, how)} for every owned entry, and the entries nothing depends on."""
    stated = sorted(n for n, d in base.codex.items() if d.abilities)
    owned, unowned = {}, []
    for name in stated:
        stripped = _with_entry_stripped(base, name)
        found = None
        for p, (_, involved) in books.items():
            if name in involved and _book_outcome(p, stripped)[0] != books[p][0]:
                found = (f"book {p.name}", "book check")
                break
        candidates = [p for p, (_, _, involved) in scenarios.items() if name in involved]
        if found is None and candidates:
            monkeypatch.setitem(runner._BASE, "corpus", stripped)
            try:
                by_record = None
                for p in candidates:
                    final, record, _ = _outcome(p)
                    if final != scenarios[p][0]:
                        found = (p.stem, "final state")
                        break
                    if by_record is None and record != scenarios[p][1]:
                        by_record = p
                if found is None and by_record is not None:
                    monkeypatch.setitem(runner._BASE, "corpus", base)
                    # the record differs because of the entry, not because the run varies by itself
                    assert _outcome(by_record)[1] == scenarios[by_record][1], f"{by_record.name} is not deterministic"
                    found = (by_record.stem, "event record")
            finally:
                monkeypatch.setitem(runner._BASE, "corpus", base)
        if found:
            owned[name] = found
        else:
            unowned.append(name)
    return owned, unowned


def test_every_codex_entry_that_states_rules_changes_some_scenario(baseline, monkeypatch):
    base, scenarios, books = baseline
    owned, unowned = owners(base, scenarios, books, monkeypatch)
    listed = [l.strip() for l in MISSING.read_text(encoding="utf-8").splitlines()
              if l.strip() and not l.startswith("#")]
    new = sorted(set(unowned) - set(listed))
    fixed = sorted(set(listed) - set(unowned))
    assert len(owned) >= 20, f"only {len(owned)} codex entries are owned by a scenario"
    assert not new, "codex entries whose rules no scenario depends on (write a scenario):\n  " + "\n  ".join(new)
    assert not fixed, ("these entries now change a scenario: delete them from "
                       f"{MISSING.name}:\n  " + "\n  ".join(fixed))


def test_the_comparison_sees_transient_rules_and_book_rules(baseline):
    """The outcomes this test compares can fail: a rule that only adds dice to one attack changes the
    record but not the final board, and Epic's removal turns an illegal book legal."""
    base, scenarios, books = baseline
    epic_book = next(p for p in BOOKS if p.name == "priestess_epic_twice.book")
    assert "B102" in books[epic_book][0]
    assert "B102" not in _book_outcome(epic_book, _with_entry_stripped(base, "Epic"))[0]
    record = json.loads(scenarios[next(p for p in SCENARIOS if p.stem == "homebrew_stat_traits")][1])
    assert any(kind == "modifier" and "Psychic +1" in text for kind, text in record)
    assert not any(kind in TRACE_KINDS for kind, _ in record)
