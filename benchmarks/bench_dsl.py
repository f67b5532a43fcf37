"""Benchmark: parse-only vs parse+check of the whole shipped corpus (codex + spells).

Run: python benchmarks/bench_dsl.py [--repeat N]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from magewars.dsl import compile_sources  # noqa: E402
from magewars.dsl.parser import get_parser, parse_text  # noqa: E402
from magewars.resources import shipped_sources  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    files = [(str(p), p.read_text(encoding="utf-8")) for p in shipped_sources()]
    size = sum(len(t) for _, t in files)
    lines = sum(t.count("\n") for _, t in files)
    t0 = time.perf_counter()
    get_parser()
    warm = time.perf_counter() - t0

    parse_times, full_times = [], []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        for path, text in files:
            parse_text(text, path)
        parse_times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        corpus, diags = compile_sources(files)
        full_times.append(time.perf_counter() - t0)
    tracemalloc.start()
    compile_sources(files)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    p, f = statistics.median(parse_times), statistics.median(full_times)
    print(f"corpus: {len(files)} files, {lines} lines, {size / 1024:.0f} KiB; "
          f"{len(corpus.cards)} cards, {len(corpus.codex)} codex entries, {len(diags)} diagnostics")
    print(f"grammar load (cached): {warm * 1000:.0f} ms")
    print(f"parse only (text -> typed AST): median {p * 1000:.0f} ms over {args.repeat} runs "
          f"({lines / p:,.0f} lines/s)")
    print(f"parse + check (-> compiled definitions): median {f * 1000:.0f} ms "
          f"(check adds {(f - p) * 1000:.0f} ms)")
    print(f"peak memory of one parse + check: {peak / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
