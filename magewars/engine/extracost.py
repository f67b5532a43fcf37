"""Optional extra costs paid while casting, and the second wall they buy.

`static optional_extra_cost(this, N)` (on a card or on a codex entry it carries: Extendable) lets the
caster pay N more mana as part of the spell's cost, in the Pay Costs step; `extra_cost_paid(this)`
tells whether it did (a countered spell refunds it with the rest: it is in what the cast paid).
`extend_wall(this)` then takes another copy of the wall from its controller's spellbook and places
it, without casting it, on a border connected to the first wall and in the caster's line of sight
(the first wall not counted), range not counted (Supplement 2016, Codex: Extendable).

`static sacrifice_for_range(WHO, SPELLS, OBJECTS)` (printed on an object in play, `this` = that object) is
a casting permission bought with an additional cost: as an object WHO names casts a spell SPELLS names,
its controller may destroy one object OBJECTS names, which the caster must see (it is targeted), as part
of the spell's cost; the spell's range then does not count for a target that is that object's zone, an
object in that zone or a border of it (line of sight to the target still does).  The spell must still
have a legal target.  The casting sequence asks `reach` when a target is out of range (declaration and
the agents' choices: engine/casting.py), `pay_sacrifice` in Pay Costs, and keeps the zones reached for
the check as the spell resolves (Supplement 2016, Codex: Vine Markers).

`static range_for_mana(WHO, SPELLS, N, COST[, speed: "quick"|"full"])` (printed on an object in play, `this` =
that object) is a casting permission bought with mana: as an object WHO names casts a spell SPELLS names (cast
with that action, if `speed:` says so), its controller may pay COST (worked out with `it` = the spell) more
mana as part of the spell's cost to add N zones to its maximum range.  It is paid only when a target is
beyond the spell's own range (nothing is bought otherwise): the casting sequence asks `range_bought` when a
target is out of range (declaration, and the agents' choices: engine/casting.py), adds the mana to the cost
of the declaration and of Pay Costs, and keeps the spell's range so extended for the checks as it resolves
and for the attack an attack spell makes (`bought_range`, read by the attack sequence's range check).

No card or trait is named here; the casting sequence (engine/casting.py) asks `offer_extra_cost`.
"""
from __future__ import annotations

from ..dsl import ast as A
from . import placement as P
from .decisions import Option
from .phrases import Ctx, matches, resolve
from .spellstatics import OPTIONAL_EXTRA_COST, RANGE_FOR_MANA, SACRIFICE_FOR_RANGE
from .state import GameObject, new_spell_id


def _statics(game, card) -> list:
    out = [ab for ab in card.abilities if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call)
           and ab.effect.name == OPTIONAL_EXTRA_COST]
    for t in card.traits:
        out.extend(game.codex_statics(t.key, OPTIONAL_EXTRA_COST))
    return out


def _library(game, player: str):
    rs = getattr(game, "round_state", None)
    return rs.library.get(player) if rs is not None else None


def paid_extra(game) -> set:
    got = getattr(game, "extra_cost_paid", None)
    if got is None:
        got = game.extra_cost_paid = set()
    return got


def offer_extra_cost(game, caster, spell, card, cost: int, available: int) -> int:
    """Pay Costs: for each optional extra cost the spell states, its caster's controller may add it
    (when the mana is there and, the cost buying another copy, a copy is left in the spellbook).
    Returns the mana to add to the cost."""
    extra = 0
    for ab in _statics(game, card):
        pos = [a.value for a in ab.effect.args if not a.key]
        if len(pos) < 2:
            continue
        amount = game.evaluate(pos[1], Ctx(this=spell, it=spell))
        if not isinstance(amount, int) or amount <= 0 or cost + extra + amount > available:
            continue
        lib = _library(game, caster.controller)
        if lib is None or lib.get(card.name, 0) < 1:
            continue
        ch = game.decide("optional", caster.controller,
                         [Option(f"pay {amount} more mana", True), Option("no", False)],
                         prompt=f"{card.name}: pay the optional extra cost of {amount} mana?", default=1)
        if ch.value:
            extra += amount
            paid_extra(game).add(spell.id)
    return extra


