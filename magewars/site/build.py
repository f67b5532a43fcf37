"""Render the web codex: Jinja2 templates over the records from :mod:`magewars.site.collect`, then a
Pagefind search index over the written pages."""
from __future__ import annotations

import re
import shutil
import subprocess
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Optional

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from .. import render as R
from ..dsl import printer
from ..dsl.vocab import STAT_WORDS
from ..dsl.model import AttackDefinition, CardDefinition, Corpus
from ..lookup.loader import slug
from .collect import CATEGORY_LABEL, CATEGORY_PLURAL, Site, collect, text_blocks


class SiteError(Exception):
    """The site could not be built (output folder, search indexer)."""


@dataclass
class BuildReport:
    out: Path
    pages: int = 0
    bytes: int = 0
    seconds: float = 0.0
    search_seconds: float = 0.0
    counts: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)
    indexed: Optional[int] = None  # pages Pagefind indexed (None: search skipped)
    site: Optional[Site] = None  # the records the pages were rendered from


# ------------------------------------------------------------------ view helpers
def _amount(v) -> str:
    return "" if v is None else printer.amount(v)


def _kind_label(kind: str) -> str:
    return R.KIND_LABEL.get(kind, kind.capitalize())


def _trait_links(site: Site, traits) -> list[dict]:
    return [{"label": str(t), "url": site.trait_url(t.key)} for t in traits]


def attack_view(site: Site, a: AttackDefinition) -> dict:
    bits = []
    if a.action:
        bits.append(("Action", a.action.capitalize()))
    if a.kind:
        bits.append(("Kind", a.kind.capitalize() + (" zone attack" if a.is_zone else "")))
    elif a.is_zone:
        bits.append(("Kind", "Zone attack"))
    special = [s.capitalize() for s in a.special if s != "zone"]
    if special:
        bits.append(("Special", ", ".join(special)))
    if a.range:
        bits.append(("Range", f"{a.range[0]}-{a.range[1]}"))
    if a.damage_type:
        bits.append(("Damage type", a.damage_type))
    if a.dice is not None:
        bits.append(("Dice", _amount(a.dice)))
    if a.cost is not None:
        bits.append(("Mana cost", _amount(a.cost)))
    rows = []
    for r in a.effect_die:
        rng = f"{r.low}-{r.high}" if r.high is not None else f"{r.low}+"
        if r.high == r.low:
            rng = str(r.low)
        rows.append({"roll": rng, "outcomes": [{"label": (f"{n} {k}" if n > 1 else k), "url": site.trait_url(k)}
                                               for k, n in r.outcomes]})
    return {"name": a.name, "bits": bits, "effect_die": rows, "traits": _trait_links(site, a.traits),
            "alternatives": [_trait_links(site, g) for g in a.alternatives],
            "abilities": [R.ability_text(ab) for ab in a.abilities],
            "unsupported": [u.clause or u.reason for u in a.unsupported]}


def card_facts(c: CardDefinition) -> list[tuple[str, str]]:
    facts = [("Type", _kind_label(c.kind) + (f" — {', '.join(c.subtypes)}" if c.subtypes else ""))]
    if c.schools:
        facts.append(("School", f"{R.school_text(c)} (level {c.level})"))
    if c.cast_cost is not None:
        facts.append(("Casting cost", _amount(c.cast_cost)))
    if c.reveal_cost is not None:
        facts.append(("Reveal cost", _amount(c.reveal_cost)))
    if c.action:
        facts.append(("Cast as", f"{c.action} action"))
    if c.range:
        facts.append(("Range", f"{c.range[0]}-{c.range[1]}"))
    if c.targets:
        facts.append(("Targets" if c.target_join == "and" else "Target", f" {c.target_join} ".join(c.targets)))
    stats = [(w.capitalize(), getattr(c, w)) for w in STAT_WORDS[:3]]  # the language's stat words
    for label, v in stats + [("Spellbook points", c.spellbook), ("Starting mana", c.starting_mana)]:
        if v is not None:
            facts.append((label, _amount(v)))
    for d in c.defenses:
        uses = "any number of times" if d.uses is None else f"{d.uses} per round"
        facts.append(("Defense", f"{d.roll}+, {uses}" + (f", not against {d.limit} attacks" if d.limit else "")))
    if c.slot:
        facts.append(("Slot", f" {c.slot_join} ".join(c.slot) if c.slot_join != "single" else c.slot[0]))
    if c.training:
        facts.append(("Training", ", ".join(c.training)))
    if c.school_costs:
        facts.append(("Spellbook cost per level", ", ".join(f"{s} ×{n}" for s, n in c.school_costs)))
    return facts


def _schools(c: CardDefinition) -> list[str]:
    return [s for s, _ in c.schools]


def _sets(c: CardDefinition) -> list[str]:
    return sorted({s for s, _ in c.printings})


