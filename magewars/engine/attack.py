"""The attack sequence as a visible step machine (supplement: ALL ABOUT ATTACKS, chart).

Steps, each a class named after the chart: DeclareAttack, PayCosts, RollToMiss,
AvoidAttack, RollDice, DamageAndEffects, AdditionalStrikes, DamageBarrier,
Counterstrike, AttackEnds.  Each owns its work: whether it applies to the attack
in hand (`applies`), what it does (`run`) and, where the chart says so, where the
sequence goes next (`then`: back to Roll to Miss for another strike, on to the
next object of a zone, straight to Attack Ends when every attack was canceled).
After every step each player in turn may reveal hidden enchantments
(engine.reveal.Reveals.window).

`STEP_ORDER` is the chart: for each kind of attack, the steps it goes through and
the step a repeated attack goes back to.  `AttackEngine.run_sequence` walks it;
no attack path sequences steps by hand.

Attack kinds: melee single target, melee multiple strike (Doublestrike,
Triplestrike), melee multiple target (Sweeping), counterstrike, ranged single
target, ranged multiple strike, zone, damage barrier, and other attacks (no
melee/ranged icon: walls, Bash, Explode-like attacks made by objects).
"""
from __future__ import annotations

import weakref
from collections import defaultdict
from functools import partial
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Callable, Optional

from ..dsl import ast as A
from ..dsl.model import AttackDefinition, TraitInstance
from ..dsl.vocab import ATTACK_STEPS, STEP_TITLES  # (one vocabulary: the chart's steps in order, their titles)
from .decisions import Option
from . import barclauses, defenses, extracost
from .gamepart import GamePart
from .codex_rules import entries_stating, ignores_los_walls, ignores_minimum_range, melee_restriction
from .movement import in_los
from .phrases import Ctx, matches
from .restrictions import attack_forbidden, forbidden, forbids, permits
from . import movement
from .state import ROW_LETTERS, LightList, ends_at
from ..dsl.frozen import light_dataclass  # @dataclass, made without compiling source text

#: a trait's `static attacks_unanswered()`: the attacks of an object with it trigger no counterstrike or damage
#: barrier and remove no guard marker (AttackEngine.unanswered)
ATTACKS_UNANSWERED = "attacks_unanswered"

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameObject

@light_dataclass(frozen=True)
class Column:
    """One column of the attack-procedure chart: the steps of one kind of attack, in order, and
    where the sequence goes back to for the next individual attack of the same action (another
    strike against the same defender, or the next object of a zone)."""
    steps: tuple
    again: Optional[str] = None  # the step a repeated attack goes back to

    def __contains__(self, key: str) -> bool:
        return key in self.steps


def _without(*skip: str) -> tuple:
    return tuple(s for s in ATTACK_STEPS if s not in skip)


# The attack-procedure chart in one table (supplement: ALL ABOUT ATTACKS, the chart and its notes).
# A step missing from a column does not exist for that kind of attack.  Additional strikes go back
# to Roll to Miss (step 3); a zone attack rolls to miss once and repeats Avoid Attack, Roll Dice and
# Damage and Effects for each object in the zone (Avoid Attack stays: the attack is unavoidable, yet
# a defense that must be revealed when its bearer is attacked is revealed); Damage Barrier attacks
# skip Avoid Attack (so they never force a hidden defense to be revealed); only melee attacks have
# Damage Barrier and Counterstrike steps; a counterstrike is never answered by another.  An action
# against several targets (Sweeping) runs its column once per target.
STEP_ORDER = {
    "melee": Column(ATTACK_STEPS, again="roll_to_miss"),
    "counterstrike": Column(_without("counterstrike"), again="roll_to_miss"),
    "ranged": Column(_without("damage_barrier", "counterstrike"), again="roll_to_miss"),
    "zone": Column(_without("additional_strikes", "damage_barrier", "counterstrike"), again="avoid_attack"),
    "damage barrier": Column(_without("avoid_attack", "additional_strikes", "damage_barrier", "counterstrike")),
    "other": Column(_without("damage_barrier", "counterstrike"), again="roll_to_miss"),
}

END = "end"  # a step's `then`: the sequence stops here (not even Attack Ends follows)


@light_dataclass(eq=False)  # an entity: compared by identity (its attacks point back at it)
class AttackAction:
    """One attack action: may hold several individual attacks (strikes, Sweeping, zone)."""
    attacker: "GameObject"
    definition: AttackDefinition
    source: "GameObject"
    traits: tuple  # the attack's traits, with the chosen "OR" alternative
    kind: Optional[str]  # melee | ranged | None
    is_counterstrike: bool = False
    is_barrier: bool = False
    is_spell: bool = False
    # (source, ability) -> the bonus dice already granted (read and added to with `[key]` only: a
    # defaultdict is made in C, where a Counter ran two Python calls for each attack action made)
    bonus_used: dict = field(default_factory=partial(defaultdict, int))
    attacks: list = field(default_factory=list)
    illegal: set = field(default_factory=set)  # target ids no longer legal for this action
    # defender ids whose Damage Barrier / Counterstrike steps this attack action already took (an extra
    # attack within the same action at the same defender triggers neither again: Battle Fury)
    answered: set = field(default_factory=set)
    first_done: bool = False
    zone: Optional[str] = None
    first_strike: set = field(default_factory=set)  # defender ids whose counterstrike comes after Pay Costs
    spell: Optional["GameObject"] = None  # the attack spell being resolved (a transient object)
    x: int = 0
    canceled: bool = False
    charged: bool = False  # made right after a move action (Charge +X)
    quickcast: bool = False  # made with the Mage's quickcast marker (a permission: activation.quickcast_attacks)
    strikes: int = 1  # strikes against each target (codex statics of its traits: attack_strikes)
    max_targets: int = 1  # different targets one action may attack (attack_targets)
    # a procedure's condition for the attack to go on (a wall's passage attack lasts only while the
    # creature can still make its move): after each step's reveal window, a reason it returns cancels
    # the attack if it has not hit yet (Rules, Walls: Force Hold revealed during the wall's attack)
    holds_while: Optional[Callable[[], Optional[str]]] = None
    owner: Optional["GameObject"] = None  # the object whose attack bar it is (an equipment's, a spell's)
    first_target_strikes: bool = False  # additional strikes only against its first target

    @property
    def bar_owner(self) -> "GameObject":
        """The object carrying the attack bar: `this` in the bar's own clauses (engine/barclauses.py)."""
        return self.owner or self.spell or self.source

    def has_trait(self, key: str) -> bool:
        return any(t.key == key for t in self.traits)

    def trait(self, key: str) -> Optional[TraitInstance]:
        return next((t for t in self.traits if t.key == key), None)

    zone_attack: bool = False  # attacks every object in a zone (attack_zone static of a trait)
    always_unavoidable: bool = False  # no defense may avoid it (attack_unavoidable static of a trait)

    @property
    def is_zone(self) -> bool:
        return "zone" in self.definition.special or self.zone_attack

    @property
    def unavoidable(self) -> bool:
        return self.is_zone or self.is_barrier or self.always_unavoidable

    @property
    def kind_key(self) -> str:
        """The column of the attack-procedure chart this attack action follows (STEP_ORDER)."""
        if self.is_barrier:
            return "damage barrier"
        if self.is_counterstrike:
            return "counterstrike"
        if self.is_zone:
            return "zone"
        return self.kind or "other"


# an entity: compared by identity (a value comparison recursed through its action); slots: made at every
# attack, read at every step (odds/plan.py's _Tracked reads them through Attack's slot descriptors)
@dataclass(eq=False, slots=True, weakref_slot=True)
class Attack:
    """One individual attack against one object."""
    action: AttackAction
    attacker: "GameObject"
    source: "GameObject"
    target: "GameObject"
    strike: int = 1
    first: bool = True
    status: str = "declared"  # declared | missed | avoided | canceled | hit
    redirected: bool = False
    defender: Optional["GameObject"] = None  # original defender (Reverse Attack keeps it for steps 8-9)
    round: int = 0  # the game round it was made in
    extra_dice: list = field(default_factory=list)
    extra_effect: list = field(default_factory=list)
    extra_damage: list = field(default_factory=list)
    prevent: Optional[int] = -1  # -1: nothing prevented; None: prevent all
    prevent_source: str = ""
    dice_count: int = 0
    dice_mods: list = field(default_factory=list)
    faces: list = field(default_factory=list)
    normal: int = 0
    crit: int = 0
    damage: int = 0
    dealt: int = 0
    effect_roll: Optional[int] = None
    effect_natural: Optional[int] = None
    effect_mods: list = field(default_factory=list)
    conditions: list = field(default_factory=list)
    barrier: Optional[tuple] = None
    events: set = field(default_factory=set)
    declared: bool = False
    engaged: bool = False  # the Declare Attack step completed: a melee attack now costs the guard its marker
    gained: list = field(default_factory=list)  # traits gained while resolving (attack_gains)
    defense_mods: list = field(default_factory=list)
    miss_roll: Optional[int] = None
    convert_critical: int = 0
    to_critical: int = 0  # normal die results that count as critical (convert_to_critical)
    pierce: int = 0  # armor treated as this much lower (pierce_armor)
    pierce_by: list = field(default_factory=list)  # who pierces, for the log
    all_critical: bool = False  # every point of damage counts as critical (all_damage_critical)
    ignore_normal: bool = False  # normal damage is ignored (ignore_normal_damage)
    only_ones: bool = False  # only 1s count, as critical damage; no effects (only_ones_count)
    reroll_offers: list = field(default_factory=list)  # (source object, what, once key)
    reached: set = field(default_factory=set)  # keys of the steps this attack has entered
    acting_defender: Optional["GameObject"] = None  # uses its defenses against it (act_as_defender)
    defended_by: tuple = ()  # (object id, defense key) of the defense that avoided the attack
    paid_by: Optional[set] = None  # ids of the objects that paid what the attack asked of them (primitives)

    @property
    def traits(self):
        return self.action.traits

    @property
    def hit(self) -> bool:
        return self.status == "hit"

    def has_trait(self, key: str) -> bool:
        return self.action.has_trait(key) or any(t.key == key for t in self.gained)

    def kinds(self) -> set:
        a = self.action
        k = {a.kind} if a.kind else set()
        if a.is_zone:
            k.add("zone")
        if a.is_counterstrike:
            k.add("counterstrike")
        if a.is_barrier:
            k.add("barrier")
        if a.is_spell:
            k.add("spell")
        return k

    @property
    def over(self) -> bool:
        return self.status in ("canceled",)

    def summary(self) -> dict:
        return {"attacker": self.attacker.id, "source": self.source.id, "target": self.target.id,
                "attack": self.action.definition.name, "strike": self.strike, "status": self.status,
                "dice": self.dice_count, "faces": [str(f) for f in self.faces], "normal": self.normal,
                "critical": self.crit, "damage": self.damage, "effect_roll": self.effect_roll,
                "conditions": list(self.conditions),
                "kind": sorted(self.kinds()),
                "steps": [k for k in STEP_ORDER[self.action.kind_key].steps if k in self.reached]}


