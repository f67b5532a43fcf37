"""A generic walk over every clause of compiled definitions.

The walk knows the language, not the engine: it says *where* each construct stands (which
definition, which attack bar, which kind of ability, inside a static or a resolving effect list),
and leaves the question "does it run?" to whoever walks (magewars/coverage.py asks the engine's
registry).  Every node kind of :mod:`magewars.dsl.ast` that can stand in an ability is handled;
an unknown node raises, so a new construct cannot be skipped by the walk itself.
"""
from __future__ import annotations

from typing import Iterator, Optional, Union

from . import ast as A
from .model import AttackDefinition, CardDefinition, CodexDefinition, Corpus
from .frozen import light_dataclass  # @dataclass, made without compiling source text

Definition = Union[CardDefinition, CodexDefinition]


@light_dataclass(frozen=True)
class Clause:
    """One ability of a definition, unwrapped from `once per round`."""
    owner: str  # the definition's name
    holder: str  # "card" | "bar" | "codex"
    ability: object  # the unwrapped ability node
    once: bool = False  # written `once per round`
    bar: Optional[str] = None  # attack bar name when holder == "bar"
    span: A.Span = A.NOSPAN


@light_dataclass(frozen=True)
class Node:
    """One construct inside a clause: an effect node, a value call, a condition or a free-text argument.

    `role` is where it stands: "effect" (in a list of effects that resolves), "static" (the effect of
    a static ability), "value" (a value or predicate call), "cost" (a cost of an action ability),
    "detail" (a `detail:` free-text argument).  `static` is true inside a static ability."""
    node: object
    role: str
    static: bool = False


def clauses(defn: Definition) -> Iterator[Clause]:
    """Every ability of a card (and of its attack bars) or of a codex entry."""
    holder = "codex" if isinstance(defn, CodexDefinition) else "card"
    for ab in defn.abilities:
        yield _clause(defn.name, holder, ab, None)
    if isinstance(defn, CardDefinition):
        for bar in defn.attacks:
            for ab in bar.abilities:
                yield _clause(defn.name, "bar", ab, bar.name)


def _clause(owner: str, holder: str, ab, bar: Optional[str]) -> Clause:
    once = isinstance(ab, A.OncePerRound)
    inner = ab.ability if once else ab
    return Clause(owner, holder, inner, once, bar, getattr(ab, "span", A.NOSPAN))


def effects_of(ab) -> tuple:
    """The effect list an ability resolves (empty for statics and reveal rules)."""
    if isinstance(ab, (A.TriggeredAbility, A.TimedAbility, A.ActivatedAbility, A.OneShotAbility)):
        return tuple(ab.effects)
    return ()


def nodes(clause: Clause) -> Iterator[Node]:
    """Every construct of one clause, effects first-to-last, depth first."""
    ab = clause.ability
    if isinstance(ab, A.StaticAbility):
        if ab.guard is not None:
            yield from _condition(ab.guard, static=True)
        yield from _effect(ab.effect, "static", static=True)
    elif isinstance(ab, A.TriggeredAbility):
        yield from _call_args(ab.event, static=False)
        if ab.guard is not None:
            yield from _condition(ab.guard, static=False)
        for e in ab.effects:
            yield from _effect(e, "effect", static=False)
    elif isinstance(ab, A.TimedAbility):
        yield from _call_args(ab.timing, static=False)
        for e in ab.effects:
            yield from _effect(e, "effect", static=False)
    elif isinstance(ab, A.ActivatedAbility):
        for c in ab.costs:
            if isinstance(c, A.Call):
                yield Node(c, "cost")
                yield from _call_args(c, static=False)
        for e in ab.effects:
            yield from _effect(e, "effect", static=False)
    elif isinstance(ab, A.OneShotAbility):
        for e in ab.effects:
            yield from _effect(e, "effect", static=False)
    elif isinstance(ab, A.RevealRule):
        for ev in ab.on:
            yield from _call_args(ev, static=False)
    else:
        raise TypeError(f"walk: unknown ability node {type(ab).__name__}")


