"""The clauses written inside an attack bar, attached to the attack sequence (engine/attack.py).

An attack bar may carry abilities of its own besides its dice, range and traits.  Each kind of
clause attaches to one hook of the attack sequence; nothing here names a card or a trait:

* **triggers** (`when EVENT(...)`): they listen to the events the attack sequence fires about the
  attack made with the bar (`BAR_EVENTS`: `attack_step(STEP)` at each step, `attacks` and
  `declares` in Declare Attack, `hit`, `damaged`, `deals_damage` in Damage and Effects,
  `attack_resolved` once the attack action is over...).  `this` is the object that carries the bar
  (the creature, the equipment, the attack spell); X is the attack's X.
* **`effect:`**: what the attack does to its target in Damage and Effects.  It *replaces* the
  attack's damage and effect die when the bar rolls no dice, or when one of the attack's traits
  states in the codex that its dice do something else (an attack trait's own `effect:`, e.g. a
  healing attack); otherwise it follows the damage and effects.  A bar's own `effect:` is used in
  place of the codex one of its traits (the card says more than the trait).  A phrase `target ...`
  in the effect is the attack's target: it must fit the phrase to be a legal target.  Within the
  effect `rolled()` is the total the attack dice show (every face counts, armor plays no part).
  A `once per round effect:` makes the bar usable once a round.
* **statics**, read when an individual attack is made (`STATIC_CALLS`, `STATIC_NODES`):
  `set_x(VALUE)` (the attack's X, also what a `cost X` costs), `attack_gains([TRAITS])` and
  `this gains [TRAITS]` (the attack gains attack traits, each trait's X being the attack's X; a
  shape trait such as Doublestrike reshapes the attack action), `cannot(this, "target" | "attack",
  except: PHRASE, target: PHRASE)` (a restriction on what the bar may attack).  Each may have an
  `if CONDITION` guard, evaluated with the individual attack in hand (`defender` is its target).
  `set_stat(the_attack(), "strikes", VALUE)` is read before the attacks on each target: how many times
  the attack strikes it (none: it is not attacked).

This module imports nothing of the engine but the phrase layer, so the attack sequence, the
trigger dispatcher (Game.attack_listeners) and the coverage report can all read it.
"""
from __future__ import annotations

from typing import Optional

from ..dsl import ast as A
from ..dsl.model import TraitInstance
from .phrases import Ctx, matches

#: events the attack sequence fires about an attack whose listeners include the triggers of the
#: attack's own bar (Game.attack_listeners)
BAR_EVENTS: frozenset[str] = frozenset({"attack_step", "attacks", "declares", "attacked", "rolls", "hit",
                                        "damaged", "deals_damage", "avoided", "condition_placed",
                                        "attack_resolved"})
#: `static CALL(...)` forms of an attack bar the attack sequence reads (besides the dice and
#: effect-roll modifiers of AttackEngine.bar_mods)
STATIC_CALLS: frozenset[str] = frozenset({"set_x", "attack_gains", "cast_limit", "zone_attack_rolls_on"})
#: `static zone_attack_rolls_on()`: once its zone is attacked, the zone attack goes on into each next zone in
#: one orthogonal direction its attacker's controller picks, to the arena's edge (AttackEngine.roll_on)
ROLLS_ON = "zone_attack_rolls_on"
#: `static cannot(this, ACTION, ...)` actions of an attack bar read as restrictions on its targets
CANNOT_ACTIONS: frozenset[str] = frozenset({"target", "attack"})
#: keyword arguments of such a restriction that are read
CANNOT_KEYWORDS: frozenset[str] = frozenset({"except", "target"})
#: static nodes of an attack bar the attack sequence reads: `this gains [TRAITS]` (this = the attack)
STATIC_NODES: tuple[type, ...] = (A.Gain,)


def _inner(ab):
    return ab.ability if isinstance(ab, A.OncePerRound) else ab


def static_runs(ab) -> bool:
    """Does the attack sequence read this static of an attack bar (for the coverage report)?"""
    eff = ab.effect
    if isinstance(eff, A.Gain):
        return _subject_is_this(eff.subject)
    if not isinstance(eff, A.Call):
        return False
    if eff.name in STATIC_CALLS or _sets_attack_stat(eff):
        return True
    return _bar_cannot(eff)


def rolls_on(adef) -> bool:
    """Does this attack bar state `static zone_attack_rolls_on()`?"""
    return any(isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name == ROLLS_ON
               for ab in adef.abilities)


def _subject_is_this(ph) -> bool:
    return isinstance(ph, A.Phrase) and [w.text.lower() for w in ph.words] == ["this"]


def _bar_cannot(call: A.Call) -> bool:
    if call.name != "cannot" or len(call.args) < 2:
        return False
    who, act = call.args[0].value, call.args[1].value
    kws = {a.key for a in call.args if a.key}
    return _subject_is_this(who) and isinstance(act, A.StringLit) and act.value in CANNOT_ACTIONS \
        and kws <= CANNOT_KEYWORDS


