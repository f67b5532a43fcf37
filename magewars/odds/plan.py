"""The structure of an attack against one defender, asked of the engine in one run.

`plan(spec)` builds the board with the engine's state API and runs the engine's real attack
sequence once (`AttackEngine.make_attack`), answering every attack-dice roll with blanks and every
d12 with a chosen result.  While it runs, it records for each individual attack of the action
against the defender (each strike of Doublestrike/Triplestrike, the defender's turn in a zone
attack, each target of Sweeping that is the defender):

- the engine's own `Attack` record as the Damage and Effects step met it, and the armor it met:
  with `AttackEngine.damage_from` this says what any roll of the dice deals, with no further run;
- the dice count and each modifier (`AttackEngine.dice_for` via the Roll Dice step);
- the effect-die modifiers and the conditions the engine placed for the chosen natural result;
- which d12 gates were asked (Roll to Miss, Avoid Attack) and the effect die.

It also records what the arithmetic cannot capture, so that the caller falls back to running the
engine per outcome instead of trusting it (`Plan.unsafe`):

- abilities on the board or on the attack that listen for events whose outcome depends on the dice
  (attack dice rolled, damage dealt, a destruction about to happen) or that read the dice (the
  roll's normal or critical damage, the damage dealt) while the attack runs;
- reads of any object's damage before a strike's damage is worked out (Bloodthirsty and the like:
  the structure then depends on the damage on the defender, and is asked again per damage value).

Nothing here states a rule: what the rules do is read back from what the engine did.
"""
from __future__ import annotations

import weakref
from dataclasses import field
from typing import Optional

from ..engine import Dice, EngineError, FirstLegalAgent, Game
from ..engine.attack import Attack, DamageAndEffects
from ..engine.dice import BLANK, Face
from ..engine.state import DAMAGE_READS
from .probe import D12_PURPOSE, ZONE, OddsError, Spec
from ..dsl.frozen import light_dataclass  # @dataclass, made without compiling source text

#: events whose listeners may act on what the dice showed: the arithmetic is not trusted with them
DICE_EVENTS = ("rolls", "damaged", "deals_damage", "would_be_destroyed")


#: a tracked attack -> the plan whose reads of its roll it counts (_Tracked: an Attack has slots, no room of
#: its own for it)
_PROBES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


class _Tracked(Attack):
    """The engine's Attack record, with reads of what the dice showed counted while a triggered
    ability runs (a trigger that reads the roll makes the outcome depend on it).  The same slots as an
    Attack (a live attack's class is switched to it); each field is read through Attack's own slot."""
    __slots__ = ()

    def _get(name):  # noqa: N805 - a property factory
        slot = Attack.__dict__[name]  # (the slot's descriptor on Attack)

        def get(self):
            box = _PROBES.get(self)
            if box is not None and box.firing:
                box.roll_reads += 1
            return slot.__get__(self, Attack)

        def put(self, value):
            slot.__set__(self, value)
        return property(get, put)

    normal = _get("normal")
    crit = _get("crit")
    damage = _get("damage")
    dealt = _get("dealt")
    faces = _get("faces")
    del _get


class PlanDice(Dice):
    """Blank attack dice; d12 results chosen per purpose for the action under study."""

    def __init__(self, d12: dict, box: "_Box"):
        self.d12_values = d12
        self.box = box

    def attack(self, count: int) -> list[Face]:
        atk = self.box.main_attack()
        if atk is not None:
            self.box.asked(atk, "dice")
        return [BLANK] * count

    def d12(self) -> int:
        atk = self.box.main_attack()
        if atk is None:
            return 12
        purpose = D12_PURPOSE.get(self.box.game.attacks.current_step or "", "other")
        self.box.asked(atk, purpose)
        return int(self.d12_values.get(purpose, 12))


@light_dataclass
class _Box:
    game: Optional[Game] = None
    attacker: object = None
    defender: object = None
    firing: int = 0
    roll_reads: int = 0
    excluded: int = 0
    start: int = 0
    skip_rh: bool = False
    purposes: dict = field(default_factory=dict)  # id(attack) -> set of purposes asked
    met: dict = field(default_factory=dict)  # id(attack) -> (armor met, damage reads before it)

    def main_attack(self) -> Optional[Attack]:
        atk = self.game.current_attack
        if atk is None or atk.action.is_counterstrike or atk.action.is_barrier or atk.attacker is not self.attacker:
            return None
        if type(atk) is Attack:
            atk.__class__ = _Tracked
            _PROBES[atk] = self
        return atk

    def asked(self, atk, purpose: str) -> None:
        self.purposes.setdefault(id(atk), set()).add(purpose)

    def reads(self) -> int:
        return DAMAGE_READS[0] - self.start - self.excluded


@light_dataclass
class Strike:
    """One individual attack of the action against the defender, as the engine resolved it."""
    atk: Attack  # the engine's record (damage_from reads it)
    armor: Optional[int]  # the armor the Damage and Effects step met (None: it dealt no damage step)
    rolled: bool  # attack dice were rolled against the defender
    dice: int
    dice_mods: list
    purposes: frozenset
    effect: bool  # the effect die was rolled
    effect_mods: list
    effect_natural: Optional[int]
    effect_roll: Optional[int]
    conditions: tuple
    status: str

    def key(self) -> tuple:
        a = self.atk
        return (self.status, self.rolled, self.dice, self.armor, a.only_ones, a.convert_critical,
                a.all_critical, a.ignore_normal, a.pierce, tuple(a.extra_damage), a.prevent,
                self.effect, tuple(m[1] for m in self.effect_mods))


