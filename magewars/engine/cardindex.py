"""Per-card indexes of a card definition's abilities, built once per definition (and the
lower-cased words of a phrase, once per phrase).

The engine asks the same questions of a card many times an attack (which triggered abilities
listen for this event, which static abilities it has, its reveal rules).  Card definitions are
frozen, so the answers never change: they are computed on first use and kept, keyed by the
definition's identity (the entry holds the definition, so an identity is never reused while its
entry lives).  The table is bounded: past `LIMIT` definitions it starts afresh.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

from ..dsl import ast as A
from .phrases import words_of

LIMIT = 20_000
_MISSING = object()
_T = TypeVar("_T")


def per_definition(read: Callable[[Any], _T]) -> Callable[[Any], _T]:
    """`read(definition)` worked out once per definition (a card, a codex entry, a phrase, a node: the
    language's definitions are frozen), keyed by its identity.  The definitions read are held (`held`)
    as long as their readings are kept, so an identity is never reused while its reading lives: the
    lookup is one dict get, with no check that the object is the one read.  The table is bounded: past
    LIMIT it starts afresh.  The engine's per-definition readings all go through this one table shape."""
    table: dict[int, Any] = {}  # id of a definition -> its reading
    held: list = []  # the definitions of the readings in `table`, kept alive

    @functools.wraps(read)
    def kept(definition):
        got = table.get(id(definition), _MISSING)
        if got is not _MISSING:
            return got
        got = read(definition)
        if len(table) >= LIMIT:
            table.clear()
            held.clear()
        table[id(definition)] = got
        held.append(definition)
        return got
    kept.table = table
    return kept


class CardIndex:
    __slots__ = ("triggers", "statics", "reveal_rules", "must_reveal", "static_calls", "every_call")

    def __init__(self, card) -> None:
        self.triggers: dict[str, list] = {}  # event name -> [(ability, inner triggered ability)]
        self.statics: list = []  # static abilities (not once-per-round ones), in printed order
        self.reveal_rules: list = []
        # call name -> [(static ability, once per round?)] for statics whose effect is a call (once-per-round too)
        self.static_calls: dict[str, list] = {}
        for ab in card.abilities:
            inner = ab.ability if isinstance(ab, A.OncePerRound) else ab
            if isinstance(inner, A.StaticAbility) and isinstance(inner.effect, A.Call):
                self.static_calls.setdefault(inner.effect.name, []).append((inner, inner is not ab))
            if isinstance(inner, A.TriggeredAbility):
                self.triggers.setdefault(inner.event.name, []).append((ab, inner))
            if isinstance(ab, A.StaticAbility):
                self.statics.append(ab)
            elif isinstance(ab, A.RevealRule):
                self.reveal_rules.append(ab)
        self.must_reveal = [r for r in self.reveal_rules if r.mode == "must"]  # mandatory reveals
        # call name -> the statics of static_calls that are not once per round (Game.codex_statics: asked
        # tens of times a sequence, of the same entries)
        self.every_call: dict[str, tuple] = {
            fn: tuple(ab for ab, once in calls if not once) for fn, calls in self.static_calls.items()}


@per_definition
def index(card) -> CardIndex:
    return CardIndex(card)


_WORDS: dict[int, tuple[Any, tuple]] = {}


def lower_words(phrase) -> tuple:
    """The words of a phrase of the language, lower-cased (phrases are frozen: computed once)."""
    if not isinstance(phrase, A.Phrase):
        return tuple(w.lower() for w in words_of(phrase))
    hit = _WORDS.get(id(phrase))
    if hit is not None and hit[0] is phrase:
        return hit[1]
    if len(_WORDS) >= LIMIT:
        _WORDS.clear()
    ws = tuple(w.text.lower() for w in phrase.words)
    _WORDS[id(phrase)] = (phrase, ws)
    return ws
