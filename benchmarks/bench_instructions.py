"""Instructions and Python calls per attack sequence and per duel: the load-independent measures.

Seconds on a shared machine move with whatever else runs; the number of machine instructions the
interpreter executes for the same work does not (callgrind counts them), nor does the number of
Python-level calls it makes (cProfile counts them).  So a change to the engine is judged here first,
beside a baseline commit, and in seconds by bench_engine.py and bench_duel.py.

Cases (the same work as the other benchmarks):

- ``bare``, ``hidden``, ``armored``: bench_engine.py's three attack sequences, setup included
  (``make_game`` then the Timber Wolf's Bite), 300 of them after 20 of warm-up;
- ``duel-bw``, ``duel-dn``: two random-agent duels of at most 20 rounds (games 1 and 2 of seed 5),
  Beastmaster against Wizard and Druid against Necromancer, after game 0 as warm-up.

Run: python benchmarks/bench_instructions.py [--baseline REF] [--cases bare,armored,...] [--calls-only]

Instructions need valgrind (callgrind) and a C compiler with valgrind's headers: a small library that
switches counting on and off around the measured part is built in a temporary folder (Debian:
valgrind, gcc).  Without them, --calls-only still counts calls.  With PYTHONHASHSEED fixed (0 unless
set), two runs of the same tree give the same instruction count to within about 0.1%.
"""
from __future__ import annotations

import argparse
import contextlib
import cProfile
import ctypes
import json
import os
import pstats
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[0]
TREE = Path(os.environ.get("MAGEWARS_BENCH_TREE", ROOT))
SEQUENCES = 300
WARM = 20
CASES = {
    "bare": "attack sequence, bare melee (per sequence)",
    "hidden": "attack sequence, 3 hidden enchantments (per sequence)",
    "armored": "attack sequence, armored defender (per sequence)",
    "duel-bw": "random duel, Beastmaster vs Wizard, 20 rounds (per duel)",
    "duel-dn": "random duel, Druid vs Necromancer, 20 rounds (per duel)",
}
DUELS = {"duel-bw": ("beastmaster", "wizard"), "duel-dn": ("druid", "necromancer")}

SHIM = r"""
#include <valgrind/callgrind.h>
void cg_start(void) { CALLGRIND_START_INSTRUMENTATION; CALLGRIND_ZERO_STATS; CALLGRIND_TOGGLE_COLLECT; }
void cg_stop(void) { CALLGRIND_TOGGLE_COLLECT; CALLGRIND_DUMP_STATS; CALLGRIND_STOP_INSTRUMENTATION; }
"""


# ---------------------------------------------------------------- the measured work (in a worker process)
def _work(case: str):
    """(warm-up, measured part, units in the measured part) for a case, in the tree MAGEWARS_BENCH_TREE."""
    sys.path.insert(0, str(HERE))
    if case in DUELS:
        sys.path.insert(0, str(TREE))
        from magewars.duel import runner as R
        cfg = R.DuelConfig(DUELS[case], ("random", "random"), seed=5, max_rounds=20)
        return (lambda: R.play_game(cfg, 0)), (lambda: [R.play_game(cfg, k) for k in (1, 2)]), 2
    import bench_engine as b  # (imports the tree's magewars)
    c = b.corpus()

    def run(seeds):
        for i in seeds:
            g, a, d = b.make_game(c, i, case)
            g.attacks.make_attack(a, "Bite", [d])
    return (lambda: run(range(1000, 1000 + WARM))), (lambda: run(range(SEQUENCES))), SEQUENCES


def worker(case: str, mode: str, shim: str) -> None:
    warm, measured, units = _work(case)
    warm()
    if mode == "calls":
        prof = cProfile.Profile()
        prof.enable()
        measured()
        prof.disable()
        python = builtin = 0
        for (path, _line, _name), (_cc, calls, *_rest) in pstats.Stats(prof).stats.items():
            if path == "~":
                builtin += calls
            else:
                python += calls
        print(json.dumps({"python_calls": python / units, "builtin_calls": builtin / units}))
        return
    lib = ctypes.CDLL(shim)
    lib.cg_start()
    measured()
    lib.cg_stop()
    print(json.dumps({"units": units}))


# ---------------------------------------------------------------- the runner
def build_shim(tmp: Path) -> str:
    if shutil.which("valgrind") is None or shutil.which("gcc") is None:
        raise SystemExit("bench_instructions: instructions need valgrind and gcc (Debian: apt install valgrind "
                         "gcc); --calls-only counts Python calls without them")
    src, lib = tmp / "cg.c", tmp / "libcg.so"
    src.write_text(SHIM, encoding="utf-8")
    done = subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-o", str(lib), str(src)], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"bench_instructions: cannot build the callgrind switch (valgrind's headers?):\n"
                         f"{done.stderr[-800:]}")
    return str(lib)


