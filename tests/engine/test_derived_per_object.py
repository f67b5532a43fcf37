"""Derived values are dropped object by object (engine/effects.py, Effects._changed_objects).

When only some objects changed, and none of them carries a static ability that may reach other objects,
only their own values, those of what they are (or were) attached to, and those of objects whose
computation read them are worked out again.  Shipped cards throughout; test_derived_cache.py checks
the kept values against values worked out from nothing after every event of seeded duels."""

from magewars.engine import FirstLegalAgent, Game, SeededDice


def game(corpus) -> Game:
    g = Game(corpus, SeededDice(0), FirstLegalAgent())
    g.state.add_player("A")
    g.state.add_player("B")
    return g


def test_moving_one_creature_keeps_the_values_of_the_others(corpus):
    g = game(corpus)
    fox = g.create("Bitterwood Fox", "fox", "A", zone="A1")
    wolf = g.create("Timber Wolf", "wolf", "B", zone="B2")
    d_fox, d_wolf = g.d(fox), g.d(wolf)
    g.state.move_to_zone(fox, "A2")
    assert g.d(wolf) is d_wolf  # nothing it was worked out from changed
    assert g.d(fox) is not d_fox  # its own fingerprint changed
    assert g.d(fox).trait_names() == d_fox.trait_names()


def test_a_source_whose_phrase_names_others_drops_every_value(corpus):
    """Redclaw's static names each other friendly Canine creature in its zone: when it moves, a
    Canine it left behind loses the bonus."""
    g = game(corpus)
    red = g.create("Redclaw, Alpha Male", "red", "A", zone="A1")
    fox = g.create("Bitterwood Fox", "fox", "A", zone="A1")
    with_bonus = g.d(fox)
    g.state.move_to_zone(red, "A2")
    assert g.d(fox) is not with_bonus
    g.state.move_to_zone(red, "A1")
    assert g.d(fox).trait_names() == with_bonus.trait_names()
    g.state.move_to_zone(fox, "A3")  # the Canine itself moves away: its own value goes
    away = g.d(fox)
    assert away.trait_names() != with_bonus.trait_names() or away.mods != with_bonus.mods


def test_attaching_to_an_object_drops_the_host_value(corpus):
    """An enchantment attached to a creature changes that creature, though only the enchantment's
    fingerprint changed (its host before and after counts as changed)."""
    g = game(corpus)
    wolf = g.create("Timber Wolf", "wolf", "A", zone="A1")
    fox = g.create("Bitterwood Fox", "fox", "A", zone="A1")
    bear = g.create("Bear Strength", "bs", "A", attached_to="fox")
    g.state.attach(bear, host=None, zone="A3")  # (set aside in a zone first: attached to no creature)
    before_wolf, before_fox = g.d(wolf), g.d(fox)
    g.state.attach(bear, host=wolf)
    assert g.d(fox) is before_fox
    after = g.d(wolf)
    assert after is not before_wolf
    assert any("Bear Strength" in m.source for m in after.mods)
    g.state.attach(bear, host=fox)  # moved to the other creature: both hosts change
    assert not any("Bear Strength" in m.source for m in g.d(wolf).mods)
    assert any("Bear Strength" in m.source for m in g.d(fox).mods)


def test_a_value_read_from_another_object_follows_it(corpus):
    """An enchantment's value reads its host (codex statics of the host's traits about what is attached
    to it): it is recorded as read (a value reading the enchantment's depends on the host), and when the
    host changes the enchantment's value is set aside, then taken back only because the host still states
    nothing about what is attached to it (engine/effects.py, Effects._host_read; each dependency:
    tests/engine/test_attachment_values.py); a plain creature reads no other object."""
    g = game(corpus)
    wolf = g.create("Timber Wolf", "wolf", "A", zone="A1")
    bear = g.create("Bear Strength", "bs", "A", attached_to="wolf")
    d_wolf, d_bear = g.d(wolf), g.d(bear)
    assert g.effects._deps["wolf"] == set()
    assert "wolf" in g.effects._deps["bs"]
    assert g.effects._quiet["bs"][0] == "wolf"
    g.state.move_to_zone(wolf, "A2")
    g.effects.current_epoch()
    assert "bs" not in g.effects._cache and g.effects._quiet["bs"][2] is d_bear  # set aside
    assert g.d(wolf) is not d_wolf
    assert g.d(bear) is d_bear  # taken back
