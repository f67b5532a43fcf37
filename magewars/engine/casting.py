"""Casting a spell: the casting sequence as a table of steps (rulebook: Casting Spells).

    declare_spell       the spell, its targets (range and line of sight from the caster, a legal
                        target for the spell's target phrase), X; every restriction is checked here;
                        a target out of range may be reached through a `sacrifice_for_range(...)`
                        in play (engine/extracost.py), when the caster sees an object it may destroy
    pay_spell_costs     the casting cost (an enchantment pays only its casting cost now, and its
                        reveal cost when it is revealed: engine/reveal.py), changed by `costs(...)`;
                        the object destroyed as an additional cost to reach a target beyond range
    counter_spell_step  mandatory reveals `during counter_spell_step`; counterspell effects cancel
    resolve_spell       a spell that lost its target is canceled (its costs are lost); otherwise it
                        resolves: an incantation's effect runs, an attack spell's attack enters the
                        attack sequence, a creature or conjuration is placed (engine/placement.py)

A reveal window follows each step (engine/reveal.py `Reveals.window`).  `cast_spell` checks the
whole declaration first and raises `IllegalCast` (naming the rule) before anything changes.
`legal_casts` lists what an agent may choose.  No card or trait is known here by name: the
restrictions come from codex statics (`spellbook_only`, `copies_in_play`, `zone_limit`...).
"""
from __future__ import annotations

from dataclasses import field
from typing import Optional, Sequence

from ..dsl import ast as A
from ..dsl.model import CardDefinition
# the casting sequence, in order (rulebook: Casting Spells; a reveal window follows each step), and the
# steps' titles: the language's own tables
from ..dsl.vocab import CAST_STEPS, STEP_TITLES
from .actions import CastChoice
from .cardindex import per_definition
from .errors import EngineError
from .phrases import Ctx, matches
from .state import GameObject, new_spell_id
from . import decisionmemo as DM
from . import placement as P
from . import restrictions as R
from .spellstatics import CAST_AS, SET_X
from . import manasupply as MS
from . import extracost as EC
from . import castlimit as CL
from ..dsl.frozen import light_dataclass  # @dataclass, made without compiling source text

#: card kinds that stay in play when they resolve (placed by engine/placement.py)
PERMANENT_KINDS = frozenset({"creature", "conjuration", "wall", "terrain", "vine", "enchantment", "equipment"})
#: card kinds a caster can cast at all (mages and stats cards are not spells)
SPELL_KINDS = PERMANENT_KINDS | {"incantation", "attack"}


class IllegalCast(EngineError):
    """A cast the rules refuse; raised before anything changes.  `.rule` names the rule broken."""

    def __init__(self, rule: str, message: str):
        self.rule = rule
        self.detail = message
        super().__init__(f"Casting: {message} [rule: {rule}]")


@light_dataclass(eq=False)
class Casting:
    """One spell being cast.  It offers the fields an attack offers to reveal rules and event
    matching (`attacker`, `source`, `target`, `events`...), so a `reveal must on targeted(...)
    during counter_spell_step` rule is checked the way an attack's reveal rules are."""
    caster: GameObject
    card: CardDefinition
    spell: Optional[GameObject] = None
    targets: tuple = ()  # objects
    zone: Optional[str] = None  # a zone, or a border "B2/B3"
    face_down: bool = False
    x: Optional[int] = None
    cost: int = 0
    paid: int = 0
    status: str = "declared"  # declared | canceled | countered | resolved
    bound_to: Optional[GameObject] = None  # the object the spell is bound to (it stays there)
    why: str = ""
    events: set = field(default_factory=set)
    result: object = None
    redirected: bool = False  # its target was changed as it was cast (redirect): range no longer applies
    remade: bool = False  # taken over as it was cast: its new controller may remake its choices (take_over)
    # cast beyond its range by destroying one of these objects as an additional cost (extracost.py
    # sacrifice_for_range), and the zones whose range no longer counts once one was destroyed
    sacrifice: tuple = ()
    reached: frozenset = frozenset()
    # zones added to its maximum range with mana paid as an additional cost (extracost.py range_for_mana):
    # (zones, mana, the card stating it), or None
    bought: Optional[tuple] = None

    # --- the attack-shaped view the reveal windows and event matching read
    @property
    def attacker(self):
        return self.caster

    @property
    def source(self):
        return self.spell

    @property
    def target(self):
        return self.targets[0] if self.targets else None

    def has_trait(self, key: str) -> bool:
        """A spell being cast is not an attack: it has no attack traits (`attack_is(...)` is false)."""
        return False

    defender = None
    is_casting = True
    traits = ()  # no attack traits (Game.attack_listeners reads these of the event's attack)
    gained = ()

    @property
    def declared(self) -> str:
        """The action declared, as `declares(..., "quick_spell")` names it."""
        return f"{self.card.action or 'full'}_spell"

    @property
    def action(self):
        return self

    @property
    def definition(self):
        return self.card

    def kinds(self) -> frozenset:
        return frozenset()

    def cancel(self, why: str, status: str = "canceled") -> None:
        if self.status in ("declared",):
            self.status = status
            self.why = why


# ---------------------------------------------------------------- line of sight
_IN_LOS: list = []  # [movement.in_los or None], looked up once


def line_of_sight(game, a: str, b: str) -> bool:
    """Whether zone `b` is in line of sight of zone `a`: asked of the movement module when it
    offers `in_los`, else worked out here from the walls that block line of sight."""
    if not _IN_LOS:
        try:
            from .movement import in_los  # engine/movement.py (movement engineer)
        except ImportError:
            in_los = None
        _IN_LOS.append(in_los)
    if _IN_LOS[0] is None:
        return P.zone_los(game, a, b)
    return _IN_LOS[0](game, a, b)


# ---------------------------------------------------------------- the cost
def x_cost(amount, x: Optional[int]) -> int:
    if amount is None:
        return 0
    if isinstance(amount, int):
        return amount
    return (x or 0) * getattr(amount, "coef", 1)


