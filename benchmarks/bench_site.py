"""Benchmark: build the whole web codex from the shipped data — collect, render, search index — and its size.

Run: python benchmarks/bench_site.py [--repeat N]
Each stage is timed side by side in the same run (median of N builds); the corpus is compiled once first.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from magewars.dsl import load_corpus  # noqa: E402
from magewars.site.build import copy_assets, index_search, render_site  # noqa: E402
from magewars.site.collect import collect  # noqa: E402


def _size(folder: Path) -> tuple[int, int]:
    files = [p for p in folder.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    t0 = time.perf_counter()
    corpus = load_corpus()
    compile_s = time.perf_counter() - t0
    times = {"collect": [], "render": [], "index": []}
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "site"
            t0 = time.perf_counter()
            site = collect(corpus)
            t1 = time.perf_counter()
            w = render_site(site, out)
            copy_assets(out)
            t2 = time.perf_counter()
            indexed = index_search(out)
            t3 = time.perf_counter()
            times["collect"].append(t1 - t0)
            times["render"].append(t2 - t1)
            times["index"].append(t3 - t2)
            html_files, html_bytes = _size(out)
            idx_files, idx_bytes = _size(out / "pagefind")
            html_files -= idx_files
            html_bytes -= idx_bytes
    med = {k: statistics.median(v) for k, v in times.items()}
    total = sum(med.values())
    print(f"site: {w.pages} pages ({w.counts['cards']} cards, {w.counts['terms']} terms, {w.counts['rules']} rules, "
          f"{w.counts['rulings']} rulings); Pagefind indexed {indexed} pages")
    print(f"corpus compile (once, not in the build time below): {compile_s:.2f} s")
    print(f"build, median of {args.repeat}: {total:.2f} s = collect {med['collect']:.2f} s + render "
          f"{med['render']:.2f} s + search index {med['index']:.2f} s")
    print(f"per page: render {med['render'] / w.pages * 1000:.2f} ms, index {med['index'] / indexed * 1000:.2f} ms; "
          f"index/render time ratio {med['index'] / med['render']:.2f}")
    print(f"size: {(html_bytes + idx_bytes) / 2**20:.1f} MiB in {html_files + idx_files} files = pages+assets "
          f"{html_bytes / 2**20:.1f} MiB ({html_files} files) + search index {idx_bytes / 2**20:.1f} MiB "
          f"({idx_files} files); index/pages size ratio {idx_bytes / html_bytes:.2f}")


if __name__ == "__main__":
    main()
