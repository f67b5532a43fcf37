"""Where a piece of source text stands: the one small type every located result carries.

Kept apart from :mod:`magewars.dsl.ast` (which re-exports it) so that what only needs a location
(the diagnostics, `magewars lint` answered from the cache) does not import the whole syntax tree.
"""
from __future__ import annotations

from .frozen import frozen_dataclass  # @dataclass(frozen=True), cheaper to create


@frozen_dataclass
class Span:
    path: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


NOSPAN = Span("<none>", 0, 0, 0, 0)
