"""Benchmark: the cost of hostile input grows linearly with its size, and bounded inputs stay cheap.

Run: python benchmarks/bench_hardening.py [--repeat N]

For each kind of junk it times an input of size n and of size 10n, side by side in one
run, and prints the ratio: about 10 means linear, about 100 quadratic.  The issue that
introduced these bounds measured 2,000 '[' at 7.7 s and 20,000 at 42 s; a 100 KB junk
line took over 90 s.  It also times the YAML alias bomb and 1,000-deep nesting against
an ordinary scenario of the same size.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from magewars.dsl.parser import get_parser, parse_text  # noqa: E402
from magewars.scenario.loader import ScenarioError, load_yaml  # noqa: E402
from magewars.scenario.schema import validate  # noqa: E402

JUNK = {
    "open brackets": lambda n: "[" * n,
    "close brackets": lambda n: "] " * n,
    "unknown characters": lambda n: "@ " * n,
    "keywords out of place": lambda n: "life 3 " * (n // 3),
    "long number": lambda n: 'creature "X" {\n  life ' + "9" * n + "\n}\n",
    "unclosed string": lambda n: '"' + "x" * n,
    "mutated card": lambda n: ('trait "T" { grants ( , ] }\n' * (n // 25)),
}


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def bomb(levels: int) -> str:
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x"]']
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def yaml_cost(text: str) -> float:
    t = time.perf_counter()
    try:
        validate(load_yaml(text, "b.yaml"), "b.yaml")
    except ScenarioError:
        pass
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--n", type=int, default=2000)
    a = ap.parse_args()
    get_parser()
    parse_text("x")
    n = a.n
    print(f"card-language parser: n = {n} units vs 10n (ratio ~10 is linear)")
    print(f"{'input':24} {'n (ms)':>10} {'10n (ms)':>10} {'ratio':>7}")
    for name, make in JUNK.items():
        small, big = make(n), make(10 * n)
        ts = best(lambda: parse_text(small, "j.mw"), a.repeat)
        tb = best(lambda: parse_text(big, "j.mw"), a.repeat)
        print(f"{name:24} {1000 * ts:10.2f} {1000 * tb:10.2f} {tb / ts:7.1f}")
    line = "@ ] life X { ( " * (100_000 // 15)
    t = best(lambda: parse_text(line, "j.mw"), a.repeat)
    print(f"a 100 KB junk line: {1000 * t:.1f} ms (was > 90 s before the bounds)")

    print("\nscenario YAML: hostile vs ordinary text of similar size")
    ordinary = "objects:\n" + "".join(f"  - {{id: o{i}, card: Timber Wolf, zone: B2}}\n" for i in range(12)) \
        + "actions: []\n"
    cases = {
        "alias bomb (9^8 values)": bomb(8),
        "nesting 1,000 deep": "a: " + "[" * 1000 + "]" * 1000 + "\n",
        "1,000 aliases": "a: &a 1\nb: [" + ", ".join(["*a"] * 1200) + "]\n",
    }
    base = min(yaml_cost(ordinary) for _ in range(a.repeat))
    print(f"{'input':26} {'bytes':>7} {'ms':>9} {'vs ordinary':>12}")
    print(f"{'ordinary scenario':26} {len(ordinary):7d} {1000 * base:9.2f} {1.0:12.1f}")
    for name, text in cases.items():
        t = min(yaml_cost(text) for _ in range(a.repeat))
        print(f"{name:26} {len(text):7d} {1000 * t:9.2f} {t / base:12.1f}")


if __name__ == "__main__":
    main()
