"""Effect primitives, named exactly like the DSL vocabulary (magewars/dsl/vocab.py).

`PRIMITIVES` maps a vocabulary effect name to its implementation; `VALUES`
maps value functions and predicates.  A vocabulary function the engine does
not implement raises :class:`NotImplementedPrimitive`; `run_effect` records
it as an ``unsupported`` event (and on `game.unsupported`) — never a silent skip.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Optional

from functools import lru_cache

from ..dsl import ast as A
from ..dsl import vocab as V
from ..dsl.model import AttackDefinition
from . import movement
from . import othercasters as _OC
from . import extracost as _EC
from . import bound as _BD
from .attack import AttackAction
from .attackeffects import EFFECTS as ATTACK_EFFECTS, VALUES as ATTACK_VALUES
from .decisions import Option
from .effects import trait_from_ref
from .errors import EffectStopped, secret_keywords
from .phrases import Ctx, PhraseError, has_name, has_subtype, matches, resolve, resolve_one, selector_of
from .restrictions import Marker, action_of, forbidden, forbids, grant, impose
from .state import UNTIL_EITHER, start_of_action_phase
from .targeting import choose_target, needs_choice
from . import condition_damage


class NotImplementedPrimitive(Exception):
    def __init__(self, name: str, where: str = ""):
        self.name = name
        super().__init__(f"the engine does not implement '{name}' yet" + (f" ({where})" if where else ""))


def _args(call: A.Call) -> tuple[list, dict]:
    pos, kw = [], {}
    for a in call.args:
        if a.key:
            kw[a.key] = a.value
        else:
            pos.append(a.value)
    return pos, kw


#: phrase openings that name the acting side (its controller, itself), never an object it affects
_ACTING = ("you", "your", "controller", "owner", "this")


def _count(game, v, ctx) -> int:
    """`count(PHRASE)`: how many objects the phrase names, or how many zones a zone phrase names
    ("zones adjacent to this zone")."""
    if isinstance(v, A.Phrase) and getattr(selector_of(game, v), "domain", None) == "zone":
        return len([z for z in resolve(game, v, ctx) if isinstance(z, str)])
    return len(_objs(game, v, ctx))


def _objs(game, v, ctx) -> list:
    if v is None:
        return []
    if isinstance(v, A.Phrase):
        sel = needs_choice(game, v, ctx)  # an ability's `target ...` nobody declared: its controller picks
        if sel is not None:
            choose_target(game, sel, ctx)
        got = [o for o in resolve(game, v, ctx) if not isinstance(o, str)]
        spared = game.spared_from.get(ctx.this.id) if ctx.this is not None else None
        if spared:  # objects a counterspell took out of this spell's effect (p_counter_spell)
            got = [o for o in got if o.id not in spared]
        if ctx.this is not None and v.words and v.words[0].text.lower() not in _ACTING \
                and game.source_immunities(ctx.this.card):
            keep = []
            for o in got:
                why = game.immune_to_source(o, ctx.this)
                if why:
                    if not ctx.extra.get("probe"):  # a question about the state (a cost) says nothing
                        # a face-down source is named only to its controller
                        game.emit("immune", why, secret_for=ctx.this.controller if ctx.this.hidden else None)
                else:
                    keep.append(o)
            got = keep
        return got
    if isinstance(v, A.Call):
        r = evaluate(game, v, ctx)
        return r if isinstance(r, list) else [r] if r is not None else []
    return []


def _one(game, v, ctx):
    got = _objs(game, v, ctx)
    return got[0] if got else None


def _num(game, v, ctx) -> int:
    r = evaluate(game, v, ctx)
    if isinstance(r, bool) or not isinstance(r, int):
        raise NotImplementedPrimitive(f"number from {v!r}")
    return r


def _traits(v) -> list[tuple[str, int]]:
    if isinstance(v, A.TraitGroup):
        out = []
        for ref in v.traits:
            n = ref.param.value if ref.param is not None and isinstance(ref.param.value, int) else 1
            out.append((ref.name.text, n))
        return out
    if isinstance(v, A.Phrase):
        return [(v.text, 1)]
    return []


def _word(v) -> str:
    """A bare word or a quoted string given as an argument."""
    if isinstance(v, A.Phrase):
        return v.text
    if isinstance(v, A.StringLit):
        return v.value
    raise NotImplementedPrimitive(f"a word, not {type(v).__name__}")


def _src(ctx: Ctx) -> str:
    """Who an effect comes from, for the log: the codex rule (with the object carrying it) or the object."""
    label = ctx.extra.get("label")
    if label:
        return label
    return ctx.this.label() if ctx.this is not None else "an effect"


def _hidden_src(ctx: Ctx) -> dict:
    """The secret_for and public_text of a log line naming the source of an effect that is face down
    (a card whose abilities work hidden): its controller reads the line, the others its public form."""
    this = ctx.this
    if this is None:
        return {}
    return secret_keywords(this, f"NOT IMPLEMENTED: an effect of {this.public_label()} is not applied")


def _player_of(game, obj) -> str:
    if obj is None:
        return None
    if isinstance(obj, str):
        return obj
    return obj.controller


# ---------------------------------------------------------------- effects
def p_destroy(game, call, ctx):
    pos, kw = _args(call)
    done = False
    for o in _objs(game, pos[0], ctx):
        if o.in_play:
            game.destroy(o, why=f"by {_src(ctx)}", by=ctx.attack.source if ctx.attack is not None else ctx.this,
                         rule=ctx.extra.get("rule"))
            done = not o.in_play
    ctx.extra["succeeded"] = done


MAGE_LEVEL = 6  # a Mage counts as level 6 where an effect reads a creature's level (supplement)


def _level(o) -> int:
    if o is None or isinstance(o, str):
        return 0
    return MAGE_LEVEL if o.card.kind in ("mage", "magestats") else (o.card.level or 0)


def p_discard(game, call, ctx):
    pos, kw = _args(call)
    for o in _objs(game, pos[0], ctx):
        game.discard(o, why=f"by {_src(ctx)}")


def p_damage(game, call, ctx, direct=False):
    pos, kw = _args(call)
    amount = _num(game, pos[1], ctx)
    dtype = None
    t = kw.get("type", pos[2] if len(pos) > 2 else None)
    if isinstance(t, A.Phrase):
        dtype = t.text
    total = 0
    for o in _objs(game, pos[0], ctx):
        n = amount
        kind = condition_damage.condition_of(game, ctx, o)
        if kind is not None and n > 0:  # a condition damaging its carrier: announced first (may be prevented)
            n = condition_damage.announce(game, o, kind, n)
        if n:
            room = game.remaining_health(o)  # no more is dealt than it takes to destroy the object
            total += min(game.deal_damage(o, n, _src(ctx), dtype, direct=direct), room)
    ctx.extra["last_amount"] = total  # last_amount(): what was actually dealt


def p_direct_damage(game, call, ctx):
    p_damage(game, call, ctx, direct=True)


def p_heal(game, call, ctx):
    pos, kw = _args(call)
    amount = _num(game, pos[1], ctx)
    total = 0
    for o in _objs(game, pos[0], ctx):  # what cannot heal (Finite Life...) says so in Game.heal
        total += game.heal(o, amount, _src(ctx), by=ctx.this)
    ctx.extra["last_amount"] = total  # last_amount(): what was actually healed


def p_regenerate(game, call, ctx):
    """`regenerate(WHO, N)`: healing that a `cannot(this, "regenerate")` stops (engine/restrictions.py)."""
    pos, kw = _args(call)
    amount = _num(game, pos[1], ctx)
    for o in _objs(game, pos[0], ctx):
        why = forbids(game, "regenerate", o)
        if why:
            game.emit("heal", f"{o.label()} does not regenerate: {why}", target=o.id, rule=why.rule)
            continue
        game.heal(o, amount, _src(ctx), by=ctx.this)


def p_reconstruct(game, call, ctx):
    pos, kw = _args(call)
    amount = _num(game, pos[1], ctx)
    for o in _objs(game, pos[0], ctx):
        n = min(amount, o.damage)
        if n:
            game.state.set_damage(o, o.damage - n)
            game.emit("heal", f"{o.label()} reconstructs {n} damage ({_src(ctx)})", target=o.id, amount=n)


def p_place(game, call, ctx):
    pos, kw = _args(call)
    count = _num(game, kw["count"], ctx) if "count" in kw else (_num(game, pos[2], ctx) if len(pos) > 2 else 1)
    targets, placed = _objs(game, pos[0], ctx), 0
    for o in targets:
        for name, n in _traits(pos[1]):
            placed += game.place_condition(o, name, count if "count" in kw or len(pos) > 2 else n, _src(ctx),
                                           by=ctx.this)
    if targets:  # `if succeeded()`: some marker went on (an immunity may stop them all)
        ctx.extra["succeeded"] = placed > 0


def p_remove(game, call, ctx):
    pos, kw = _args(call)
    count = _num(game, kw["count"], ctx) if "count" in kw else None
    for o in _objs(game, pos[0], ctx):
        for name, _n in _traits(pos[1]):
            why = forbids(game, "remove condition", o, Marker(o, name)) if o.markers.get(name) else None
            if why:  # a card keeps it on (engine/restrictions.py)
                game.emit("rule", f"{name} stays on {o.label()}: {why}", target=o.id, rule=why.rule)
                continue
            n = game.state.remove_marker(o, name, count)
            if n:
                game.emit("condition", f"{n} {name} removed from {o.label()} ({_src(ctx)})")
                # the roll that removed it, if one did (a Burn that rolls a blank)
                game.fire("condition_removed", o, Ctx(this=o, it=o), kind=name, rolled=ctx.extra.get("rolled"))
    game.check_state()


def p_remove_all(game, call, ctx):
    """`remove_all(WHAT)`: every marker goes; `remove_all(WHAT, [NAMES])`: every marker of those names
    (what keeps a condition on, `cannot(..., "remove condition")`, is honoured as for `remove`)."""
    pos, kw = _args(call)
    kinds = _traits(pos[1]) if len(pos) > 1 else _traits(kw["kind"]) if "kind" in kw else []
    for o in _objs(game, pos[0], ctx):
        if not kinds:
            for name in list(o.markers):
                game.state.remove_marker(o, name)
            game.emit("condition", f"every marker removed from {o.label()} ({_src(ctx)})")
            continue
        for name, _n in kinds:
            if not o.markers.get(name):
                continue
            why = forbids(game, "remove condition", o, Marker(o, name))
            if why:
                game.emit("rule", f"{name} stays on {o.label()}: {why}", target=o.id, rule=why.rule)
                continue
            n = game.state.remove_marker(o, name, o.markers[name])
            game.emit("condition", f"every {name} removed from {o.label()} ({n}) ({_src(ctx)})")
    game.check_state()
    game.check_state()


#: why tokens are not placed on a zone (the state keeps markers on objects only); coverage reports the
#: same shape at lint time
TOKENS_ON_ZONE = "tokens on a zone: the engine keeps markers on objects only"


@lru_cache(maxsize=4096)
def _phrase_names_zone(v: A.Phrase) -> bool:
    from ..dsl import selectors as S
    try:
        sel = S.compile_or_raise(v, (), lenient_names=True)
    except Exception:  # noqa: BLE001 - a phrase the selector compiler cannot read names no zone here
        return False
    return isinstance(sel, S.ZoneOf) or getattr(sel, "domain", None) == "zone"


def names_zone(v) -> bool:
    """Does this phrase name zones rather than objects ("target zone", "zone of target"; not "each
    creature in this zone")?  Read from the phrase's compiled selector."""
    return isinstance(v, A.Phrase) and _phrase_names_zone(v)


def p_place_tokens(game, call, ctx):
    pos, kw = _args(call)
    count = _num(game, kw.get("count", pos[2] if len(pos) > 2 else 1), ctx)
    name = pos[1].text if isinstance(pos[1], A.Phrase) else str(pos[1])
    if names_zone(pos[0]):
        raise NotImplementedPrimitive("place_tokens", TOKENS_ON_ZONE)
    for o in _objs(game, pos[0], ctx):
        game.state.add_marker(o, name, count)
        game.emit("token", f"{count} {name} token(s) placed on {o.label()} ({_src(ctx)})",
                  **secret_keywords(o, f"{count} {name} token(s) placed on {o.public_label()}"))


def _note_paid(ctx) -> None:
    """Remember that the source paid something (tokens, mana) during the current attack: paid()."""
    if ctx.attack is not None and ctx.this is not None:
        paid = getattr(ctx.attack, "paid_by", None)
        if paid is None:
            paid = ctx.attack.paid_by = set()
        paid.add(ctx.this.id)


def p_remove_tokens(game, call, ctx):
    pos, kw = _args(call)
    count = _num(game, kw.get("count", pos[2] if len(pos) > 2 else 1), ctx)
    name = pos[1].text if isinstance(pos[1], A.Phrase) else str(pos[1])
    if names_zone(pos[0]):
        raise NotImplementedPrimitive("remove_tokens", TOKENS_ON_ZONE)
    for o in _objs(game, pos[0], ctx):
        n = game.state.remove_marker(o, name, count)
        if n:
            _note_paid(ctx)
        game.emit("token", f"{n} {name} token(s) removed from {o.label()} ({_src(ctx)})",
                  **secret_keywords(o, f"{n} {name} token(s) removed from {o.public_label()}"))
        if n:  # (a token removed: an object carrying none loses none, and nothing hears of it)
            game.fire("token_removed", o, Ctx(this=o, it=o), kind=name)  # `kind:` names the token removed


def _atk(ctx):
    """The attack being resolved, if any: a spell being cast (engine/casting.py Casting) stands in
    ctx.attack for reveal rules and "that spell", but is no attack to avoid, cancel or redirect."""
    a = ctx.attack
    return None if a is None or getattr(a, "is_casting", False) else a


def _attack_or_fail(ctx, name):
    if _atk(ctx) is None:
        raise NotImplementedPrimitive(name, "no attack is being resolved")
    return ctx.attack


def p_avoid_attack(game, call, ctx):
    atk = _atk(ctx)
    if atk is None:
        game.emit("rule", f"{_src(ctx)}: no attack to avoid — no effect")
        return
    game.attacks.avoid(atk, _src(ctx))


def p_cancel_attack(game, call, ctx):
    atk = _atk(ctx)
    if atk is None:
        game.emit("rule", f"{_src(ctx)}: no attack to cancel — no effect")
        return
    game.attacks.cancel(atk, f"canceled by {_src(ctx)}")


def p_redirect_attack(game, call, ctx):
    atk = _atk(ctx)
    if atk is None:
        game.emit("rule", f"{_src(ctx)}: no attack to redirect — no effect")
        return
    pos, kw = _args(call)
    to = _one(game, pos[0] if pos else kw.get("to"), ctx)
    game.attacks.redirect(atk, to, _src(ctx), ctx.this)


def p_modify_dice(game, call, ctx):
    atk = _attack_or_fail(ctx, "modify_dice")
    pos, _ = _args(call)
    atk.extra_dice.append((_src(ctx), _num(game, pos[0], ctx), ctx.this.timestamp if ctx.this else 0))


def p_modify_dice_per_action(game, call, ctx):
    """Attack dice that count once per attack action: an attack gets only the part of the amount that
    earlier attacks of the same action did not get from this same rule (so a bonus that grows during
    the action adds just its growth to the next attack; a penalty is taken once the same way)."""
    atk = _attack_or_fail(ctx, "modify_dice_per_action")
    pos, _ = _args(call)
    amount = _num(game, pos[0], ctx)
    key = (ctx.this.id if ctx.this is not None else None, ctx.extra.get("ability"))
    # (a penalty, Charge -1, counts once per action the same way)
    grant = max(0, amount - atk.action.bonus_used[key]) if amount >= 0 else min(0, amount - atk.action.bonus_used[key])
    if grant:
        atk.action.bonus_used[key] += grant
        atk.extra_dice.append((f"{_src(ctx)}; first attack it can use it", grant, 0))


def _attack_flag(flag: str, what: str):
    """An effect that marks how the current attack's damage is worked out."""
    def primitive(game, call, ctx):
        atk = _attack_or_fail(ctx, primitive.__name__[2:])
        setattr(atk, flag, True)
        game.emit("rule", f"{_src(ctx)}: {what}")
    return primitive


p_all_damage_critical = _attack_flag("all_critical", "all damage of this attack is critical")
p_all_damage_critical.__name__ = "p_all_damage_critical"
p_ignore_normal_damage = _attack_flag("ignore_normal", "normal damage of this attack is ignored")
p_ignore_normal_damage.__name__ = "p_ignore_normal_damage"
p_only_ones_count = _attack_flag("only_ones", "only the 1s on the attack dice count, and no effects")
p_only_ones_count.__name__ = "p_only_ones_count"


def p_pierce_armor(game, call, ctx):
    atk = _attack_or_fail(ctx, "pierce_armor")
    pos, _ = _args(call)
    atk.pierce += _num(game, pos[0], ctx)
    atk.pierce_by.append(_src(ctx))


def p_modify_effect_roll(game, call, ctx):
    atk = _attack_or_fail(ctx, "modify_effect_roll")
    pos, _ = _args(call)
    atk.extra_effect.append((_src(ctx), _num(game, pos[0], ctx), ctx.this.timestamp if ctx.this else 0))


def p_modify_damage(game, call, ctx):
    atk = _attack_or_fail(ctx, "modify_damage")
    pos, _ = _args(call)
    atk.extra_damage.append((_src(ctx), _num(game, pos[0], ctx)))


def p_prevent_damage(game, call, ctx):
    would = ctx.extra.get("would")
    if ctx.attack is None and isinstance(would, dict) and "prevented" in would:
        would["prevented"] = _src(ctx)  # damage about to be dealt outside an attack (condition_damage)
        return
    atk = _attack_or_fail(ctx, "prevent_damage")
    pos, _ = _args(call)
    atk.prevent = None if not pos else _num(game, pos[0], ctx)
    atk.prevent_source = _src(ctx)


def _mana_players(game, v, ctx) -> list:
    """The players whose mana a gain or payment names: an object's controller, or a player itself
    (`you`/`controller` name the player when they have no Mage in play, as in a scenario)."""
    got = resolve(game, v, ctx) if isinstance(v, A.Phrase) else _objs(game, v, ctx)
    out = []
    for x in got:
        who = x if isinstance(x, str) and x in game.state.players else (
            None if isinstance(x, str) else _player_of(game, x))
        if who is not None and who not in out:
            out.append(who)
    return out


def p_gain_mana(game, call, ctx):
    pos, _ = _args(call)
    n = _num(game, pos[1], ctx)
    for who in _mana_players(game, pos[0], ctx):
        p = game.state.players[who]
        p.mana += n
        game.state.touch()
        game.emit("mana", f"{p.name} gains {n} mana (now {p.mana})")


class Unpaid(EffectStopped):
    """A mana payment its player cannot make: nothing is paid, and the rest of the effect it pays for
    does not happen (run_effect stops the effect there)."""


def p_pay_mana(game, call, ctx):
    pos, _ = _args(call)
    n = _num(game, pos[1], ctx)
    payers = _mana_players(game, pos[0], ctx)
    short = [w for w in payers if game.state.players[w].mana < n]
    if short:
        ctx.extra["succeeded"] = False
        p = game.state.players[short[0]]
        game.emit("rule", f"{p.name} cannot pay {n} mana (has {p.mana}) for {_src(ctx)}: what it pays for "
                          f"does not happen")
        raise Unpaid(p.name)
    for who in payers:
        p = game.state.players[who]
        to = _mana_leaves(game, who, n, ctx)
        p.mana -= n
        game.state.touch()
        game.emit("mana", f"{p.name} pays {n} mana (now {p.mana})")
        if to is not None:
            _mana_to_object(game, to, n, who, _src(ctx))
        if n:
            _note_paid(ctx)


def _supplies(game, v, ctx) -> list:
    """The players whose mana supply a value names: a player, or a Mage (its controller's supply).
    Mana kept on other objects is not a supply: refused loudly, never taken from the player."""
    got = resolve(game, v, ctx) if isinstance(v, A.Phrase) else _objs(game, v, ctx)
    out = []
    for x in got:
        if isinstance(x, str):
            who = x if x in game.state.players else None
        elif game.state.mage_of(x.controller) is x:
            who = x.controller
        else:
            raise NotImplementedPrimitive("mana kept on an object", x.label())
        if who is not None and who not in out:
            out.append(who)
    return out


def _mana_leaves(game, who: str, n: int, ctx, by=None) -> Optional[Any]:
    """A player is about to lose or pay `n` mana because of an effect: `when loses_mana(PLAYER, source:
    WHO)` abilities hear it (the player's Mage; `source` fits the object whose effect it is, or the
    attacker of the attack being resolved), and one may send the mana elsewhere (`redirect_mana(to:
    OBJECT)`).  Returns the object the mana goes to instead, or None."""
    mage = game.state.mage_of(who)
    if not n or mage is None:
        return None
    atk = _atk(ctx)
    cause = by if by is not None else atk.attacker if atk is not None else ctx.this
    event = {"to": None}
    game.fire("loses_mana", mage, Ctx(it=mage, attack=ctx.attack), by_obj=cause, amount=n, mana_event=event)
    return event["to"]


def _mana_to_object(game, obj, n: int, who: str, why: str) -> None:
    """Mana taken from a player's supply is placed on an object instead (as mana tokens: the codex
    keyword whose markers are mana, `static mana_supply()`)."""
    from .manasupply import supply_markers
    keys = supply_markers(game)
    if not keys:
        raise NotImplementedPrimitive("mana placed on an object", "no codex marker is mana")
    game.state.add_marker(obj, keys[0], n)
    game.emit("mana", f"the {n} mana {who} loses goes onto {obj.label()} instead ({why})", player=who,
              target=obj.id)


def _lose_mana(game, who: str, n: int, why: str, ctx=None) -> int:
    """The player loses up to n mana; returns what they lost to whoever takes it (0 when an ability
    placed it on an object instead: a transfer then gives nothing)."""
    p = game.state.players[who]
    lost = max(0, min(n, p.mana))
    to = _mana_leaves(game, who, lost, ctx) if ctx is not None else None
    if lost:
        p.mana -= lost
        game.state.touch()
    game.emit("mana", f"{who} loses {lost} mana ({why}; now {p.mana})", player=who, amount=-lost)
    if to is not None:
        _mana_to_object(game, to, lost, who, why)
        return 0
    return lost


def _lose_object_mana(game, obj, n: int, why: str) -> int:
    """Up to n mana kept on an object (its mana markers) is taken off it."""
    from .manasupply import supply_markers
    took = 0
    for k in supply_markers(game):
        if took >= n:
            break
        took += game.state.remove_marker(obj, k, n - took)
    game.emit("mana", f"{took} mana is taken off {obj.label()} ({why})", target=obj.id, amount=-took)
    return took


def p_drain_mana(game, call, ctx):
    """The player loses up to N mana from their supply (as much as they have)."""
    pos, kw = _args(call)
    n = _num(game, kw.get("amount", pos[1] if len(pos) > 1 else None), ctx)
    total = 0
    for who in _supplies(game, kw.get("who", pos[0] if pos else None), ctx):
        total += _lose_mana(game, who, n, _src(ctx), ctx)
    ctx.extra["last_amount"] = total


def p_transfer_mana(game, call, ctx):
    """The first player loses up to N mana and the second gains exactly what was lost."""
    pos, kw = _args(call)
    src_v = kw.get("from", pos[0] if pos else None)
    to = _supplies(game, kw.get("to", pos[1] if len(pos) > 1 else None), ctx)
    n = _num(game, kw.get("amount", pos[2] if len(pos) > 2 else None), ctx)
    holders = [o for o in _objs(game, src_v, ctx) if not isinstance(o, str)] if src_v is not None else []
    from .manasupply import own_mana
    if holders and all(own_mana(game, o) or game.state.mage_of(o.controller) is not o for o in holders):
        lost = sum(_lose_object_mana(game, o, n, _src(ctx)) for o in holders)  # mana kept on objects
    else:
        lost = sum(_lose_mana(game, who, n, _src(ctx), ctx) for who in _supplies(game, src_v, ctx))
    for who in to[:1]:
        p = game.state.players[who]
        p.mana += lost
        game.state.touch()
        game.emit("mana", f"{who} gains the {lost} mana ({_src(ctx)}; now {p.mana})", player=who, amount=lost)
    ctx.extra["last_amount"] = lost


def _upkeep_tokens(game, o):
    """The card's own `static upkeep_paid_in(this, TOKEN[, from: OBJ])`: (token name, the object
    holding the tokens), or None when its upkeep is paid in mana."""
    for ab in o.card.abilities:
        eff = getattr(ab, "effect", None)
        if isinstance(ab, A.StaticAbility) and isinstance(eff, A.Call) and eff.name == "upkeep_paid_in":
            pos, kw = _args(eff)
            token = pos[1].text if isinstance(pos[1], A.Phrase) else str(pos[1])
            c = Ctx(this=o, it=o)
            holder = _one(game, kw["from"], c) if "from" in kw else game.state.mage_of(o.controller)
            return token, holder
    return None


def _pay_upkeep_in_tokens(game, o, n, token, holder) -> None:
    """Upkeep paid with tokens: the controller removes N tokens from the holder, or the object is destroyed."""
    p = game.state.players.get(o.controller)
    have = holder.markers.get(token, 0) if holder is not None else 0
    paid = False
    if p is not None and n <= have:
        ch = game.decide("upkeep", p.name, [Option(f"pay {n} {token} for {o.public_label()}", True),
                                            Option(f"do not pay: {o.public_label()} is destroyed", False)],
                         prompt=f"upkeep of {o.public_label()}", default=0)
        paid = bool(ch.value)
    if paid:
        game.state.remove_marker(holder, token, n)
        o.uses.add(("upkeep_paid", game.state.round))
        game.state.touch()
        game.emit("token", f"{p.name} pays {n} {token} from {holder.label()} as the upkeep of {o.label()}")
        game.fire("token_removed", holder, Ctx(this=holder, it=holder), kind=token)
    else:
        game.emit("rule", f"the upkeep of {o.label()} ({n} {token}, {have} held) is not paid: it is destroyed")
        game.destroy(o, why="upkeep not paid")


def p_pay_upkeep(game, call, ctx):
    """Upkeep: the object's controller pays the mana (or the tokens its card names, `upkeep_paid_in`),
    or (unable or unwilling) the object is destroyed."""
    from .placement import cost_changes, use_cost_changes
    pos, _ = _args(call)
    base = _num(game, pos[1], ctx)
    for o in _objs(game, pos[0], ctx):
        if not o.in_play:
            continue
        n = base
        in_tokens = _upkeep_tokens(game, o)
        if in_tokens is not None:
            _pay_upkeep_in_tokens(game, o, n, *in_tokens)
            continue
        mage = game.state.mage_of(o.controller) or o
        changes = cost_changes(game, mage, o, (), "upkeep")  # `costs(..., only: "upkeep")` statics in play
        for src, c, minimum in changes:
            amt = evaluate(game, c.args[1].value, Ctx(this=src, it=o))
            if isinstance(amt, int) and amt:
                new = n + amt
                n = max(0, max(new, min(n, minimum)) if minimum is not None else new)
                game.emit("rule", f"upkeep of {o.label()}: {amt:+d} ({src.label()})")
        p = game.state.players.get(o.controller)
        paid = False
        if p is not None and n <= p.mana:
            ch = game.decide("upkeep", p.name, [Option(f"pay {n} mana for {o.public_label()}", True),
                                                Option(f"do not pay: {o.public_label()} is destroyed", False)],
                             prompt=f"upkeep of {o.public_label()}", default=0)
            paid = bool(ch.value)
        if paid:
            p.mana -= n
            if changes:
                use_cost_changes(game, mage, o, (), "upkeep")
            o.uses.add(("upkeep_paid", game.state.round))  # read by upkeep_paid() (engine/situation.py)
            game.state.touch()
            game.emit("mana", f"{p.name} pays {n} mana upkeep for {o.label()} (now {p.mana})",
                      player=p.name, amount=n)
        else:
            game.emit("rule", f"the upkeep of {o.label()} ({n} mana) is not paid: it is destroyed")
            game.destroy(o, why="upkeep not paid")


def p_redirect_spell(game, call, ctx):
    """`redirect_spell(SPELL, to: OBJECT)`: the spell being cast aims at the object instead of the one
    this card is attached to (or its first target) (engine/casting.py redirect)."""
    from .casting import redirect
    pos, kw = _args(call)
    cur = ctx.attack
    spell = _one(game, pos[0], ctx) if pos else None
    if not getattr(cur, "is_casting", False) or spell is None or cur.spell is not spell:
        raise NotImplementedPrimitive("redirect_spell", "no spell being cast to redirect")
    to = _one(game, kw.get("to", pos[1] if len(pos) > 1 else None), ctx)
    if to is None:
        game.emit("rule", f"{_src(ctx)}: nothing to redirect the spell to — no effect")
        return
    host = game.state.objects.get(ctx.this.attached_to) if ctx.this is not None and ctx.this.attached_to else None
    redirect(game, cur, host, to)


def p_modify_healing(game, call, ctx):
    """`modify_healing(N)` in a `when healed` ability: the healing just given heals N more (no more than
    the damage left)."""
    pos, _ = _args(call)
    event = ctx.extra.get("healing_event")
    if event is None:
        raise NotImplementedPrimitive("modify_healing", "outside a healed ability")
    event["more"] += _num(game, pos[0], ctx)


def p_redirect_mana(game, call, ctx):
    """`redirect_mana(to: OBJECT)` in a `when loses_mana` ability: the mana goes onto that object."""
    pos, kw = _args(call)
    event = ctx.extra.get("mana_event")
    if event is None:
        raise NotImplementedPrimitive("redirect_mana", "outside a loses_mana ability")
    event["to"] = _one(game, kw.get("to", pos[0] if pos else None), ctx)


def p_move_enchantment(game, call, ctx):
    pos, kw = _args(call)
    to = _one(game, kw.get("to", pos[1] if len(pos) > 1 else None), ctx)
    for o in _objs(game, pos[0], ctx):
        game.move_attachment(o, to)


def p_attach(game, call, ctx):
    """`attach(WHAT, to: OBJ[, replacing: "return_to_hand"])`: moves an attachment; with `replacing`,
    equipment already there sharing its name or slot first returns to its owner's spellbook."""
    pos, kw = _args(call)
    rep = kw.get("replacing")
    to = _one(game, kw.get("to", pos[1] if len(pos) > 1 else None), ctx)
    if isinstance(rep, A.StringLit) and rep.value == "return_to_hand" and to is not None:
        from .placement import _slots
        for o in _objs(game, pos[0], ctx):
            mine = set(_slots(o.card))
            for old in [a for a in game.state.attachments(to) if a.kind == "equipment" and a is not o
                        and (a.name == o.name or (mine and mine & set(_slots(a.card))))]:
                game.state.remove_from_play(old, "spellbook")
                game.emit("rule", f"{old.label()} shares its name or slot with {o.label()}: it returns to its "
                                  f"owner's spellbook first ({_src(ctx)})", target=old.id)
    p_move_enchantment(game, call, ctx)


def p_teleport(game, call, ctx):
    pos, kw = _args(call)
    to = kw.get("to", pos[1] if len(pos) > 1 else None)
    if isinstance(to, A.Call):
        got = evaluate(game, to, ctx)
        zones = got if isinstance(got, list) else [got] if got is not None else []
    else:
        sel = needs_choice(game, to, ctx) if isinstance(to, A.Phrase) else None
        if sel is not None:  # `to: target zone ...` of an ability: its controller picks the zone
            choose_target(game, sel, ctx, sight=False)  # a teleport needs no line of sight (Rules, Teleporting)
        zones = resolve(game, to, ctx) if to is not None else []
    zones = list(dict.fromkeys(z if isinstance(z, str) else game.state.zone_of(z) for z in zones))
    zones = [z for z in zones if z]
    zone = zones[0] if zones else None
    if len(zones) > 1:  # `to: a zone adjacent to this`: the controller of the effect picks one of them
        who = ctx.this.controller if ctx.this is not None else game.state.order[0]
        zone = game.decide("target", who, [Option(z, z) for z in zones],
                           prompt="zone to teleport to", default=0).value
    for o in _objs(game, pos[0], ctx):
        if zone:
            try:
                movement.teleport(game, o, zone, _src(ctx))
            except movement.IllegalMove as e:
                game.emit("rule", f"{o.label()} is not teleported: {e}")


#: `push(..., direction: "along")`: the way the object whose move is being answered goes
ALONG = "along"


def _crossing(ctx, what: str) -> tuple:
    """(zone left, zone entered) of the move an ability is answering (`leaves`, `moves`)."""
    got = ctx.extra.get("crossing")
    if got is None or None in got:
        raise NotImplementedPrimitive(what, "outside an ability answering a move")
    return got


def _way(game, a: str, b: str) -> Optional[str]:
    arena = game.state.arena
    (r1, c1), (r2, c2) = arena.coords(a), arena.coords(b)
    return next((w for w, (dr, dc) in movement.DIRECTIONS.items() if (r1 + dr, c1 + dc) == (r2, c2)), None)


def v_crossed_border_with(game, call, ctx) -> bool:
    """`crossed_border_with(WHO, PHRASE)` in an ability answering WHO's move: whether the border it
    crosses holds a wall fitting the phrase."""
    pos, _ = _args(call)
    a, b = _crossing(ctx, "crossed_border_with")
    return any(matches(game, w, pos[1], ctx) for w in movement.walls_on(game, a, b)) if len(pos) > 1 else False


SAME_WAY = "the same direction for all"  # push(EACH ..., direction: SAME_WAY): one way, pushes in order


def p_push(game, call, ctx):
    pos, kw = _args(call)
    d = kw.get("direction")
    direction = d.value if isinstance(d, A.StringLit) else None
    if direction == ALONG:  # the way the mover goes, from the zone it leaves into the next
        a, b = _crossing(ctx, "push along")
        direction = _way(game, a, b)
        if direction is None:
            raise NotImplementedPrimitive("push along", f"{a} and {b} are not side by side")
    if direction is None and ctx.attack is not None:
        direction = movement.bar_push_direction(ctx.attack)
    if direction is not None and direction not in movement.DIRECTIONS and direction not in (
            "random", movement.TOWARD, SAME_WAY):
        raise NotImplementedPrimitive(f"push direction {direction!r}")
    src = ctx.attack.source if ctx.attack is not None else ctx.this
    source_zone = game.state.zone_of(src) if src is not None else None
    pusher = ctx.attack.attacker if ctx.attack is not None else ctx.this  # the pusher picks the way
    chooser = pusher.controller if pusher is not None else game.state.order[0]
    objs = _objs(game, pos[0], ctx)
    if direction == SAME_WAY:  # one direction, chosen once; the pusher's controller orders the pushes
        ch = game.decide("target", chooser, [Option(w, w) for w in movement.DIRECTIONS],
                         prompt=f"push them all which way ({_src(ctx)})?", default=0)
        direction, rest, objs = ch.value, list(objs), []
        while len(rest) > 1:
            nxt = game.decide("order", chooser, [Option(o.label(), o) for o in rest],
                              prompt=f"which is pushed next ({_src(ctx)})?", default=0).value
            objs.append(nxt)
            rest = [o for o in rest if o is not nxt]
        objs += rest
    moved = False
    for o in objs:
        if movement.push(game, o, source_zone, chooser, direction, _src(ctx), by=src):
            moved = True
            if pusher is not None:  # `when pushes(WHO, target: PHRASE)`: `target` is the object pushed
                game.fire("pushes", pusher, Ctx(this=pusher, attack=ctx.attack, it=pusher, target=o), pushed=o)
    ctx.extra["succeeded"] = moved  # `if succeeded()`: the push moved something (not stopped, not Bashed)


def p_cannot(game, call, ctx):
    """`cannot(WHO, "ACTION", ...)` as an effect: a restriction while this spell resolves
    (engine/restrictions.py `impose`, read by the same query as the static ones)."""
    pos, _ = _args(call)
    try:
        got = impose(game, _objs(game, pos[0], ctx), call, ctx.this)
    except NotImplementedError as e:
        raise NotImplementedPrimitive(str(e))
    for o in got:
        game.emit("rule", f"{o.label()} cannot {action_of(call)} while {_src(ctx)} resolves")


def p_can(game, call, ctx):
    """`can(WHO, "ACTION", ..., until: "end of round")` as an effect: a permission until the end of the round
    (engine/restrictions.py `grant`, read by the same query as the static ones, `this` = this source)."""
    pos, _ = _args(call)
    try:
        got = grant(game, _objs(game, pos[0], ctx), call, ctx.this)
    except NotImplementedError as e:
        raise NotImplementedPrimitive(str(e))
    for o in got:
        game.emit("rule", f"{o.label()} may {action_of(call)} until the end of the round ({_src(ctx)})")


def p_guard(game, call, ctx):
    pos, _ = _args(call)
    for o in _objs(game, pos[0], ctx):
        why = forbids(game, "guard", o)
        if why:
            game.emit("rule", f"{o.label()} gets no guard marker: {why}", target=o.id)
            continue
        o.guard = True
        game.state.touch()
        game.emit("marker", f"{o.label()} gets a guard marker")


def p_remove_guard(game, call, ctx):
    pos, _ = _args(call)
    for o in _objs(game, pos[0], ctx):
        if o.guard:
            o.guard = False
            game.state.touch()
            game.emit("marker", f"{o.label()} loses its guard marker")


def p_ready(game, call, ctx):
    pos, _ = _args(call)
    for o in _objs(game, pos[0], ctx):
        o.action_marker = "ready"
        game.state.touch()


def p_exhaust(game, call, ctx):
    pos, _ = _args(call)
    for o in _objs(game, pos[0], ctx):
        o.action_marker = "used"
        game.state.touch()


def p_note(game, call, ctx):
    pos, _ = _args(call)
    game.emit("note", f"{_src(ctx)}: {pos[0].value if pos and isinstance(pos[0], A.StringLit) else ''}")


def p_roll_effect_die(game, call, ctx):
    v = game.dice.d12()
    atk = _atk(ctx)
    if atk is not None and game.attacks.current_step == "roll_to_miss" and atk.miss_roll is None:
        # the roll made in the Roll to Miss step is that step's roll: abilities may reroll it
        atk.miss_roll = v
        game.emit("roll", f"{_src(ctx)}: roll to miss on the effect die: {v}", d12=v, purpose="roll to miss")
        game.fire("rolls", atk.attacker, Ctx(attack=atk, it=atk.attacker), what="roll to miss")
        if game.attacks.offer_reroll(atk, "roll to miss"):
            v = atk.miss_roll
    else:
        game.emit("roll", f"{_src(ctx)} rolls the effect die: {v}", d12=v)
    ctx.extra["rolled"] = v


def p_roll_attack_dice(game, call, ctx):
    pos, _ = _args(call)
    faces = game.dice.attack(_num(game, pos[0], ctx))
    ctx.extra["rolled"] = sum(f.value for f in faces)
    game.emit("roll", f"{_src(ctx)} rolls {' '.join(map(str, faces))}", faces=[str(f) for f in faces])


def _bar_of(game, attacker, bar: str, ctx):
    """The attack bar `bar` an object attacks with: one of its own, else one printed on the card whose
    effect makes it attack (Burst of Thorns: the Vine marker attacks with the spell's bar)."""
    try:
        return game.attacks.find_attack(attacker, bar)
    except KeyError as e:
        own = next((a for a in (ctx.this.card.attacks if ctx.this is not None else ())
                    if a.name.lower() == bar.lower()), None)
        if own is None:
            raise NotImplementedPrimitive("make_attack", str(e))
        return own, ctx.this


def _pick_attack_target(game, attacker, bar: str, ctx):
    """The attacker's controller picks a legal target for one of its attack bars (an ability that makes
    an attack without naming its target); None when there is none (said in the log)."""
    from .attack import Attack, AttackAction
    adef, src = _bar_of(game, attacker, bar, ctx)
    probe = AttackAction(attacker, adef, attacker, tuple(adef.traits), adef.kind)
    probe.owner = src
    legal = [t for t in game.state.in_play() if t is not attacker and not t.hidden and game.life(t) is not None
             and game.state.zone_of(t) is not None
             and game.attacks.illegal_reason(Attack(probe, attacker, attacker, t)) is None]
    if not legal:
        game.emit("rule", f"{_src(ctx)}: no legal target for {bar} — no attack")
        return None
    return game.decide("target", attacker.controller, [Option(t.label(), t) for t in legal],
                       prompt=f"target of {bar} ({_src(ctx)})", default=0).value


def p_make_attack(game, call, ctx):
    pos, kw = _args(call)
    attacker = _one(game, pos[0], ctx)
    tphrase = kw.get("target", pos[1] if len(pos) > 1 else None)
    cands = _objs(game, tphrase, ctx)
    target = cands[0] if cands else None
    name = kw.get("attack", pos[2] if len(pos) > 2 else None)
    aname = name.value if isinstance(name, A.StringLit) else ctx.extra.get("attack_bar")  # a bar's trait: that bar
    if isinstance(tphrase, A.Phrase) and len(cands) > 1 and attacker is not None:
        legal = [c for c in cands if game.attacks.could_attack(attacker, c, ctx.attack,
                                                                aname if ctx.attack is None else None)]
        if not legal:
            game.emit("rule", f"{_src(ctx)}: no legal target for the attack — no effect")
            return
        ch = game.decide("target", attacker.controller, [Option(c.label(), c) for c in legal],
                         prompt=f"target of the attack ({_src(ctx)})", default=0)
        target = ch.value
    if target is None and ctx.chosen is not None and len(pos) > 1:
        target = ctx.chosen
    if target is None and tphrase is None and attacker is not None and isinstance(name, A.StringLit):
        target = _pick_attack_target(game, attacker, name.value, ctx)  # `make_attack(this, attack: BAR)`
        if target is None:
            return
    if attacker is None or target is None:
        game.emit("rule", f"{_src(ctx)}: make_attack has no attacker or target — no effect")
        return
    atk = _atk(ctx)
    if atk is not None and aname is None and attacker is atk.attacker:
        # the same attack against another target, as part of the same attack action
        game.attacks.chain(atk.action, atk.source, target, atk.action.x)
        return
    if atk is not None and aname and aname.lower() == atk.action.definition.name.lower():
        # the same attack again, as part of the same attack action (a chain): the named object is its source
        game.attacks.chain(atk.action, attacker, target, ctx.extra.get("x_set", atk.action.x))
        return
    if aname and ctx.this is not None and ctx.this is not attacker:
        adef, src = _bar_of(game, attacker, aname, ctx)
        if src is ctx.this and src is not attacker:  # the effect's own bar, made by the attacker named
            from .attack import AttackAction
            action = AttackAction(attacker, adef, attacker, tuple(adef.traits), adef.kind)
            action.owner = src
            game.attacks.run_action(action, [target])
            return
    game.attacks.make_attack(attacker, aname, [target])


def p_count_as_defense(game, call, ctx):
    game.emit("rule", f"{_src(ctx)} counts as a defense")


def p_set_source(game, call, ctx):
    atk = _atk(ctx)
    pos, kw = _args(call)
    src = _one(game, pos[1] if len(pos) > 1 else kw.get("source"), ctx)
    if atk is None or src is None:
        game.emit("rule", f"{_src(ctx)}: set_source has no attack or no source — no effect")
        return
    atk.source = src
    game.emit("rule", f"{src.label()} is now the source of the attack (the attacker is still {atk.attacker.label()})")


def p_share_damage_and_effects(game, call, ctx):
    atk = _attack_or_fail(ctx, "share_damage_and_effects")
    pos, kw = _args(call)
    to = _one(game, pos[1] if len(pos) > 1 else kw.get("to"), ctx)
    if to is None:
        return
    game.emit("rule", f"{_src(ctx)}: {to.label()} receives the {atk.dealt} damage and the effects "
                      f"{dict(atk.conditions) or 'none'} (no type, armor ignored)")
    if atk.dealt:
        game.deal_damage(to, atk.dealt, _src(ctx), None, direct=True)
    for name, n in atk.conditions:
        if to.in_play:
            game.place_condition(to, name, n, _src(ctx))


def p_transfer_damage(game, call, ctx):
    """`transfer_damage(FROM, TO, up_to: N)`: up to N points of the damage already on FROM move onto TO
    (the effect's controller picks how many).  Nothing is dealt or healed, so what stops healing
    (Finite Life) or prevents damage does not stop it; TO may be destroyed by what it receives."""
    pos, kw = _args(call)
    frm = _one(game, pos[0], ctx)
    to = _one(game, pos[1] if len(pos) > 1 else kw.get("to"), ctx)
    if frm is None or to is None or frm is to or not frm.in_play or not to.in_play:
        game.emit("rule", f"{_src(ctx)}: no damage can be moved (nothing to move it from or to)")
        return
    most = frm.damage if "up_to" not in kw else min(frm.damage, _num(game, kw["up_to"], ctx))
    if most <= 0:
        game.emit("rule", f"{_src(ctx)}: {frm.label()} has no damage to move")
        return
    player = ctx.this.controller if ctx.this is not None else frm.controller
    ch = game.decide("choose", player, [Option(f"move {n} damage", n) for n in range(most, 0, -1)],
                     prompt=f"{_src(ctx)}: how much damage moves from {frm.label()} to {to.label()}?", default=0)
    n = ch.value
    game.state.set_damage(frm, frm.damage - n)
    game.state.set_damage(to, to.damage + n)
    game.emit("effect", f"{_src(ctx)}: {n} damage moves from {frm.label()} (now {frm.damage}) to {to.label()} "
                        f"(now {to.damage})", target=to.id)
    game.check_state()


def p_summon_later(game, call, ctx):
    """`summon_later(WHO, "CARD", WHERE)`: the player controlling WHO takes a card of that name from their
    spellbook or discard pile (their choice; nothing happens if they have none) and it waits face down,
    out of play, in the zone where WHERE is (or was when it left play); it is summoned at the end of the
    round (engine/round.py end_round)."""
    pos, _ = _args(call)
    who = _one(game, pos[0], ctx)
    name = _word(pos[1]) if len(pos) > 1 else ""
    where = _one(game, pos[2], ctx) if len(pos) > 2 else None
    player = _player_of(game, who) if who is not None else None
    zone = (game.state.zone_of(where) or where.zone) if where is not None else None
    if player not in game.state.players or zone is None:
        game.emit("rule", f"{_src(ctx)}: nobody to summon a {name} for, or nowhere to summon it — no effect")
        return
    rs = getattr(game, "round_state", None)
    library = rs.library.get(player) if rs is not None else None
    discard = rs.discard.get(player, []) if rs is not None else []
    dead = [o for o in game.state.graveyard if o.owner == player and o.card.name.lower() == name.lower()]
    opts = []
    if library and library.get(name):
        opts.append(Option("from the spellbook", "spellbook"))
    if dead or name in discard:
        opts.append(Option("from the discard pile", "discard"))
    if not opts:
        game.emit("rule", f"{_src(ctx)}: {player} has no {name} in their spellbook or discard pile — no effect")
        return
    ch = game.decide("choose", player, opts, prompt=f"{_src(ctx)}: take the {name} from where?", default=0)
    if ch.value == "spellbook":
        library[name] -= 1
    elif dead:
        game.state.graveyard.remove(dead[0])
    else:
        discard.remove(name)
    game.summon_later.append((player, game.card(name).name, zone, _src(ctx)))
    game.emit("effect", f"{_src(ctx)}: {player}'s {name} ({ch.label}) waits face down in {zone}; it is summoned "
                        f"at the end of the round")


def p_set_x(game, call, ctx):
    pos, _ = _args(call)
    v = _num(game, pos[0], ctx)
    if ctx.this is not None:
        game.x_values[ctx.this.id] = v
    ctx.extra["x_set"] = v
    game.emit("rule", f"{_src(ctx)}: X = {v}")


def p_choose(game, call, ctx):
    pos, kw = _args(call)
    who = _one(game, pos[0], ctx) if pos else None
    player = _player_of(game, who) or (ctx.this.controller if ctx.this else game.state.order[0])
    src_phrase = pos[1] if len(pos) > 1 else kw.get("from")
    if isinstance(src_phrase, A.Phrase):
        cands = [o for o in resolve(game, src_phrase, ctx) if o is not None]
    else:
        cands = [o for o in _objs(game, src_phrase, ctx) if o is not None]
    cands = _fit_paid_x(game, ctx, cands)
    if not cands:
        game.emit("rule", f"{_src(ctx)}: nothing to choose")
        ctx.chosen = None
        return
    ch = game.decide("target", player, [Option(o if isinstance(o, str) else o.label(), o) for o in cands],
                     prompt=f"choose for {_src(ctx)}", default=0)
    ctx.chosen = ch.value
    _pay_for_chosen_x(game, ctx)


def _fit_paid_x(game, ctx, cands: list) -> list:
    """A spell whose X its `set_x(...)` works out from what it chooses (Dissolve: the cost of the
    equipment) may choose only what fits the X paid for it: the printed cost of the object, whatever
    a discount let its caster pay (Rules, Rings).  A spell taken over as it was cast (its new
    controller remakes its choices) may also choose what needs a lower X (nothing is refunded) or a
    higher one its controller can pay the difference for (`_pay_for_chosen_x`)."""
    spell = ctx.this
    if spell is None or spell.id not in game.x_values:
        return cands
    paid = game.x_values[spell.id]
    rule = _x_rule(spell)
    if rule is None:
        return cands
    c = ctx.extra.get("casting")
    remade = c is not None and getattr(c, "remade", False)
    fit = []
    for o in cands:
        v = _x_for(game, ctx, rule, o)
        if not isinstance(v, int) or v == paid:
            fit.append(o)
        elif remade and v < paid:
            fit.append(o)
        elif remade and _x_cost_of(game, c, v) - c.paid <= _available(game, c.caster):
            fit.append(o)
        else:
            game.emit("rule", f"{_src(ctx)}: X is {paid}; {o if isinstance(o, str) else o.label()} "
                              f"would need X = {v}: it cannot be chosen")
    return fit


def _x_rule(spell):
    """The expression of a spell's `static set_x(...)` that reads what it chooses, or None."""
    return next((ab.effect.args[0].value for ab in spell.card.abilities
                 if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name == "set_x"
                 and ab.effect.args and "chosen" in repr(ab.effect.args[0].value)), None)


def _x_for(game, ctx, rule, o):
    sub = Ctx(this=ctx.this, attack=ctx.attack, it=ctx.it, target=ctx.target, chosen=o)
    return evaluate(game, rule, sub)


def _x_cost_of(game, c, x: int) -> int:
    from .casting import casting_cost
    return casting_cost(game, c.caster, c.card, c.targets, x, c.spell)[0]


def _available(game, caster) -> int:
    from . import manasupply
    return manasupply.available(game, caster)


def _pay_for_chosen_x(game, ctx) -> None:
    """After a spell taken over as it was cast made a choice its X is worked out from: a higher X is
    paid for (the difference) or the spell is canceled, and the rest of its effect does not happen."""
    spell, c = ctx.this, ctx.extra.get("casting")
    if spell is None or c is None or not getattr(c, "remade", False) or ctx.chosen is None:
        return
    rule = _x_rule(spell)
    if rule is None or spell.id not in game.x_values:
        return
    v = _x_for(game, ctx, rule, ctx.chosen)
    if not isinstance(v, int) or v <= game.x_values[spell.id]:
        return
    from .casting import pay_difference
    if not pay_difference(game, c, _x_cost_of(game, c, v)):
        c.status, c.why = "canceled", c.why
        game.emit("rule", f"{c.card.name} is canceled: {c.why}")
        raise EffectStopped(c.card.name)
    game.x_values[spell.id] = c.x = v


def p_reorder_step(game, call, ctx):
    atk = _attack_or_fail(ctx, "reorder_step")
    pos, kw = _args(call)
    step = pos[0].value if pos and isinstance(pos[0], A.StringLit) else None
    after = kw.get("after", pos[1] if len(pos) > 1 else None)
    after = after.value if isinstance(after, A.StringLit) else None
    if step == "counterstrike" and after == "pay_costs":
        atk.action.first_strike.add((atk.defender or atk.target).id)
        game.emit("rule", f"{_src(ctx)}: the Counterstrike step will come right after Pay Costs")
    else:
        raise NotImplementedPrimitive(f"reorder_step({step}, after: {after})")


def p_cancel_action(game, call, ctx):
    atk = _attack_or_fail(ctx, "cancel_action")
    atk.action.canceled = True
    if "move" in atk.kinds():  # a move action in progress (movement.MoveInProgress)
        atk.status = "canceled"
        game.emit("canceled", f"the move action is canceled by {_src(ctx)}")
        return
    game.attacks.cancel(atk, f"the whole attack action is canceled by {_src(ctx)}")


def p_cannot_until(game, call, ctx):
    pos, kw = _args(call)
    what = _one(game, pos[0], ctx)
    action = pos[1].value if len(pos) > 1 and isinstance(pos[1], A.StringLit) else "?"
    detail = kw.get("detail")
    detail = detail.value if isinstance(detail, A.StringLit) else ""
    if "target" in kw:  # aimed at one object: recorded by its id (AttackEngine.illegal_reason reads it)
        aimed = _one(game, kw["target"], ctx)
        detail = f"target={aimed.id}" if aimed is not None else detail
    elif isinstance(kw.get("by"), A.StringLit):  # `cannot_until(X, "be_targeted", ..., by: "Spell Name")`
        detail = f"by={kw['by'].value}"  # read by casting.legal_target
    if what is not None:
        game.restrictions.append((what.id, action, detail, ctx.this.id if ctx.this else None, game.state.round))
        game.emit("rule", f"{what.label()} cannot {action} ({detail}) until the end of the round ({_src(ctx)})")


def p_hinder(game, call, ctx):
    """`hinder(OBJECTS, until: "end of round")`: they count as hindered while it lasts (Rules: Hindering)."""
    pos, kw = _args(call)
    until = kw.get("until")
    if until is not None and not (isinstance(until, A.StringLit) and until.value.replace("_", " ") in
                                  ("end of round", "end of the round")):
        raise NotImplementedPrimitive(f"hinder until {getattr(until, 'value', until)!r}")
    for o in _objs(game, pos[0], ctx):
        o.hindered_until = game.state.round
        game.state.touch()
        game.emit("rule", f"{o.label()} is hindered until the end of the round ({_src(ctx)})")


def p_attack_gains(game, call, ctx):
    """The attack in hand gains traits: attack traits on the attack; others (Melee +2) on the attacker
    until the attack ends, where the codex rules that read them look (as next_attack_gains does)."""
    atk = _attack_or_fail(ctx, "attack_gains")
    pos, _ = _args(call)
    if isinstance(pos[0], A.TraitGroup):
        for ref in pos[0].traits:
            entry = game.codex.get(ref.name.text)
            if entry is None or "Attack" in entry.categories:
                atk.gained.append(trait_from_ref(ref, game.codex))
            else:
                game.effects.temporary.append((game.state.next_timestamp(), _src(ctx), atk.attacker.id,
                                               A.Gain(A.Phrase((A.Word("it", "word"),)), A.TraitGroup((ref,))),
                                               game.attacks.duration_key(atk)))
                game.state.touch()
            game.emit("modifier", f"the attack gains {ref.text} ({_src(ctx)})")


def _duration(game, v, ctx) -> Optional[str]:
    """A duration written as a word or string ("end of round", "end_of_action_phase", "attack"): the
    duration name the engine ends effects by; an effect "until end of attack" made during an attack
    ends with that attack."""
    w = _word(v).strip().lower().replace(" ", "_")
    for lead in ("until_", "end_of_", "the_"):
        if w.startswith(lead):
            w = w[len(lead):]
    if w.startswith("end_of_"):
        w = w[len("end_of_"):]
    if w not in V.DURATIONS:
        raise NotImplementedPrimitive(f"duration {_word(v)!r}")
    if w == "attack" and ctx.attack is not None:
        return game.attacks.duration_key(ctx.attack)
    if w == "attack_action" and _atk(ctx) is not None:
        return game.attacks.action_duration_key(ctx.attack)
    return w


def _until(game, v, ctx, obj) -> Optional[str]:
    """The duration key of an `until:` argument for an effect on `obj`: one duration (see _duration),
    "start_of_action_phase" (the start of obj's own next Action Phase), or several joined by "or"
    (the effect ends with whichever comes first)."""
    keys = []
    for part in _word(v).split(" or "):
        w = part.strip().lower().replace(" ", "_")
        for lead in ("until_", "the_"):
            if w.startswith(lead):
                w = w[len(lead):]
        if w in ("start_of_action_phase", "start_of_its_action_phase", "start_of_its_next_action_phase"):
            keys.append(start_of_action_phase(obj.id))
        else:
            keys.append(_duration(game, A.StringLit(part.strip()), ctx))
    return UNTIL_EITHER.join(keys)


def _temporary_traits(game, call, ctx, node_of, verb: str) -> None:
    """`lose_until` / `gain_until`: the objects lose or gain traits, at a new timestamp, until a duration
    ends (a temporary effect the continuous-effects layer applies)."""
    pos, kw = _args(call)
    raw = kw.get("until", pos[2] if len(pos) > 2 else None)
    if raw is None:
        raise NotImplementedPrimitive(call.name, "no until: duration")
    node = node_of(A.Phrase((A.Word("it", "word"),)), pos[1])
    for o in _objs(game, pos[0], ctx):
        until = _until(game, raw, ctx, o)
        ts = game.state.next_timestamp()
        game.effects.temporary.append((ts, _src(ctx), o.id, node, until))
        game.state.touch()
        game.emit("effect", f"{o.label()}: {verb} {', '.join(r.text for r in pos[1].traits)} "
                            f"(from {_src(ctx)}, t{ts}, until {_word(raw).replace('_', ' ')})", target=o.id)
    game.check_state()


def p_lose_until(game, call, ctx):
    """The objects lose traits until a duration ends (a temporary lose, at a new timestamp)."""
    _temporary_traits(game, call, ctx, A.Lose, "loses")


def p_gain_until(game, call, ctx):
    """The objects gain traits until a duration ends (a temporary gain, at a new timestamp): a
    condition's state (Restrained, Incapacitated) given by a spell, with the spell's own duration."""
    _temporary_traits(game, call, ctx, A.Gain, "gains")


def p_attacks_gain(game, call, ctx):
    """The objects' attacks (of a kind, or one attack by name) gain traits until a duration ends (a
    temporary effect the continuous-effects layer applies; without `until:` it lasts)."""
    pos, kw = _args(call)
    until = _duration(game, kw["until"], ctx) if "until" in kw else None
    kind = kw.get("kind", pos[2] if len(pos) > 2 else None)
    kind = kind.text if isinstance(kind, A.Phrase) else (kind.value if isinstance(kind, A.StringLit) else None)
    for o in _objs(game, pos[0], ctx):
        if kind is not None and kind not in ("melee", "ranged") and all(a.name != kind for a in o.card.attacks):
            # the layer matches `kind` against an attack's kind or its name: anything else never applies
            raise NotImplementedPrimitive("attacks_gain", f"kind {kind!r} is neither melee, ranged nor an "
                                                          f"attack of {o.label()}")
        ts = game.state.next_timestamp()
        game.effects.temporary.append((ts, _src(ctx), o.id, call, until))
        game.state.touch()
        game.emit("effect", f"{o.label()}'s attacks gain {', '.join(r.text for r in pos[1].traits)} "
                            f"(from {_src(ctx)}, t{ts}" + (f", until end of {until}" if until else "") + ")")


def p_next_attack_gains(game, call, ctx):
    """The next attack (of a kind) each object makes this round gains traits (and dice) for that
    attack; counterstrikes count only if `counterstrike:` says so, and only an attack against an
    object fitting `against:`, and only when `provided:` holds as it is declared."""
    pos, kw = _args(call)
    for o in _objs(game, pos[0], ctx):
        game.attacks.pending_next.append({
            "who": o.id, "traits": pos[1], "kind": _word(kw["kind"]) if "kind" in kw else None,
            "dice": kw.get("dice"), "against": kw.get("against"), "provided": kw.get("provided"),
            "counterstrike": "counterstrike" in kw, "round": game.state.round,
            "src": _src(ctx), "this": ctx.this})
        game.emit("effect", f"{o.label()}'s next {(_word(kw['kind']) + ' ') if 'kind' in kw else ''}attack this "
                            f"round gains {', '.join(r.text for r in pos[1].traits)} ({_src(ctx)})", target=o.id)


def p_miss_attack(game, call, ctx):
    atk = _attack_or_fail(ctx, "miss_attack")
    if atk.status == "declared":
        atk.status = "missed"
        game.emit("rule", f"the attack misses ({_src(ctx)})")


def p_modify_defense_roll(game, call, ctx):
    atk = _attack_or_fail(ctx, "modify_defense_roll")
    pos, _ = _args(call)
    atk.defense_mods.append((_src(ctx), _num(game, pos[0], ctx)))


def _temporary_call(game, call, ctx, what: str) -> None:
    """An effect kept as a temporary effect holding its own call, on the objects its first argument
    names, until its `until:` duration ends (read where it matters: defenses.py, Effects)."""
    pos, kw = _args(call)
    until = _duration(game, kw["until"], ctx) if "until" in kw else None
    for o in _objs(game, pos[0], ctx):
        ts = game.state.next_timestamp()
        game.effects.temporary.append((ts, _src(ctx), o.id, call, until))
        game.state.touch()
        game.emit("effect", f"{o.label()}: {what} (from {_src(ctx)}, t{ts}"
                            + (f", until end of {_word(kw['until'])}" if until else "") + ")")


def p_defense_bonus(game, call, ctx):
    pos, _ = _args(call)
    _temporary_call(game, call, ctx, f"{_num(game, pos[1], ctx):+d} to its defense rolls")


def p_grant_defense(game, call, ctx):
    pos, _ = _args(call)
    _temporary_call(game, call, ctx, f"gains a Defense {_num(game, pos[1], ctx)}+")


def p_gain_attack(game, call, ctx):
    game.emit("rule", f"{_src(ctx)}: its attack bar is available (damage barriers on attached objects are "
                      f"always read from the attack bar)")


def p_reroll(game, call, ctx):
    atk = _attack_or_fail(ctx, "reroll")
    pos, _ = _args(call)
    what = pos[0].value if pos and isinstance(pos[0], A.StringLit) else "attack dice"
    done = {"attack dice": bool(atk.faces), "effect die": atk.effect_roll is not None,
            "roll to miss": atk.miss_roll is not None}.get(what, False)
    if done:
        game.attacks.reroll(atk, _src(ctx), what)
    else:
        atk.reroll_offers.append((ctx.this, what, ctx.extra.get("once")))
        ctx.extra["deferred"] = True
        game.emit("rule", f"{_src(ctx)}: may reroll the {what} of this attack once it is rolled")


def p_prevent_unless_paid(game, call, ctx):
    pos, _ = _args(call)
    who = _one(game, pos[0], ctx) if isinstance(pos[0], A.Phrase) else None
    got = resolve(game, pos[0], ctx) if isinstance(pos[0], A.Phrase) else []
    player = _player_of(game, got[0]) if got else None
    amount = _num(game, pos[1], ctx)
    atk = _atk(ctx)
    if player is None or player not in game.state.players:
        raise NotImplementedPrimitive("prevent_unless_paid", "cannot tell who pays")
    p = game.state.players[player]
    would = ctx.extra.get("would")
    if would is not None and would.get("prevented"):  # already prevented by another unpaid cost: no more asked
        ctx.extra["succeeded"] = False
        return
    opts = [Option(f"pay {amount} mana", True), Option("do not pay", False)]
    if p.mana < amount:
        opts = opts[1:]
    ch = game.decide("optional", player, opts, prompt=f"{_src(ctx)}: pay {amount} mana or it does not happen",
                     default=0)
    if ch.value:
        p.mana -= amount
        game.state.touch()
        game.emit("mana", f"{player} pays {amount} mana for {_src(ctx)} (now {p.mana})")
        # `when loses_mana` abilities hear a payment too; its source is the card whose cost it is (Pacify),
        # not the attacker whose attack is being resolved
        to = _mana_leaves(game, player, amount, ctx, by=ctx.this)
        if to is not None:
            _mana_to_object(game, to, amount, player, _src(ctx))
        ctx.extra["succeeded"] = True
    else:
        ctx.extra["succeeded"] = False
        would = ctx.extra.get("would")
        if would is not None:  # a "would be destroyed" window: the destruction does not happen
            would["prevented"] = f"{player} does not pay {amount} mana for {_src(ctx)}"
        elif atk is not None:
            before = game.attacks.current_step in ("declare_attack", "pay_costs")  # an unpaid cost: never declared
            game.attacks.cancel(atk, f"{player} does not pay {amount} mana for {_src(ctx)}", before_declared=before)
        else:
            raise NotImplementedPrimitive("prevent_unless_paid", "outside an attack")


def p_prevent_destruction(game, call, ctx):
    """`prevent_destruction()`: in a "would be destroyed" window, the destruction does not happen."""
    would = ctx.extra.get("would")
    if not isinstance(would, dict) or "prevented" not in would:
        raise NotImplementedPrimitive("prevent_destruction", "outside a would-be-destroyed window")
    would["prevented"] = f"{_src(ctx)} prevents it"


def _would_damage(game, atk) -> bool:
    """Would the attack's dice damage its target (armor and the preventions already set counted)?
    Asked before the damage is dealt, so that a prevention that must be used only on a damaging attack
    (the Wizard's Voltaric Shield) knows; a condition the attack places is not its damage."""
    if atk is None or not atk.faces:
        return False
    if forbidden(game, atk.target, ("receive damage",)):
        return False  # another effect keeps all the damage off: the player applies it first
    ones = sum(1 for f in atk.faces if f.value == 1) if atk.only_ones else 0
    return game.attacks.damage_from(atk, atk.normal, atk.crit, ones, game.armor(atk.target)) > 0


def _temp(game, ctx, target, node, label=None):
    ts = game.state.next_timestamp()
    game.effects.temporary.append((ts, label or _src(ctx), target.id, node, None))
    game.state.touch()
    return ts


def p_lose_life(game, call, ctx):
    pos, _ = _args(call)
    n = _num(game, pos[1], ctx)
    node = A.StatChange(A.Phrase((A.Word("it", "word"),)), (A.StatMod("life", A.Signed("-", n)),))
    for o in _objs(game, pos[0], ctx):
        ts = _temp(game, ctx, o, node)
        game.emit("effect", f"{o.label()} loses {n} life (not damage; {_src(ctx)}, t{ts})")
    game.check_state()


def p_obliterate(game, call, ctx):
    pos, _ = _args(call)
    for o in _objs(game, pos[0], ctx):
        game.destroy(o, why=f"by {_src(ctx)}: removed from the game", obliterate=True)


def p_return_to_hand(game, call, ctx):
    pos, _ = _args(call)
    for o in _objs(game, pos[0], ctx):
        if o.in_play and _BD.keeps(game, o):
            continue  # a bound spell being cast stays bound instead (engine/bound.py)
        if o.in_play:
            for att in list(game.state.attachments(o)):
                game.destroy(att, why=f"attached to {o.label()}, which returns to its owner's spellbook")
            hidden = secret_keywords(o, f"{o.public_label()} returns to its owner's spellbook ({o.owner}'s)")
            game.return_to_spellbook(o)
            game.emit("discarded", f"{o.label()} returns to its owner's spellbook ({o.owner}'s; {_src(ctx)})",
                      **hidden)
        elif o.left_to == "discard":  # from the discard pile (Curseweaving: a curse destroyed with its host)
            if o in game.state.graveyard:
                game.state.graveyard.remove(o)
            o.left_to = "spellbook"
            game.state.touch()
            game.emit("discarded", f"{o.label()} returns from the discard pile to its owner's spellbook "
                                   f"({_src(ctx)})")


def _cost_of(game, o) -> int:
    """A spell's full mana cost: casting plus reveal (X counted with the object's X), with the changes
    its own traits make to the reveal cost."""
    if o is None or isinstance(o, str):
        return 0
    total = 0
    for c in (o.card.cast_cost, o.card.reveal_cost):
        if isinstance(c, int):
            total += c
        elif c is not None:
            total += game.x_value(o) * getattr(c, "coef", 1)
    if o.card.reveal_cost is not None:  # the enchantment's own traits may raise it (engine/reveal.py)
        total += sum(n for _, n in game.reveals.trait_changes(o))
    return max(0, total)


def _mana_spent(game, spell) -> int:
    """The mana actually paid to cast a spell being cast (engine/casting.py: after cost changes)."""
    for c in reversed(getattr(game, "casting_stack", None) or ()):
        if c.spell is spell:
            return c.paid
    last = getattr(game, "last_cast", None)
    return last.paid if last is not None and last.spell is spell else 0


def p_counter_spell(game, call, ctx):
    """Counter the spell being cast (engine/casting.py): it has no effect; its costs stay paid."""
    stack = getattr(game, "casting_stack", None)
    c = stack[-1] if stack else None
    if c is None or c.status != "declared":
        game.emit("rule", f"{_src(ctx)}: no spell is being cast, nothing to counter")
        return
    pos, _ = _args(call)
    what = pos[0] if pos else None
    if isinstance(what, A.Phrase) and [w.text.lower() for w in what.words][:1] not in (["that"], ["it"], ["this"]) \
            and not matches(game, c.spell, what, ctx):
        game.emit("rule", f"{_src(ctx)} counters only {what.text}: {c.card.name} is not one")
        return
    host = game.state.host(ctx.this) if ctx.this is not None and ctx.this.attached_to else None
    if host is not None and c.zone and "/" not in c.zone and host not in c.targets and host is not c.caster \
            and c.spell is not None and game.state.zone_of(host) == c.zone:
        # a spell aimed at a zone, countered by what a creature in it carries: only its effect on that
        # creature is canceled; it resolves for the others (`spared_from`, read by _objs)
        game.spared_from.setdefault(c.spell.id, set()).add(host.id)
        game.emit("countered", f"{c.card.name} has no effect on {host.label()} ({_src(ctx)}); it still "
                               f"resolves for the rest", spell=c.card.name)
        return
    c.cancel(f"countered by {_src(ctx)}", "countered")
    game.emit("countered", f"{c.card.name} is countered by {_src(ctx)}: it has no effect", spell=c.card.name)


def p_gain_control(game, call, ctx):
    """Take control of objects.  A Mage restricted from a spell ("X Mage Only") cannot take control
    of it (engine/placement.py `mage_only`): the control stays where it was, and `succeeded()` is
    false, so the card's own text can say what happens instead."""
    from .placement import mage_only
    pos, _ = _args(call)
    who = _one(game, pos[0], ctx) if pos else None
    player = _player_of(game, who) if who is not None else None
    if player is None:
        game.emit("rule", f"{_src(ctx)}: no player to take control")
        ctx.extra["succeeded"] = False
        return
    done = False
    for o in _objs(game, pos[1] if len(pos) > 1 else None, ctx):
        if not o.in_play or o.controller == player:
            continue
        why = next(mage_only(game, player, o.card), None)
        if why:
            game.emit("rule", f"{player} cannot take control of {o.label()}: {why}", target=o.id)
            continue
        cur = ctx.attack
        if getattr(cur, "is_casting", False) and cur.spell is o:  # the spell being cast: its caster changes
            from .casting import take_over
            take_over(game, cur, player)
            done = True
            continue
        old = o.controller
        o.controller = player
        game.state.touch()
        game.emit("control", f"{player} takes control of {o.label()} from {old} ({_src(ctx)})", target=o.id,
                  **secret_keywords(o, f"{player} takes control of {o.public_label()} from {old}"))
        done = True
    ctx.extra["succeeded"] = done
    game.check_state()


def p_reveal(game, call, ctx):
    pos, _ = _args(call)
    for o in _objs(game, pos[0], ctx):
        if o.hidden:
            game.reveals.reveal(o, ctx.attack)


def p_move(game, call, ctx):
    pos, kw = _args(call)
    to = kw.get("to")
    zones = []
    if isinstance(to, A.Call):
        got = evaluate(game, to, ctx)
        zones = got if isinstance(got, list) else [got]
    elif to is not None:
        zones = resolve(game, to, ctx)
    over = None
    if "over" in kw:  # `over: PHRASE`: walls fitting it do not stop the move (a climb; passage attacks still come)
        over = (lambda wall, phrase=kw["over"]: matches(game, wall, phrase, ctx))
    for o in _objs(game, pos[0], ctx):
        here = game.state.zone_of(o)
        cands = [z if isinstance(z, str) else game.state.zone_of(z) for z in zones] if zones else \
            [z for z in game.state.arena.zones() if here and game.state.arena.distance(z, here) == 1]
        legal = set(movement.legal_moves(game, o, action=False, over=over)) if not zones else None
        cands = [z for z in cands if z and (legal is None or z in legal)]
        if not cands:
            game.emit("rule", f"{o.label()} has no zone it can move into ({_src(ctx)})")
            continue
        ch = game.decide("target", o.controller, [Option(z, z) for z in cands], prompt=f"move {o.label()} where?",
                         default=0)
        try:
            movement.move(game, o, ch.value, action=False, over=over)
        except movement.IllegalMove as e:
            game.emit("rule", f"{o.label()} does not move: {e}")


def p_swap(game, call, ctx):
    pos, kw = _args(call)
    a, b = _one(game, pos[0], ctx), _one(game, pos[1] if len(pos) > 1 else kw.get("second"), ctx)
    if a is None or b is None:
        return
    za, zb = game.state.zone_of(a), game.state.zone_of(b)
    movement.change_zone(game, a, zb, "swaps", walls_step=False)
    movement.change_zone(game, b, za, "swaps", walls_step=False)


def p_attack_with(game, call, ctx):
    """The source makes an unnamed attack of N dice against each object (neither melee nor ranged)."""
    pos, kw = _args(call)
    n = _num(game, pos[1] if len(pos) > 1 else kw.get("dice"), ctx)
    tg = kw.get("traits", pos[2] if len(pos) > 2 else None)
    traits = tuple(trait_from_ref(r, game.codex) for r in tg.traits) if isinstance(tg, A.TraitGroup) else ()
    adef = AttackDefinition(f"{ctx.this.name if ctx.this else 'an'} attack", None, None, (), None, None, n, (),
                            traits)
    for o in _objs(game, pos[0], ctx):
        if o.in_play:
            game.attacks.run_action(AttackAction(ctx.this, adef, ctx.this, traits, None), [o])


def p_convert_critical(game, call, ctx):
    atk = _attack_or_fail(ctx, "convert_critical")
    pos, _ = _args(call)
    atk.convert_critical += _num(game, pos[0], ctx)


def _has_versus_name(game, obj, name: str) -> bool:
    """`+X vs Nonliving Creature`: the object has the name, or (a name of several words) each word."""
    return has_name(game, obj, name) or (" " in name and all(has_name(game, obj, w) for w in name.split()))


def v_versus_bonus(game, atk) -> int:
    """The attack's `+X vs Name` bonuses whose names the defender has, added up."""
    if atk is None or atk.target is None:
        return 0
    return sum(t.value for t in tuple(atk.traits) + tuple(atk.gained)
               if t.versus and isinstance(t.value, int)
               and any(_has_versus_name(game, atk.target, n) for n in t.versus))


PRIMITIVES: dict[str, Callable] = {
    "destroy": p_destroy, "discard": p_discard, "damage": p_damage, "direct_damage": p_direct_damage,
    "heal": p_heal, "regenerate": p_regenerate, "reconstruct": p_reconstruct, "place": p_place, "remove": p_remove,
    "remove_all": p_remove_all, "place_tokens": p_place_tokens, "remove_tokens": p_remove_tokens,
    "avoid_attack": p_avoid_attack, "cancel_attack": p_cancel_attack, "redirect_attack": p_redirect_attack,
    "all_damage_critical": p_all_damage_critical, "ignore_normal_damage": p_ignore_normal_damage,
    "only_ones_count": p_only_ones_count, "pierce_armor": p_pierce_armor,
    "modify_dice": p_modify_dice, "modify_dice_per_action": p_modify_dice_per_action, "modify_effect_roll": p_modify_effect_roll, "modify_damage": p_modify_damage,
    "prevent_damage": p_prevent_damage, "reroll": p_reroll, "gain_mana": p_gain_mana, "pay_mana": p_pay_mana,
    "drain_mana": p_drain_mana, "transfer_mana": p_transfer_mana, "redirect_mana": p_redirect_mana, "modify_healing": p_modify_healing, "redirect_spell": p_redirect_spell, "pay_upkeep": p_pay_upkeep,
    "move_enchantment": p_move_enchantment, "attach": p_attach, "teleport": p_teleport, "guard": p_guard,
    "remove_guard": p_remove_guard, "ready": p_ready, "exhaust": p_exhaust, "note": p_note,
    "roll_effect_die": p_roll_effect_die, "roll_attack_dice": p_roll_attack_dice, "make_attack": p_make_attack,
    "count_as_defense": p_count_as_defense, "set_source": p_set_source,
    "share_damage_and_effects": p_share_damage_and_effects, "set_x": p_set_x, "choose": p_choose,
    "reorder_step": p_reorder_step, "cancel_action": p_cancel_action, "cannot_until": p_cannot_until, "cannot": p_cannot, "can": p_can,
    "attack_gains": p_attack_gains, "miss_attack": p_miss_attack, "modify_defense_roll": p_modify_defense_roll,
    "gain_attack": p_gain_attack, "prevent_unless_paid": p_prevent_unless_paid,
    "prevent_destruction": p_prevent_destruction, "push": p_push, "hinder": p_hinder,
    "gain_until": p_gain_until, "lose_life": p_lose_life, "obliterate": p_obliterate,
    "return_to_hand": p_return_to_hand, "counter_spell": p_counter_spell, "gain_control": p_gain_control, "reveal": p_reveal, "move": p_move, "swap": p_swap,
    "attack_with": p_attack_with, "convert_critical": p_convert_critical, "regain_life": p_heal,
    "sacrifice": p_destroy, "lose_until": p_lose_until,
    "attacks_gain": p_attacks_gain, "transfer_damage": p_transfer_damage, "summon_later": p_summon_later,
    "next_attack_gains": p_next_attack_gains,
    "defense_bonus": p_defense_bonus, "grant_defense": p_grant_defense,
}
PRIMITIVES.update(ATTACK_EFFECTS)  # effects about the attack in hand that attack bars state


def run_effect(game: "Game", eff, ctx: Ctx) -> None:
    try:
        _run(game, eff, ctx)
    except EffectStopped:
        pass  # said where it was raised; the effect stops there
    except NotImplementedPrimitive as e:
        game.unsupported.append(e.name)
        game.emit("unsupported", f"NOT IMPLEMENTED: {e} — effect of {_src(ctx)} not applied", primitive=e.name,
                  **_hidden_src(ctx))
    except PhraseError as e:  # a selector part the engine cannot evaluate yet: refused loudly
        game.unsupported.append("phrase")
        game.emit("unsupported", f"NOT IMPLEMENTED: {e} — effect of {_src(ctx)} not applied", primitive="phrase",
                  **_hidden_src(ctx))


def _token_payment_short(game, body, ctx) -> Optional[str]:
    """An optional effect that starts by removing N tokens pays with them: why it cannot be paid now
    (the object holds fewer), or None.  A holder still to be targeted is not checked here."""
    first = body[0] if body else None
    if not (isinstance(first, A.Call) and first.name == "remove_tokens"):
        return None
    pos, kw = _args(first)
    count = kw.get("count", pos[2] if len(pos) > 2 else None)
    if count is None or len(pos) < 2 or (isinstance(pos[0], A.Phrase) and _word0_of(pos[0]) == "target"):
        return None
    n = _num(game, count, ctx)
    name = pos[1].text if isinstance(pos[1], A.Phrase) else str(pos[1])
    holders = _objs(game, pos[0], ctx)
    have = sum(o.markers.get(name, 0) for o in holders)
    return f"{n} {name} to pay, {have} held" if have < n else None


def _word0_of(p: A.Phrase) -> Optional[str]:
    return p.words[0].text.lower() if p.words else None


def _run(game, eff, ctx):
    if isinstance(eff, A.Call):
        fn = PRIMITIVES.get(eff.name)
        if fn is None:
            raise NotImplementedPrimitive(eff.name, f"{_src(ctx)}")
        fn(game, eff, ctx)
    elif isinstance(eff, (A.Gain, A.Lose, A.StatChange)):
        targets = _objs(game, eff.subject, ctx)
        for t in targets:
            ts = game.state.next_timestamp()
            until = eff.duration.until if getattr(eff, "duration", None) else None
            if until == "attack" and ctx.attack is not None:  # ends with the attack it was made during
                until = game.attacks.duration_key(ctx.attack)
            game.effects.temporary.append((ts, _src(ctx), t.id, eff, until))
            game.state.touch()
            game.emit("effect", f"{t.label()}: {_describe(eff)} (from {_src(ctx)}, t{ts}"
                                + (f", until end of {eff.duration.until}" if until else "") + ")")
        game.check_state()
    elif isinstance(eff, A.IfEffect):
        if evaluate(game, eff.condition, ctx):
            for e in eff.then:
                _run(game, e, ctx)
        elif eff.otherwise:
            for e in eff.otherwise:
                _run(game, e, ctx)
    elif isinstance(eff, A.OptionalEffect):
        short = _token_payment_short(game, eff.body, ctx)
        if short:
            game.emit("rule", f"{_src(ctx)}: {short}: the optional effect cannot be paid for")
            return
        player = _decider(game, eff.body, ctx)
        ch = game.decide("optional", player, [Option("yes", True), Option("no", False)],
                         prompt=f"optional effect of {_src(ctx)}", default=1)
        if ch.value:
            for e in eff.body:
                _run(game, e, ctx)
    elif isinstance(eff, A.ChoiceEffect):
        player = _decider(game, [e for opt in eff.options for e in opt], ctx)
        opts = [Option(f"option {i + 1}", i) for i in range(len(eff.options))]
        ch = game.decide("choose", player, opts, prompt=f"choice of {_src(ctx)}")
        for e in eff.options[ch.value]:
            _run(game, e, ctx)
    elif isinstance(eff, A.ForEach):
        for o in _objs(game, eff.over, ctx):
            sub = Ctx(this=ctx.this, attack=ctx.attack, it=o, target=o, extra=ctx.extra)
            sub.chosen = ctx.chosen  # what the effect chose before the loop (`chosen()`) stays chosen
            for e in eff.body:
                _run(game, e, sub)
    elif isinstance(eff, A.Unsupported):
        raise NotImplementedPrimitive(f"unsupported clause: {eff.reason}")
    else:
        raise NotImplementedPrimitive(type(eff).__name__)


def _first_subject(effects):
    for e in effects:
        if isinstance(e, A.Call) and e.args and isinstance(e.args[0].value, A.Phrase):
            return e.args[0].value.words[0].text.lower()
        inner = (getattr(e, "body", None) or getattr(e, "then", None)
                 or [x for opt in getattr(e, "options", ()) for x in opt])
        if inner:
            got = _first_subject(inner)
            if got:
                return got
    return None


def _decider(game, effects, ctx) -> str:
    """Who decides a `may`/`choose`: the attacker's controller when the effects are the attacker's
    (an effect that makes "the attacker" do something), else the controller of the ability's source."""
    subj = _first_subject(effects)
    if subj == "attacker" and ctx.attack is not None:
        return ctx.attack.attacker.controller
    if subj == "defender" and ctx.attack is not None:
        return ctx.attack.target.controller
    return ctx.this.controller if ctx.this else game.state.order[0]


def _describe(eff) -> str:
    if isinstance(eff, A.Gain):
        return "gains " + ", ".join(r.text for r in eff.traits.traits)
    if isinstance(eff, A.Lose):
        return "loses " + ", ".join(r.name.text for r in eff.traits.traits) + (
            " and cannot gain" if eff.cannot_gain else "")
    if isinstance(eff, A.StatChange):
        return ", ".join(f"{m.stat} {m.amount.sign}{m.amount.value}" for m in eff.mods)
    return type(eff).__name__


# ---------------------------------------------------------------- values and predicates
def evaluate(game: "Game", node, ctx: Ctx) -> Any:
    if isinstance(node, bool) or isinstance(node, int):
        return node
    if isinstance(node, A.XValue):
        return node.coef * (ctx.extra["x"] if "x" in ctx.extra else game.x_value(ctx.this, ctx))
    if isinstance(node, A.Signed):
        v = node.as_int()
        return v if isinstance(v, int) else evaluate(game, v, ctx) * (-1 if node.sign == "-" else 1)
    if isinstance(node, A.BinOp):
        a, b = evaluate(game, node.left, ctx), evaluate(game, node.right, ctx)
        return a + b if node.op == "+" else a - b if node.op == "-" else a * b
    if isinstance(node, A.Compare):
        a, b = evaluate(game, node.left, ctx), evaluate(game, node.right, ctx)
        if a is None or b is None:  # a value that does not exist now (no roll was made): only (in)equality
            return (a == b) if node.op == "==" else (a != b) if node.op == "!=" else False
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[node.op]
    if isinstance(node, A.CondAnd):
        return all(evaluate(game, i, ctx) for i in node.items)
    if isinstance(node, A.CondOr):
        return any(evaluate(game, i, ctx) for i in node.items)
    if isinstance(node, A.CondNot):
        return not evaluate(game, node.item, ctx)
    if isinstance(node, A.Phrase):
        return resolve(game, node, ctx)
    if isinstance(node, A.Call):
        fn = VALUES.get(node.name)
        if fn is None:
            raise NotImplementedPrimitive(node.name)
        return fn(game, node, ctx)
    raise NotImplementedPrimitive(f"value {type(node).__name__}")


def v_has(game, call, ctx):
    pos, _ = _args(call)
    o = _one(game, pos[0], ctx)
    return o is not None and all(has_name(game, o, n) for n, _ in _traits(pos[1]))


def v_is(game, call, ctx):
    pos, _ = _args(call)
    o = _one(game, pos[0], ctx)
    if isinstance(pos[1], A.Call):  # an object a value names (`is(it, placer(this, Taunt))`)
        return o is not None and any(x is o for x in _objs(game, pos[1], ctx))
    return o is not None and matches(game, o, pos[1], ctx)


def _places(game, v, ctx) -> list:
    """Zones and objects a phrase names, or that a value call (placer(...), chosen()...) returns."""
    if isinstance(v, A.Call):
        r = evaluate(game, v, ctx)
        return r if isinstance(r, list) else [r] if r is not None else []
    return resolve(game, v, ctx)


def v_chosen_amount(game, call, ctx):
    """`chosen_amount(N)`: the controller of the ability picks a number from 0 to N (default: all of it)."""
    cap = max(0, _num(game, _args(call)[0][0], ctx))
    who = ctx.this.controller if ctx.this is not None else None
    if who is None or cap == 0:
        return cap
    src = ctx.this.public_label() if hasattr(ctx.this, "public_label") else _src(ctx)
    ch = game.decide("amount", who, [Option(str(i), i) for i in range(cap + 1)],
                     prompt=f"{src}: how much, up to {cap}", default=cap)
    return ch.value


def v_times_used(game, call, ctx):
    pos, kw = _args(call)
    obj = _one(game, pos[0], ctx) if pos else None
    during = kw.get("during")
    during = during.value if isinstance(during, A.StringLit) else (during.text if isinstance(during, A.Phrase) else "round")
    return game.times_used(ctx.this, ctx.extra.get("ability"), obj, during, ctx.attack)


def v_used_this_round(game, call, ctx):
    """Has the object made an attack (as attacker or as the attacking equipment) or given a defense
    this round?"""
    pos, _ = _args(call)
    o = _one(game, pos[0], ctx)
    kind = _word(pos[1]) if len(pos) > 1 else "attack"
    if o is None:
        return False
    if kind == "defense":
        return any(n > 0 for n in o.defense_uses.values())
    if kind == "attack":
        return any(a.round == game.state.round and a.status != "canceled" and (a.attacker is o or a.source is o)
                   for a in game.attacks.history)
    raise NotImplementedPrimitive("used_this_round", f"kind {kind!r}")


def v_entered_this_round(game, call, ctx):
    """Did the object come into play this round (placed by a spell or an effect: movement.enter_zone)?"""
    pos, _ = _args(call)
    o = _one(game, pos[0], ctx)
    return o is not None and getattr(o, "entered_round", None) == game.state.round


def v_damaged_this_round(game, call, ctx):
    """Was the object attacked and damaged this round by an attacker (or attacking object) fitting the
    phrase?"""
    pos, kw = _args(call)
    o = _one(game, pos[0], ctx)
    by = kw.get("by", pos[1] if len(pos) > 1 else None)
    if o is None:
        return False
    for a in game.attacks.history:
        if a.round != game.state.round or a is ctx.attack or a.damage <= 0 or (a.defender or a.target) is not o:
            continue
        if by is None or any(x is not None and matches(game, x, by, ctx) for x in (a.attacker, a.source)):
            return True
    return False


def v_distance(game, call, ctx):
    """`distance(A, B)`: zones between two objects or zones.  An object in play outside the arena (a
    banished creature, what is attached to it) is out of range of everything (Supplement, Spells:
    Banish): its distance from anything is infinite, so `distance(...) > 1` holds and `<= 2` does not."""
    pos, _ = _args(call)
    def zone_of(p):  # a zone a phrase names (target zone) is kept: _one keeps only objects
        got = resolve(game, p, ctx) if isinstance(p, A.Phrase) else [_one(game, p, ctx)]
        o = got[0] if got else None
        if o is None or isinstance(o, str):
            return o
        z = game.state.zone_of(o)
        return z if z is not None or not o.in_play else _OUTSIDE
    za, zb = [zone_of(p) for p in pos[:2]]
    if za is None or zb is None:
        raise NotImplementedPrimitive("distance", "a phrase names nothing to measure from")
    if za is _OUTSIDE or zb is _OUTSIDE:
        return math.inf
    return game.state.arena.distance(za, zb)


#: v_distance: the place of an object in play outside the arena (banished)
_OUTSIDE = object()


def v_controls(game, call, ctx) -> bool:
    """`controls(WHO, WHAT)`: the player controls the object; or, WHAT being a zone, controls the zone: a
    creature they control is in it and none an opponent controls is (Codex glossary: Control)."""
    pos, _ = _args(call)
    who = _one(game, pos[0], ctx)
    player = _player_of(game, who) if who is not None else None
    if player is None or len(pos) < 2:
        return False
    what = pos[1]
    zones = [z for z in resolve(game, what, ctx) if isinstance(z, str)] if isinstance(what, A.Phrase) else []
    if zones:
        holders = {o.controller for o in game.state.objects_in_zone(zones[0]) if game.is_creature(o)}
        return player in holders and holders <= {player}
    o = _one(game, what, ctx)
    return o is not None and o.controller == player


def _attack_traits(ctx):
    return ctx.attack.traits if ctx.attack is not None else {}


def _attack_rolled(atk) -> int:
    """`rolled()` during an attack: its effect roll once rolled, before that the total its attack
    dice show (every face counts: what a healing attack heals)."""
    if atk is None:
        return 0
    if atk.effect_roll is not None:
        return atk.effect_roll
    return atk.normal + atk.crit if atk.faces else 0


def _refusing(fn):
    """A primitive of engine/othercasters.py: a shape it does not run is refused loudly."""
    def run(game, call, ctx):
        try:
            return fn(game, call, ctx)
        except (_OC.Refused, _BD.Refused) as e:
            raise NotImplementedPrimitive(e.name, e.where)
    return run


PRIMITIVES.update({name: _refusing(fn) for name, fn in _OC.PRIMITIVES.items()})
PRIMITIVES.update(_EC.PRIMITIVES)  # engine/extracost.py: the second wall of an extra cost
PRIMITIVES.update({name: _refusing(fn) for name, fn in _BD.PRIMITIVES.items()})  # engine/bound.py


VALUES: dict[str, Callable] = {
    "level": lambda g, c, x: _level(_one(g, _args(c)[0][0], x)),
    "life": lambda g, c, x: (lambda o: g.life(o) or 0 if o else 0)(_one(g, _args(c)[0][0], x)),
    "damage_on": lambda g, c, x: (lambda o: o.damage if o else 0)(_one(g, _args(c)[0][0], x)),
    "armor": lambda g, c, x: (lambda o: g.armor(o) if o else 0)(_one(g, _args(c)[0][0], x)),
    "count": lambda g, c, x: _count(g, _args(c)[0][0], x),
    "tokens": lambda g, c, x: (lambda o, k: (o.markers.get(k, 0) if k else sum(o.markers.values())) if o else 0)(
        _one(g, _args(c)[0][0], x), (_args(c)[0][1].text if len(_args(c)[0]) > 1 else None)),
    "rolled": lambda g, c, x: x.extra.get("rolled", _attack_rolled(_atk(x))),
    "damage_dealt": lambda g, c, x: _atk(x).dealt if _atk(x) is not None else 0,
    "mana_of": lambda g, c, x: g.state.players[_player_of(g, _one(g, _args(c)[0][0], x))].mana,
    "x": lambda g, c, x: g.x_value(x.this, x),
    "has": v_has,
    "is": v_is,
    "attack_is": lambda g, c, x: _atk(x) is not None and all(_atk(x).has_trait(n) for n, _ in _traits(_args(c)[0][0])),
    "attack_kind": lambda g, c, x: _atk(x) is not None and _word(_args(c)[0][0]) in _atk(x).kinds(),
    "damaged": lambda g, c, x: _atk(x) is not None and _atk(x).damage > 0,
    "would_damage": lambda g, c, x: _would_damage(g, _atk(x)),
    "hit": lambda g, c, x: _atk(x) is not None and _atk(x).hit,
    "critical": lambda g, c, x: _atk(x) is not None and _atk(x).crit > 0,
    "first_attack": lambda g, c, x: _atk(x) is not None and _atk(x).first,
    "roll_at_least": lambda g, c, x: (x.extra.get("rolled") or (_atk(x).effect_roll if _atk(x) else 0) or 0) >= _num(g, _args(c)[0][0], x),
    "the_attack": lambda g, c, x: _atk(x),
    "succeeded": lambda g, c, x: x.extra.get("succeeded", True),
    "distance": v_distance,
    "in_zone": lambda g, c, x: (lambda o, z: o is not None and bool(z) and g.state.zone_of(o) in z)(
        _one(g, _args(c)[0][0], x), [q if isinstance(q, str) else g.state.zone_of(q)
                                     for q in _places(g, _args(c)[0][1], x)]),
    "controls": lambda g, c, x: v_controls(g, c, x),
    "owns": lambda g, c, x: (lambda who, o: o is not None and who is not None and o.owner == _player_of(g, who))(
        _one(g, _args(c)[0][0], x), _one(g, _args(c)[0][1], x)),
    "has_initiative": lambda g, c, x: (lambda who: who is not None and g.state.order and
                                       _player_of(g, who) == g.state.order[0])(_one(g, _args(c)[0][0], x)),
    "mana_spent": lambda g, c, x: _mana_spent(g, _one(g, _args(c)[0][0], x)),
    "cost_of": lambda g, c, x: _cost_of(g, _one(g, _args(c)[0][0], x)),
    "last_amount": lambda g, c, x: x.extra.get("last_amount", 0),
    "charging": lambda g, c, x: _atk(x) is not None and _atk(x).action.charged,
    "inactive": lambda g, c, x: (lambda o: bool(o and o.action_marker != "ready"))(_one(g, _args(c)[0][0], x)),
    "guarding": lambda g, c, x: (lambda o: bool(o and o.guard))(_one(g, _args(c)[0][0], x)),
    "chosen": lambda g, c, x: x.chosen,
    "has_subtype": lambda g, c, x: (lambda o, n: o is not None and n is not None and has_subtype(g, o, n))(
        _one(g, _args(c)[0][0], x), (_args(c)[0][1].text if len(_args(c)[0]) > 1
                                     and isinstance(_args(c)[0][1], A.Phrase) else None)),
    "prey": lambda g, c, x: (lambda o: [carrier for (_k, carrier, _n) in g.held(o)] if o is not None else [])(
        _one(g, _args(c)[0][0], x)),
    "bars_placing": lambda g, c, x: (lambda o, k: sum(
        1 for (bar, _src) in g.d(o).attacks if any(name == k for row in bar.effect_die for (name, _n) in row.outcomes))
        if o is not None and k else 0)(
        _one(g, _args(c)[0][0], x), (_args(c)[0][1].text if len(_args(c)[0]) > 1 else None)),
    "placer": lambda g, c, x: (lambda o, k: g.placer_of(o, k) if o is not None and k else [])(
        _one(g, _args(c)[0][0], x), (_args(c)[0][1].text if len(_args(c)[0]) > 1 else None)),
    "crossed_border_with": v_crossed_border_with,
    "in_los": lambda g, c, x: movement.in_los(g, _one(g, _args(c)[0][0], x), _one(g, _args(c)[0][1], x)),
    "moves_taken": lambda g, c, x: (lambda o: o.moves_taken if o is not None else 0)(_one(g, _args(c)[0][0], x)),
    "half": lambda g, c, x: -(-_num(g, _args(c)[0][0], x) // 2),
    "chosen_amount": v_chosen_amount,
    "at_most": lambda g, c, x: min(_num(g, _args(c)[0][0], x), _num(g, _args(c)[0][1], x)),
    "damage_type_is": lambda g, c, x: _atk(x) is not None and str(_atk(x).action.definition.damage_type).lower()
    == (_args(c)[0][0].text.lower() if isinstance(_args(c)[0][0], A.Phrase) else ""),
    "amount": lambda g, c, x: x.extra.get("amount", 0),
    "times_used": v_times_used,
        "versus_bonus": lambda g, c, x: v_versus_bonus(g, x.attack),
    "strongest": lambda g, c, x: (lambda os: [o for o in os if o.card.level == max(p.card.level for p in os)]
                                  if os else [])(_objs(g, _args(c)[0][0], x)),
    "used_this_round": v_used_this_round, "entered_this_round": v_entered_this_round,
    "damaged_this_round": v_damaged_this_round,
    "attacker_of": lambda g, c, x: _atk(x).source if _atk(x) is not None else None,
}
VALUES.update(_EC.VALUES)
VALUES.update(_BD.VALUES)
VALUES.update(ATTACK_VALUES)  # values about the attack in hand (able, redirected_to)
