"""Typed syntax tree of the magewars card language.

Every node carries a :class:`Span`.  Nodes are frozen dataclasses; tuples
hold sequences so that trees can be hashed and compared in tests.  Nothing
from Lark escapes this layer: :mod:`magewars.dsl.transform` converts the
parse tree into these nodes.
"""
from __future__ import annotations

from dataclasses import field
from typing import Optional, Union

from .frozen import frozen_dataclass  # @dataclass(frozen=True), cheaper to create
from .span import NOSPAN, Span  # noqa: F401  (every node's location; defined apart: magewars/dsl/span.py)


def _sp() -> Span:
    return field(default=NOSPAN, compare=False, repr=False)


# ---------------------------------------------------------------- values
@frozen_dataclass
class XValue:
    """The variable X of a card, times a coefficient (2X)."""
    coef: int = 1
    span: Span = _sp()

    def __str__(self) -> str:
        return "X" if self.coef == 1 else f"{self.coef}X"


Amount = Union[int, XValue]


@frozen_dataclass
class Name:
    words: tuple[str, ...]
    span: Span = _sp()

    @property
    def text(self) -> str:
        return " ".join(self.words)


@frozen_dataclass
class Param:
    """A trait parameter: `+2`, `-X`, `3`, `X`."""
    sign: Optional[str]
    value: Amount
    span: Span = _sp()

    def signed_value(self) -> Amount:
        if isinstance(self.value, XValue):  # `Armor -X`: the sign goes into the coefficient
            return XValue(-self.value.coef, self.value.span) if self.sign == "-" else self.value
        return -self.value if self.sign == "-" else self.value

    def __str__(self) -> str:
        return f"{self.sign or ''}{self.value}"


@frozen_dataclass
class TraitRef:
    """A reference to a trait or condition: `Melee +2`, `+2 vs Flying or Dark`."""
    name: Name
    param: Optional[Param] = None
    versus: tuple[Name, ...] = ()
    span: Span = _sp()

    @property
    def text(self) -> str:
        if self.versus:
            return f"{self.param} vs " + " or ".join(v.text for v in self.versus)
        return self.name.text + (f" {self.param}" if self.param is not None else "")


@frozen_dataclass
class TraitGroup:
    traits: tuple[TraitRef, ...]
    span: Span = _sp()


@frozen_dataclass
class Word:
    text: str
    kind: str  # "name" (Capitalised), "word" (keyword), "number"
    span: Span = _sp()


@frozen_dataclass
class Phrase:
    """Words naming objects or places; read by the checker."""
    words: tuple[Word, ...]
    span: Span = _sp()

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)


@frozen_dataclass
class Signed:
    sign: str
    value: Amount
    span: Span = _sp()

    def as_int(self) -> Amount:
        if isinstance(self.value, XValue):
            return self.value
        return -self.value if self.sign == "-" else self.value


@frozen_dataclass
class StringLit:
    value: str
    span: Span = _sp()


@frozen_dataclass
class Arg:
    key: Optional[str]
    value: "Value"
    span: Span = _sp()


@frozen_dataclass
class Call:
    name: str
    args: tuple[Arg, ...] = ()
    span: Span = _sp()
    bare: bool = False  # an event or timing written without parentheses


@frozen_dataclass
class BinOp:
    left: "Value"
    op: str
    right: "Value"
    span: Span = _sp()


Value = Union[int, XValue, Signed, Phrase, TraitGroup, StringLit, Call, BinOp]


# ---------------------------------------------------------------- conditions
@frozen_dataclass
class Compare:
    left: Value
    op: str
    right: Value
    span: Span = _sp()


@frozen_dataclass
class CondAnd:
    items: tuple["Condition", ...]
    span: Span = _sp()


@frozen_dataclass
class CondOr:
    items: tuple["Condition", ...]
    span: Span = _sp()


@frozen_dataclass
class CondNot:
    item: "Condition"
    span: Span = _sp()


