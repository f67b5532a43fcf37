"""What an activating creature may do now: the legal options of one activation (engine/actions.py
holds the typed records).

Every action choice reaches an agent as ``game.decide("action", player, options)``; each
``Option.value`` is one of the records of engine/actions.py.  The options come from the rules and the corpus:

* a move (``movement.legal_moves``), before a quick action or as the quick action itself; not one its
  controller cannot pay for (legal_moves says why such a move, which the rules would cancel at Pay
  Costs with its move action lost, is left out);
* an attack with each of its attack bars, aimed at each legal target (the attack engine's own legality
  check, ``AttackEngine.illegal_reason``, probed before anything is declared);
* a spell cast from the two spells its player planned (``casting.legal_casts``), and the mage's
  quickcast (one quick spell per round, before or after its action);
* guard (a quick action that places a guard marker);
* every ``action ...:`` ability of the corpus on the creature or on what it carries, when its action
  speed fits and its mana can be paid;
* pass (end the activation).

Mandatory actions come from the codex and the cards in play: a ``static must(WHO, "ACTION", target: PHRASE)``
(an attack) or ``must(WHO, "move", toward: PHRASE)`` about the creature, from a trait or condition it has or
a card in play (engine/restrictions.py obligations_on).  When the creature can obey one of them as it
chooses its action, only the obeying options (and the quickcast before the action) are offered.  Nothing here names a card or trait.
"""
from __future__ import annotations

import dataclasses
from typing import Optional

from ..dsl import ast as A
from .actions import (AbilityChoice, Activation, AttackChoice, CastChoice, GuardChoice, MoveChoice, PassChoice,
                      options_of)
from . import bound as BD
from . import castlimit as CL
from . import othercasters as OC
from . import barclauses
from . import decisionmemo as DM
from . import casting, movement
from .attack import Attack, AttackAction
from .cardindex import per_definition
from .codex_rules import entries_stating
from .placement import probe as spell_probe
from .phrases import Ctx, resolve
from .restrictions import forbids, permits
from . import restrictions as RS
from . import ability_costs as COSTS
from . import action_speed as SPEED

__all__ = ["legal_actions", "options_of", "obligations", "Activation"]


# ---------------------------------------------------------------- helpers
def speed_of_ability(ab) -> Optional[str]:
    inner = ab.ability if isinstance(ab, A.OncePerRound) else ab
    if not isinstance(inner, A.ActivatedAbility):
        return None
    for c in inner.costs:
        if isinstance(c, A.CostAction):
            return c.action
    return "quick"


@per_definition
def _activated(definition) -> tuple:
    """(index, ability, its speed, whether a `spend_action` cost pays it) of each activated ability of a
    card or codex entry, in printed order: read once per definition (every activation asks it of every
    card it may use)."""
    return tuple((i, ab, sp, COSTS.spend_cost(ab) is not None) for i, ab in enumerate(definition.abilities)
                 if (sp := speed_of_ability(ab)) is not None)


def ability_mana(game, src, ab) -> int:
    inner = ab.ability if isinstance(ab, A.OncePerRound) else ab
    total = 0
    for c in inner.costs:
        if isinstance(c, A.CostMana):
            v = c.amount.as_int() if hasattr(c.amount, "as_int") else c.amount
            total += v if isinstance(v, int) else game.x_value(src)
    return total


def action_ability_sources(game, creature) -> list:
    """Objects whose `action` abilities this creature may use: itself and what is attached to it
    (equipment, enchantments) under its controller's control, face up."""
    out = [creature]
    for att in game.state.attachments(creature):
        if att.controller == creature.controller and not att.hidden:
            out.append(att)
    for oid in game.d(creature).borrowed:  # bars it borrows for a while (borrow_bars)
        other = game.state.objects.get(oid)
        if other is not None and other.in_play and other not in out:
            out.append(other)
    return out


#: the obligations the Action Phase obeys (engine/restrictions.py OBLIGATION_HOOKS) and the keyword naming
#: what each is aimed at
DUTIES: dict[str, str] = {"attack": "target", "melee attack": "target", "ranged attack": "target",
                          "move": "toward"}


