"""The typed choices an agent makes in the action phase (the whole-game contract).

Each `Option.value` of a `game.decide("action", ...)` decision is one of these records.  They
are plain frozen values: hashable, comparable, printable, and free of engine objects (ids and
names only), so a log or a replay can hold them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class MoveChoice:
    obj_id: str
    to_zone: str


@dataclass(frozen=True)
class AttackChoice:
    obj_id: str
    attack_name: str
    target_ids: tuple[str, ...] = ()
    zone: Optional[str] = None


@dataclass(frozen=True)
class CastChoice:
    """Cast `card_name` by `caster_id` on `target_ids` (objects) or into/onto `zone` (a zone label,
    or a border written "B2/B3" for a wall); enchantments are cast face down."""
    caster_id: str
    card_name: str
    target_ids: tuple[str, ...] = ()
    zone: Optional[str] = None
    face_down: bool = False


@dataclass(frozen=True)
class GuardChoice:
    obj_id: str


@dataclass(frozen=True)
class AbilityChoice:
    obj_id: str
    ability_index: int
    target_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class PassChoice:
    obj_id: str
