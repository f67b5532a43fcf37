"""RulesBook: the loaded rules content plus name / alias / number / fuzzy matching."""
from __future__ import annotations

import dataclasses
import re
from collections import defaultdict
from typing import Iterable, Union

from ..matching import closest, ranked
from .loader import load_data, slug
from .model import Entry, LookupResult, Note, Section

# Something a query can resolve to: an entry, a rules section, or a bare card (name, card id).
Target = Union[Entry, Section, tuple]

_NUMBER_QUERY = re.compile(r"^(?:rule\s*|§\s*)?(\d+(?:\.\d+)*)\.?$")
_TOKEN = re.compile(r"[a-z0-9']+")
_PARAM = re.compile(r"^(\d+x?|x|2x|n)$")
# Words that carry no term in a question ("what is aegis", "can a guarding creature fly"), and
# the words that join the terms of a question ("guard vs flying", "finite life and bull endurance").
STOP_WORDS = frozenset("""
a an the is are was be been being am do does did doing can could may might must shall should will would
what whats what's which who whom whose why how when where if then than else so such i me my we our you
your it its it's they them their this that these those there here to of in on at by for from into onto
about as any some each every all no not only just still also ever even get gets got happen happens
mean means meaning work works rule rules explain tell define definition question ruling rulings
""".split())
JOINERS = frozenset({"vs", "versus", "v", "and", "or", "with", "while", "against", "plus", "both"})
# Generic nouns a question uses around the terms ("a guarding creature"): a term only if nothing
# else is named.
GENERIC = frozenset({"creature", "creatures", "attack", "attacks", "spell", "spells", "mage", "mages",
                     "object", "objects", "card", "cards", "damage", "zone", "action", "actions"})
_SUFFIXES = ("", "ing", "s", "es", "ed", "d")
MAX_GRAM = 6

# Printed forms that name a parametrised trait in free wording: "+2 vs. Flying" -> "+X vs. <type>".
_PATTERNS = [
    (re.compile(r"^[+-]?\s*(\d+|x)\s*vs\b"), "x-vs"),
]


def norm(text: str) -> str:
    """Case-folded, quote-normalised, whitespace-collapsed form of a name or query."""
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = text.replace("±", "+/-").strip().strip('"').strip()
    return " ".join(text.lower().split())


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(norm(text))


def base_tokens(text: str) -> list[str]:
    """Tokens without numeric parameters: "Piercing +2" and "Piercing +X" both give ["piercing"]."""
    return [t for t in tokens(text) if not _PARAM.match(t)]


def base(text: str) -> str:
    return " ".join(base_tokens(text))


def _key(target: Target) -> tuple:
    if isinstance(target, Entry):
        return ("e", target.id)
    if isinstance(target, Section):
        return ("s", target.number)
    return ("c", target[1])


def _label(target: Target) -> str:
    if isinstance(target, Entry):
        return target.name
    if isinstance(target, Section):
        return f"{target.number} {target.title}"
    return target[0]


def _number_key(number: str) -> tuple[int, ...]:
    return tuple(int(p) for p in number.split("."))


