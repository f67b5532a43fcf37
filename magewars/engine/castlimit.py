"""Per-round casting limits: `static cast_limit(this, N[, by: you])`.

* On a spell: it may be cast at most N times a round by each player (engine/placement.py asks
  `spell_limit` among the casting restrictions; every cast is counted here when it is declared).
* On an object with spell attack bars (a wand), or inside one attack bar (the Wizard's Arcane Zap):
  those bars may be used at most N times a round (engine/activation.py asks `bar_limit_reached`
  before offering the attack).

A leaf below the casting sequence and the action options; no card is named here.
"""
from __future__ import annotations

from typing import Optional

from ..dsl import ast as A
from .cardindex import per_definition
from .spellstatics import CAST_LIMIT


def _limits(abilities) -> list[A.Call]:
    return [ab.effect for ab in abilities if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call)
            and ab.effect.name == CAST_LIMIT]


@per_definition
def _limits_of(definition) -> list[A.Call]:
    """_limits of a card's abilities: read once per card (every attack offered with a bar it carries and
    every spell cast asks)."""
    return _limits(definition.abilities)


def _n(game, call: A.Call) -> Optional[int]:
    pos = [a.value for a in call.args if not a.key]
    if len(pos) < 2 or not (isinstance(pos[0], A.Phrase) and pos[0].text == "this"):
        return None
    n = pos[1] if isinstance(pos[1], int) else game.evaluate(pos[1], None)
    return n if isinstance(n, int) else None


def history(game) -> list:
    got = getattr(game, "cast_history", None)
    if got is None:
        got = game.cast_history = []
    return got


def record(game, player: str, name: str) -> None:
    """A spell was declared (a countered or canceled one was cast all the same)."""
    history(game).append((game.state.round, player, name))


def spell_limit(game, player: str, card) -> Optional[str]:
    """Why the player may not cast this spell again this round, or None."""
    for call in _limits_of(card):
        n = _n(game, call)
        if n is None:
            continue
        done = sum(1 for (r, p, name) in history(game) if r == game.state.round and p == player and name == card.name)
        if done >= n:
            return f"{card.name} may be cast only {n} time(s) a round; {player} already cast it {done} time(s)"
    return None


def bar_limit_reached(game, attacker, adef, source) -> bool:
    """Whether a spell attack bar (limited on the bar itself, or on the object that carries it) was
    already used as often as its limit allows this round."""
    own = _limits(bar) if (bar := getattr(adef, "abilities", ())) else ()  # (a bar may be made afresh)
    carried = _limits_of(source.card) if source is not None and source is not attacker else ()
    if not own and not carried:
        return False  # (most bars have no limit: the attacks made are not read)
    rnd = game.state.round
    made = [a for a in game.attacks.history if a.round == rnd and a.status != "canceled"]
    for call in own:
        n = _n(game, call)
        if n is not None and len({id(a.action) for a in made if a.attacker is attacker
                                  and a.action.definition.name == adef.name}) >= n:
            return True
    if source is not None and source is not attacker:
        bars = [id(b) for b in source.card.attacks]  # an attack made with one of its bars
        for call in carried:
            n = _n(game, call)
            if n is not None and len({id(a.action) for a in made if a.attacker is attacker
                                      and id(a.action.definition) in bars}) >= n:
                return True
    return False
