"""Fuzzing harness shared by the CI fuzz tests (small budget) and scripts/fuzz.py (big budget).

Inputs are the shipped data, mutated: card definitions from spells/ and codex/,
scenarios from tests/scenarios/.  Each input runs through the real tools
(parse + check; the scenario runner) and gives a record: seconds taken, a
crash (any exception, or an S099 internal error) and every diagnostic that is
not located (`path:line:col` inside the input).
"""
from __future__ import annotations

import functools
import io
import random
import re
import time
import traceback
from pathlib import Path

from magewars.dsl.checker import Checker
from magewars.dsl.parser import _chunks, parse_file, parse_text
from magewars.resources import data_dir, shipped_sources

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
CARDS_ROOT = ROOT / "tests" / "engine" / "cards"
LOCATED = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>[A-Z]\d{3}) ", re.M)


# ---------------------------------------------------------------- card text
@functools.lru_cache(maxsize=1)
def codex_asts():
    return [parse_file(p)[0] for p in sorted(data_dir("codex").rglob("*.mw"))]


@functools.lru_cache(maxsize=1)
def card_chunks() -> list[str]:
    out = []
    for p in shipped_sources():
        out.extend(c for _, c in _chunks(p.read_text(encoding="utf-8")) if c.strip())
    return out


MAX_INPUT = 100_000  # characters: the size of the junk line that took over 90 s before the bounds

JUNK = ["[", "]", "{", "}", "(", ")", '"', "#", "\n", "-", "+", "*", "X", "0", "99999999999",
        "9" * 5000, "if", "then", "else", "attack", "creature", "trait", "=", ":", ",", "\\", "\t",
        "\u00e9", "\x00", "\ufeff", "life", "armor", "cost", "on", "when", "range", "1-", "12+"]


def mutate_card(rng: random.Random, text: str) -> str:
    """A few random edits: delete, duplicate, swap or insert spans, grammar tokens or junk."""
    for _ in range(rng.randint(1, 4)):
        n = len(text)
        a = rng.randint(0, n)
        b = min(n, a + rng.randint(0, 40))
        op = rng.random()
        if op < 0.2:
            text = text[:a] + text[b:]
        elif op < 0.35:
            text = text[:a] + text[a:b] * rng.randint(2, 50) + text[b:]
        elif op < 0.7:
            text = text[:a] + rng.choice(JUNK) * rng.choice([1, 1, 1, 2, 10, 300]) + text[a:]
        elif op < 0.8:
            text = text[:a] + rng.choice(card_chunks())[: rng.randint(0, 200)] + text[b:]
        elif op < 0.9:
            text = text[:a] + "".join(chr(rng.randint(1, 0x2FF)) for _ in range(rng.randint(1, 8))) + text[b:]
        else:
            text = text[:a]  # truncated
    return text[:MAX_INPUT]


def card_input(rng: random.Random) -> str:
    base = "".join(rng.choice(card_chunks()) for _ in range(rng.randint(1, 2)))
    return mutate_card(rng, base)


def unlocated(diags, path: str, text: str) -> list[str]:
    lines = text.count("\n") + 1
    bad = []
    for d in diags:
        s = d.span
        if s.path != path or s.line < 1 or s.col < 1 or s.line > lines + 1:
            bad.append(d.format(False))
    return bad


def run_card(text: str, with_codex: bool = True, path: str = "fuzz.mw") -> dict:
    """Parse and check one card text; never raises."""
    t = time.perf_counter()
    rec = {"kind": "card", "input": text, "crash": None, "unlocated": [], "diagnostics": 0}
    try:
        ast, diags = parse_text(text, path)
        if ast is not None:
            checker = Checker()
            checker.check((codex_asts() if with_codex else []) + [ast])
            diags = diags + [d for d in checker.diags if d.span.path == path]
        rec["diagnostics"] = len(diags)
        rec["unlocated"] = unlocated(diags, path, text)
    except Exception:  # a crash is the finding
        rec["crash"] = traceback.format_exc(limit=6)
    rec["seconds"] = time.perf_counter() - t
    return rec


