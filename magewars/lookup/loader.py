"""Load the YAML rules content shipped in magewars/data/rules/.

Files:
  rules.yaml      the numbered rules document: a list of {number, title, text, see_also, cite}
  cards.yaml      card clarifications and errata: a mapping keyed by the exact card name
  any other *.yaml a list of entries (see docs/rules.md for the schema)
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterable

from ..cache import load_yaml  # yaml itself is imported only when a file is not in the cache
from .model import CATEGORIES, Entry, Note, Section

RULES_FILE = "rules.yaml"
CARDS_FILE = "cards.yaml"
ENTRY_KEYS = {"id", "name", "category", "aliases", "rule", "summary", "rules", "clarifications",
              "errata", "see_also", "card_id"}
SECTION_KEYS = {"number", "title", "text", "see_also", "cite"}
NUMBER_RE = re.compile(r"^\d+(\.\d+)*$")


class RulesDataError(ValueError):
    """The rules content is malformed (bad schema, duplicate ids or numbers)."""


def slug(text: str) -> str:
    text = text.lower().replace("’", "'").replace("'", "")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def data_dir() -> Path:
    """The rules data directory, inside the package (a wheel installs it as files, like the
    shipped parse tables: magewars/resources.py).  A plain path: importlib.resources cost a read
    command more than reading the files."""
    return Path(__file__).resolve().parent.parent / "data" / "rules"


def _read_yaml_files(root) -> list[tuple[str, Any]]:
    out = []
    for item in sorted(root.iterdir(), key=lambda p: p.name):
        if item.name.endswith((".yaml", ".yml")) and item.is_file():
            try:
                out.append((item.name, load_yaml(item.read_text(encoding="utf-8"))))
            except Exception as exc:  # pragma: no cover - reported with file name
                import yaml
                if isinstance(exc, yaml.YAMLError):
                    raise RulesDataError(f"{item.name}: invalid YAML: {exc}") from exc
                raise
    return out


def _notes(raw: Any, where: str) -> tuple[Note, ...]:
    if raw in (None, []):
        return ()
    if not isinstance(raw, list):
        raise RulesDataError(f"{where}: expected a list of {{text, cite}}")
    notes = []
    for item in raw:
        if isinstance(item, str):
            notes.append(Note(text=item.strip()))
        elif isinstance(item, dict) and "text" in item:
            notes.append(Note(text=str(item["text"]).strip(), cite=str(item.get("cite") or "")))
        else:
            raise RulesDataError(f"{where}: bad note {item!r}")
    return tuple(notes)


def _str_tuple(raw: Any, where: str) -> tuple[str, ...]:
    if raw in (None, ""):
        return ()
    if isinstance(raw, str):
        return (raw,)
    if not isinstance(raw, list):
        raise RulesDataError(f"{where}: expected a list")
    return tuple(str(x) for x in raw)


def _entry(raw: dict, source: str, default_category: str | None = None) -> Entry:
    where = f"{source}: {raw.get('id') or raw.get('name')!r}"
    unknown = set(raw) - ENTRY_KEYS
    if unknown:
        raise RulesDataError(f"{where}: unknown keys {sorted(unknown)}")
    name = raw.get("name")
    if not name:
        raise RulesDataError(f"{where}: missing name")
    category = raw.get("category") or default_category
    if category not in CATEGORIES:
        raise RulesDataError(f"{where}: category must be one of {CATEGORIES}, not {category!r}")
    rule = str(raw.get("rule") or "")
    if rule and not NUMBER_RE.match(rule):
        raise RulesDataError(f"{where}: rule {rule!r} is not a section number")
    return Entry(
        id=str(raw.get("id") or slug(name)),
        name=str(name),
        category=category,
        aliases=_str_tuple(raw.get("aliases"), where),
        rule=rule,
        summary=str(raw.get("summary") or "").strip(),
        rules=str(raw.get("rules") or "").strip(),
        clarifications=_notes(raw.get("clarifications"), where),
        errata=_notes(raw.get("errata"), where),
        see_also=_str_tuple(raw.get("see_also"), where),
        card_id=str(raw.get("card_id") or ""),
        source=source,
    )


def _sections(raw: Any) -> list[Section]:
    if not isinstance(raw, list):
        raise RulesDataError(f"{RULES_FILE}: expected a list of sections")
    out = []
    for item in raw:
        if not isinstance(item, dict):
            raise RulesDataError(f"{RULES_FILE}: bad section {item!r}")
        unknown = set(item) - SECTION_KEYS
        if unknown:
            raise RulesDataError(f"{RULES_FILE}: section {item.get('number')}: unknown keys {sorted(unknown)}")
        number = str(item.get("number", ""))
        if not NUMBER_RE.match(number):
            raise RulesDataError(f"{RULES_FILE}: bad section number {number!r} (quote numbers like \"1.10\")")
        out.append(Section(number=number, title=str(item.get("title") or "").strip(),
                           text=str(item.get("text") or "").strip(),
                           see_also=_str_tuple(item.get("see_also"), number),
                           cite=str(item.get("cite") or "")))
    return out


def load_data(root=None) -> tuple[list[Entry], list[Section]]:
    """Read and validate every YAML file under root (default: the packaged data directory)."""
    root = data_dir() if root is None else (Path(root) if isinstance(root, str) else root)
    entries: list[Entry] = []
    sections: list[Section] = []
    for name, raw in _read_yaml_files(root):
        if name == RULES_FILE:
            sections.extend(_sections(raw))
        elif name == CARDS_FILE:
            if not isinstance(raw, dict):
                raise RulesDataError(f"{CARDS_FILE}: expected a mapping keyed by card name")
            for card_name, body in raw.items():
                body = dict(body or {})
                body.setdefault("name", card_name)
                if body["name"] != card_name:
                    raise RulesDataError(f"{CARDS_FILE}: {card_name!r} has a different name field")
                body.setdefault("id", "card-" + slug(card_name))
                entries.append(_entry(body, name, default_category="card"))
        elif raw is not None:
            if not isinstance(raw, list):
                raise RulesDataError(f"{name}: expected a list of entries")
            entries.extend(_entry(item, name) for item in raw)
    _validate(entries, sections)
    return entries, sections


def _dupes(values: Iterable[str]) -> list[str]:
    seen, dup = set(), []
    for v in values:
        if v in seen:
            dup.append(v)
        seen.add(v)
    return dup


def _validate(entries: list[Entry], sections: list[Section]) -> None:
    dup = _dupes(e.id for e in entries)
    if dup:
        raise RulesDataError(f"duplicate entry ids: {dup}")
    dup = _dupes(s.number for s in sections)
    if dup:
        raise RulesDataError(f"duplicate rule numbers: {dup}")
    numbers = {s.number for s in sections}
    for s in sections:
        if s.parent and s.parent not in numbers:
            raise RulesDataError(f"section {s.number} has no parent section {s.parent}")