def obligations(game, creature) -> list[tuple[str, list, str]]:
    """Mandatory actions stated about this creature, by its codex entries and by the cards in play
    (`must(WHO, "ACTION", target: PHRASE)`, `must(WHO, "move", toward: PHRASE)`): (action, objects it must
    aim at or go toward, where it is stated).  A codex `must` in another form cannot be obeyed by the
    engine: it is reported, not skipped."""
    out = []
    for src, call, kw, ctx, where, _rule in RS.obligations_on(game, tuple(DUTIES), creature):
        action = RS.action_of_must(call)
        tgt = kw[DUTIES[action]]
        try:
            got = game.evaluate(tgt, ctx) if isinstance(tgt, A.Call) else resolve(game, tgt, ctx)
        except Exception as e:  # noqa: BLE001 - reported, never guessed
            game.note_unsupported(f"must of {where}", f"cannot read what it is aimed at: {e}")
            continue
        got = got if isinstance(got, list) else [got] if got is not None else []
        out.append((action.replace(" ", "_"), [o for o in got if hasattr(o, "id") and o is not creature], where))
    d = game.d(creature)
    stating = entries_stating(game, "must")  # (shared per corpus; None: a codex of its own, asked entry by entry)
    if stating is not None and stating.isdisjoint(d.traits) and stating.isdisjoint(creature.markers):
        return out  # (no entry it carries states a `must`: most creatures, at every decision)
    names = list(d.traits) + [m for m, n in creature.markers.items() if n and m not in d.traits]
    for name in names:
        for ab in game.codex_statics(name, "must"):
            if not RS.is_obligation(ab.effect):
                game.note_unsupported(f"must of {name}", "the obligation names no target the engine can read")
    return out


def obeys(game, choice, duty: tuple[str, list, str]) -> bool:
    """Does this choice carry out the obligation (an attack of the right kind on one of its targets, a move
    nearer one of the objects it must go toward)?"""
    action, targets, _ = duty
    ids = {o.id for o in targets}
    if isinstance(choice, AttackChoice) and action in ("melee_attack", "attack", "ranged_attack"):
        kind = action.split("_")[0]
        adef, _src = game.attacks.find_attack(game.state.objects[choice.obj_id], choice.attack_name,
                                              at_zone=choice.zone is not None)
        return bool(set(choice.target_ids) & ids) and (kind == "attack" or adef.kind == kind) \
            and affordable(game, choice, adef)
    if isinstance(choice, MoveChoice) and action == "move":
        # a move that brings it closer to one of its targets; a mandatory move never goes through a
        # wall with passage attacks (supplement, Mandatory Actions)
        st = game.state
        here = st.zone_of(st.objects[choice.obj_id])
        zones = [z for z in (st.zone_of(o) for o in targets) if z is not None]
        if here is None or not zones:
            return False
        if not min(st.arena.distance(choice.to_zone, z) for z in zones) < min(st.arena.distance(here, z)
                                                                                for z in zones):
            return False
        return not any(movement.passage_attacks(w) for w in movement.walls_on(game, here, choice.to_zone))
    return False


def affordable(game, choice, adef) -> bool:
    """Can the attacker's controller pay what declaring this attack would cost: the mana a
    `when attacked(...): prevent_unless_paid(PAYER, N)` of an object in play asks (Suppression Cloak)?
    A mandatory action binds only when it is possible, costs included (Rules, Mandatory Actions)."""
    creature = game.state.objects[choice.obj_id]
    action = AttackAction(creature, adef, creature, tuple(adef.traits), adef.kind)
    toll = 0
    for tid in choice.target_ids:
        t = game.state.objects[tid]
        probe = Attack(action, creature, creature, t)
        for src in game.state.in_play():
            if src.hidden:
                continue
            for ab in src.card.abilities:
                if not (isinstance(ab, A.TriggeredAbility) and ab.event.name == "attacked"):
                    continue
                tolls = [e for e in ab.effects if isinstance(e, A.Call) and e.name == "prevent_unless_paid"
                         and len(e.args) > 1]
                if not tolls:
                    continue
                ctx = Ctx(this=src, it=t, attack=probe)
                try:
                    if not game.event_matches(ab.event, src, t, ctx) \
                            or (ab.guard is not None and not game.evaluate(ab.guard, ctx)):
                        continue
                    n = game.evaluate(tolls[0].args[1].value, ctx)
                except Exception:  # noqa: BLE001 - a toll the probe cannot read: the attack is taken as affordable
                    continue
                toll += n if isinstance(n, int) else 0
    return toll <= game.state.players[creature.controller].mana


