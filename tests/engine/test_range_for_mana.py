"""`static range_for_mana(WHO, SPELLS, N, COST, speed:)` (engine/extracost.py, read by engine/casting.py and the
attack sequence's range check): the casts an agent is offered include the targets one zone beyond a quick Air
attack spell's range for the Sistarran Wizard (Voltaric Reach), and only those; the cost of such a cast counts
the extra mana."""
from __future__ import annotations

from magewars.engine import Game
from magewars.engine import casting as C
from magewars.engine.decisions import FirstLegalAgent


def _game(corpus, mana=30):
    g = Game(corpus, agents=FirstLegalAgent())
    g.state.add_player("Alice", mana=mana)
    g.state.add_player("Bob", mana=0)
    g.create("Sistarran Wizard Stats", "wiz", "Alice", zone="A1")
    g.create("Timber Wolf", "near", "Bob", zone="A3")    # 2 zones
    g.create("Timber Wolf", "far", "Bob", zone="A4")     # 3 zones
    g.create("Timber Wolf", "further", "Bob", zone="B4")  # 4 zones
    return g


def _targets(g, spell):
    return {ch.target_ids for ch in C.legal_casts(g, g.state.objects["wiz"], spell)}


def test_quick_air_attack_spells_reach_one_zone_more_for_their_level(corpus):
    g = _game(corpus)
    wiz = g.state.objects["wiz"]
    assert _targets(g, "Lightning Bolt") == {("wiz",), ("near",), ("far",)}
    assert C.check_cast(g, wiz, g.card("Lightning Bolt"), [g.state.objects["near"]]) == 8
    assert C.check_cast(g, wiz, g.card("Lightning Bolt"), [g.state.objects["far"]]) == 10
    # a quick Fire attack spell and a full Air one reach no further than printed
    assert ("far",) not in _targets(g, "Fireball")
    assert ("further",) not in _targets(g, "Thunderbolt") and ("far",) in _targets(g, "Thunderbolt")


def test_the_extra_mana_must_be_there(corpus):
    g = _game(corpus, mana=9)
    assert _targets(g, "Lightning Bolt") == {("wiz",), ("near",)}
    try:
        C.check_cast(g, g.state.objects["wiz"], g.card("Lightning Bolt"), [g.state.objects["far"]])
    except C.IllegalCast as e:
        assert e.rule == "mana" and "needs 10" in e.detail
    else:
        raise AssertionError("a range the caster cannot pay for was allowed")
