"""Data classes for rules entries, numbered sections and lookup results."""
from __future__ import annotations

from dataclasses import field

from ..dsl.frozen import light_dataclass  # @dataclass, made without compiling source text

CATEGORIES = ("trait", "condition", "term", "rule", "ability", "card")


@light_dataclass(frozen=True)
class Note:
    """A clarification or erratum: a statement in our words and where it comes from."""

    text: str
    cite: str = ""


@light_dataclass(frozen=True)
class Entry:
    """One lookup-able entry: a trait, condition, game term, rule topic, mage ability or card."""

    id: str
    name: str
    category: str
    aliases: tuple[str, ...] = ()
    rule: str = ""
    summary: str = ""
    rules: str = ""
    clarifications: tuple[Note, ...] = ()
    errata: tuple[Note, ...] = ()
    see_also: tuple[str, ...] = ()
    card_id: str = ""
    source: str = ""  # data file the entry came from


@light_dataclass(frozen=True)
class Section:
    """A numbered section of the rules document (rules.yaml)."""

    number: str
    title: str
    text: str = ""
    see_also: tuple[str, ...] = ()
    cite: str = ""

    @property
    def depth(self) -> int:
        return self.number.count(".") + 1

    @property
    def parent(self) -> str | None:
        return self.number.rsplit(".", 1)[0] if "." in self.number else None

    def as_entry(self) -> Entry:
        """View the section as an Entry (category "rule") so it renders like any other hit."""
        return Entry(
            id=f"rule-{self.number}",
            name=f"{self.number} {self.title}",
            category="rule",
            rule=self.number,
            summary=self.title,
            rules=self.text,
            see_also=self.see_also,
            source="rules.yaml",
        )


@light_dataclass
class LookupResult:
    """Outcome of RulesBook.lookup.

    kind: "exact" (name or id), "alias", "fuzzy", "rule" (a section number), "card" (only card
    hits), "ambiguous" (several equally good matches; see candidates), "question" (a question in
    plain words: every term and card it names, with the rulings that mention them together) or
    "none" (see candidates).
    """

    kind: str
    query: str
    entries: list[Entry] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)
    section: Section | None = None
    # kind "question": rulings that mention two or more of the terms asked about, as
    # (name of the entry the ruling belongs to, the ruling)
    together: list[tuple[str, Note]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.entries)
