"""The rulings index: every checkable ruling of the 2016 supplement, the scenario (or test) behind
it, and its status.

The list of rulings is the reference folder's `reference/supplement-rulings.tsv` (id, section,
gist, category, kind), read at run time and never copied into the project.  A scenario names the
rulings it checks by their ids in its `cite:` field (`R.move.traps-step6; Rules > Move Action`); a
Python test names them in its docstring.  A scenario marked `xfail: REASON` is a
ruling written down but not yet reached by the engine.

Status of a ruling (the worst of its scenarios wins; a passing scenario beats a pytest mention):
  pass      a scenario citing it runs and every expectation holds
  fail      a scenario citing it fails or stops with an error (`magewars rulings` runs them)
  xfail     only scenarios marked xfail cite it: written, the engine cannot reach it yet (reason)
  xpass     a scenario marked xfail passes: its mark is stale
  pytest    only a Python test names it (the test suite runs it)
  missing   nothing cites it

`magewars rulings` prints the table (`--json` too); `python -m magewars.rulings --write
docs/rulings.md` writes the judge's index.  The document is made without running the scenarios:
an unmarked scenario counts as passing there because the test suite runs every scenario and fails
on any that does not pass.
"""
from __future__ import annotations

import ast
import csv
import json
import re
import sys
from dataclasses import asdict, field
from pathlib import Path
from typing import Iterable, Optional

from .dsl.frozen import light_dataclass  # @dataclass, made without compiling source text

#: a ruling id: R./C./S./A. then dotted lower-case words (as in supplement-rulings.tsv)
RULING_ID = re.compile(r"(?<![\w.])([RCSA]\.[a-z0-9][a-z0-9'-]*(?:\.[a-z0-9][a-z0-9'-]*)*)(?![\w'-])")
SECTIONS = {"R": "Rules", "C": "Codex", "A": "Abilities", "S": "Spells"}
STATUS_ORDER = ("fail", "xpass", "pass", "xfail", "pytest", "missing")
MAX_TSV_BYTES = 2_000_000


class RulingsError(Exception):
    """A located problem with the rulings list: `path:line:col: CODE message`."""


@light_dataclass(frozen=True)
class Ruling:
    id: str
    section: str   # e.g. "Rules>Attack Actions"
    category: str
    kind: str      # example | ruling
    gist: str = ""  # read from the reference folder at run time; never written into the docs

    @property
    def part(self) -> str:
        return SECTIONS.get(self.id[0], "Other")


@light_dataclass
class Evidence:
    ruling: str
    where: str             # scenario file (relative) or tests/…py::test_name
    kind: str              # scenario | pytest
    status: str            # pass | fail | xfail | xpass | pytest | not run
    reason: str = ""       # xfail reason, or the first failed expectation


@light_dataclass
class Row:
    ruling: Ruling
    status: str
    evidence: list = field(default_factory=list)

    def to_json(self) -> dict:
        d = {"id": self.ruling.id, "section": self.ruling.section, "part": self.ruling.part,
             "category": self.ruling.category, "kind": self.ruling.kind, "status": self.status,
             "evidence": [asdict(e) for e in self.evidence]}
        if self.ruling.gist:
            d["gist"] = self.ruling.gist
        return d


def load_rulings(shared: Path, with_gist: bool = True) -> list[Ruling]:
    path = shared / "reference" / "supplement-rulings.tsv"
    from .limits import LimitError, read_bounded
    try:  # (a device, pipe or socket is refused before it is read)
        text = read_bounded(path, MAX_TSV_BYTES)
    except (LimitError, OSError, UnicodeDecodeError) as e:
        raise RulingsError(f"{path}:1:1: R001 cannot read the rulings list: {getattr(e, 'strerror', None) or e}")
    rows = list(csv.reader(text.splitlines(), delimiter="\t"))
    if not rows or rows[0][:2] != ["id", "section"]:
        raise RulingsError(f"{path}:1:1: R002 expected a header line starting 'id<TAB>section'")
    out, seen = [], set()
    for n, r in enumerate(rows[1:], start=2):
        if not r or not r[0].strip():
            continue
        if len(r) < 5 or not RULING_ID.fullmatch(r[0].strip()):
            raise RulingsError(f"{path}:{n}:1: R002 expected id, section, gist, category, kind "
                               f"(tab-separated) with an id like R.topic.name")
        rid = r[0].strip()
        if rid in seen:
            raise RulingsError(f"{path}:{n}:1: R003 ruling {rid} is listed twice")
        seen.add(rid)
        out.append(Ruling(rid, r[1].strip(), r[3].strip(), r[4].strip(), r[2].strip() if with_gist else ""))
    return out


