"""`magewars odds`: exact, and in agreement with the engine's real attack sequence and with icepool.

(a) Seeded runs of the engine's real attack sequence (thousands of attacks, one fixed seed, boards
    built here with the engine's state API) against the exact distribution: a chi-square test at a
    very low significance level.  The seed is fixed, so the test cannot flake.
(b) An independent exact oracle, icepool, on a grid of dice counts 1-10 and armor 0-6, plus Piercing,
    critical-only (Critical Damage) and Incorporeal cases; exact equality of fractions.
"""
from __future__ import annotations

import dataclasses
import json
import math
from collections import Counter
from fractions import Fraction

import pytest
from click.testing import CliRunner

from magewars.cli import main
from magewars.dsl.model import Corpus, TraitInstance
from magewars.engine import FirstLegalAgent, Game, SeededDice
from magewars.odds import OddsError, attack_odds, make_spec, odds, signatures
from magewars.odds.check import chi2_sf, chi_square
from magewars.scenario.runner import base_corpus

icepool = pytest.importorskip("icepool")

SEED = 20240605
N_RUNS = 4000


@pytest.fixture(scope="module")
def corpus():
    return base_corpus()


# ---------------------------------------------------------------- (a) the engine's real sequence
def engine_run(corpus, attacker, defender, n, *, attack=None, spell=None, defender_damage=0, seed=SEED,
               defender_with=()):
    """n attacks with the engine's seeded dice, each on a fresh board; damage of the first individual
    attack to the defender, whether it destroyed it, and the conditions it placed."""
    dice = SeededDice(seed)
    dmg, destroyed, conds = Counter(), 0, Counter()
    for _ in range(n):
        g = Game(corpus, dice, FirstLegalAgent())
        g.state.add_player("A", mana=99)
        g.state.add_player("B")
        a = g.create("Wizard Stats" if spell else attacker, "a", "A", zone="B2")
        d = g.create(defender, "d", "B", zone="B2")
        for i, w in enumerate(defender_with):
            g.create(w, f"w{i}", "B", attached_to="d")
        if defender_damage:
            g.state.set_damage(d, defender_damage)
        g.attacks.make_attack(a, attack, [d], spell_card=g.card(spell) if spell else None)
        atk = g.attacks.history[0]
        hit = atk.status == "hit" and atk.target is d
        dmg[atk.damage if hit else 0] += 1
        destroyed += not d.in_play
        if hit and atk.effect_roll is not None and d.in_play:
            conds[tuple(sorted(atk.conditions))] += 1
    return dmg, destroyed, conds


def chi_square_ok(observed: Counter, expected: dict, n: int, alpha=1e-4):
    """A chi-square test (magewars.odds.check): buckets with expected count < 5 pooled into their neighbour."""
    stat, dof, p, buckets = chi_square(observed, expected, n)
    assert all(e > 0 for _, e in buckets), (observed, expected)
    return p > alpha, (stat, dof, p, buckets)


def test_chi2_sf_matches_known_values():
    # textbook critical values: P(chi2_k > x) = 0.05
    for k, x in ((1, 3.841), (2, 5.991), (5, 11.070), (10, 18.307), (30, 43.773)):
        assert abs(chi2_sf(x, k) - 0.05) < 2e-4, (k, chi2_sf(x, k))
    assert abs(chi2_sf(2.0, 2) - math.exp(-1.0)) < 1e-12


CASES = [
    # attacker, defender, options: armor, +X, Piercing, Daze/defense, Aegis, Resilient, Incorporeal, effects
    dict(attacker="Timber Wolf", defender="Iron Golem", defender_damage=3),
    dict(spell="Lightning Bolt", defender="Iron Golem"),  # Lightning +2, effect die with +2
    dict(attacker="Sslak, Orb Guardian", defender="Timber Wolf"),  # Piercing +1 vs armor 2
    dict(attacker="Timber Wolf", defender="Eeker"),  # defense 5+
    dict(spell="Lightning Bolt", defender="Guardian Angel"),  # Aegis 1, defense 8+
    dict(attacker="Timber Wolf", defender="Screaming Zombie"),  # Resilient
    dict(attacker="Timber Wolf", defender="Spark Elemental"),  # Incorporeal
    dict(attacker="Dire Wolf", defender="Bloodcrag Minotaur", defender_damage=2),  # Bloodthirsty, Tough, effect
    dict(spell="Fireball", defender="Timber Wolf"),  # effect die: Burn
]


