"""Plain-text and JSON rendering of entries and of the numbered rules document."""
from __future__ import annotations

import re
import textwrap

from .model import Entry, Note, Section


WIDTH = 88


_ITEM = re.compile(r"^(\s*)(- |\* |\d+[.)] )")


def _wrap_block(text: str, indent: str = "") -> str:
    """Reflow authored text: lines of a paragraph or list item are joined and re-wrapped to WIDTH.
    New items start at blank lines, "- " bullets and "1." numbered items; "|" table rows are kept."""
    out: list[str] = []
    item: list[str] = []
    hang = ""

    def flush():
        nonlocal item
        if item:
            body = " ".join(item)
            out.append(textwrap.fill(body, width=WIDTH, initial_indent=indent,
                                     subsequent_indent=indent + hang,
                                     break_long_words=False, break_on_hyphens=False))
        item = []

    for line in text.splitlines():
        if not line.strip():
            flush()
            out.append("")
        elif line.lstrip().startswith("|"):
            flush()
            out.append(indent + line.strip())
        elif _ITEM.match(line):
            flush()
            m = _ITEM.match(line)
            hang = " " * (len(m.group(1)) + len(m.group(2)))
            item = [line.rstrip()]
        else:
            if not item:
                hang = ""
            item.append(line.strip())
    flush()
    return "\n".join(out)


def _notes_text(title: str, notes: tuple[Note, ...]) -> list[str]:
    if not notes:
        return []
    lines = [f"{title}:"]
    for n in notes:
        body = n.text + (f" [{n.cite}]" if n.cite else "")
        lines.append(textwrap.fill(body, width=WIDTH, initial_indent="  - ", subsequent_indent="    "))
    return lines


def render_text(entry: Entry | Section) -> str:
    """A human-readable card for one entry (a Section is rendered as its rule entry)."""
    if isinstance(entry, Section):
        entry = entry.as_entry()
    head = f"{entry.name}  [{entry.category}]"
    is_section = entry.category == "rule" and entry.name.startswith(entry.rule + " ")
    if entry.rule and not is_section:
        head += f"  (rule {entry.rule})"
    lines = [head]
    if entry.aliases:
        lines.append("Also: " + ", ".join(entry.aliases))
    if entry.summary and not is_section:
        lines.append(textwrap.fill(entry.summary, width=WIDTH))
    if entry.rules:
        lines += ["", _wrap_block(entry.rules)]
    if entry.card_id:
        lines.append(f"Card id: {entry.card_id}")
    # errata first: where the supplement gives current text it overrides the printed card
    for title, notes in (("Errata", entry.errata), ("Clarifications", entry.clarifications)):
        block = _notes_text(title, notes)
        if block:
            lines += [""] + block
    if entry.see_also:
        lines += ["", "See also: " + ", ".join(entry.see_also)]
    return "\n".join(lines).rstrip() + "\n"


def to_json(entry: Entry | Section) -> dict:
    """A JSON-serialisable dict for one entry (or section)."""
    if isinstance(entry, Section):
        return {"number": entry.number, "title": entry.title, "text": entry.text,
                "see_also": list(entry.see_also), "category": "rule"}
    data = {
        "id": entry.id,
        "name": entry.name,
        "category": entry.category,
        "aliases": list(entry.aliases),
        "rule": entry.rule or None,
        "summary": entry.summary,
        "rules": entry.rules,
        "clarifications": [{"text": n.text, "cite": n.cite} for n in entry.clarifications],
        "errata": [{"text": n.text, "cite": n.cite} for n in entry.errata],
        "see_also": list(entry.see_also),
    }
    if entry.card_id:
        data["card_id"] = entry.card_id
    return data


def render_section(section: Section) -> str:
    indent = "    " * (section.depth - 1)
    num = section.number + ("." if section.depth == 1 else "")
    head = f"{indent}{num} {section.title}"
    parts = [head]
    if section.text:
        parts.append(_wrap_block(section.text, indent=indent + "    "))
    if section.see_also:
        parts.append(f"{indent}    See also: " + ", ".join(section.see_also))
    return "\n".join(parts)


def render_rules_doc(book, section: str | None = None) -> str:  # book: lookup.book.RulesBook
    """The whole numbered document, or one section with all its subsections."""
    if section is None:
        chosen = book.sections
    else:
        key = section.strip().rstrip(".")
        if key not in book.section_map:
            raise KeyError(f"no rule section {section!r}")
        chosen = [s for s in book.sections if s.number == key or s.number.startswith(key + ".")]
    blocks = []
    for s in chosen:
        if s.depth == 1 and blocks:
            blocks.append("")
        blocks.append(render_section(s))
    return "\n".join(blocks).rstrip() + "\n"
