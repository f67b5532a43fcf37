"""Pages shared by `magewars lookup` and `magewars card`: rules entries, cards, and the link between them."""
from __future__ import annotations

import re
import textwrap
from typing import Optional

from .dsl.model import CardDefinition, Corpus
from .lookup import load_rules, render_text, to_json
from .render import render_card, card_to_json

_PARAM = re.compile(r"\s*(\+/-\s*X|[+-]?X)$")


def card_notes(name: str) -> dict:
    """Clarifications and errata for a card, from the rules content."""
    book = load_rules()
    entry = book.get(name)
    if entry is None or entry.category != "card":
        return {"clarifications": [], "errata_notes": []}
    return {"clarifications": [{"text": n.text, "cite": n.cite} for n in entry.clarifications],
            "errata_notes": [{"text": n.text, "cite": n.cite} for n in entry.errata]}


def notes_text(notes: dict) -> str:
    out = []
    for title, key in (("Clarifications", "clarifications"), ("Errata", "errata_notes")):
        if notes.get(key):
            out.append(f"\n{title}:")
            for n in notes[key]:
                out.append(f"  - {n['text']}" + (f" ({n['cite']})" if n["cite"] else ""))
    return "\n".join(out)


def cards_with_term(corpus: Corpus, term: str) -> list[str]:
    """Cards that carry a trait or condition: on the card, its attacks, or its effect-die outcomes."""
    key = _PARAM.sub("", term).strip()
    if key.endswith(" Only"):
        key = "Only"
    hits = []
    for c in corpus.cards.values():
        found = any(t.key == key for t in c.traits)
        for a in c.attacks:
            found = found or any(t.key == key for t in a.traits)
            found = found or any(t.key == key for g in a.alternatives for t in g)
            found = found or any(k == key for r in a.effect_die for k, _ in r.outcomes)
            found = found or (key == "Zone Attack" and a.is_zone)
        if found:
            hits.append(c.name)
    return sorted(hits)


def _entry_page(e, corpus: Corpus) -> tuple[str, dict]:
    """Text and JSON record for one entry of a lookup result."""
    card: Optional[CardDefinition] = corpus.cards.get(e.name) if e.category == "card" else None
    if card is not None:
        notes = card_notes(card.name)
        rec = card_to_json(card)
        rec.update(notes)
        rec["category"] = "card"
        return render_card(card, corpus) + notes_text(notes), rec
    text = render_text(e)
    rec = to_json(e)
    book = load_rules()
    if e.category == "rule" and e.rule in book.section_map and not e.rules:
        # a rules topic: show the numbered section it summarises, with its subsections
        text = text.rstrip("\n") + "\n\n" + book.render_rules(e.rule)
    elif e.category == "rule" and e.rule in book.section_map and book.children(e.rule):
        text = book.render_rules(e.rule)  # a section: with its subsections (5.2 lists its steps)
        rec["subsections"] = [{"number": c.number, "title": c.title} for c in book.children(e.rule)]
    if e.category in ("trait", "condition"):
        carriers = cards_with_term(corpus, e.name)
        rec["cards"] = carriers
        if carriers:
            shown = "; ".join(carriers[:25]) + (f" and {len(carriers) - 25} more" if len(carriers) > 25 else "")
            text = text.rstrip("\n") + f"\n\nCards with {e.name} ({len(carriers)}): {shown}"
    return text, rec


def lookup_page(query: str, corpus: Corpus) -> tuple[str, dict, int]:
    """(text, json, exit code) for a lookup query."""
    names = {c.name: next((cid for _, cid in c.printings if cid), "") or c.name for c in corpus.cards.values()}
    res = load_rules().lookup(query, names)
    if res.kind == "none":
        msg = f"nothing matches '{query}'."
        if res.candidates:
            msg += " Did you mean: " + ", ".join(res.candidates[:8]) + "?"
        msg += "\nTry a trait (aegis), a condition (burn), a rule number (5.2), a card name, a question " \
               "(\"guard vs flying\") or `magewars lookup --search TEXT`."
        return msg, {"query": query, "kind": "none", "candidates": list(res.candidates)}, 1
    if res.kind == "ambiguous":
        labels = [e.name for e in res.entries] or list(res.candidates)
        text = f"'{query}' could mean:\n" + "\n".join(f"  {n}" for n in labels)
        return text, {"query": query, "kind": "ambiguous", "candidates": labels}, 0
    texts, records = [], []
    for e in res.entries:
        text, rec = _entry_page(e, corpus)
        texts.append(text)
        records.append(rec)
    data = {"query": query, "kind": res.kind, "entries": records}
    if res.kind == "question":
        named = " and ".join(e.name for e in res.entries)
        data["together"] = [{"entry": owner, "text": n.text, "cite": n.cite} for owner, n in res.together]
        if res.together:
            lines = [f"Rulings that mention {named} together:"]
            for owner, n in res.together:
                body = f"({owner}) {n.text}" + (f" [{n.cite}]" if n.cite else "")
                lines.append(textwrap.fill(body, width=88, initial_indent="  - ", subsequent_indent="    "))
            texts.append("\n".join(lines))
        elif len(res.entries) > 1:
            texts.append(f"No ruling mentions {named} together; each entry is shown above.")
    return "\n\n".join(t.rstrip("\n") for t in texts) + "\n", data, 0
