"""Benchmark: the authors' and players' tools, each measured side by side with its baseline in one run.

- language server: re-checking one edited card file with the codex kept parsed (what `magewars lsp`
  does on every keystroke) vs `magewars lint FILE` compiling it from scratch;
- syntax-error recovery: a card file with a syntax error in every card vs the same file clean;
- lookup: a plain-word question vs a single-term lookup;
- the read commands and lint as whole processes (`python -m magewars ...`, as a user runs them),
  warm cache and fresh machine (an empty cache folder), beside the same commands of a baseline
  commit (`--baseline COMMIT`, unpacked from git into a temporary folder) measured in the same run,
  runs of the two trees interleaved; medians of CPU time (user + system: a shared machine's waits
  for a free core do not count) and of wall-clock time, against the goals of issue 12.  "Fresh"
  is measured twice: in the source tree (a checkout: everything compiled), and installed as the
  README installs it (each tree's wheel, built by `pip wheel` and unpacked with `pip install
  --target`, run from another folder: what a new machine runs after `pip install .`).

Run: python benchmarks/bench_tools.py [--repeat N] [--baseline COMMIT] [--only reads|tools]
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from magewars.dsl import compile_paths  # noqa: E402
from magewars.dsl.parser import parse_text  # noqa: E402
from magewars.lookup import load_rules  # noqa: E402
from magewars.lsp.analysis import Knowledge  # noqa: E402
from magewars.resources import data_dir  # noqa: E402


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


# ---------------------------------------------------------------- whole processes
EDITED = "<edited>"  # stands for a copy of spells/promo/equipment.mw, changed before every run
BROKEN = "<broken>"  # the same, changed by a line the language cannot read (a syntax error)
SHIPPED_EDITED = "<shipped edited>"  # the tree's own spells/promo/equipment.mw changed before every run
# (label, arguments, goal warm, goal on a fresh machine) -- issue 12's "done when"
READS = [
    ("lookup aegis", ["lookup", "aegis"], 0.3, 1.5),
    ("lookup question", ["lookup", "guard vs flying"], 0.3, 1.5),
    ("card", ["card", "bear strength"], 0.3, 1.5),
    ("card --json", ["card", "tiger stance", "--json"], 0.3, 1.5),
    ("odds", ["odds", "Timber Wolf", "Iron Golem"], 0.3, 1.5),
    ("rules 5.2", ["rules", "5.2"], 0.3, 1.5),
    ("lint one file", ["lint", "spells/promo/equipment.mw"], 0.15, None),
    ("lint edited", ["lint", EDITED], 0.15, None),  # the author's loop: a new version of the file each run
    ("lint syntax err", ["lint", BROKEN], 0.15, None),  # the same loop, the new version with a syntax error
    ("lint corpus", ["lint"], 0.5, None),
    # an author edits a shipped card, then lints everything (or any command loads the corpus): a copy of
    # the tree whose card file gets a new comment before every run
    ("lint corpus edited", ["lint", SHIPPED_EDITED], 0.5, None),
]


def _child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


_EDITS = [0]


def run_process(tree: Path, args: list[str], env: dict) -> tuple[float, float]:
    """(CPU, wall) seconds of one `python -m magewars ARGS` run in `tree` (its own package)."""
    if EDITED in args or BROKEN in args:  # a version of the file no run has seen: parsed and checked again
        _EDITS[0] += 1
        edited = Path(env["MAGEWARS_CACHE_DIR"]).parent / f"edited-{_EDITS[0]}.mw"
        # a valid edit (a comment: `#` in the card language) or a line that is no item (`//` is no
        # comment there: a syntax error, so the parser's error recovery is measured)
        line = f"# edit {_EDITS[0]}" if EDITED in args else f"// edit {_EDITS[0]}"
        edited.write_text((ROOT / "spells" / "promo" / "equipment.mw").read_text(encoding="utf-8")
                          + f"\n{line}\n", encoding="utf-8")
        args = [str(edited) if a in (EDITED, BROKEN) else a for a in args]
    if SHIPPED_EDITED in args:
        tree = _copy_of(tree, Path(env["MAGEWARS_CACHE_DIR"]).parent)
        _EDITS[0] += 1
        with open(tree / "spells" / "promo" / "equipment.mw", "a", encoding="utf-8") as fh:
            fh.write(f"\n# edit {_EDITS[0]}\n")
        args = [a for a in args if a != SHIPPED_EDITED]
    c0, t0 = _child_cpu(), time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "magewars", *args], cwd=tree, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall, cpu = time.perf_counter() - t0, _child_cpu() - c0
    if r.returncode not in (0, 1):
        raise SystemExit(f"{tree}: magewars {' '.join(args)} failed ({r.returncode}): {r.stderr[-400:]}")
    return cpu, wall


_COPIES: dict = {}


def _copy_of(tree: Path, tmp: Path) -> Path:
    """A copy of the tree's package and data, made once, whose card files a run may change (the tree
    itself, a checkout, is never changed)."""
    if tree not in _COPIES:
        where = tmp / f"copy-{len(_COPIES)}"
        for name in ("magewars", "codex", "spells", "grammar"):
            shutil.copytree(tree / name, where / name)
        _COPIES[tree] = where
    return _COPIES[tree]


def unpack(commit: str, where: Path) -> Path:
    """The tree of a commit of this repository, unpacked (not checked out: no worktree is touched)."""
    arch = subprocess.run(["git", "-C", str(ROOT), "archive", commit], capture_output=True)
    if arch.returncode != 0:
        raise SystemExit(f"--baseline {commit}: {arch.stderr.decode(errors='replace').strip()}")
    where.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(where)], input=arch.stdout, check=True)
    return where


def install(tree: Path, where: Path) -> Path | None:
    """The tree's wheel, installed (without its dependencies: this Python has them) into `where`;
    None, said aloud, if it cannot be built here (no package index for the build requirements)."""
    wheels = where.parent / f"{where.name}-wheel"
    pip = [sys.executable, "-m", "pip"]
    r = subprocess.run([*pip, "wheel", "-q", "--no-deps", "-w", str(wheels), str(tree)], capture_output=True, text=True)
    built = sorted(wheels.glob("magewars-*.whl")) if wheels.is_dir() else []
    if r.returncode == 0 and len(built) == 1:
        r = subprocess.run([*pip, "install", "-q", "--no-deps", "--target", str(where), str(built[0])],
                           capture_output=True, text=True)
        if r.returncode == 0:
            return where
    print(f"(cannot install {tree} from its wheel, so no 'installed' figures: {r.stderr.strip()[-300:]})")
    return None


def bench_reads(repeat: int, baseline: str | None) -> None:
    # as installed by pip: bytecode compiled (PYTHONDONTWRITEBYTECODE would recompile every module
    # on every run); no MAGEWARS_* setting of the caller's
    env0 = {k: v for k, v in os.environ.items() if not k.startswith("MAGEWARS_") and k != "PYTHONDONTWRITEBYTECODE"}
    env0["NO_COLOR"] = "1"
    tmp = Path(tempfile.mkdtemp(prefix="mw-reads-"))
    try:
        trees = {"this": ROOT}
        if baseline:
            trees["baseline"] = unpack(baseline, tmp / "baseline")
        warm = {t: {**env0, "MAGEWARS_CACHE_DIR": str(tmp / f"warm-{t}")} for t in trees}
        installed = {t: install(tree, tmp / f"installed-{t}") for t, tree in trees.items()}
        elsewhere = tmp / "elsewhere"  # the installed package runs from a folder that is no checkout
        elsewhere.mkdir()
        results = {}
        for label, args, _, goal_cold in READS:
            for t, tree in trees.items():
                run_process(tree, args, warm[t])  # bytecode written, cache filled
            samples = {t: [] for t in trees}
            cold = {t: [] for t in trees}
            cold_inst = {t: [] for t in trees}
            for i in range(repeat):
                for t, tree in trees.items():  # interleaved: both trees see the same machine
                    samples[t].append(run_process(tree, args, warm[t]))
                    if goal_cold is not None:
                        d = tmp / f"cold-{t}-{label}-{i}"
                        cold[t].append(run_process(tree, args, {**env0, "MAGEWARS_CACHE_DIR": str(d)}))
                        shutil.rmtree(d, ignore_errors=True)
                        if installed[t] is not None:
                            env = {**env0, "MAGEWARS_CACHE_DIR": str(d), "PYTHONPATH": str(installed[t])}
                            cold_inst[t].append(run_process(elsewhere, args, env))
                            shutil.rmtree(d, ignore_errors=True)
            med = lambda xs: statistics.median(xs) if xs else None  # noqa: E731
            results[label] = {t: (med([c for c, _ in samples[t]]), med([w for _, w in samples[t]]),
                                  med([c for c, _ in cold[t]]), med([w for _, w in cold[t]]),
                                  med([c for c, _ in cold_inst[t]]), med([w for _, w in cold_inst[t]]))
                              for t in trees}
        start = statistics.median(run_process(ROOT, ["-V"], warm["this"])[0] for _ in range(repeat))
        print(f"\nwhole processes, medians of {repeat} runs (CPU s / wall s); `magewars -V` alone: {start:.3f} s CPU")
        head = f"{'command':16} {'goal':>5} {'warm CPU':>9} {'wall':>6}"
        if baseline:
            head += f" {'baseline CPU':>13} {'wall':>6} {'base/this':>10}"
        head += f" {'fresh CPU':>10} {'wall':>6}"
        if baseline:
            head += f" {'baseline':>9}"
        head += f" {'installed':>10} {'wall':>6}"
        if baseline:
            head += f" {'baseline':>9}"
        head += f" {'goal':>5}"
        print(head)
        fmt = lambda v, n: f" {v:{n}.3f}" if v is not None else f" {'-':>{n}}"  # noqa: E731
        for label, _, goal, goal_cold in READS:
            r = results[label]
            c, w, cc, cw, ic, iw = r["this"]
            line = f"{label:16} {goal:5.2f} {c:9.3f} {w:6.3f}"
            if baseline:
                bc, bw = r["baseline"][:2]
                line += f" {bc:13.3f} {bw:6.3f} {bc / c:9.2f}x"
            if goal_cold is not None:
                line += fmt(cc, 10) + fmt(cw, 6)
                if baseline:
                    line += fmt(r["baseline"][2], 9)
                line += fmt(ic, 10) + fmt(iw, 6)
                if baseline:
                    line += fmt(r["baseline"][4], 9)
                line += f" {goal_cold:5.2f}"
            print(line)
        print("(fresh: an empty cache folder; in the source tree, and installed from the tree's wheel)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--baseline", metavar="COMMIT", help="also time the read commands of this commit, side by side")
    ap.add_argument("--only", choices=["reads", "tools"], help="only the whole-process read commands, or only the rest")
    args = ap.parse_args()
    if not 1 <= args.repeat <= 50:
        ap.error("--repeat must be between 1 and 50")
    if args.only != "reads":
        bench_tools(args.repeat)
    if args.only != "tools":
        bench_reads(args.repeat, args.baseline)


def bench_tools(repeat: int) -> None:
    path = data_dir("spells") / "core" / "creatures.mw"
    text = path.read_text(encoding="utf-8")
    cards = text.count('\ncreature "')

    t0 = time.perf_counter()
    k = Knowledge()
    load = time.perf_counter() - t0
    lsp = best(lambda: k.diagnostics(str(path), text), repeat)
    lint = best(lambda: compile_paths([path]), repeat)
    print(f"language server start (load corpus once): {load:.2f} s")
    print(f"re-check {path.name} ({cards} cards): lsp {lsp * 1000:.0f} ms, lint from scratch {lint * 1000:.0f} ms,"
          f" ratio {lint / lsp:.1f}x")

    broken = text.replace("  armor ", "  armor two ")
    clean = best(lambda: parse_text(text, "x.mw"), repeat)
    bad = best(lambda: parse_text(broken, "x.mw"), repeat)
    n = len(parse_text(broken, "x.mw")[1])
    print(f"parse with {n} syntax errors vs clean: {bad * 1000:.0f} ms vs {clean * 1000:.0f} ms,"
          f" ratio {bad / clean:.2f}x")

    book = load_rules()
    q = best(lambda: [book.lookup("can a guarding creature fly") for _ in range(20)], repeat) / 20
    one = best(lambda: [book.lookup("flying") for _ in range(20)], repeat) / 20
    print(f"lookup: question {q * 1000:.1f} ms vs one term {one * 1000:.2f} ms, ratio {q / one:.0f}x")
    print(f"(each figure is the best of {repeat} runs; python {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