class RulesBook:
    """All rules entries and numbered sections, with lookup helpers."""

    def __init__(self, entries: Iterable[Entry], sections: Iterable[Section]):
        self.entries: list[Entry] = list(entries)
        self.sections: list[Section] = sorted(sections, key=lambda s: _number_key(s.number))
        self.section_map: dict[str, Section] = {s.number: s for s in self.sections}
        self.by_id: dict[str, Entry] = {e.id: e for e in self.entries}
        self._names: dict[str, list[Entry]] = defaultdict(list)
        self._aliases: dict[str, list[Entry]] = defaultdict(list)
        self._bases: dict[str, list[Entry]] = defaultdict(list)
        self._param_bases: dict[str, list[Entry]] = defaultdict(list)  # from labels with an X/number
        self._titles: dict[str, Section] = {}
        for e in self.entries:
            self._names[norm(e.name)].append(e)
            for a in e.aliases:
                if e not in self._aliases[norm(a)]:
                    self._aliases[norm(a)].append(e)
            for label in (e.name, *e.aliases):
                b = base(label)
                if b and e not in self._bases[b]:
                    self._bases[b].append(e)
                if b and b != norm(label) and e not in self._param_bases[b]:
                    self._param_bases[b].append(e)
        for s in self.sections:
            self._titles.setdefault(norm(s.title), s)
        self._label_cache: dict[str, list[Target]] | None = None

    # ------------------------------------------------------------------ helpers
    def get(self, id_or_name: str) -> Entry | None:
        """The entry with this id, or with exactly this name."""
        if id_or_name in self.by_id:
            return self.by_id[id_or_name]
        hits = self._names.get(norm(id_or_name))
        return hits[0] if hits else None

    def section(self, number: str) -> Section:
        return self.section_map[number.strip().rstrip(".")]

    def children(self, number: str) -> list[Section]:
        return [s for s in self.sections if s.parent == number]

    def entries_for_rule(self, number: str) -> list[Entry]:
        return [e for e in self.entries if e.rule == number]

    def _card_entry(self, name: str, card_id: str) -> Entry:
        for e in self._names.get(norm(name), []):
            if e.category == "card":
                return dataclasses.replace(e, card_id=card_id) if card_id and not e.card_id else e
        return Entry(id=card_id or "card-" + slug(name), name=name, category="card", card_id=card_id)

    def _base_labels(self) -> dict[str, list[Target]]:
        if self._label_cache is None:
            labels: dict[str, list[Target]] = defaultdict(list)
            for e in self.entries:
                for label in (e.name, *e.aliases):
                    if e not in labels[norm(label)]:
                        labels[norm(label)].append(e)
            for s in self.sections:
                if not labels.get(norm(s.title)):  # an entry of the same name wins over the section
                    labels[norm(s.title)].append(s)
            self._label_cache = dict(labels)
        return self._label_cache

    def _labels(self, extra_names: dict[str, str] | None) -> dict[str, list[Target]]:
        """Every searchable label (normalised) -> the targets it names."""
        base_labels = self._base_labels()
        if not extra_names:
            return base_labels
        labels = {k: list(v) for k, v in base_labels.items()}
        for name, cid in extra_names.items():
            targets = labels.setdefault(norm(name), [])
            if not any(isinstance(t, Entry) and t.category == "card" for t in targets):
                targets.append((name, cid))  # a card with no clarification entry
        return labels

    # ------------------------------------------------------------------ lookup
    def lookup(self, query: str, extra_names: dict[str, str] | None = None) -> LookupResult:
        """Resolve a query to entries.

        Order: rule number; exact name or id; alias; section title; the name without its numeric
        parameter ("aegis 2" -> "Aegis X"); token/prefix matching; fuzzy similarity (magewars.matching).
        extra_names (card name -> card id) lets card names take part; card-only hits have kind "card".
        """
        q = norm(query)
        if not q:
            return LookupResult("none", query)

        m = _NUMBER_QUERY.match(q)
        if m:
            number = m.group(1)
            if number in self.section_map:
                s = self.section_map[number]
                return LookupResult("rule", query, [s.as_entry()], section=s)
            near = [s.number for s in self.sections
                    if s.number.startswith(number.rsplit(".", 1)[0] + ".") or s.number == number.split(".")[0]]
            return LookupResult("none", query, candidates=near[:10])

        cards = {norm(n): (n, cid) for n, cid in (extra_names or {}).items()}

        # exact name or id
        hits: list[Entry] = list(self._names.get(q, []))
        for key in (q, slug(q)):
            e = self.by_id.get(key)
            if e is not None and e not in hits:
                hits.append(e)
        if q in cards and not any(e.category == "card" for e in hits):
            hits.append(self._card_entry(*cards[q]))
        elif q in cards:
            hits = [self._card_entry(e.name, cards[q][1]) if e.category == "card" else e for e in hits]
        if hits:
            hits.sort(key=lambda e: e.category == "card")
            kind = "card" if all(e.category == "card" for e in hits) else "exact"
            return LookupResult(kind, query, hits)

        if q in self._aliases:
            return self._result("alias", query, list(self._aliases[q]), extra_names)
        if q in self._titles:
            s = self._titles[q]
            return LookupResult("rule", query, [s.as_entry()], section=s)

        for pattern, target in _PATTERNS:
            if pattern.search(q) and target in self.by_id:
                return self._result("fuzzy", query, [self.by_id[target]], extra_names)

        b = base(q)
        if b and b != q:  # the query carried a parameter: prefer parametrised names ("Upkeep +X")
            hits = self._param_bases.get(b) or self._bases.get(b)
            if hits:
                return self._result("fuzzy", query, list(hits), extra_names)

        labels = self._labels(extra_names)
        asked = self.question(q, labels, extra_names)
        if asked is not None:
            return asked
        found = self._token_match(base_tokens(q), labels)
        if not found:
            found = self._token_match(self._corrected_tokens(base_tokens(q), labels), labels)
        if not found:
            found = self._fuzzy_match(q, labels)
        if found:
            return self._result("fuzzy", query, found, extra_names)

        close = closest(q, labels, limit=6, cutoff=50)
        cands: list[str] = []
        for label in close:
            for t in labels[label]:
                if _label(t) not in cands:
                    cands.append(_label(t))
        return LookupResult("none", query, candidates=cands[:6])

    # ------------------------------------------------------------------ questions
    def question(self, query: str, labels: dict[str, list[Target]],
                 extra_names: dict[str, str] | None = None) -> LookupResult | None:
        """A question in plain words: find every term and card it names and the rulings that
        mention them together.  None unless the query reads as a question or names two things."""
        toks = tokens(query)
        if len(toks) < 2:
            return None
        found: list[Target] = []
        names = (*labels, *self._bases)  # (what a typo may be read as, for every group of words)
        i = 0
        while i < len(toks):
            step = 1
            for n in range(min(MAX_GRAM, len(toks) - i), 0, -1):
                gram = toks[i:i + n]
                if n == 1 and (gram[0] in STOP_WORDS or gram[0] in JOINERS):
                    break
                if gram[0] in STOP_WORDS or gram[-1] in STOP_WORDS or gram[0] in JOINERS:
                    continue
                hit = self._gram_targets(gram, labels, names)
                if hit:
                    for t in hit:
                        if all(_key(t) != _key(f) for f in found):
                            found.append(t)
                    step = n
                    break
            i += step
        asked_like = any(t in STOP_WORDS or t in JOINERS for t in toks)
        specific = [t for t in found if base(_label(t)) not in GENERIC]
        if specific:
            found = specific
        if not found or (len(found) < 2 and not asked_like):
            return None
        ids = {norm(n): cid for n, cid in (extra_names or {}).items()}
        entries = [self._as_entry(t, ids) for t in found]
        return LookupResult("question", query, entries, together=self.rulings_together(entries))

    def _gram_targets(self, gram: list[str], labels: dict[str, list[Target]], names: tuple) -> list[Target]:
        """Targets named by these words: exactly, without a numeric parameter, with a common
        ending added or removed (guarding/guard, fly/flying), or with a small typo (among `names`: the
        labels and the bases of labels, gathered once for every group of words of a question)."""
        text = " ".join(gram)
        last = gram[-1]
        stems = {last}
        for suf in _SUFFIXES[1:]:
            stems.add(last + suf)
            if last.endswith(suf) and len(last) - len(suf) >= 3:
                stems.add(last[: -len(suf)])
        for stem in sorted(stems, key=lambda w: (w != last, len(w))):
            key = " ".join(gram[:-1] + [stem])
            if key in labels:
                return list(labels[key])
            if key in self._bases:
                return list(self._bases[key])
        if len(gram) <= 3 and all(len(t) >= 4 for t in gram):
            close = ranked(text, names, limit=2, cutoff=85, spread=0)
            if len(close) == 1:
                return list(labels.get(close[0][0]) or self._bases[close[0][0]])
        return []

    def rulings_together(self, entries: list[Entry]) -> list[tuple[str, Note]]:
        """Clarifications and errata, in any entry, that mention two or more of these entries."""
        if len(entries) < 2:
            return []
        words = []  # per entry, one pattern: any of its names (and aliases) starting a word
        for e in entries:
            forms = sorted({base(label) for label in (e.name, *e.aliases)} - {""})
            words.append(re.compile(r"\b(?:" + "|".join(map(re.escape, forms)) + r")\w*", re.I) if forms else None)
        out: list[tuple[str, Note]] = []
        seen = set()
        for owner in self.entries:
            for note in (*owner.errata, *owner.clarifications):
                mentioned = 0
                for i, pat in enumerate(words):
                    if entries[i].id == owner.id or (pat is not None and pat.search(note.text)):
                        mentioned += 1
                        if mentioned == 2:
                            break
                if mentioned >= 2 and (owner.id, note.text) not in seen:
                    seen.add((owner.id, note.text))
                    out.append((owner.name, note))
        return out

    def _result(self, kind: str, query: str, targets: list[Target],
                extra_names: dict[str, str] | None) -> LookupResult:
        uniq: dict[tuple, Target] = {}
        for t in targets:
            uniq.setdefault(_key(t), t)
        targets = list(uniq.values())
        ids = {norm(n): cid for n, cid in (extra_names or {}).items()}
        if len(targets) > 1:
            entries = [self._as_entry(t, ids) for t in targets]
            cands: list[str] = []
            for t in targets:
                if _label(t) not in cands:
                    cands.append(_label(t))
            return LookupResult("ambiguous", query, entries, candidates=cands)
        t = targets[0]
        if isinstance(t, Section):
            return LookupResult("rule", query, [t.as_entry()], section=t)
        entry = self._as_entry(t, ids)
        if entry.category == "card":
            return LookupResult("card", query, [entry])
        return LookupResult(kind, query, [entry])

    def _as_entry(self, t: Target, card_ids: dict[str, str] | None = None) -> Entry:
        if isinstance(t, Entry):
            cid = (card_ids or {}).get(norm(t.name))
            if t.category == "card" and cid and not t.card_id:
                return dataclasses.replace(t, card_id=cid)
            return t
        if isinstance(t, Section):
            return t.as_entry()
        return self._card_entry(*t)

    @staticmethod
    def _token_match(qtok: list[str], labels: dict[str, list[Target]]) -> list[Target]:
        """Targets whose label contains every query token (as a word prefix); best score wins."""
        if not qtok:
            return []
        scored: dict[tuple, tuple[float, Target]] = {}
        for label, targets in labels.items():
            ltok = base_tokens(label) or tokens(label)
            if not ltok:
                continue
            ok = all(any(lt == qt or (len(qt) >= 3 and lt.startswith(qt)) for lt in ltok) for qt in qtok)
            if not ok:
                continue
            score = len(qtok) / len(ltok)
            for t in targets:
                k = _key(t)
                if k not in scored or scored[k][0] < score:
                    scored[k] = (score, t)
        if not scored:
            return []
        ranked = sorted(scored.values(), key=lambda st: -st[0])
        best = ranked[0][0]
        top = [t for s, t in ranked if s >= best - 1e-9]
        if len(top) == 1 and (len(ranked) == 1 or ranked[1][0] <= best - 0.25):
            return top
        # several equally good (or close) matches: ambiguous
        return [t for s, t in ranked if s >= best - 0.25][:8]

    @staticmethod
    def _corrected_tokens(qtok: list[str], labels: dict[str, list[Target]]) -> list[str]:
        vocab = sorted({t for label in labels for t in tokens(label)})
        out = []
        for t in qtok:
            if t in vocab:
                out.append(t)
                continue
            close = closest(t, vocab, limit=1, cutoff=80)
            if not close:
                return []
            out.append(close[0])
        return out if out != qtok else []

    @staticmethod
    def _fuzzy_match(q: str, labels: dict[str, list[Target]]) -> list[Target]:
        out: list[Target] = []
        for label, _ in ranked(q, labels, limit=10, cutoff=75, spread=5):
            out.extend(labels[label])
        return out

    # ------------------------------------------------------------------ completion / rendering
    def complete(self, prefix: str) -> list[str]:
        """Names and aliases of non-card entries starting with prefix (case-insensitive)."""
        p = norm(prefix)
        seen: dict[str, str] = {}
        for e in self.entries:
            if e.category == "card":
                continue
            for label in (e.name, *e.aliases):
                if norm(label).startswith(p):
                    seen.setdefault(norm(label), label)
        return sorted(seen.values(), key=str.lower)

    def render_rules(self, section: str | None = None) -> str:
        from .render import render_rules_doc

        return render_rules_doc(self, section)