@light_dataclass
class Sequence:
    """One run down a column of the chart: the attacks of an action against one target (each
    strike of a multiple-strike attack), or against the objects of one zone."""
    action: AttackAction
    atk: Attack  # the individual attack in hand (the latest strike, or the zone's current object)
    target: "GameObject"  # the object declared as the target (the zone's first object, for a zone)
    source: Optional["GameObject"] = None  # a source other than the attacker (chained attacks)
    attacks: list = field(default_factory=list)  # every individual attack of this run
    strike: int = 1
    first_strike: bool = False  # the defender counterstrikes right after Pay Costs
    counterstruck: bool = False  # the Counterstrike step has been taken
    remaining: Optional[list] = None  # zone attacks: objects of the zone not attacked yet

    @property
    def column(self) -> Column:
        return STEP_ORDER[self.action.kind_key]

    @property
    def zone(self) -> bool:
        return self.remaining is not None

    def settle(self, eng: "AttackEngine") -> Optional[str]:
        """No more strikes: if every attack against this target was canceled, neither a damage
        barrier nor a counterstrike answers it (Rules: Avoiding, Canceling, or Missing Attacks)."""
        for x in self.attacks:  # (a loop, not all() over a generator: every sequence settles)
            if x.status != "canceled":
                return None
        eng.game.emit("rule", "every attack against this target was canceled: no damage barrier, "
                              "no counterstrike")
        return "attack_ends"

    def next_object(self, eng: "AttackEngine") -> bool:
        """A zone attack: the attacker picks the next object of the zone still in play, which is
        attacked (one individual attack each).  False when none is left."""
        g, a = eng.game, self.action
        while self.remaining:
            if len(self.remaining) == 1:
                nxt = self.remaining[0]
            else:
                nxt = g.decide("zone_order", a.attacker.controller,
                               [Option(o.label(), o) for o in self.remaining],
                               prompt="which object does the zone attack attack next?", default=0).value
            self.remaining.remove(nxt)
            if not nxt.in_play:
                continue
            atk = eng._new(a, nxt, 1)
            atk.declared = True
            atk.engaged = True
            atk.events.add(("attacked", nxt.id))
            g.fire("attacked", nxt, Ctx(attack=atk, it=nxt))
            self.atk = atk
            self.attacks.append(atk)
            return True
        return False


# ---------------------------------------------------------------- steps
class Step:
    """One step of the chart.  The runner (AttackEngine.run_sequence) asks whether it applies to the
    attack in hand (skipped silently when not), takes the step (its title, the `attack_step` triggers,
    `run`, a state check, the reveal window) and then asks `then` where the sequence goes.

    Whether a step applies is, for most steps, a matter of the attack's status alone: `skipped_when`
    names the statuses that skip it (a canceled attack skips most steps; the steps that settle an
    attack action skip none).  A step whose rule reads more writes its own `applies` (and the runner
    asks it)."""
    key = ""
    after_cancel = False  # taken even for a canceled attack: it settles what the attack action did
    skipped_when: frozenset = frozenset({"canceled"})  # the attack statuses that skip the step

    def __init__(self):
        self.title = STEP_TITLES[self.key]  # (read at every step: worked out once, for the one instance)
        # does the step say where the sequence goes (its own `then`)?  The runner asks only those: the
        # default always answers None (the column's next step)
        self.routes = type(self).then is not Step.then
        # the statuses that skip it, when they alone decide (the runner reads them without a call); None:
        # the step's own `applies` decides
        self.skips = self.skipped_when if type(self).applies is Step.applies else None

    def applies(self, eng: "AttackEngine", seq: Sequence) -> bool:
        return seq.atk.status not in self.skipped_when

    def run(self, eng: "AttackEngine", atk: Attack, g: "Game") -> None:
        """What happens during the step beyond its triggers and reveal window (nothing, by default).
        `g` is the engine's game, which the runner has in hand (eng.game is a call through a weak link)."""

    def then(self, eng: "AttackEngine", seq: Sequence) -> Optional[str]:
        """After the step (taken or skipped): None for the column's next step, a step key to go
        there, END to stop the sequence."""
        return None


class DeclareAttack(Step):
    key = "declare_attack"
    skipped_when = frozenset()

    def run(self, eng, atk, g):
        a = atk.action
        if a.zone and a.is_zone and not atk.declared:  # (the plain field first: most attacks name no zone)
            g.emit("info", f"{atk.attacker.label()} declares a zone attack with {a.definition.name} "
                           f"against zone {a.zone} [{', '.join(sorted(atk.kinds()))}]")
            atk.declared = True
            atk.engaged = True
            g.fire("attacks", atk.attacker, Ctx(attack=atk, it=atk.attacker))
            return
        # public labels: an effect may aim an attack at a face-down object, whose name the opponent may not see
        kinds = atk.kinds()
        g.emit("info", f"{atk.attacker.public_label()} attacks {atk.target.public_label()} with {a.definition.name}"
               + (f" (strike {atk.strike})" if a.strikes > 1 else "")
               + (f" [{', '.join(sorted(kinds))}]" if kinds else " [neither melee nor ranged]"))
        # line of sight is checked once the declaration's own effects have run (a trait granted "for
        # that attack" as it is declared, such as Indirect from Archer's Watchtower, counts)
        reason = eng.illegal_reason(atk, los=False, g=g)
        if reason:
            eng.cancel(atk, f"illegal target: {reason}", before_declared=True)
            return
        atk.declared = True
        if a.attacks and atk is a.attacks[0] and not a.is_barrier:  # the attack action is declared once
            # (the attack's events are asked whether anything hears them before their context is built:
            # Game.fire's own first question, most events of a sequence being heard by nothing)
            if not g.unheard("declares", atk.attacker, atk):
                kinds = atk.kinds()
                acts = {"attack"} | {f"{k}_attack" for k in ("melee", "ranged") if k in kinds}
                g.fire_heard("declares", atk.attacker, Ctx(attack=atk, it=atk.attacker, target=atk.target),
                             actions=frozenset(acts))
            if atk.status == "canceled":
                return
            eng.apply_next_attack(atk)
            eng.apply_enhance(atk)
            barclauses.mark_used(g, atk)
        reason = eng.los_reason(atk)
        if reason:
            atk.declared = False
            eng.cancel(atk, f"illegal target: {reason}", before_declared=True)
            return
        atk.events.add(("attacked", atk.target.id))
        if not g.unheard("attacked", atk.target, atk):
            g.fire_heard("attacked", atk.target, Ctx(attack=atk, it=atk.target))
        if not g.unheard("attacks", atk.attacker, atk):
            g.fire_heard("attacks", atk.attacker, Ctx(attack=atk, it=atk.attacker))
        # the step is complete only now: a cancel during it (Helm of Fear) engaged no guard
        atk.engaged = atk.status != "canceled"

    def then(self, eng, seq):
        # an attack whose target was illegal when declared never began: no step follows
        return None if seq.atk.declared else END


class PayCosts(Step):
    key = "pay_costs"

    def run(self, eng, atk, g):
        cost = atk.action.definition.cost
        if isinstance(cost, A.XValue):  # `cost X`: the X the bar works out (static set_x)
            cost = atk.action.x * cost.coef
        if isinstance(cost, int) and cost > 0:
            p = g.state.players[atk.attacker.controller]
            if p.mana < cost:
                eng.cancel(atk, f"cannot pay the attack's cost of {cost} mana")
                return
            p.mana -= cost
            g.state.touch_light()  # (mana: a light field)
            g.emit("mana", f"{p.name} pays {cost} mana for {atk.action.definition.name} (now {p.mana})")
        else:
            g.emit("info", "no costs to pay")

    def then(self, eng, seq):
        """A defender that strikes first (codex: counterstrike_first) takes the Counterstrike step now."""
        atk, a = seq.atk, seq.action
        # (first_strike asked first: it is empty unless some defender strikes first)
        if (a.first_strike and "counterstrike" in seq.column.steps and atk.status != "canceled"
                and not a.is_counterstrike and a.kind == "melee" and atk.target.id in a.first_strike
                and not eng.is_self_attack(atk)):
            seq.first_strike = True
            eng.game.emit("rule", f"{atk.target.label()}: the Counterstrike step comes right after Pay Costs "
                                  f"(first strike)")
            return "counterstrike"
        return None


class RollToMiss(Step):
    key = "roll_to_miss"

    def run(self, eng, atk, g):
        attacker = atk.attacker
        if not attacker.in_play or not g.is_creature(attacker):
            g.emit("info", "the attacker is not a creature: no roll to miss")
            return
        # Whatever makes an attack roll to miss (a condition, a trait) is a codex ability attached to
        # this step's hook; it rolled (and may have missed) before this point.
        if atk.miss_roll is None:
            g.emit("info", "nothing makes this attack roll to miss")
        elif atk.status == "missed":
            g.emit("info", f"roll to miss: {atk.miss_roll}: the attack misses")
        else:
            g.emit("info", f"roll to miss: {atk.miss_roll}: the attack continues")

    def then(self, eng, seq):
        """A zone attack rolls to miss once for the whole zone; then its objects are attacked one by
        one (supplement: the chart's zone column)."""
        if not seq.zone:
            return None
        head = seq.atk
        seq.action.attacks.remove(head)  # the zone was declared, not an object: no attack of its own
        if head.status == "missed":
            eng.game.emit("rule", "the roll to miss failed: the whole zone attack misses; no object in the "
                                  "zone is attacked")
            return "attack_ends"
        if head.status == "canceled":  # a canceled attack ends at once (Rules: Avoiding, Canceling)
            return "attack_ends"
        eng.history.remove(head)
        return None if seq.next_object(eng) else "attack_ends"


