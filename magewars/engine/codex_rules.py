"""Attack legality the codex states with `cannot(...)` / `can(...)` on trait entries.

Flying states that a grounded creature cannot melee it (`static cannot(each Non-Flying creature,
"melee_attack", target: this)`) and that ranged attacks between it and an object in its zone ignore the
minimum range (`static can(..., "ranged_attack", target: ..., ignoring: "minimum_range")`); Reach, an attack
trait, states the permission that lifts the melee restriction (`static can(attacker, "melee_attack",
target: Flying creature)`); Indirect states that walls do not block the attack's line of sight
(`static ignore(attacker, LOS_WALLS)`).  This module reads those calls for whichever traits the objects and the
attack carry; it knows no trait by name, so a homebrew trait written the same way works the same way.
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator, Optional

from ..dsl import ast as A
from .cardindex import index as card_index
from .codextable import copy_of
from .phrases import Ctx, matches

#: the rule an `ignoring:` argument names for ranged attacks below their minimum range
MINIMUM_RANGE = "minimum_range"
#: the rule an attack ignores when a trait of the attack or of its attacker states
#: `ignore(attacker, "walls for line of sight of this attack")`: walls do not block its line of sight
LOS_WALLS = "walls for line of sight of this attack"


def _kw(call: A.Call, name: str):
    return next((a.value for a in call.args if a.key == name), None)


def _about(call: A.Call, action: str) -> bool:
    act = call.args[1].value if len(call.args) > 1 else None
    return isinstance(act, A.StringLit) and act.value == action


def _about_keys(game: Any, fn: str, action: Optional[str]) -> Optional[frozenset]:
    """The names of the codex entries stating a `static fn(SUBJECT, "action", ...)` (action None: any
    `static fn(...)`, as Game.codex_statics finds them): worked out once per
    corpus and shared by its games while their codex is its unchanged copy (engine/codextable.py), so
    that an object's traits are not each looked up at every attack (an attack's target carries half a
    dozen, and hardly any states a melee restriction).  None: the game's codex was written to, or the
    corpus keeps nothing (its entries are read one by one)."""
    corpus = game.corpus
    if not copy_of(game.codex, corpus.codex):
        return None
    kept = getattr(corpus, "_codex_about", None)
    if kept is None:
        kept = {}
        try:
            corpus._codex_about = kept
        except AttributeError:
            return None
    got = kept.get((fn, action))
    if got is None:
        got = kept[(fn, action)] = frozenset(
            name for name, cd in corpus.codex.items()
            if any(action is None or _about(ab.effect, action) for ab in card_index(cd).every_call.get(fn, ())))
    return got


def entries_stating(game: Any, fn: str) -> Optional[frozenset]:
    """The names of the codex entries with a `static fn(...)` (Game.codex_statics would find one), shared
    per corpus; None when the game's codex is its own (ask Game.codex_statics entry by entry)."""
    return _about_keys(game, fn, None)


def _calls(game: Any, keys: Iterable[str], fn: str, action: str,
           about: Optional[frozenset] = None) -> Iterator[tuple[str, A.Call]]:
    """(key, call) of each `static fn(SUBJECT, "action", ...)` of these codex entries.  `about`: what
    _about_keys(game, fn, action) answered, when the caller asked it already (None: asked here)."""
    if about is None:
        about = _about_keys(game, fn, action)
    for key in keys:
        if about is not None and key not in about:
            continue  # (no such statement in its entry)
        for ab in game.codex_statics(key, fn):
            if _about(ab.effect, action):
                yield key, ab.effect


def _fits(game: Any, obj, phrase, this) -> bool:
    return phrase is not None and matches(game, obj, phrase, Ctx(this=this))


def melee_restriction(game: Any, attacker, target, attack_traits: Iterable) -> Optional[str]:
    """Why `attacker` may not melee `target` by a trait of the target (None: nothing forbids it).

    A trait of the target forbids it with `cannot(SUBJECT, "melee_attack", target: PHRASE)` when the
    attacker fits SUBJECT and the target fits PHRASE (`this` = the target); a trait of the attack lifts it
    with `can(attacker, "melee_attack", target: PHRASE)` when the target fits PHRASE."""
    traits = game.effects.derived(target).traits
    about = _about_keys(game, "cannot", "melee_attack")
    if about is not None and about.isdisjoint(traits):
        return None  # (no trait of the target states a melee restriction: the usual case)
    for key, call in _calls(game, traits, "cannot", "melee_attack", about):
        if not _fits(game, target, _kw(call, "target"), target) or not _fits(game, attacker, call.args[0].value, target):
            continue
        lifted = [k for k, c in _calls(game, [t.key for t in attack_traits], "can", "melee_attack")
                  if _fits(game, target, _kw(c, "target"), attacker)]
        if not lifted:
            return f"the target's {key} forbids a melee attack by {attacker.label()} (no attack trait lifts it)"
    return None


def ignores_minimum_range(game: Any, attacker, target) -> bool:
    """Does a trait of the attacker or of the target let this ranged attack ignore its minimum range?
    (`can(SUBJECT, "ranged_attack", target: PHRASE, ignoring: "minimum_range")`, `this` = the carrier.)"""
    for carrier in (target, attacker):
        for _key, call in _calls(game, game.effects.derived(carrier).traits, "can", "ranged_attack"):
            ign = _kw(call, "ignoring")
            if not (isinstance(ign, A.StringLit) and ign.value == MINIMUM_RANGE):
                continue
            if _fits(game, attacker, call.args[0].value, carrier) and _fits(game, target, _kw(call, "target"), carrier):
                return True
    return False


def ignores_los_walls(game: Any, attacker, attack_traits: Iterable) -> Optional[str]:
    """The trait (of the attack, or of the attacker as it attacks) by which walls do not block this
    attack's line of sight: `ignore(attacker, "walls for line of sight of this attack")` (None: they do)."""
    keys = [t.key for t in attack_traits] + list(game.effects.derived(attacker).traits)
    for key in keys:
        for ab in game.codex_statics(key, "ignore"):
            call = ab.effect
            who = call.args[0].value if call.args else None
            if _about(call, LOS_WALLS) and isinstance(who, A.Phrase) \
                    and [w.text.lower() for w in who.words] in (["attacker"], ["this"]):
                return key
    return None
