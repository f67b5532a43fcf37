"""Selectors evaluated against a small game built from shipped cards.

Arena rows A-C, columns 1-4.  Alice: Wizard, Timber Wolf (A1).  Bob: Wizard (C4), Killer Bees
(Flying) and Dwarf Kriegsbiel in A1, Steam Elemental (Incorporeal) in A3, Alluring Orchid (a
Living conjuration) in A2, a second Timber Wolf in A4.  Alice's Debilitate (a Curse) is revealed
on the Dwarf, her Plagued is hidden on the Bees; the Dwarf carries two Burn markers.
"""
from __future__ import annotations

import pytest

from magewars.dsl import load_corpus
from magewars.engine import Game
from magewars.engine.phrases import Ctx, PhraseError, has_name, matches, resolve, selector_of
from magewars.dsl import selectors as S


@pytest.fixture(scope="module")
def g():
    game = Game(load_corpus())
    st = game.state
    st.add_player("Alice")
    st.add_player("Bob")
    game.create("Wizard", "wiz", "Alice", zone="A1")
    game.create("Timber Wolf", "wolf", "Alice", zone="A1")
    game.create("Wizard", "bobwiz", "Bob", zone="C4")
    game.create("Killer Bees", "bees", "Bob", zone="A1")
    game.create("Dwarf Kriegsbiel", "dwarf", "Bob", zone="A1")
    game.create("Steam Elemental", "steam", "Bob", zone="A3")
    game.create("Alluring Orchid", "orchid", "Bob", zone="A2")
    game.create("Timber Wolf", "farwolf", "Bob", zone="A4")
    game.create("Debilitate", "curse", "Alice", attached_to="dwarf")
    game.create("Plagued", "plague", "Alice", attached_to="bees", hidden=True)
    st.add_marker(st.get("dwarf"), "Burn", 2)
    return game


def ids(objs) -> set:
    return {o if isinstance(o, str) else o.id for o in objs}


def ctx(g, this="wiz", **kw) -> Ctx:
    st = g.state
    return Ctx(this=st.get(this) if this else None, **{k: st.get(v) for k, v in kw.items()})


def shipped(g, text):
    """The phrase node the shipped corpus uses (so the checker's stored selector is the one read)."""
    for p, sel in g.corpus.selectors.items():
        if p.text == text:
            return p
    raise AssertionError(f"no shipped phrase '{text}'")


def test_each_enemy_creature_in_this_zone(g):
    p = shipped(g, "enemy creature in this zone")
    assert ids(resolve(g, p, ctx(g))) == {"bees", "dwarf"}
    # seen from Bob's Dwarf, Alice's creatures are the enemies
    assert ids(resolve(g, p, ctx(g, "dwarf"))) == {"wiz", "wolf"}


def test_object_with_burn_selects_only_objects_with_burn(g):
    p = shipped(g, "object with Burn")
    assert ids(resolve(g, p, ctx(g))) == {"dwarf"}
    assert ids(resolve(g, "creature with Bleed", ctx(g))) == set()
    z = shipped(g, "target zone with an object with Burn")
    assert matches(g, "A1", z, Ctx(this=g.state.get("wiz"), target="A1"))
    assert not matches(g, "A2", z, Ctx(this=g.state.get("wiz"), target="A2"))


def test_within_counts_zones_from_this(g):
    got = ids(resolve(g, shipped(g, "each creature within 2 zones of this"), ctx(g)))
    assert got == {"wiz", "wolf", "bees", "dwarf", "steam"}  # farwolf is 3 zones away, bobwiz 5
    assert ids(resolve(g, "creature within 1 zone of target", ctx(g, target="steam"))) == {"steam", "farwolf"}


