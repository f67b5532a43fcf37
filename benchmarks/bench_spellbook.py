"""Benchmark: reading and checking spellbooks, side by side with compiling the corpus they need.

Times, in one run: compiling the shipped corpus (once, uncached), then reading and validating
every shipped spellbook (text format) and, when the reference decks are present, the official
OCTGN `.o8d` decks; prints per-book times and the ratio corpus-compile / book-check, i.e. how
many books can be checked in the time the corpus takes to load.

Run: python benchmarks/bench_spellbook.py [--rounds N]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from magewars.dsl import compile_paths  # noqa: E402
from magewars.resources import shipped_sources  # noqa: E402
from magewars.spellbook import shipped_books, validate  # noqa: E402
from magewars.spellbook.reader import read_file  # noqa: E402


def _time_books(paths, corpus, rounds):
    t0 = time.perf_counter()
    n_diags = 0
    for _ in range(rounds):
        for p in paths:
            n_diags += len(validate(read_file(p, corpus)))
    return (time.perf_counter() - t0) / (rounds * len(paths)), n_diags


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    corpus, _ = compile_paths(shipped_sources(), with_codex=False)
    t_corpus = time.perf_counter() - t0

    books = list(shipped_books().values())
    t_text, _ = _time_books(books, corpus, args.rounds)
    print(f"compile the corpus ({len(corpus.cards)} cards):        {t_corpus * 1000:9.1f} ms")
    print(f"read + validate one shipped .book ({len(books)} books): {t_text * 1000:9.3f} ms")
    print(f"ratio corpus / book check: {t_corpus / t_text:.0f}x")
    decks = sorted((ROOT.parent / "shared" / "spellbooks" / "octgn-official").glob("*.o8d"))
    if decks:
        t_o8d, _ = _time_books(decks, corpus, args.rounds)
        print(f"read + validate one OCTGN .o8d ({len(decks)} decks):    {t_o8d * 1000:9.3f} ms")
        print(f"ratio .o8d / .book: {t_o8d / t_text:.2f}x")
    else:
        print("(reference .o8d decks not found beside the checkout: skipped)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
