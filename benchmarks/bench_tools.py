"""Benchmark: the authors' and players' tools, each measured side by side with its baseline in one run.

- language server: re-checking one edited card file with the codex kept parsed (what `magewars lsp`
  does on every keystroke) vs `magewars lint FILE` compiling it from scratch;
- syntax-error recovery: a card file with a syntax error in every card vs the same file clean;
- lookup: a plain-word question vs a single-term lookup.

Run: python benchmarks/bench_tools.py [--repeat N]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    path = data_dir("spells") / "core" / "creatures.mw"
    text = path.read_text(encoding="utf-8")
    cards = text.count('\ncreature "')

    t0 = time.perf_counter()
    k = Knowledge()
    load = time.perf_counter() - t0
    lsp = best(lambda: k.diagnostics(str(path), text), args.repeat)
    lint = best(lambda: compile_paths([path]), args.repeat)
    print(f"language server start (load corpus once): {load:.2f} s")
    print(f"re-check {path.name} ({cards} cards): lsp {lsp * 1000:.0f} ms, lint from scratch {lint * 1000:.0f} ms,"
          f" ratio {lint / lsp:.1f}x")

    broken = text.replace("  armor ", "  armor two ")
    clean = best(lambda: parse_text(text, "x.mw"), args.repeat)
    bad = best(lambda: parse_text(broken, "x.mw"), args.repeat)
    n = len(parse_text(broken, "x.mw")[1])
    print(f"parse with {n} syntax errors vs clean: {bad * 1000:.0f} ms vs {clean * 1000:.0f} ms,"
          f" ratio {bad / clean:.2f}x")

    book = load_rules()
    q = best(lambda: [book.lookup("can a guarding creature fly") for _ in range(20)], args.repeat) / 20
    one = best(lambda: [book.lookup("flying") for _ in range(20)], args.repeat) / 20
    print(f"lookup: question {q * 1000:.1f} ms vs one term {one * 1000:.2f} ms, ratio {q / one:.0f}x")
    print(f"(each figure is the best of {args.repeat} runs; python {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