# ---------------------------------------------------------------- legal options
#: attack bars (`special`) made otherwise than as an attack action
_NOT_OFFERED = frozenset({"counterstrike", "barrier", "passage", "bash"})


def attack_options(game, creature, speeds: tuple) -> list[AttackChoice]:
    out = []
    d = game.d(creature)
    if "attack" in d.cannot_do:
        return out
    here = game.state.zone_of(creature)
    in_play = None
    for (adef, src_id) in d.attacks:
        if SPEED.speed(game, creature, adef.action) not in speeds or adef.kind not in ("melee", "ranged") \
                or not _NOT_OFFERED.isdisjoint(adef.special):
            continue
        if CL.bar_limit_reached(game, creature, adef, game.state.objects.get(src_id)):
            continue  # a spell attack used as often as its cast_limit allows this round
        if adef.cost is not None:
            cost = adef.cost.as_int() if hasattr(adef.cost, "as_int") else adef.cost
            if isinstance(cost, int) and cost > game.state.players[creature.controller].mana:
                continue
        action = AttackAction(creature, adef, creature, tuple(adef.traits), adef.kind)
        if adef.is_zone:
            lo, hi = adef.range or (0, 0)
            for z in game.state.arena.zones():
                if here and lo <= game.state.arena.distance(here, z) <= hi \
                        and any(o.controller != creature.controller for o in game.state.objects_in_zone(z)):
                    out.append(AttackChoice(creature.id, adef.name, (), z))
            continue
        # an attack whose effect replaces its damage (a healing attack) is aimed at friends too
        friendly_ok = barclauses.effects(game, Attack(action, creature, creature, creature))[1] \
            and barclauses.has_effect(game, action)
        # a ranged attack's target further than its range is never legal (illegal_reason: out of range;
        # only its minimum range may be ignored, in the attacker's own zone)
        far = adef.range[1] if adef.kind == "ranged" and adef.range and here is not None else None
        if in_play is None:  # (the same for every bar: nothing changes while the options are listed)
            # the objects in a zone with a Life: what any bar may aim at (found once for every bar)
            in_play = [t for t in game.state.in_play()
                       if t is not creature and t.zone is not None and game.life(t) is not None]
        for t in in_play:
            if t.controller == creature.controller and not friendly_ok:
                continue
            if adef.kind == "melee" and t.zone != here:  # (t.zone is set: zone_of(t) is t.zone)
                continue
            if far is not None and t.border is None and game.state.arena.distance(here, t.zone) > far:
                continue
            probe = Attack(action, creature, creature, t)
            if game.attacks.illegal_reason(probe) is None:
                out.append(AttackChoice(creature.id, adef.name, (t.id,), None))
    return out


def cast_options(game, caster, planned: list[str], speeds: tuple, quickcast: bool) -> list[CastChoice]:
    if not planned:
        return []
    kept = casting.kept_casts  # the casting sequence's legal_casts (engine/casting.py)
    out = []
    how = None  # (the caster's cast_as, asked once: it is about the caster, not the spell)
    for name in dict.fromkeys(planned):
        card = game.card(name)
        if how is None:
            how = (casting.cast_as(game, caster),)
        if casting.spell_action(game, caster, card, how[0]) not in speeds:
            continue
        # a quick spell of a Mage with its quickcast marker is asked twice a decision (marker and action)
        got = kept(game, caster, name, card)
        if quickcast:
            out += [CastChoice(ch.caster_id, ch.card_name, tuple(ch.target_ids), ch.zone, ch.face_down, True)
                    for ch in got]
        else:  # (legal_casts' own choices: made without the quickcast marker, of frozen values)
            out += [ch if ch.quickcast is False and ch.target_ids.__class__ is tuple
                    else CastChoice(ch.caster_id, ch.card_name, tuple(ch.target_ids), ch.zone, ch.face_down, False)
                    for ch in got]
    return out


