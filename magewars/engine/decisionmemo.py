"""Answers kept for the length of one decision's enumeration of legal options.

An agent's action decision asks the same questions many times over before the state changes: every
candidate move of a creature asks whether it may move at all, every candidate target of a spell asks
the caster's restrictions on that spell, and a Mage with its quickcast marker has its quick spells
enumerated twice (with the marker, and with its action).  `recall` keeps such an answer while one
enumeration runs (`scope`), so the question is worked out once.

It changes nothing a game shows.  An answer is kept only when working it out left no trace (no event
logged, no construct noted as unsupported) and the state is still the one it was asked of: asked again
of the same state it would be worked out to the same value, again without a trace, so the kept value
stands in for it exactly.  An answer that leaves a trace is worked out every time, as without this
module.  Outside a scope, while the state has changed since the scope began, and while a derived value
is being worked out (whose reads must be seen: engine/effects.py), nothing is kept or reused.
"""
from __future__ import annotations

from typing import Any, Callable

_MISSING = object()


class _Memo(dict):
    """The answers of one scope (keys are tuples naming the question), valid for one state version
    (`version`, set as it is made)."""
    __slots__ = ("version",)


def trace(game) -> tuple:
    """What working something out may leave behind: events logged, constructs noted as unsupported."""
    return (len(game.log.events), len(game.pending_notes), len(game.unsupported), len(game.static_unsupported))


class scope:
    """One enumeration of legal options (`with scope(game):`): answers kept by `recall` live until it
    ends (a scope opened inside another shares the outer one's answers).  A plain class, not a
    generator's context manager: every decision opens one.  (It holds the game only while it is open.)"""
    __slots__ = ("game", "opened")

    def __init__(self, game) -> None:
        self.game = game
        self.opened = False

    def __enter__(self) -> None:
        game = self.game
        if game.__dict__.get("_decision_memo") is None:
            memo = game._decision_memo = _Memo()
            memo.version = game.state.version
            self.opened = True

    def __exit__(self, *exc) -> bool:
        if self.opened:
            self.game._decision_memo = None
        self.game = None
        return False


def recall(game, key: tuple, compute: Callable[[], Any]) -> Any:
    """The answer to the question `key` names: kept from earlier in this scope, else `compute()` (kept
    when it left no trace).  The caller must not change what it gets (tuples, or copies of lists)."""
    memo = game.__dict__.get("_decision_memo")
    if memo is None or game.effects._frames:
        return compute()
    version = game.state.version
    if memo.version != version:  # the state changed under the scope: what was kept is not about it
        memo.clear()
        memo.version = version
    hit = memo.get(key, _MISSING)
    if hit is not _MISSING:
        return hit
    # (trace(game), spelled out: a miss is most of what this costs)
    before = (len(game.log.events), len(game.pending_notes), len(game.unsupported), len(game.static_unsupported))
    got = compute()
    if game.state.version == version and before == (len(game.log.events), len(game.pending_notes),
                                                    len(game.unsupported), len(game.static_unsupported)):
        memo[key] = got
    return got
