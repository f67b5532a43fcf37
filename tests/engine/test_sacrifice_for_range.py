"""`static sacrifice_for_range(WHO, SPELLS, OBJECTS)` (engine/extracost.py, read by engine/casting.py): the
choices an agent is offered include the casts beyond range that destroying a seen object buys, and only
those (the Druid's vine markers, Codex: Vine Markers)."""
from __future__ import annotations

from magewars.engine import Game
from magewars.engine import casting as C
from magewars.engine.decisions import FirstLegalAgent


def _game(corpus):
    g = Game(corpus, agents=FirstLegalAgent())
    g.state.add_player("Alice", mana=30)
    g.state.add_player("Bob", mana=0)
    g.create("Druid Stats", "druid", "Alice", zone="A1")  # (the Mage, its abilities those of its stats card)
    g.create("Wizard Stats", "wiz", "Bob", zone="C4")
    return g


def _zones(g, spell):
    return {ch.zone for ch in C.legal_casts(g, g.state.objects["druid"], spell)}


def test_a_friendly_marker_in_sight_opens_its_zone_to_vine_spells_only(corpus):
    g = _game(corpus)
    assert _zones(g, "Vine Snapper") == {"A1"}
    g.create("Vine Marker Green", "vine1", "Alice", zone="C2")
    assert _zones(g, "Vine Snapper") == {"A1", "C2"}
    # a spell without the Vine subtype gains nothing (a Timber Wolf is range 0-0 too)
    assert _zones(g, "Timber Wolf") == {"A1"}
    # the borders of that zone, for a vine wall (range 0-1)
    borders = _zones(g, "Bloodspine Wall")
    assert {"C1/C2", "B2/C2", "C2/C3"} <= borders and "C3/C4" not in borders
    # an object in that zone, for a vine conjuration cast on it (Tanglevine, range 0-2)
    g.create("Timber Wolf", "wolf", "Bob", zone="C2")
    # (the Druid in her own zone, and Bob's Wolf beyond the range, in the marker's zone; not his Wizard in C4)
    assert {ch.target_ids for ch in C.legal_casts(g, g.state.objects["druid"], "Tanglevine")} == {("druid",), ("wolf",)}


def test_an_enemy_marker_or_one_out_of_sight_opens_nothing(corpus):
    g = _game(corpus)
    g.create("Vine Marker Green", "theirs", "Bob", zone="C2")
    assert _zones(g, "Vine Snapper") == {"A1"}
    stone = g.create("Wall of Stone", "stone", "Bob")
    stone.zone, stone.border = "C3", frozenset({"C3", "C4"})
    g.state.touch()
    g.create("Vine Marker Green", "mine", "Alice", zone="C4")
    assert _zones(g, "Vine Snapper") == {"A1"}
    try:
        C.check_cast(g, g.state.objects["druid"], g.card("Vine Snapper"), zone="C4")
    except C.IllegalCast as e:
        assert e.rule == "line-of-sight" and "Vine Marker Green [mine]" in e.detail
    else:
        raise AssertionError("cast through an unseen marker allowed")
