"""The engine benchmark's side-by-side comparison runs, end to end, on a real checkout.

`benchmarks/bench_engine.py --baseline REF` is the instrument behind every speed claim against another
commit (issue notes, docs/engine-speed.md): two long-lived workers, one per tree, alternating in short
slices (benchmarks/sidebyside.py, `paired`).  Compared with itself (REF = HEAD), each of the three
cases prints its rates, a ratio near 1 and its quartiles.  Needs a git checkout with history (skipped
otherwise)."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _git_ok() -> bool:
    try:
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "HEAD"],
                              capture_output=True).returncode == 0
    except OSError:
        return False


def _worktrees() -> set:
    listed = subprocess.run(["git", "-C", str(ROOT), "worktree", "list", "--porcelain"], capture_output=True,
                            text=True).stdout
    return {ln.split(" ", 1)[1] for ln in listed.splitlines() if ln.startswith("worktree ")}


@pytest.mark.skipif(not _git_ok(), reason="needs a git checkout of the project")
def test_engine_benchmark_side_by_side_with_itself(tmp_path):
    # the benchmark's temporary worktree goes under this test's own folder (TMPDIR), so the check below
    # sees this run's worktree only, whatever other benchmark runs in this repository are doing meanwhile
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_engine.py"), "--baseline", "HEAD",
                           "--seconds", "0.6"], capture_output=True, text=True, cwd=ROOT, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = re.findall(r"^  (.+?)\s+(\d+) vs\s+(\d+)\s+ratio\s+([\d.]+)x \(quartiles ([\d.]+)-([\d.]+), (\d+) pairs\)$",
                      done.stdout, re.M)
    assert [r[0].split(",")[0] for r in rows] == ["melee attack", "melee attack vs defender with 3 hidden enchantments",
                                                 "armored defender"], done.stdout
    for _label, a, b, ratio, q1, q3, pairs in rows:
        assert int(a) > 0 and int(b) > 0 and int(pairs) >= 1
        assert float(q1) <= float(ratio) <= float(q3)
        assert 0.5 < float(ratio) < 2.0  # the same tree against itself
    # the temporary worktree is gone again, from git's list and from the disk
    assert not {w for w in _worktrees() if Path(w).resolve().is_relative_to(tmp_path.resolve())}
    assert not list(tmp_path.iterdir())


@pytest.mark.skipif(not _git_ok(), reason="needs a git checkout of the project")
def test_call_counts_are_the_same_for_the_same_tree():
    """benchmarks/bench_instructions.py: calls are counted, not timed, so the same tree measured twice
    (HEAD as its own baseline) gives the same figures exactly (instructions need valgrind: not here)."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_instructions.py"), "--calls-only",
                           "--cases", "bare", "--baseline", "HEAD"], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = re.findall(r"^    (python calls|builtin calls)\s+(\d+)\s+vs\s+(\d+)\s+ratio 1\.000 \(\+0\.0%\)$",
                      done.stdout, re.M)
    assert [r[0] for r in rows] == ["python calls", "builtin calls"], done.stdout
    assert all(int(a) == int(b) > 100 for _k, a, b in rows)