@light_dataclass
class Plan:
    damage_from: object  # the engine's AttackEngine.damage_from (bound to the engine of the run)
    strikes: list
    view: dict
    attack_name: str
    table: tuple  # the attack's effect-die table
    unsafe: list  # why the arithmetic is not to be trusted (empty: it is)
    damage_reads: int  # reads of damage before the last strike's damage was worked out
    log: list
    outside_damage: bool = False  # the defender's damage changed though every die was blank
    counts: dict = field(default_factory=dict)  # id(strike) -> its damage counts (exact.py)

    @property
    def gates(self) -> set:
        return {p for s in self.strikes for p in s.purposes if p in ("miss", "defense")}

    def key(self) -> tuple:
        return tuple(s.key() for s in self.strikes) + (self.view["armor"], self.view["traits"])

    def damage_of(self, strike: Strike, normal: int, crit: int, ones: int) -> int:
        return self.damage_from(strike.atk, normal, crit, ones, strike.armor)

    @staticmethod
    def effect_row(table, total: int):
        return DamageAndEffects.effect_row(table, total)


def plan(spec: Spec, defender_damage: Optional[int] = None, d12: Optional[dict] = None) -> Plan:
    """Run the engine's attack sequence once with blank dice and read the attack's structure."""
    from .probe import _view, build
    box = _Box()
    dice = PlanDice({"miss": 12, "defense": 1, "effect": 12, **(d12 or {})}, box)
    g, a, d, spell = build(spec, dice, defender_damage)
    box.game, box.attacker, box.defender = g, a, d
    view = _view(g, a, d)
    destroyed(spec, view)
    eng = g.attacks

    check_state = g.check_state

    def checked(*args, **kw):  # the state check reads every object's damage; it shapes no attack
        before = DAMAGE_READS[0]
        try:
            return check_state(*args, **kw)
        finally:
            box.excluded += DAMAGE_READS[0] - before
    g.check_state = checked

    remaining_health = g.remaining_health

    def remaining(obj):  # read by the damage step after the damage is known: not part of its shape
        before = DAMAGE_READS[0]
        try:
            return remaining_health(obj)
        finally:
            if box.skip_rh:
                box.skip_rh = False
                box.excluded += DAMAGE_READS[0] - before
    g.remaining_health = remaining

    damage_from = eng.damage_from

    def met(atk, normal, crit, ones, armor, emit=None):
        if box.main_attack() is atk and atk.target is d:
            box.met[id(atk)] = (armor, box.reads())
            box.skip_rh = True
        return damage_from(atk, normal, crit, ones, armor, emit=emit)
    eng.damage_from = met

    fire = g.fire

    def firing(*args, **kw):
        box.firing += 1
        try:
            return fire(*args, **kw)
        finally:
            box.firing -= 1
    g.fire = firing

    unsafe = []
    for ev in DICE_EVENTS:
        rules, pending = g._listening(ev, d, ())
        if rules or pending:
            unsafe.append(f"an ability listens for '{ev}'")
    if spec.charge:  # the attacker's last action was a move: the engine charges its next attack (make_attack)
        g.just_moved.add(a.id)
    box.start = DAMAGE_READS[0]
    try:
        eng.make_attack(a, None if spell else spec.attack, [d], spell_card=spell)
    except KeyError as e:
        raise OddsError(str(e).strip("'\""), 2)
    except (EngineError, RecursionError) as e:
        raise OddsError(f"the engine cannot resolve this attack: {e}", 2)
    mine = [x for x in eng.history if not x.action.is_counterstrike and not x.action.is_barrier
            and x.attacker is a]
    if not mine or not any(x.declared for x in mine):
        why = next((e.data.get("why") or e.text for e in reversed(g.log.events) if e.kind == "canceled"), None)
        raise OddsError("the engine refuses this attack: " + (why or "no attack was made"), 1)
    action = mine[0].action
    for x in mine:
        if x.action is action:
            for ev in DICE_EVENTS:
                if g.attack_listeners(x, ev):
                    unsafe.append(f"a trait of the attack listens for '{ev}'")
    if box.roll_reads:
        unsafe.append("an ability reads the roll")
    strikes = []
    for x in action.attacks:
        if (x.defender or x.target) is not d:
            continue
        status = x.status
        if status == "hit" and x.target is not d:
            status = "redirected"
        armor, _ = box.met.get(id(x), (None, 0))
        asked = box.purposes.get(id(x), set())
        strikes.append(Strike(x, armor, "dice" in asked, x.dice_count, list(x.dice_mods), frozenset(asked),
                              "effect" in asked, list(x.effect_mods), x.effect_natural, x.effect_roll,
                              tuple(sorted(x.conditions)), status))
    eng.damage_from = damage_from  # the run is over: the engine as it was
    reads = max((r for (_, r) in box.met.values()), default=box.reads())
    before = spec.defender_damage if defender_damage is None else defender_damage
    return Plan(damage_from, strikes, view, action.definition.name, tuple(action.definition.effect_die or ()),
                unsafe, reads, g.log.events, outside_damage=not d.in_play or d.damage != before)


def destroyed(spec: Spec, view: dict) -> None:
    """OddsError (exit 1) when the damage already on the defender destroys it."""
    if view["remaining"] <= 0 and view["life"] is not None:
        raise OddsError(f"{spec.defender.name} would already be destroyed with {view['damage']} damage "
                        f"(life {view['life']})", 1)