# ---------------------------------------------------------------- range bought by destroying an object
def _states_for(game, src, ab, caster, spell, who, spells) -> bool:
    """Does a casting permission `ab` printed on `src` (sacrifice_for_range, range_for_mana: its WHO and
    SPELLS phrases) speak of `caster` casting `spell`?  The spell is tested first: most spells a caster is
    offered fit no such statement."""
    if not P._spell_fits(game, src, spell, spells):
        return False
    if ab.guard is not None and not game.evaluate(ab.guard, Ctx(this=src, it=spell)):
        return False
    return matches(game, caster, who, Ctx(this=src))


def sacrifices(game, caster, spell) -> list:
    """The objects in play (each in a zone of the arena) that a `sacrifice_for_range(WHO, SPELLS, OBJECTS)`
    in play lets `caster` destroy to cast `spell` (an object not in play yet) beyond its range, in the
    order of the statements and of play; [] when no such statement is in play (most casts)."""
    found = game.effects.statics_in_play(SACRIFICE_FOR_RANGE)
    if not found:
        return []
    out: list = []
    st = game.state
    for src, ab in found:
        pos = [a.value for a in ab.effect.args if not a.key]
        if len(pos) != 3 or not all(isinstance(v, A.Phrase) for v in pos):
            raise NotImplementedError(f"{src.card.name}: sacrifice_for_range(...) must read (WHO, SPELLS, OBJECTS)")
        if not _states_for(game, src, ab, caster, spell, pos[0], pos[1]):
            continue
        for o in resolve(game, pos[2], Ctx(this=src)):
            if not isinstance(o, str) and o.in_play and o not in out and st.zone_of(o) is not None:
                out.append(o)
    return out


def reach_zones(game, caster, spell) -> dict:
    """zone -> the objects there `caster` may destroy to cast `spell` into or around it beyond its range
    (sacrifices, by zone; line of sight to them is asked by `reach`)."""
    out: dict = {}
    for o in sacrifices(game, caster, spell):
        out.setdefault(game.state.zone_of(o), []).append(o)
    return out


def reach(game, caster, spell, zones, sight) -> tuple[list, list]:
    """For a target out of the spell's range, in one of `zones` (a zone, or the two sides of a border):
    (the objects `caster` may destroy to reach it and can see, those it may destroy but cannot see).
    `sight(zone)`: whether the caster has line of sight to that zone."""
    seen, unseen = [], []
    for z, objs in reach_zones(game, caster, spell).items():
        if z in zones:
            (seen if sight(z) else unseen).extend(objs)
    return seen, unseen


def pay_sacrifice(game, c, sight) -> bool:
    """Pay Costs of a spell cast beyond its range through `sacrifice_for_range`: its caster's controller
    destroys one of the objects that let it (`c.sacrifice`, found at declaration) still in play, in the
    caster's line of sight (`sight(zone)`).  False (nothing destroyed) when none is left."""
    st = game.state
    left = [o for o in c.sacrifice if o.in_play and st.zone_of(o) is not None and sight(st.zone_of(o))]
    if not left:
        return False
    pick = left[0] if len(left) == 1 else game.decide(
        "target", c.caster.controller, [Option(o.label(), o) for o in left],
        prompt=f"{c.card.name}: which object to destroy as an additional cost", default=0).value
    # (a face-down spell is named only to its caster's controller)
    game.emit("rule", f"{c.caster.controller} destroys {pick.label()} as an additional cost of {c.card.name}: "
                      f"its range does not count for zone {st.zone_of(pick)}", target=pick.id,
              secret_for=c.caster.controller if c.face_down else None,
              public_text=f"{c.caster.controller} destroys {pick.label()} as an additional cost of a face-down "
                          f"spell" if c.face_down else None)
    c.reached = frozenset(c.reached | {st.zone_of(pick)})
    game.destroy(pick, why="an additional cost of " + ("a spell" if c.face_down else c.card.name), by=c.caster)
    return True


# ---------------------------------------------------------------- range bought with mana
def any_range_for_mana(game) -> bool:
    """Is a `range_for_mana` in play at all (most games: no; then nothing more is asked)?"""
    return bool(game.effects.statics_in_play(RANGE_FOR_MANA))