def _yaml_field(text: str, key: str) -> str:
    """One top-level scalar of a scenario file, without a YAML parser (cheap for the index)."""
    m = re.search(rf"^{key}:[ \t]*(.*)$", text, re.M)
    if not m:
        return ""
    v = m.group(1).strip()
    if v in (">", "|", ">-", "|-"):
        rest = text[m.end():].splitlines()[1:]
        lines = []
        for line in rest:
            if line.startswith((" ", "\t")) or not line.strip():
                lines.append(line.strip())
            else:
                break
        return " ".join(x for x in lines if x)
    return v.strip("\"'")


def scenario_files(folder: Path) -> list[Path]:
    """The scenario files under `folder`, each folder walked once, at most MAX_FILES_PER_WALK of them; a
    device, pipe or broken link named *.yaml (never opened), a folder that cannot be listed or a walk cut
    short is an R004 error.  A folder reached again through a link (a symlink loop) loses nothing (its
    files were taken at the first visit), as lint and the scenario runner read it."""
    from .limits import losing, walk_sources
    files, problems = walk_sources(folder, ".yaml")
    lost = losing(problems)
    if lost:  # (the index would be missing what that file holds)
        raise RulingsError(f"{folder}:1:1: R004 the scenario folder cannot be indexed whole: {lost[0]}")
    return files


def scenario_evidence(folder: Path, run: bool, cards_roots: tuple = ()) -> list[Evidence]:
    from .limits import MAX_SCENARIO_BYTES, LimitError, read_bounded
    out = []
    for p in scenario_files(folder):
        try:
            text = read_bounded(p, MAX_SCENARIO_BYTES)
        except (LimitError, OSError, UnicodeDecodeError) as e:
            raise RulingsError(f"{p}:1:1: R004 cannot read the scenario: {getattr(e, 'strerror', None) or e}")
        ids = sorted(set(RULING_ID.findall(_yaml_field(text, "cite"))))
        if not ids:
            continue
        xfail = _yaml_field(text, "xfail")
        rel = p.relative_to(folder).as_posix()
        if run:
            status, reason = _run(p, cards_roots)
        else:  # the test suite runs every scenario: an unmarked one passes on every green commit
            status, reason = ("xfail", xfail) if xfail else ("pass", "")
        for rid in ids:
            out.append(Evidence(rid, rel, "scenario", status, reason))
    return out


def _run(path: Path, cards_roots: tuple) -> tuple[str, str]:
    from .scenario import ScenarioError, run_scenario
    try:
        result = run_scenario(str(path), cards_roots)
    except ScenarioError as e:
        return "fail", e.diags[0].format() if e.diags else "the scenario cannot be loaded"
    except Exception as e:  # a scenario that crashes the engine is a failing ruling, not a crash here
        return "fail", f"internal error: {type(e).__name__}: {e}"
    st = result.status
    if st == "error":
        st = "fail"
    reason = result.scenario.xfail if st == "xfail" else (
        result.error.format() if result.error else result.failed[0].format() if result.failed else "")
    return st, reason


def pytest_evidence(tests: Path) -> list[Evidence]:
    """Rulings named in the docstring of a Python test function."""
    out = []
    for p in sorted(tests.rglob("test_*.py")):
        try:
            src = p.read_text(encoding="utf-8")
            tree = ast.parse(src)
        except (OSError, SyntaxError, UnicodeDecodeError):
            continue
        rel = p.relative_to(tests.parent).as_posix()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                doc = ast.get_docstring(node) or ""
                for rid in sorted(set(RULING_ID.findall(doc))):
                    out.append(Evidence(rid, f"{rel}::{node.name}", "pytest", "pytest"))
    return out


def build_index(rulings: list[Ruling], evidence: Iterable[Evidence]) -> tuple[list[Row], list[Evidence]]:
    """Rows in the list's order, and the evidence citing ids the list does not have."""
    by_id: dict[str, list[Evidence]] = {}
    for e in evidence:
        by_id.setdefault(e.ruling, []).append(e)
    known = {r.id for r in rulings}
    # a scenario's cite is meant as a citation; in Python source an id-like word may be code
    unknown = [e for rid, es in sorted(by_id.items()) if rid not in known for e in es if e.kind == "scenario"]
    rows = []
    for r in rulings:
        ev = by_id.get(r.id, [])
        rows.append(Row(r, _status(ev), ev))
    return rows, unknown


