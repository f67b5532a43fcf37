"""Generate the reference tables of docs/dsl.md from the one vocabulary.

The effect, value, event and timing tables come from :mod:`magewars.dsl.vocab`, the steps and
durations from its `STEPS` and `DURATIONS` (the attack, casting and move sequences in order, from
its `ATTACK_STEPS`, `CAST_STEPS` and `MOVE_STEPS`, each step with its `STEP_TITLES` title), and the
lint-code table from :data:`magewars.dsl.diagnostics.CODES`.  Each table sits between a pair of markers::

    <!-- BEGIN GENERATED: effects (python -m magewars.docs) -->
    ...
    <!-- END GENERATED: effects -->

Everything outside the markers is prose and is left as written.

    python -m magewars.docs            rewrite docs/dsl.md in place
    python -m magewars.docs --check    exit 1 (and say which tables) when docs/dsl.md is stale
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Callable, Optional

from .dsl import vocab
from .dsl.diagnostics import CODES

DEFAULT_PATH = Path(__file__).resolve().parent.parent / "docs" / "dsl.md"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _signature_table(funcs: dict[str, vocab.Signature], head: str) -> str:
    rows = [f"| {head} | meaning |", "|---|---|"]
    for name in sorted(funcs):
        sig = funcs[name]
        rows.append(f"| `{_cell(sig.render())}` | {_cell(sig.doc)} |")
    return "\n".join(rows)


def effects_table() -> str:
    return _signature_table(vocab.EFFECT_FUNCS, "effect")


def values_table() -> str:
    return _signature_table(vocab.VALUE_FUNCS, "value")


def events_table() -> str:
    return _signature_table(vocab.EVENT_FUNCS, "event")


def timings_table() -> str:
    return _signature_table(vocab.TIMING_FUNCS, "timing")


def steps_table() -> str:
    def seq(names) -> str:  # each step by its name, and its title in the rulebook
        return ", ".join(f"`{s}` ({vocab.STEP_TITLES[s]})" for s in names)
    sequences = [*vocab.ATTACK_STEPS, *vocab.CAST_STEPS, *vocab.MOVE_STEPS]
    others = sorted(vocab.STEPS - set(sequences))
    return "\n".join([
        "| group | names |", "|---|---|",
        "| attack sequence, in order | " + seq(vocab.ATTACK_STEPS) + " |",
        "| casting sequence, in order | " + seq(vocab.CAST_STEPS) + " |",
        "| move sequence, in order | " + seq(vocab.MOVE_STEPS) + " |",
        "| other steps and phases | " + ", ".join(f"`{s}`" for s in others) + " |",
        "| durations (`until end of ...`) | " + ", ".join(f"`{d}`" for d in sorted(vocab.DURATIONS)) + " |",
    ])


def codes_table() -> str:
    rows = ["| code | meaning |", "|---|---|"]
    rows += [f"| {code} | {_cell(text)} |" for code, text in sorted(CODES.items())]
    return "\n".join(rows)


TABLES: dict[str, Callable[[], str]] = {
    "effects": effects_table,
    "values": values_table,
    "events": events_table,
    "timings": timings_table,
    "steps": steps_table,
    "codes": codes_table,
}

_BLOCK = re.compile(r"(<!-- BEGIN GENERATED: (\w+)[^>]*-->\n)(.*?)(<!-- END GENERATED: \2 -->)", re.S)


def render(text: str) -> tuple[str, list[str]]:
    """The document with every generated block refreshed, and the names of the blocks found."""
    found: list[str] = []

    def sub(m: re.Match) -> str:
        name = m.group(2)
        if name not in TABLES:
            raise ValueError(f"docs: unknown generated block '{name}' (known: {', '.join(TABLES)})")
        found.append(name)
        return m.group(1) + TABLES[name]() + "\n" + m.group(4)

    return _BLOCK.sub(sub, text), found


def stale_blocks(path: Path = DEFAULT_PATH) -> list[str]:
    """Names of the generated blocks whose text differs from a fresh generation (or are missing)."""
    text = path.read_text(encoding="utf-8")
    new, found = render(text)
    missing = [n for n in TABLES if n not in found]
    if new == text:
        return missing
    old_blocks = {m.group(2): m.group(3) for m in _BLOCK.finditer(text)}
    new_blocks = {m.group(2): m.group(3) for m in _BLOCK.finditer(new)}
    return missing + [n for n in found if old_blocks.get(n) != new_blocks.get(n)]


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m magewars.docs", description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="report stale tables instead of rewriting")
    ap.add_argument("path", nargs="?", type=Path, default=DEFAULT_PATH)
    args = ap.parse_args(argv)
    try:
        text = args.path.read_text(encoding="utf-8")
    except OSError as exc:
        print(f"{args.path}: cannot read: {exc}", file=sys.stderr)
        return 2
    try:
        new, found = render(text)
    except ValueError as exc:
        print(f"{args.path}: {exc}", file=sys.stderr)
        return 2
    missing = [n for n in TABLES if n not in found]
    if args.check:
        stale = stale_blocks(args.path)
        for n in stale:
            print(f"{args.path}: generated table '{n}' is " + ("missing" if n in missing else "stale")
                  + "; run: python -m magewars.docs", file=sys.stderr)
        return 1 if stale else 0
    if new != text:
        args.path.write_text(new, encoding="utf-8")
    for n in missing:
        print(f"{args.path}: no markers for the '{n}' table", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
