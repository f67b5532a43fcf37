"""Pages shared by `magewars lookup` and `magewars card`: rules entries, cards, and the link between them."""
from __future__ import annotations

import re
import textwrap
from typing import Optional

from .corpusstore import printings, terms
from .dsl import ast as A
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
    if key not in corpus.codex:  # "Holy Mage Only": the entry that takes a name before its own
        key = next((e.name for e in corpus.codex.values()
                    if e.param == "name" and key.endswith(" " + e.name)), key)
    entry = corpus.codex.get(key)
    zone_entry = entry is not None and any(
        isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name == "attack_zone"
        for ab in entry.abilities)
    # each card's codex keys and zone attacks, summarised once (stored with the corpus: corpusstore.py)
    return sorted(name for name, keys, zone in terms(corpus) if key in keys or (zone_entry and zone))


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
    names = printings(corpus)
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


# ---------------------------------------------------------------- search inside entries and cards
SEARCH_LIMIT = 25


def _documents(corpus: Corpus):
    """(name, category, rule, text) for every rules entry, rules section and card (card text is
    generated from its definition, then its clarifications and errata)."""
    book = load_rules()
    for e in book.entries:
        if e.category == "card" and e.name in corpus.cards:
            continue  # searched with the card's own text below
        parts = [e.summary, e.rules, *(n.text for n in e.errata), *(n.text for n in e.clarifications)]
        yield e.name, e.category, e.rule, "\n".join(p for p in parts if p)
    for s in book.sections:
        yield f"{s.number} {s.title}", "rule", s.number, s.text
    for c in corpus.cards.values():
        notes = card_notes(c.name)
        extra = [n["text"] for n in notes["clarifications"] + notes["errata_notes"]]
        yield c.name, "card", "", "\n".join([render_card(c, corpus), *extra])


def _snippet(text: str, words: list[str], width: int = 100) -> str:
    """The line of text where the first word occurs, cut around it."""
    low = text.lower()
    at = min((low.find(w) for w in words if low.find(w) >= 0), default=0)
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    line = " ".join(text[start:end if end >= 0 else len(text)].split())
    if len(line) > width:
        pos = max(line.lower().find(words[0]), 0)
        a = max(0, pos - width // 3)
        line = ("…" if a else "") + line[a:a + width] + "…"
    return line


def search_page(query: str, corpus: Corpus) -> tuple[str, dict, int]:
    """(text, json, exit code) for `magewars lookup --search TEXT`: every entry, rules section and
    card whose text contains all the words of the query (case-insensitive); names first."""
    words = [w for w in query.lower().split() if w]
    if not words:
        return "nothing to search for", {"query": query, "kind": "search", "results": []}, 1
    hits = []
    for name, category, rule, text in _documents(corpus):
        hay = (name + "\n" + text).lower()
        if all(w in hay for w in words):
            phrase = " ".join(words) in " ".join(hay.split())
            in_name = sum(w in name.lower() for w in words)
            count = sum(hay.count(w) for w in words)
            hits.append((-(phrase * 100 + in_name), -count, name, category, rule, text))
    hits.sort(key=lambda h: (h[0], h[1], h[2].lower()))
    results = [{"name": n, "category": c, "rule": r or None, "snippet": _snippet(t, words)}
               for _, _, n, c, r, t in hits]
    data = {"query": query, "kind": "search", "total": len(results), "results": results[:SEARCH_LIMIT]}
    if not results:
        return f"no entry, rule or card contains '{query}'", data, 1
    lines = [f"{len(results)} match(es) for '{query}'" + (f"; the first {SEARCH_LIMIT}:" if len(results) > SEARCH_LIMIT else ":")]
    for r in results[:SEARCH_LIMIT]:
        rule = f"  (rule {r['rule']})" if r["rule"] and not r["name"].startswith(r["rule"] + " ") else ""
        lines += ["", f"{r['name']}  [{r['category']}]{rule}", f"    {r['snippet']}"]
    return "\n".join(lines) + "\n", data, 0