def printed_cost(card: CardDefinition, x: Optional[int] = None) -> int:
    """The printed casting cost (X counted): an attack spell printing none costs its attack bar's cost."""
    if card.cast_cost is None and card.attacks and card.attacks[0].cost is not None:
        return x_cost(card.attacks[0].cost, x)
    return x_cost(card.cast_cost, x)


def casting_cost(game, caster: GameObject, card: CardDefinition, targets=(), x: Optional[int] = None,
                 spell: Optional[GameObject] = None, zone: Optional[str] = None) -> tuple[int, list[str]]:
    """What casting costs now: the printed casting cost (X counted), changed by `costs(...)` statics
    of objects in play (their `only`, `on`, `by`, `minimum`, `into` honoured: `zone` is the zone the spell
    is cast into, when it targets one).  Returns (cost, reasons)."""
    base = printed_cost(card, x)
    total, why = base, []
    probe = spell or P.probe(game, caster, card, game.state.zone_of(caster))
    into = zone if zone is not None and "/" not in zone else None
    for src, call, minimum in P.cost_changes(game, caster, probe, targets, "casting", into=into):
        amount = game.evaluate(call.args[1].value, Ctx(this=src, it=probe))
        if not isinstance(amount, int) or amount == 0:
            continue
        new = total + amount
        if minimum is not None:
            new = max(new, min(total, minimum))
        why.append(f"{'+' if amount > 0 else ''}{amount} ({src.label()})")
        total = max(0, new)
    return total, why


def x_from_card(game, caster, card, targets, zone: Optional[str] = None) -> Optional[int]:
    """X as the spell's own `set_x(...)` statics state it for these targets (the first whose guard
    holds), or None when the card states none or its value cannot be known at declaration."""
    t = targets[0] if targets else None
    # `enchanted`/`bearer` in its set_x is the object it will be attached to
    host = t.id if t is not None and card.kind in ("enchantment", "equipment") else None
    probe = P.fresh_probe(caster, card, game.state.zone_of(caster), attached_to=host)
    ctx = Ctx(this=probe, target=t, it=t)
    if zone is not None and "/" not in zone and target_kind(card) == "object_zone":
        ctx.extra["targets"] = [zone]
    for ab in card.abilities:
        if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name == SET_X:
            try:
                if ab.guard is not None and not game.evaluate(ab.guard, ctx):
                    continue
                v = game.evaluate(ab.effect.args[0].value, ctx)
            except Exception:  # a value known only when the spell resolves (a choice it makes)
                return None
            return v if isinstance(v, int) and not isinstance(v, bool) else None
    return None


# ---------------------------------------------------------------- declaration checks
def _range_of(card: CardDefinition) -> Optional[tuple[int, int]]:
    if card.range is not None:
        return card.range
    for bar in card.attacks:
        if bar.range is not None:
            return bar.range
    return None


def cast_as(game, caster) -> Optional[tuple[Optional[str], Optional[int]]]:
    """The caster's own `static cast_as(this, ACTION, N)`: (the action every spell it casts takes, the
    furthest range in zones), or None when its card states none."""
    if caster is None:
        return None
    for call in P._statics(game, caster.card, CAST_AS):
        pos = [a.value for a in call.args if not a.key]
        if len(pos) != 3 or not P._is_this(pos[0]):
            raise EngineError(f"NOT IMPLEMENTED: {caster.card.name}: cast_as(...) must read (this, ACTION, N)")
        act = pos[1].value if isinstance(pos[1], A.StringLit) else None
        far = game.evaluate(pos[2], Ctx(this=caster, it=caster))
        return act, far if isinstance(far, int) else None
    return None


_ASK = object()


def spell_action(game, caster, card: CardDefinition, got=_ASK) -> str:
    """The action the caster takes to cast this spell: the card's, unless the caster casts everything
    as one kind of action (cast_as).  `got`, when given, is cast_as(game, caster) asked now by the caller
    (it is about the caster alone: asked once for the spells of one offer)."""
    if got is _ASK:
        got = cast_as(game, caster)
    return (got[0] if got is not None and got[0] else None) or card.action or "full"


def cast_range(game, caster, card: CardDefinition) -> Optional[tuple[int, int]]:
    """The spell's range for this caster: its own, no further than a cast_as limit of the caster."""
    rng = _range_of(card)
    got = cast_as(game, caster)
    if got is None or got[1] is None:
        return rng
    lo, hi = rng if rng is not None else (0, got[1])
    return min(lo, got[1]), min(hi, got[1])


#: the first words of a target line naming a card in a discard pile, not an object in the arena
DISCARD_WORDS = frozenset({"destroyed", "discarded"})


def discard_target(game, caster, card: CardDefinition, obj: GameObject, probe: GameObject) -> Optional[str]:
    """Why `obj` is not a legal target of a spell that targets a card in a discard pile, or None: it must
    be in a discard pile and fit the target phrase.  Such a card is in no zone: range and line of sight
    do not apply to it."""
    if obj not in game.state.graveyard:
        return f"{obj.label()} is not in a discard pile"
    phrases = card.target_phrases or ()
    if phrases and not any(matches(game, obj, ph, Ctx(this=probe)) for ph in phrases):
        return f"{obj.label()} is not a {' or '.join(card.targets)}"
    return None


@per_definition
def target_kind(card: CardDefinition) -> str:
    """How a spell names its target: 'zone', 'border', 'object', 'none' (arena), or 'unsupported'
    (once per card: every candidate of every decision asks it)."""
    if not card.targets:
        return "none"
    words = {t.lower() for t in card.targets}
    if words == {"zone"}:
        return "zone"
    if words == {"zone border"}:
        return "border"
    if words == {"arena"}:
        return "none"
    if all(w.split()[0] in DISCARD_WORDS for w in words if w):
        return "discard"  # a card in a discard pile (Rules: a spell may target a destroyed creature's card)
    if card.target_join == "and" and len(words) == 2 and "zone" in words:
        return "object_zone"  # an object and a zone (Teleport): both in range and line of sight
    if card.target_join == "and" and len(words) == 2 and any(w.endswith("enchantment") for w in words) \
            and any(w == "new target" for w in words):
        return "attachment_move"  # an enchantment and a new target for it (Shift Enchantment)
    if any("zone" in w or w == "arena" for w in words) or card.target_join == "and":
        return "unsupported"
    return "object"


