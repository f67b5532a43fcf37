"""Restrictions stated by cards in play: `static [if COND] cannot(WHO, "ACTION", target:, by:, except:, attack:)`.

The continuous-effects layer (effects.py) works out what an object *is*; a restriction is about what
it may *do* at a given moment (this attack, this destruction), so it is read here, when the engine
is about to do that thing, with the attack (or the destroying object) in the context: `attacker`,
`defender` and the card's own `this` mean what they mean at that moment, and the ability's condition
is evaluated then.

The actions read here (`ACTIONS`): attacking (`attack`, `melee_attack`, `ranged_attack`, and
`declare` with `attack:` naming one attack bar), being attacked (`be_attacked` with `by:`), being
destroyed (`be destroyed`, with `by:` and `except:`) and receiving damage (`receive damage`).
A restriction whose condition or phrase the engine cannot read is reported (an `unsupported`
event) and not applied.  No card or trait is named here: the cards state their restrictions.
"""
from __future__ import annotations

from typing import Optional

from ..dsl import ast as A
from .phrases import PRONOUNS, Ctx, matches, resolve, selector_of

#: the actions of `static cannot(WHO, "ACTION", ...)` this module rules on
ACTIONS: frozenset[str] = frozenset({"attack", "melee_attack", "ranged_attack", "declare", "be_attacked",
                                     "be destroyed", "receive damage"})
#: keyword arguments it reads; a restriction with any other keyword is left to the code that reads it
KEYWORDS: frozenset[str] = frozenset({"target", "by", "except", "attack"})
#: which `cannot` actions forbid making an attack of a kind (melee, ranged, any)
ATTACK_ACTIONS: dict[str, Optional[str]] = {"attack": None, "melee_attack": "melee", "ranged_attack": "ranged",
                                            "declare": None}


def is_restriction(call: A.Call) -> bool:
    """Is this `cannot(...)` one this module applies (an action of ACTIONS, keywords of KEYWORDS)?"""
    if call.name != "cannot" or len(call.args) < 2:
        return False
    act = call.args[1].value
    if not (isinstance(act, A.StringLit) and act.value in ACTIONS):
        return False
    kws = {a.key for a in call.args if a.key}
    if act.value == "be_attacked" and "by" not in kws:
        return False  # `cannot(this, "be_attacked", kind: ...)`: the continuous-effects layer's
    if act.value == "declare" and "attack" not in kws:
        return False
    return kws <= KEYWORDS


def _restrictions(game, actions: tuple[str, ...]):
    for src in game.state.in_play():
        if src.hidden:
            continue
        if src.kind == "enchantment" and src.attached_to is None and src.attached_zone is None:
            continue
        for ab in src.card.abilities:
            eff = getattr(ab, "effect", None)
            if isinstance(ab, A.StaticAbility) and isinstance(eff, A.Call) and is_restriction(eff) \
                    and eff.args[1].value.value in actions:
                yield src, ab, eff


def _fits(game, obj, phrase, ctx: Ctx) -> bool:
    if obj is None:
        return False
    if isinstance(phrase, A.StringLit):
        return obj.card.name == phrase.value
    if isinstance(phrase, A.Phrase):
        if len(phrase.words) == 1 and phrase.words[0].text.lower() in PRONOUNS:
            return any(o is obj for o in resolve(game, phrase, ctx))
        return matches(game, obj, phrase, ctx)
    return False


def _by(game, obj, phrase, ctx: Ctx) -> bool:
    """Does the object whose attack or effect it is fit `by:`?  A player phrase (`opponent`) names
    the Mage: the object fits when it is controlled by that Mage's player."""
    if obj is None:
        return False
    if _fits(game, obj, phrase, ctx):
        return True
    if not isinstance(phrase, A.Phrase):
        return False
    mage = game.state.mage_of(obj.controller)
    return mage is not None and any(o is mage for o in resolve(game, phrase, ctx)) and \
        getattr(selector_of(game, phrase), "domain", None) == "player"


def forbidden(game, obj, actions: tuple[str, ...], *, target=None, attack=None, by=None,
              rule: Optional[str] = None) -> Optional[str]:
    """Why a card in play forbids `obj` one of these actions now (None: nothing forbids it).

    `target`: what the action is aimed at (the attacked object); `attack`: the attack being made
    (its name for `attack:`, its attacker and defender for the pronouns); `by`: the object whose
    attack or effect it is; `rule`: the codex rule doing it (a Dissipate token destroying its
    enchantment), for `except: NAME`."""
    for src, ab, call in _restrictions(game, actions):
        kw = {a.key: a.value for a in call.args if a.key}
        ctx = Ctx(this=src, attack=attack, it=obj, target=target)
        try:
            if not _fits(game, obj, call.args[0].value, ctx):
                continue
            if ab.guard is not None and not game.evaluate(ab.guard, ctx):
                continue
            if "target" in kw and not _fits(game, target, kw["target"], ctx):
                continue
            if "attack" in kw:
                name = kw["attack"].value if isinstance(kw["attack"], A.StringLit) else None
                if attack is None or attack.action.definition.name != name:
                    continue
            if "by" in kw and not _by(game, by, kw["by"], ctx):
                continue
            if "except" in kw:
                ex = kw["except"]
                if isinstance(ex, A.Phrase) and rule is not None and ex.text == rule:
                    continue
                if _by(game, by, ex, ctx):
                    continue
        except Exception as e:  # a phrase or value the engine cannot read: say so, never guess
            game.note_unsupported(f"static cannot of {src.card.name}", f"cannot read the restriction: {e}")
            continue
        act = call.args[1].value.value
        return f"{obj.label()} cannot {act.replace('_', ' ')}" + (
            f" {target.label()}" if target is not None and "target" in kw else "") + f" ({src.label()})"
    return None


def attack_forbidden(game, atk) -> Optional[str]:
    """Restrictions on this attack: its attacker may not make it (at all, of its kind, against this
    target, with this attack bar) or its target may not be attacked by its source."""
    kinds = atk.kinds()
    acts = tuple(a for a, kind in ATTACK_ACTIONS.items() if kind is None or kind in kinds)
    why = forbidden(game, atk.attacker, acts, target=atk.target, attack=atk)
    if why:
        return why
    if atk.source is not atk.attacker and atk.source is not None:  # an equipment's attack: its own rules too
        why = forbidden(game, atk.source, acts, target=atk.target, attack=atk)
        if why:
            return why
    src = atk.action.spell or atk.source
    return forbidden(game, atk.target, ("be_attacked",), target=atk.target, attack=atk, by=src)
