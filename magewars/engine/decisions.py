"""One typed interface for every choice the rules give a player.

The engine builds a :class:`Decision` (kind, player, options, context) and
asks an agent.  Kinds: ``reveal`` (which hidden enchantment to reveal in a
window, or pass), ``defense`` (which defense to use, or none),
``counterstrike`` (make it or not), ``zone_order`` (next object a zone attack
attacks), ``target``, ``optional`` (an optional effect or cost),
``choose`` (one of several effects), ``order`` (simultaneous effects),
``alternative`` (an "OR" attack bar), ``reroll``.
"""
from __future__ import annotations

import random
from reprlib import recursive_repr
from dataclasses import dataclass, field
from typing import Any, Optional

from ..dsl.frozen import light_dataclass  # @dataclass, made without compiling source text


# Every kind of decision the engine asks, with what it is about.  `Game.decide` refuses any other kind,
# so an agent may rely on this list (the duel's seats check against it).
DECISION_KINDS: dict[str, str] = {
    "initiative": "the first round's initiative: keep it or give it away",
    "plan": "a spell to plan in the Planning Phase, or stop planning",
    "activate": "which ready creature activates next",
    "action": "what an activating creature does: move, attack, cast, guard, use an ability or pass",
    "upkeep": "pay an upkeep cost, or let its object go",
    "reveal": "which face-down enchantment to reveal in a reveal window, or none",
    "defense": "which defense to try against an attack, or none",
    "counterstrike": "make a counterstrike or not",
    "zone_order": "which object of the zone a zone attack attacks next",
    "alternative": "one side of an attack bar's OR",
    "reroll": "keep a roll or roll again",
    "target": "a target (or direction) an effect asks for",
    "optional": "take an optional effect or cost, or not",
    "choose": "one of several effects",
    "order": "which of several simultaneous effects resolves first",
    "remove_condition": "pay a condition's removal cost to remove it, or stop (engine/removal.py)",
    "amount": "how much of an \"up to N\" amount to use (chosen_amount)",
}


def decision_kinds() -> list[str]:
    """The kinds of decision the engine may ask, in the order a round meets them."""
    return list(DECISION_KINDS)


class HiddenPick(str):
    """A card name picked in secret (a planned spell, a spell given to a spawnpoint or familiar), as a
    decision's value: logged for its player only."""
    hidden = True

    def __new__(cls, name: str, controller: str):
        s = super().__new__(cls, name)
        s.controller = controller
        return s

    def public_label(self) -> str:
        return "a spell"


class Option:
    """One choice offered in a decision: its label and the value the engine acts on.

    Compared and hashed by (label, value), as the frozen dataclass it was: an option equal to one
    offered is accepted by `Game.decide` (agents answer with the very object).  A plain class with
    slots, because every decision site makes its options and a frozen dataclass's __init__ sets each
    field through object.__setattr__ (about three times the cost); never assign to an option once it
    is made (its hash is its value)."""
    __slots__ = ("label", "value")
    __match_args__ = ("label", "value")

    def __init__(self, label: str, value: Any = None):
        self.label = label
        self.value = value

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.label, self.value) == (other.label, other.value)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.label, self.value))

    @recursive_repr()
    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(label={self.label!r}, value={self.value!r})"

    def __str__(self) -> str:
        return self.label


@dataclass(slots=True)  # (made at every decision: slots, no per-instance dict)
class Decision:
    kind: str
    player: str
    options: list[Option]
    context: dict = field(default_factory=dict)
    prompt: str = ""
    default: Optional[int] = None  # index of the option taken when nothing is scripted (lenient mode)

    def labels(self) -> list[str]:
        return [o.label for o in self.options]


class UnscriptedDecision(Exception):
    def __init__(self, decision: Decision, why: str = "nobody scripted this decision"):
        self.decision = decision
        super().__init__(f"{why}: {decision.kind} for {decision.player} ({decision.prompt}); "
                         f"options: {', '.join(decision.labels())}")


class Agent:
    def decide(self, decision: Decision) -> Option:
        raise NotImplementedError


class FirstLegalAgent(Agent):
    """Takes the default where there is one, else the first option."""

    def decide(self, decision: Decision) -> Option:
        if decision.default is not None:
            return decision.options[decision.default]
        return decision.options[0]


class RandomAgent(Agent):
    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def decide(self, decision: Decision) -> Option:
        return self.rng.choice(decision.options)


@light_dataclass
class ScriptedChoice:
    kind: str
    choose: Any  # label (case-insensitive), or int index
    player: Optional[str] = None
    step: Optional[str] = None
    where: Optional[str] = None  # location in the scenario file, for messages
    used: bool = False


class ScriptedAgent(Agent):
    """Answers from a script, in order per kind; fails loudly on anything unscripted.

    With ``lenient=True`` a decision nobody scripted takes its default (pass on
    reveal windows, use an available defense, make a counterstrike, zone order
    as listed); decisions without a default still fail.
    """

    def __init__(self, script: list[ScriptedChoice] = (), lenient: bool = False):
        self.script = list(script)
        self.lenient = lenient

    def _match(self, entry: ScriptedChoice, d: Decision) -> bool:
        if entry.used or entry.kind != d.kind:
            return False
        if entry.player is not None and entry.player.lower() != d.player.lower():
            return False
        if entry.step is not None and entry.step != d.context.get("step"):
            return False
        if d.kind == "reveal" and not self._find(entry, d, quiet=True):
            return False  # a scripted reveal waits for the window offering it
        return True

    def _find(self, entry: ScriptedChoice, d: Decision, quiet=False) -> Optional[Option]:
        c = entry.choose
        if isinstance(c, int) and not isinstance(c, bool):
            if 0 <= c < len(d.options):
                return d.options[c]
        else:
            want = str(c).strip().lower()
            for o in d.options:
                if o.label.lower() == want:
                    return o
            for o in d.options:
                if o.label.lower().startswith(want):
                    return o
        if quiet:
            return None
        raise UnscriptedDecision(d, f"scripted choice {entry.choose!r} is not an option"
                                    + (f" ({entry.where})" if entry.where else ""))

    def decide(self, decision: Decision) -> Option:
        for entry in self.script:
            if self._match(entry, decision):
                opt = self._find(entry, decision)
                entry.used = True
                return opt
        if self.lenient and decision.default is not None:
            return decision.options[decision.default]
        raise UnscriptedDecision(decision)

    def unused(self) -> list[ScriptedChoice]:
        return [e for e in self.script if not e.used]