def _env(tree: Path, tmp: Path) -> dict:
    env = dict(os.environ, MAGEWARS_BENCH_TREE=str(tree), MAGEWARS_NO_CACHE="1")
    env.setdefault("PYTHONHASHSEED", "0")  # dict and set order: the same instructions run to run
    # Each tree's bytecode in a folder of this run's, empty at its start.  With a checkout's own
    # __pycache__ (bytecode another process wrote) the same tree counted 908 more reads of objects'
    # light fields in 300 sequences than beside itself compiled from source, every other count equal:
    # loaded bytecode lays objects out otherwise, and (as far as found) something iterated in address
    # order reads more or fewer fields before it stops.  The events logged were the same.
    env["PYTHONPYCACHEPREFIX"] = str(tmp / f"pycache-{abs(hash(str(tree.resolve()))):x}")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def measure(tree: Path, case: str, calls_only: bool, shim: str, tmp: Path) -> dict:
    script = str(Path(__file__).resolve())
    out: dict = {}
    done = subprocess.run([sys.executable, script, "--worker", case, "--mode", "calls"],
                          capture_output=True, text=True, cwd=tree, env=_env(tree, tmp))
    if done.returncode != 0:
        raise SystemExit(f"bench_instructions: the {case} worker failed in {tree}:\n{done.stderr[-2000:]}")
    out.update(json.loads(done.stdout.strip().splitlines()[-1]))
    if calls_only:
        return out
    dump = tmp / f"cg.{case}.%p"
    done = subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no",
                           f"--callgrind-out-file={dump}", sys.executable, script, "--worker", case,
                           "--mode", "instructions", "--shim", shim],
                          capture_output=True, text=True, cwd=tree, env=_env(tree, tmp))
    if done.returncode != 0:
        raise SystemExit(f"bench_instructions: the {case} worker failed under valgrind in {tree}:\n"
                         f"{done.stderr[-2000:]}")
    units = json.loads(done.stdout.strip().splitlines()[-1])["units"]
    totals = []
    for f in tmp.glob(f"cg.{case}.*"):
        m = re.search(r"^totals:\s+(\d+)", f.read_text(encoding="utf-8", errors="replace"), re.MULTILINE)
        if m and int(m.group(1)) > 0:
            totals.append(int(m.group(1)))
        f.unlink()
    if len(totals) != 1:
        raise SystemExit(f"bench_instructions: expected one counted part for {case}, found {len(totals)}")
    out["instructions"] = totals[0] / units
    return out


def _fmt(v: float, key: str) -> str:
    return f"{v / 1e6:9.3f} M" if key == "instructions" else f"{v:9.0f}  "


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", help="a git commit to measure beside this tree")
    ap.add_argument("--cases", default=",".join(CASES), help=f"comma-separated, of: {', '.join(CASES)}")
    ap.add_argument("--calls-only", action="store_true", help="count Python calls only (no valgrind)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--mode", help=argparse.SUPPRESS)
    ap.add_argument("--shim", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.worker:
        worker(a.worker, a.mode, a.shim)
        return 0
    cases = [c.strip() for c in a.cases.split(",") if c.strip()]
    unknown = [c for c in cases if c not in CASES]
    if unknown:
        ap.error(f"unknown case(s) {', '.join(unknown)}; cases: {', '.join(CASES)}")
    keys = ["python_calls", "builtin_calls"] + ([] if a.calls_only else ["instructions"])
    with tempfile.TemporaryDirectory() as t, contextlib.ExitStack() as stack:
        tmp = Path(t)
        shim = "" if a.calls_only else build_shim(tmp)
        trees = {"this tree": ROOT}
        if a.baseline:
            from sidebyside import checkout  # (benchmarks/: the baseline's temporary worktree)
            trees[f"baseline {a.baseline}"] = stack.enter_context(checkout(a.baseline))
        print(f"instructions and calls (Python {sys.version.split()[0]}, PYTHONHASHSEED="
              f"{os.environ.get('PYTHONHASHSEED', '0')}): " + " vs ".join(trees))
        for case in cases:
            got = {label: measure(tree, case, a.calls_only, shim, tmp) for label, tree in trees.items()}
            print(f"  {CASES[case]}")
            for k in keys:
                vals = [got[label][k] for label in trees]
                line = f"    {k.replace('_', ' '):15s}" + " vs ".join(_fmt(v, k) for v in vals)
                if len(vals) == 2 and vals[1]:
                    line += f"   ratio {vals[0] / vals[1]:.3f} ({100 * (vals[0] / vals[1] - 1):+.1f}%)"
                print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
