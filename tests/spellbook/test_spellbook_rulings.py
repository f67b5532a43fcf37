"""Supplement rulings on spellbook construction and spell restrictions, on shipped cards.

Each test names the ruling it checks (the `id` of /work/shared/reference/supplement-rulings.tsv, with
its section); `test_cited_rulings_exist` checks the ids against the reference when it is present.
The casting side of the same restrictions is in tests/scenarios/casting/ (mage_only.yaml...).
"""
from __future__ import annotations

import csv

import pytest

from magewars.engine import Game
from magewars.engine.casting import IllegalCast, cast_spell
from magewars.spellbook.rules import mage_rules, spell_cost, stats_for

CITED = {
    "C.novice.warlock-holy": "Codex>Novice",
    "R.equip.priestess-staff-of-beasts": "Rules>Equipment Control",
    "R.restrict.mind-control-huginn": "Rules>Spell Restrictions; Mind Control",
}


def cost(corpus, mage, spell):
    m = corpus.cards[mage]
    return spell_cost(corpus, mage_rules(corpus, m, stats_for(corpus, m)), corpus.cards[spell]).points


def test_cited_rulings_exist(shared_dir):
    with open(shared_dir / "reference" / "supplement-rulings.tsv", encoding="utf-8") as f:
        rows = {r["id"]: r for r in csv.DictReader(f, delimiter="\t")}
    for rid, section in CITED.items():
        assert rid in rows, rid
        assert rows[rid]["section"] == section


def test_novice_spell_costs_one_point_in_an_opposed_school(corpus):
    """C.novice.warlock-holy: a level 1 Novice spell costs 1 point, whatever its school costs the Mage.
    No shipped Novice spell is Holy, so the Warlock's check is made on a school he pays 2 a level for
    (War) and the opposed case on the Priestess with a Dark Novice spell."""
    assert corpus.cards["Leather Gloves"].has_trait("Novice")
    assert cost(corpus, "Warlock", "Leather Gloves") == 1
    assert cost(corpus, "Warlock", "Timber Wolf") == 4  # the same Mage pays 2 a level for a non-Novice spell
    assert cost(corpus, "Priestess", "Bloodthirsty Strike") == 1


def test_staff_of_beasts_is_for_beastmasters(check, corpus):
    """R.equip.priestess-staff-of-beasts: the Priestess may neither include nor cast Staff of Beasts."""
    _, diags = check("mage: Priestess\n1 Staff of Beasts\n")
    assert [(d.code, d.span.line) for d in diags] == [("B103", 2)]
    assert "Beastmaster Only" in diags[0].message
    _, diags = check("mage: Beastmaster\n1 Staff of Beasts\n")
    assert diags == []
    g = Game(corpus)
    g.state.add_player("Alice", mana=20)
    g.create("Priestess", "pri", "Alice", zone="B2")
    with pytest.raises(IllegalCast) as err:
        cast_spell(g, g.state.get("pri"), "Staff of Beasts", [g.state.get("pri")])
    assert err.value.rule == "mage-only" and g.state.players["Alice"].mana == 20


def test_huginn_is_for_arcane_mages(check, corpus):
    """R.restrict.mind-control-huginn: Huginn is Arcane Mage Only; the Forcemaster (not trained in
    Arcane) may not include or cast it, the Wizard may.  (Taking control of it in play is not run
    yet: the codex Only entry marks that part `control-restriction`.)"""
    _, diags = check("mage: Forcemaster\n1 Huginn, Raven Familiar\n")
    assert [d.code for d in diags] == ["B103"]
    g = Game(corpus)
    g.state.add_player("Alice", mana=30)
    g.state.add_player("Bob", mana=30)
    g.create("Forcemaster", "fm", "Alice", zone="B2")
    g.create("Wizard", "wiz", "Bob", zone="B3")
    with pytest.raises(IllegalCast) as err:
        cast_spell(g, g.state.get("fm"), "Huginn, Raven Familiar", zone="B2")
    assert err.value.rule == "mage-only"
    raven = cast_spell(g, g.state.get("wiz"), "Huginn, Raven Familiar", zone="B3")
    assert raven is not None and raven.zone == "B3"


def test_epic_spell_one_copy(check):
    """Codex > Epic: a book holds one copy of an Epic spell (Divine Intervention is Epic)."""
    _, diags = check("mage: Priestess\n2 Divine Intervention\n")
    assert [d.code for d in diags] == ["B102"]
    _, diags = check("mage: Priestess\n1 Divine Intervention\n")
    assert diags == []
