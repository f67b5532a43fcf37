"""The static layer and the 'would be destroyed' window on shipped cards, where a scenario file cannot
say it (a spell cast on zones, values read directly)."""
from magewars.dsl import load_corpus
from magewars.engine import Game, ScriptedDice
from magewars.dsl import ast as A
from magewars.engine.casting import spell_object
from magewars.engine.phrases import Ctx


def _game(d12=()):
    g = Game(load_corpus(), dice=ScriptedDice([], list(d12)))
    for p in ("Alice", "Bob"):
        g.state.add_player(p, mana=20)
    g.state.order = ["Alice", "Bob"]
    return g


def test_effects_of_a_card_skip_objects_immune_to_it():
    """Earthquake: Flying creatures are immune to it, so its Slam roll is made for the wolf only."""
    g = _game(d12=[9])
    fm = g.create("Forcemaster", "fm", "Alice", zone="C4")
    wolf = g.create("Timber Wolf", "wolf", "Bob", zone="B2")
    falcon = g.create("Thunderift Falcon", "falcon", "Bob", zone="B2")
    card = g.card("Earthquake")
    spell = spell_object(g, fm, card)
    for ab in card.abilities:  # the spell resolves on zone B2 (the casting sequence is not needed here)
        if isinstance(ab, A.OneShotAbility):
            g.run_effects(ab.effects, Ctx(this=spell, target="B2"))
    assert wolf.markers["Slam"] == 1
    assert falcon.markers["Slam"] == 0
    assert any("Thunderift Falcon [falcon] is immune to Earthquake" in e.text for e in g.log.events)


def test_static_x_is_worked_out_from_the_context():
    """Dispel's X is the cost of its target (casting plus reveal cost, as `cost_of` is defined): the
    value is read from the spell's context."""
    g = _game()
    wiz = g.create("Wizard", "wiz", "Alice", zone="B2")
    wolf = g.create("Timber Wolf", "wolf", "Bob", zone="B2")
    bear = g.create("Bear Strength", "bear", "Bob", attached_to="wolf")
    dispel = g.card("Dispel")
    assert g.static_x(dispel, Ctx(this=wiz, target=bear)) == bear.card.cast_cost + (bear.card.reveal_cost or 0)
    assert g.static_x(g.card("Timber Wolf"), Ctx(this=wolf)) is None


def test_steal_equipment_gives_control_of_the_chosen_equipment():
    """Steal Equipment: its caster's player takes control of the equipment chosen on the target."""
    from magewars.engine import ScriptedAgent, ScriptedChoice
    from magewars.engine.casting import cast_incantation
    g = _game()
    g.agents = ScriptedAgent([ScriptedChoice("target", "Moonglow Amulet [amulet]", "Alice"),
                              ScriptedChoice("optional", "no", "Alice")])
    fm = g.create("Forcemaster", "fm", "Alice", zone="B2")
    wiz = g.create("Wizard", "wiz", "Bob", zone="B3")
    amulet = g.create("Moonglow Amulet", "amulet", "Bob", attached_to="wiz")
    cast_incantation(g, fm, g.card("Steal Equipment"), wiz)
    assert amulet.controller == "Alice"
    assert "gain_control" not in g.unsupported


def test_unstable_zombie_attacks_gain_piercing_until_end_of_round():
    """Unstable Zombie's activation choice: its attacks gain Piercing +2 until the end of the round."""
    from magewars.engine import ScriptedAgent, ScriptedChoice
    g = _game()
    g.agents = ScriptedAgent([ScriptedChoice("optional", "yes", "Bob"), ScriptedChoice("choose", 1, "Bob")])
    z = g.create("Unstable Zombie", "z", "Bob", zone="B2")
    trig = next(ab for ab in z.card.abilities if isinstance(ab, A.TriggeredAbility) and ab.event.name == "activated")
    g.run_effects(trig.effects, Ctx(this=z, it=z))
    assert [str(t) for t, _, _ in g.d(z).attack_traits] == ["Piercing +2"]
    g.end_round()
    assert g.d(z).attack_traits == []


def test_dragonclaw_wolverine_counterstrike_only_on_its_named_attack():
    """`attacks_gain(this, [Counterstrike], "Ripping Claws")`: only that attack bar gains the trait."""
    g = _game()
    w = g.create("Dragonclaw Wolverine", "w", "Bob", zone="B2")
    g.state.add_marker(w, "Rage", 3)
    got = g.d(w).attack_traits
    assert [(str(t), k) for t, k, _ in got] == [("Counterstrike", "Ripping Claws")]