class AvoidAttack(Step):
    key = "avoid_attack"

    def applies(self, eng, seq):
        return seq.atk.status == "declared"

    def run(self, eng, atk, g):
        if atk.status != "declared":
            return
        target = atk.target
        g.reveals.mandatory("during", self.key, atk)
        if atk.status != "declared" or atk.redirected:
            return
        if atk.action.unavoidable:
            g.emit("info", "the attack is unavoidable: no defense may be used")
            return
        defender = defenses.defending_object(g, atk)
        if defender is not target:
            g.emit("rule", f"{defender.label()} acts as the defender with its own defenses "
                           f"(the attack's target is still {target.label()})")
        barred = forbids(g, "use_defense", defender, attack=atk)  # a card's own `cannot(this, "use_defense")`
        d = g.effects.derived(defender)
        if "use_defense" in d.cannot_do or barred:
            g.emit("info", f"{defender.label()} cannot use defenses" + (f" ({barred})" if barred else ""))
            return
        usable = []
        for (df, src_id, key) in d.defenses:
            if df.limit and df.limit == atk.action.kind:
                continue
            src = g.state.objects[src_id]
            if df.uses is not None and src.defense_uses[key] >= df.uses:
                continue
            if src is not defender and forbids(g, "defend", src):  # e.g. it attacked this round (Dancing Scimitar)
                continue
            cost = sum(n for _c, n in defenses.use_costs(g, src))
            if cost > g.state.players[src.controller].mana:
                g.emit("info", f"{src.label()}'s defense {df.roll}+ costs {cost} mana to use: its controller "
                               f"has {g.state.players[src.controller].mana}")
                continue
            usable.append((df, src, key))
        if not usable:
            g.emit("info", f"{defender.label()} has no defense it can use")
            return
        opts = [Option(f"{s.name} defense {df.roll}+", (df, s, k)) for (df, s, k) in usable] + [Option("no defense")]
        # a player attacking their own object (a healing attack) is not taken to defend against it
        friendly = atk.attacker.controller == defender.controller
        ch = g.decide("defense", defender.controller, opts, prompt=f"defend {target.label()}?",
                      default=len(opts) - 1 if friendly else 0, step=self.key)
        if ch.value is None:
            return
        df, src, key = ch.value
        for card_obj, n in defenses.use_costs(g, src):  # its extra cost, paid before the roll
            p = g.state.players[src.controller]
            p.mana -= n
            g.emit("mana", f"{p.name} pays {n} mana to use the defense of {src.label()} ({card_obj.label()}; "
                           f"now {p.mana})", player=p.name, amount=n, source=card_obj.id)
        src.defense_uses[key] += 1
        g.state.touch_light()  # (mana and defense uses: light fields)
        roll = g.dice.d12()
        mods = defenses.roll_modifiers(g, atk, defender, source=src)
        total = roll + sum(m[1] for m in mods)
        ok = total >= df.roll
        g.emit("roll", f"defense {df.roll}+ of {src.label()}: rolls {roll}"
               + "".join(f" {m[1]:+d} ({m[0]})" for m in mods) + (f" = {total}" if mods else "")
               + (": the attack is avoided" if ok else ": fails"), d12=roll, purpose="defense", total=total)
        if ok:
            atk.defended_by = (src.id, key)
            eng.avoid(atk, f"defense of {src.label()}")


class RollDice(Step):
    key = "roll_dice"

    def applies(self, eng, seq):
        atk = seq.atk
        return atk.status == "declared" or (atk.redirected and atk.status != "canceled")

    def run(self, eng, atk, g):
        if atk.action.definition.dice is None and barclauses.has_effect(g, atk.action):
            g.emit("info", f"{atk.action.definition.name} rolls no attack dice: its effect is all it does")
            return
        dtype = atk.action.definition.damage_type
        if dtype and atk.target.in_play and dtype in g.effects.derived(atk.target).immune_types:
            g.emit("immune", f"{atk.target.label()} has {dtype} Immunity: no dice are rolled against it")
            return
        n, mods = self.dice(eng, atk, g)
        atk.dice_count, atk.dice_mods = n, mods
        for (label, amount, ts) in mods[1:]:
            g.emit("modifier", f"{amount:+d} attack dice: {label}" + (f" (t{ts})" if ts else ""),
                   source=label, amount=amount, timestamp=ts, applies="attack dice")
        atk.faces = g.dice.attack(n)
        eng.count_faces(atk)
        faces = [f.text for f in atk.faces]  # (each face written once, for the line and its details)
        g.emit_data("roll", f"rolls {n} attack dice: {' '.join(faces)} = {atk.normal} normal + {atk.crit} critical",
                    {"faces": faces, "dice": n, "normal": atk.normal, "critical": atk.crit})
        if not g.unheard("rolls", atk.attacker, atk):
            g.fire_heard("rolls", atk.attacker, Ctx(attack=atk, it=atk.attacker), what="attack dice")
        eng.offer_reroll(atk, "attack dice")


    def dice(self, eng, atk: Attack, g) -> tuple[int, list]:
        """How many attack dice: the printed number and every modifier, each with its source."""
        a = atk.action
        base = a.definition.dice
        if not isinstance(base, int):
            base = g.x_value(a.attacker) * getattr(base, "coef", 1) if base is not None else 0
        mods = [("printed", base, 0)]
        total = base  # (summed as the modifiers are listed: no generator over them afterwards)
        for (label, amount) in eng.bar_mods(atk, "modify_dice"):
            mods.append((label, amount, 0))
            total += amount
        for (label, amount, ts) in atk.extra_dice:
            mods.append((label, amount, ts))
            total += amount
        if total < 1:
            mods.append(("an attack rolls at least 1 die", 1 - total, 0))
            total = 1
        return total, mods


def a_name(atk: Attack) -> str:
    return atk.action.definition.name


class DamageAndEffects(Step):
    key = "damage_and_effects"

    def applies(self, eng, seq):
        return "roll_dice" in seq.atk.reached and seq.atk.status != "canceled"

    def run(self, eng, atk, g):
        target = atk.target
        reason = self.no_longer_possible(eng, atk, g)
        if reason:
            eng.cancel(atk, reason)
            return
        atk.status = "hit"
        atk.events.add(("hit", target.id))
        self.meet_barrier(eng, atk, g)
        dtype = atk.action.definition.damage_type
        if dtype and dtype in g.effects.derived(target).immune_types:
            g.emit("immune", f"{target.label()} has {dtype} Immunity: the attack deals no damage and no effects")
            g.fire("hit", target, Ctx(attack=atk, it=target))
            return
        incorporeal = atk.only_ones  # only the 1s count, and no effects
        bar_effects, replaces = barclauses.effects(g, atk)
        if bar_effects and replaces:
            # the attack's effect takes the place of its damage and effect die (a healing attack)
            g.emit("rule", f"{a_name(atk)}: its effect takes the place of damage and the effect die")
            barclauses.run_effects(g, atk, bar_effects)
            g.fire("hit", target, Ctx(attack=atk, it=target))
            return
        self.deal_damage(eng, atk, g)
        table = atk.action.definition.effect_die
        if table and not incorporeal:
            self.effect_die(eng, atk, table, g)
        elif table:
            g.emit("info", "no effect die: the Incorporeal target receives no effects from this attack")
        if bar_effects and target.in_play:  # the bar's effect follows its damage and effects
            barclauses.run_effects(g, atk, bar_effects)
        # triggers once damage and effects are done (Eye for an Eye, chaining attacks...)
        if atk.damage:
            if not g.unheard("damaged", target, atk):
                g.fire_heard("damaged", target, Ctx(attack=atk, it=target))
            if not g.unheard("deals_damage", atk.attacker, atk):
                g.fire_heard("deals_damage", atk.attacker, Ctx(attack=atk, it=target))
        if not g.unheard("hit", target, atk):
            g.fire_heard("hit", target, Ctx(attack=atk, it=target))

    @staticmethod
    def no_longer_possible(eng, atk, g) -> Optional[str]:
        """Why the attack cannot reach Damage and Effects after all (it is then canceled), or None."""
        a = atk.action
        target = atk.target
        reason = None
        if not target.in_play:
            reason = "the target is no longer in play"
        elif target.id in a.illegal:
            reason = "the target is no longer legal"
        elif not atk.redirected and eng.illegal_reason(atk, at_declaration=False, g=g):
            reason = f"the target is no longer legal ({eng.illegal_reason(atk, at_declaration=False)})"
        elif (not atk.attacker.in_play and g.is_creature(atk.attacker) and not a.is_barrier
              and not a.is_counterstrike and not a.is_zone and atk.source is atk.attacker):
            reason = "the attacker is gone"
        return reason

    @staticmethod
    def meet_barrier(eng, atk, g) -> None:
        """The defender's damage barrier is met with the hit itself: remembered even if the defender
        is destroyed by it (it still attacks in the Damage Barrier step)."""
        a = atk.action
        defender = atk.defender or atk.target
        if not atk.redirected:
            d = g.effects.derived(defender)
            atk.barrier = d.barrier
            extra = d.extra_barriers
            if extra and a.kind == "melee":
                g.emit("rule", f"{defender.label()} already has a damage barrier: the one from "
                               f"{g.state.objects[extra[0][1]].label()} does not function")

    @staticmethod
    def deal_damage(eng, atk, g) -> None:
        """The dice's normal and critical damage against armor, with every rule that changes them."""
        a = atk.action
        target = atk.target
        normal, crit = atk.normal, atk.crit
        if atk.to_critical and normal and not atk.only_ones:
            faces = sorted((f.value for f in atk.faces if not f.critical and f.value), reverse=True)
            moved = sum(faces[:atk.to_critical])
            if moved:
                normal, crit = normal - moved, crit + moved
                g.emit("rule", f"{min(len(faces), atk.to_critical)} normal die result(s) count as critical "
                               f"({moved} damage)")
        ones = sum(1 for f in atk.faces if f.value == 1) if atk.only_ones else 0
        dmg = eng.damage_from(atk, normal, crit, ones, g.effects.derived(target).armor, emit=g.emit)
        atk.damage = dmg
        remaining = g.remaining_health(target)
        if dmg:
            atk.dealt = min(dmg, remaining)
            g.deal_damage(target, dmg, f"{a.definition.name} ({atk.attacker.label()})", None, by_attack=True)
            atk.events.add(("damaged", target.id))
            atk.events.add(("deals_damage", atk.attacker.id))
            # `reveal must on deals_damage(X) during damage_and_effects`: revealed as the damage is dealt
            g.reveals.mandatory("during", "damage_and_effects", atk)

    @staticmethod
    def effect_row(table, total: int):
        """The row of an effect-die table a total falls in (None: no effect)."""
        for r in table:  # (a loop, not next() over a generator: once per effect die rolled)
            if total >= r.low and (r.high is None or total <= r.high):
                return r
        return None

    @staticmethod
    def effect_die(eng, atk, table, g) -> None:
        """Roll the effect die (with its modifiers and rerolls) and place the conditions of its row."""
        a = atk.action
        target = atk.target
        natural = g.dice.d12()
        total = natural  # (summed as the modifiers are listed)
        mods = []
        for (label, amount) in eng.bar_mods(atk, "modify_effect_roll"):
            mods.append((label, amount))
            total += amount
        for (label, amount, ts) in atk.extra_effect:
            mods.append((label, amount))
            total += amount
        atk.effect_natural, atk.effect_roll, atk.effect_mods = natural, total, mods
        if mods or atk.reroll_offers:
            g.emit("roll", f"effect die rolled: {natural}", d12=natural, purpose="effect (natural)")
        if not g.unheard("rolls", atk.attacker, atk):
            g.fire_heard("rolls", atk.attacker, Ctx(attack=atk, it=atk.attacker), what="effect die")
        if eng.offer_reroll(atk, "effect die"):
            natural = atk.effect_natural
            total = natural + sum(m[1] for m in mods)
            atk.effect_roll = total
        text = f"effect die: {natural}"
        if mods:  # (most rolls have none: no generator to join)
            text += "".join(f" {m[1]:+d} ({m[0]})" for m in mods) + f" = {total}"
        g.emit_data("roll", text, {"d12": natural, "total": total, "purpose": "effect"})
        row = DamageAndEffects.effect_row(table, total)
        if row is None:
            g.emit("info", "no effect")
        else:
            fresh = a.is_barrier or a.is_counterstrike
            counts: dict = {}
            for (name, n) in row.outcomes:
                counts[name] = counts.get(name, 0) + n
            # conditions that lower armor (Corrode) are placed after the others
            for name, n in sorted(counts.items(), key=lambda kv: g.lowers_armor(kv[0])):
                if target.in_play:
                    placed = g.place_condition(target, name, n, a.definition.name, fresh=fresh, attack=atk)
                    if placed:  # Game.place_condition fires condition_placed
                        atk.conditions.append((name, placed))

    def then(self, eng, seq):
        """The individual attack is over: one that never hit is spent; the next object of a zone
        attack is attacked; without additional strikes, the strikes are settled."""
        atk, zone = seq.atk, seq.zone
        if zone or "roll_to_miss" in atk.reached:  # this attack was made (not canceled beforehand)
            if atk.status == "declared":
                atk.status = "canceled"
            seq.action.first_done = True
        if zone:
            return seq.column.again if seq.next_object(eng) else None
        if "additional_strikes" in seq.column.steps:
            return None
        return seq.settle(eng)


