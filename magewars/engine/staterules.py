"""State rules a card states: markers that go away as soon as a condition holds.

A card in play may state `static for each PHRASE: { if CONDITION then remove_tokens(it, NAME[, N]) }`:
whenever the state is checked (Game.check_state, after every change), each object `it` the phrase names
(`this` = the card) for which the condition holds loses those tokens, if it carries any.  The card's
controller need not act: it is a rule of the state, like excess Corrode going away.  Nothing here names a
card or a token; the continuous-effects layer leaves such a `for each` to this module.
"""
from __future__ import annotations

from ..dsl import ast as A
from .phrases import Ctx, matches

#: effect calls a state rule's body may make (about `it`)
CALLS: frozenset[str] = frozenset({"remove_tokens"})

_READS: dict = {}


def _about_it(call: A.Call) -> bool:
    first = call.args[0].value if call.args else None
    return isinstance(first, A.Phrase) and [w.text.lower() for w in first.words] == ["it"]


def _leaves_ok(body) -> bool:
    for node in body:
        if isinstance(node, A.IfEffect):
            if not (_leaves_ok(node.then) and _leaves_ok(node.otherwise or ())):
                return False
        elif not (isinstance(node, A.Call) and node.name in CALLS and _about_it(node)
                  and len(node.args) >= 2 and isinstance(node.args[1].value, A.Phrase)):
            return False
    return True


def reads(eff) -> bool:
    """Is this static a state rule this module applies (a `for each` whose body only removes tokens
    from `it`, under conditions)?"""
    if not isinstance(eff, A.ForEach) or not eff.body:
        return False
    got = _READS.get(id(eff))
    if got is None or got[0] is not eff:
        got = _READS[id(eff)] = (eff, _leaves_ok(eff.body))
    return got[1]


_RULES: dict = {}


def _rules(card) -> list:
    got = _RULES.get(id(card))
    if got is None or got[0] is not card:
        got = _RULES[id(card)] = (card, [ab for ab in card.abilities
                                         if isinstance(ab, A.StaticAbility) and reads(ab.effect)])
    return got[1]


def in_play(game) -> tuple:
    """(card, its state rules) of each face-up card in play that states any.  Which cards those are
    depends on fingerprinted state alone (in play, face down, the card): kept per fingerprint
    (Effects.for_shape: dropped when it changes), so that the state check, run after every change, goes
    over the objects only when that changed."""
    return game.effects.for_shape("state_rules", lambda: tuple(
        (src, rules) for src in game.state.in_play() if not src.hidden for rules in (_rules(src.card),) if rules))


def apply(game, stated: tuple) -> bool:
    """Apply every state rule of the face-up cards in play once (`stated`: in_play(game), which the state
    check has in hand); True when a marker was removed."""
    changed = False
    st = game.state
    for src, rules in stated:
        if src.hidden or not src.in_play:
            continue  # (it left play, or was turned face down, by an earlier rule of this pass)
        for ab in rules:
            if ab.guard is not None and not game.evaluate(ab.guard, Ctx(this=src)):
                continue
            for it in st.in_play():  # (a list of its own: a rule removing a token does not move it)
                if it.in_play and matches(game, it, ab.effect.over, Ctx(this=src)):
                    changed |= _run(game, src, ab.effect.body, it)
    return changed


def _run(game, src, body, it) -> bool:
    changed = False
    ctx = Ctx(this=src, it=it)
    for node in body:
        if isinstance(node, A.IfEffect):
            branch = node.then if game.evaluate(node.condition, ctx) else (node.otherwise or ())
            changed |= _run(game, src, branch, it)
        elif it.markers.get(node.args[1].value.text, 0) > 0:
            game.emit("rule", f"{it.label()} no longer fits {src.label()}'s rule for its "
                              f"{node.args[1].value.text} token", target=it.id)
            game.run_effects([node], ctx)
            changed = True
    return changed
