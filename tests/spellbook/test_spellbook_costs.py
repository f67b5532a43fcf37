"""Spell costs and permissions, as the stats cards and the codex state them, on real cards."""
import pytest

from magewars.spellbook.rules import mage_rules, spell_cost, stats_for


def cost(corpus, mage, spell):
    m = corpus.cards[mage]
    return spell_cost(corpus, mage_rules(corpus, m, stats_for(corpus, m)), corpus.cards[spell])


@pytest.mark.parametrize("mage,spell,points", [
    ("Beastmaster", "Timber Wolf", 2),          # Nature 2, trained: 1 a level
    ("Wizard", "Timber Wolf", 4),               # untrained: 2 a level
    ("Priestess", "Drain Life", 9),             # Dark 3, opposed for the Priestess: 3 a level
    ("Warlock", "Drain Life", 3),
    ("Beastmaster", "Fireball", None),          # Fire is opposed for the Beastmaster (priced below)
])
def test_trained_untrained_opposed(corpus, mage, spell, points):
    got = cost(corpus, mage, spell)
    if points is None:
        level = corpus.cards[spell].schools[0][1]
        assert got.points == 3 * level
    else:
        assert got.points == points


def test_novice_costs_one_point_even_when_opposed(corpus):
    # supplement ruling C.novice.warlock-holy, on a shipped Novice spell of the Priestess's opposed school
    card = corpus.cards["Bloodthirsty Strike"]
    assert card.schools == (("Dark", 1),)
    assert cost(corpus, "Priestess", "Bloodthirsty Strike").points == 1


def test_and_spell_pays_every_school(corpus):
    # Lightning Beetle: Nature 2 + Air 1. Beastmaster: 2 (trained) + 2 (untrained)
    c = cost(corpus, "Beastmaster", "Lightning Beetle")
    assert c.points == 4 and {(p.school, p.points) for p in c.parts} == {("Nature", 2), ("Air", 2)}
    # Wizard: Nature untrained 4 + Air trained 1
    assert cost(corpus, "Wizard", "Lightning Beetle").points == 5


def test_or_spell_pays_the_cheapest_school(corpus):
    # Sohei Disciple: Mind 2 or Holy 2
    assert cost(corpus, "Priestess", "Sohei Disciple").points == 2
    assert cost(corpus, "Beastmaster", "Sohei Disciple").points == 4
    c = cost(corpus, "Priestess", "Sohei Disciple")
    assert [p.school for p in c.parts] == ["Holy"]


def test_stats_card_exceptions(corpus):
    # Forcemaster: creatures of other schools cost 3 a level; Mind ones stay 1
    assert cost(corpus, "Forcemaster", "Timber Wolf").points == 6
    assert cost(corpus, "Forcemaster", "Dispel").points == 2 * corpus.cards["Dispel"].schools[0][1]
    # Paladin: Holy up to level 3 at 1 a level, above that untrained unless a creature
    holy3 = corpus.cards["Lay Hands"]
    assert holy3.schools == (("Holy", 3),)
    assert cost(corpus, "Paladin", "Lay Hands").points == 3
    # Druid: level 1 Water spells cost 1, others untrained
    assert cost(corpus, "Druid", "Geyser").points == 1


def test_priest_may_include_priestess_only_spells(check):
    _, diags = check("mage: Priest\n1 Ring of Asyra\n")
    assert diags == []
    _, diags = check("mage: Beastmaster\n1 Ring of Asyra\n")
    assert [d.code for d in diags] == ["B103"]


def test_mage_class_by_name(check):
    # the Johktari Beastmaster is a Beastmaster
    _, diags = check("mage: Johktari Beastmaster\n1 Staff of Beasts\n")
    assert diags == []


def test_school_mage_only_by_training(check):
    # Huginn is Arcane Mage Only: the Wizard is trained in Arcane, the Forcemaster is not
    _, diags = check("mage: Wizard\n1 Huginn, Raven Familiar\n")
    assert diags == []
    _, diags = check("mage: Forcemaster\n1 Huginn, Raven Familiar\n")
    assert [d.code for d in diags] == ["B103"]


def test_training_by_exception_counts_for_school_restrictions(check):
    # the Paladin's stats card trains him through exceptions: Holy up to level 3, War up to level 2
    _, diags = check("mage: Paladin\n1 Lay Hands\n1 Steadfast Boots\n")  # Holy 3, War 1
    assert diags == []
    _, diags = check("mage: Paladin\n1 Conquer\n")  # War 4: above his War training
    assert [(d.code, d.span.line) for d in diags] == [("B103", 2)]
    assert "War Mage Only" in diags[0].message


def test_a_spell_free_to_include(corpus):
    # Talos (War 7) states spellbook_cost(this, 0): no points, for its Warlord and for any other Mage
    assert corpus.cards["Talos"].schools == (("War", 7),)
    assert cost(corpus, "Warlord", "Talos").points == 0
    assert cost(corpus, "Forcemaster", "Talos").points == 0
    assert cost(corpus, "Warlord", "Akiro's Hammer").points > 0  # other War spells are priced as usual
