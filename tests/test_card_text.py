"""Generated card text reads as sentences: each construct's pattern (magewars/dsl/reads.py) is keyed by
the registry's names and places only the parameters its signature has, every construct the shipped
cards and codex use has one, and shipped cards read as expected (magewars/render.py)."""
from __future__ import annotations

import dataclasses
import re

import pytest

from magewars import render as R
from magewars.dsl import ast as A
from magewars.dsl import reads, vocab

KINDS = (("effect", reads.EFFECTS, vocab.EFFECT_FUNCS), ("value", reads.VALUES, vocab.VALUE_FUNCS),
         ("event", reads.EVENTS, vocab.EVENT_FUNCS), ("timing", reads.TIMINGS, vocab.TIMING_FUNCS),
         ("negated", reads.NEGATED, vocab.VALUE_FUNCS))


@pytest.mark.parametrize("kind,table,sigs", KINDS, ids=[k[0] for k in KINDS])
def test_every_pattern_is_a_registry_name_and_places_only_its_parameters(kind, table, sigs):
    for name, pattern in table.items():
        assert name in sigs, f"{kind} pattern {name!r} names no {kind} of the vocabulary"
        params = {p.name for p in sigs[name].params}
        placed = set(re.findall(r"\{(\w+)", pattern))
        assert placed <= params, f"{kind} {name}: {sorted(placed - params)} are not its parameters"
        for counted in re.findall(r"<s:(\w+)>", pattern):  # a noun agrees with a number placed before it
            assert counted in placed and pattern.index("{" + counted) < pattern.index(f"<s:{counted}>"), name
        assert pattern.count("[") == pattern.count("]") and pattern.count("<") == pattern.count(">")


def _calls(node, seen, out):
    if id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, A.Call):
        out.add(node.name)
    if isinstance(node, (list, tuple)):
        for x in node:
            _calls(x, seen, out)
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        for f in dataclasses.fields(node):
            _calls(getattr(node, f.name), seen, out)


def test_every_construct_the_shipped_corpus_uses_has_a_pattern(corpus):
    used: set[str] = set()
    for d in list(corpus.cards.values()) + list(corpus.codex.values()):
        _calls(d.abilities, set(), used)
    known = set(reads.EFFECTS) | set(reads.VALUES) | set(reads.EVENTS) | set(reads.TIMINGS)
    assert len(used) > 200
    assert sorted(used - known) == []


def test_no_generated_line_shows_pattern_syntax_or_an_empty_slot(corpus):
    lines = [R.ability_text(ab) for d in list(corpus.cards.values()) + list(corpus.codex.values())
             for ab in d.abilities]
    assert len(lines) > 1000
    bad = [s for s in lines if re.search(r"[{}<>|]|  |\( *\)", s)]
    assert bad == []


def _abilities(corpus, name):
    return [R.ability_text(ab) for ab in corpus.cards[name].abilities]


def test_shipped_cards_read_as_sentences(corpus):
    assert _abilities(corpus, "Suppression Orb") == [
        "Each move action of each Non-Mage creature costs its controller 1 more mana."]
    assert _abilities(corpus, "Chains of Agony") == [
        "You may reveal this.", "When enchanted declares a move: Enchanted takes 1 direct damage."]
    # a verb agrees with its subject; optional parts appear only when given
    assert "Your Metamagic spells cost 1 less mana (the enchantment reveal cost only) (its uses counted together with this card's other such cost changes)." in \
        _abilities(corpus, "Arcane Ring")[0]
    # a kind after "is" takes its article; a pronoun does not ("attacker is bearer"); what is rolled is
    # named once ("attack dice are rolled", not "attack dice dice")
    assert "and it is not a destroyed creature:" in _abilities(corpus, "Ichthellid")[1]
    assert _abilities(corpus, "Gloves of Skill") == [
        "Once per round: When attack dice are rolled, if attacker is bearer and the attack is ranged: You may: "
        "Reroll attack dice."]
    # one subject's kinds joined by "or" read once, marked "either" inside an "and"
    assert "If the chosen object is either a creature or a conjuration, and the chosen object is in line of sight" \
        in _abilities(corpus, "Chain Lightning")[0]
    assert "If the chosen object is an Elemental creature, a Golem creature or a Sprite creature: Choose one:" \
        in _abilities(corpus, "Elementalist Stats")[-1]
    # a parameter that gathers several arguments reads them as a list
    assert "This may cast only Healing spells or Protection spells." in _abilities(corpus, "Cassiel, Shield of Bim-Shalla")
    # a step by its title in the rulebook (the vocabulary's), not doubled ("counter spell step step")
    assert _abilities(corpus, "Nullify")[0].endswith("during the Counter Spell step.")
    assert _abilities(corpus, "Stumble")[0] == "You may reveal this when enchanted moves, during the Leaving Zone Effects step."
    assert _abilities(corpus, "Tanglevine")[-1] == "This cannot be attacked (ranged attacks)."