Condition = Union[Call, Compare, CondAnd, CondOr, CondNot]


# ---------------------------------------------------------------- effects
@frozen_dataclass
class Duration:
    until: str  # end of: round, action_phase, ...
    span: Span = _sp()


@frozen_dataclass
class Gain:
    subject: Phrase
    traits: TraitGroup
    duration: Optional[Duration] = None
    span: Span = _sp()


@frozen_dataclass
class Lose:
    subject: Phrase
    traits: TraitGroup
    cannot_gain: bool = False
    span: Span = _sp()


@frozen_dataclass
class StatMod:
    stat: str
    amount: Signed
    span: Span = _sp()


@frozen_dataclass
class StatChange:
    subject: Phrase
    mods: tuple[StatMod, ...]
    duration: Optional[Duration] = None
    span: Span = _sp()


@frozen_dataclass
class IfEffect:
    condition: Condition
    then: tuple["Effect", ...]
    otherwise: Optional[tuple["Effect", ...]] = None
    span: Span = _sp()


@frozen_dataclass
class OptionalEffect:
    body: tuple["Effect", ...]
    span: Span = _sp()


@frozen_dataclass
class ChoiceEffect:
    options: tuple[tuple["Effect", ...], ...]
    span: Span = _sp()


@frozen_dataclass
class ForEach:
    over: Phrase
    body: tuple["Effect", ...]
    span: Span = _sp()


@frozen_dataclass
class Unsupported:
    """A clause the language cannot state yet.  `reason` is machine readable."""
    reason: str
    clause: Optional[str] = None
    span: Span = _sp()


Effect = Union[Call, Gain, Lose, StatChange, IfEffect, OptionalEffect, ChoiceEffect, ForEach, Unsupported]


# ---------------------------------------------------------------- abilities
@frozen_dataclass
class StaticAbility:
    guard: Optional[Condition]
    effect: Effect
    span: Span = _sp()


@frozen_dataclass
class TriggeredAbility:
    event: Call
    guard: Optional[Condition]
    effects: tuple[Effect, ...]
    span: Span = _sp()


@frozen_dataclass
class TimedAbility:
    timing: Call
    effects: tuple[Effect, ...]
    span: Span = _sp()


@frozen_dataclass
class CostAction:
    action: str
    span: Span = _sp()


@frozen_dataclass
class CostMana:
    amount: Amount
    span: Span = _sp()


CostPart = Union[CostAction, CostMana, Call]


@frozen_dataclass
class ActivatedAbility:
    costs: tuple[CostPart, ...]
    effects: tuple[Effect, ...]
    span: Span = _sp()


@frozen_dataclass
class RevealRule:
    mode: str  # must | may
    on: tuple[Call, ...]
    step_rel: Optional[str] = None  # during | after | before
    step: Optional[str] = None
    span: Span = _sp()


@frozen_dataclass
class OneShotAbility:
    effects: tuple[Effect, ...]
    span: Span = _sp()


@frozen_dataclass
class OncePerRound:
    ability: "Ability"
    span: Span = _sp()


Ability = Union[StaticAbility, TriggeredAbility, TimedAbility, ActivatedAbility, RevealRule,
                OneShotAbility, OncePerRound]


# ---------------------------------------------------------------- card items
@frozen_dataclass
class Printed:
    set_name: str
    card_id: Optional[str]
    span: Span = _sp()


@frozen_dataclass
class Subtypes:
    names: tuple[Name, ...]
    span: Span = _sp()


@frozen_dataclass
class SchoolReq:
    school: Name
    level: int
    span: Span = _sp()


@frozen_dataclass
class School:
    reqs: tuple[SchoolReq, ...]
    joins: tuple[str, ...]
    span: Span = _sp()


@frozen_dataclass
class Cost:
    cast: Amount
    reveal: Optional[Amount] = None
    span: Span = _sp()


@frozen_dataclass
class Casting:
    action: str
    span: Span = _sp()


