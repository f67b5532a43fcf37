"""Spellbooks: read them (plain text or OCTGN `.o8d`), check them against the building rules.

    book = load_spellbook("beastmaster")        # a shipped book by name, or a path
    problems = validate(book)                   # located diagnostics; none with severity "error": legal
    book.mage, book.stats, book.cards           # the Mage card, its stats card, [(CardDefinition, count)]

The format is described in docs/spellbooks.md; the rules live in the cards and the codex
(see `rules.py`).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional, Union

if TYPE_CHECKING:  # the language package loads Lark; `magewars --help` should not pay for it
    from ..dsl.diagnostics import Diagnostic
    from ..dsl.model import Corpus
    from .model import Entry, Spellbook


def __getattr__(name: str):
    if name in ("Entry", "Spellbook"):
        from . import model
        return getattr(model, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["Entry", "Spellbook", "SpellbookNotFound", "load_spellbook", "validate", "shipped_books",
           "spellbooks_dir", "is_legal"]

SUFFIXES = (".book", ".o8d")


class SpellbookNotFound(FileNotFoundError):
    """Neither a file nor the name of a shipped spellbook."""

    def __init__(self, what: str, hint: Optional[str] = None):
        self.what, self.hint = what, hint
        super().__init__(f"no spellbook file or shipped spellbook named '{what}'" + (f"; {hint}" if hint else ""))


def spellbooks_dir() -> Path:
    """The folder of shipped spellbooks (inside the package, so wheels carry it)."""
    return Path(__file__).resolve().parent.parent / "data" / "spellbooks"


def shipped_books() -> dict[str, Path]:
    """Shipped spellbooks by name (the file name without its suffix)."""
    root = spellbooks_dir()
    if not root.is_dir():
        return {}
    return {p.stem: p for p in sorted(root.iterdir(), key=lambda p: p.stem) if p.suffix in SUFFIXES}


def find_book(path_or_name: Union[str, Path]) -> Path:
    p = Path(path_or_name)
    if p.is_file():
        return p
    if p.exists() and not p.is_dir():  # (never opened: a pipe would wait for a writer, a device never ends)
        raise SpellbookNotFound(str(path_or_name), "that is not a regular file (a device, pipe or socket): refused")
    books = shipped_books()
    key = str(path_or_name).strip().lower()
    for name, path in books.items():
        if name.lower() == key:
            return path
    from ..dsl.diagnostics import did_you_mean
    hint = did_you_mean(key, list(books)) or ("shipped books: " + ", ".join(books) if books else None)
    raise SpellbookNotFound(str(path_or_name), hint)


def load_spellbook(path_or_name: Union[str, Path], corpus: "Optional[Corpus]" = None,
                   ids: Optional[dict[str, str]] = None) -> "Spellbook":
    """A spellbook from a file (`.o8d` read as OCTGN, anything else as the text format) or from the
    shipped books by name.  Problems reading it are kept on the book; `validate` reports them with
    the rule checks.  `ids` (OCTGN GUID -> name) fills in `.o8d` cards whose name is missing.
    Raises SpellbookNotFound if there is no such file or shipped book."""
    from .reader import read_file
    if corpus is None:
        from ..dsl import load_corpus
        corpus = load_corpus()
    return read_file(find_book(path_or_name), corpus, ids=ids)


def validate(book: "Spellbook") -> "list[Diagnostic]":
    """Every problem of a spellbook as located diagnostics (see rules.validate)."""
    from .rules import validate as run
    return run(book)


def is_legal(book: "Spellbook") -> bool:
    return not any(d.severity == "error" for d in validate(book))
