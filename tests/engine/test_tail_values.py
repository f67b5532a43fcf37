"""Values of engine/situation.py read on shipped cards: the kind of action under way while a spell is
cast (upkeep_paid is shown by tests/scenarios/tail/force_crush_upkeep_paid.yaml)."""
from magewars.dsl import ast as A
from magewars.engine import Game
from magewars.engine.casting import Casting
from magewars.engine.phrases import Ctx
from magewars.scenario.runner import base_corpus


def _calls(node, name):
    """Every call named `name` inside an AST node (a card's guard)."""
    if isinstance(node, A.Call) and node.name == name:
        yield node
    if hasattr(node, "__dataclass_fields__"):
        for f in node.__dataclass_fields__:
            v = getattr(node, f)
            for x in (v if isinstance(v, tuple) else (v,)):
                if hasattr(x, "__dataclass_fields__"):
                    yield from _calls(x, name)


def _game():
    corpus = base_corpus()
    g = Game(corpus)
    for p in ("Ann", "Bob"):
        g.state.add_player(p)
    g.state.order = ["Ann", "Bob"]
    return g


def test_action_kind_reads_the_casting_action_of_the_spell_being_cast():
    g = _game()
    card = g.card("Mind's Eye")
    guard = next(ab.ability.guard for ab in card.abilities if isinstance(ab, A.OncePerRound))
    quick = next(_calls(guard, "action_kind"))  # action_kind("quick"), as the card writes it
    wizard = g.create("Wizard", "wiz", "Ann", zone="B2")
    assert g.card("Minor Heal").action == "quick" and g.card("Heal").action == "quick"
    full_spell = next(c for c in g.corpus.cards.values() if c.action == "full" and c.kind == "incantation")
    assert g.evaluate(quick, Ctx(this=wizard, attack=Casting(wizard, g.card("Minor Heal")))) is True
    assert g.evaluate(quick, Ctx(this=wizard, attack=Casting(wizard, full_spell))) is False
    assert g.evaluate(quick, Ctx(this=wizard)) is False  # nothing under way


def test_a_zombie_marker_gives_its_subtypes_while_it_is_on():
    """The Zombie entry's gain_subtypes: phrases naming Undead or Zombie find the marked creature."""
    from magewars.engine.phrases import has_name
    g = _game()
    wolf = g.create("Timber Wolf", "wolf", "Bob", zone="B2")
    assert not has_name(g, wolf, "Undead") and not has_name(g, wolf, "Zombie")
    g.state.add_marker(wolf, "Zombie", 1)
    assert has_name(g, wolf, "Undead") and has_name(g, wolf, "Zombie")
    g.state.remove_marker(wolf, "Zombie")
    assert not has_name(g, wolf, "Undead")


def test_unlimited_per_round_lifts_the_once_per_round_limit_of_that_rule_only():
    """Spark Elemental's `unlimited_per_round(this, [Trample])`: the codex Trample ability (once per
    round) triggers again in the same round for it, not for another creature.  (Game.run_trigger is
    called directly: the engine does not yet hear an attack bar's Trample on a move.)"""
    from magewars.engine.unlimited import unlimited
    g = _game()
    spark = g.create("Spark Elemental", "spark", "Ann", zone="B2")
    wolf = g.create("Timber Wolf", "wolf", "Ann", zone="B3")
    trample = next(ab for ab in g.codex["Trample"].abilities if isinstance(ab, A.OncePerRound))
    assert unlimited(g, spark, "Trample") and not unlimited(g, wolf, "Trample")
    assert not unlimited(g, spark, "Vampiric")
    for obj, again in ((spark, True), (wolf, False)):
        assert g.run_trigger(obj, trample, trample.ability, obj, Ctx(), {"how": "move"}) is True
        assert g.run_trigger(obj, trample, trample.ability, obj, Ctx(), {"how": "move"}) is again
