"""The compiled corpus: every card and codex definition by name, and the compiled phrases.

Kept apart from :mod:`magewars.dsl.model` (which re-exports it) so that a command answered from
the cache (`magewars lint FILE`: the diagnostics and the number of definitions) holds a corpus
without importing the definitions' classes; they are imported when a definition is decoded.
"""
from __future__ import annotations

from dataclasses import field

from .frozen import light_dataclass  # @dataclass, made without compiling source text


@light_dataclass
class Corpus:
    """Every compiled definition, by name."""
    # (the classes of the definitions are named, not imported: magewars/dsl/model.py imports this module)
    cards: dict[str, "model.CardDefinition"] = field(default_factory=dict)  # noqa: F821
    codex: dict[str, "model.CodexDefinition"] = field(default_factory=dict)  # noqa: F821
    # Every phrase the checker compiled, keyed by the phrase node (magewars/dsl/selectors.py).
    selectors: dict = field(default_factory=dict, repr=False)

    def card(self, name: str) -> "model.CardDefinition":  # noqa: F821
        return self.cards[name]