def move_options(game, creature) -> list[MoveChoice]:
    oid = creature.id
    return [MoveChoice(oid, z) for z in movement.legal_moves(game, creature)] + \
        [MoveChoice(oid, z, teleport=True) for z in movement.teleport_moves(game, creature)]


def ability_options(game, creature, speeds: tuple, own: bool = False) -> list[AbilityChoice]:
    """The `action` abilities the creature may use now, at these speeds; `own`: only those printed on the
    creature itself (not on what it carries, nor stated by the codex entries of its traits)."""
    out = []
    mana = game.state.players[creature.controller].mana
    # (an ability of no speed is never offered: only the activated ones are listed)
    table = _activated.table  # (its own table read first: one dict get, not a call, per source)
    usable = []
    for src in (creature,) if own else action_ability_sources(game, creature):
        got = table.get(id(src.card))
        usable += [(src, i, ab, sp) for i, ab, sp, spent in (got if got is not None else _activated(src.card))
                   if not spent]
    # abilities paid by spending this creature's action or move (engine/ability_costs.py)
    usable += [(src, i, src.card.abilities[i], sp)
               for src, i, sp in COSTS.offered(game, creature, speeds, not creature.moves_taken)
               if not own or src is creature]
    for src, i, ab, sp in usable:
        if sp is not None and sp != COSTS.MOVE:
            sp = SPEED.speed(game, creature, sp)  # a quick action that counts as full, or the other way
        if sp is None or (sp not in speeds and sp != COSTS.MOVE):
            continue
        if isinstance(ab, A.OncePerRound) and ("once", id(ab), game.state.round) in src.uses:
            continue
        if ability_mana(game, src, ab) > mana or not COSTS.can_pay(game, src, creature, ab):
            continue
        if OC.casts_nothing(game, src, ab, creature):  # a casting ability with nothing to cast
            continue
        out.append(AbilityChoice(src.id, i, (), creature.id if src is not creature else None))
    for other in () if own else OC.actions_lent(game, creature):  # another object's, as its own (Gurmash)
        for i, ab, sp, spent in _activated(other.card):
            sp = SPEED.speed(game, creature, sp) if sp != COSTS.MOVE else None
            if spent or sp not in speeds or ability_mana(game, other, ab) > mana:
                continue
            if isinstance(ab, A.OncePerRound) and ("once", id(ab), game.state.round) in creature.uses:
                continue  # (its own use of that ability: the lender's is apart)
            out.append(AbilityChoice(creature.id, i, (), None, card_of=other.id))
    for key in () if own else game.d(creature).traits:  # `action` abilities the codex entries of its traits state (Climbing)
        cd = game.codex.get(key)
        got = table.get(id(cd)) if cd is not None and cd.kind == "trait" else ()
        for i, ab, sp, _spent in got if got is not None else _activated(cd):
            if sp not in speeds or ability_mana(game, creature, ab) > mana:
                continue
            if isinstance(ab, A.OncePerRound) and ("once", id(ab), game.state.round) in creature.uses:
                continue
            out.append(AbilityChoice(creature.id, i, (), None, key))
    return out


def quickcast_attacks(game, creature) -> list[AttackChoice]:
    """Quick attacks the creature may make with its player's quickcast marker: only when a statement
    permits it (`can(WHO, "attack", during: "quickcast")`, engine/restrictions.py permits)."""
    if "take actions" in game.d(creature).cannot_do or not permits(game, "attack", creature, moment="quickcast"):
        return []
    return [AttackChoice(c.obj_id, c.attack_name, c.target_ids, c.zone, quickcast=True)
            for c in attack_options(game, creature, ("quick",))]