def _effect(e, role: str, static: bool) -> Iterator[Node]:
    yield Node(e, role, static)
    if isinstance(e, A.Call):
        yield from _call_args(e, static)
    elif isinstance(e, (A.Gain, A.Lose, A.Unsupported)):
        return
    elif isinstance(e, A.StatChange):
        for m in e.mods:
            yield from _value(m.amount, static)
    elif isinstance(e, A.IfEffect):
        yield from _condition(e.condition, static)
        for x in e.then + (e.otherwise or ()):
            yield from _effect(x, role, static)
    elif isinstance(e, A.OptionalEffect):
        for x in e.body:
            yield from _effect(x, role, static)
    elif isinstance(e, A.ChoiceEffect):
        for opt in e.options:
            for x in opt:
                yield from _effect(x, role, static)
    elif isinstance(e, A.ForEach):
        for x in e.body:
            yield from _effect(x, role, static)
    else:
        raise TypeError(f"walk: unknown effect node {type(e).__name__}")


def _call_args(call: A.Call, static: bool) -> Iterator[Node]:
    for a in call.args:
        if a.key == "detail":
            yield Node(a, "detail", static)
        yield from _value(a.value, static)


def _value(v, static: bool) -> Iterator[Node]:
    if isinstance(v, A.Call):
        yield Node(v, "value", static)
        yield from _call_args(v, static)
    elif isinstance(v, A.BinOp):
        yield from _value(v.left, static)
        yield from _value(v.right, static)
    elif isinstance(v, A.Signed):
        yield from _value(v.value, static)
    # numbers, X, phrases, trait groups and strings hold no call


def _condition(c, static: bool) -> Iterator[Node]:
    if isinstance(c, A.Call):
        yield Node(c, "value", static)
        yield from _call_args(c, static)
    elif isinstance(c, A.Compare):
        yield from _value(c.left, static)
        yield from _value(c.right, static)
    elif isinstance(c, (A.CondAnd, A.CondOr)):
        for i in c.items:
            yield from _condition(i, static)
    elif isinstance(c, A.CondNot):
        yield from _condition(c.item, static)
    else:
        raise TypeError(f"walk: unknown condition node {type(c).__name__}")


@light_dataclass(frozen=True)
class Carried:
    """A codex entry a card brings into play: `via` says how ("trait", "attack trait", "effect die")."""
    name: str
    via: str
    bar: Optional[str] = None


def carried(card: CardDefinition, corpus: Corpus) -> list[Carried]:
    """The codex entries a card carries: its traits, its attack bars' traits (every alternative),
    the conditions, tokens and keywords its effect-die rows place, and those its clauses give
    (`gains [...]`) or place (a `place(..., [...])` effect).  Unknown keys are left out (the checker
    has refused them)."""
    out: list[Carried] = []
    seen: set = set()

    def add(name, via, bar=None):
        if name in corpus.codex and (name, via, bar) not in seen:
            seen.add((name, via, bar))
            out.append(Carried(name, via, bar))

    for t in card.traits:
        add(t.key, "trait")
    for bar in card.attacks:
        for t in bar.traits + tuple(t for alt in bar.alternatives for t in alt):
            add(t.key, "attack trait", bar.name)
        for row in bar.effect_die:
            for (name, _n) in row.outcomes:
                add(name, "effect die", bar.name)
    for cl in clauses(card):
        for n in nodes(cl):
            if isinstance(n.node, A.Gain):
                for ref in n.node.traits.traits:
                    add(ref.name.text, "gained")
            elif isinstance(n.node, A.Call) and n.role in ("effect", "static") and n.node.name == PLACE:
                for arg in n.node.args:
                    if isinstance(arg.value, A.TraitGroup):
                        for ref in arg.value.traits:
                            add(ref.name.text, "placed")
    return out


#: the vocabulary effect that puts condition markers or tokens on an object
PLACE = "place"


def effect_die_outcomes(bar: AttackDefinition) -> list[str]:
    return sorted({name for row in bar.effect_die for (name, _n) in row.outcomes})
