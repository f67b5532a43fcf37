"""Exact odds of an attack, by enumerating every die outcome through the engine.

Nothing here knows a rule.  The probability of each roll comes from the
engine's die definitions (`engine.dice.ATTACK_FACES`, a d12 of 1-12); what a
roll does comes from running the engine's attack sequence on it (probe.py).
Rolls of attack dice are grouped by how many of each face they show (the
engine cannot tell two orders of the same faces apart), so n dice cost
C(n+4, 4) runs of the sequence, each weighted by its multinomial probability.

With two or more dice there is a faster path, used whenever the engine
confirms it: the damage of a roll is asked of the engine for a handful of
rolls (all blanks, all 1s, all 2s, all criticals, mixed), and if every answer
equals max(0, normal - A) + critical for one armor value A (read off the
all-normal roll) and the engine destroys the defender exactly when that
damage reaches its remaining life, the distribution is computed by exact
integer arithmetic over the (normal, critical) sums of n dice (a table built
once per dice count).  Any disagreement (Incorporeal, damage added or
prevented, ...) falls back to enumerating every roll through the engine.

Repeated attacks: a Markov chain over the damage on the defender; the
per-attack distribution is recomputed whenever the engine's inputs change
with that damage (e.g. Bloodthirsty once it is damaged).
"""
from __future__ import annotations

import struct
from collections import Counter
from dataclasses import field
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial, lcm
from typing import Iterator, Optional

from ..engine.dice import ATTACK_FACES, BLANK
from .probe import OddsError, Spec, defender_view, probe
from ..dsl.frozen import light_dataclass  # @dataclass, made without compiling source text

D12 = range(1, 13)
P12 = Fraction(1, 12)
#: the most rolls enumerated through the engine one by one (C(n + 4, 4) for n dice: 16 dice); beyond
#: it the attack is refused with a message instead of running for minutes
MAX_ENUMERATED_ROLLS = 5000


def face_kinds() -> list[tuple]:
    """Distinct attack-die faces and their probability, from the engine's die."""
    c = Counter(ATTACK_FACES)
    n = len(ATTACK_FACES)
    return [(f, Fraction(k, n)) for f, k in c.items()]


def signatures(n: int) -> Iterator[tuple[list, Fraction]]:
    """Every multiset of n faces, as (faces, probability)."""
    kinds = face_kinds()

    def rec(i, left, counts):
        if i == len(kinds) - 1:
            yield counts + [left]
            return
        for k in range(left, -1, -1):
            yield from rec(i + 1, left - k, counts + [k])

    for counts in rec(0, n, []):
        p = Fraction(factorial(n))
        faces = []
        for (f, pf), k in zip(kinds, counts):
            p = p / factorial(k) * pf ** k
            faces += [f] * k
        yield faces, p


