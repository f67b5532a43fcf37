"""The typed action choices of the whole-game contract, and how they are labelled for agents.

Every action choice reaches an agent as ``game.decide("action", player, options)``; each
``Option.value`` is one of the records below: plain frozen values (ids and names only), hashable and
printable, so a log or a replay can hold them.  Which of them an activating creature may take now is
worked out in engine/activation.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .decisions import Option


# ---------------------------------------------------------------- the typed choices
@dataclass(frozen=True)
class MoveChoice:
    obj_id: str
    to_zone: str
    teleport: bool = False  # a move action made as a teleport (a `can(this, "teleport", instead_of: "move")`)

    def label(self) -> str:
        return f"move {self.obj_id} to {self.to_zone}"


@dataclass(frozen=True)
class AttackChoice:
    obj_id: str
    attack_name: str
    target_ids: tuple = ()
    zone: Optional[str] = None

    def label(self) -> str:
        at = self.zone if self.zone else ", ".join(self.target_ids)
        return f"{self.obj_id} attacks {at} with {self.attack_name}"


@dataclass(frozen=True)
class CastChoice:
    caster_id: str
    card_name: str
    target_ids: tuple = ()
    zone: Optional[str] = None
    face_down: bool = False
    quickcast: bool = False  # cast with the mage's quickcast marker, not its action

    @property
    def hidden(self) -> bool:
        """A face-down cast names its spell to the caster's player only (the decision log keeps it secret)."""
        return self.face_down

    def public_label(self) -> str:
        at = [*self.target_ids] + ([self.zone] if self.zone else [])
        return f"{self.caster_id} casts a spell face down" + (f" on {', '.join(at)}" if at else "")

    def label(self) -> str:
        at = [*self.target_ids] + ([self.zone] if self.zone else [])
        return (f"{self.caster_id} {'quickcasts' if self.quickcast else 'casts'} {self.card_name}"
                + (" face down" if self.face_down else "") + (f" on {', '.join(at)}" if at else ""))


@dataclass(frozen=True)
class GuardChoice:
    obj_id: str

    def label(self) -> str:
        return f"{self.obj_id} guards"


@dataclass(frozen=True)
class AbilityChoice:
    obj_id: str  # the object whose card carries the ability
    ability_index: int  # index in that card's abilities
    target_ids: tuple = ()
    actor_id: Optional[str] = None  # the activating creature, when it is not obj_id
    entry: Optional[str] = None  # the codex entry (a trait obj_id has) whose abilities are indexed, if not its card

    def label(self) -> str:
        by = f" (by {self.actor_id})" if self.actor_id and self.actor_id != self.obj_id else ""
        return f"{self.obj_id} uses action ability #{self.ability_index + 1}{by}"


@dataclass(frozen=True)
class PassChoice:
    obj_id: str

    def label(self) -> str:
        return f"{self.obj_id} ends its action phase"


ActionChoice = (MoveChoice, AttackChoice, CastChoice, GuardChoice, AbilityChoice, PassChoice)


@dataclass
class Activation:
    """Where one creature's action phase stands."""
    obj_id: str
    moves: int = 0  # move actions taken
    acted: bool = False  # its quick or full action is taken (or it passed)
    quickcast_before: bool = False  # the mage quickcast before its action


def options_of(choices: list, game) -> list[Option]:
    return [Option(_label(game, c), c) for c in choices]


def _label(game, c) -> str:
    objs = game.state.objects
    def name(oid):  # a face-down card is never named in an option: the choice taken is logged for all
        o = objs.get(oid)
        return o.public_label() if o is not None else oid
    if isinstance(c, MoveChoice):
        if c.teleport:
            return f"{name(c.obj_id)} teleports to {c.to_zone}"
        return f"move {name(c.obj_id)} to {c.to_zone}"
    if isinstance(c, AttackChoice):
        at = c.zone if c.zone else ", ".join(name(t) for t in c.target_ids)
        return f"{name(c.obj_id)} attacks {at} with {c.attack_name}"
    if isinstance(c, CastChoice):
        at = [name(t) for t in c.target_ids] + ([c.zone] if c.zone else [])
        return (f"{name(c.caster_id)} {'quickcasts' if c.quickcast else 'casts'} {c.card_name}"
                + (" face down" if c.face_down else "") + (f" on {', '.join(at)}" if at else ""))
    if isinstance(c, GuardChoice):
        return f"{name(c.obj_id)} guards"
    if isinstance(c, AbilityChoice):
        src = objs.get(c.obj_id)
        if c.entry is not None:
            return f"{name(c.obj_id)}: {c.entry} action"
        return (f"{name(c.obj_id)}: action ability #{c.ability_index + 1}"
                + (f" ({src.card.name})" if src is not None and c.actor_id else ""))
    if isinstance(c, PassChoice):
        return f"{name(c.obj_id)} passes"
    return str(c)