_TARGET_KINDS = target_kind.table


def _check_zone(game, caster, zone: str, rng, rule_what: str, los: bool = True) -> None:
    st = game.state
    here = st.zone_of(caster)
    if here is None:
        raise IllegalCast("caster", f"{caster.label()} is not in a zone of the arena")
    if not st.arena.is_zone(zone):
        raise IllegalCast("target", f"{zone!r} is not a zone of the arena")
    dist = st.arena.distance(here, zone)
    if rng is not None and not rng[0] <= dist <= rng[1]:
        raise IllegalCast("range", f"{rule_what} is out of range: {dist} zone(s) from {caster.label()}, "
                                   f"the spell's range is {rng[0]}-{rng[1]}")
    if los and dist and not line_of_sight(game, here, zone):
        raise IllegalCast("line-of-sight", f"{caster.label()} has no line of sight to {rule_what}")


def _sight(game, here: str):
    """Whether a caster in zone `here` sees a zone (its own, or one in line of sight): the `sight` that
    extracost.reach and pay_sacrifice ask (extracost cannot import this module)."""
    return lambda z: z == here or line_of_sight(game, here, z)


def _beyond_range(game, caster, probe, zones, err: IllegalCast, out: Optional[list], rng=None,
                  paid: Optional[list] = None) -> None:
    """A target out of the spell's range (`err`, the refusal), in or around `zones`: the cast may go on when
    a `range_for_mana` lets the caster pay to extend the range `rng` far enough for the nearest of `zones`
    (what it buys is added to `paid`), or when a `sacrifice_for_range` lets the caster destroy an object it
    sees there as an additional cost (those objects are added to `out`); when it sees none of those
    objects, refused for line of sight; else `err`."""
    here = game.state.zone_of(caster)
    if rng is not None and here is not None and EC.any_range_for_mana(game):
        got = EC.range_bought(game, caster, probe, spell_action(game, caster, probe.card))
        if got is not None:
            d = min(game.state.arena.distance(here, z) for z in zones)
            if rng[0] <= d <= rng[1] + got[0]:
                if paid is not None and not paid:
                    paid.append(got)
                return
    seen, unseen = EC.reach(game, caster, probe, zones, _sight(game, here))
    if seen:
        if out is not None:
            out.extend(o for o in seen if o not in out)
        return
    if unseen:
        raise IllegalCast("line-of-sight", f"{err.detail}; {caster.label()} has no line of sight to "
                                           f"{', '.join(o.label() for o in unseen)}, which it could destroy to "
                                           f"cast {probe.card.name} there")
    raise err


def _zone_in_reach(game, caster, probe, zone: str, rng, what: str, out: Optional[list], los: bool = True,
                   paid: Optional[list] = None) -> None:
    """_check_zone, a target out of range allowed through _beyond_range."""
    try:
        _check_zone(game, caster, zone, rng, what, los)
    except IllegalCast as e:
        if e.rule != "range" or rng is None:
            raise
        _beyond_range(game, caster, probe, (zone,), e, out, rng, paid)
        _check_zone(game, caster, zone, None, what, los)


def legal_target(game, caster, card: CardDefinition, obj: GameObject, probe: GameObject,
                 fitted: bool = False) -> Optional[str]:
    """Why `obj` is not a legal target of the spell for its target phrase, or None.  `fitted`: the
    caller has just found `obj` in play and fitting the target phrase (legal_casts), in this state."""
    if not fitted:
        if not obj.in_play:
            return f"{obj.label()} is not in play"
        # (a face-down card can be targeted by a phrase that allows it: Dispel, a hidden enchantment)
        phrases = card.target_phrases or ()
        if phrases:
            ctx = Ctx(this=probe)
            if not any(matches(game, obj, ph, ctx) for ph in phrases):
                return f"{obj.label()} is not a {' or '.join(card.targets)}"
    why = R.forbids(game, "be targeted", obj, by=caster, spell=probe)  # Invisible, Obscured, Warded...
    for (oid, what, detail, src_id, rnd) in game.restrictions:  # cannot_until(X, "be_targeted", by: "Name")
        if oid == obj.id and what.replace("_", " ") == "be targeted" and rnd == game.state.round \
                and detail in ("", f"by={card.name}"):
            src = game.state.objects.get(src_id)
            return f"{obj.label()} cannot be targeted by {card.name} again this round " \
                   f"({src.label() if src is not None else 'an effect'})"
    return why or None


def _fitted_sight(game, caster: GameObject, t: GameObject, fitted: tuple) -> None:
    """A target legal_casts found in play, fitting and in range: `fitted` is (the caster's zone, the
    target's zone, the distance between); line of sight is what is left to ask."""
    here, tz, dist = fitted
    if dist and not line_of_sight(game, here, tz):
        raise IllegalCast("line-of-sight", f"{caster.label()} has no line of sight to {t.label()}")


