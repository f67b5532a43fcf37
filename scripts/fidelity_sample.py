"""Print the seeded random sample of cards for the corpus-fidelity self-check (docs/fidelity-sample.md).

Population: every Arena card name in ../shared/cards/cards.json (Academy sets left out: the corpus
states only Arena cards), minus the cards that the parallel helpers of the same wave were rewriting
(their lists are given with --exclude, one "Name | ..." a line), so that fixes here do not collide
with theirs.
Weight: 4 for a card with printed rules text (its cards.json text, mage abilities or its
texts-supplement.json record, script hooks in brackets removed, at least 12 characters), 1 otherwise.
Draw: weighted sampling without replacement (Efraimidis-Spirakis): each card gets the key
u ** (1 / weight), u uniform from random.Random(seed) drawn in sorted-name order; the N largest keys win.

    python scripts/fidelity_sample.py --seed 20261126 --count 40 --exclude scripts/fidelity_sample_excluded.txt
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def printed_text(recs: list[dict], extra: list[str]) -> str:
    text = " ".join([(r.get("text") or "") + " " + (r.get("mage_abilities") or "") for r in recs] + extra)
    return re.sub(r"\[[^\]]*\]", "", text).strip(" .\n\r")


def sample(shared: Path, seed: int, count: int, exclude: set[str]) -> list[tuple[str, int]]:
    recs = json.loads((shared / "cards" / "cards.json").read_text())["cards"]
    supp = json.loads((shared / "cards" / "texts-supplement.json").read_text())
    by_name: dict[str, list[dict]] = defaultdict(list)
    for r in recs:
        if not r["set"].startswith("Mage Wars Academy"):
            by_name[r["name"]].append(r)
    extra: dict[str, list[str]] = defaultdict(list)
    for r in supp:
        extra[r["name"]].append(r["text"])
    rng = random.Random(seed)
    keyed = []
    for name in sorted(by_name):
        if name in exclude:
            continue
        weight = 4 if len(printed_text(by_name[name], extra.get(name, []))) >= 12 else 1
        keyed.append((rng.random() ** (1 / weight), name, weight))
    keyed.sort(reverse=True)
    return [(name, weight) for _, name, weight in keyed[:count]]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=20261126)
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--exclude", nargs="*", type=Path, default=[])
    a = ap.parse_args(argv)
    exclude = {line.split("|")[0].strip() for f in a.exclude for line in f.read_text().splitlines() if line.strip()}
    for i, (name, weight) in enumerate(sample(a.shared, a.seed, a.count, exclude), 1):
        print(f"{i:2d}. {name}" + ("" if weight > 1 else "  (no rules text)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
