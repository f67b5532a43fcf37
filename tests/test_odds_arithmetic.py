"""The arithmetic path of `magewars odds`: equal to enumerating every roll through the engine,
and to icepool, and refused (falling back to enumeration) whenever the engine disagrees with it."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from magewars.odds import OddsError, attack_odds, compute, make_spec, odds, signatures
from magewars.odds.exact import sum_table
from magewars.scenario.runner import base_corpus

icepool = pytest.importorskip("icepool")
_V = icepool.Vector


@pytest.fixture(scope="module")
def corpus():
    return base_corpus()


@pytest.mark.parametrize("n", [0, 1, 2, 5, 9])
def test_sum_table_equals_the_multiset_enumeration(n):
    table, total = sum_table(n)
    want: dict = {}
    for faces, p in signatures(n):
        key = (sum(f.value for f in faces if not f.critical), sum(f.value for f in faces if f.critical))
        want[key] = want.get(key, Fraction(0)) + p
    assert {k: Fraction(v, total) for k, v in table.items()} == want


def test_sum_table_equals_icepool_at_twenty_dice():
    table, total = sum_table(20)
    die = icepool.Die([_V((0, 0)), _V((0, 0)), _V((1, 0)), _V((2, 0)), _V((0, 1)), _V((0, 2))])
    pool = 20 @ die
    den = pool.denominator()
    assert total == den
    assert {tuple(int(x) for x in k): q for k, q in pool.items()} == table


def _pairs(corpus, k, seed):
    """A seeded sample of creature-vs-creature matchups from the shipped cards."""
    rng = random.Random(seed)
    creatures = sorted(n for n, c in corpus.cards.items()
                       if c.kind == "creature" and c.life is not None and c.attacks)
    out = []
    while len(out) < k:
        a, d = rng.choice(creatures), rng.choice(creatures)
        if a != d:
            out.append((a, d))
    return out


def test_arithmetic_equals_enumeration_on_shipped_matchups(corpus):
    used = {"structure": 0, "d12 + structure": 0, "arithmetic": 0, "enumeration": 0}
    for a, d in _pairs(corpus, 14, seed=12):
        spec = make_spec(corpus, a, d)
        try:
            fast = attack_odds(spec)
        except OddsError:
            continue  # an attack the engine refuses (flying defender...): nothing to compare
        if fast.dice > 6 or not fast.rolled:
            continue
        slow = attack_odds(spec, method="enumeration")
        assert fast.damage_given_hit == slow.damage_given_hit, (a, d)
        assert fast.destroy_given_hit == slow.destroy_given_hit, (a, d)
        assert fast.p_hit == slow.p_hit and fast.effect == slow.effect
        used[fast.method] += 1
    assert used["structure"] >= 3, used


def test_chain_with_damage_on_the_defender(corpus):
    """The attacks-needed chain is the same whichever way each attack is computed."""
    fast = odds(corpus, "Lightning Bolt", "Iron Golem", defender_damage=3, cap=6)
    assert fast.first.method == "structure"
    spec = make_spec(corpus, "Lightning Bolt", "Iron Golem", defender_damage=3)
    slow = attack_odds(spec, method="enumeration")
    assert fast.first.damage == slow.damage and fast.first.p_destroy == slow.p_destroy
    assert fast.first.effect == slow.effect
    assert sum(fast.attacks_needed.values()) + fast.beyond == 1
    engine = compute(spec, 6, method="engine")  # the chain with every attack run through the engine
    assert engine.first.method == "arithmetic"
    assert (fast.attacks_needed, fast.beyond) == (engine.attacks_needed, engine.beyond)


def test_model_refused_where_the_engine_disagrees(corpus):
    """Defenders whose damage is not armor arithmetic (here every Incorporeal creature in the pool)
    fall back to enumeration, and asking for arithmetic there is an error, not a wrong answer."""
    ghosts = sorted(n for n, c in corpus.cards.items()
                    if c.kind == "creature" and c.life is not None and c.has_trait("Incorporeal"))
    assert ghosts, "the pool has an Incorporeal creature"
    spec = make_spec(corpus, "Timber Wolf", ghosts[0])
    r = attack_odds(spec)
    assert r.method == "structure"  # only the 1s count: the structure carries it (damage_from)
    assert r.damage_given_hit == attack_odds(spec, method="enumeration").damage_given_hit
    r = compute(spec, 1, method="engine").first  # the engine per outcome: the old armor model refuses it
    assert r.method == "enumeration"
    assert r.damage_given_hit == attack_odds(spec, method="enumeration").damage_given_hit
    with pytest.raises(OddsError):
        attack_odds(spec, method="arithmetic")
    # an Ethereal attack ignores Incorporeal: there the engine confirms the armor model
    bolt = make_spec(corpus, "Lightning Bolt", ghosts[0])
    fast = compute(bolt, 1, method="engine").first
    assert fast.method == "arithmetic"
    assert fast.damage_given_hit == attack_odds(bolt, method="enumeration").damage_given_hit


def test_json_says_which_method_ran():
    import json
    from click.testing import CliRunner
    from magewars.cli import main
    r = CliRunner().invoke(main, ["odds", "Timber Wolf", "Iron Golem", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["method"] == "structure" and data["method_note"] == "" and data["strikes"] == 1


@pytest.mark.parametrize("n", [24, 25, 33])
def test_tables_beyond_one_machine_word(n):
    """6^n above 2^64 from 25 dice: the tables' counts take two 64-bit words each, exactly."""
    from magewars.odds.exact import ones_table
    table, total = sum_table(n)
    die = icepool.Die([_V((0, 0)), _V((0, 0)), _V((1, 0)), _V((2, 0)), _V((0, 1)), _V((0, 2))])
    pool = n @ die
    assert total == pool.denominator() == 6 ** n
    assert {tuple(int(x) for x in k): q for k, q in pool.items()} == table
    ones, total = ones_table(n)
    pool = n @ icepool.Die([0, 0, 1, 0, 1, 0])
    assert total == pool.denominator() and {int(k): q for k, q in pool.items()} == ones