def check_cast(game, caster: GameObject, card: CardDefinition, targets: Sequence[GameObject] = (),
               zone: Optional[str] = None, face_down: bool = False, x: Optional[int] = None,
               probe: Optional[GameObject] = None, caster_checked: bool = False, rng=False,
               fitted: Optional[tuple] = None, have: Optional[int] = None, cost: Optional[int] = None,
               sacrifice: Optional[list] = None, bought: Optional[list] = None) -> int:
    """Every rule of the declaration and the cost; raises IllegalCast naming the first broken one,
    else returns the mana the cast will cost.  Changes nothing.  `probe`: the spell as an object not in
    play yet (placement.probe for this caster, card and the caster's zone), when the caller already has
    one: legal_casts checks every candidate with the same one, so what is worked out about it and
    kept per object (the restriction queries' statements) is worked out once per spell, not per target.
    `caster_checked`: the caller has found that the restrictions on the caster and the spell
    (placement.restrictions) forbid nothing now, without a trace in the log: they are not asked again;
    `rng`, when given, is the spell's range for this caster as cast_range gives it now (asked once);
    `fitted`: the caller has found the one target in play, fitting the spell's target phrase and in range
    (`rng`) in this state: (the caster's zone, the target's zone, the distance between), as legal_casts
    finds them (setting aside the candidates that do not fit without asking anything else); of a spell
    targeting an object and a zone, the object found a legal target (legal_target) in range, once for
    every zone it is offered with; `have`, when
    given, is what the caster can pay for the spell now (manasupply.available with its token payments,
    asked once by legal_casts for every candidate); `cost`, when given, is what the spell costs whatever
    its target: its printed cost, no `costs(...)` static being in play now (placement.has_cost_changes,
    asked once by legal_casts for a spell without X); `sacrifice`, when given, gets the objects the caster
    may destroy to cast the spell beyond its range, when a target needs it (extracost.sacrifice_for_range);
    `bought`, when given, gets (zones, mana, card) of the range the caster must buy for a target beyond the
    spell's range (extracost.range_for_mana: the mana is counted in the cost returned)."""
    st = game.state
    paid: list = []  # (zones, mana, card) of a range_for_mana a target needs (one at most)
    if card.kind not in SPELL_KINDS:
        raise IllegalCast("spell", f"{card.name} is a {card.kind} card, not a spell")
    if not caster.in_play:
        raise IllegalCast("caster", f"{caster.label()} is not in play")
    player = st.players.get(caster.controller)
    if player is None:
        raise IllegalCast("caster", f"{caster.label()} has no controlling player")
    if face_down and card.kind != "enchantment":
        raise IllegalCast("face-down", f"only enchantments are cast face down; {card.name} is a {card.kind}")
    if isinstance(card.cast_cost, A.XValue) or isinstance(card.reveal_cost, A.XValue):
        if x is None:
            x = x_from_card(game, caster, card, tuple(targets), zone)
        if x is None:
            raise IllegalCast("x-value", f"{card.name} costs X: choose a value of X")
        if x < 0:
            raise IllegalCast("x-value", f"X must be 0 or more, not {x}")
    if probe is None:
        probe = P.probe(game, caster, card, st.zone_of(caster))
    for why in () if caster_checked else P.restrictions(game, caster, card):
        raise IllegalCast(why[0], why[1])
    if rng is False:
        rng = cast_range(game, caster, card)
    kind = _TARGET_KINDS.get(id(card)) or target_kind(card)  # (its per-definition table read first)
    targets = tuple(targets)
    if kind == "unsupported" and card.target_join == "or" and "zone" in {t.lower() for t in card.targets} \
            and len(card.targets) == 2:  # "zone or object" (Decoy): whichever the caster names
        kind = "object" if targets else "zone"
    if kind == "unsupported":
        raise EngineError(f"NOT IMPLEMENTED: casting {card.name}: its target ({', '.join(card.targets)}) "
                          f"cannot be chosen by the engine yet")
    if kind == "object":
        if zone is not None:
            raise IllegalCast("target", f"illegal target: {card.name} targets a {' or '.join(card.targets)}, "
                                        f"not a zone")
        if len(targets) != 1:
            raise IllegalCast("target", f"{card.name} needs one target ({' or '.join(card.targets)}), "
                                        f"got {len(targets)}")
        t = targets[0]
        why = legal_target(game, caster, card, t, probe, fitted is not None)
        if why:
            raise IllegalCast(getattr(why, "rule", "") or "target", f"illegal target: {why}")
        if fitted is not None:  # in a zone, in range: line of sight is what _check_zone would ask still
            _fitted_sight(game, caster, t, fitted)
        else:
            tz = st.zone_of(t)
            if tz is None:  # in play but outside the arena (Banish): out of everyone's range and sight
                raise IllegalCast("range", f"{t.label()} is not in a zone of the arena: out of range and line "
                                           f"of sight")
            _zone_in_reach(game, caster, probe, tz, rng, t.label(), sacrifice, paid=paid)
    elif kind == "discard":
        if zone is not None or len(targets) != 1:
            raise IllegalCast("target", f"{card.name} needs one target ({' or '.join(card.targets)})")
        why = discard_target(game, caster, card, targets[0], probe)
        if why:
            raise IllegalCast("target", f"illegal target: {why}")
    elif kind == "object_zone":
        if len(targets) != 1 or zone is None or "/" in zone:
            raise IllegalCast("target", f"{card.name} needs two targets: one {card.targets[0]} and one zone, "
                                        f"got {len(targets)} object(s) and {zone or 'no zone'}")
        t = targets[0]
        if fitted is not None:  # a legal target in a zone in range (legal_casts, once for all its zones): LoS still
            _fitted_sight(game, caster, t, fitted)
        else:
            why = legal_target(game, caster, card, t, probe)
            if why:
                raise IllegalCast("target", f"illegal target: {why}")
            tz = st.zone_of(t)
            if tz is None:
                raise IllegalCast("target", f"{t.label()} is not in a zone of the arena")
            _check_zone(game, caster, tz, rng, t.label())
        _check_zone(game, caster, zone, rng, f"zone {zone}")
    elif kind == "attachment_move":
        if len(targets) != 2 or zone is not None:
            raise IllegalCast("target", f"{card.name} needs two targets: an enchantment and a new target for it")
        ench, new = targets
        phrases = card.target_phrases or ()
        if phrases and not matches(game, ench, phrases[0], Ctx(this=probe)):
            raise IllegalCast("target", f"illegal target: {ench.public_label()} is not a {card.targets[0]}")
        why = R.forbids(game, "be moved to another object", ench)  # Mind Control
        if why:
            raise IllegalCast("target", f"illegal target: {ench.public_label()} cannot be moved ({why})")
        host = st.host(ench)
        if new is host:
            pass  # the same target again is allowed (Steal Enchantment re-targets; Shift moves to a new one)
        why = legal_target(game, ench.controller and st.mage_of(ench.controller) or caster, ench.card, new, ench)
        if why:
            raise IllegalCast("target", f"illegal new target: {why}")
        for t in targets:
            tz = st.zone_of(t)
            if tz is None:
                raise IllegalCast("range", f"{t.public_label()} is not in a zone of the arena")
            _check_zone(game, caster, tz, rng, t.public_label())
    elif kind == "zone":
        if targets or zone is None:
            raise IllegalCast("target", f"{card.name} targets a zone: give a zone, not objects")
        allowed = R.summon_permission(game, caster, probe, zone)  # a card lets it go there (Summoning Circle)
        _zone_in_reach(game, caster, probe, zone, None if allowed else rng, f"zone {zone}", sacrifice,
                       los=not (allowed and "LoS" in allowed.ignoring), paid=paid)
    elif kind == "border":
        pair = P.parse_border(st.arena, zone)
        if pair is None:
            raise IllegalCast("target", f"{card.name} is placed on a zone border: give two adjacent zones "
                                        f"as 'B2/B3', not {zone!r}")
        here = st.zone_of(caster)
        dists = [st.arena.distance(here, z) for z in pair] if here else []
        if rng is not None and (not dists or min(dists) < rng[0] or min(dists) > rng[1]):
            _beyond_range(game, caster, probe, pair, IllegalCast(
                "range", f"the border {zone} is out of range of {caster.label()} (range {rng[0]}-{rng[1]})"),
                sacrifice, rng, paid)
        if here and not any(z == here or line_of_sight(game, here, z) for z in pair):
            raise IllegalCast("line-of-sight", f"{caster.label()} has no line of sight to the border {zone}")
    else:
        if targets:
            raise IllegalCast("target", f"{card.name} takes no target")
    why = R.cast_forbidden(game, caster, probe, targets, zone)  # `cannot(...)` of the cards and the codex
    if why:
        raise IllegalCast(why.rule, str(why))
    for why in P.placement_problems(game, caster, card, targets, zone):
        raise IllegalCast(why[0], why[1])
    if cost is None:
        cost, _ = casting_cost(game, caster, card, targets, x, probe, zone)
    if paid:  # a target beyond the spell's range: the range it needs is paid for with the rest
        cost += paid[0][1]
        if bought is not None:
            bought.append(paid[0])
    if have is None:
        have = MS.available(game, caster, probe, tokens=R.token_payments(game, caster, probe))
    if cost > have:
        own = have - player.mana
        raise IllegalCast("mana", f"not enough mana (needs {cost}, has {player.mana}"
                                  + (f" and {own} on {caster.label()}" if own else "") + ")")
    return cost