def range_bought(game, caster, spell, action: str):
    """(N, COST, the card stating it) of the first `range_for_mana(WHO, SPELLS, N, COST[, speed:])` in play
    that lets `caster` extend the range of `spell` (an object not in play yet) cast as `action`, or None
    (most casts: no such statement is in play)."""
    found = game.effects.statics_in_play(RANGE_FOR_MANA)
    if not found:
        return None
    for src, ab in found:
        pos = [a.value for a in ab.effect.args if not a.key]
        kw = {a.key: a.value for a in ab.effect.args if a.key}
        if len(pos) != 4 or not all(isinstance(v, A.Phrase) for v in pos[:2]):
            raise NotImplementedError(f"{src.card.name}: range_for_mana(...) must read (WHO, SPELLS, N, COST)")
        speed = kw.get("speed")
        if speed is not None and (getattr(speed, "value", None) or "").lower() != (action or "").lower():
            continue
        if not _states_for(game, src, ab, caster, spell, pos[0], pos[1]):
            continue
        far = game.evaluate(pos[2], Ctx(this=src, it=spell))
        cost = game.evaluate(pos[3], Ctx(this=src, it=spell))
        if isinstance(far, int) and far > 0 and isinstance(cost, int) and cost >= 0:
            return far, cost, src.card.name
    return None


def bought(game) -> dict:
    """spell object id -> the zones its caster paid to add to its maximum range (range_for_mana)."""
    got = getattr(game, "range_paid", None)
    if got is None:
        got = game.range_paid = {}
    return got


def bought_range(game, spell) -> int:
    """The zones added to the maximum range of `spell` (the spell being cast, or None) with mana paid
    (read by the casting sequence and by the attack an attack spell makes)."""
    paid = getattr(game, "range_paid", None)  # (nothing is stored by reading: most games buy no range)
    return paid.get(spell.id, 0) if paid and spell is not None else 0


# ---------------------------------------------------------------- an ability's zone widened to the arena
#: `static widen_to_arena(WHO, COST)` (printed on an object in play, `this` = that object): as an object WHO names
#: uses one of its own `action` abilities whose effects name objects `in this zone`, its controller may pay COST
#: more mana: the ability then reads "this zone" as every zone of the arena (engine/round.py use_ability asks
#: `widen`; the phrase layer reads the mark, phrases._relation)
WIDEN_TO_ARENA = "widen_to_arena"
#: the mark an ability's context carries while it reads "this zone" as the whole arena
ARENA_WIDE = "arena_wide"


def _names_this_zone(node) -> bool:
    """Does an ability's effect name objects `in this zone` anywhere?"""
    if isinstance(node, A.Phrase):
        ws = [w.text.lower() for w in node.words]
        return any(ws[i:i + 3] == ["in", "this", "zone"] for i in range(len(ws) - 2))
    if isinstance(node, (list, tuple)):
        return any(_names_this_zone(x) for x in node)
    if hasattr(node, "__dataclass_fields__"):
        return any(_names_this_zone(getattr(node, f)) for f in node.__dataclass_fields__)
    return False


def widen(game, user, effects, ctx) -> None:
    """Before an `action` ability of `user`'s own card runs (`effects`, its context `ctx`): each
    `widen_to_arena(WHO, COST)` in play that names `user` offers its controller to pay COST more mana, the
    ability then reading "this zone" as the whole arena (ctx marked ARENA_WIDE).  Nothing is asked of an
    ability naming no object in its zone."""
    found = game.effects.statics_in_play(WIDEN_TO_ARENA)
    if not found or not _names_this_zone(effects):
        return
    for src, ab in found:
        pos = [a.value for a in ab.effect.args if not a.key]
        if len(pos) != 2 or not isinstance(pos[0], A.Phrase):
            raise NotImplementedError(f"{src.card.name}: widen_to_arena(...) must read (WHO, COST)")
        sctx = Ctx(this=src, it=user)
        if ab.guard is not None and not game.evaluate(ab.guard, sctx):
            continue
        if not matches(game, user, pos[0], Ctx(this=src)):
            continue
        cost = game.evaluate(pos[1], sctx)
        player = game.state.players[user.controller]
        if not isinstance(cost, int) or cost < 0 or cost > player.mana:
            continue
        ch = game.decide("optional", user.controller, [Option(f"pay {cost} more mana", True), Option("no", False)],
                         prompt=f"{src.card.name}: pay {cost} mana to have the ability reach the whole arena?",
                         default=1)
        if not ch.value:
            continue
        player.mana -= cost
        game.state.touch_light()
        game.emit("mana", f"{player.name} pays {cost} mana (now {player.mana}): {src.label()} widens the ability "
                          f"of {user.label()} to the whole arena", player=player.name, amount=cost)
        ctx.extra[ARENA_WIDE] = True
        return