# ---------------------------------------------------------------- triggers
def listeners(game, atk, event: str) -> list:
    """The triggers written in the bar of the attack in hand listening for `event`, as
    Game.fire's rules: (source, ability, inner, X, label).  `this` is the object carrying the bar."""
    action = atk.action
    if event not in BAR_EVENTS or not action.definition.abilities:
        return []
    out = []
    for ab in action.definition.abilities:
        inner = _inner(ab)
        if isinstance(inner, A.TriggeredAbility) and inner.event.name == event:
            owner = action.bar_owner
            out.append((owner, ab, inner, action.x, f"{action.definition.name} ({owner.label()})"))
    return out


# ---------------------------------------------------------------- effect:
def own_effects(adef) -> list:
    """The `effect:` abilities written in the bar itself (a once-per-round one too)."""
    abilities = adef.abilities  # (most bars have none: no comprehension to run)
    return [ab for ab in abilities if isinstance(_inner(ab), A.OneShotAbility)] if abilities else []


_ENTRY_EFFECTS: dict[int, tuple] = {}  # id(codex entry) -> (entry, its effect: abilities); entries are frozen


def _entry_effects(cd) -> tuple:
    hit = _ENTRY_EFFECTS.get(id(cd))
    if hit is not None and hit[0] is cd:
        return hit[1]
    got = tuple(ab for ab in cd.abilities if isinstance(_inner(ab), A.OneShotAbility)) \
        if "Attack" in cd.categories else ()
    if len(_ENTRY_EFFECTS) > 10_000:
        _ENTRY_EFFECTS.clear()
    _ENTRY_EFFECTS[id(cd)] = (cd, got)
    return got


def trait_effects(game, traits, more=()) -> list:
    """The `effect:` abilities of the codex entries of an attack's traits (then of `more`): what an attack
    with that trait does to its target instead of damage."""
    out = []
    codex = game.codex
    for ts in (traits, more):
        for t in ts:
            cd = codex.get(t.key)
            if cd is not None:
                hit = _ENTRY_EFFECTS.get(id(cd))  # (_entry_effects's table, read here first)
                got = hit[1] if hit is not None and hit[0] is cd else _entry_effects(cd)
                if got:
                    out.extend(got)
    return out


def effects(game, atk) -> tuple[list, bool]:
    """(the `effect:` abilities the attack's Damage and Effects runs, whether they replace its damage
    and effect die)."""
    action = atk.action
    from_traits = trait_effects(game, action.traits, atk.gained)
    own = own_effects(action.definition)
    replaces = bool(from_traits) or action.definition.dice is None
    return (own or from_traits), replaces


def has_effect(game, action) -> bool:
    return bool(own_effects(action.definition) or trait_effects(game, action.traits))


def _once_key(ab, game) -> tuple:
    return ("once", id(ab), game.state.round)


def _limit(game, atk) -> Optional[int]:
    """`static cast_limit(this, N)` of the bar: it may be used N times a round."""
    for ab in _statics(atk.action.definition):
        eff = ab.effect
        if isinstance(eff, A.Call) and eff.name == "cast_limit" and len(eff.args) > 1 \
                and _subject_is_this(eff.args[0].value):
            return int(game.evaluate(eff.args[1].value, Ctx(this=atk.action.bar_owner, attack=atk)))
    return None


def _uses_key(atk, game) -> tuple:
    return ("bar used", atk.action.definition.name, game.state.round)


def mark_used(game, atk) -> None:
    """The attack action with this bar is declared: one use of the bar this round (cast_limit)."""
    if atk.action.definition.abilities and _limit(game, atk) is not None:
        owner = atk.action.bar_owner
        n = sum(1 for k in owner.uses if isinstance(k, tuple) and k[:3] == _uses_key(atk, game))
        owner.uses.add(_uses_key(atk, game) + (n,))
        game.state.touch()


def used_up(game, atk) -> Optional[str]:
    """A bar whose `once per round effect:` was used this round, or used as often this round as its
    `static cast_limit(this, N)` allows, cannot be used again."""
    if not atk.action.definition.abilities:
        return None
    owner = atk.action.bar_owner
    limit = _limit(game, atk)
    if limit is not None and sum(1 for k in owner.uses if isinstance(k, tuple) and k[:3] == _uses_key(atk, game)) >= limit:
        return f"{atk.action.definition.name} of {owner.label()} may be used {limit} time(s) a round"
    for ab in own_effects(atk.action.definition):
        if isinstance(ab, A.OncePerRound) and _once_key(ab, game) in owner.uses:
            return f"{atk.action.definition.name} of {owner.label()} was already used this round (once per round)"
    return None


