"""Where the shipped language files live.

In a wheel, `grammar/`, `codex/` and `spells/` are carried inside the package
as `magewars/_data/<name>`; in a source checkout they sit at the top level of
the repository.  Both layouts resolve through :func:`data_dir`.
"""
from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    installed = _PKG / "_data" / name
    if installed.is_dir():
        return installed
    checkout = _PKG.parent / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"magewars data folder '{name}' is missing from this installation")


def grammar_path() -> Path:
    return data_dir("grammar") / "magewars.lark"


def shipped_sources() -> list[Path]:
    """Every shipped `.mw` file: the codex first, then the spells."""
    out: list[Path] = []
    for name in ("codex", "spells"):
        try:
            root = data_dir(name)
        except FileNotFoundError:
            continue
        out.extend(sorted(root.rglob("*.mw")))
    return out


def parse_table_path() -> Path:
    """The LALR tables of the grammar, computed ahead of time (see magewars/dsl/parsetable.py)."""
    return _PKG / "data" / "parse_table.mwc"


def prebuilt_corpus_path() -> Path:
    """The compiled corpus a wheel ships (magewars/prebuilt.py; absent in a source checkout)."""
    return _PKG / "_data" / "corpus.mwc"