# ---------------------------------------------------------------- the sequence
def spell_object(game, caster: GameObject, card) -> GameObject:
    """The spell being cast, as an object controlled by the caster's controller (its range and
    pushes count from the caster's zone); a permanent spell keeps this object when placed."""
    spell = GameObject(new_spell_id(game), card, caster.controller, caster.controller)
    spell.zone = game.state.zone_of(caster)
    game.state.add_object(spell)
    if not hasattr(game, "spell_casters"):
        game.spell_casters = {}
    game.spell_casters[spell.id] = caster.id  # "a spell by X" (phrases: CastBy)
    return spell


def announce(game, c: "Casting") -> None:
    """The cast, as one log line (a face-down enchantment is named only to its controller)."""
    on = ", ".join(t.public_label() for t in c.targets) or (f"zone {c.zone}" if c.zone and "/" not in c.zone
                                                       else (f"the border {c.zone}" if c.zone else ""))
    if c.targets and c.zone and "/" not in c.zone:  # two targets: an object and a zone
        on += f" and zone {c.zone}"
    text = f"{c.caster.label()} casts {c.card.name}" + (f" on {on}" if on else "") + \
           (f" (X = {c.x})" if c.x is not None else "")
    game.emit("action", text, caster=c.caster.id, card=c.card.name, secret_for=c.caster.controller
              if c.face_down else None,
              public_text=f"{c.caster.label()} casts a face-down enchantment" + (f" on {on}" if on else "")
              if c.face_down else None)


def finish(game, spell: GameObject, bound_to: Optional[GameObject] = None) -> None:
    """A resolved (or canceled) non-permanent spell goes to the discard pile; a bound spell stays
    bound to its object instead (engine/bound.py)."""
    if spell.in_play and bound_to is not None:
        game.state.remove_from_play(spell, to="bound")
        game.emit("rule", f"{spell.card.name} stays bound to {bound_to.label()}")
        return
    if spell.in_play:
        game.fire("discarded", spell, Ctx(this=spell, it=spell))  # a Cantrip goes back to the spellbook instead
    if spell.in_play:
        game.state.remove_from_play(spell)
        game.emit("discarded", f"{spell.card.name} goes to the discard pile")


class _Declare:
    def run(self, game, c: Casting) -> None:
        st = game.state
        c.spell = c.spell or spell_object(game, c.caster, c.card)
        if c.x is not None:
            game.x_values[c.spell.id] = c.x
        c.events.add(("declares", c.caster.id))
        c.events.add(("casting", c.spell.id))
        for t in c.targets:
            c.events.add(("targeted", t.id))
        for t in c.targets:
            game.fire("targeted", t, Ctx(this=c.spell, it=t, target=t, attack=c))
        del st  # nothing else changes at declaration