def card_row(site: Site, c: CardDefinition) -> dict:
    keys = sorted({t.key for t in c.traits} | {t.key for a in c.attacks for t in a.traits})
    return {"name": c.name, "url": site.cards[c.name], "kind": c.kind, "kind_label": _kind_label(c.kind),
            "subtypes": ", ".join(c.subtypes), "school": R.school_text(c), "level": c.level,
            "schools": _schools(c), "sets": _sets(c), "traits": keys, "cost": _amount(c.cast_cost)}


# ------------------------------------------------------------------ building
def _env() -> Environment:
    env = Environment(loader=PackageLoader("magewars.site", "templates"), autoescape=select_autoescape(["html"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["blocks"] = text_blocks
    env.filters["slug"] = slug
    env.globals["category_label"] = lambda c: CATEGORY_LABEL.get(c, c.capitalize())
    env.globals["category_plural"] = lambda c: CATEGORY_PLURAL.get(c, c.capitalize() + "s")
    env.globals["kind_label"] = _kind_label
    env.globals["ability_text"] = R.ability_text
    return env


class _Writer:
    def __init__(self, out: Path, env: Environment, site: Site):
        self.out, self.env, self.site = out, env, site
        self.pages = 0
        self.bytes = 0

    def page(self, path: str, template: str, **ctx) -> None:
        depth = path.count("/")
        html = self.env.get_template(template).render(root="../" * depth, path=path, site=self.site, **ctx)
        target = self.out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        data = html.encode("utf-8")
        target.write_bytes(data)
        self.pages += 1
        self.bytes += len(data)


def _facet_pages(site: Site, rows: list[dict]) -> dict[str, list[dict]]:
    """Browse facets: {"set": [{value, slug, url, count}], ...}."""
    counts = {"set": Counter(), "type": Counter(), "school": Counter()}
    for r in rows:
        for s in r["sets"]:
            counts["set"][s] += 1
        counts["type"][r["kind"]] += 1
        for s in r["schools"]:
            counts["school"][s] += 1
    facets = {}
    for facet, ctr in counts.items():
        items = [{"value": v, "label": _kind_label(v) if facet == "type" else v,
                  "url": f"browse/{facet}-{slug(v)}.html", "count": n} for v, n in ctr.items()]
        facets[facet] = sorted(items, key=lambda f: f["label"].lower())
    return facets


def render_site(site: Site, out: Path) -> _Writer:
    env = _env()
    w = _Writer(out, env, site)
    corpus = site.corpus
    rows = [card_row(site, c) for c in sorted(corpus.cards.values(), key=lambda c: c.name.lower())]
    facets = _facet_pages(site, rows)
    trait_rows = sorted({k for r in rows for k in r["traits"]})
    sections = site.book.sections

    # cards
    for c in corpus.cards.values():
        notes = site.book.get(c.name)
        notes = notes if notes is not None and notes.category == "card" else None
        w.page(site.cards[c.name], "card.html", card=c, facts=card_facts(c), traits=_trait_links(site, c.traits),
               attacks=[attack_view(site, a) for a in c.attacks],
               abilities=[R.ability_text(ab) for ab in c.abilities],
               unsupported=[u.clause or u.reason for u in c.unsupported], notes=notes,
               errata_rulings=[r for r in site.rulings_by_card.get(c.name, [])
                               if r.kind == "erratum" and r.about.name == c.name],
               other_rulings=[r for r in site.rulings_by_card.get(c.name, [])
                              if not (r.kind == "erratum" and r.about.name == c.name)],
               scenarios=site.scenarios_by_card.get(c.name, []),
               sets=_sets(c), source=site.source_of(c), plain=R.render_card(c, corpus).split("\nDefined at")[0],
               see_also=[site.see_also(s, c.name) for s in (notes.see_also if notes else ())],
               set_url={f["value"]: f["url"] for f in facets["set"]},
               type_url={f["value"]: f["url"] for f in facets["type"]},
               school_url={f["value"]: f["url"] for f in facets["school"]})
    for name, e in site.note_cards.items():
        w.page(site.cards[name], "card_notes.html", entry=e, rulings=site.rulings_by_card.get(name, []),
               scenarios=site.scenarios_by_card.get(name, []),
               see_also=[site.see_also(s, name) for s in e.see_also])
    w.page("cards/index.html", "cards.html", rows=rows, facets=facets, traits=trait_rows,
           title="All cards", note_cards=sorted(site.note_cards))

    # browse by set, type and school
    for facet, items in facets.items():
        for f in items:
            match = [r for r in rows if (f["value"] in r["sets"] if facet == "set" else
                                          r["kind"] == f["value"] if facet == "type" else
                                          f["value"] in r["schools"])]
            w.page(f["url"], "facet.html", facet=facet, item=f, rows=match)
    term_counts = Counter(t.category for t in site.terms)
    w.page("browse/index.html", "browse.html", facets=facets, terms=site.terms, term_counts=term_counts)

    # terms
    for t in site.terms:
        e = t.entry
        w.page(t.url, "term.html", term=t, entry=e,
               rule=site.book.section_map.get(e.rule) if e is not None and e.rule else None,
               see_also=[site.see_also(s, t.name) for s in (e.see_also if e else ())],
               codex=[{"def": d, "abilities": [R.ability_text(ab) for ab in d.abilities],
                       "unsupported": [u.clause or u.reason for u in d.unsupported]} for d in t.codex])
    by_cat = defaultdict(list)
    for t in site.terms:
        by_cat[t.category].append(t)
    w.page("terms/index.html", "terms.html", by_cat=dict(sorted(by_cat.items())))

    # numbered rules
    for s in sections:
        parents, p = [], s.parent
        while p:
            parents.insert(0, site.book.section_map[p])
            p = site.book.section_map[p].parent
        w.page(f"rules/{s.number}.html", "rule.html", section=s, parents=parents,
               children=site.book.children(s.number),
               entries=[e for e in site.book.entries_for_rule(s.number)],
               see_also=[site.see_also(x, f"rule {s.number}") for x in s.see_also])
    w.page("rules/index.html", "rules.html", sections=sections)

    # rulings
    for r in site.rulings:
        w.page(f"rulings/{r.id}.html", "ruling.html", ruling=r)
    by_source = defaultdict(list)
    for r in site.rulings:
        by_source[r.source].append(r)
    w.page("rulings/index.html", "rulings.html", by_source=dict(sorted(by_source.items())))

    # scenarios (listed, not linked: they live in the test suite)
    if site.scenarios:
        w.page("scenarios.html", "scenarios.html", scenarios=site.scenarios)

    counts = {"cards": len(corpus.cards), "card_notes": len(site.note_cards), "terms": len(site.terms),
              "rules": len(sections), "rulings": len(site.rulings), "scenarios": len(site.scenarios),
              "sets": len(facets["set"]), "traits": len(trait_rows)}
    w.page("index.html", "index.html", counts=counts, facets=facets)
    w.page("search.html", "search.html")
    w.page("404.html", "404.html")
    w.counts = counts
    return w


def copy_assets(out: Path) -> None:
    dest = out / "assets"
    dest.mkdir(parents=True, exist_ok=True)
    for item in (resources.files("magewars.site") / "assets").iterdir():
        if item.is_file():
            (dest / item.name).write_bytes(item.read_bytes())


def pagefind_command() -> list[str]:
    """How to run Pagefind: the binary shipped by the `pagefind` PyPI package (extended build)."""
    try:
        from pagefind_bin_extended import get_executable  # type: ignore
        return [str(get_executable())]
    except ImportError:
        pass
    try:
        from pagefind_bin import get_executable  # type: ignore
        return [str(get_executable())]
    except ImportError:
        pass
    found = shutil.which("pagefind_extended") or shutil.which("pagefind")
    if found:
        return [found]
    raise SiteError("Pagefind is not installed (pip install 'pagefind[extended]'); "
                    "or build with --no-search")


def index_search(out: Path) -> int:
    """Run Pagefind over the written site; returns how many pages it indexed."""
    cmd = pagefind_command() + ["--site", str(out), "--output-subdir", "pagefind"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SiteError(f"Pagefind did not run: {exc}") from exc
    if proc.returncode != 0:
        raise SiteError(f"Pagefind failed (exit {proc.returncode}): {(proc.stderr or proc.stdout).strip()[-800:]}")
    m = re.search(r"Indexed (\d+) pages?", proc.stdout)
    if not m:
        raise SiteError(f"Pagefind did not report what it indexed: {proc.stdout.strip()[-400:]}")
    return int(m.group(1))


def build_site(out: Path, corpus: Corpus, search: bool = True, scenarios_dir: Optional[Path] = None,
               clean: bool = True) -> BuildReport:
    """Write the whole site into `out` (emptied first when `clean`)."""
    t0 = time.perf_counter()
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise SiteError(f"{out}: exists and is not a folder")
    if clean and out.exists():
        if any(out.iterdir()) and not (out / "index.html").exists() and not (out / ".magewars-site").exists():
            raise SiteError(f"{out}: not empty and not a magewars site; refusing to overwrite it")
        shutil.rmtree(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / ".magewars-site").write_text("built by `magewars site build`\n", encoding="utf-8")
        site = collect(corpus, scenarios_dir)
        w = render_site(site, out)
        copy_assets(out)
    except OSError as exc:
        raise SiteError(f"{out}: cannot write the site: {exc}") from exc
    report = BuildReport(out=out, pages=w.pages, bytes=w.bytes, counts=w.counts, warnings=site.warnings,
                         site=site)
    if search:
        t1 = time.perf_counter()
        report.indexed = index_search(out)
        report.search_seconds = time.perf_counter() - t1
    report.seconds = time.perf_counter() - t0
    report.bytes = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    return report
