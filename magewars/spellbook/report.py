"""What a spellbook holds, summarised: points per school, level curve, card types; and the text format writer."""
from __future__ import annotations

import io
from collections import defaultdict
from typing import Optional

from .model import Spellbook
from .rules import RuleError, mage_rules, spell_cost, stats_for


def spell_level(card) -> int:
    """A spell's level: the sum of its schools' levels for "and", the (shared) level otherwise."""
    levels = [lv for _, lv in card.schools]
    if not levels:
        return 0
    return sum(levels) if card.school_join == "and" else max(levels)


def summary(book: Spellbook) -> dict:
    """Points per school, level curve, card types, and every spell with what it costs this Mage."""
    out: dict = {
        "path": book.path, "format": book.format,
        "mage": book.mage.name if book.mage else None,
        "stats": book.stats.name if book.stats else None,
        "limit": book.stats.spellbook if book.stats else None,
        "spells": sum(e.count for e in book.entries if e.card is not None),
        "points": None, "schools": {}, "levels": {}, "types": {}, "cards": [],
    }
    rules = mage_rules(book.corpus, book.mage, book.stats) if book.mage and book.stats else None
    schools: dict[str, dict] = defaultdict(lambda: {"copies": 0, "points": 0})
    levels: dict[int, int] = defaultdict(int)
    types: dict[str, int] = defaultdict(int)
    total, priced = 0, True
    for e in book.entries:
        card = e.card
        if card is None:
            continue
        row = {"name": card.name, "count": e.count, "type": card.kind, "level": spell_level(card),
               "schools": [[s, lv] for s, lv in card.schools], "join": card.school_join, "points": None}
        levels[row["level"]] += e.count
        types[card.kind] += e.count
        if rules is not None:
            try:
                cost = spell_cost(book.corpus, rules, card)
            except RuleError:
                priced = False
            else:
                row["points"] = cost.points * e.count
                total += row["points"]
                for part in cost.parts:
                    schools[part.school]["points"] += part.points * e.count
                for s, _ in card.schools if card.school_join == "and" else [(cost.parts[0].school, 0)]:
                    schools[s]["copies"] += e.count
        out["cards"].append(row)
    out["points"] = total if rules is not None and priced else None
    out["schools"] = {k: schools[k] for k in sorted(schools, key=lambda s: (-schools[s]["points"], s))}
    out["levels"] = {str(k): levels[k] for k in sorted(levels)}
    out["types"] = {k: types[k] for k in sorted(types, key=lambda t: (-types[t], t))}
    return out


def render_show(book: Spellbook, width: int = 100) -> str:
    """`magewars book show`: rich tables of the book."""
    from rich.console import Console
    from rich.table import Table

    s = summary(book)
    buf = io.StringIO()
    con = Console(file=buf, width=width, force_terminal=False, color_system=None, highlight=False)
    pts = "?" if s["points"] is None else s["points"]
    con.print(f"{book.path}: {s['mage'] or '(no Mage)'} ({s['stats'] or 'no stats card'}) — "
              f"{s['spells']} spells, {pts} of {s['limit'] if s['limit'] is not None else '?'} spellbook points")
    t = Table(title="Points per school", title_justify="left")
    t.add_column("school")
    t.add_column("spells", justify="right")
    t.add_column("points", justify="right")
    for school, row in s["schools"].items():
        t.add_row(school, str(row["copies"]), str(row["points"]))
    con.print(t)
    t = Table(title="Level curve", title_justify="left")
    t.add_column("level", justify="right")
    t.add_column("spells", justify="right")
    t.add_column("")
    for lv, n in s["levels"].items():
        t.add_row(lv, str(n), "#" * min(n, 60))
    con.print(t)
    t = Table(title="Spell types", title_justify="left")
    t.add_column("type")
    t.add_column("spells", justify="right")
    for kind, n in s["types"].items():
        t.add_row(kind, str(n))
    con.print(t)
    t = Table(title="Spells", title_justify="left")
    for col, just in (("n", "right"), ("spell", "left"), ("type", "left"), ("schools", "left"),
                      ("points", "right")):
        t.add_column(col, justify=just)
    for row in sorted(s["cards"], key=lambda r: (r["type"], r["name"])):
        sch = f" {row['join']} ".join(f"{a} {b}" for a, b in row["schools"]) if row["join"] != "single" \
            else " ".join(f"{a} {b}" for a, b in row["schools"])
        t.add_row(str(row["count"]), row["name"], row["type"], sch,
                  "?" if row["points"] is None else str(row["points"]))
    con.print(t)
    return buf.getvalue().rstrip("\n")


def to_text(book: Spellbook, title: Optional[str] = None) -> str:
    """The book in the plain text format (docs/spellbooks.md), spells grouped by type."""
    lines = []
    if title:
        lines += [f"# {line}" if line else "#" for line in title.splitlines()]
    lines.append(f"mage: {book.mage.name if book.mage else '?'}")
    if book.stats is not None and (book.mage is None or stats_for(book.corpus, book.mage) is not book.stats):
        lines.append(f"stats: {book.stats.name}")
    by_kind: dict[str, list] = defaultdict(list)
    for e in book.entries:
        if e.card is not None:
            by_kind[e.card.kind].append(e)
    for kind in sorted(by_kind):
        lines += ["", f"# {kind}"]
        lines += [f"{e.count} {e.card.name}" for e in sorted(by_kind[kind], key=lambda e: e.card.name)]
    return "\n".join(lines) + "\n"
