"""The structure path of `magewars odds` (odds/plan.py: the attack asked of the engine once):
equal to the engine run per outcome, to seeded runs of the engine's real sequence and to icepool,
for every strike of a multiple-strike attack; and it says so when it falls back."""
from __future__ import annotations

import dataclasses
from collections import Counter
from fractions import Fraction

import pytest

from magewars.dsl.model import Corpus
from magewars.engine import FirstLegalAgent, Game, SeededDice
from magewars.odds import OddsError, attack_odds, compute, make_spec, odds
from magewars.odds.plan import plan
from magewars.scenario.runner import base_corpus

from test_odds import chi_square_ok  # noqa: E402 (tests/ is on the path)

icepool = pytest.importorskip("icepool")
_V = icepool.Vector
DIE = icepool.Die([_V((0, 0)), _V((0, 0)), _V((1, 0)), _V((2, 0)), _V((0, 1)), _V((0, 2))])  # normal, crit


@pytest.fixture(scope="module")
def corpus():
    return base_corpus()


def _multi_strike(corpus):
    """A shipped creature whose attack strikes three times, and its name (found from the data)."""
    for name, cd in sorted(corpus.cards.items()):
        if cd.kind != "creature":
            continue
        for a in cd.attacks:
            try:
                pl = plan(make_spec(corpus, name, "Timber Wolf", attack=a.name))
            except OddsError:  # an attack the engine refuses on this board (out of range...)
                continue
            if len(pl.strikes) == 3 and not pl.unsafe and not pl.gates and not a.effect_die:
                return name, a.name, pl
    pytest.skip("no three-strike attack in the pool")


def test_every_strike_counts_and_matches_icepool(corpus):
    name, attack, pl = _multi_strike(corpus)
    r = odds(corpus, name, "Timber Wolf", attack=attack, cap=4)
    first = r.first
    assert first.method == "structure" and first.strikes == 3
    armor, remaining = pl.view["armor"], pl.view["remaining"]
    one = (pl.strikes[0].dice @ DIE).map(lambda v: max(0, v[0] - armor) + v[1])
    total = one + one + one  # the engine's die, three strikes of the same dice against the same armor
    den = total.denominator()
    want = {int(k): Fraction(q, den) for k, q in total.items()}
    # below the defender's health left, the totals are the same with or without the destruction
    # cut-off (a strike after destruction is not made); at or above it, the defender is destroyed
    for k in range(remaining):
        assert first.damage.get(k, 0) == want.get(k, 0), k
    assert first.p_destroy == sum(p for k, p in want.items() if k >= remaining)
    assert sum(first.damage.values()) == 1


def test_multi_strike_matches_seeded_engine(corpus):
    name, attack, pl = _multi_strike(corpus)
    r = odds(corpus, name, "Timber Wolf", attack=attack, cap=2)
    dice = SeededDice(77)
    seen, destroyed, n = Counter(), 0, 3000
    for _ in range(n):
        g = Game(corpus, dice, FirstLegalAgent())
        g.state.add_player("A")
        g.state.add_player("B")
        a = g.create(name, "a", "A", zone="B2")
        d = g.create("Timber Wolf", "d", "B", zone="B2")
        g.attacks.make_attack(a, attack, [d])
        seen[sum(x.damage for x in g.attacks.history if x.target is d and x.status == "hit")] += 1
        destroyed += not d.in_play
    ok, info = chi_square_ok(seen, r.first.damage, n)
    assert ok, info
    p = float(r.first.p_destroy)
    assert abs(destroyed - n * p) <= 5 * (n * p * (1 - p)) ** 0.5 + 1


