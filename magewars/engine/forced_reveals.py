"""Mandatory reveals on events outside the attack and casting sequences.

A hidden enchantment with `reveal must on EVENT(...)` (no step) is revealed, forced, when the engine
reaches that event: the attack and casting sequences record their events on the attack or spell
(engine/reveal.py), a move checks `moves` (engine/movement.py); this module serves the others, called
where they happen.  `activated`: a creature starts its action phase (engine/round.py) - a trap on it
springs before it acts.
"""
from __future__ import annotations

from .cardindex import index
from .phrases import Ctx

#: events this module is asked about, each by the procedure that reaches it
EVENTS = ("activated",)


def reveal_on(game, event: str, subject, **info) -> int:
    """Reveal every hidden enchantment that must be revealed on this event about `subject`."""
    done = 0
    for player in game.state.order:
        for ench in list(game.reveals.hidden_of(player)):
            if not (ench.hidden and ench.in_play) or (subject is not None and not subject.in_play):
                continue
            for rule in index(ench.card).must_reveal:
                if rule.step is not None:
                    continue
                if any(ev.name == event and game.event_matches(ev, ench, subject, Ctx(this=ench), info)
                       for ev in rule.on):
                    what = subject.label() if subject is not None else "the game"
                    game.emit("rule", f"{ench.label()} must be revealed: {event} ({what})",
                              secret_for=ench.controller,
                              public_text=f"{ench.public_label()} must be revealed: {event} ({what})")
                    if game.reveals.reveal(ench, None, forced=True, subject=subject):
                        done += 1
                    break
    return done
