"""Benchmark: whole-process time of the read commands and of lint, with and without the corpus cache.

Each command runs as its own process (`python -m magewars ...`), as a user runs it, in
three settings measured side by side in one run:

- no cache   MAGEWARS_NO_CACHE=1: every call compiles the corpus (what every call did before the cache);
- cold       an empty cache folder for every call: a fresh machine's first run (the shipped
             parse tables are used; the corpus is compiled once and stored);
- warm       the cache filled by an earlier call: the everyday case.

Also `lint` of one card file against `lint` of the whole corpus, warm.  Medians of --repeat runs.

Run: python benchmarks/bench_cache.py [--repeat N] [--only lookup,card,...]
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[1]

COMMANDS = {
    "lookup": ["lookup", "aegis"],
    "card": ["card", "bear strength"],
    "odds": ["odds", "Timber Wolf", "Iron Golem"],
    "rules": ["rules", "5.2"],
    "coverage": ["coverage"],
}


def one_file() -> Path:
    files = sorted((ROOT / "spells").rglob("*.mw"))
    return min(files, key=lambda p: p.stat().st_size)  # a small card file: the author's inner loop


EDITS = [0]


CPU = [True]  # time a process by its CPU time (user + system); False: wall-clock time


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(args: list[str], env: dict, edit: Optional[Path] = None, root: Path = ROOT) -> float:
    """One whole `python -m magewars ARGS` process run in `root` (a checkout); its time.  CPU time
    by default: on a shared machine the wall clock also counts the waits for a free core."""
    if edit is not None:  # a new version of the file each time: it must be parsed and checked again
        EDITS[0] += 1
        text = edit.read_text(encoding="utf-8").split("\n// edit ")[0]
        edit.write_text(f"{text}\n// edit {EDITS[0]}\n", encoding="utf-8")
    c0, t0 = _children_cpu(), time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "magewars", *args], cwd=root, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    t = (_children_cpu() - c0) if CPU[0] else time.perf_counter() - t0
    if r.returncode not in (0, 1):
        raise SystemExit(f"magewars {' '.join(args)} failed ({r.returncode}): {r.stderr[-500:]}")
    return t


def _python_alone() -> float:
    c0, t0 = _children_cpu(), time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"])
    return (_children_cpu() - c0) if CPU[0] else time.perf_counter() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated subset of: " + ", ".join(COMMANDS))
    ap.add_argument("--wall", action="store_true", help="wall-clock time instead of CPU time")
    ap.add_argument("--baseline", type=Path, default=None, metavar="DIR",
                    help="another checkout (e.g. a worktree of main): its warm times side by side")
    args = ap.parse_args(argv)
    CPU[0] = not args.wall
    if args.baseline is not None and not (args.baseline / "magewars" / "__main__.py").is_file():
        ap.error(f"--baseline {args.baseline}: not a magewars checkout")
    if not 1 <= args.repeat <= 50:
        ap.error("--repeat must be between 1 and 50")
    names = [n for n in (args.only.split(",") if args.only else COMMANDS) if n]
    unknown = [n for n in names if n not in COMMANDS]
    if unknown:
        ap.error(f"unknown command(s): {', '.join(unknown)}")

    # as pip installs it, bytecode compiled: PYTHONDONTWRITEBYTECODE would recompile every module on every run
    base = {k: v for k, v in os.environ.items() if not k.startswith("MAGEWARS_") and k != "PYTHONDONTWRITEBYTECODE"}
    tmp = Path(tempfile.mkdtemp(prefix="mw-bench-"))
    warm_dir = tmp / "warm"
    try:
        nocache = {**base, "MAGEWARS_NO_CACHE": "1"}
        warm = {**base, "MAGEWARS_CACHE_DIR": str(warm_dir)}
        base_warm = {**base, "MAGEWARS_CACHE_DIR": str(tmp / "baseline")}

        def cold_env(i):
            d = tmp / f"cold{i}"
            shutil.rmtree(d, ignore_errors=True)
            return {**base, "MAGEWARS_CACHE_DIR": str(d)}

        rows = []
        edited = tmp / "edited.mw"
        shutil.copy(one_file(), edited)
        jobs = [(n, COMMANDS[n], None) for n in names] + [
            ("lint one file", ["lint", str(one_file().relative_to(ROOT))], None),
            ("lint edited", ["lint", str(edited)], edited),  # the author's loop: edit, lint, edit...
            ("lint corpus", ["lint"], None)]
        for label, cmd, edit in jobs:
            run(cmd, warm)  # fill the warm cache for this command
            t_no = statistics.median(run(cmd, nocache, edit) for _ in range(args.repeat))
            t_cold = statistics.median(run(cmd, cold_env(i), edit) for i in range(args.repeat))
            t_warm = statistics.median(run(cmd, warm, edit) for _ in range(args.repeat))
            t_base = None
            if args.baseline is not None:
                run(cmd, base_warm, None, args.baseline)  # paths are relative to either checkout, or absolute
                t_base = statistics.median(run(cmd, base_warm, edit, args.baseline) for _ in range(args.repeat))
            rows.append((label, t_no, t_cold, t_warm, t_base))

        t_start = statistics.median(_python_alone() for _ in range(args.repeat))
        print(f"whole-process medians of {args.repeat} runs, {'wall-clock' if args.wall else 'CPU'} time "
              f"(python startup alone: {t_start:.3f} s)")
        print(f"{'command':16} {'no cache':>9} {'cold':>9} {'warm':>9} {'no cache/warm':>14} {'cold/warm':>10}"
              + (f" {'baseline warm':>14} {'baseline/warm':>14}" if args.baseline else ""))
        for label, t_no, t_cold, t_warm, t_base in rows:
            print(f"{label:16} {t_no:8.3f}s {t_cold:8.3f}s {t_warm:8.3f}s {t_no / t_warm:13.1f}x "
                  f"{t_cold / t_warm:9.1f}x" + (f" {t_base:13.3f}s {t_base / t_warm:13.2f}x" if t_base else ""))
        lint = {r[0]: r[:4] for r in rows}
        one, edit, whole = lint["lint one file"], lint["lint edited"], lint["lint corpus"]
        print(f"lint one file / lint corpus, warm: {one[3] / whole[3]:.2f}; an edited file / corpus, warm: "
              f"{edit[3] / whole[3]:.2f}; without the cache: {one[1] / whole[1]:.2f}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