@pytest.mark.parametrize("attacker,defender,dd", [
    ("Timber Wolf", "Iron Golem", 3),
    ("Lightning Bolt", "Iron Golem", 0),  # effect die with a modifier
    ("Dire Wolf", "Bloodcrag Minotaur", 2),  # Bloodthirsty: the structure changes with damage
    ("Timber Wolf", "Screaming Zombie", 0),  # Resilient
    ("Timber Wolf", "Spark Elemental", 0),  # Incorporeal: only the 1s count
    ("Sslak, Orb Guardian", "Timber Wolf", 0),  # Piercing
    ("Fireball", "Timber Wolf", 0),  # Burn on the effect die
])
def test_structure_equals_the_engine_run_per_outcome(corpus, attacker, defender, dd):
    spec = make_spec(corpus, attacker, defender, defender_damage=dd)
    fast = compute(spec, 6)
    slow = compute(spec, 6, method="engine")
    assert fast.first.method == "structure", fast.first.note
    assert slow.first.method in ("arithmetic", "enumeration")
    assert fast.first.damage == slow.first.damage
    assert fast.first.p_destroy == slow.first.p_destroy
    assert fast.first.effect == slow.first.effect
    assert (fast.attacks_needed, fast.beyond) == (slow.attacks_needed, slow.beyond)


def test_damage_dependent_structure_is_asked_per_damage_value(corpus):
    """Bloodthirsty reads the defender's damage: the plan says so, and the chain asks again."""
    spec = make_spec(corpus, "Dire Wolf", "Bloodcrag Minotaur")
    assert plan(spec).damage_reads > 0
    assert plan(make_spec(corpus, "Timber Wolf", "Iron Golem")).damage_reads == 0
    assert attack_odds(spec, 1).dice > attack_odds(spec, 0).dice


def test_fallback_says_why(corpus):
    """A defense decided by a d12 is not in the structure: the engine path runs, and says why."""
    r = odds(corpus, "Timber Wolf", "Eeker")
    assert r.first.method != "structure"
    assert "defense" in r.first.note
    assert r.first.p_avoid > 0


def _synthetic(corpus, dice, armor):
    wolf = corpus.cards["Timber Wolf"]
    atk = dataclasses.replace(wolf.attacks[0], name="Test Attack", dice=dice, traits=(), effect_die=())
    attacker = dataclasses.replace(wolf, name="Oracle Attacker", attacks=(atk,), traits=())
    defender = dataclasses.replace(wolf, name="Oracle Defender", armor=armor, life=99, attacks=(), traits=())
    return Corpus({**corpus.cards, attacker.name: attacker, defender.name: defender}, dict(corpus.codex))


@pytest.mark.parametrize("dice,armor", [(15, 3), (20, 0), (20, 7)])
def test_many_dice_against_icepool(corpus, dice, armor):
    c = _synthetic(corpus, dice, armor)
    got = attack_odds(make_spec(c, "Oracle Attacker", "Oracle Defender"), method="structure")
    dist = (dice @ DIE).map(lambda v: max(0, v[0] - armor) + v[1])
    den = dist.denominator()
    assert got.damage == {int(k): Fraction(q, den) for k, q in dist.items()}


def test_defender_hidden_is_revealed_when_its_rule_allows(corpus):
    """--defender-hidden: a face-down enchantment the engine reveals by its own reveal rule (a
    mandatory one avoids the attack outright), or that the defender reveals at the first window
    its rule allows; each card is found from the data by what its rule says, not by name."""
    from magewars.engine.cardindex import index
    bare = odds(corpus, "Timber Wolf", "Iron Golem")
    must, may = None, None
    for name, cd in sorted(corpus.cards.items()):
        if cd.kind != "enchantment":
            continue
        rules = index(cd).reveal_rules
        if must is None and any(r.mode == "must" and r.step == "avoid_attack" for r in rules):
            must = name
        if may is None and not any(r.mode == "must" for r in rules) and any(r.step == "avoid_attack" for r in rules):
            r = odds(corpus, "Timber Wolf", "Iron Golem", defender_hidden=[name])
            if r.first.method == "structure" and r.first.mean < bare.first.mean:
                may = name
    assert must and may, (must, may)
    r = odds(corpus, "Timber Wolf", "Iron Golem", defender_hidden=[must])
    assert r.first.p_hit == 0 and r.first.method != "structure" and r.first.note
    spec = make_spec(corpus, "Timber Wolf", "Iron Golem", defender_hidden=[may])
    fast, slow = compute(spec, 4), compute(spec, 4, method="engine")
    assert fast.first.damage == slow.first.damage and fast.attacks_needed == slow.attacks_needed
    with pytest.raises(OddsError):
        make_spec(corpus, "Timber Wolf", "Iron Golem", defender_hidden=["Timber Wolf"])