class AdditionalStrikes(Step):
    """Taken between strikes only; its reveal window comes before the next strike begins."""
    key = "additional_strikes"
    after_cancel = True

    @staticmethod
    def strikes(seq) -> int:
        """Strikes against this sequence's target: the action's, or one for a target after the first when
        the action keeps its extra strikes for its first target (next_attack_targets)."""
        a = seq.action
        if a.first_target_strikes and a.attacks and (a.attacks[0].defender or a.attacks[0].target) is not seq.target:
            return 1
        return a.strikes

    def applies(self, eng, seq):
        return seq.strike < self.strikes(seq)

    def then(self, eng, seq):
        """Another strike against the same defender goes back to Roll to Miss, if it still can be made."""
        a, atk = seq.action, seq.atk
        if seq.strike < self.strikes(seq):
            s = seq.strike + 1
            g = eng.game
            if atk.target.id in a.illegal or not atk.target.in_play:
                g.emit("rule", f"strike {s}: the target is no longer legal: canceled")
            elif atk.attacker.in_play and not a.canceled:
                why = eng.illegal_reason(Attack(a, a.attacker, seq.source or a.source, seq.target, s),
                                         at_declaration=False, los=False)
                if why:  # e.g. the attacker became barred from attacking that target during the strike
                    g.emit("rule", f"strike {s}: {why}: no further strikes")
                    return seq.settle(eng)
                nxt = eng._new(a, seq.target, s, seq.source)
                nxt.declared = True
                nxt.engaged = True
                seq.atk, seq.strike = nxt, s
                seq.attacks.append(nxt)
                return seq.column.again
        return seq.settle(eng)


class DamageBarrier(Step):
    key = "damage_barrier"
    after_cancel = True
    skipped_when = frozenset()

    def run(self, eng, atk, g):
        a = atk.action
        # one pass over the action's attacks on this defender: whether one hit, and the first damage
        # barrier one met (a loop: no list and generators made for each damage barrier step)
        defender = atk.defender or atk.target
        hit, barrier = False, None
        for x in a.attacks:
            if (x.defender or x.target) is defender:
                if x.status == "hit" and not x.redirected:
                    hit = True
                if barrier is None and x.barrier:
                    barrier = x.barrier
        if ("barrier", defender.id) in a.answered:
            g.emit("info", "this attack action already met that defender's damage barrier step")
            return
        a.answered.add(("barrier", defender.id))
        if eng.is_self_attack(atk):
            g.emit("info", "an attack on oneself does not trigger one's own damage barrier")
            return
        if not hit:
            g.emit("info", "the attack did not hit: no damage barrier attack")
            return
        if barrier is None:
            g.emit("info", "the defender has no damage barrier")
            return
        bdef, src_id = barrier
        src = g.state.objects[src_id]
        why = eng.unanswered(atk, g)
        if why:
            g.emit("rule", f"the attacker is {why}: no damage barrier attack")
            return
        if not atk.attacker.in_play:
            g.emit("info", "the attacker is gone: the damage barrier has no one to attack")
            return
        g.emit("rule", f"damage barrier {bdef.name} of {src.label()} attacks {atk.attacker.label()}"
               + ("" if defender.in_play else " (even though the defender was destroyed)"))
        action = AttackAction(src, bdef, src, tuple(bdef.traits), None, is_barrier=True)
        eng.run_action(action, [atk.attacker])


class Counterstrike(Step):
    key = "counterstrike"
    after_cancel = True

    def applies(self, eng, seq):
        return not seq.counterstruck  # taken once: early for a first-striking defender, else here

    def run(self, eng, atk, g):
        a = atk.action
        defender = atk.defender or atk.target
        try:
            if a.is_counterstrike:
                g.emit("rule", "a counterstrike never answers a counterstrike")
                return
            if ("counterstrike", defender.id) in a.answered:
                g.emit("info", "this attack action already had that defender's counterstrike step")
                return
            a.answered.add(("counterstrike", defender.id))
            if eng.is_self_attack(atk):
                g.emit("info", "an attack on oneself gets no counterstrike from oneself")
                return
            for x in a.attacks:  # (a loop, not all() over a generator)
                if (x.defender or x.target) is defender and x.status != "canceled":
                    break
            else:  # every attack on this defender was canceled
                return
            if not defender.in_play:
                g.emit("rule", f"{defender.label()} was destroyed: it makes no counterstrike")
                return
            if "counterstrike" in g.effects.derived(defender).cannot_do:
                g.emit("rule", f"{defender.label()} cannot counterstrike")
                return
            why = eng.unanswered(atk, g)
            if why:
                g.emit("rule", f"the attacker is {why}: no counterstrike")
                return
            if not atk.attacker.in_play or g.state.zone_of(atk.attacker) != g.state.zone_of(defender):
                g.emit("info", "the attacker is not in the defender's zone: no counterstrike")
                return
            opts = []
            for (adef, src_id) in g.effects.derived(defender).attacks:
                if adef.kind != "melee":
                    continue
                if eng.usable_in(adef, "counterstrike", holder=g.state.objects.get(src_id)) \
                        or "counterstrike" in adef.special or (
                        defender.guard and adef.action == "quick"):
                    opts.append(Option(adef.name, adef))
            if not opts:
                g.emit("info", f"{defender.label()} has no counterstrike")
                return
            ch = g.decide("counterstrike", defender.controller, opts + [Option("no counterstrike")],
                          prompt=f"counterstrike with {defender.label()}?", default=0, step="counterstrike")
            if ch.value is None:
                return
            g.fire("counterstrike", defender, Ctx(it=defender))
            action = AttackAction(defender, ch.value, defender, tuple(ch.value.traits), "melee", is_counterstrike=True)
            eng.run_action(action, [atk.attacker])
        finally:
            if a.kind == "melee" and not a.is_counterstrike and not eng.is_self_attack(atk):
                eng.remove_guard(atk)

    def then(self, eng, seq):
        if seq.counterstruck:
            return None
        seq.counterstruck = True
        if seq.first_strike:  # taken right after Pay Costs: now the strikes
            if not seq.atk.attacker.in_play:
                eng.cancel(seq.atk, "the attacker was destroyed: the attack cannot proceed")
                return END
            return "roll_to_miss"
        return None


class AttackEnds(Step):
    key = "attack_ends"
    after_cancel = True
    skipped_when = frozenset()

    def run(self, eng, atk, g):
        g.emit("info", f"attack ends: {atk.status}")
        eng.end_attack_effects(atk, g)  # effects lasting "until end of attack" end with it


STEPS = {c.key: c() for c in (DeclareAttack, PayCosts, RollToMiss, AvoidAttack, RollDice, DamageAndEffects,
                              AdditionalStrikes, DamageBarrier, Counterstrike, AttackEnds)}
assert all(k in STEPS for col in STEP_ORDER.values() for k in col.steps)


