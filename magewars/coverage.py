"""How much of the card pool the language states, per set and per type.

A card is *parsed* and *checked* when it is in the compiled corpus (the shipped
corpus only loads when it has no errors, so both hold for every card listed);
it is *fully expressed* when no clause of it, or of its attack bars, is marked
unsupported.  Unsupported clauses are grouped by their machine-readable reason.
"""
from __future__ import annotations

from collections import Counter, defaultdict

from .dsl.model import Corpus

TYPE_LABEL = {"attack": "attack spell"}


def _reasons(card) -> list[str]:
    out = [u.reason for u in card.unsupported]
    for a in card.attacks:
        out.extend(u.reason for u in a.unsupported)
    return out


def compute_coverage(corpus: Corpus) -> dict:
    by_set: dict[str, Counter] = defaultdict(Counter)
    by_type: dict[str, Counter] = defaultdict(Counter)
    reasons: Counter = Counter()
    reason_cards: dict[str, list[str]] = defaultdict(list)
    total = Counter()
    for c in corpus.cards.values():
        full = c.fully_expressed
        sets = sorted({s for s, _ in c.printings}) or ["(no printing)"]
        for s in sets:
            by_set[s]["cards"] += 1
            by_set[s]["parsed"] += 1
            by_set[s]["checked"] += 1
            by_set[s]["full"] += int(full)
        t = TYPE_LABEL.get(c.kind, c.kind)
        for counter in (by_type[t], total):
            counter["cards"] += 1
            counter["parsed"] += 1
            counter["checked"] += 1
            counter["full"] += int(full)
        for r in sorted(set(_reasons(c))):
            reasons[r] += 1
            reason_cards[r].append(c.name)
    codex_partial = sum(1 for d in corpus.codex.values() if d.unsupported)

    def rows(d):
        return [{"name": k, **{f: v[f] for f in ("cards", "parsed", "checked", "full")},
                 "percent_full": round(100.0 * v["full"] / v["cards"], 1) if v["cards"] else 0.0}
                for k, v in sorted(d.items())]

    return {
        "total": {**{f: total[f] for f in ("cards", "parsed", "checked", "full")},
                  "percent_full": round(100.0 * total["full"] / total["cards"], 1) if total["cards"] else 0.0},
        "by_set": rows(by_set),
        "by_type": rows(by_type),
        "unsupported_reasons": [{"reason": r, "cards": n, "examples": sorted(reason_cards[r])[:5]}
                                for r, n in reasons.most_common()],
        "codex": {"entries": len(corpus.codex), "with_unsupported": codex_partial},
    }


def render_coverage(report: dict, by: str = "both") -> str:
    lines = []

    def table(title, rows):
        from .console import make_table, table_text
        numbers = ("cards", "parsed", "checked", "full", "% full")
        t = make_table(title, *numbers, right=numbers)
        for r in rows:
            t.add_row(r["name"], str(r["cards"]), str(r["parsed"]), str(r["checked"]), str(r["full"]),
                      f"{r['percent_full']:.1f}")
        lines.append(table_text(t))
        lines.append("")

    if by in ("set", "both"):
        table("set", report["by_set"])
    if by in ("type", "both"):
        table("type", report["by_type"])
    t = report["total"]
    lines.append(f"total: {t['cards']} cards, {t['parsed']} parsed, {t['checked']} checked, "
                 f"{t['full']} fully expressed ({t['percent_full']:.1f}%)")
    if report["unsupported_reasons"]:
        lines.append("")
        from .console import make_table, table_text
        t = make_table("cards", "reason", "e.g.", right=("cards",),
                       title="unsupported clauses, by reason (cards affected):")
        for r in report["unsupported_reasons"]:
            t.add_row(str(r["cards"]), r["reason"], ", ".join(r["examples"][:3]))
        lines.append(table_text(t, width=160))
    c = report["codex"]
    lines.append("")
    lines.append(f"codex: {c['entries']} entries, {c['with_unsupported']} with unsupported clauses")
    return "\n".join(lines)
