"""Gather everything the web codex shows into plain page records.

Sources: the compiled corpus (cards and codex definitions), the rules content read through
`magewars.lookup.load_rules()` (terms, numbered rules, card notes) and, when a source checkout is at
hand, the scenario files that exercise cards.  Nothing here writes HTML; the templates do that.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import yaml

from ..dsl.ast import Span
from ..dsl.diagnostics import Diagnostic
from ..dsl.model import CardDefinition, CodexDefinition, Corpus
from ..lookup import Entry, load_rules
from ..lookup.book import RulesBook
from ..lookup.loader import slug
from ..pages import cards_with_term
from ..resources import data_dir

_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: the same safe subset, faster
TERM_CATEGORIES = ("trait", "condition", "term", "ability", "rule")
CATEGORY_LABEL = {"trait": "Trait", "condition": "Condition", "term": "Game term", "ability": "Mage ability",
                  "rule": "Rules topic", "keyword": "Keyword", "card": "Card"}
CATEGORY_PLURAL = {"trait": "Traits", "condition": "Conditions", "term": "Game terms", "ability": "Mage abilities",
                   "rule": "Rules topics", "keyword": "Keywords", "card": "Cards"}
_ITEM = re.compile(r"^(\s*)(?:- |\* |(\d+)[.)] )")


# ------------------------------------------------------------------ authored text -> blocks
def text_blocks(text: str) -> list[dict]:
    """Authored rules text as blocks: paragraphs, bullet or numbered lists and "|" tables.

    The same layout rules as the terminal renderer: lines of a paragraph join up, "- " and "1." start
    list items, a run of "|" lines is a table whose first row is the header.
    """
    blocks: list[dict] = []
    para: list[str] = []

    def flush_para():
        if para:
            blocks.append({"kind": "p", "text": " ".join(para)})
            para.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            flush_para()
            blocks.append({"kind": "break"})
            continue
        if line.startswith("|"):
            flush_para()
            cells = [c.strip() for c in line.strip("|").split("|")]
            if blocks and blocks[-1]["kind"] == "table":
                blocks[-1]["rows"].append(cells)
            else:
                blocks.append({"kind": "table", "head": cells, "rows": []})
            continue
        m = _ITEM.match(raw)
        if m:
            flush_para()
            kind = "ol" if m.group(2) else "ul"
            body = raw[m.end():].strip()
            if blocks and blocks[-1]["kind"] == kind:
                blocks[-1]["items"].append(body)
            else:
                blocks.append({"kind": kind, "items": [body]})
            continue
        if blocks and blocks[-1]["kind"] in ("ul", "ol") and not para and raw.startswith((" ", "\t")):
            blocks[-1]["items"][-1] += " " + line  # continuation of a list item
            continue
        para.append(line)
    flush_para()
    return [b for b in blocks if b["kind"] != "break"]


# ------------------------------------------------------------------ records
@dataclass
class Link:
    label: str
    url: str  # relative to the site root ("" when the target has no page)


@dataclass
class Ruling:
    id: str
    kind: str  # clarification | erratum
    text: str
    cite: str
    about: Entry
    about_url: str
    cards: list[str] = field(default_factory=list)  # card names the note mentions

    @property
    def source(self) -> str:
        """The part of the supplement it comes from ("Supplement 2016, Spells")."""
        return self.cite.split(":")[0].strip() if self.cite else "No citation"


@dataclass
class Scenario:
    file: str
    name: str
    cite: str
    cards: list[str]


@dataclass
class TermPage:
    id: str
    name: str
    category: str
    entry: Optional[Entry]
    codex: list[CodexDefinition]
    carriers: list[str]
    rulings: list[Ruling] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"terms/{self.id}.html"


@dataclass
class Site:
    corpus: Corpus
    book: RulesBook
    cards: dict[str, str]  # card name -> url
    note_cards: dict[str, Entry]  # card notes for cards the corpus does not state yet
    terms: list[TermPage]
    term_by_codex: dict[str, TermPage]
    rulings: list[Ruling]
    rulings_by_card: dict[str, list[Ruling]]
    scenarios: list[Scenario]
    scenarios_by_card: dict[str, list[Scenario]]
    warnings: list[Diagnostic]
    repo_root: Optional[Path]

    # -------------------------------------------------------------- link resolution
    def entry_url(self, e: Entry) -> str:
        if e.category == "card":
            return self.cards.get(e.name, "")
        return f"terms/{e.id}.html"

    def see_also(self, ref: str, where: str) -> Link:
        """A see-also reference (entry id, entry name or rule number) as a link; unknown ones warn."""
        if ref in self.book.section_map:
            s = self.book.section_map[ref]
            return Link(f"{s.number} {s.title}", f"rules/{s.number}.html")
        e = self.book.get(ref)
        if e is not None and self.entry_url(e):
            return Link(e.name, self.entry_url(e))
        if ref in self.cards:
            return Link(ref, self.cards[ref])
        self.warnings.append(_warn(f"{where}: see-also {ref!r} names no entry, card or rule", code="W902"))
        return Link(ref, "")

    def trait_url(self, key: str) -> str:
        page = self.term_by_codex.get(key)
        return page.url if page else ""

    def source_of(self, c: CardDefinition) -> str:
        path = Path(c.span.path)
        if self.repo_root is not None:
            try:
                path = path.resolve().relative_to(self.repo_root)
            except ValueError:
                pass
        return f"{path.as_posix()}:{c.span.line}"


def _warn(message: str, path: str = "<site>", line: int = 1, col: int = 1, code: str = "W901") -> Diagnostic:
    return Diagnostic(code=code, message=message, span=Span(path, line, col, line, col), severity="warning")


def unique_slug(name: str, taken: set[str]) -> str:
    base = slug(name) or "page"
    s, n = base, 2
    while s in taken:
        s, n = f"{base}-{n}", n + 1
    taken.add(s)
    return s


def _codex_entry(book: RulesBook, d: CodexDefinition) -> Optional[Entry]:
    for label in (d.display, d.name):
        e = book.get(label)
        if e is not None and e.category in TERM_CATEGORIES:
            return e
    res = book.lookup(d.name)
    if res.kind in ("exact", "alias") and len(res.entries) == 1 and res.entries[0].category in TERM_CATEGORIES:
        return res.entries[0]
    return None


def _scenario_cards(node) -> list[str]:
    """Every `card:` name in a scenario's tree.  Each mapping or list is visited once: YAML aliases share
    one node, so a file of nested aliases (the "billion laughs") is walked in time bounded by its size."""
    out: list[str] = []
    seen: set[int] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if not isinstance(n, (dict, list)) or id(n) in seen:
            continue
        seen.add(id(n))
        if isinstance(n, dict):
            for k, v in n.items():
                if k == "card" and isinstance(v, str):
                    out.append(v)
                else:
                    stack.append(v)
        else:
            stack.extend(n)
    return out


def load_scenarios(folder: Path, warnings: list[Diagnostic]) -> list[Scenario]:
    out = []
    from ..limits import MAX_SCENARIO_BYTES, LimitError, read_bounded
    for path in sorted(folder.glob("*.yaml")):
        try:  # (a device or pipe is refused before it is read; a file is read up to the scenario bound)
            raw = yaml.load(read_bounded(path, MAX_SCENARIO_BYTES), Loader=_SAFE_LOADER)
        except (LimitError, OSError, UnicodeDecodeError) as exc:
            warnings.append(_warn(f"scenario not read: {getattr(exc, 'strerror', None) or exc}", str(path)))
            continue
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            warnings.append(_warn(f"scenario is not valid YAML: {getattr(exc, 'problem', exc)}", str(path),
                                  (mark.line + 1) if mark else 1, (mark.column + 1) if mark else 1))
            continue
        if not isinstance(raw, dict):
            warnings.append(_warn("scenario is not a mapping", str(path)))
            continue
        out.append(Scenario(file=path.name, name=str(raw.get("name") or path.stem), cite=str(raw.get("cite") or ""),
                            cards=sorted(set(_scenario_cards(raw.get("objects", [])))
                                         | set(_scenario_cards(raw.get("actions", []))))))
    return out


def _source_root() -> Optional[Path]:
    """The folder that holds spells/ (a checkout's top level, or the wheel's _data), for short source paths."""
    try:
        return data_dir("spells").resolve().parent
    except FileNotFoundError:
        return None


def default_scenarios_dir() -> Optional[Path]:
    """tests/scenarios of a source checkout, when the package runs from one."""
    here = Path(__file__).resolve().parents[2] / "tests" / "scenarios"
    return here if here.is_dir() else None


def collect(corpus: Corpus, scenarios_dir: Optional[Path] = None) -> Site:
    book = load_rules()
    warnings: list[Diagnostic] = []
    taken: set[str] = set()
    cards = {name: f"cards/{unique_slug(name, taken)}.html" for name in sorted(corpus.cards)}
    note_cards = {}
    for e in book.entries:
        if e.category == "card" and e.name not in corpus.cards:
            note_cards[e.name] = e
            cards[e.name] = f"cards/{unique_slug(e.name, taken)}.html"

    # term pages: every non-card entry, joined with the codex definitions it describes
    pages: dict[str, TermPage] = {}
    for e in book.entries:
        if e.category in TERM_CATEGORIES:
            pages[e.id] = TermPage(id=e.id, name=e.name, category=e.category, entry=e, codex=[], carriers=[])
    term_by_codex: dict[str, TermPage] = {}
    for d in sorted(corpus.codex.values(), key=lambda d: d.name):
        e = _codex_entry(book, d)
        if e is not None:
            page = pages[e.id]
        else:  # a codex definition the rules content does not describe: its page comes from the DSL alone
            pid = "codex-" + slug(d.name)
            page = pages.setdefault(pid, TermPage(id=pid, name=d.display, category=d.kind, entry=None,
                                                  codex=[], carriers=[]))
        page.codex.append(d)
        term_by_codex[d.name] = page
    for page in pages.values():
        found: set[str] = set()
        if page.entry is not None and page.entry.category in ("trait", "condition"):
            found.update(cards_with_term(corpus, page.entry.name))
        for d in page.codex:
            found.update(cards_with_term(corpus, d.name))
        page.carriers = sorted(found)

    site = Site(corpus=corpus, book=book, cards=cards, note_cards=note_cards,
                terms=sorted(pages.values(), key=lambda p: p.name.lower()), term_by_codex=term_by_codex,
                rulings=[], rulings_by_card=defaultdict(list), scenarios=[], scenarios_by_card=defaultdict(list),
                warnings=warnings, repo_root=_source_root())

    # rulings: every clarification and erratum in the rules content, one page each
    names = sorted(cards, key=len, reverse=True)
    lowered = [(n, n.lower()) for n in names]
    for e in book.entries:
        url = site.entry_url(e)
        for kind, notes in (("erratum", e.errata), ("clarification", e.clarifications)):
            for i, n in enumerate(notes, 1):
                rid = f"{e.id}-{'e' if kind == 'erratum' else 'c'}{i}"
                text = n.text.lower()
                named = {name for name, low in lowered if low in text}
                if e.category == "card":
                    named.add(e.name)
                r = Ruling(id=rid, kind=kind, text=n.text, cite=n.cite, about=e, about_url=url, cards=sorted(named))
                site.rulings.append(r)
                for name in r.cards:
                    site.rulings_by_card[name].append(r)
                if e.id in pages:
                    pages[e.id].rulings.append(r)

    folder = scenarios_dir if scenarios_dir is not None else default_scenarios_dir()
    if folder is not None:
        site.scenarios = load_scenarios(folder, warnings)
        for s in site.scenarios:
            for name in s.cards:
                if name in cards:
                    site.scenarios_by_card[name].append(s)
    return site
