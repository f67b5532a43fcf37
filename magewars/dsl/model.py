"""Compiled definitions: what the checker produces and the engine consumes.

These are plain frozen dataclasses with resolved names.  Abilities keep their
typed AST nodes (:mod:`magewars.dsl.ast`); the checker has validated every
call, phrase and trait in them against :mod:`magewars.dsl.vocab` and the codex.
"""
from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import Optional, Union

from .frozen import frozen_dataclass  # @dataclass(frozen=True), cheaper to create
from . import ast as A
from . import vocab
from .corpus import Corpus  # noqa: F401  (defined apart: holding a corpus imports no definitions)

Amount = Union[int, A.XValue]

# The schools are game data, not code: one name a line in magewars/data/schools.txt. (Damage types are
# the codex entries of the category `vocab.DAMAGE_TYPE_CATEGORY`: see `damage_types`.)
SCHOOLS = tuple(line.strip() for line in
                (Path(__file__).resolve().parents[1] / "data" / "schools.txt").read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.startswith("#"))


def versus_entry(codex: dict) -> Optional[str]:
    """The codex entry a `+X vs Name` reference stands for: the one declared `param versus`."""
    return next((n for n, e in codex.items() if getattr(e, "param", None) == "versus"), None)


def damage_types(codex: dict) -> tuple[str, ...]:
    """The damage types: the codex entries of the damage-type category."""
    return tuple(sorted(n for n, e in codex.items() if vocab.DAMAGE_TYPE_CATEGORY in getattr(e, "categories", ())))


CARD_KINDS = ("creature", "conjuration", "wall", "terrain", "vine", "enchantment", "equipment",
              "incantation", "attack", "mage", "magestats")
ATTACK_STEPS = vocab.ATTACK_STEPS  # (the vocabulary's table, in the chart's order)


@frozen_dataclass
class TraitInstance:
    """A trait as carried by a card or attack: codex key plus parameter.

    `key` is the codex entry's name ("Piercing", "Flame", "Flame Immunity",
    "Only", "Versus"); `value` the numeric parameter (signed: Tough -2 -> -2),
    an XValue, or None; `arg` a name parameter ("Holy Mage" for Holy Mage Only);
    `versus` the names after "vs" (+2 vs Flying -> ("Flying",)).
    """
    key: str
    value: Optional[Amount] = None
    arg: Optional[str] = None
    versus: tuple[str, ...] = ()
    text: str = ""
    span: A.Span = field(default=A.NOSPAN, compare=False, repr=False)

    def __str__(self) -> str:
        return self.text or self.key


@frozen_dataclass
class EffectRow:
    low: int
    high: Optional[int]  # None: open ended
    outcomes: tuple[tuple[str, int], ...]  # (codex name, count)


@frozen_dataclass
class Defense:
    roll: int  # succeeds on this or higher on the d12
    uses: Optional[int]  # per round; None = unlimited
    limit: Optional[str] = None  # "melee"/"ranged": cannot be used against that kind


class _HasTraits:
    """Trait queries shared by cards and attack bars (both have `traits`)."""

    def has_trait(self, key: str) -> bool:
        return any(t.key == key for t in self.traits)

    def trait(self, key: str) -> Optional[TraitInstance]:
        for t in self.traits:
            if t.key == key:
                return t
        return None


@frozen_dataclass
class AttackDefinition(_HasTraits):
    name: str
    action: Optional[str]  # quick | full | None (not an action: barrier, passage, ...)
    kind: Optional[str]  # melee | ranged | None
    special: tuple[str, ...]  # zone, barrier, passage, bash, counterstrike
    range: Optional[tuple[int, int]]
    damage_type: Optional[str]
    dice: Optional[Amount]
    effect_die: tuple[EffectRow, ...]
    traits: tuple[TraitInstance, ...]  # always present
    alternatives: tuple[tuple[TraitInstance, ...], ...] = ()  # "OR": choose one group at declaration
    cost: Optional[Amount] = None
    abilities: tuple = ()
    unsupported: tuple["UnsupportedClause", ...] = ()
    span: A.Span = field(default=A.NOSPAN, compare=False, repr=False)
    # one of its traits makes it a zone attack: the trait's codex entry states `static attack_zone()`
    zone_trait: bool = False

    @property
    def is_zone(self) -> bool:
        return "zone" in self.special or self.zone_trait



@frozen_dataclass
class UnsupportedClause:
    reason: str
    clause: Optional[str]
    span: A.Span = field(default=A.NOSPAN, compare=False, repr=False)


@frozen_dataclass
class CardDefinition(_HasTraits):
    name: str
    kind: str  # one of CARD_KINDS
    subtypes: tuple[str, ...] = ()
    schools: tuple[tuple[str, int], ...] = ()
    school_join: str = "single"  # single | and | or
    cast_cost: Optional[Amount] = None
    reveal_cost: Optional[Amount] = None
    action: Optional[str] = None  # quick | full
    range: Optional[tuple[int, int]] = None
    targets: tuple[str, ...] = ()  # as written ("Living creature")
    target_join: str = "or"  # or: one of the targets; and: each of them (two targets)
    target_phrases: tuple[A.Phrase, ...] = ()
    armor: Optional[int] = None
    life: Optional[int] = None
    channeling: Optional[int] = None
    spellbook: Optional[int] = None
    starting_mana: Optional[int] = None
    defenses: tuple[Defense, ...] = ()
    slot: tuple[str, ...] = ()
    slot_join: str = "single"
    traits: tuple[TraitInstance, ...] = ()
    attacks: tuple[AttackDefinition, ...] = ()
    abilities: tuple = ()  # AST ability nodes
    training: tuple[str, ...] = ()
    school_costs: tuple[tuple[str, int], ...] = ()
    printings: tuple[tuple[str, Optional[str]], ...] = ()  # (set, card id)
    errata: tuple[str, ...] = ()
    summary: Optional[str] = None
    unsupported: tuple[UnsupportedClause, ...] = ()
    span: A.Span = field(default=A.NOSPAN, compare=False, repr=False)

    @property
    def fully_expressed(self) -> bool:
        return not self.unsupported and all(not a.unsupported for a in self.attacks)

    @property
    def level(self) -> int:
        if not self.schools:
            return 0
        if self.school_join == "or":
            return self.schools[0][1]
        return sum(level for _, level in self.schools)


    @property
    def is_object_with_life(self) -> bool:
        return self.life is not None


@frozen_dataclass
class CodexDefinition:
    name: str
    kind: str  # trait | condition | keyword
    param: Optional[str] = None  # number | bonus | penalty | signed | name
    categories: tuple[str, ...] = ()
    stacking: Optional[str] = None  # add | highest | none
    removal: Optional[Amount] = None  # mana to remove a condition; None: cannot be paid off
    removable: bool = False
    marker: Optional[str] = None  # condition | token | none
    abilities: tuple = ()
    summary: Optional[str] = None
    unsupported: tuple[UnsupportedClause, ...] = ()
    span: A.Span = field(default=A.NOSPAN, compare=False, repr=False)

    @property
    def display(self) -> str:
        return {"bonus": f"{self.name} +X", "penalty": f"{self.name} -X", "number": f"{self.name} X",
                "signed": f"{self.name} +/-X", "name": f"X {self.name}",
                "versus": "+X vs Name"}.get(self.param or "", self.name)