class _PayCosts:
    def run(self, game, c: Casting) -> None:
        player = game.state.players[c.caster.controller]
        cost, why = casting_cost(game, c.caster, c.card, c.targets, c.x, c.spell, c.zone)
        if c.bought is not None:  # the range a target beyond the spell's own needs, bought with mana
            cost += c.bought[1]
            why.append(f"+{c.bought[1]} to extend its range by {c.bought[0]} ({c.bought[2]})")
        tokens = R.token_payments(game, c.caster, c.spell)  # `can(WHO, "pay with TOKEN", ...)`
        have = MS.available(game, c.caster, c.spell, tokens=tokens)
        if cost > have:  # something revealed since the declaration raised the cost
            c.cancel(f"cannot pay {cost} mana (has {have})")
            game.emit("rule", f"{c.card.name} is canceled: {c.why}")
            return
        if c.sacrifice and not EC.pay_sacrifice(game, c, _sight(game, game.state.zone_of(c.caster))):
            c.cancel("no object is left to destroy as the additional cost that let it reach its target")
            game.emit("rule", f"{c.card.name} is canceled: {c.why}")
            return
        extra = EC.offer_extra_cost(game, c.caster, c.spell, c.card, cost, have)  # Extendable...
        if extra:
            why.append(f"+{extra} optional extra cost")
            cost += extra
        from_obj, _ = MS.pay(game, c.caster, cost, c.spell, tokens=tokens)  # mana kept on the caster first
        c.paid = cost
        if c.bought is not None:  # (read by the range checks as it resolves, and by the attack it makes)
            EC.bought(game)[c.spell.id] = c.bought[0]
        P.use_cost_changes(game, c.caster, c.spell, c.targets, "casting",
                           into=c.zone if c.zone is not None and "/" not in c.zone else None)
        game.emit("mana", f"{player.name} pays {cost} mana for {c.card.name}"
                          + (f" ({'; '.join(why)})" if why else "")
                          + (f" ({from_obj} from the mana on {c.caster.label()})" if from_obj else "")
                          + f" (mana now {player.mana})",
                  player=player.name, amount=cost)


class _Counter:
    def run(self, game, c: Casting) -> None:
        game.reveals.mandatory("during", "counter_spell_step", c)
        if c.status == "declared":
            game.fire("casting", c.spell, Ctx(this=c.spell, it=c.spell, attack=c))


class _Resolve:
    def run(self, game, c: Casting) -> None:
        why = still_legal(game, c)
        if why:
            c.cancel(why)
            game.emit("rule", f"{c.card.name} is canceled: {why}; the mana paid and the card are lost")
            return
        c.status = "resolved"
        c.result = P.resolve(game, c)
        if c.status == "canceled":  # canceled as it resolved: not cast
            return
        if c.spell is not None and c.spell.in_play:
            game.fire("cast", c.spell, Ctx(this=c.spell, it=c.spell, attack=c))
        elif c.spell is not None:
            game.fire("cast", c.spell, Ctx(this=c.spell, it=c.spell, attack=c), exclude=())


STEPS = {"declare_spell": _Declare(), "pay_spell_costs": _PayCosts(), "counter_spell_step": _Counter(),
         "resolve_spell": _Resolve()}


def redirect(game, c: Casting, frm, to) -> None:
    """A spell being cast aims at `to` instead of `frm` (or of its first target): the new target must
    fit its target line when it resolves; the range and line of sight of the declaration no longer
    apply (Spells: Reverse Magic sends the spell back to its caster, wherever they are)."""
    old = list(c.targets)
    i = old.index(frm) if frm in old else 0
    if old:
        old[i] = to
    else:
        old = [to]
    c.targets = tuple(old)
    c.redirected = True
    c.events.add(("targeted", to.id))
    game.emit("rule", f"{c.card.name} is redirected to {to.public_label()}", target=to.id,
              secret_for=c.caster.controller if c.face_down else None,
              public_text=f"a face-down spell is redirected to {to.public_label()}" if c.face_down else None)


def take_over(game, c: Casting, player: str) -> None:
    """A player takes control of a spell being cast: their Mage becomes its caster, and its cost is
    worked out again for them (new targets, new caster).  A higher cost: they pay the difference, or
    the spell is canceled (their choice; canceled when they cannot pay).  A lower one refunds nothing.
    They may also remake the spell's other choices (`c.remade`): a choice its X is worked out from,
    made as it resolves, may then need a higher X (`pay_difference`)."""
    mage = game.state.mage_of(player)
    if mage is None or c.spell is None:
        return
    c.caster = mage
    c.spell.controller = player
    c.remade = True
    game.state.touch()
    game.emit("control", f"{player} takes control of {c.card.name} and becomes its caster", target=c.spell.id,
              secret_for=player if c.face_down else None,
              public_text=f"{player} takes control of a face-down spell and becomes its caster" if c.face_down
              else None)
    new, _ = casting_cost(game, mage, c.card, c.targets, c.x, c.spell)
    if not pay_difference(game, c, new):
        c.cancel(c.why)
        game.emit("rule", f"{c.card.name} is canceled: {c.why}")


def pay_difference(game, c: Casting, new: int) -> bool:
    """The spell now costs `new`: its controller pays what exceeds what was paid for it, or does not
    (then `c.why` says why it is to be canceled; nothing is refunded for a lower cost).  Returns
    whether the spell goes on."""
    from .decisions import Option
    diff = new - c.paid
    if diff <= 0:
        return True
    player = c.spell.controller if c.spell is not None else c.caster.controller
    pay = False
    if diff <= MS.available(game, c.caster):
        pay = bool(game.decide("optional", player, [Option("yes", True), Option("no", False)],
                               prompt=f"pay {diff} more mana for {c.card.name}, or cancel it?", default=0).value)
    if not pay:
        c.why = f"{player} does not pay the {diff} mana more it now costs"
        return False
    MS.pay(game, c.caster, diff)
    c.paid += diff
    game.emit("mana", f"{player} pays {diff} mana more for {c.card.name}", player=player, amount=diff)
    return True


def still_legal(game, c: Casting) -> Optional[str]:
    """Why the spell lost its target since it was declared (canceled, costs lost), or None."""
    st = game.state
    rng = cast_range(game, c.caster, c.card)
    if rng is not None and c.bought is not None and c.spell is not None:  # its range extended with mana paid
        rng = (rng[0], rng[1] + EC.bought_range(game, c.spell))
    here = st.zone_of(c.caster)
    if not c.caster.in_play:
        return f"{c.caster.label()} left play"
    if target_kind(c.card) == "discard":
        return next((why for t in c.targets if (why := discard_target(game, c.caster, c.card, t, c.spell))), None)
    for t in c.targets:
        why = legal_target(game, c.caster, c.card, t, c.spell)
        if why:
            return why
        if c.redirected:
            continue  # sent to its new target by an effect: range and line of sight do not apply
        tz = st.zone_of(t)
        if tz is None or here is None:
            return f"{t.label()} is no longer in the arena"
        d = st.arena.distance(here, tz)
        if rng is not None and not rng[0] <= d <= rng[1] and tz not in c.reached:
            return f"{t.label()} is out of range now ({d} zone(s), range {rng[0]}-{rng[1]})"
    if c.zone and "/" not in c.zone and target_kind(c.card) in ("zone", "object_zone") and here is not None:
        d = st.arena.distance(here, c.zone)
        if rng is not None and not rng[0] <= d <= rng[1] and c.zone not in c.reached \
                and not R.summon_permission(game, c.caster, c.spell, c.zone):
            return f"zone {c.zone} is out of range now ({d} zone(s) from {c.caster.label()}, " \
                   f"range {rng[0]}-{rng[1]})"
    return None