def _status(ev: list[Evidence]) -> str:
    st = {e.status for e in ev}
    for s in ("fail", "xpass"):
        if s in st:
            return s
    if "pass" in st:
        return "pass"
    if "xfail" in st:
        return "xfail"
    if "pytest" in st:
        return "pytest"
    return "missing"


def summary(rows: list[Row]) -> list[dict]:
    """Per part of the supplement: rulings, written, passing (scenario or test), xfail, missing."""
    out = []
    for part in ("Rules", "Codex", "Abilities", "Spells"):
        rs = [r for r in rows if r.ruling.part == part]
        count = {s: sum(1 for r in rs if r.status == s) for s in STATUS_ORDER}
        out.append({"part": part, "rulings": len(rs), "written": len(rs) - count["missing"],
                    "passing": count["pass"] + count["pytest"], **count})
    return out


# ---------------------------------------------------------------- output
def render_text(rows: list[Row], unknown: list[Evidence], width: Optional[int] = None) -> str:
    from rich.console import Console
    from rich.table import Table
    import io
    buf = io.StringIO()
    con = Console(file=buf, width=width or 120, highlight=False, soft_wrap=False)
    t = Table(title="Supplement rulings", show_lines=False)
    for col in ("ruling", "section", "status", "scenario or test"):
        t.add_column(col, overflow="fold")
    for r in rows:
        where = "; ".join(e.where for e in r.evidence) or "-"
        why = next((e.reason for e in r.evidence if e.reason and e.status == r.status), "")
        t.add_row(r.ruling.id, r.ruling.section, r.status + (f" ({why})" if why else ""), where)
    con.print(t)
    s = Table(title="By part of the supplement")
    for col in ("part", "rulings", "written", "passing", "xfail", "fail", "missing"):
        s.add_column(col, justify="right" if col != "part" else "left")
    tot = {k: 0 for k in ("rulings", "written", "passing", "xfail", "fail", "missing")}
    for row in summary(rows):
        s.add_row(row["part"], *(str(row[k] + (row["xpass"] if k == "fail" else 0)) for k in tot))
        for k in tot:
            tot[k] += row[k] + (row["xpass"] if k == "fail" else 0)
    s.add_row("total", *(str(v) for v in tot.values()))
    con.print(s)
    if unknown:
        con.print(f"{len(unknown)} citation(s) of ids the rulings list does not have: "
                  + "; ".join(f"{e.ruling} ({e.where})" for e in unknown[:20]))
    return buf.getvalue()


def render_markdown(rows: list[Row]) -> str:
    lines = ["# Rulings of the 2016 supplement, and the scenarios behind them", "",
             "<!-- generated by `python -m magewars.rulings --write docs/rulings.md`; do not edit -->", "",
             "Each checkable ruling of the *Rules & Codex Supplement* (2016) has an id in the reference",
             "folder's `reference/supplement-rulings.tsv`. A scenario under `tests/scenarios/` checks a ruling",
             "when its `cite:` names the id; a Python test, when its docstring names it. `magewars rulings` prints",
             "this table with the ruling's gist (read from the reference folder, not stored here) and runs",
             "the scenarios to give their live status (`--json` too).", "",
             "Status: **pass** (a scenario passes; the test suite runs every scenario, so an unmarked one",
             "passes on any commit CI accepts), **pytest** (a Python test checks it), **xfail** (written,",
             "marked as failing with the reason: the procedure the engine lacks), **missing** (not written).",
             "", "## Summary", "",
             "| part | rulings | written | passing | xfail | missing |", "|---|---:|---:|---:|---:|---:|"]
    tot = [0] * 5
    for row in summary(rows):
        vals = [row["rulings"], row["written"], row["passing"], row["xfail"], row["missing"]]
        tot = [a + b for a, b in zip(tot, vals)]
        lines.append(f"| {row['part']} | " + " | ".join(str(v) for v in vals) + " |")
    lines.append("| **total** | " + " | ".join(f"**{v}**" for v in tot) + " |")
    for part in ("Rules", "Codex", "Abilities", "Spells"):
        rs = [r for r in rows if r.ruling.part == part]
        lines += ["", f"## {part}", "", "| ruling | section | status | checked by |", "|---|---|---|---|"]
        for r in rs:
            where = "<br>".join(f"`{e.where}`" for e in r.evidence) or ""
            why = next((e.reason for e in r.evidence if e.status == "xfail" and e.reason), "")
            st = r.status + (f": {why}" if r.status == "xfail" and why else "")
            lines.append(f"| `{r.ruling.id}` | {r.ruling.section.replace('|', '/')} | {st.replace('|', '/')} | {where} |")
    return "\n".join(lines) + "\n"