# ---------------------------------------------------------------- scenarios
@functools.lru_cache(maxsize=1)
def scenario_texts() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(SCENARIOS.glob("*.yaml"))]


WEIRD_VALUES = ["-50", "-1", "0", "99999999999999999999", "1" * 5000, "x", "''", "[]", "{}", "[1, 2]",
                "{a: 1}", "true", "null", "~", "1.5", "-0.0", ".inf", "/etc/passwd", "../../etc/passwd",
                "'/'", "Z99", "'1*'", "'3*'", "!!binary aGk=", "&a [1]", "*a", "'" + "a" * 3000 + "'",
                "2016-12-01", "0x1F", "{rows: x}", "[[[[[[[[[[]]]]]]]]]]", "yes", "no"]


def mutate_scenario(rng: random.Random, text: str) -> str:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        if not lines:
            lines = ["objects: []"]
        i = rng.randrange(len(lines))
        op = rng.random()
        if op < 0.45:
            # replace a value after some `key:` on the line
            spots = [m.end() for m in re.finditer(r":\s", lines[i])]
            if spots:
                at = rng.choice(spots)
                rest = lines[i][at:]
                end = re.search(r"[,}\]]", rest)
                cut = end.start() if end and rng.random() < 0.8 else len(rest)
                lines[i] = lines[i][:at] + rng.choice(WEIRD_VALUES) + rest[cut:]
        elif op < 0.6:
            del lines[i]
        elif op < 0.7:
            lines.insert(i, lines[i])
        elif op < 0.8:
            ind = len(lines[i]) - len(lines[i].lstrip())
            lines.insert(i, " " * ind + rng.choice(["bogus: 1", "damage: -5", "count: 0", "cards: [/etc/passwd]",
                                                    "x: 4", "hidden: true", "- end_round", "seed: -1"]))
        elif op < 0.9:
            s = lines[i]
            a = rng.randint(0, len(s))
            lines[i] = s[:a] + rng.choice(["{", "}", "[", "]", ":", "- ", "&x ", "*x", "\t", "'", '"', "#"]) + s[a:]
        else:
            lines[i] = lines[i][: rng.randint(0, len(lines[i]))]
    return "\n".join(lines) + "\n"


def scenario_input(rng: random.Random) -> str:
    return mutate_scenario(rng, rng.choice(scenario_texts()))


def run_scenario_text(text: str, folder: Path, name: str = "fuzz.yaml") -> dict:
    """Run one scenario text through the CLI entry (text and JSON output); never raises."""
    from magewars.scenario import run_cli
    path = folder / name
    path.write_text(text, encoding="utf-8")
    rec = {"kind": "scenario", "input": text, "crash": None, "unlocated": [], "diagnostics": 0}
    t = time.perf_counter()
    try:
        out = io.StringIO()
        rc = run_cli(str(path), False, out=out, cards_roots=(CARDS_ROOT,))
        s = out.getvalue()
        if rc not in (0, 1, 2) or "S099" in s or "Traceback" in s:
            rec["crash"] = f"exit {rc}: " + "\n".join(x for x in s.splitlines() if "S099" in x or "Trace" in x)[:2000]
        if rc == 2:
            errs = [ln for ln in s.splitlines() if re.match(r"^\S.*:\d+:\d+: [A-Z]\d{3} ", ln)]
            rec["diagnostics"] = len(errs)
            lines = text.count("\n") + 1
            for ln in errs:
                m = LOCATED.match(ln)
                if m.group("path") == str(path) and not (1 <= int(m.group("line")) <= lines + 1):
                    rec["unlocated"].append(ln)
            if not errs and "RESULT:" not in s:
                rec["unlocated"].append("exit 2 without a located diagnostic: " + s[:300])
    except Exception:
        rec["crash"] = traceback.format_exc(limit=6)
    rec["seconds"] = time.perf_counter() - t
    return rec