# ---------------------------------------------------------------- engine
class AttackEngine(GamePart):
    def __init__(self, game: "Game"):
        super().__init__(game)  # (held weakly: engine/gamepart.py)
        self.history: list[Attack] = LightList()  # reads counted: derived values know whether they read it
        self.pending_next: list[dict] = []  # next_attack_gains(...) waiting for the object's next attack
        self.pending_enhance: list[dict] = []  # enhance_attack(...) waiting for the object's next attack
        self.pending_follow: list[dict] = []  # follow_up_attack(...) waiting for the end of an attack action
        self.pending_targets: list[dict] = []  # next_attack_targets(...) waiting for a quick melee full action
        self.current_step: Optional[str] = None

    def __del__(self):
        """The game is being freed.  Each attack action and its attacks point at each other (`action.attacks`,
        `attack.action`); turn each attack's link into a weak one, so that the pairs are no reference cycles
        and everything they reach is freed now.  An action held outside the game keeps its attacks, and
        they reach it as before (through a weak proxy)."""
        for atk in self.history:
            action = atk.action
            if type(action) is AttackAction:
                atk.action = weakref.proxy(action)

    # ------------------------------------------------------------ public
    def find_attack(self, obj: "GameObject", name: Optional[str],
                    at_zone: Optional[bool] = None) -> tuple[AttackDefinition, "GameObject"]:
        """The attack bar `name` of `obj`.  A card may print two bars of one name, one of them a zone
        attack (an "OR" bar written as two: Rules, "OR" Attacks): `at_zone` (a zone was declared as
        the target, or objects were) picks the side that fits the declaration."""
        g = self.game
        low = None if name is None else name.lower()
        found = None  # the first bar of that name, or the first that also fits the declaration (loops: no lists)
        for (a, src_id) in g.effects.derived(obj).attacks:
            if low is None or a.name.lower() == low:
                if found is None:
                    found = (a, src_id)
                if at_zone is None or bool(a.is_zone) == at_zone:
                    found = (a, src_id)
                    break
        if found is None:
            raise KeyError(f"{obj.label()} has no attack named {name!r}")
        a, src_id = found
        return a, g.state.objects[src_id]

    def make_attack(self, attacker, attack_name, targets, *, zone=None, alternative=None,
                    counterstrike=False, source=None, spell=None, spell_card=None, quickcast=False,
                    choose_more=False, bound_to=()):
        """An attack action by `attacker` with its attack bar `attack_name`, or with the attack of
        `spell` (the spell object being cast: engine.casting).  `choose_more`: the action was declared
        at its first target only (an activation): an action that may attack several (Sweeping) asks
        its controller for each next one; `bound_to`: the objects a mandatory action of the attacker
        (Bloodthirsty) binds its attacks to, when it can."""
        g = self.game
        self._choose_more = choose_more
        self._bound_to = {o.id for o in bound_to} if bound_to else ()  # (read with `in` only)
        if spell_card is not None:  # a spell cast directly by its card
            from . import casting
            return casting.cast_attack_spell(g, attacker, spell_card, targets, zone=zone)
        spell_obj = spell
        src_obj = None
        if spell_obj is not None:
            adef = spell_obj.card.attacks[0]
            is_spell = True
        else:
            adef, src_obj = self.find_attack(attacker, attack_name,
                                             at_zone=(zone is not None) if (zone is not None or targets) else None)
            is_spell = False
        traits = tuple(adef.traits)
        if adef.alternatives:
            opts = [Option(" + ".join(str(t) for t in grp) or "none", i) for i, grp in enumerate(adef.alternatives)]
            if alternative is not None:
                ch = next((o for o in opts if o.label.lower() == str(alternative).lower()
                           or str(o.value) == str(alternative)), None)
                if ch is None:
                    raise KeyError(f"no alternative {alternative!r}; options: {[o.label for o in opts]}")
            else:
                ch = g.decide("alternative", attacker.controller, opts, prompt=f"{adef.name}: which OR option?",
                              default=0)
            traits = traits + tuple(adef.alternatives[ch.value])
        kind = adef.kind
        for (t, k, label) in g.effects.derived(attacker).attack_traits:
            if k is None or k == kind or k == adef.name:  # all its attacks, those of a kind, or one attack
                traits = traits + (t,)
                g.emit("modifier", f"the attack gains {t} ({label})")
        action = AttackAction(attacker, adef, source or attacker, traits, kind,
                              is_counterstrike=counterstrike or "counterstrike" in adef.special, is_spell=is_spell)
        if "barrier" in adef.special:
            action.is_barrier = True
        action.spell = spell_obj
        action.owner = spell_obj or src_obj
        action.quickcast = quickcast
        if attacker.id in g.just_moved and not counterstrike:
            action.charged = True
            g.just_moved.discard(attacker.id)
        self.widen(action)
        return self.run_action(action, targets, zone=zone)

    def widen(self, action: AttackAction) -> None:
        """`next_attack_targets(...)` waiting for this attacker: its quick melee attack made as its full
        action (no move before it this Action Phase) may go against that many different objects, one
        after the other as with Sweeping; its extra strikes stay with the first target."""
        if not self.pending_targets:
            return
        g, who = self.game, action.attacker
        for p in list(self.pending_targets):
            if p["round"] != g.state.round:
                self.pending_targets.remove(p)
                continue
            if p["who"] != who.id or action.kind != "melee" or action.is_counterstrike \
                    or action.definition.action != "quick" or who.moves_taken:
                continue
            self.pending_targets.remove(p)
            action.max_targets = max(action.max_targets, p["count"])
            action.first_target_strikes = True
            g.emit("rule", f"{who.label()}'s quick melee attack, made as its full action, may go against up to "
                           f"{p['count']} different objects ({p['src']})")
            return

    def attack_each(self, attacker, attack_name: Optional[str], targets: list) -> AttackAction:
        """One attack action of `attacker` with its attack bar `attack_name` made against each target
        in turn (an effect that attacks every object of a set)."""
        adef, src = self.find_attack(attacker, attack_name)
        action = AttackAction(attacker, adef, attacker, tuple(adef.traits), adef.kind)
        action.owner = src
        action.max_targets = max(1, len(targets))
        return self.run_action(action, list(targets))

    def run_action(self, action: AttackAction, targets, zone=None) -> AttackAction:
        g = self.game
        title = "counterstrike" if action.is_counterstrike else "damage barrier attack" if action.is_barrier else "attack action"
        g.emit("action", f"{action.attacker.label()}: {title} with {action.definition.name}")
        g.log.depth += 1
        prev = g.current_attack
        self.shape(action, g)
        try:
            if not targets and not action.is_zone and action.kind is None and barclauses.has_effect(g, action):
                self.untargeted(action)
                return action
            if action.is_zone:
                first = zone or (g.state.zone_of(targets[0]) if targets else None)
                self.zone_sequence(action, first)
                self.roll_on(action, first)
            elif action.max_targets > 1 and len(targets) > 1:
                seen = []
                for t in targets[:action.max_targets]:
                    if t in seen:
                        g.emit("rule", "each attack of this action must be against a different target")
                        continue
                    seen.append(t)
                    self.target_sequence(action, t)
            elif not targets:
                g.emit("rule", f"{action.definition.name} has no target: no attack is made")
            else:
                for t in targets[:1]:
                    self.target_sequence(action, t)
                if getattr(self, "_choose_more", False) and action.max_targets > 1 and targets:
                    self._choose_more = False
                    self.more_targets(action, list(targets[:1]))
            if action.attacks:
                self.follow_up(action)
            if action.attacks:  # the attack action is over (`when attack_resolved` of its bar)
                last = action.attacks[-1]
                self.end_action_effects(action, g)
                if not g.unheard("attack_resolved", action.attacker, last):
                    g.fire_heard("attack_resolved", action.attacker, Ctx(attack=last, it=action.attacker))
        finally:
            g._current_attack = prev  # (current_attack's store: its setter does nothing more)
            g.log.depth -= 1
        return action

    def more_targets(self, action: AttackAction, done: list) -> None:
        """The next targets of an action that may attack several different ones (Sweeping), chosen
        one at a time by the attacker's controller among the legal ones left; a mandatory action
        (Bloodthirsty) still binds each choice when it can be obeyed (Rules, Mandatory Actions)."""
        g = self.game
        a = action.attacker
        while len(done) < action.max_targets and a.in_play:
            cands = []
            for t in g.state.in_play():
                if t in done or t is a or t.id in action.illegal or t.zone is None or g.life(t) is None \
                        or t.controller == a.controller:
                    continue
                if self.illegal_reason(Attack(action, a, a, t)) is None:
                    cands.append(t)
            if not cands:
                g.emit("rule", f"{a.label()}: no other legal target for the next attack of this action")
                return
            must = [t for t in cands if t.id in getattr(self, "_bound_to", ())]
            opts = [Option(t.label(), t) for t in (must or cands)]
            if not must:
                opts.append(Option("no further attack", None))
            else:
                g.emit("rule", f"{a.label()} must obey its mandatory action with this attack too")
            ch = g.decide("target", a.controller, opts, prompt=f"next target of {action.definition.name}",
                          default=0)
            if ch.value is None:
                return
            done.append(ch.value)
            self.target_sequence(action, ch.value)

    def untargeted(self, action: AttackAction) -> None:
        """A bar that is neither melee nor ranged, used with no target, whose effect names what it
        acts on (gain mana, repair a conjuration of one's choice): its cost is paid and its effect
        runs; no object is attacked, so no step about a defender applies."""
        g = self.game
        atk = Attack(action, action.attacker, action.source, action.bar_owner)
        atk.round = g.state.round
        why = barclauses.used_up(g, atk)
        if why:
            g.emit("canceled", f"{action.definition.name} cannot be used: {why}", why=why)
            return
        g.emit("info", f"{action.attacker.label()} uses {action.definition.name}: it attacks no object")
        STEPS["pay_costs"].run(self, atk, g)
        if atk.status == "canceled":
            return
        abilities, _ = barclauses.effects(g, atk)
        barclauses.run_effects(g, atk, abilities)
        g.check_state()

    def usable_in(self, adef: AttackDefinition, step: str, holder=None) -> bool:
        """May this attack bar be used in `step` (e.g. the Counterstrike step)?  Its traits say so in
        the codex: `static attack_usable_in("counterstrike")`; so do attack traits the object carrying
        the bar has gained (an equipment that "gains Counterstrike" lends it to its attacks)."""
        g = self.game
        keys = [t.key for t in adef.traits]
        if holder is not None and holder.in_play:
            codex = g.codex
            keys += [k for k in g.effects.derived(holder).traits
                     if (cd := codex.get(k)) is not None and "Attack" in cd.categories]
        for k in keys:  # (loops, not any() over a generator: asked of each bar at every counterstrike step)
            for ab in g.codex_statics(k, "attack_usable_in"):
                args = ab.effect.args
                if args and isinstance(args[0].value, A.StringLit) and args[0].value.value == step:
                    return True
        return False

    def shape(self, action: AttackAction, g: Optional["Game"] = None) -> None:
        """The attack's shape from the codex statics of its traits: strikes per target
        (attack_strikes), how many different targets one action attacks (attack_targets), a zone
        attack (attack_zone), unavoidable (attack_unavoidable), traits it always has (attack_gains).
        `g`: the game, when the caller has it in hand (self.game is a call through the weak link)."""
        if g is None:
            g = self.game
        for t in tuple(action.traits):
            self.shape_one(action, t, g)

    def shape_one(self, action: AttackAction, t, g: Optional["Game"] = None) -> None:
        if g is None:
            g = self.game
        cd = g.codex.get(t.key)
        if cd is not None:
            for ab in cd.abilities:
                if not (isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call)):
                    continue
                name = ab.effect.name
                if name == "attack_zone":
                    action.zone_attack = True
                elif name == "attack_unavoidable":
                    action.always_unavoidable = True
                elif name == "attack_gains" and ab.effect.args and isinstance(ab.effect.args[0].value, A.TraitGroup):
                    for ref in ab.effect.args[0].value.traits:
                        if not action.has_trait(ref.name.text):
                            gained = TraitInstance(ref.name.text, ref.param.signed_value() if ref.param else None,
                                                   text=ref.text)
                            action.traits = tuple(action.traits) + (gained,)
                            self.shape_one(action, gained, g)
                elif name in ("attack_strikes", "attack_targets"):
                    ctx = Ctx(this=action.attacker)
                    ctx.extra["x"] = t.value if isinstance(t.value, int) else 0
                    n = g.evaluate(ab.effect.args[0].value, ctx)
                    if name == "attack_strikes":
                        action.strikes = max(action.strikes, n)
                    else:
                        action.max_targets = max(action.max_targets, n)

    # ------------------------------------------------------------ sequences

    # ------------------------------------------------------------ sequences
    def _new(self, action, target, strike, source=None) -> Attack:
        atk = Attack(action, action.attacker, source or action.source, target, strike, first=not action.first_done)
        atk.defender = target
        g = self.game
        atk.round = g.state.round
        action.attacks.append(atk)
        self.history.append(atk)
        self.bar_statics(atk, g)
        return atk

    def bar_statics(self, atk: Attack, g: Optional["Game"] = None) -> None:
        """The statics written in the attack's own bar, read as the individual attack is made: its X
        (`set_x`) and the attack traits it gains (`attack_gains`, `this gains`); a gained shape trait
        (Doublestrike...) reshapes the action (engine/barclauses.py).  `g`: the game, when the caller
        has it in hand."""
        action = atk.action
        if not action.definition.abilities:
            return  # a bar stating nothing has no statics: no X to set, no trait to gain
        if g is None:
            g = self.game
        try:
            if len(action.attacks) == 1:  # the action's X is worked out once, at its first attack
                barclauses.set_x(g, action, atk.target)
            for t in barclauses.gained_traits(g, atk):
                atk.gained.append(t)
                g.emit("modifier", f"the attack gains {t} ({action.definition.name}'s own rule)")
                self.shape_one(action, t, g)
        except Exception as e:  # a value or phrase the engine cannot read: say so, never guess
            g.note_unsupported(f"attack bar {action.definition.name}", str(e))

    def target_sequence(self, action: AttackAction, target, source=None) -> None:
        """The attacks of an action against one target: its column of the chart, once per strike."""
        if action.canceled:
            return
        n = None
        if action.definition.abilities:  # (a bar stating nothing sets no strikes: no probe attack to make)
            try:
                n = barclauses.strikes(self.game, Attack(action, action.attacker, source or action.source, target))
            except Exception as e:  # a value the engine cannot read: said, never guessed
                self.game.note_unsupported(f"attack bar {action.definition.name}: set_stat", str(e))
                n = None
        if n is not None and n <= 0:
            self.game.emit("rule", f"{action.definition.name} makes no attack against {target.label()} "
                                   f"({action.definition.name}'s own rule)")
            return
        if n is not None and n > 1:
            self.game.emit("rule", f"{action.definition.name} strikes {target.label()} {n} times "
                                   f"({action.definition.name}'s own rule)")
        atk = self._new(action, target, 1, source)
        seq = Sequence(action, atk, target, source, attacks=[atk])
        if n is None or "additional_strikes" in seq.column.steps:
            if n is not None:
                action.strikes = n
            self.run_sequence(seq)
            return
        # a column without additional strikes (a passage attack): each strike is an attack of its own
        self.run_sequence(seq)
        for _ in range(n - 1):
            if action.canceled or not target.in_play:
                return
            atk = self._new(action, target, 1, source)
            self.run_sequence(Sequence(action, atk, target, source, attacks=[atk]))

    def zone_sequence(self, action: AttackAction, zone: str) -> None:
        """A zone attack: declared against the zone, then one attack against each object in it."""
        g = self.game
        action.zone = zone
        g.emit("info", f"zone attack against zone {zone}")
        objs = []
        for o in g.state.objects_in_zone(zone):
            if o.kind in ("creature", "mage", "magestats", "conjuration", "terrain", "vine") and o.card.life is not None:
                objs.append(o)
                # a conjuration attached to an object in the zone is in the zone too (Tanglevine)
                objs.extend(a for a in g.state.attachments(o)
                            if a.kind in ("conjuration", "vine") and a.card.life is not None and a.in_play)
        for o in objs:  # an attacker barred from attacking an object there may not aim a zone attack at it (Charm)
            why = forbidden(g, action.attacker, ("attack",), target=o,
                            attack=Attack(action, action.attacker, action.source, o))
            if why:
                g.emit("canceled", f"{action.attacker.label()} may not declare a zone attack against zone {zone}: "
                                   f"{why}", why=why)
                return
        for o in list(objs):  # objects immune to the attacking card, or that it cannot attack, are not attacked
            why = g.immune_to_source(o, action.spell or action.source) or forbidden(
                g, o, ("be_attacked",), target=o, attack=Attack(action, action.attacker, action.source, o),
                by=action.spell or action.source) or self._unaffected_by_bar(o, action)
            if why:
                g.emit("immune", why)
                objs.remove(o)
        if not objs:
            g.emit("rule", f"no object in zone {zone} can be attacked")
            return
        self.run_sequence(Sequence(action, self._new(action, objs[0], 1), objs[0], remaining=list(objs)))

    def _unaffected_by_bar(self, obj, action: AttackAction) -> Optional[str]:
        """`immune(this, "BAR")` / `immune(this, "its own BAR")`: an object unaffected by an attack bar
        (a zone attacker standing in the zone it attacks) is not one of that zone attack's objects."""
        name = action.definition.name
        cant = self.game.d(obj).cannot_do
        if f"be affected by {name}" in cant or (obj is action.attacker and f"be affected by its own {name}" in cant):
            return f"{obj.label()} is not affected by {name}"
        return None

    def roll_on(self, action: AttackAction, zone: Optional[str]) -> None:
        """A zone attack whose bar states `static zone_attack_rolls_on()` (a wave): once its zone is
        attacked, its attacker's controller picks an orthogonal direction, and the attack goes on into
        the next zone that way, then the next, to the arena's edge (one zone attack each; an object
        pushed into a zone still ahead is attacked there again)."""
        g = self.game
        if action.canceled or not zone or not barclauses.rolls_on(action.definition):
            return
        arena = g.state.arena

        def ahead(z: str, way: str) -> Optional[str]:
            r, c = arena.coords(z)
            dr, dc = movement.DIRECTIONS[way]
            nr, nc = r + dr, c + dc
            return f"{ROW_LETTERS[nr]}{nc + 1}" if 0 <= nr < arena.rows and 0 <= nc < arena.cols else None

        ways = [w for w in movement.DIRECTIONS if ahead(zone, w) is not None]
        if not ways:
            return
        way = ways[0] if len(ways) == 1 else g.decide(
            "target", action.attacker.controller, [Option(f"{w} ({ahead(zone, w)})", w) for w in ways],
            prompt=f"which way does {action.definition.name} roll on from {zone}?", default=0).value
        nxt = ahead(zone, way)
        while nxt is not None and not action.canceled:
            g.emit("rule", f"{action.definition.name} rolls on {way} into zone {nxt}")
            self.zone_sequence(action, nxt)
            nxt = ahead(nxt, way)

    def run_sequence(self, seq: Sequence) -> None:
        """Walk the attack's column of the chart (STEP_ORDER): take each step that applies to the
        attack in hand, then go where the step says (the next step, back for another strike or
        object, straight to Attack Ends, or nowhere)."""
        steps = seq.column.steps
        g = self.game  # (a call through the weak link: read once per sequence, handed to each step)
        i, n = 0, len(steps)
        while i < n:
            st = STEPS[steps[i]]
            skips = st.skips  # (the statuses that skip it, or None: its own `applies` decides)
            if (seq.atk.status not in skips) if skips is not None else st.applies(self, seq):
                self.step(st, seq.atk, g)
            nxt = st.then(self, seq) if st.routes else None
            if nxt is None:
                i += 1
            elif nxt == END:
                return
            else:
                i = steps.index(nxt)

    def step(self, st: Step, atk: Attack, g: Optional["Game"] = None) -> None:
        """Take one step: its title, the codex's `attack_step` triggers, its work, a state check and
        the reveal window after it.  A trigger that cancels the attack ends the step at once unless
        the step settles canceled attacks too.  `g`: the engine's game, when the caller has it in hand."""
        if g is None:
            g = self.game
        key = st.key
        g.emit_data("step", st.title, {"step": key, "attack": atk.action.definition.name, "target": atk.target.id})
        atk.reached.add(key)
        g.log.depth += 1
        g._current_attack = atk  # (current_attack's store: its setter is a call per step for one assignment)
        self.current_step = key
        try:
            if atk.status != "canceled":
                subject = atk.defender or atk.target
                if not g.unheard("attack_step", subject, atk, (), key):  # (known unheard: no context to build)
                    g.fire_heard("attack_step", subject, Ctx(attack=atk), step=key)
            if atk.status == "canceled" and not st.after_cancel:
                return
            st.run(self, atk, g)
            if g._checked_version != g.state.version:  # (check_state's own first test, without its call)
                g.check_state()
            if atk.status != "canceled":
                g.reveals.window(key, atk, g)
                if g._checked_version != g.state.version:
                    g.check_state()
            if atk.status == "declared" and atk.action.holds_while is not None:
                why = atk.action.holds_while()
                if why:
                    self.cancel(atk, why)
        finally:
            g.log.depth -= 1

    def chain(self, action: AttackAction, source, target, x: int) -> None:
        """Another attack of the same attack action from a new source (e.g. a chaining attack spell)."""
        g = self.game
        action.x = x
        g.emit("rule", f"another attack as part of the same attack action: source {source.label()}, "
                       f"target {target.label()}" + (f" (X = {x})" if x else ""))
        g.log.depth += 1
        try:
            self.target_sequence(action, target, source=source)
        finally:
            g.log.depth -= 1

    # ------------------------------------------------------------ rules used by steps
    def is_self_attack(self, atk: Attack) -> bool:
        t, a = atk.defender or atk.target, atk.attacker
        return t is a or t.attached_to == a.id

    def los_reason(self, atk: Attack) -> Optional[str]:
        """Why a ranged attack (not a zone attack) has no line of sight to its target (None: it has one):
        a wall that blocks line of sight stands between, and no trait of the attack or of the attacker
        says walls do not block it (codex_rules.ignores_los_walls: Indirect)."""
        action = atk.action
        if action.kind != "ranged" or action.is_zone or action.is_barrier or action.is_counterstrike:
            return None
        g, t = self.game, atk.target
        if not g.state.zone_of(atk.source) or not (g.state.zone_of(t) or getattr(t, "border", None)) \
                or in_los(g, atk.source, t):  # a wall: line of sight to the middle of its border
            return None
        if ignores_los_walls(g, atk.attacker, (*atk.traits, *atk.gained)) \
                and in_los(g, atk.source, t, ignore_walls=True):
            return None
        return f"no line of sight from {atk.source.label()} to {t.label()} (Rules: Line of Sight)"

    def illegal_reason(self, atk: Attack, at_declaration: bool = True, los: bool = True,
                       g: Optional["Game"] = None) -> Optional[str]:
        if g is None:  # (`g`: the game, when the caller has it in hand: self.game is a call through a weak link)
            g = self.game
        t, a, action = atk.target, atk.attacker, atk.action
        if not t.in_play:
            return "not in play"
        if t.card.life is None and g.life(t) is None and not barclauses.effects(g, atk)[1]:
            # an enchantment, equipment, a spell: nothing to damage (an attack whose `effect:` replaces
            # its damage, such as Disenchant, may still aim at one)
            return f"{t.public_label()} has no life: only objects with life can be attacked"
        if t.id in action.illegal:
            return "no longer a legal target for this action"
        for o in (t, a):  # in play but out of the arena (Banish): out of everyone's range and sight
            if getattr(o, "outside", None) is not None:
                return f"{o.label()} is outside the arena: out of range and line of sight"
        if action.is_barrier or action.is_counterstrike:
            return None
        immune = g.immune_to_source(t, action.spell or atk.source) or barclauses.immune_to_bar(g, atk)
        if immune:
            return immune
        why = attack_forbidden(g, atk)  # `static cannot(...)` of the cards in play
        if why:
            return why
        # the bar's own clauses: its restrictions, the target its effect names, once per round
        why = barclauses.forbids(g, atk) or barclauses.effect_target_reason(g, atk) or (
            barclauses.used_up(g, atk) if at_declaration else None)
        if why:
            return why
        if at_declaration and action.max_targets > 1:
            why = self.declaration_changes(atk)
            if why:
                return why
        for (detail, label) in g.effects.derived(t).cannot_be_attacked:
            words = detail.lower().split()
            # a zone attack targets no object: only a restriction naming zone attacks stops it
            if not words or (action.kind in words and not action.is_zone) or ("zone" in words and action.is_zone):
                return f"{t.label()} cannot be attacked{(' by ' + detail) if detail else ''} ({label})"
        if g.is_creature(a) and a.in_play and "attack" in g.effects.derived(a).cannot_do and not action.spell:
            return f"{a.label()} cannot attack"
        if action.kind == "ranged" and not action.is_zone and action.definition.range:
            lo, hi = action.definition.range
            hi += extracost.bought_range(g, action.spell)  # range the spell's caster paid to extend
            zs, zt = g.state.zone_of(atk.source), g.state.zone_of(t)
            if zs and zt is None and getattr(t, "border", None):
                # a wall: in range of at least one of the two zones it borders (Rules, Walls)
                zt = min(t.border, key=lambda z: g.state.arena.distance(zs, z))
            if zs and zt:
                dist = g.state.arena.distance(zs, zt)
                if dist == 0 and ignores_minimum_range(g, atk.source, t):
                    lo = 0
                if not lo <= dist <= hi:
                    return f"out of range: {dist} zone(s), the attack's range is {lo}-{hi}"
            why = self.los_reason(atk) if los and at_declaration else None
            if why:
                return why
        for (oid, what, detail, src_id, rnd) in g.restrictions:
            if oid == a.id and what == "attack" and rnd == g.state.round:
                src = g.state.objects.get(src_id)
                host = g.state.host(src) if src is not None else None
                aimed = detail[len("target="):] if detail.startswith("target=") else None
                if (aimed is not None and aimed == t.id) or (aimed is None and (
                        host is t or ("bearer" not in detail and "enchanted" not in detail))):
                    return f"it cannot attack {t.label()} this round ({src.label() if src else 'an effect'})"
        if action.kind == "melee":
            za, zt = g.state.zone_of(a), g.state.zone_of(t)
            if za != zt:
                return f"melee needs the same zone ({za} vs {zt})"
            if self.is_self_attack(atk):
                return None
            why = melee_restriction(g, a, t, (*action.traits, *atk.gained))
            if why:
                return why
            if not t.guard and at_declaration:  # guards are checked only when the attack is declared
                guard = None  # the first enemy guard of the zone (a loop: no list made at each declaration)
                for o in g.state.objects_in_zone(zt):
                    if o.guard and o.controller != a.controller and "force attacks" not in g.d(o).cannot_do:
                        guard = o
                        break
                if guard is not None and "ignore guards" not in g.d(a).can_do \
                        and not permits(g, "ignore guards", a, t, attack=atk):  # a card in play may let it
                    return f"an enemy guard ({guard.label()}) protects the zone"
        return None

    def cancel(self, atk: Attack, why: str, before_declared: bool = False) -> None:
        g = self.game
        if atk.status == "canceled":
            return
        atk.status = "canceled"
        g.emit("canceled", f"the attack is canceled: {why}", why=why)
        if not before_declared and atk.engaged and atk.action.kind == "melee" and not self.is_self_attack(atk):
            # an attack canceled before its declaration is complete never engaged the guard
            self.remove_guard(atk)

    def avoid(self, atk: Attack, why: str) -> None:
        g = self.game
        if atk.action.unavoidable:
            g.emit("rule", f"{why}: the attack is unavoidable — it cannot be avoided")
            return
        if atk.status in ("declared",):
            atk.status = "avoided"
            g.emit("avoided", f"the attack is avoided ({why})")
            g.fire("avoided", atk.target, Ctx(attack=atk, it=atk.target))

    def redirect(self, atk: Attack, to, why: str, new_source=None) -> None:
        g = self.game
        intercepting = to is not None and to is new_source and to is not atk.target
        if atk.action.unavoidable and not intercepting:
            # an object taking the attack over itself (Intercept) changes its target, which an
            # Unavoidable attack allows; only avoiding it and sending it elsewhere is stopped
            g.emit("rule", f"{why}: the attack is unavoidable — it cannot be redirected")
            return
        if to is None:
            return
        if to is atk.attacker and not g.is_creature(to) and not intercepting:
            # turned back on an attacker that is not a creature (a Vine marker, an Autonomous weapon): it
            # would attack itself, which has no effect: the attack is only avoided
            if atk.status in ("declared",):
                atk.status = "avoided"
            g.emit("avoided", f"the attack is avoided ({why}); turned back on {to.label()}, which is not a "
                              f"creature, it would attack itself: no effect")
            return
        old = atk.target
        atk.status = "avoided"
        atk.redirected = True
        atk.defender = old
        atk.target = to
        if new_source is not None:
            host = g.state.host(new_source) if new_source.attached_to else new_source
            atk.source = host or new_source
        g.emit("avoided", f"the attack on {old.label()} is avoided and redirected to {to.label()} "
                          f"(source now {atk.source.label()}; attacker still {atk.attacker.label()}) by {why}")
        if to is new_source and to is not old:  # it took over an attack aimed at another: it intercepts
            g.fire("intercepts", to, Ctx(attack=atk, it=to))

    def unanswered(self, atk: Attack, g: Optional["Game"] = None) -> Optional[str]:
        """The trait of the attacking object stating `static attacks_unanswered()` (Autonomous): its attacks
        trigger no counterstrike or damage barrier and remove no guard marker (None: they do)."""
        a = atk.attacker
        if a is None or not a.in_play:
            return None
        if g is None:  # (`g`: the game, when the caller has it in hand)
            g = self.game
        stating = entries_stating(g, ATTACKS_UNANSWERED)  # (None: this game's codex is its own)
        for k in g.effects.derived(a).traits:  # (a loop, not next() over a generator: asked by two steps)
            if (k in stating) if stating is not None else g.codex_statics(k, ATTACKS_UNANSWERED):
                return k
        return None

    def remove_guard(self, atk: Attack) -> None:
        t = atk.defender or atk.target
        if not t.guard:
            return  # no guard marker to lose (whether the attacker's attacks go unanswered is not asked)
        why = self.unanswered(atk)
        if why:
            self.game.emit("rule", f"{t.label()} keeps its guard marker: the attacker is {why}")
            return
        t.guard = False
        self.game.state.touch_light()  # (the guard marker: a light field)
        self.game.emit("marker", f"{t.label()} loses its guard marker")

    def bar_mods(self, atk: Attack, fn: str) -> list:
        """`static modify_dice(...)` / `static modify_effect_roll(...)` written inside the attack bar."""
        out = []
        for ab in atk.action.definition.abilities:
            if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name == fn:
                ctx = Ctx(this=atk.action.spell or atk.attacker, attack=atk)
                # the action's X; a bar of an object whose X is its own (Temple of Light): that X,
                # as for its dice
                ctx.extra["x"] = atk.action.x if atk.action.x or atk.action.spell else \
                    self.game.x_value(atk.attacker)
                if ab.guard is not None and not self.game.evaluate(ab.guard, ctx):
                    continue
                arg = ab.effect.args[0].value if ab.effect.args else 0
                n = self.game.evaluate(arg, ctx)
                if n:
                    out.append((f"{atk.action.definition.name}'s own rule (X={ctx.extra['x']})", n))
        return out

    def damage_from(self, atk: Attack, normal: int, crit: int, ones: int, armor: int, emit=None) -> int:
        """The damage an individual attack deals for dice showing `normal` normal and `crit` critical
        damage (`ones`: how many dice show a 1, counted when only the 1s count) against a target of
        `armor`, under every rule the attack record carries (only 1s, critical counted as normal, all
        critical, normal ignored, Piercing, damage added, damage prevented).  The Damage and Effects
        step uses it (with `emit`, which logs each rule applied); it changes nothing, so it also
        answers "what would this roll deal?" (magewars odds)."""
        if atk.only_ones:
            if emit:
                emit("rule", f"only the 1s count against {atk.target.label()} ({ones} damage), and the attack "
                             f"places no effects")
            normal, crit = 0, ones
        if atk.convert_critical and crit:
            n = min(crit, atk.convert_critical)
            crit, normal = crit - n, normal + n
            if emit:
                emit("rule", f"{n} critical damage counts as normal damage")
        if atk.all_critical:
            crit, normal = crit + normal, 0
            if emit:
                emit("rule", "all damage of this attack is critical")
        if atk.ignore_normal and normal:
            if emit:
                emit("rule", f"{atk.target.label()} ignores {normal} normal damage")
            normal = 0
        eff_armor = armor
        if atk.pierce and armor:
            eff_armor = max(0, armor - atk.pierce)
            if emit:
                emit("modifier", f"{', '.join(atk.pierce_by)}: armor {armor} counts as {eff_armor}",
                     source=", ".join(atk.pierce_by), amount=atk.pierce, applies="armor")
        through = normal - eff_armor if normal > eff_armor else 0
        dmg = through + crit
        for (lbl, amount) in atk.extra_damage:
            dmg = max(0, dmg + amount)
            if emit:
                emit("modifier", f"{amount:+d} damage: {lbl}", source=lbl, amount=amount, applies="damage")
        if emit:
            emit("info", f"damage: {normal} normal - armor {eff_armor} = {through}, + {crit} critical = {dmg}",
                 normal=normal, armor=eff_armor, critical=crit, damage=dmg)
        if atk.prevent != -1 and dmg:
            prevented = dmg if atk.prevent is None else min(dmg, atk.prevent)
            dmg -= prevented
            if emit:
                emit("rule", f"{prevented} damage prevented by {atk.prevent_source}")
        return dmg

    def count_faces(self, atk: Attack) -> None:
        normal = crit = 0  # (one pass over the faces, no generators)
        for f in atk.faces:
            if f.critical:
                crit += f.value
            else:
                normal += f.value
        atk.normal = normal
        atk.crit = crit

    def reroll(self, atk: Attack, why: str, what: str = "attack dice") -> None:
        g = self.game
        if what == "effect die":
            atk.effect_natural = g.dice.d12()
            g.emit("roll", f"reroll of the effect die ({why}): {atk.effect_natural}", d12=atk.effect_natural)
            return
        if what == "roll to miss":
            atk.miss_roll = g.dice.d12()
            g.emit("roll", f"reroll of the roll to miss ({why}): {atk.miss_roll}", d12=atk.miss_roll)
            return
        if not atk.faces:
            g.emit("rule", f"{why}: no attack dice have been rolled yet — nothing to reroll")
            return
        atk.faces = g.dice.attack(len(atk.faces))
        self.count_faces(atk)
        g.emit("roll", f"reroll ({why}): {' '.join(map(str, atk.faces))} = {atk.normal} normal + {atk.crit} critical",
               faces=[str(f) for f in atk.faces])

    def offer_reroll(self, atk: Attack, what: str) -> bool:
        """Offer pending rerolls (from abilities that allow one) right after a roll."""
        if not atk.reroll_offers:  # (the usual case: nothing offers one)
            return False
        g = self.game
        used = False
        for offer in list(atk.reroll_offers):
            src, kind, once = offer
            if kind != what:
                continue
            if once is not None and once[1] in once[0].uses:
                atk.reroll_offers.remove(offer)
                continue
            ch = g.decide("reroll", src.controller, [Option("keep"), Option("reroll", True)],
                          prompt=f"reroll the {what} with {src.label()}?", default=0, step="roll")
            if ch.value:
                atk.reroll_offers.remove(offer)
                if once is not None:
                    once[0].uses.add(once[1])
                self.reroll(atk, src.label(), what)
                used = True
        return used

    def could_attack(self, attacker, target, current=None, attack_name: Optional[str] = None) -> bool:
        """Would `target` be a legal target of the current attack, or (outside an attack) of an attack the
        attacker could make with that bar (its first without a name)?  Used to offer choices."""
        if current is None:
            if target is attacker:
                return False
            try:
                adef, src = self.find_attack(attacker, attack_name)
            except KeyError:
                return True  # no bar to probe with: the attack's own declaration says whether it is legal
            action = AttackAction(attacker, adef, src, tuple(adef.traits), adef.kind)
            return self.illegal_reason(Attack(action, attacker, src, target)) is None
        probe = Attack(current.action, attacker, current.source, target)
        return target is not current.target and self.illegal_reason(probe) is None

    def apply_next_attack(self, atk: Attack) -> None:
        """`next_attack_gains(...)` effects waiting for this attacker's next attack this round: the
        first that fits (kind, counterstrike, against, provided) is used up by this attack, whose
        traits it gains until the attack ends (attack traits on the attack, others on the attacker)."""
        if not self.pending_next:  # (the usual case: nothing waits; no kinds to work out)
            return
        g = self.game
        kinds = atk.kinds()
        for p in list(self.pending_next):
            if p["round"] != g.state.round:
                self.pending_next.remove(p)  # "this round" is over
                continue
            if p["who"] != atk.attacker.id or (atk.action.is_counterstrike and not p["counterstrike"]):
                continue
            if p["kind"] and p["kind"] not in kinds:
                continue
            ctx = Ctx(this=p["this"], attack=atk, it=atk.attacker, target=atk.target)
            try:
                if p["against"] is not None and not matches(g, atk.target, p["against"], ctx):
                    continue
                if p["provided"] is not None and not g.evaluate(p["provided"], ctx):
                    continue
                dice = g.evaluate(p["dice"], ctx) if p["dice"] is not None else 0
            except Exception as e:  # a condition the engine cannot read: say so, never guess
                g.note_unsupported("next_attack_gains", f"{p['src']}: {e}")
                continue
            self.pending_next.remove(p)
            for ref in p["traits"].traits:
                t = TraitInstance(ref.name.text, ref.param.signed_value() if ref.param else None, None, (), ref.text)
                entry = g.codex.get(t.key)
                if entry is not None and "Attack" in entry.categories:
                    atk.gained.append(t)
                else:  # a trait of the attacker (Melee +2): it has it until this attack ends
                    g.effects.temporary.append((g.state.next_timestamp(), p["src"], atk.attacker.id,
                                                A.Gain(A.Phrase((A.Word("it", "word"),)), A.TraitGroup((ref,))),
                                                self.duration_key(atk)))
                    g.state.touch()
            if dice:
                atk.extra_dice.append((p["src"], dice, 0))
            g.emit("modifier", f"this attack gains {', '.join(r.text for r in p['traits'].traits)}"
                               + (f" and {dice:+d} dice" if dice else "") + f" ({p['src']}: its next attack)")
            return

    def follow_up(self, action: AttackAction) -> None:
        """`follow_up_attack(...)` waiting for this attacker's attack action: the first that fits is
        used up, and the attacker may make one more attack of its kind (one of its bars of that speed
        and kind, at a legal target) within the same action (engine/attackeffects.py)."""
        if not self.pending_follow:  # (the usual case: nothing waits; no kinds to work out)
            return
        g, who = self.game, action.attacker
        kinds = action.attacks[0].kinds()
        for p in list(self.pending_follow):
            if p["round"] != g.state.round:
                self.pending_follow.remove(p)
                continue
            if p["who"] != who.id or p["kind"] not in kinds:
                continue
            self.pending_follow.remove(p)
            if action.is_counterstrike and not p["counterstrike"]:  # the next such attack was a counterstrike:
                g.emit("rule", f"{p['src']} is used up: the next {p['kind']} attack was a counterstrike")
                return  # the effect is spent without a follow-up (supplement: Battle Fury)
            if not who.in_play:
                return
            opts = []
            for (adef, src_id) in g.d(who).attacks:
                if adef.action != p["speed"] or adef.kind != p["attack_kind"]:
                    continue
                probe_action = AttackAction(who, adef, who, tuple(adef.traits), adef.kind)
                probe_action.owner = g.state.objects.get(src_id)
                for t in g.state.in_play():
                    if t is who or g.life(t) is None or t.zone is None:
                        continue
                    if self.illegal_reason(Attack(probe_action, who, who, t)) is None:
                        opts.append(Option(f"{adef.name} at {t.label()}", (adef, src_id, t)))
            if not opts:
                g.emit("rule", f"{p['src']}: no legal follow-up attack")
                return
            ch = g.decide("target", who.controller, opts + [Option("no follow-up")],
                          prompt=f"one more {p['speed']} {p['attack_kind']} attack ({p['src']})?", default=0)
            if ch.value is None:
                return
            adef, src_id, t = ch.value
            g.emit("rule", f"{who.label()} makes one more attack within the same attack action ({p['src']})")
            extra = AttackAction(who, adef, who, tuple(adef.traits), adef.kind)
            extra.owner = g.state.objects.get(src_id)
            extra.first_done = True  # not the first attack of the attack action
            extra.bonus_used = action.bonus_used  # the same attack action: Melee +X was its first attack's
            extra.answered = action.answered  # no second barrier or counterstrike from the same defender
            self.run_action(extra, [t])
            return

    def apply_enhance(self, atk: Attack) -> None:
        """`enhance_attack(...)` waiting for this attacker's next attack of a kind this round, made with
        a bar of no damage type and no effect roll: the attack takes on the damage type, effect roll and
        traits of the bar the effect names (engine/attackeffects.py)."""
        if not self.pending_enhance:
            return
        g, a = self.game, atk.action
        for p in list(self.pending_enhance):
            if p["round"] != g.state.round:
                self.pending_enhance.remove(p)
                continue
            if p["who"] != atk.attacker.id or p["kind"] not in atk.kinds() \
                    or a.definition.damage_type is not None or a.definition.effect_die:
                continue
            self.pending_enhance.remove(p)
            bar = p["bar"]
            a.definition = replace(a.definition, damage_type=bar.damage_type, effect_die=bar.effect_die,
                                   traits=tuple(a.definition.traits) + tuple(bar.traits))
            for t in bar.traits:
                if not a.has_trait(t.key):
                    a.traits = tuple(a.traits) + (t,)
                    self.shape_one(a, t)
            g.emit("modifier", f"this attack takes on {bar.name}: damage {bar.damage_type or 'none'}, its effect "
                               f"roll" + (f" and {', '.join(map(str, bar.traits))}" if bar.traits else "")
                               + f" ({p['src']})")
            return

    @staticmethod
    def action_duration_key(atk: Attack) -> str:
        """How an effect lasting "until end of attack action" names the attack action it ends with."""
        return f"attack_action#{id(atk.action)}"

    def end_action_effects(self, action: AttackAction, g: Optional["Game"] = None) -> None:
        """The attack action is over: effects made during it "until end of attack action" end.  `g`: the
        game, when the caller has it in hand."""
        if g is None:
            g = self.game
        if not g.effects.temporary:
            return
        ending = {"attack_action", f"attack_action#{id(action)}"}
        gone = [t for t in g.effects.temporary if t[4] in ending]
        if gone:
            g.effects.temporary = [t for t in g.effects.temporary if t[4] not in ending]
            g.state.touch()
            g.emit("rule", "until end of attack action: " + "; ".join(
                f"{g.state.objects[t[2]].label() if t[2] in g.state.objects else t[2]} ends ({t[1]})" for t in gone))

    def declaration_changes(self, atk: Attack) -> Optional[str]:
        """A later target of a multiple-target action (Sweeping) must be attackable as the action was
        declared: what the attacker's declaration did (abilities triggered on declaring the attack,
        which fire once per action) cannot change in the middle of the action.  Why this target would
        need a different declaration, or None (Codex: Sweeping, a Flying attacker's targets)."""
        g, a = self.game, atk.action
        first = a.attacks[0] if a.attacks else atk
        head = first.defender or first.target
        if first is atk or head is atk.target:
            return None
        kinds = first.kinds()
        info = {"actions": frozenset({"attack"} | {f"{k}_attack" for k in ("melee", "ranged") if k in kinds})}
        rules, pending = g._listening("declares", atk.attacker, ())
        for (src, _ab, inner, _x, _label) in list(rules) + list(pending):
            got = []
            for t in (head, atk.target):
                ctx = Ctx(attack=atk, it=atk.attacker, target=t)
                try:
                    fires = g.event_matches(inner.event, src, atk.attacker, ctx, info) and (
                        inner.guard is None or bool(g.evaluate(inner.guard, Ctx(this=src, attack=atk,
                                                                                 it=atk.attacker, target=t))))
                except Exception:  # a condition the engine cannot read is reported where it runs
                    fires = None
                got.append(fires)
            if None not in got and got[0] != got[1]:
                name = g.rule_of(inner) or src.label()
                did = "triggered" if got[0] else "did not trigger"
                would = "would not" if got[0] else "would"
                return (f"{name} {did} when the attack on {head.label()} was declared and {would} against "
                        f"{atk.target.label()}: what the declaration did cannot change in the middle of an "
                        f"attack action")
        return None

    @staticmethod
    def duration_key(atk: Attack) -> str:
        """How an effect lasting "until end of attack" names the attack it ends with."""
        return f"attack#{id(atk)}"

    def end_attack_effects(self, atk: Attack, g: Optional["Game"] = None) -> None:
        """The attack ends: effects made during it "until end of attack" end (and any such effect made
        outside an attack ends with the next attack).  `g`: the game, when the caller has it in hand."""
        if g is None:
            g = self.game
        if not g.effects.temporary:  # nothing lasts until the end of anything: nothing to end
            return
        ending = {"attack", self.duration_key(atk)} | {self.duration_key(a) for a in atk.action.attacks}
        gone = [t for t in g.effects.temporary if any(ends_at(t[4], e) for e in ending)]
        if gone:
            g.effects.temporary = [t for t in g.effects.temporary if t not in gone]
            g.state.touch()
            g.emit("rule", "until end of attack: " + "; ".join(
                f"{g.state.objects[t[2]].label() if t[2] in g.state.objects else t[2]} ends ({t[1]})" for t in gone))
