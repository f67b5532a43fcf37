"""The derived-values cache (engine/effects.py) never answers with a stale value.

Derived values survive a state change that touched only light fields (damage, guard, mana, the
attacks made...; state.LIGHT_READS counts their reads) unless they read one; the for-each and
reveal-cost memos keep answers per state version.  These tests check the cache against values
computed from nothing, on shipped cards and spellbooks, after every event of seeded duels."""
import pytest

from magewars.duel.runner import DuelConfig, setup_game
from magewars.engine import FirstLegalAgent, Game, SeededDice
from magewars.engine.effects import Effects


def summary(d):
    return (sorted(d.trait_names()), d.armor, d.base_armor, d.life, d.channeling, d.no_armor,
            sorted(d.cannot_do), sorted(d.can_do), sorted(d.immune_conditions), sorted(d.immune_types),
            sorted(d.cannot_gain), [(a.name, s) for a, s in d.attacks], [(str(df), s) for df, s, _ in d.defenses],
            (d.barrier[0].name, d.barrier[1]) if d.barrier else None, len(d.attack_traits))


def fresh(game) -> dict:
    """Every object's derived values computed from nothing (a new, empty cache)."""
    cached = game.effects
    new = Effects(game)
    new.temporary = cached.temporary
    game.effects = new
    try:
        return {o.id: summary(new.derived(o)) for o in game.state.in_play()}
    finally:
        game.effects = cached


@pytest.mark.parametrize("books,seed", [(("beastmaster", "wizard"), 1), (("necromancer", "druid"), 6),
                                        (("warlord", "priestess"), 2)])
def test_cached_derived_values_equal_fresh_ones_after_every_event(corpus, books, seed):
    game, _, _, _ = setup_game(DuelConfig(books, seed=seed, max_rounds=4), 0)
    log = game.log
    emit = log.emit
    checked = [0]

    def checked_emit(*a, **kw):
        ev = emit(*a, **kw)
        if game.effects._computing:  # an event logged while values are being computed: not a settled state
            return ev
        got = {o.id: summary(game.effects.derived(o)) for o in game.state.in_play()}
        want = fresh(game)
        assert got == want, f"stale derived values after event {ev.seq} ({ev.text})"
        checked[0] += 1
        return ev
    log.emit = checked_emit
    game.play(max_rounds=4)
    assert checked[0] > 100  # the duel went on long enough to say something


def test_a_static_reading_guard_follows_it(corpus):
    """The Warlord's On Guard bonus reads `guarding(it)`: guarding is a light field, so the value
    computed before the change must not survive it (and must come back when it ends)."""
    g = Game(corpus, SeededDice(0), FirstLegalAgent())
    g.state.add_player("A")
    g.state.add_player("B")
    g.create("Warlord Stats", "m", "A", zone="A1")
    creature = next(cd for cd in corpus.cards.values() if cd.kind == "creature" and cd.armor is not None
                    and "Soldier" in cd.subtypes)
    s = g.create(creature, "s", "A", zone="A1")
    g.state.add_marker(s, "On Guard")
    before = g.armor(s)
    s.guard = True
    g.state.touch()
    assert g.armor(s) == before + 1
    s.guard = False
    g.state.touch()
    assert g.armor(s) == before
    g.state.set_damage(s, 1)  # damage alone: the value stays the same (and is not recomputed wrongly)
    assert g.armor(s) == before


def test_a_grappler_is_free_once_its_prey_leaves_the_zone(corpus):
    """Grapple is shared with the creature that placed it (codex: both are Restrained and Unmovable).
    When the prey moves out of the grappler's zone the pair breaks and the marker goes; the grappler's
    kept value must go with it, although the state check removed the placers' record of the pair before
    anything asked for the grappler's value again (found by the seeded wizard-siren duel 113)."""
    g = Game(corpus, SeededDice(0), FirstLegalAgent())
    g.state.add_player("A")
    g.state.add_player("B")
    croc = g.create("Shoalsdeep Crocodile", "c", "A", zone="B3")
    prey = g.create("Darkfenne Hydra", "h", "B", zone="B3")
    assert g.place_condition(prey, "Grapple", 1, "test", by=croc) == 1
    prey.zone = "A2"  # the prey is moved away (a teleport); before the state check breaks the pair,
    g.state.touch()
    g.d(prey)  # the table of who holds what is built outside the grappler's computation,
    assert {"Restrained", "Unmovable"} <= set(g.d(croc).trait_names())  # and the grappler is read
    g.check_state()  # the pair is broken: the marker and the placers' record go
    assert prey.markers.get("Grapple", 0) == 0
    assert not {"Restrained", "Unmovable"} & set(g.d(croc).trait_names())
    assert set(g.d(croc).trait_names()) == set(fresh(g)["c"][0])


def test_a_codex_static_applied_elsewhere_has_its_guard_left_unread(corpus):
    """Magebind's `static if is(enchanted, Mage) costs(...)` is read by the reveal cost, not applied to the
    enchantment's derived value: working the enchantment out evaluates no guard (it evaluated this one for
    nothing, for every enchantment with Magebind), and the value is the one worked out from nothing."""
    g = Game(corpus, SeededDice(0), FirstLegalAgent())
    g.state.add_player("A")
    g.state.add_player("B")
    golem = g.create("Iron Golem", "d", "B", zone="B2")
    hide = g.create("Rhino Hide", "e0", "B", attached_to="d")
    g.d(golem)
    evaluated = []
    evaluate = g.evaluate
    g.evaluate = lambda node, ctx, *a, **kw: evaluated.append(node) or evaluate(node, ctx, *a, **kw)
    assert any(n.startswith("Magebind") for n in g.d(hide).trait_names())
    assert evaluated == []
    assert summary(g.d(hide)) == fresh(g)["e0"]
    assert g.armor(golem) == 7  # Rhino Hide's armor +2 still reaches the host


def test_a_new_derived_value_has_every_field_at_its_declared_default():
    """Derived's __init__ is written out (Effects._compute makes one per derivation): a field added to the
    class must be given its default there too."""
    import dataclasses
    from magewars.engine.effects import Derived
    d = Derived()
    for f in dataclasses.fields(Derived):
        want = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
        assert getattr(d, f.name) == want and type(getattr(d, f.name)) is type(want), f.name
    assert set(vars(d)) == {f.name for f in dataclasses.fields(Derived)}


def test_an_enchantment_on_an_invisible_creature_is_invisible_once(corpus):
    """Invisible's `static each enchantment attached to this gains [Invisible]` is read once when the
    enchantment is worked out: it was read twice (as a codex static about what is attached, and again as
    a gain of what is attached), and the enchantment carried two Invisible instances and two mods."""
    g = Game(corpus, SeededDice(0), FirstLegalAgent())
    g.state.add_player("A")
    g.state.add_player("B")
    g.create("Invisible Stalker", "s", "A", zone="A1")
    hide = g.create("Rhino Hide", "e", "A", attached_to="s")
    d = g.d(hide)
    assert len(d.traits["Invisible"]) == 1
    assert [m.what for m in d.mods].count("gains Invisible") == 1
    assert {"Pest", "Elusive"} <= set(d.traits)
    assert summary(d) == fresh(g)["e"]