def test_non_flying_and_implied_names(g):
    assert ids(resolve(g, shipped(g, "Non-Flying creature"), ctx(g))) == {
        "wiz", "wolf", "dwarf", "steam", "farwolf", "bobwiz"}
    living = ids(resolve(g, shipped(g, "Living creature"), ctx(g)))
    assert "steam" not in living and {"wolf", "dwarf"} <= living
    assert ids(resolve(g, "Corporeal creature", ctx(g))) == living  # only the Incorporeal one is out
    st = g.state
    assert has_name(g, st.get("orchid"), "Living") and not has_name(g, st.get("steam"), "Living")
    assert not has_name(g, st.get("steam"), "Corporeal") and has_name(g, st.get("orchid"), "Corporeal")
    assert ids(resolve(g, shipped(g, "Nonliving Corporeal conjuration"), ctx(g))) == set()


def test_attachments_visibility_and_holds(g):
    assert ids(resolve(g, shipped(g, "revealed Curse enchantment on target"), ctx(g, target="dwarf"))) == {"curse"}
    assert ids(resolve(g, shipped(g, "hidden enchantment"), ctx(g))) == {"plague"}
    p = shipped(g, "target Non-Burn creature with a revealed friendly Curse enchantment")
    assert resolve(g, p, ctx(g, target="dwarf")) == []  # the Dwarf burns
    assert ids(resolve(g, "target creature with a revealed friendly Curse enchantment",
                       ctx(g, target="dwarf"))) == {"dwarf"}
    assert resolve(g, "target creature with a revealed friendly Curse enchantment", ctx(g, target="bees")) == []


def test_markers_resolve_to_their_carrier_once_per_marker(g):
    assert ids(resolve(g, shipped(g, "Burn marker on this"), ctx(g, "dwarf"))) == {"dwarf"}
    assert len(resolve(g, shipped(g, "Burn marker on this"), ctx(g, "dwarf"))) == 2
    assert resolve(g, shipped(g, "Burn marker on this"), ctx(g, "wolf")) == []


def test_zones(g):
    assert set(resolve(g, shipped(g, "zone adjacent to this"), ctx(g))) == {"A2", "B1"}
    assert set(resolve(g, shipped(g, "a zone with an enemy creature"), ctx(g))) == {"A1", "A3", "A4", "C4"}
    assert resolve(g, shipped(g, "the zone of your Mage"), ctx(g, "wolf")) == ["A1"]
    assert set(resolve(g, shipped(g, "up to 2 adjacent zones"), ctx(g, "steam"))) == {"A2", "A4", "B3"}
    assert len(resolve(g, shipped(g, "all zones in arena"), ctx(g))) == 12


def test_players_and_controllers(g):
    st = g.state
    assert resolve(g, shipped(g, "opponent"), ctx(g)) == [st.get("bobwiz")]
    assert resolve(g, shipped(g, "controller of defender"), ctx(g)) == []  # no attack: no defender
    assert resolve(g, "controller of target", ctx(g, target="dwarf")) == [st.get("bobwiz")]
    got = ids(resolve(g, shipped(g, "Living objects controlled by its opponent"), ctx(g, it="wolf")))
    assert got == {"bobwiz", "bees", "dwarf", "orchid", "farwolf"}


def test_other_and_pronouns(g):
    st = g.state
    p = shipped(g, "another object")
    assert not matches(g, st.get("wiz"), p, ctx(g))
    assert matches(g, st.get("wolf"), p, ctx(g))
    assert resolve(g, shipped(g, "that creature"), ctx(g, it="wolf")) == [st.get("wolf")]
    assert resolve(g, shipped(g, "that creature"), ctx(g, it="curse")) == []  # an enchantment is not a creature


def test_parts_the_engine_cannot_evaluate_are_refused(g):
    # "a spell by X" is answered from the casters the casting sequence records (tests/engine/test_casting.py)
    with pytest.raises(PhraseError, match="border"):
        resolve(g, shipped(g, "zone border"), ctx(g))
    with pytest.raises(PhraseError, match="cannot be read"):
        resolve(g, "creature melee", ctx(g))


def test_stored_selectors_are_used(g):
    p = shipped(g, "enemy creature in this zone")
    assert selector_of(g, p) is g.corpus.selectors[p]
    assert isinstance(selector_of(g, "each enemy creature"), S.Described)
