"""A Mage is named by its class in phrases (engine/phrases.py _mage_class_names): its Mage card's name or its last
words, whether the object in play is the Mage card or its stats card (as `magewars play` creates it).  Before,
"targets Druid mage" named no Druid whose object was its stats card: Barkskin could not be cast on her."""
from __future__ import annotations

from magewars.engine import Game
from magewars.engine import casting as C
from magewars.engine import othercasters as OC
from magewars.engine.decisions import FirstLegalAgent


def _game(corpus):
    g = Game(corpus, agents=FirstLegalAgent())
    g.state.add_player("Alice", mana=40)
    g.state.add_player("Bob", mana=40)
    return g


def _targets(g, caster, spell):
    return {ch.target_ids for ch in C.legal_casts(g, caster, spell)}


def test_a_spell_naming_a_mage_class_targets_that_mage_as_its_stats_card(corpus):
    g = _game(corpus)
    druid = g.create("Druid Stats", "druid", "Alice", zone="A1")
    wiz = g.create("Wizard Stats", "wiz", "Bob", zone="A2")
    assert _targets(g, druid, "Barkskin") == {("druid",)}
    assert _targets(g, wiz, "Barkskin") == set()  # (nothing for Bob's Wizard)


def test_the_last_words_of_a_mage_name_are_its_class(corpus):
    g = _game(corpus)
    lord = g.create("Anvil Throne Warlord Stats", "lord", "Alice", zone="A1")
    gurmash = g.create("Gurmash, Orc Sergeant", "gurmash", "Alice", zone="A2")
    assert OC.actions_lent(g, gurmash) == [lord]  # `your Warlord mage`
    other = g.create("Gurmash, Orc Sergeant", "g2", "Bob", zone="B2")
    g.create("Wizard Stats", "wiz", "Bob", zone="C4")
    assert OC.actions_lent(g, other) == []  # Bob's mage is a Wizard: no Warlord of his to lend Battle Orders
