"""`magewars book ...`: check, show, import and list spellbooks (registered in magewars/cli.py)."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import click

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def _load_ids(path: Optional[Path]) -> Optional[dict[str, str]]:
    """An OCTGN id table: {"ids": {GUID: {"name": ...}}} or {GUID: name}."""
    if path is None:
        return None
    from ..limits import MAX_ID_TABLE_BYTES, LimitError, read_bounded
    try:  # (a device, pipe or socket is refused before it is read)
        data = json.loads(read_bounded(path, MAX_ID_TABLE_BYTES))
    except (LimitError, OSError, ValueError) as exc:
        raise click.UsageError(f"{path}: cannot read the OCTGN id table: {exc}")
    table = data.get("ids", data) if isinstance(data, dict) else None
    if not isinstance(table, dict):
        raise click.UsageError(f"{path}: not an OCTGN id table")
    out = {}
    for gid, v in table.items():
        name = v.get("name") if isinstance(v, dict) else v
        if isinstance(name, str):
            out[str(gid)] = name
    return out


def _load(what: str, ids=None):
    from . import SpellbookNotFound, load_spellbook
    try:
        return load_spellbook(what, ids=ids)
    except SpellbookNotFound as exc:
        click.echo(f"magewars book: {exc}", err=True)
        sys.exit(EXIT_USAGE)


@click.group()
def book():
    """Spellbooks: check them against the building rules, show them, import OCTGN decks (docs/spellbooks.md)."""


@book.command("check")
@click.argument("files", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--ids", type=click.Path(dir_okay=False, path_type=Path),
              help="OCTGN id table (JSON, GUID -> name) replacing the packaged one for .o8d files.")
@click.option("--no-source", is_flag=True, help="Do not echo the source line and caret.")
def check(files, as_json, ids, no_source):
    """Check spellbook files (or shipped books by name). Exit 0 all legal, 1 any illegal, 2 usage error."""
    from ..dsl.diagnostics import attach_sources
    from . import validate
    table = _load_ids(ids)
    results, bad = [], False
    for f in files:
        b = _load(f, table)
        diags = validate(b)
        if b.text is not None:
            diags = attach_sources(diags, {b.path: b.text})
        errors = [d for d in diags if d.severity == "error"]
        bad = bad or bool(errors)
        results.append((b, diags, not errors))
    if as_json:
        out = [{"path": b.path, "mage": b.mage.name if b.mage else None, "legal": ok,
                "diagnostics": [d.to_json() for d in diags]} for b, diags, ok in results]
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        for b, diags, ok in results:
            for d in diags:
                click.echo(d.format(with_source=not no_source))
            n_err = sum(d.severity == "error" for d in diags)
            click.echo(f"{b.path}: {'legal' if ok else 'illegal'} "
                       f"({n_err} error(s), {len(diags) - n_err} warning(s))")
    sys.exit(EXIT_INVALID if bad else EXIT_OK)


@book.command("show")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--ids", type=click.Path(dir_okay=False, path_type=Path),
              help="OCTGN id table (JSON, GUID -> name) replacing the packaged one for .o8d files.")
def show(file, as_json, ids):
    """Show a spellbook: points per school, level curve, card types, every spell with its cost."""
    from .report import render_show, summary
    b = _load(file, _load_ids(ids))
    if as_json:
        click.echo(json.dumps(summary(b), indent=2, ensure_ascii=False))
    else:
        click.echo(render_show(b))


@book.command("import")
@click.argument("file")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the text format here (default: standard output).")
@click.option("--ids", type=click.Path(dir_okay=False, path_type=Path),
              help="OCTGN id table (JSON, GUID -> name) replacing the packaged one.")
def import_(file, output, ids):
    """Convert a spellbook (an OCTGN .o8d deck) to the plain text format; reading problems go to stderr."""
    from .report import to_text
    b = _load(file, _load_ids(ids))
    for d in b.problems:
        click.echo(d.format(with_source=False), err=True)
    text = to_text(b, title=f"imported from {Path(b.path).name}")
    if output is None:
        click.echo(text, nl=False)
    else:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            click.echo(f"magewars book: cannot write {output}: {exc.strerror or exc}", err=True)
            sys.exit(EXIT_USAGE)
    errors = [d for d in b.problems if d.severity == "error"]
    sys.exit(EXIT_INVALID if errors else EXIT_OK)


@book.command("list")
def list_():
    """The shipped spellbooks, by the name `book show NAME` takes."""
    from . import load_spellbook, shipped_books
    for name, path in shipped_books().items():
        b = load_spellbook(path)
        click.echo(f"{name:24} {b.mage.name if b.mage else '?'}")
