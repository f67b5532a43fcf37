"""`magewars simulate scenario` over many files and folders: each scenario's log, then a summary."""
from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Iterable

SUFFIXES = (".yaml", ".yml")


def expand(paths: Iterable[Path]) -> list[Path]:
    """Scenario files named, or inside the given folders (sorted).  A path that does not exist
    is kept: the scenario runner reports it as a located error; so is anything in a folder named like
    a scenario that is not a regular file (a pipe, a device, a broken link), which is never opened."""
    files = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            files.extend(sorted(f for f in p.rglob("*") if f.suffix in SUFFIXES and not f.is_dir()))
        else:
            files.append(p)
    return files


def run_many(paths: Iterable[Path], as_json: bool, echo, **options) -> int:
    """Run every scenario; print each one's output (or one JSON document) and a summary.
    The exit status is the worst of the scenarios' (0 ok, 1 expectations failed, 2 errors).
    `options` go to each run (cards_roots, viewer, seed)."""
    from .scenario import run_cli

    paths = list(paths)
    files = expand(paths)
    results = []
    for f in files:
        buf = io.StringIO()
        code = run_cli(str(f), as_json, out=buf, **options)
        results.append({"path": str(f), "exit": code, "output": buf.getvalue()})
    worst = max((r["exit"] for r in results), default=2)
    if not results:
        worst = 2
    status = {0: "ok", 1: "failed", 2: "error"}
    if as_json and len(results) == 1 and len(paths) == 1 and not Path(paths[0]).is_dir():
        echo(results[0]["output"].rstrip("\n"))  # one scenario file: its own document, as before
        return worst
    if as_json:
        docs = []
        for r in results:
            try:
                doc = json.loads(r["output"])
            except ValueError:
                doc = {"ok": False, "errors": [{"path": r["path"], "line": 1, "column": 1, "code": "S099",
                                                "message": r["output"].strip()}]}
            docs.append({"path": r["path"], "exit": r["exit"], "result": doc})
        summary = {s: sum(r["exit"] == c for r in results) for c, s in status.items()}
        echo(json.dumps({"scenarios": docs, "summary": summary}, indent=2, default=str))
        return worst
    if len(results) == 1:
        echo(results[0]["output"].rstrip("\n"))
        return worst
    from .console import echo_table, make_table
    for r in results:
        echo(f"== {r['path']}")
        echo(r["output"].rstrip("\n"))
        echo("")
    table = make_table("scenario", "result", title=f"{len(results)} scenarios")
    for r in results:
        table.add_row(r["path"], status.get(r["exit"], str(r["exit"])))
    echo_table(table)
    return worst