def _ids(c):
    return f"{c.get('attacker') or c.get('spell')}->{c['defender']}"


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_exact_agrees_with_seeded_engine(corpus, case):
    name = case.get("attacker") or case["spell"]
    dd = case.get("defender_damage", 0)
    report = odds(corpus, name, case["defender"], cap=3, defender_damage=dd)
    first = report.first
    exact = first.damage
    assert sum(exact.values()) == 1
    dmg, destroyed, conds = engine_run(corpus, case.get("attacker"), case["defender"], N_RUNS,
                                       spell=case.get("spell"), defender_damage=dd)
    ok, info = chi_square_ok(dmg, exact, N_RUNS)
    assert ok, info
    # destruction: the engine's count within 5 standard deviations of the exact probability
    p = float(first.p_destroy)
    sd = (N_RUNS * p * (1 - p)) ** 0.5
    assert abs(destroyed - N_RUNS * p) <= 5 * sd + 1, (destroyed, N_RUNS * p)
    # the effect die (when the defender survives): outcome frequencies
    if first.effect_die and conds:
        exp = Counter()
        for row in first.effect:
            exp[tuple(sorted(tuple(c) for c in row["conditions"]))] += row["p"]
        total = sum(conds.values())
        ok, info = chi_square_ok(conds, {k: v for k, v in exp.items()}, total)
        assert ok, info


def test_probabilities_are_exact_fractions(corpus):
    r = odds(corpus, "Timber Wolf", "Iron Golem")
    assert all(isinstance(p, Fraction) for p in r.first.damage.values())
    assert sum(r.first.damage.values()) == 1
    assert sum(r.attacks_needed.values()) + r.beyond == 1
    # 4 dice against armor 5: the chance of 8 damage is four 2*s
    assert r.first.damage[8] == Fraction(1, 6 ** 4)


def test_attacks_needed_matches_engine_repeated(corpus):
    """Attack again and again on one board (engine, seeded) until destroyed: the count of attacks."""
    r = odds(corpus, "Timber Wolf", "Bitterwood Fox", cap=6)
    dice = SeededDice(SEED + 1)
    counts = Counter()
    n = 3000
    for _ in range(n):
        g = Game(corpus, dice, FirstLegalAgent())
        g.state.add_player("A")
        g.state.add_player("B")
        a = g.create("Timber Wolf", "a", "A", zone="B2")
        d = g.create("Bitterwood Fox", "d", "B", zone="B2")
        k = 0
        while d.in_play and k <= r.cap:
            k += 1
            g.attacks.make_attack(a, None, [d])
        counts[k if not d.in_play else r.cap + 1] += 1
    expected = {**r.attacks_needed, r.cap + 1: r.beyond}
    ok, info = chi_square_ok(counts, expected, n)
    assert ok, info


def test_bloodthirsty_changes_later_attacks(corpus):
    """Dire Wolf: no Bloodthirsty bonus on an undamaged defender, the bonus once it is damaged."""
    spec0 = make_spec(corpus, "Dire Wolf", "Timber Wolf")
    a0 = attack_odds(spec0)
    a1 = attack_odds(spec0, 1)
    assert a1.dice > a0.dice
    assert any("Bloodthirsty" in m[0] for m in a1.dice_mods)


# ---------------------------------------------------------------- (b) icepool oracle
_V = icepool.Vector
ATTACK_DIE = icepool.Die([_V((0, 0)), _V((0, 0)), _V((1, 0)), _V((2, 0)), _V((0, 1)), _V((0, 2))])  # normal, crit


def synthetic(corpus, dice: int, armor: int, traits=(), defender_traits=()):
    """A corpus with a plain attacker of `dice` dice and a plain defender of armor `armor`, life 99."""
    wolf = corpus.cards["Timber Wolf"]
    atk = dataclasses.replace(wolf.attacks[0], name="Test Attack", dice=dice, traits=tuple(traits), effect_die=())
    attacker = dataclasses.replace(wolf, name="Oracle Attacker", attacks=(atk,), traits=())
    defender = dataclasses.replace(wolf, name="Oracle Defender", armor=armor, life=99, attacks=(),
                                   traits=tuple(defender_traits))
    cards = dict(corpus.cards)
    cards.update({attacker.name: attacker, defender.name: defender})
    return Corpus(cards, dict(corpus.codex))


def oracle(dice: int, armor: int, crit_only=False):
    pool = dice @ ATTACK_DIE
    if crit_only:
        dist = pool.map(lambda v: v[0] + v[1])
    else:
        dist = pool.map(lambda v: max(0, v[0] - armor) + v[1])
    den = dist.denominator()
    return {int(k): Fraction(q, den) for k, q in dist.items()}


