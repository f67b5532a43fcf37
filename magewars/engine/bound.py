"""Bound spells (Spellbind): a spell card from the spellbook kept under an object and cast from it.

`bind_spell(SPELL, to: OBJ[, action: "quick"])` takes a spell matching the phrase out of the object's
controller's spellbook and binds it to the object; a spell bound before goes back to the book.  What
may be bound is narrowed by the object's own card: the phrases of its own `bind_spell` effects and
the permissions to bind that name it (`can(WHO, "bind", target: PHRASE)`, asked through the general
query, engine/restrictions.py), when any does (a wand binds incantations only).
`bound_spell(OBJ)` is the bound card.

`bound_casting(WHO, N)` (codex: Spellbind) says who may cast the bound spell like a planned spell, at
most N times a round: the bearer of an equipment, or a creature itself when it acts.  The cast is
the whole casting sequence with its full cost; the spell stays bound whether it resolves or is
countered (Supplement 2016, Codex: Spellbind).  No card or trait is named here.
"""
from __future__ import annotations

from typing import Optional

from ..dsl import ast as A
from . import placement as P
from . import restrictions as R
from .decisions import Option
from .phrases import Ctx, resolve
from .spellstatics import BOUND_CASTING

BIND = "bind_spell"
#: the action a permission to bind names (`can(WHO, "bind", target: SPELLS)`, engine/restrictions.py)
BIND_ACTION = "bind"


class Refused(Exception):
    def __init__(self, name: str, where: str = ""):
        self.name = name
        self.where = where
        super().__init__(f"{name}: {where}")


def bound_to(obj) -> Optional[str]:
    """The name of the spell bound to an object (kept on the object: it follows it if renamed)."""
    return getattr(obj, "bound_spell", None)


def _args(call: A.Call):
    return [a.value for a in call.args if not a.key], {a.key: a.value for a in call.args if a.key}


def _library(game, player: str):
    rs = getattr(game, "round_state", None)
    return rs.library.get(player) if rs is not None else None


def _own_phrases(card) -> list:
    """The phrases of the card's own bind effects."""
    binds = []
    for ab in card.abilities:
        inner = ab.ability if isinstance(ab, A.OncePerRound) else ab
        for eff in getattr(inner, "effects", ()) or ():
            if isinstance(eff, A.Call) and eff.name == BIND:
                pos, _ = _args(eff)
                if pos and isinstance(pos[0], A.Phrase):
                    binds.append(pos[0])
    return binds


def _fits(game, obj, card, phrase) -> bool:
    words = [w for w in phrase.words if w.text.lower() != "card"]
    spell = P.probe(game, obj, card, game.state.zone_of(obj))
    return P._spell_fits(game, obj, spell, A.Phrase(words=tuple(words), span=phrase.span)
                         if len(words) != len(phrase.words) else phrase)


def may_bind(game, obj, card, phrase, action: Optional[str]) -> bool:
    if card.kind not in ("incantation", "attack", "enchantment", "creature", "conjuration", "equipment",
                         "wall"):
        return False
    if action is not None and (card.action or "full") != action:
        return False
    if not _fits(game, obj, card, phrase):
        return False
    binds = _own_phrases(obj.card)
    if binds and not any(_fits(game, obj, card, ph) for ph in binds):
        return False
    if R.stated_permissions(game, BIND_ACTION, obj):  # `can(WHO, "bind", target: SPELLS)`: only those
        spell = P.probe(game, obj, card, game.state.zone_of(obj))
        if not R.permits(game, "bind", obj, spell, spell=spell):
            return False
    return True


