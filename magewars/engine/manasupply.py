"""Mana kept on an object: which markers are mana, and paying from them first.

The codex says which markers are mana with `static mana_supply()` on a token keyword; an object that
casts a spell (a spawnpoint, a familiar) pays from the mana on itself first, then from its
controller's supply (rulebook: Familiars and Spawnpoints).  No marker is named here.

A leaf module: the casting sequence (engine/casting.py) and the casting of assigned spells
(engine/othercasters.py) both read it.
"""
from __future__ import annotations

from ..dsl import ast as A
from .spellstatics import MANA_SUPPLY


def supply_markers(game) -> tuple[str, ...]:
    """The codex keys whose markers are mana kept on an object (built once per game)."""
    got = getattr(game, "_supply_markers", None)
    if got is None:
        got = tuple(sorted(
            name for name, cd in game.codex.items()
            if any(isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call)
                   and ab.effect.name == MANA_SUPPLY for ab in cd.abilities)))
        game._supply_markers = got
    return got


#: `static spend_only(this, PHRASE[, cost: KIND])`: the mana kept on the object pays only for spells fitting
#: the phrase (and only their `cost:` KIND, "cast" or "reveal"); any other payment comes from the supply
SPEND_ONLY = "spend_only"
SPEND_COSTS: frozenset[str] = frozenset({"cast", "reveal"})


def spend_only_runs(call) -> bool:
    """Is this `static spend_only(this, PHRASE[, cost: "cast"|"reveal"])`, the form read here?"""
    if not (isinstance(call, A.Call) and call.name == SPEND_ONLY and len(call.args) >= 2):
        return False
    pos = [a.value for a in call.args if not a.key]
    kw = {a.key: a.value for a in call.args if a.key}
    return len(pos) == 2 and isinstance(pos[0], A.Phrase) and [w.text.lower() for w in pos[0].words] == ["this"] \
        and isinstance(pos[1], A.Phrase) and set(kw) <= {"cost"} and (
            "cost" not in kw or (isinstance(kw["cost"], A.StringLit) and kw["cost"].value in SPEND_COSTS))


def spendable(game, obj, spell=None, cost: str = "cast") -> bool:
    """May the mana kept on `obj` pay this cost of `spell`?  Always, unless its card limits it
    (`spend_only`); then only for a spell it names (None: a spell not known is not one)."""
    rules = [ab.effect for ab in obj.card.abilities
             if isinstance(ab, A.StaticAbility) and spend_only_runs(ab.effect)]
    if not rules:
        return True
    if spell is None:
        return False
    from .placement import _spell_fits  # the cost-change phrase reader ("enchantment spells")
    for call in rules:
        kw = {a.key: a.value for a in call.args if a.key}
        if "cost" in kw and kw["cost"].value != cost:
            continue
        if _spell_fits(game, obj, spell, call.args[1].value):
            return True
    return False


def own_mana(game, obj, spell=None, cost: str = "cast") -> int:
    """The mana kept on an object that may pay this cost of `spell` (0 for a Mage: its mana is its
    controller's supply)."""
    if obj is None or game.state.players.get(obj.controller) is None \
            or game.state.players[obj.controller].mage_id == obj.id:
        return 0
    n = sum(obj.markers.get(k, 0) for k in supply_markers(game))
    return n if n and spendable(game, obj, spell, cost) else 0


def available(game, caster, spell=None, cost: str = "cast", tokens=()) -> int:
    """What the caster can pay: the mana on itself (that may pay for this spell), then its controller's
    supply, then the tokens it may spend as mana for this spell (`tokens`: (object, token name) pairs the
    casting sequence found permitted: restrictions.token_payments)."""
    p = game.state.players.get(caster.controller)
    return own_mana(game, caster, spell, cost) + (p.mana if p is not None else 0) + \
        sum(src.markers.get(name, 0) for src, name in tokens if src.in_play)


def pay(game, caster, amount: int, spell=None, cost: str = "cast", tokens=()) -> tuple[int, int]:
    """Take `amount` mana, from the caster's own mana first (when it may pay for this spell), then its
    controller's supply, then the permitted tokens (`tokens`, as for `available`) for what is left;
    returns (from the object, from the player).  The caller has checked that `available` covers it."""
    p = game.state.players[caster.controller]
    from_obj = 0
    for k in supply_markers(game):
        if from_obj >= amount or own_mana(game, caster, spell, cost) == 0:
            break
        take = min(caster.markers.get(k, 0), amount - from_obj)
        if take:
            game.state.remove_marker(caster, k, take)
            from_obj += take
    rest = amount - from_obj
    short = max(0, rest - p.mana)
    for src, name in tokens:
        if short <= 0:
            break
        take = min(src.markers.get(name, 0), short) if src.in_play else 0
        if take:
            game.state.remove_marker(src, name, take)
            short -= take
            rest -= take
            game.emit("mana", f"{take} {name} token(s) on {src.label()} spent as mana", target=src.id)
    if rest > p.mana:
        raise ValueError(f"{caster.label()} cannot pay {amount} mana")
    p.mana -= rest
    game.state.touch_light()  # (mana: light; a token taken off an object touched the state in remove_marker)
    return from_obj, rest