def _target_phrases(nodes, out: list) -> list:
    for n in nodes:
        if isinstance(n, A.Phrase):
            if n.words and n.words[0].text.lower() == "target":
                out.append(n)
        elif isinstance(n, A.Call):
            _target_phrases([a.value for a in n.args], out)
        elif isinstance(n, (list, tuple)):
            _target_phrases(n, out)
        elif hasattr(n, "__dataclass_fields__") and not isinstance(n, A.Span):
            _target_phrases([getattr(n, f) for f in n.__dataclass_fields__ if f != "span"], out)
    return out


def effect_ctx(game, atk) -> Ctx:
    owner = atk.action.bar_owner
    ctx = Ctx(this=owner, attack=atk, it=atk.target, target=atk.target)
    ctx.extra["x"] = atk.action.x
    ctx.extra["label"] = f"{atk.action.definition.name} ({owner.label()})"
    if atk.faces:
        ctx.extra["rolled"] = atk.normal + atk.crit
    return ctx


def effect_target_reason(game, atk) -> Optional[str]:
    """Why the attack's target does not fit the `target ...` phrase of the effect it would receive."""
    abilities, _ = effects(game, atk)
    if not abilities:
        return None
    phrases = _target_phrases([_inner(ab).effects for ab in abilities], [])
    if not phrases:
        return None
    ctx = effect_ctx(game, atk)
    if any(matches(game, atk.target, p, ctx) for p in phrases):
        return None
    return f"{atk.target.label()} is not {' or '.join(repr(p.text) for p in dict.fromkeys(phrases))} " \
           f"({atk.action.definition.name})"


def run_effects(game, atk, abilities) -> None:
    """Run the effect abilities against the attack's target (Damage and Effects)."""
    ctx = effect_ctx(game, atk)
    owner = atk.action.bar_owner
    for ab in abilities:
        if isinstance(ab, A.OncePerRound):
            owner.uses.add(_once_key(ab, game))
            game.state.touch()
        game.run_effects(_inner(ab).effects, ctx)


# ---------------------------------------------------------------- statics
def _statics(adef):
    for ab in adef.abilities:
        if isinstance(ab, A.StaticAbility):
            yield ab


def _guard_holds(game, ab, ctx) -> bool:
    return ab.guard is None or bool(game.evaluate(ab.guard, ctx))


def set_x(game, action, target) -> None:
    """`static set_x(VALUE)` of the bar: the attack's X, worked out when the attack is made."""
    adef = action.definition
    if not adef.abilities or not any(isinstance(ab.effect, A.Call) and ab.effect.name == "set_x"
                                     for ab in _statics(adef)):
        return
    ctx = Ctx(this=action.bar_owner, target=target, it=target)
    got = game.static_x(adef, ctx)
    if got is not None:
        action.x = got
        game.emit("rule", f"X = {got} for {adef.name} ({adef.name}'s own rule)")


#: `static set_stat(the_attack(), "strikes", VALUE)` of a bar: how many times its attack strikes each
#: target, worked out per target (`defender` is the target); none (0 or less) leaves the target unattacked
SET_STAT = "set_stat"
ATTACK_STATS: frozenset[str] = frozenset({"strikes"})


def _sets_attack_stat(call: A.Call) -> bool:
    if call.name != SET_STAT or len(call.args) != 3 or any(a.key for a in call.args):
        return False
    who, stat = call.args[0].value, call.args[1].value
    return isinstance(who, A.Call) and who.name == "the_attack" and not who.args \
        and isinstance(stat, A.StringLit) and stat.value in ATTACK_STATS


def strikes(game, probe) -> Optional[int]:
    """The bar's `set_stat(the_attack(), "strikes", VALUE)` for the target of `probe` (an individual
    attack not made yet), or None when the bar states none."""
    action = probe.action
    for ab in _statics(action.definition):
        if not (isinstance(ab.effect, A.Call) and _sets_attack_stat(ab.effect)):
            continue
        ctx = Ctx(this=action.bar_owner, attack=probe, target=probe.target, it=probe.target)
        if ab.guard is not None and not game.evaluate(ab.guard, ctx):
            continue
        n = game.evaluate(ab.effect.args[2].value, ctx)
        if isinstance(n, int):
            return n
    return None


def bar_immunity(call: A.Call, card) -> bool:
    """Is this `static immune(PHRASE, "BAR")` of `card`, BAR naming one of its attack bars (objects fitting
    the phrase are immune to attacks made with that bar: immune_to_bar)?"""
    if call.name != "immune" or len(call.args) != 2 or any(a.key for a in call.args):
        return False
    who, what = call.args[0].value, call.args[1].value
    if isinstance(who, A.Phrase) and who.text.strip().lower() == "this":
        return False  # the card itself unaffected by its own bar: `be affected by BAR` (AttackEngine)
    return isinstance(who, A.Phrase) and isinstance(what, A.StringLit) and \
        any(adef.name == what.value for adef in getattr(card, "attacks", ()))


