"""Casting by other casters on shipped cards: what a spawnpoint may be given at Planning, shapes of
casting effects the engine refuses, mana a player lacks, planning more spells, Extendable's borders,
binding a spell (engine/othercasters.py, engine/extracost.py, engine/bound.py, engine/round.py)."""
from __future__ import annotations

import copy
from collections import Counter

import pytest

from magewars.dsl import ast as A
from magewars.engine import Game
from magewars.engine import extracost as EC
from magewars.engine import othercasters as OC
from magewars.engine import round as R
from magewars.engine.actions import AbilityChoice
from magewars.engine.casting import IllegalCast
from magewars.engine.decisions import Agent
from magewars.engine.phrases import Ctx
from magewars.spellbook import load_spellbook


class Recorder(Agent):
    """Says yes to every `may`, picks the first real option, and keeps every decision it was asked."""

    def __init__(self):
        self.asked = []

    def decide(self, d):
        self.asked.append(d)
        for o in d.options:
            if o.value is not None and o.value is not False:
                return o
        return d.options[0]


def game_with(corpus, book: str, mage: str, mana: int = 20):
    agent = Recorder()
    g = Game(corpus, agents=agent)
    g.state.add_player("Alice", mana=mana)
    g.state.add_player("Bob", mana=0)
    g.create(mage, "mage", "Alice", zone="A1")
    g.create("Wizard", "wiz", "Bob", zone="C4")
    rs = R.state_of(g)
    rs.library["Alice"] = Counter({c.name: n for c, n in load_spellbook(book, corpus).cards})
    rs.library["Bob"] = Counter()
    return g, agent


def test_a_spawnpoint_is_offered_only_the_spells_its_card_casts(corpus):
    g, agent = game_with(corpus, "beastmaster", "Beastmaster")
    g.create("Lair", "lair", "Alice", zone="B1")
    R.state_of(g).next_phase = R.phase_index("planning")
    R.run_phase(g)
    picks = [d for d in agent.asked if d.kind == "plan" and d.context.get("caster") == "lair"]
    assert len(picks) == 1
    names = [o.label for o in picks[0].options if o.value is not None]
    assert names and "Timber Wolf" in names
    for n in names:  # Lair casts Animal creatures: nothing else is offered
        cd = corpus.cards[n]
        assert cd.kind == "creature" and "Animal" in cd.subtypes, n
    book = Counter({c.name: n for c, n in load_spellbook("beastmaster", corpus).cards})
    assert any(corpus.cards[n].kind != "creature" for n in book)  # the book holds other spells
    lair = g.state.get("lair")
    assert OC.given(lair) and R.state_of(g).library["Alice"][OC.given(lair)[0]] == book[OC.given(lair)[0]] - 1


def test_casting_effects_the_engine_does_not_run_are_refused_with_a_reason(corpus):
    seen = {}
    for cd in corpus.cards.values():
        for ab in cd.abilities:
            inner = ab.ability if isinstance(ab, A.OncePerRound) else ab
            for call in OC._walk(getattr(inner, "effects", ()) or ()):
                if call.name in OC.CASTING_CALLS:
                    seen[(cd.name, call.name, OC.refused_shape(call) is None)] = OC.refused_shape(call)
    assert seen[("Lair", "cast_spell", True)] is None
    assert seen[("Graveyard", "summon", True)] is None
    assert seen[("Sectarus, Dark Rune Sword", "cast_spell", True)] is None  # a free action, on: its target
    assert seen[("Conquer", "cast_spell", True)] is None  # a card from a discard pile or the spellbook
    assert seen[("Animate Dead", "summon", True)] is None  # a creature card from a discard pile
    assert seen[("Vinewhip Staff", "summon", True)] is None  # a vine marker into a target zone
    assert len(seen) >= 20
    # a shape no card uses is still refused with a reason: summoning an enchantment the summoner holds
    words = tuple(A.Word(t, "word") for t in ("an", "enchantment"))
    odd = A.Call("summon", (A.Arg(None, A.Phrase(words)),))
    assert "creature" in OC.refused_shape(odd)


def test_a_payment_the_player_cannot_make_pays_nothing_and_stops_the_effect(corpus):
    g, agent = game_with(corpus, "wizard", "Wizard Stats", mana=1)
    R.run_timing(g, "upkeep")
    mage = g.state.get("mage")
    assert g.state.players["Alice"].mana == 1
    assert sum(mage.markers.values()) == 0  # the Voltaric Shield it would have paid for
    assert any("cannot pay 2 mana (has 1)" in e.text for e in g.log.events)
    g.state.players["Alice"].mana = 2
    R.run_timing(g, "upkeep")
    assert g.state.players["Alice"].mana == 0 and sum(mage.markers.values()) == 1


def test_an_action_ability_without_the_mana_is_refused_before_anything_changes(corpus):
    g, _ = game_with(corpus, "druid", "Druid", mana=0)
    staff = g.create("Vinewhip Staff", "staff", "Alice", attached_to="mage")
    index = next(i for i, ab in enumerate(staff.card.abilities) if isinstance(ab, A.ActivatedAbility))
    before = (copy.deepcopy(g.view()), len(g.log.events))
    with pytest.raises(IllegalCast) as err:
        R.use_ability(g, AbilityChoice("staff", index, (), "mage"))
    assert err.value.rule == "mana" and "needs 1, has 0" in str(err.value)
    assert (copy.deepcopy(g.view()), len(g.log.events)) == before