def p_bind_spell(game, call, ctx) -> None:
    pos, kw = _args(call)
    what = pos[0] if pos else None
    to = kw.get("to", pos[1] if len(pos) > 1 else None)
    if not isinstance(what, A.Phrase) or to is None:
        raise Refused(BIND, "the spell must be a phrase and the object named")
    act = kw.get("action")
    action = act.value if isinstance(act, A.StringLit) else None
    for obj in [o for o in resolve(game, to, ctx) if not isinstance(o, str)]:
        why = R.forbids(game, "rebind", obj) if bound_to(obj) is not None else None
        if why:  # `cannot(WHO, "rebind")`: the spell bound to it stays
            game.emit("rule", f"{obj.label()} keeps {bound_to(obj)} bound: {why}", target=obj.id)
            ctx.extra["succeeded"] = False
            continue
        lib = _library(game, obj.controller)
        if lib is None:
            raise Refused(BIND, f"{obj.controller} has no spellbook to bind a spell from")
        names = sorted(n for n, k in lib.items() if k > 0 and may_bind(game, obj, game.card(n), what, action))
        if not names:
            game.emit("rule", f"{obj.label()}: no spell in {obj.controller}'s spellbook may be bound to it")
            ctx.extra["succeeded"] = False
            continue
        ch = game.decide("plan", obj.controller, [Option(n, n) for n in names] + [Option("no spell", None)],
                         prompt=f"the spell bound to {obj.label()}", default=len(names))
        if ch.value is None:
            ctx.extra["succeeded"] = False
            continue
        old = bound_to(obj)
        if old is not None:  # to its owner's spellbook, even when another player controls the object now
            owner = getattr(obj, "bound_owner", None) or obj.owner
            back = _library(game, owner)
            if back is not None:
                back[old] += 1
            game.emit("rule", f"{old} goes back to {owner}'s spellbook from {obj.label()}")
        lib[ch.value] -= 1
        obj.bound_spell = ch.value
        obj.bound_owner = obj.controller  # the spell came out of this player's spellbook
        game.state.touch()
        game.emit("bound", f"{ch.value} is bound to {obj.label()}", target=obj.id)


def v_bound_spell(game, call, ctx):
    pos, _ = _args(call)
    objs = [o for o in resolve(game, pos[0], ctx) if not isinstance(o, str)] if pos else []
    return bound_to(objs[0]) if objs else None


# ---------------------------------------------------------------- casting a bound spell
def _casting_statics(game, obj) -> list:
    out = [ab for ab in obj.card.abilities if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call)
           and ab.effect.name == BOUND_CASTING]
    for key in game.d(obj).traits:
        out.extend(game.codex_statics(key, BOUND_CASTING))
    return out


def _uses(obj, game) -> int:
    return sum(1 for u in obj.uses if isinstance(u, tuple) and u[:2] == ("bound", game.state.round))


def castable(game, caster) -> list[tuple]:
    """(object, spell name) for each bound spell the caster may cast now."""
    out = []
    for obj in game.state.in_play():
        name = bound_to(obj)
        if name is None or obj.hidden or obj.controller != caster.controller:
            continue
        for ab in _casting_statics(game, obj):
            pos, _ = _args(ab.effect)
            if len(pos) < 2:
                continue
            ctx = Ctx(this=obj, it=obj)
            limit = game.evaluate(pos[1], ctx)
            if isinstance(limit, int) and _uses(obj, game) < limit and caster in resolve(game, pos[0], ctx):
                out.append((obj, name))
                break
    return out


def use(game, caster, name: str):
    """Count a cast of a bound spell against its object's limit; returns the object (None when no
    bound spell of that name may be cast)."""
    for obj, n in castable(game, caster):
        if n == name:
            obj.uses.add(("bound", game.state.round, len(obj.uses)))
            game.emit("rule", f"{caster.label()} casts {name}, bound to {obj.label()}")
            return obj
    return None


def keeps(game, spell) -> bool:
    """A bound spell being cast that would leave (countered back to the spellbook, discarded) stays
    bound to its object instead: True when it did."""
    for c in getattr(game, "casting_stack", ()):
        if c.spell is spell and c.bound_to is not None:
            game.state.remove_from_play(spell, to="bound")
            game.emit("rule", f"{spell.card.name} stays bound to {c.bound_to.label()}")
            return True
    return False


PRIMITIVES = {BIND: p_bind_spell}
VALUES = {"bound_spell": v_bound_spell}
