"""Property tests: random attacks between random corpus creatures keep the invariants.

Damage is accounted for (every point on an object comes from a damage event, every
point removed from a heal event); armor, damage and markers are never negative;
the same seed gives the same log.
"""
from collections import Counter

from hypothesis import HealthCheck, given, settings, strategies as st

from magewars.engine import Game, RandomAgent, SeededDice
from magewars.scenario.runner import base_corpus


def _creatures():
    corpus = base_corpus()
    out = []
    for c in corpus.cards.values():
        if c.kind in ("creature",) and c.life is not None and any(
                a.kind == "melee" and isinstance(a.dice, int) for a in c.attacks):
            out.append(c.name)
    return sorted(out)


CREATURES = _creatures()


def play(attacker: str, defender: str, seed: int, guard: bool, daze: int, damage: int):
    game = Game(base_corpus(), SeededDice(seed), RandomAgent(seed))
    game.state.add_player("A")
    game.state.add_player("B")
    a = game.create(attacker, "a", "A", zone="B2")
    d = game.create(defender, "d", "B", zone="B2")
    d.guard = guard
    if daze:
        a.markers["Daze"] = daze
    d.damage = min(damage, (game.life(d) or 1) - 1)
    start = {"a": a.damage, "d": d.damage}
    atk = next(x for x in a.card.attacks if x.kind == "melee" and isinstance(x.dice, int))
    game.attacks.make_attack(a, atk.name, [d])
    return game, start


def check_invariants(game, start):
    dmg, healed = Counter(), Counter()
    for e in game.log.events:
        if e.kind == "damage":
            dmg[e.data["target"]] += e.data["amount"]
        elif e.kind == "heal" and "amount" in e.data:
            healed[e.data["target"]] += e.data["amount"]
    for oid, o in game.state.objects.items():
        assert o.damage >= 0
        assert o.damage == start.get(oid, 0) + dmg[oid] - healed[oid], (oid, game.log.render())
        assert all(n > 0 for n in o.markers.values()), o.markers
        if o.in_play:
            assert game.armor(o) >= 0
            assert o.markers.get("Corrode", 0) <= max(0, game.effects.derived(o).base_armor)
            life = game.life(o)
            if life is not None:
                assert o.damage + 3 * o.markers.get("Tainted", 0) < life
    for atk in game.attacks.history:
        assert atk.dice_count >= 0
        assert atk.damage >= 0
        assert atk.status in ("missed", "avoided", "canceled", "hit")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CREATURES), st.sampled_from(CREATURES), st.integers(0, 10_000), st.booleans(),
       st.integers(0, 1), st.integers(0, 6))
def test_random_attacks_keep_invariants(attacker, defender, seed, guard, daze, damage):
    game, start = play(attacker, defender, seed, guard, daze, damage)
    check_invariants(game, start)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(CREATURES), st.sampled_from(CREATURES), st.integers(0, 10_000))
def test_same_seed_same_log(attacker, defender, seed):
    g1, _ = play(attacker, defender, seed, True, 0, 0)
    g2, _ = play(attacker, defender, seed, True, 0, 0)
    assert g1.log.signature() == g2.log.signature()
    assert g1.log.to_json() == g2.log.to_json()


def _enchantments():
    corpus = base_corpus()
    return sorted(c.name for c in corpus.cards.values()
                  if c.kind == "enchantment" and any("creature" in t.lower() for t in c.targets))


ENCHANTMENTS = _enchantments()


def play_rich(attacker, defender, enchs, seed, guard, daze):
    """Random attack where the defender carries random hidden enchantments and both players reveal at random."""
    game = Game(base_corpus(), SeededDice(seed), RandomAgent(seed))
    game.state.add_player("A", mana=30)
    game.state.add_player("B", mana=30)
    a = game.create(attacker, "a", "A", zone="B2")
    d = game.create(defender, "d", "B", zone="B2")
    d.guard = guard
    if daze:
        a.markers["Daze"] = 1
    for i, e in enumerate(enchs):
        game.create(e, f"e{i}", "B" if i % 2 == 0 else "A", attached_to="d" if i < 2 else "a", hidden=True)
    start = {"a": 0, "d": 0}
    atk = next(x for x in a.card.attacks if x.kind == "melee" and isinstance(x.dice, int))
    game.attacks.make_attack(a, atk.name, [d])
    return game, start


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CREATURES), st.sampled_from(CREATURES),
       st.lists(st.sampled_from(ENCHANTMENTS), min_size=0, max_size=3), st.integers(0, 10_000), st.booleans(),
       st.booleans())
def test_random_attacks_with_hidden_enchantments(attacker, defender, enchs, seed, guard, daze):
    game, start = play_rich(attacker, defender, enchs, seed, guard, daze)
    check_invariants(game, start)
    for p in game.state.players.values():
        assert p.mana >= 0
