"""What a loaded spellbook is: a mage, its stats card, and spells with counts."""
from __future__ import annotations

from dataclasses import field
from typing import Optional

from ..dsl.ast import Span
from ..dsl.diagnostics import Diagnostic
from ..dsl.model import CardDefinition, Corpus
from ..dsl.frozen import light_dataclass  # @dataclass, made without compiling source text

# Hard limits on what a spellbook file may hold, so bad input costs bounded time and memory.
MAX_FILE_BYTES = 512 * 1024
MAX_ENTRIES = 2000
MAX_COPIES = 99
MAX_NAME_CHARS = 120
MAX_LINE_CHARS = 200  # checked before any pattern runs on a line

# Card kinds that are never spells: they describe the mage, not its book.
MAGE_KINDS = ("mage", "magestats")


@light_dataclass
class Entry:
    """One line of the book: a card name as written, how many copies, and the card it names."""
    name: str
    count: int
    span: Span
    card: Optional[CardDefinition] = None


@light_dataclass
class Spellbook:
    path: str
    format: str  # "text" | "o8d"
    corpus: Corpus
    mage: Optional[CardDefinition] = None
    mage_span: Optional[Span] = None
    stats: Optional[CardDefinition] = None
    stats_span: Optional[Span] = None
    entries: list[Entry] = field(default_factory=list)
    # problems found while reading the file (syntax, unknown names); validate() reports them too
    problems: list[Diagnostic] = field(default_factory=list)
    text: Optional[str] = None  # the source text, for echoing lines in diagnostics

    def entry_of(self, card: CardDefinition) -> Optional[Entry]:
        """The entry holding this card, if any."""
        return next((e for e in self.entries if e.card is card), None)

    @property
    def cards(self) -> list[tuple[CardDefinition, int]]:
        """The resolved spells with their counts (entries whose name resolved to a spell)."""
        return [(e.card, e.count) for e in self.entries if e.card is not None]

    @property
    def name(self) -> str:
        from pathlib import Path
        return Path(self.path).stem

    def count(self) -> int:
        return sum(e.count for e in self.entries)