def run_step(game, key: str, c: Casting) -> None:
    # a face-down spell's name is in the step's data for its caster's player only
    game.emit("step", STEP_TITLES[key], step=key, spell=c.card.name,
              secret_for=c.caster.controller if c.face_down else None,
              public_text=STEP_TITLES[key] if c.face_down else None)
    game.log.depth += 1
    try:
        if c.status == "declared":
            STEPS[key].run(game, c)
            game.check_state()
        if c.status == "declared" or (key == "resolve_spell" and c.status == "resolved"):
            game.reveals.window(key, c)
            game.check_state()
    finally:
        game.log.depth -= 1


def cast_spell(game, caster: GameObject, card, targets: Sequence[GameObject] = (), zone: Optional[str] = None,
               face_down: bool = False, x: Optional[int] = None, bound_to: Optional[GameObject] = None):
    """Cast `card` (a CardDefinition or a name) by `caster`: the casting sequence, a reveal window
    after each step.  Raises IllegalCast before anything changes when the cast is illegal.  Returns
    the spell object that stays in play (creature, conjuration, enchantment, equipment...), or None
    (an incantation or attack spell, which goes to the discard pile, or a spell canceled)."""
    if isinstance(card, str):
        card = game.card(card)
    if card.kind == "enchantment":
        face_down = True  # enchantments are always cast face down
    targets = tuple(targets)
    if x is None and (isinstance(card.cast_cost, A.XValue) or isinstance(card.reveal_cost, A.XValue)):
        x = x_from_card(game, caster, card, targets, zone)
    sacrifice: list = []
    bought: list = []
    cost = check_cast(game, caster, card, targets, zone, face_down, x, sacrifice=sacrifice, bought=bought)
    lifted = P.mage_only_lifted(game, caster, card)  # (checking a cast says nothing: casting it does)
    if lifted:
        game.emit("rule", f"{card.name} is restricted to another kind of Mage, but {lifted}")
    c = Casting(caster, card, None, targets, zone, face_down, x, cost, bound_to=bound_to, sacrifice=tuple(sacrifice),
                bought=bought[0] if bought else None)
    CL.record(game, caster.controller, card.name)
    game.casting_stack = getattr(game, "casting_stack", [])
    game.casting_stack.append(c)
    try:
        announce(game, c)
        for key in CAST_STEPS:
            run_step(game, key, c)
    finally:
        game.casting_stack.pop()
        if c.spell is not None and c.card.kind not in PERMANENT_KINDS:
            finish(game, c.spell, c.bound_to)
        elif c.spell is not None and c.status != "resolved":
            finish(game, c.spell, c.bound_to)
    game.last_cast = c
    if c.status == "resolved" and c.spell is not None and c.spell.in_play:
        return c.spell
    return None