# ---------------------------------------------------------------- the second wall
def _ends(arena, border) -> set:
    (r1, c1), (r2, c2) = sorted(arena.coords(z) for z in border)
    if r1 == r2:  # side by side: a vertical segment between the columns
        return {(r1, c2), (r1 + 1, c2)}
    return {(r2, c1), (r2, c1 + 1)}  # one above the other: a horizontal segment


def connected_borders(game, wall: GameObject) -> list[tuple[str, str]]:
    """Free borders that touch the wall's border at one of its ends."""
    arena = game.state.arena
    mine = _ends(arena, wall.border)
    held = {o.border for o in game.state.in_play() if o.border is not None}
    return [pair for pair in P.borders(arena)
            if frozenset(pair) != wall.border and frozenset(pair) not in held and _ends(arena, pair) & mine]


def _in_sight(game, here: str, pair, skip) -> bool:
    blocked = frozenset(o.border for o in game.state.in_play() if o.border is not None and o is not skip
                        and P.blocks_los(game, o))
    return any(z == here or P._line_clear(game.state.arena, here, z, blocked) for z in pair)


def p_extend_wall(game, call, ctx) -> None:
    pos = [a.value for a in call.args if not a.key]
    walls = [o for o in resolve(game, pos[0], ctx) if not isinstance(o, str)] if pos else []
    for wall in walls:
        if wall.border is None or not wall.in_play:
            continue
        caster = game.state.objects.get(getattr(game, "spell_casters", {}).get(wall.id, ""))
        lib = _library(game, wall.controller)
        here = game.state.zone_of(caster) if caster is not None else None
        if lib is None or lib.get(wall.name, 0) < 1 or here is None:
            game.emit("rule", f"{wall.label()}: no second {wall.name} to place")
            continue
        spots = [p for p in connected_borders(game, wall) if _in_sight(game, here, p, wall)]
        if not spots:
            game.emit("rule", f"{wall.label()}: no connected border in line of sight of {caster.label()}")
            continue
        ch = game.decide("target", wall.controller, [Option("/".join(p), p) for p in spots],
                         prompt=f"where the second {wall.name} goes", default=0)
        pair = ch.value
        lib[wall.name] -= 1
        second = _new_object(game, wall, caster)
        second.zone = pair[0]
        second.border = frozenset(pair)
        game.state.touch()
        game.emit("placed", f"{second.label()} is placed on the border {pair[0]}/{pair[1]}, connected to "
                            f"{wall.label()} (not cast)", target=second.id, zone=pair[0])
        game.check_state()
        game.fire("enters", second, Ctx(this=second, it=second), how="placed")


def _new_object(game, wall, caster) -> GameObject:
    obj = GameObject(new_spell_id(game), wall.card, wall.controller, wall.owner)
    game.state.add_object(obj)
    if caster is not None:
        game.spell_casters[obj.id] = caster.id
    return obj


def v_extra_cost_paid(game, call, ctx) -> bool:
    pos = [a.value for a in call.args if not a.key]
    objs = [o for o in resolve(game, pos[0], ctx) if not isinstance(o, str)] if pos else []
    return bool(objs) and objs[0].id in paid_extra(game)


PRIMITIVES = {"extend_wall": p_extend_wall}
VALUES = {"extra_cost_paid": v_extra_cost_paid}