def test_an_argument_a_pattern_does_not_place_is_kept_and_an_unknown_construct_reads_as_written():
    this = A.Phrase((A.Word("this", "word"),))
    assert R.read_call(A.Call("destroy", (A.Arg(None, this),))) == "destroy this"
    assert R.read_call(A.Call("destroy", (A.Arg(None, this), A.Arg("by", A.StringLit("magic"))))) == \
        "destroy this (by magic)"
    assert R.read_call(A.Call("no_such_effect", (A.Arg(None, this),))) is None
    assert R.call_text(A.Call("no_such_effect", (A.Arg(None, this),))) == "no such effect this"


def test_a_negated_pattern_places_what_its_value_places():
    for name, pattern in reads.NEGATED.items():
        assert name in reads.VALUES, f"negated {name!r} has no positive pattern"
        assert set(re.findall(r"\{(\w+)", pattern)) == set(re.findall(r"\{(\w+)", reads.VALUES[name])), name


def test_a_negated_condition_reads_as_a_negative_sentence(corpus):
    assert _abilities(corpus, "Ignite") == ["If target does not have Burn: Place Burn on target."]
    assert _abilities(corpus, "Defend")[-1] == "If target is not guarding: Place a guard marker on target."
    # a comparison reads as its opposite; a value with no negative pattern keeps "not (...)"
    assert any(s.endswith("If the roll is less than 7: The attack misses.") for s in _abilities(corpus, "Blind"))
    assert any("if the level of this is more than 2:" in R.ability_text(ab)
               for ab in corpus.codex["Stagger"].abilities)
    cond = A.CondNot(A.Call("chosen", ()))
    assert R.cond_text(cond) == "not (the chosen object)"
    assert R.cond_text(A.CondNot(cond)) == "the chosen object"
    lines = [R.ability_text(ab) for d in list(corpus.cards.values()) + list(corpus.codex.values())
             for ab in d.abilities]
    # only a compound condition (and/or) is still negated as a whole
    assert [s for s in lines if "not (" in s] == [
        s for s in lines if re.search(r"not \([^()]* (and|or) ", s)]


def test_a_noun_agrees_with_the_number_before_it(corpus):
    assert _abilities(corpus, "Banish")[0] == "Target leaves the arena but stays in play with 3 Banish tokens."
    assert "Place 1 Charge token on it." in _abilities(corpus, "Academy Druid Stats")[0]
    assert _abilities(corpus, "Cobra Reflexes")[-1] == "Enchanted gains a defense of 7+, 1 use a round."
    # a count not written at all keeps "(s)": how many is not said
    assert _abilities(corpus, "Lay Hands")[-1].endswith("Remove condition(s) of your choice from target.")


def test_an_amount_of_mana_reads_as_one(corpus):
    assert "Controller of that spell gains the mana paid for that spell." in _abilities(corpus, "Jinx")[-1]
    assert any("You pay mana equal to the removal cost of Daze." in s for s in _abilities(corpus, "Clear Mind"))
    assert _abilities(corpus, "Suppression Orb") == [
        "Each move action of each Non-Mage creature costs its controller 1 more mana."]


def test_a_condition_of_the_other_kind_inside_and_or_or_keeps_its_grouping(corpus):
    # (melee or ranged) and not Spell: without "either", it would read as melee or (ranged and not Spell)
    assert _abilities(corpus, "Agony")[-1] == ("When enchanted attacks, if either the attack is melee or the attack "
                                               "is ranged, and the attack is not Spell: The attack gets -2 attack dice.")
    assert "if the attack deals Wind damage and either the attack is melee or the attack is ranged:" in \
        _abilities(corpus, "Gale Force Ring")[-1]


def test_a_verb_agrees_with_the_head_of_its_subject(corpus):
    assert "Friendly Soldier creatures get +1 armor." in _abilities(corpus, "Armory")
    assert "Each creature within 2 zones of this loses Flying and cannot gain it." in _abilities(corpus, "Gravikor")
    assert any(s.startswith("When equipment attached to this enters play")
               for s in _abilities(corpus, "Anvil Throne Warlord Stats"))