def _with_dice(corpus, name, dice, attack=None):
    """The corpus with the card's attack (its first, or the one named) given `dice` dice."""
    card = corpus.cards[name]
    bars = tuple(dataclasses.replace(b, dice=dice) if (b.name == attack if attack else i == 0) else b
                 for i, b in enumerate(card.attacks))
    return Corpus({**corpus.cards, name: dataclasses.replace(card, attacks=bars)}, dict(corpus.codex))


def test_many_dice_and_every_strike_against_icepool(corpus):
    """A three-strike attack given 12 dice a strike: every strike counted, as icepool adds them up."""
    name, attack, _ = _multi_strike(corpus)
    c = _with_dice(corpus, name, 12, attack)
    r = odds(c, name, "Timber Wolf", attack=attack, cap=3)
    pl = plan(make_spec(c, name, "Timber Wolf", attack=attack))
    assert r.first.method == "structure" and r.first.strikes == 3 and pl.strikes[0].dice >= 12
    total = None
    for st in pl.strikes:
        one = (st.dice @ DIE).map(lambda v, a=st.armor: max(0, v[0] - a) + v[1])
        total = one if total is None else total + one
    den = total.denominator()
    want = {int(k): Fraction(q, den) for k, q in total.items()}
    remaining = pl.view["remaining"]
    for k in range(remaining):
        assert r.first.damage.get(k, 0) == want.get(k, 0), k
    assert r.first.p_destroy == sum(p for k, p in want.items() if k >= remaining)


def test_effect_die_with_many_dice_equals_the_engine_run_per_outcome(corpus):
    """An attack spell with an effect die and a modifier, given 20 dice: the structure's numbers
    (damage, effect rows, the chain) equal the engine run per outcome's."""
    spells = sorted(n for n, cd in corpus.cards.items() if cd.kind == "attack" and cd.attacks
                    and cd.attacks[0].effect_die and cd.attacks[0].dice)
    for name in spells:
        c = _with_dice(corpus, name, 20)
        spec = make_spec(c, name, "Iron Golem")
        try:
            fast = compute(spec, 5)
        except OddsError:
            continue
        if fast.first.method != "structure" or not fast.first.effect_die or fast.first.dice < 20:
            continue
        slow = compute(spec, 5, method="engine")
        assert slow.first.method == "arithmetic"
        assert fast.first.damage == slow.first.damage and fast.first.p_destroy == slow.first.p_destroy
        assert fast.first.effect == slow.first.effect
        assert (fast.attacks_needed, fast.beyond) == (slow.attacks_needed, slow.beyond)
        return
    pytest.fail("no attack spell with an effect die resolves against the defender")


def _ghost_with_a_defense(corpus):
    """An Incorporeal creature (only the 1s count) and an enchantment that gives it a defense roll,
    both found from the data: the structure alone does not capture that attack (a d12 decides)."""
    ghosts = sorted(n for n, c in corpus.cards.items()
                    if c.kind == "creature" and c.life is not None and c.has_trait("Incorporeal"))
    for ghost in ghosts[:1]:
        for name, cd in sorted(corpus.cards.items()):
            if cd.kind != "enchantment":
                continue
            try:
                pl = plan(make_spec(corpus, "Timber Wolf", ghost, defender_with=[name]))
            except OddsError:
                continue
            if pl.gates == {"defense"} and not pl.unsafe and len(pl.strikes) == 1:
                return ghost, name
    pytest.skip("no enchantment gives the Incorporeal creature a defense roll")