def _power_table(faces: Counter, n: int) -> tuple[tuple, int]:
    """((a, b, number of rolls), ...), number of rolls: how many rolls of n dice give each pair of
    sums, for a die whose faces give the pairs `faces` ({(a, b): how many faces}), a, b >= 0.

    Exact integers by Kronecker substitution: the die is the polynomial sum of m x^a y^b, written
    as one integer with x and y replaced by powers of two wide enough that no count can spill into
    the next (each count is at most faces^n); the n-dice polynomial is that integer multiplied by
    the die n times (a few shifts and additions each, the die having few distinct faces), and its
    coefficients are read back 64 bits at a time."""
    sides = sum(faces.values())
    total = sides ** n
    if n <= 0:
        return ((0, 0, 1),), 1
    xs = n * max(a for a, _ in faces) + 1  # sums 0..n*max(a)
    ys = n * max(b for _, b in faces) + 1
    words = total.bit_length() // 64 + 1  # 64-bit words per coefficient: every count is < 2^(64 words)
    slot = 64 * words
    shifts = [(slot * (a + xs * b), m) for (a, b), m in sorted(faces.items())]
    poly = 1
    for _ in range(n):
        poly = sum((poly << s) * m if m != 1 else poly << s for s, m in shifts)
    raw = struct.unpack(f"<{xs * ys * words}Q", poly.to_bytes(8 * xs * ys * words, "little"))
    if words > 1:
        raw = [sum(raw[i + j] << (64 * j) for j in range(words)) for i in range(0, len(raw), words)]
    rows = tuple((i % xs, i // xs, c) for i, c in enumerate(raw) if c)
    return rows, total


def _faces_by_sums(key) -> Counter:
    return Counter(key(f) for f in ATTACK_FACES)


@lru_cache(maxsize=None)
def sum_rows(n: int) -> tuple[tuple, int]:
    """((normal, critical, number of rolls), ...), number of rolls: every (normal, critical) pair
    of sums n attack dice can show, from the engine's die (`ATTACK_FACES`), in exact integers."""
    return _power_table(_faces_by_sums(lambda f: (0 if f.critical else f.value, f.value if f.critical else 0)), n)


@lru_cache(maxsize=None)
def sum_table(n: int) -> tuple[dict, int]:
    """({(normal, critical): number of rolls}, number of rolls) for n attack dice (sum_rows as a dict)."""
    rows, total = sum_rows(n)
    return {(a, b): c for a, b, c in rows}, total


@lru_cache(maxsize=None)
def ones_table(n: int) -> tuple[dict, int]:
    """({number of dice showing a 1: number of rolls}, number of rolls) for n attack dice, from the
    engine's die, exact integers (what counts when only the 1s count)."""
    rows, total = _power_table(_faces_by_sums(lambda f: (1 if f.value == 1 else 0, 0)), n)
    return {a: c for a, _, c in rows}, total


def _strike_counts(pl, strike) -> tuple[dict, int]:
    """{damage: number of rolls}, number of rolls: one strike's damage for every roll of its dice,
    each asked of the engine's damage rule (AttackEngine.damage_from) on the strike's own record."""
    got = pl.counts.get(id(strike))
    if got is None:
        got = pl.counts[id(strike)] = _count(pl, strike)
    return got


def _count(pl, strike) -> tuple[dict, int]:
    if not strike.rolled or strike.armor is None:
        return {0: 1}, 1
    n = strike.dice
    counts: dict[int, int] = {}
    get = counts.get
    damage_from, atk, armor = pl.damage_from, strike.atk, strike.armor  # = pl.damage_of, without a call
    if atk.only_ones:
        table, total = ones_table(n)
        for k, c in table.items():
            d = damage_from(atk, 0, 0, k, armor)
            counts[d] = get(d, 0) + c
        return counts, total
    rows, total = sum_rows(n)
    for normal, crit, c in rows:  # each (normal, critical) pair once
        d = damage_from(atk, normal, crit, 0, armor)
        counts[d] = get(d, 0) + c
    return counts, total


def _combine(pl, remaining: int) -> tuple[dict, Fraction]:
    """The action's total damage to the defender over its strikes (a strike after the defender is
    destroyed is not made), and the chance it is destroyed, in exact integers (one Fraction per
    damage value at the end)."""
    alive: dict[int, int] = {0: 1}
    dead: dict[int, int] = {}
    den = 1
    for st in pl.strikes:
        if st.status != "hit":
            continue
        counts, total = _strike_counts(pl, st)
        den *= total
        if dead:
            dead = {k: v * total for k, v in dead.items()}
        nxt: dict[int, int] = {}
        for c, p in alive.items():
            for dmg, q in counts.items():
                t = c + dmg
                box = dead if t >= remaining else nxt
                box[t] = box.get(t, 0) + p * q
        alive = nxt
    alive.update(dead)  # alive totals are below `remaining`, dead ones at or above it: no key in both
    return {k: Fraction(v, den) for k, v in sorted(alive.items())}, Fraction(sum(dead.values()), den)


def _action_counts(pl) -> tuple[list, int]:
    """The action's total damage over its strikes without the destruction cut-off, as sorted
    (damage, weight) pairs over one denominator (exact integers)."""
    counts: dict[int, int] = {0: 1}
    den = 1
    for st in pl.strikes:
        if st.status != "hit":
            continue
        c, t = _strike_counts(pl, st)
        if den == 1:  # the first strike: its counts as they are
            counts, den = dict(c), t
            continue
        nxt: dict[int, int] = {}
        for a, p in counts.items():
            for b, q in c.items():
                nxt[a + b] = nxt.get(a + b, 0) + p * q
        counts, den = nxt, den * t
    return sorted(counts.items()), den


def _armor_model(spec: Spec, n: int, base: dict, dd: int, remaining: int):
    """The armor value A if the engine's damage on n dice is max(0, normal - A) + critical for every
    roll it is asked about (and it destroys the defender exactly when that reaches `remaining`);
    None if any answer disagrees.  Asks the engine about six rolls."""
    by = {}
    for f in ATTACK_FACES:
        by.setdefault((f.value, f.critical), f)
    if not all(k in by for k in ((0, False), (1, False), (2, False), (1, True), (2, True))):
        return None
    blank, one, two, c1, c2 = (by[(0, False)], by[(1, False)], by[(2, False)], by[(1, True)], by[(2, True)])
    cyc = [one, c2, blank, two, c1]
    rolls = [[two] * n, [blank] * n, [one] * n, [c1] * n, [c2] * n, [cyc[i % 5] for i in range(n)]]
    armor = None
    for faces in rolls:
        o = probe(spec, lambda c, f=faces: f if c == len(f) else [BLANK] * c, base, dd)
        if o.status != "hit" or o.dice != n:
            return None
        normal = sum(f.value for f in faces if not f.critical)
        crit = sum(f.value for f in faces if f.critical)
        if armor is None:  # the all-normal roll: A is how much of 2n the armor stopped
            armor = normal - o.damage if o.damage > 0 else normal
            if armor < 0:
                return None
        if o.damage != max(0, normal - armor) + crit:
            return None
        if o.destroyed != (o.damage >= remaining):
            return None
    return armor


def _arithmetic(n: int, armor: int, remaining: int) -> tuple[dict, Fraction]:
    table, total = sum_table(n)
    counts: dict[int, int] = {}
    for (normal, crit), k in table.items():
        d = (normal - armor if normal > armor else 0) + crit
        counts[d] = counts.get(d, 0) + k
    dist = {d: Fraction(k, total) for d, k in sorted(counts.items())}
    destroy = Fraction(sum(k for d, k in counts.items() if d >= remaining), total)
    return dist, destroy


@light_dataclass
class AttackOdds:
    """One attack against the defender with a given damage on it."""
    defender_damage: int
    remaining: int
    armor: int
    dice: int
    dice_mods: list
    p_miss: Fraction = Fraction(0)
    p_avoid: Fraction = Fraction(0)
    rolled: bool = True
    damage_given_hit: dict = field(default_factory=dict)  # damage -> probability, given the dice are rolled
    destroy_given_hit: Fraction = Fraction(0)  # from the engine: defender out of play after the attack
    effect: list = field(default_factory=list)  # rows: natural, total, conditions, probability given a hit
    effect_mods: list = field(default_factory=list)
    effect_die: bool = False
    example_log: Optional[list] = None  # engine log lines of one roll (made when first asked for)
    attack_name: str = ""
    method: str = "enumeration"  # "structure", "arithmetic" or "enumeration": how it was computed
    strikes: int = 1  # individual attacks of the action against the defender that are counted
    note: str = ""  # why the structure of the attack was not used (the fallback's reason)
    spec: Optional[Spec] = field(default=None, repr=False, compare=False)
    #: reads of damage before the damage step in the structure run ("d12 + structure"; None: no run)
    damage_reads: Optional[int] = field(default=None, repr=False, compare=False)

    @property
    def example(self) -> list:
        """One representative roll, as the engine logs it (one more run of the sequence)."""
        if self.example_log is None:
            self.example_log = _example(self.spec, self.defender_damage) if self.spec is not None else []
        return self.example_log

    @property
    def p_hit(self) -> Fraction:
        return (1 - self.p_miss) * (1 - self.p_avoid)

    @property
    def damage(self) -> dict:
        out: dict[int, Fraction] = {}
        if self.p_hit != 1:
            out[0] = 1 - self.p_hit
        for k, p in self.damage_given_hit.items():
            out[k] = out.get(k, Fraction(0)) + self.p_hit * p
        return dict(sorted(out.items()))

    @property
    def p_destroy(self) -> Fraction:
        return self.p_hit * self.destroy_given_hit

    @property
    def mean(self) -> Fraction:
        return sum((k * p for k, p in self.damage.items()), Fraction(0))


def _blanks(n):
    return [BLANK] * n


def attack_odds(spec: Spec, defender_damage: Optional[int] = None, _shape=None,
                method: str = "auto") -> AttackOdds:
    """One attack's odds.  `method`: "auto" (from the attack's structure when it captures the
    attack; else, when only a d12 deciding whether the attack goes on keeps it out, each of that
    d12's results through the engine and the damage from the structure ("d12 + structure"); else
    arithmetic when the engine confirms the armor model, else enumeration), "engine" (the same
    without the structure: every number from engine runs per outcome), "structure" (OddsError when
    the structure does not capture it), "enumeration" (every roll through the engine) or
    "arithmetic" (OddsError when the engine does not confirm the model)."""
    dd = spec.defender_damage if defender_damage is None else defender_damage
    note = ""
    if method in ("auto", "structure") and _shape is None:
        ao, why = structure_odds(spec, dd)
        if ao is not None:
            return ao
        if method == "structure":
            raise OddsError(f"the attack's structure does not capture this attack: {why}", 2)
        note = why
    d12: dict = {}
    shape = _shape if _shape is not None and _shape.view is not None else probe(spec, _blanks, d12, dd, with_view=True)
    view = shape.view
    res = AttackOdds(dd, view["remaining"], view["armor"], shape.dice, shape.dice_mods)
    res.attack_name = shape.attack_name
    res.note = note
    # The d12 gates before damage: Roll to Miss (Daze), then Avoid Attack (a defense).
    # Each d12 face is tried through the engine; the attack goes on with a passing face.
    for key, attr, passes in (("miss", "p_miss", lambda o: o.status != "missed"),
                              ("defense", "p_avoid", lambda o: o.status == "hit")):
        if key not in shape.asked:
            continue
        ok = [v for v in D12 if passes(probe(spec, _blanks, {**d12, key: v}, dd))]
        setattr(res, attr, Fraction(12 - len(ok), 12))
        if not ok:
            res.rolled = False
            return res
        d12[key] = ok[0]
        shape = probe(spec, _blanks, d12, dd)
    if shape.status == "canceled":
        why = next((e.data.get("why") or e.text for e in reversed(shape.log) if e.kind == "canceled"), "")
        raise OddsError(f"the engine cancels this attack: {why}", 1)
    if shape.status != "hit":
        res.rolled = False
        res.p_avoid = Fraction(1) if res.p_avoid == 0 and res.p_miss == 0 else res.p_avoid
        return res
    res.dice, res.dice_mods = shape.dice, shape.dice_mods
    n = shape.dice if "dice" in shape.asked else 0
    dist: dict[int, Fraction] = {}
    destroy = Fraction(0)
    base = {**d12, "effect": 1}
    armor = None
    if method == "auto" and n and d12:
        # the d12 results that let the attack go on are fixed: the structure of the attack with
        # them, when it captures it, gives the damage of every roll (one run instead of one per roll)
        from .plan import plan
        pl = plan(spec, dd, base)
        if not _unsupported(pl, gates=False) and len(pl.strikes) == 1:
            dist, destroy = _combine(pl, pl.view["remaining"])
            res.method = "d12 + structure"
            res.damage_reads = pl.damage_reads
            if "effect" in shape.asked and pl.strikes[0].effect:  # its rows from the structure too
                res.effect = _effect_rows(spec, dd, pl, d12, base["effect"]) or []
                if res.effect:
                    res.effect_die, res.effect_mods = True, pl.strikes[0].effect_mods
    if res.method == "d12 + structure":
        pass
    elif method == "arithmetic" or (method in ("auto", "engine") and comb(n + 4, 4) > 6):
        armor = _armor_model(spec, n, base, dd, view["remaining"]) if n else None
        if armor is None and method == "arithmetic":
            raise OddsError("the engine's damage for this attack is not max(0, normal - armor) + critical", 2)
    if armor is not None:
        dist, destroy = _arithmetic(n, armor, view["remaining"])
        res.method = "arithmetic"
    elif res.method != "d12 + structure":
        runs = comb(n + 4, 4)
        if runs > MAX_ENUMERATED_ROLLS:
            raise OddsError(f"{n} attack dice: this attack needs every roll run through the engine "
                            f"({runs:,} runs, more than {MAX_ENUMERATED_ROLLS:,}); its odds are not "
                            f"computed" + (f" ({note})" if note else ""), 2)
        for faces, p in signatures(n):
            o = probe(spec, lambda c, f=faces: f, base, dd)
            dist[o.damage] = dist.get(o.damage, Fraction(0)) + p
            if o.destroyed:
                destroy += p
    res.damage_given_hit = dict(sorted(dist.items()))
    res.destroy_given_hit = destroy
    # the effect die (rolled with no damage, so the defender is still there to receive conditions)
    if "effect" in shape.asked and not res.effect_die:
        res.effect_die = True
        for v in D12:
            o = probe(spec, _blanks, {**d12, "effect": v}, dd)
            res.effect.append({"natural": v, "total": o.effect_roll,
                               "conditions": [list(c) for c in o.conditions], "p": P12})
            res.effect_mods = o.effect_mods
    res.example_log = _example(spec, dd, d12)
    return res


def _example(spec: Spec, dd: int, d12: Optional[dict] = None) -> list:
    """One representative roll (each kind of face), as the engine logs it."""
    cyc = [f for f, _ in face_kinds() if f.value] + [BLANK]
    ex = probe(spec, lambda c: [cyc[i % len(cyc)] for i in range(c)], {**(d12 or {}), "effect": 12}, dd)
    return _attack_lines(ex.log)


def structure_odds(spec: Spec, dd: Optional[int] = None, pl=None) -> tuple[Optional[AttackOdds], object]:
    """One attack's odds from its structure (plan.py: one run of the engine), or (None, reason)
    when the structure does not capture it.  Returns (odds, plan)."""
    from .plan import plan
    dd = spec.defender_damage if dd is None else dd
    pl = pl if pl is not None else plan(spec, dd)
    why = _unsupported(pl)
    if why:
        return None, why
    view = pl.view
    first = pl.strikes[0]
    res = AttackOdds(dd, view["remaining"], view["armor"], first.dice, first.dice_mods, spec=spec)
    res.attack_name = pl.attack_name
    res.method = "structure"
    res.strikes = sum(1 for s in pl.strikes if s.status == "hit")
    res.damage_given_hit, res.destroy_given_hit = _combine(pl, view["remaining"])
    if first.effect:
        res.effect_die = True
        res.effect_mods = first.effect_mods
        res.effect = _effect_rows(spec, dd, pl, {}, 12)
        if res.effect is None:
            return None, "the effect die changes the strikes after it"
    return res, pl


def _effect_rows(spec: Spec, dd: int, pl, d12: dict, natural: int) -> Optional[list]:
    """The effect die's outcomes for each natural d12 result, from the structure `pl` (run with the
    d12 results `d12` and the effect die showing `natural`): which row of the table each total
    falls in is the engine's (DamageAndEffects.effect_row); what a row places on the defender is
    read from one more run per row.  None when the effect die changes the strikes after it."""
    from .plan import plan
    first = pl.strikes[0]
    shift = sum(m[1] for m in first.effect_mods)
    rows: dict = {_row_id(pl, natural + shift): [list(c) for c in first.conditions]}  # row -> conditions
    out = []
    for v in D12:
        row = _row_id(pl, v + shift)
        if row not in rows:
            if row is None:
                rows[row] = []
            else:  # ask the engine what it places for this row (one run per row)
                other = plan(spec, dd, {**d12, "effect": v})
                if _unsupported(other, gates=not d12) or [s.key()[:-1] for s in other.strikes[1:]] != \
                        [s.key()[:-1] for s in pl.strikes[1:]]:
                    return None
                rows[row] = [list(c) for c in other.strikes[0].conditions]
        out.append({"natural": v, "total": v + shift, "conditions": rows[row], "p": P12})
    return out


def _row_id(pl, total: int):
    """The effect-die table row a total falls in, as a dict key (None: no effect)."""
    row = pl.effect_row(pl.table, total)
    return None if row is None else id(row)


def _unsupported(pl, gates: bool = True) -> str:
    """Why the arithmetic on this structure cannot be trusted ('' when it can); with gates=False,
    a d12 deciding whether the attack goes on is not a reason (its result was chosen)."""
    if pl.unsafe:
        return "; ".join(pl.unsafe)
    if not pl.strikes:
        return "the action makes no attack against the defender"
    if gates and pl.gates:
        return "a d12 decides whether the attack goes on (" + ", ".join(sorted(pl.gates)) + ")"
    bad = [s.status for s in pl.strikes if s.status != "hit"]
    if bad:
        return f"an attack of the action is {bad[0]} whatever the dice"
    if pl.outside_damage:
        return "the defender took damage the dice did not deal"
    if pl.damage_reads and sum(1 for s in pl.strikes if s.status == "hit") > 1:
        return "its later strikes change with the damage the earlier ones deal"
    return ""


def _attack_lines(events) -> list[str]:
    out = []
    keep = ("roll", "modifier", "rule", "immune", "damage", "condition", "destroyed")
    main_step = None
    for e in events:
        if e.kind == "step":
            main_step = e.data.get("step")
            if main_step in ("damage_barrier", "counterstrike"):
                break
        elif e.kind in keep and main_step in ("roll_to_miss", "avoid_attack", "roll_dice", "damage_and_effects"):
            out.append(e.text)
    return out


@light_dataclass
class OddsReport:
    spec: Spec
    first: AttackOdds
    attacks_needed: dict  # k -> probability the k-th attack destroys it
    beyond: Fraction  # probability it survives `cap` attacks
    cap: int
    attack_name: str
    view: dict


def _key(spec: Spec, dd: int):
    shape = probe(spec, _blanks, {}, dd, with_view=True)  # one board: the attack and the defender before it
    view = shape.view
    return (shape.dice, tuple(m[0] for m in shape.dice_mods), tuple(sorted(shape.asked)),
            view["armor"], view["traits"]), shape, view


def compute(spec: Spec, cap: int = 10, method: str = "auto") -> OddsReport:
    """The odds report: from the attack's structure when it captures the attack (method "auto"),
    else (or with method "engine") by running the engine per outcome."""
    if cap < 1:
        raise OddsError("--max-attacks must be at least 1", 2)
    if method == "auto":
        first, pl = structure_odds(spec)
        if first is not None:
            return _structure_chain(spec, cap, first, pl)
        return _legacy_chain(spec, cap, note=pl)
    return _legacy_chain(spec, cap, note="asked for", method="engine")


def _as_ints(dist: dict) -> tuple[list, int]:
    """A damage distribution as integer weights over one common denominator."""
    den = lcm(*(p.denominator for p in dist.values())) if dist else 1
    return [(d, p.numerator * (den // p.denominator)) for d, p in dist.items()], den


def _chain_step(round_: list, den: int) -> tuple[dict, int, int]:
    """One more attack of the attacks-needed chain: `round_` holds, for each damage value the
    defender may carry (dd, weight p), the attack's damage as integer weights over `d` and the health
    left.  Returns the damage values after it (weights), the weight of destruction, the new
    denominator."""
    step = lcm(*(d for _, _, _, d, _ in round_))
    nxt: dict[int, int] = {}
    killed = 0
    for dd, p, items, d, remaining in round_:
        f = p * (step // d)
        for dmg, q in items:
            if dmg >= remaining:
                killed += f * q
            else:
                nxt[dd + dmg] = nxt.get(dd + dmg, 0) + f * q
    return nxt, killed, den * step


def _legacy_chain(spec: Spec, cap: int, first: Optional[AttackOdds] = None, note: str = "",
                  method: str = "auto") -> OddsReport:
    """The attacks-needed chain by running the engine per outcome (attack_odds), asking the engine
    once per damage value whether the attack changes with it."""
    keys: dict = {}  # damage on the defender -> (key, shape, view): asked of the engine once per value

    def key_at(dd):
        if dd not in keys:
            keys[dd] = _key(spec, dd)
        return keys[dd]

    from .plan import destroyed
    destroyed(spec, defender_view(spec))
    k0, shape0, view = key_at(spec.defender_damage)
    if first is None:
        first = attack_odds(spec, None, shape0, method=method)
    first.note = first.note or note
    if view["life"] is None:
        raise OddsError(f"{spec.defender.name} has no life value: it cannot be destroyed by damage", 1)
    if first.damage_reads == 0 and first.strikes == 1:
        # "d12 + structure" and nothing read any damage before the damage step: the attack is the
        # same at every damage value, one distribution (misses and avoided attacks dealing 0)
        # serves the whole chain, with no board per damage value
        needed, beyond = _iid_chain(*_as_ints(first.damage), view["remaining"], cap)
        return OddsReport(spec, first, needed, beyond, cap, first.attack_name, view)
    cache: dict = {k0: first}
    # Exact integer arithmetic: each attack's distribution as numerators over one denominator,
    # the states of round k as numerators over the product of those denominators (one Fraction
    # per round at the end, instead of a gcd on every step).
    as_ints: dict[int, tuple[list, int]] = {}

    def ints(ao: AttackOdds) -> tuple[list, int]:
        r = as_ints.get(id(ao))
        if r is None:
            r = as_ints[id(ao)] = _as_ints(ao.damage)
        return r

    states: dict[int, int] = {spec.defender_damage: 1}
    den = 1
    needed: dict[int, Fraction] = {}
    for k in range(1, cap + 1):
        round_ = []
        for dd, p in states.items():
            key, shape, v = key_at(dd)
            ao = cache.get(key)
            if ao is None:
                ao = cache[key] = attack_odds(spec, dd, shape, method=method)
            round_.append((dd, p, *ints(ao), v["remaining"]))
        nxt, killed, den = _chain_step(round_, den)
        needed[k] = Fraction(killed, den)
        states = nxt
        if not states:
            break
    beyond = Fraction(sum(states.values()), den)
    return OddsReport(spec, first, needed, beyond, cap, first.attack_name, view)


def _structure_chain(spec: Spec, cap: int, first: AttackOdds, pl) -> OddsReport:
    """The attacks-needed chain on attack structures.  When nothing the engine did before working
    out the damage read any damage (pl.damage_reads == 0), the attack is the same at every damage
    value and one distribution serves the whole chain (taken without the destruction cut-off: the
    defender is destroyed exactly when the action's total damage reaches its health left).
    Otherwise the structure is asked of the engine again for each damage value reached."""
    from .plan import plan
    view = pl.view
    if view["life"] is None:
        raise OddsError(f"{spec.defender.name} has no life value: it cannot be destroyed by damage", 1)
    dd0 = spec.defender_damage
    if pl.damage_reads == 0:
        needed, beyond = _same_attack_chain(pl, view["remaining"], cap)
        return OddsReport(spec, first, needed, beyond, cap, first.attack_name, view)
    per: dict = {}  # damage on the defender -> (items, denominator, health left)

    def at(dd):
        got = per.get(dd)
        if got is not None:
            return got
        other = plan(spec, dd)  # the damage distribution only: the effect die does not count here
        if _unsupported(other):
            raise _Fallback()
        got = per[dd] = (*_action_counts(other), other.view["remaining"])
        return got

    states: dict[int, int] = {dd0: 1}
    den = 1
    needed: dict[int, Fraction] = {}
    try:
        for k in range(1, cap + 1):
            nxt, killed, den = _chain_step([(dd, p, *at(dd)) for dd, p in states.items()], den)
            needed[k] = Fraction(killed, den)
            states = nxt
            if not states:
                break
    except _Fallback:
        return _legacy_chain(spec, cap, note="at some damage value the structure does not capture the attack")
    beyond = Fraction(sum(states.values()), den)
    return OddsReport(spec, first, needed, beyond, cap, first.attack_name, view)


class _Fallback(Exception):
    pass


def _same_attack_chain(pl, remaining: int, cap: int) -> tuple[dict, Fraction]:
    """Attacks needed when every attack is the same: the action's total damage (taken without the
    destruction cut-off, see _structure_chain) added up attack after attack."""
    return _iid_chain(*_action_counts(pl), remaining, cap)


def _iid_chain(items: list, den: int, remaining: int, cap: int) -> tuple[dict, Fraction]:
    """Attacks needed when every attack deals damage d with weight q/den ((d, q) in `items`),
    whatever the damage already dealt: in exact integers over one denominator per attack."""
    # kill[i]: rolls that destroy a defender that has taken i damage so far (total >= remaining - i)
    at_least = [0] * (remaining + 1)  # at_least[r]: rolls dealing r or more (r <= remaining)
    for d, q in items:
        at_least[min(d, remaining)] += q
    for r in range(remaining - 1, -1, -1):
        at_least[r] += at_least[r + 1]
    kill = [at_least[remaining - i] for i in range(remaining)]
    below = [(d, q) for d, q in items if d < remaining]  # damage that leaves a fresh defender standing
    states = [0] * remaining
    states[0] = 1
    needed: dict[int, Fraction] = {}
    total = 1
    for k in range(1, cap + 1):
        nxt = [0] * remaining
        killed = 0
        for i, p in enumerate(states):
            if not p:
                continue
            killed += p * kill[i]
            room = remaining - i
            for d, q in below:
                if d >= room:
                    break
                nxt[i + d] += p * q
        total *= den
        needed[k] = Fraction(killed, total)
        states = nxt
        if not any(states):
            break
    return needed, Fraction(sum(states), total)