#: id of a card -> (the card, (ability, call) of each of its `static immune(PHRASE, "BAR")`: bar_immunity)
_BAR_IMMUNITIES: dict[int, tuple] = {}


def _bar_immunities(card) -> tuple:
    got = (card, tuple((ab, call) for ab in card.abilities for call in (getattr(ab, "effect", None),)
                       if isinstance(ab, A.StaticAbility) and isinstance(call, A.Call) and bar_immunity(call, card)))
    if len(_BAR_IMMUNITIES) > 10_000:
        _BAR_IMMUNITIES.clear()
    _BAR_IMMUNITIES[id(card)] = got
    return got


def immune_to_bar(game, atk) -> Optional[str]:
    """Why the target of `atk` is immune to the attack bar used (a `static [if C] immune(PHRASE, "BAR")` of
    the card carrying the bar, `this` = that card's object), or None."""
    owner = atk.action.bar_owner
    target = atk.target
    if owner is None or target is None or isinstance(target, str) or not getattr(owner, "in_play", False):
        return None
    name = atk.action.definition.name
    card = owner.card
    hit = _BAR_IMMUNITIES.get(id(card))
    if hit is None or hit[0] is not card:
        hit = _bar_immunities(card)
    for ab, call in hit[1]:
        if call.args[1].value.value != name:
            continue
        ctx = Ctx(this=owner, it=target)
        if not _guard_holds(game, ab, ctx):
            continue
        if matches(game, target, call.args[0].value, ctx):
            return f"{target.label()} is immune to {name} ({owner.label()}: {call.args[0].value.text})"
    return None


def _trait(ref: A.TraitRef, x: int) -> TraitInstance:
    val = ref.param.signed_value() if ref.param else None
    text = ref.text
    if isinstance(val, A.XValue):
        val = x * val.coef
        text = f"{ref.name.text} {val:+d}"  # "Piercing +X" with X = 2 reads "Piercing +2"
    return TraitInstance(ref.name.text, val, None, tuple(v.text for v in ref.versus), text)


def gained_traits(game, atk) -> list:
    """Attack traits the bar's statics give this individual attack now (`attack_gains([...])`,
    `this gains [...]`), X being the attack's X (or the X of the object carrying the bar)."""
    action = atk.action
    if not action.definition.abilities:
        return []
    owner = action.bar_owner
    out = []
    for ab in _statics(action.definition):
        eff = ab.effect
        if isinstance(eff, A.Gain) and _subject_is_this(eff.subject):
            group = eff.traits
        elif isinstance(eff, A.Call) and eff.name == "attack_gains" and eff.args \
                and isinstance(eff.args[0].value, A.TraitGroup):
            group = eff.args[0].value
        else:
            continue
        ctx = Ctx(this=owner, attack=atk, it=atk.target, target=atk.target)
        x = action.x if action.x else game.x_value(owner)
        ctx.extra["x"] = x
        if not _guard_holds(game, ab, ctx):
            continue
        out.extend(_trait(ref, x) for ref in group.traits)
    return out


def _names(game, obj, phrase, ctx) -> bool:
    """Does a phrase, or a value naming objects (`prey(this)`), name this object?"""
    if isinstance(phrase, A.Call):
        got = game.evaluate(phrase, ctx)
        return any(o is obj for o in (got if isinstance(got, (list, tuple)) else [got]))
    return matches(game, obj, phrase, ctx)


def _text(node) -> str:
    if isinstance(node, A.Call):
        return f"{node.name}({', '.join(_text(a.value) for a in node.args)})"
    return getattr(node, "text", None) or str(getattr(node, "value", node))


def forbids(game, atk) -> Optional[str]:
    """Why the bar's own restrictions (`static [if C] cannot(this, "target"|"attack", except: P,
    target: P)`) forbid attacking this target, or None."""
    action = atk.action
    if not action.definition.abilities:
        return None
    for ab in _statics(action.definition):
        eff = ab.effect
        if not (isinstance(eff, A.Call) and _bar_cannot(eff)):
            continue
        kw = {a.key: a.value for a in eff.args if a.key}
        ctx = Ctx(this=action.bar_owner, attack=atk, it=atk.target, target=atk.target)
        if not _guard_holds(game, ab, ctx):
            continue
        if "target" in kw and not _names(game, atk.target, kw["target"], ctx):
            continue
        if "except" in kw and _names(game, atk.target, kw["except"], ctx):
            continue
        what = f" except {_text(kw['except'])}" if "except" in kw else ""
        return f"{action.definition.name} cannot attack {atk.target.label()} (it may attack nothing{what})" \
            if what else f"{action.definition.name} cannot attack {atk.target.label()}"
    return None