def default_dirs() -> tuple[Optional[Path], Optional[Path]]:
    """tests/scenarios and tests/ of a source checkout, when the package runs from one."""
    tests = Path(__file__).resolve().parents[1] / "tests"
    if not tests.is_dir():
        return None, None
    scen = tests / "scenarios"
    return (scen if scen.is_dir() else None), tests


def collect(shared: Path, scenarios: Optional[Path], tests: Optional[Path], run: bool,
            with_gist: bool = True) -> tuple[list[Row], list[Evidence]]:
    rulings = load_rulings(shared, with_gist)
    ev: list[Evidence] = []
    if scenarios is not None:
        roots = (tests / "engine" / "cards",) if tests is not None and (tests / "engine" / "cards").is_dir() else ()
        ev += scenario_evidence(scenarios, run, roots)
    if tests is not None:
        ev += pytest_evidence(tests)
    return build_index(rulings, ev)


def main(argv: Optional[list[str]] = None) -> int:
    import argparse
    from .compare import find_shared
    ap = argparse.ArgumentParser(prog="python -m magewars.rulings")
    ap.add_argument("--write", type=Path, help="write the markdown index to this file")
    ap.add_argument("--shared", type=Path)
    a = ap.parse_args(argv)
    shared = find_shared(a.shared)
    if shared is None:
        print("the reference folder (../shared) was not found: set MAGEWARS_SHARED", file=sys.stderr)
        return 2
    scen, tests = default_dirs()
    rows, _ = collect(shared, scen, tests, run=False, with_gist=False)
    text = render_markdown(rows)
    if a.write:
        a.write.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


# ---------------------------------------------------------------- `magewars rulings`
import click  # noqa: E402


@click.command("rulings")
@click.argument("query", required=False)
@click.option("--part", type=click.Choice(["Rules", "Codex", "Abilities", "Spells"], case_sensitive=False),
              help="only this part of the supplement")
@click.option("--status", "only_status", type=click.Choice(list(STATUS_ORDER)), help="only rulings with this status")
@click.option("--no-run", is_flag=True, help="do not run the scenarios (an unmarked one counts as passing)")
@click.option("--json", "as_json", is_flag=True, help="machine-readable output")
@click.option("--shared", type=click.Path(file_okay=False, exists=True, path_type=Path),
              help="the reference folder (default: $MAGEWARS_SHARED or ../shared)")
@click.option("--scenarios", "scen_dir", type=click.Path(file_okay=False, exists=True, path_type=Path),
              help="scenario folder (default: tests/scenarios of a source checkout)")
def rulings_cmd(query, part, only_status, no_run, as_json, shared, scen_dir):
    """The supplement's rulings, the scenario or test behind each, and its status.

    QUERY keeps the rulings whose id or section contains it (case-insensitive): `magewars rulings
    teleport`, `magewars rulings C.daze`."""
    from .compare import find_shared
    ref = find_shared(shared)
    if ref is None or not (ref / "reference" / "supplement-rulings.tsv").is_file():
        raise click.ClickException("the supplement's rulings list (reference/supplement-rulings.tsv of the "
                                   "reference folder) was not found: pass --shared or set MAGEWARS_SHARED")
    default_scen, tests = default_dirs()
    scen = scen_dir or default_scen
    try:
        rows, unknown = collect(ref, scen, tests, run=not no_run)
    except RulingsError as e:
        raise click.ClickException(str(e))
    if part:
        rows = [r for r in rows if r.ruling.part.lower() == part.lower()]
    if only_status:
        rows = [r for r in rows if r.status == only_status]
    if query:
        q = query.lower()
        rows = [r for r in rows if q in r.ruling.id.lower() or q in r.ruling.section.lower()]
    if as_json:
        click.echo(json.dumps({"summary": summary(rows), "rulings": [r.to_json() for r in rows],
                               "unknown_citations": [asdict(e) for e in unknown],
                               "scenarios_run": not no_run}, indent=2))
    else:
        click.echo(render_text(rows, unknown), nl=False)
        if scen is None:
            click.echo("no scenario folder found (a source checkout has tests/scenarios; or pass --scenarios)")