def ours(c, dice):
    spec = make_spec(c, "Oracle Attacker", "Oracle Defender")
    a = attack_odds(spec)
    assert a.dice == dice
    return a.damage


@pytest.mark.parametrize("dice", range(1, 11))
def test_grid_against_icepool(corpus, dice):
    for armor in range(0, 7):
        c = synthetic(corpus, dice, armor)
        assert ours(c, dice) == oracle(dice, armor), (dice, armor)


@pytest.mark.parametrize("dice,armor,pierce", [(3, 2, 1), (4, 3, 2), (5, 2, 3), (6, 6, 2), (2, 0, 2), (7, 4, 1)])
def test_piercing_against_icepool(corpus, dice, armor, pierce):
    c = synthetic(corpus, dice, armor, traits=[TraitInstance("Piercing", pierce, text=f"Piercing +{pierce}")])
    assert ours(c, dice) == oracle(dice, max(0, armor - pierce))


@pytest.mark.parametrize("dice,armor", [(1, 5), (4, 3), (8, 6)])
def test_critical_only_against_icepool(corpus, dice, armor):
    c = synthetic(corpus, dice, armor, traits=[TraitInstance("Critical Damage", text="Critical Damage")])
    assert ours(c, dice) == oracle(dice, armor, crit_only=True)


@pytest.mark.parametrize("dice", [2, 5, 9])
def test_incorporeal_against_icepool(corpus, dice):
    """Incorporeal (glossary): only the 1s on the dice count, armor or not."""
    c = synthetic(corpus, dice, 0, defender_traits=[TraitInstance("Incorporeal", text="Incorporeal")])
    ones = dice @ icepool.Die([0, 0, 1, 0, 1, 0])
    den = ones.denominator()
    assert ours(c, dice) == {int(k): Fraction(q, den) for k, q in ones.items()}


def test_signatures_sum_to_one():
    for n in range(0, 8):
        assert sum(p for _, p in signatures(n)) == 1


# ---------------------------------------------------------------- CLI
def test_cli_text_and_json():
    r = CliRunner().invoke(main, ["odds", "Timber Wolf", "Iron Golem", "--defender-damage", "3"])
    assert r.exit_code == 0, r.output
    assert "Damage" in r.output and "Attacks needed" in r.output and "█" in r.output
    r = CliRunner().invoke(main, ["odds", "Lightning Bolt", "Iron Golem", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["inputs"]["dice"] == 7
    assert abs(sum(row["p"] for row in data["damage"]) - 1) < 1e-9
    assert data["effect_die"]


def test_cli_with_options(corpus):
    r = CliRunner().invoke(main, ["odds", "Timber Wolf", "Iron Golem", "--with", "Bear Strength", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["attacker_with"] == ["Bear Strength"]


@pytest.mark.parametrize("args,code,text", [
    (["odds", "Timbr Wolf", "Iron Golem"], 1, "did you mean 'Timber Wolf'"),
    (["odds", "Timber Wolf", "xyzzy"], 1, "no card named 'xyzzy'"),
    (["odds", "Timber Wolf", "Golem"], 1, "matches several cards"),
    (["odds", "", "Iron Golem"], 1, "no card named '' (attacker)"),
    (["odds", "Timber Wolf", "Iron Golem", "--attack", "Claw"], 1, "no attack named 'Claw'"),
    (["odds", "Timber Wolf", "Iron Golem", "--with", "Bear Strenght"], 1, "did you mean"),
    (["odds", "Timber Wolf", "Iron Golem", "--defender-damage", "13"], 1, "already be destroyed"),
    (["odds", "Timber Wolf", "Thunderift Falcon"], 1, "Flying"),
    (["odds", "Bear Strength", "Timber Wolf"], 1, "has no attack"),
    (["odds", "Timber Wolf", "Iron Golem", "--max-attacks", "0"], 2, "at least 1"),
])
def test_cli_errors(args, code, text):
    r = CliRunner().invoke(main, args)
    assert r.exit_code == code, r.output
    assert text in r.output
    assert "Traceback" not in r.output


def test_mage_attack_with_a_cost_and_immunity(corpus):
    r = odds(corpus, "Wizard", "Timber Wolf", attack="Arcane Zap")  # the attack's mana cost is paid
    assert r.first.dice == 3 and r.first.p_hit == 1
    r = odds(corpus, "Fireball", "Fire Elemental")  # Flame Immunity: no dice, no damage
    assert r.first.damage == {0: 1} and r.beyond == 1


def test_unknown_name_raises_odds_error(corpus):
    with pytest.raises(OddsError) as e:
        odds(corpus, "Nobody", "Iron Golem")
    assert e.value.code == 1