@frozen_dataclass
class Range:
    low: int
    high: int
    span: Span = _sp()


@frozen_dataclass
class Targets:
    """`or`: one of these; `and`: the spell takes each of these targets."""
    alternatives: tuple[Phrase, ...]
    joins: tuple[str, ...] = ()
    span: Span = _sp()


@frozen_dataclass
class Stat:
    stat: str
    value: Optional[int]  # None means "none" (no armor)
    span: Span = _sp()


@frozen_dataclass
class Defense:
    roll: int
    uses: Optional[int]  # None: unlimited
    limit: Optional[str] = None  # "melee" | "ranged": cannot defend against
    span: Span = _sp()


@frozen_dataclass
class Slot:
    names: tuple[Name, ...]
    joins: tuple[str, ...]
    span: Span = _sp()


@frozen_dataclass
class Traits:
    traits: tuple[TraitRef, ...]
    seps: tuple[str, ...]  # "," or "OR" between consecutive traits
    span: Span = _sp()


@frozen_dataclass
class Training:
    schools: tuple[Name, ...]
    span: Span = _sp()


@frozen_dataclass
class SchoolCost:
    costs: tuple[tuple[Name, int], ...]
    span: Span = _sp()


@frozen_dataclass
class Summary:
    text: str
    span: Span = _sp()


@frozen_dataclass
class Errata:
    cite: str
    span: Span = _sp()


@frozen_dataclass
class UnsupportedItem:
    reason: str
    clause: Optional[str] = None
    span: Span = _sp()


# attack bar items
@frozen_dataclass
class AttackAction:
    action: str
    span: Span = _sp()


@frozen_dataclass
class AttackKind:
    kind: str  # melee | ranged
    span: Span = _sp()


@frozen_dataclass
class SpecialKind:
    kind: str  # zone | barrier | passage | bash | counterstrike
    span: Span = _sp()


@frozen_dataclass
class DamageType:
    name: Name
    span: Span = _sp()


@frozen_dataclass
class Dice:
    amount: Amount
    span: Span = _sp()


@frozen_dataclass
class Outcome:
    count: Optional[int]
    name: Name
    span: Span = _sp()


@frozen_dataclass
class DieRow:
    low: int
    high: Optional[int]  # None: open ended ("10+")
    outcomes: tuple[Outcome, ...]
    span: Span = _sp()


@frozen_dataclass
class EffectDie:
    rows: tuple[DieRow, ...]
    span: Span = _sp()


@frozen_dataclass
class AttackBar:
    name: str
    items: tuple
    span: Span = _sp()


# codex items
@frozen_dataclass
class ParamDecl:
    kind: str  # number | bonus | penalty | name
    span: Span = _sp()


@frozen_dataclass
class Category:
    names: tuple[Name, ...]
    span: Span = _sp()


@frozen_dataclass
class Stacking:
    mode: str
    span: Span = _sp()


@frozen_dataclass
class Removal:
    cost: Optional[Amount]  # None: cannot be removed by paying
    span: Span = _sp()


@frozen_dataclass
class Marker:
    kind: str
    span: Span = _sp()


# ---------------------------------------------------------------- definitions
@frozen_dataclass
class CardDef:
    kind: str  # creature, conjuration, wall, terrain, vine, enchantment, equipment, incantation, attack, mage
    name: str
    items: tuple
    span: Span = _sp()
    name_span: Span = _sp()


@frozen_dataclass
class CodexDef:
    kind: str  # trait | condition | keyword
    name: str
    items: tuple
    span: Span = _sp()
    name_span: Span = _sp()


Definition = Union[CardDef, CodexDef]


@frozen_dataclass
class SourceFile:
    path: str
    definitions: tuple[Definition, ...]
    # Text the parser skipped to recover from syntax errors: (line, skipped text).  The checker
    # uses it never to report as missing a field that was written but could not be parsed.
    skipped: tuple[tuple[int, str], ...] = ()