def test_an_extra_prepared_static_plans_one_more_spell(corpus):
    g, agent = game_with(corpus, "wizard", "Wizard")
    R.state_of(g).next_phase = R.phase_index("planning")
    R.run_phase(g)
    assert len(R.state_of(g).planned["Alice"]) == 2
    g.create("Mordok's Tome", "tome", "Alice", attached_to="mage")
    assert OC.extra_prepared(g, "Alice") == 1
    R.state_of(g).next_phase = R.phase_index("planning")
    R.run_phase(g)
    assert len(R.state_of(g).planned["Alice"]) == 3
    assert OC.extra_prepared(g, "Bob") == 0  # the tome's bearer is Alice's mage only


def test_a_second_wall_goes_only_on_a_free_border_touching_the_first(corpus):
    g, _ = game_with(corpus, "adramelech-warlock", "Warlock")
    wall = g.create("Wall of Fire", "w1", "Alice", zone="A2")
    wall.border = frozenset(("A2", "A3"))
    g.state.touch()
    got = {"/".join(p) for p in EC.connected_borders(g, wall)}
    assert got == {"A2/B2", "A3/B3", "B2/B3"}
    other = g.create("Wall of Stone", "w2", "Bob", zone="B2")
    other.border = frozenset(("B2", "B3"))
    g.state.touch()
    assert {"/".join(p) for p in EC.connected_borders(g, wall)} == {"A2/B2", "A3/B3"}


def test_a_wand_binds_only_what_its_own_rebinding_names(corpus):
    from magewars.engine import bound as BD
    g, agent = game_with(corpus, "beastmaster", "Beastmaster")
    wand = g.create("Mage Wand", "wand", "Alice", attached_to="mage")
    g.fire("enters", wand, Ctx(this=wand, it=wand))
    picks = [d for d in agent.asked if d.kind == "plan"]
    assert picks
    names = [o.label for o in picks[-1].options if o.value is not None]
    assert names and all(corpus.cards[n].kind == "incantation" for n in names)
    assert BD.bound_to(wand) in names


def test_a_casting_ability_offers_only_the_planned_spells_that_fit_it(corpus):
    g, agent = game_with(corpus, "beastmaster", "Beastmaster Stats")
    R.state_of(g).planned["Alice"] = ["Bitterwood Fox", "Timber Wolf"]
    mage = g.state.get("mage")
    index = next(i for i, ab in enumerate(mage.card.abilities)
                 if isinstance(ab, A.OncePerRound) and isinstance(ab.ability, A.ActivatedAbility))
    R.use_ability(g, AbilityChoice("mage", index, (), None))
    casts = [d for d in agent.asked if d.kind == "action"]
    labels = [o.label for o in casts[0].options]
    assert any("casts Bitterwood Fox" in lb for lb in labels)
    assert not any("Timber Wolf" in lb for lb in labels)  # level 2: not what the ability casts
    assert R.state_of(g).planned["Alice"] == ["Timber Wolf"]
    assert any(o.name == "Bitterwood Fox" and o.in_play for o in g.state.objects.values())


def test_a_caster_limited_to_its_bound_spell_may_cast_that_one_only(corpus):
    from magewars.engine import placement as P
    g, _ = game_with(corpus, "wizard", "Wizard")
    spore = g.create("Thoughtspore", "spore", "Alice", zone="A1")
    assert [r for r, _ in P.restrictions(g, spore, g.card("Jet Stream"))] == ["cast-only"]  # nothing bound
    spore.bound_spell = "Jet Stream"
    assert list(P.restrictions(g, spore, g.card("Jet Stream"))) == []
    why = [w for r, w in P.restrictions(g, spore, g.card("Lightning Bolt")) if r == "cast-only"]
    assert why and "its bound spell (Jet Stream)" in why[0]


def test_a_casting_ability_with_nothing_to_cast_is_not_offered(corpus):
    from magewars.engine import activation as AV
    g, _ = game_with(corpus, "beastmaster", "Beastmaster Stats")
    mage = g.state.get("mage")
    R.state_of(g).planned["Alice"] = ["Timber Wolf"]  # level 2: Quick Summoning casts level 1 only
    assert not [c for c in AV.ability_options(g, mage, ("quick", "full")) if c.obj_id == "mage"]
    R.state_of(g).planned["Alice"] = ["Timber Wolf", "Bitterwood Fox"]
    assert [c for c in AV.ability_options(g, mage, ("quick", "full")) if c.obj_id == "mage"]


def test_a_familiars_own_mana_pays_only_what_its_card_allows(corpus):
    # Fellella's spend_only(this, enchantment spells, cost: "cast"): her kept mana pays an enchantment's
    # casting cost, never a creature's, never a reveal cost; a card without the rule spends it on anything
    from magewars.engine import manasupply as MS
    from magewars.engine import placement as P
    g, _ = game_with(corpus, "beastmaster", "Beastmaster")
    fel = g.create("Fellella, Pixie Familiar", "fel", "Alice", zone="B1")
    imp = g.create("Sersiryx, Imp Familiar", "imp", "Alice", zone="B2")
    for o in (fel, imp):
        g.state.add_marker(o, "Mana", 2)
    ench = P.probe(g, fel, g.card("Bear Strength"), "B1")
    wolf = P.probe(g, fel, g.card("Timber Wolf"), "B1")
    assert MS.own_mana(g, fel, ench, "cast") == 2
    assert MS.own_mana(g, fel, ench, "reveal") == 0
    assert MS.own_mana(g, fel, wolf, "cast") == 0
    assert MS.own_mana(g, fel, None) == 0  # a spell not known is not one it names
    assert MS.own_mana(g, imp, P.probe(g, imp, g.card("Timber Wolf"), "B2")) == 2
    p = g.state.players["Alice"].mana
    assert MS.pay(g, fel, 1, wolf) == (0, 1) and fel.markers["Mana"] == 2  # the supply pays it
    assert g.state.players["Alice"].mana == p - 1
