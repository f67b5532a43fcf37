#!/usr/bin/env python3
"""Big-budget fuzzing: mutated card texts, mutated scenarios, random hidden-information games.

    python scripts/fuzz.py --cards 100000 --scenarios 10000 --games 2000 --jobs 2 --out fuzz-report

Writes <out>.json (every figure, every crash and unlocated diagnostic with its
input) and <out>.md (a summary: inputs, crashes, inputs over 1 s, the slowest
input).  Exit 1 if anything crashed, took over the time bound, was unlocated or
leaked a hidden card.  The same harness runs on a small budget in tests/fuzz/.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SLOW = 1.0  # seconds: the bound every single input must stay under


def _cards(args) -> list[dict]:
    seed, n, codex_every = args
    from tests.fuzz.harness import card_input, run_card
    rng = random.Random(seed)
    out = []
    for i in range(n):
        text = card_input(rng)
        rec = run_card(text, with_codex=(i % codex_every == 0))
        out.append(_slim(rec))
    return out


def _scenarios(args) -> list[dict]:
    seed, n = args
    from tests.fuzz.harness import run_scenario_text, scenario_input
    rng = random.Random(seed)
    out = []
    with tempfile.TemporaryDirectory() as d:
        for _ in range(n):
            out.append(_slim(run_scenario_text(scenario_input(rng), Path(d))))
    return out


def _games(args) -> list[dict]:
    seed, n = args
    from tests.fuzz.games import leaks, play
    out = []
    for s in range(seed, seed + n):
        t = time.perf_counter()
        rec = {"kind": "game", "input": f"seed {s}", "crash": None, "unlocated": [], "leaks": []}
        try:
            rec["leaks"] = [list(x) for x in leaks(play(s))]
        except Exception as e:  # noqa: BLE001 - a crash is the finding
            rec["crash"] = f"{type(e).__name__}: {e}"
        rec["seconds"] = time.perf_counter() - t
        out.append(rec)
    return out


def _warm() -> None:
    """Load what every input shares (the compiled corpus and codex) before any input is timed."""
    from magewars.scenario.runner import base_corpus
    from tests.fuzz.harness import card_chunks, codex_asts, run_card, run_scenario_text, scenario_texts
    base_corpus()
    codex_asts()
    card_chunks()
    run_card(card_chunks()[0])
    with tempfile.TemporaryDirectory() as d:
        for text in scenario_texts():  # compiles each scenario's own card files once
            run_scenario_text(text, Path(d))


def _slim(rec: dict) -> dict:
    """Keep the input only when it matters (a finding, or possibly the slowest)."""
    keep = rec["crash"] or rec["unlocated"] or rec["seconds"] > 0.2
    if not keep:
        rec = {**rec, "input": None}
    return rec


def _run_task(task):
    fn, args = task
    return fn(args)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cards", type=int, default=1000)
    ap.add_argument("--scenarios", type=int, default=200)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--codex-every", type=int, default=1,
                    help="check every Nth card input together with the whole codex (the rest alone)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="fuzz-report")
    ap.add_argument("--minutes", type=float, default=0,
                    help="stop after this many minutes and report what finished (0: no limit)")
    a = ap.parse_args(argv)
    chunk = 100  # inputs per task: small, so a deadline loses little work
    started = time.time()
    tasks = []
    for i in range(0, a.cards, chunk):
        tasks.append((_cards, (a.seed * 10**6 + i, min(chunk, a.cards - i), max(1, a.codex_every))))
    for i in range(0, a.scenarios, chunk):
        tasks.append((_scenarios, (a.seed * 10**6 + 500_000 + i, min(chunk, a.scenarios - i))))
    for i in range(0, a.games, chunk):
        tasks.append((_games, (a.seed * 10**7 + i, min(chunk, a.games - i))))
    random.Random(a.seed).shuffle(tasks)  # every kind progresses together
    recs: list[dict] = []
    stopped = False
    with mp.Pool(max(1, a.jobs), initializer=_warm) as pool:
        for res in pool.imap_unordered(_run_task, tasks):
            recs.extend(res)
            if a.minutes and time.time() - started > 60 * a.minutes:
                stopped = True
                pool.terminate()
                break
    wall = time.time() - started
    summary = {}
    for kind in ("card", "scenario", "game"):
        rs = [r for r in recs if r["kind"] == kind]
        if not rs:
            continue
        slowest = max(rs, key=lambda r: r["seconds"])
        summary[kind] = {
            "inputs": len(rs),
            "crashes": sum(1 for r in rs if r["crash"]),
            "over_1s": sum(1 for r in rs if r["seconds"] > SLOW),
            "unlocated": sum(len(r["unlocated"]) for r in rs),
            "diagnostics": sum(r.get("diagnostics", 0) for r in rs),
            "leaks": sum(len(r.get("leaks", [])) for r in rs),
            "mean_ms": round(1000 * sum(r["seconds"] for r in rs) / len(rs), 2),
            "slowest_s": round(slowest["seconds"], 3),
            "slowest_input": (slowest["input"] or "")[:500],
        }
    findings = [r for r in recs if r["crash"] or r["unlocated"] or r.get("leaks") or r["seconds"] > SLOW]
    report = {"args": vars(a), "wall_seconds": round(wall, 1), "stopped_at_deadline": stopped, "summary": summary, "findings": findings[:200]}
    Path(a.out + ".json").write_text(json.dumps(report, indent=1, default=str), encoding="utf-8")
    md = [f"# Fuzz report\n\n`{' '.join(sys.argv)}` — {wall:.0f} s wall, {a.jobs} job(s)"
          + (" (stopped at the --minutes deadline: counts are what finished)" if stopped else "") + "\n",
          "| input | count | crashes | over 1 s | unlocated | diagnostics | leaks | mean ms | slowest s |",
          "|---|---|---|---|---|---|---|---|---|"]
    for k, s in summary.items():
        md.append(f"| {k} | {s['inputs']} | {s['crashes']} | {s['over_1s']} | {s['unlocated']} | "
                  f"{s['diagnostics']} | {s['leaks']} | {s['mean_ms']} | {s['slowest_s']} |")
    for k, s in summary.items():
        md.append(f"\nSlowest {k} input ({s['slowest_s']} s):\n\n```\n{s['slowest_input'][:300]}\n```")
    md.append(f"\n{len(findings)} finding(s)" + (": see the JSON report" if findings else "."))
    Path(a.out + ".md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