# ---------------------------------------------------------------- what an agent may choose
def legal_casts(game, caster: GameObject, card) -> list[CastChoice]:
    """Every legal CastChoice of `card` by `caster` now (targets, zones, face_down for enchantments).
    A spell costing X is offered where its own `set_x(...)` gives X for the target; one whose X is
    the caster's free choice is left out (an agent casts it through cast_spell with an X)."""
    if isinstance(card, str):
        card = game.card(card)
    st = game.state
    if card.kind not in SPELL_KINDS or not caster.in_play:
        return []
    player = st.players.get(caster.controller)
    if player is None:
        return []
    base = x_cost(card.cast_cost, None)
    kind = target_kind(card)
    if kind == "unsupported":
        return []
    face_down = card.kind == "enchantment"
    here = st.zone_of(caster)
    if here is None:
        return []
    before = DM.trace(game)
    rng_version = st.version
    rng = cast_range(game, caster, card)
    # then each candidate is checked with this range, not asking again
    rng_quiet = DM.trace(game) == before
    cands: list[tuple[tuple, Optional[str]]] = []
    spots: dict = {}  # an object candidate (by id) -> (the caster's zone, its zone, the distance between)
    dists = st.arena.distances_from(here)
    # zones out of range the spell may still reach, an object there destroyed as an additional cost
    reach = EC.reach_zones(game, caster, P.probe(game, caster, card, here)) if rng is not None else {}
    # and the furthest distance a range bought with mana reaches (range_for_mana: checked in full), or -1
    far = -1
    if rng is not None and EC.any_range_for_mana(game):
        got = EC.range_bought(game, caster, P.probe(game, caster, card, here), spell_action(game, caster, card))
        far = rng[1] + got[0] if got is not None else -1
    if kind == "object":
        zone_of = st.zone_of
        for o in st.in_play():
            z = o.zone
            if z is None:  # (attached, or out of the arena: zone_of says)
                z = zone_of(o)
                if z is None:
                    continue
            d = dists.get(z)
            if d is None:
                d = st.arena.distance(here, z)
            if rng is not None and not rng[0] <= d <= rng[1]:
                if z in reach or rng[0] <= d <= far:  # (checked in full: no spot)
                    cands.append(((o,), None))
                continue
            cands.append(((o,), None))
            spots[id(o)] = (here, z, d)
    elif kind == "zone":
        summoned = P.probe(game, caster, card, here)
        for z, d in dists.items():
            if rng is None or rng[0] <= d <= max(rng[1], far) or z in reach \
                    or R.summon_permission(game, caster, summoned, z):
                cands.append(((), z))
    elif kind == "discard":
        cands.extend(((o,), None) for o in st.graveyard)
    elif kind == "object_zone":
        zones = [z for z in st.arena.zones() if rng is None or rng[0] <= st.arena.distance(here, z) <= rng[1]]
        before = DM.trace(game)
        for o in st.in_play():
            z = st.zone_of(o)
            if z is None or (rng is not None and not rng[0] <= st.arena.distance(here, z) <= rng[1]):
                continue
            if legal_target(game, caster, card, o, P.probe(game, caster, card, here)) is None:
                cands.extend(((o,), zz) for zz in zones)
                spots[id(o)] = (here, z, st.arena.distance(here, z))
        # each object found a legal target in range once, quietly: check_cast is told so for each of its zones
        if DM.trace(game) != before:
            spots.clear()
    elif kind == "border":
        for pair in P.borders(st.arena):
            d = min(st.arena.distance(here, z) for z in pair)
            if rng is None or rng[0] <= d <= max(rng[1], far) or pair[0] in reach or pair[1] in reach:
                cands.append(((), "/".join(pair)))
    else:
        cands.append(((), None))
    out = []
    spell_probe = P.probe(game, caster, card, here)
    # what the caster can pay for this spell, with the tokens it may spend (the same for every candidate
    # while nothing changes and asking left no trace: then check_cast is given it, not asking again)
    before = DM.trace(game)
    have_version = st.version
    have = MS.available(game, caster, spell_probe, tokens=R.token_payments(game, caster, spell_probe))
    have_quiet = DM.trace(game) == before
    # no cost change in play: a spell without X costs its printed cost whatever the target (check_cast is
    # given it while the state is the same, not asking for every candidate)
    cost_version = st.version
    unchanged = not P.has_cost_changes(game)
    if base > have and unchanged:
        return []  # too dear whatever the target
    before = DM.trace(game)
    version = st.version
    if next(P.restrictions(game, caster, card), None) is not None:
        return []  # a restriction on the caster and the spell
    # nothing has changed when each candidate is checked: the same restrictions would forbid nothing again
    # (unless asking them logs something, which is then logged again for each, as it always was)
    quiet = DM.trace(game) == before
    # a spell costing X works X out for each candidate before anything else (x_from_card: its `set_x` read
    # with a probe attached to the target, derived anew): a target its phrase does not fit is set aside
    # first, as check_cast would then refuse it, when nothing before that check is asked per candidate
    # (the caster's restrictions and the range found quiet) and the state is the same
    # A spell without X asks nothing per candidate before its target's phrase either (with the caster's
    # restrictions and the range found quiet): the candidate is fitted here, once, and check_cast is told
    # so (a candidate that does not fit costs no check and no refusal made and caught).
    phrases = card.target_phrases or ()
    xspell = isinstance(card.cast_cost, A.XValue) or isinstance(card.reveal_cost, A.XValue)
    fixed = printed_cost(card) if unchanged and not xspell else None
    fit_first = kind == "object" and quiet and rng_quiet and (bool(phrases) or not xspell)
    ctx = Ctx(this=spell_probe) if fit_first and phrases else None  # (phrases only read it: one for all)
    for ts, z in cands:
        fitted = None
        if fit_first and st.version == version == rng_version:
            if phrases:
                if len(phrases) == 1:  # (most spells name one kind of target)
                    if not matches(game, ts[0], phrases[0], ctx):
                        continue
                elif not any(matches(game, ts[0], ph, ctx) for ph in phrases):
                    continue
            if not xspell:  # (X is worked out before the target is checked: then it is checked again)
                fitted = spots.get(id(ts[0]))  # (none for a target out of range: checked in full)
        elif spots and kind == "object_zone" and rng_quiet and st.version == rng_version:
            fitted = spots[id(ts[0])]
        try:
            check_cast(game, caster, card, ts, z, face_down, None, probe=spell_probe,
                       caster_checked=quiet and st.version == version,
                       rng=rng if rng_quiet and st.version == rng_version else False, fitted=fitted,
                       have=have if have_quiet and st.version == have_version else None,
                       cost=fixed if st.version == cost_version else None)
        except IllegalCast:
            continue
        out.append(CastChoice(caster.id, card.name, tuple([t.id for t in ts]), z, face_down))
    return out


def kept_casts(game, caster: GameObject, name: str, card=None) -> tuple:
    """legal_casts of the spell named `name` by `caster`, as a tuple kept while one enumeration of legal
    options runs (engine/decisionmemo.py: dropped when the state changes or asking leaves a trace).  The
    action options (activation.cast_options, for the quickcast marker and for the action alike) and the
    casting abilities offered among them (othercasters.casts_nothing) ask it of the same spells."""
    if card is None:
        card = game.card(name)
    return DM.recall(game, ("legal casts", caster.id, name), lambda: tuple(legal_casts(game, caster, card)))


# ---------------------------------------------------------------- resolving a spell directly
def cast_incantation(game, caster: GameObject, card, target=None) -> None:
    """An incantation's effect runs with `this` = the spell, outside the casting sequence (an effect
    that casts a spell, or a scenario replaying a resolution).  Attacks it makes are made by the
    spell itself (e.g. Explode), not by the caster."""
    spell = spell_object(game, caster, card)
    game.emit("action", f"{caster.label()} casts {card.name}" + (f" on {target.public_label()}" if target else ""))
    game.log.depth += 1
    try:
        ctx = Ctx(this=spell, target=target, it=target)
        for ab in card.abilities:
            if isinstance(ab, A.OneShotAbility):
                game.run_effects(ab.effects, ctx)
    finally:
        game.log.depth -= 1
        finish(game, spell)


def cast_attack_spell(game, caster: GameObject, card, targets, zone=None):
    """An attack spell's attack enters the attack sequence, outside the casting sequence."""
    spell = spell_object(game, caster, card)
    game.emit("info", f"{caster.label()} casts {card.name}: its attack enters the attack sequence")
    try:
        return game.attacks.make_attack(caster, None, targets, zone=zone, spell=spell)
    finally:
        finish(game, spell)
