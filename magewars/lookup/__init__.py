"""Rules lookup: the data behind `magewars lookup` and `magewars rules`.

    from magewars.lookup import load_rules, render_text
    book = load_rules()
    res = book.lookup("aegis 2")          # res.kind == "fuzzy", res.entries[0].name == "Aegis X"
    print(render_text(res.entries[0]))
    print(render_rules("5.2"))            # one numbered section with its subsections

Content lives in magewars/data/rules/*.yaml (format: docs/rules.md).
"""
from __future__ import annotations

from functools import lru_cache

from .book import RulesBook
from .loader import RulesDataError, load_data
from .model import CATEGORIES, Entry, LookupResult, Note, Section
from .render import render_text, to_json

__all__ = [
    "CATEGORIES", "Entry", "LookupResult", "Note", "RulesBook", "RulesDataError", "Section",
    "complete", "load_rules", "lookup", "render_rules", "render_text", "to_json",
]


@lru_cache(maxsize=None)
def load_rules() -> RulesBook:
    """The packaged rules content (loaded once and cached)."""
    entries, sections = load_data()
    return RulesBook(entries, sections)


def lookup(query: str, extra_names: dict[str, str] | None = None) -> LookupResult:
    return load_rules().lookup(query, extra_names)


def render_rules(section: str | None = None) -> str:
    """The whole numbered rules document, or one section and its subsections (KeyError if unknown)."""
    return load_rules().render_rules(section)


def complete(prefix: str) -> list[str]:
    """Term names and aliases starting with prefix, for shell completion."""
    return load_rules().complete(prefix)