@pytest.mark.parametrize("dice", [3, 24])
def test_a_defense_roll_then_the_structure(corpus, dice):
    """A d12 defense: each of its results through the engine, the damage from the structure (one
    run, not one per roll: 24 dice against Incorporeal used to mean 20,475 runs).  Equal to the engine
    run per outcome where that is affordable, to icepool (only the 1s count) at 24 dice, and the
    engine run per outcome is refused beyond its bound instead of running for minutes."""
    ghost, defense = _ghost_with_a_defense(corpus)
    c = _with_dice(corpus, "Timber Wolf", dice)
    spec = make_spec(c, "Timber Wolf", ghost, defender_with=[defense])
    r = compute(spec, 4)
    assert r.first.method == "d12 + structure" and "defense" in r.first.note
    assert r.first.dice == dice and 0 < r.first.p_avoid < 1
    ones = dice @ icepool.Die([0, 0, 1, 0, 1, 0])  # the engine's faces: blank, blank, 1, 2, 1*, 2*
    den = ones.denominator()
    assert r.first.damage_given_hit == {int(k): Fraction(q, den) for k, q in ones.items()}
    if dice <= 6:
        slow = compute(spec, 4, method="engine")
        assert slow.first.method == "enumeration"
        assert (slow.first.damage, slow.first.p_destroy) == (r.first.damage, r.first.p_destroy)
        assert (slow.attacks_needed, slow.beyond) == (r.attacks_needed, r.beyond)
    else:
        with pytest.raises(OddsError) as e:
            compute(spec, 4, method="engine")
        assert e.value.code == 2 and "runs" in str(e.value)


def test_a_defense_roll_then_the_structure_with_an_effect_die(corpus):
    """A d12 defense against an attack with an effect die: the damage and the effect die's rows from
    the structure (one run per row, not one per natural result); equal to the engine run per outcome."""
    spells = sorted(n for n, cd in corpus.cards.items() if cd.kind == "attack" and cd.attacks
                    and cd.attacks[0].effect_die and cd.attacks[0].dice)
    defenders = sorted(n for n, cd in corpus.cards.items() if cd.kind == "creature" and cd.life)
    for d in defenders:
        try:
            pl = plan(make_spec(corpus, "Timber Wolf", d))
        except OddsError:
            continue
        if pl.gates != {"defense"} or pl.unsafe:
            continue
        for s in spells:
            spec = make_spec(corpus, s, d)
            try:
                fast = compute(spec, 3)
            except OddsError:
                continue
            if fast.first.method != "d12 + structure" or not fast.first.effect_die:
                continue
            slow = compute(spec, 3, method="engine")
            assert fast.first.p_avoid == slow.first.p_avoid > 0
            assert fast.first.damage == slow.first.damage and fast.first.p_destroy == slow.first.p_destroy
            assert fast.first.effect == slow.first.effect
            assert (fast.attacks_needed, fast.beyond) == (slow.attacks_needed, slow.beyond)
            return
    pytest.fail("no attack spell with an effect die against a creature with a defense roll")


def test_a_charge_is_the_attack_made_right_after_a_move(corpus):
    """`--charge` says the attacker's last action was a move (the state the engine's movement leaves);
    the engine then charges the attack: a shipped Charge +2 creature rolls two more dice, by the
    structure path and by the engine run per outcome alike, and a game where it really moved first
    rolls the same number of dice."""
    name = "Feral Bobcat"
    assert "Charge +2" in [str(t) for t in corpus.cards[name].traits]
    plain = compute(make_spec(corpus, name, "Timber Wolf"))
    charged = compute(make_spec(corpus, name, "Timber Wolf", charge=True))
    engine = compute(make_spec(corpus, name, "Timber Wolf", charge=True), method="engine")
    assert charged.first.method == "structure" and engine.first.method != "structure"
    assert charged.first.dice == plain.first.dice + 2 == engine.first.dice
    assert charged.first.damage_given_hit == engine.first.damage_given_hit
    assert charged.attacks_needed == engine.attacks_needed
    assert sum(d * p for d, p in charged.first.damage_given_hit.items()) > \
        sum(d * p for d, p in plain.first.damage_given_hit.items())

    g = Game(corpus, SeededDice(0), FirstLegalAgent())
    g.state.add_player("A", mana=20)
    g.state.add_player("B", mana=20)
    cat = g.create(name, "cat", "A", zone="A1")
    wolf = g.create("Timber Wolf", "wolf", "B", zone="A2")
    from magewars.engine import movement
    movement.move(g, cat, "A2")
    g.attacks.make_attack(cat, corpus.cards[name].attacks[0].name, [wolf])
    rolled = [e for e in g.log.events if e.kind == "roll"]
    assert rolled and f"{charged.first.dice} attack dice" in rolled[0].text, [e.text for e in rolled]