def permitted_casts(game, creature, spells: list[str], act: Activation) -> list[CastChoice]:
    """Casts open to a creature that cannot take actions: those of spells a `can(WHO, "cast", target: SPELL)`
    statement permits it (the restriction query, engine/restrictions.py; `target:` is the spell)."""
    speeds = ("quick", "full") if act.moves == 0 and not creature.moves_taken else ("quick",)
    here = game.state.zone_of(creature)
    ok = [n for n in dict.fromkeys(spells)
          if permits(game, "cast", creature, spell_probe(game, creature, game.card(n), here))]
    return cast_options(game, creature, ok, speeds, False) if ok else []


def legal_actions(game, creature, act: Activation, planned: list[str], quickcast_ready: bool,
                  notes: Optional[list] = None) -> list:
    """The typed choices open to `creature` at this point of its activation (what the candidates ask
    alike is worked out once: engine/decisionmemo.py).  Asking writes nothing in the log: what the
    offer means to the players (a mandatory action narrowing it) is added to `notes`, for the caller
    that offers the choices to say."""
    with DM.scope(game):
        return _legal_actions(game, creature, act, planned, quickcast_ready, notes if notes is not None else [])


def _legal_actions(game, creature, act: Activation, planned: list[str], quickcast_ready: bool, notes: list) -> list:
    d = game.d(creature)
    out: list = []
    is_mage = game.state.players.get(creature.controller) is not None and \
        game.state.players[creature.controller].mage_id == creature.id
    bound = [n for (_o, n) in BD.castable(game, creature)]  # spells bound to its objects (engine/bound.py)
    if quickcast_ready and is_mage:
        out += cast_options(game, creature, list(planned) + bound, ("quick",), True)
        out += quickcast_attacks(game, creature)
        # the quick abilities printed on the Mage are quick spells (Rules, Actions: abilities that count
        # as a quick spell): the quickcast marker may pay for one (Priestess's Restore, twice a round)
        out += [dataclasses.replace(c, quickcast=True) for c in ability_options(game, creature, ("quick",), own=True)
                if c.obj_id == creature.id and c.entry is None and c.actor_id is None
                and speed_of_ability(creature.card.abilities[c.ability_index]) == "quick"]
    if "take actions" in d.cannot_do:  # stated by the codex (Incapacitated, and what brings it)
        if not act.acted:  # a spell a `can(WHO, "cast", target: SPELL)` still lets it cast with its action
            spells = list(planned) if is_mage else OC.given(creature) if getattr(creature, "given_spells", None) else []
            out += permitted_casts(game, creature, spells + bound, act)
        return out + [PassChoice(creature.id)]
    if not act.acted:
        speeds = ("quick", "full") if act.moves == 0 and not creature.moves_taken else ("quick",)
        acts: list = []
        acts += attack_options(game, creature, speeds)
        if is_mage:
            acts += cast_options(game, creature, planned, speeds, False)
        elif getattr(creature, "given_spells", None):  # a familiar: the spell it was given (othercasters.py)
            acts += cast_options(game, creature, OC.given(creature), speeds, False)
        if bound:
            known = {(c.card_name, c.target_ids, c.zone) for c in acts if isinstance(c, CastChoice)}
            acts += [c for c in cast_options(game, creature, bound, speeds, False)
                     if (c.card_name, c.target_ids, c.zone) not in known]
        if not creature.guard and not forbids(game, "guard", creature):  # Grapple, Stagger... (the codex)
            acts.append(GuardChoice(creature.id))
        acts += ability_options(game, creature, speeds)
        moves = move_options(game, creature)  # legal_moves: move limits, hindering, walls, Restrained
        # a move it must make toward something is made once it has moved this activation
        duties = [du for du in obligations(game, creature) if not (du[0] == "move" and act.moves)]
        if duties:
            obeying = [c for c in acts + moves if any(obeys(game, c, du) for du in duties)]
            if obeying:
                names = ", ".join(sorted({du[2] for du in duties}))
                notes.append(f"{creature.label()} must obey {names}: only the actions that do are offered")
                return out + obeying
        out += moves + acts
    return out + [PassChoice(creature.id)]


