"""The rules of spellbook building, read from the cards and the codex.

What a spell costs, how many copies a book may hold and which Mage may include it are stated in
the language: the Mage's stats card gives its training, its school costs and `spellbook_cost(...)`
exceptions; codex traits on a spell state `spellbook_cost`, `spellbook_copies` and `spellbook_only`.
This module evaluates those statements against a book.  It knows no card or trait by name.

The general rule it applies (rulebook, spellbook building): a spell costs its level times a factor
for its school — 1 trained, 2 untrained, 3 opposed (the stats card lists the non-default factors);
a spell of several schools joined by "and" pays for each school's level, one joined by "or" pays for
the cheapest school.
"""
from __future__ import annotations

import re
from dataclasses import field
from typing import Optional

from ..dsl import ast as A
from ..dsl.diagnostics import Diagnostic
from ..dsl.model import CARD_KINDS, CardDefinition, Corpus
from .model import MAGE_KINDS, Spellbook
from ..dsl.frozen import light_dataclass  # @dataclass, made without compiling source text

TRAINED_FACTOR = 1    # points per level in a school the Mage is trained in
UNTRAINED_FACTOR = 2  # points per level in any school the stats card does not price

COST, COPIES, ONLY = "spellbook_cost", "spellbook_copies", "spellbook_only"
#: every static call this module evaluates when it validates a spellbook
RULE_CALLS: tuple[str, ...] = (COST, COPIES, ONLY)
_STATS_NAME = re.compile(r"^(?P<base>.+?) Stats(?: \((?P<qual>[^()]+)\))?$")


# ---------------------------------------------------------------- the mage and its stats card
def stats_for(corpus: Corpus, mage: CardDefinition) -> Optional[CardDefinition]:
    """The stats card printed for a Mage card (named after it)."""
    card = corpus.cards.get(f"{mage.name} Stats")
    return card if card is not None and card.kind == "magestats" else None


def mage_for(corpus: Corpus, stats: CardDefinition) -> Optional[CardDefinition]:
    """The Mage card a stats card belongs to ("X Stats" and "X Stats (Edition)" belong to X)."""
    m = _STATS_NAME.match(stats.name)
    card = corpus.cards.get(m["base"]) if m else None
    return card if card is not None and card.kind == "mage" else None


class RuleError(Exception):
    """A spellbook statement this module cannot read; reported, never skipped."""


@light_dataclass(frozen=True)
class Modifier:
    what: A.Phrase
    factor: int
    source: str  # the card or codex entry stating it


@light_dataclass
class MageRules:
    mage: CardDefinition
    stats: CardDefinition
    limit: int
    factors: dict[str, int]
    trained: frozenset[str]
    modifiers: tuple[Modifier, ...]
    granted_only: tuple[str, ...]  # "X Only" texts the stats card lets this Mage use anyway
    problems: list[str] = field(default_factory=list)


@light_dataclass
class Part:
    school: str
    level: int
    factor: int

    @property
    def points(self) -> int:
        return self.level * self.factor


@light_dataclass
class SpellCost:
    points: int
    parts: tuple[Part, ...]  # the schools paid for


def _rule_calls(abilities) -> list[A.Call]:
    out = []
    for ab in abilities:
        if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) \
                and ab.effect.name in RULE_CALLS:
            if ab.guard is not None:
                raise RuleError(f"a conditional '{ab.effect.name}' rule")
            out.append(ab.effect)
    return out


def _int_arg(call: A.Call, i: int) -> int:
    if len(call.args) <= i or not isinstance(call.args[i].value, int) or isinstance(call.args[i].value, bool):
        raise RuleError(f"'{call.name}' needs a whole number as argument {i + 1}")
    return call.args[i].value


def _phrase_arg(call: A.Call) -> A.Phrase:
    if not call.args or not isinstance(call.args[0].value, A.Phrase):
        raise RuleError(f"'{call.name}' needs a phrase naming spells as its first argument")
    return call.args[0].value


def mage_rules(corpus: Corpus, mage: CardDefinition, stats: CardDefinition) -> MageRules:
    factors = {s: TRAINED_FACTOR for s in stats.training}
    factors.update(dict(stats.school_costs))
    mods, granted, problems = [], [], []
    try:
        for call in _rule_calls(stats.abilities):
            if call.name == COST:
                mods.append(Modifier(_phrase_arg(call), _int_arg(call, 1), stats.name))
            else:
                problems.append(f"'{call.name}' on a Mage's stats card")
    except RuleError as exc:
        problems.append(str(exc))
    # a permission on the stats card to cast "<X Only> spells" (its target) lets the Mage include them too
    for ab in stats.abilities:
        eff = getattr(ab, "effect", None)
        if isinstance(ab, A.StaticAbility) and isinstance(eff, A.Call) and eff.name == "can":
            args = {a.key: a.value for a in eff.args}
            pos = [a.value for a in eff.args if a.key is None]
            act = pos[1] if len(pos) > 1 else None
            what = args.get("target", args.get("detail"))
            if isinstance(act, A.StringLit) and act.value == "cast":
                if isinstance(what, A.Phrase):
                    granted.append(what.text)
                elif isinstance(what, A.StringLit):
                    granted.append(what.value)
    return MageRules(mage, stats, stats.spellbook or 0, factors, frozenset(stats.training), tuple(mods),
                     tuple(granted), problems)


# ---------------------------------------------------------------- phrases about spells
_SCHOOLS: dict[int, tuple[Corpus, frozenset[str]]] = {}


def _schools(corpus: Corpus) -> frozenset[str]:
    """Every school named by the corpus (cached per corpus)."""
    hit = _SCHOOLS.get(id(corpus))
    if hit is not None and hit[0] is corpus:
        return hit[1]
    out = set()
    for c in corpus.cards.values():
        out.update(s for s, _ in c.schools)
        out.update(s for s, _ in c.school_costs)
    if len(_SCHOOLS) > 8:
        _SCHOOLS.clear()
    _SCHOOLS[id(corpus)] = (corpus, frozenset(out))
    return _SCHOOLS[id(corpus)][1]


def _has(card: CardDefinition, part: Part, name: str, schools: frozenset[str]) -> bool:
    if name in schools:  # a school word speaks of the school being paid for
        return part.school == name
    return name in card.subtypes or any(t.key == name or t.text == name for t in card.traits)


def matches(phrase: A.Phrase, card: CardDefinition, part: Part, this: Optional[CardDefinition],
            schools: frozenset[str]) -> bool:
    """Whether a spellbook phrase ("up to level 3 Holy spells", "Non-Mind creature spells", "this")
    covers this school-part of a spell.  A word it cannot read raises RuleError."""
    words = [(w.text, w.kind) for w in phrase.words]
    ok, i = True, 0
    kinds = {k for k in CARD_KINDS if k not in MAGE_KINDS}
    while i < len(words):
        text, kind = words[i]
        low = text.lower()
        nxt = [w[0].lower() for w in words[i + 1:i + 4]]
        if low == "this":
            ok = ok and this is not None and card is this
            i += 1
        elif low in ("spell", "spells"):
            i += 1
        elif low == "up" and nxt[:2] == ["to", "level"] and len(nxt) == 3 and nxt[2].isdigit():
            ok = ok and part.level <= int(nxt[2])
            i += 4
        elif low == "level" and nxt and nxt[0].isdigit():
            ok = ok and part.level == int(nxt[0])
            i += 2
        elif low in kinds or (low.endswith("s") and low[:-1] in kinds):
            ok = ok and card.kind == (low if low in kinds else low[:-1])
            i += 1
        elif kind == "name" and text.startswith("Non-") and len(text) > 4:
            ok = ok and not _has(card, part, text[4:], schools)
            i += 1
        elif kind == "name":
            ok = ok and _has(card, part, text, schools)
            i += 1
        else:
            raise RuleError(f"the word '{text}' in a spellbook phrase")
    return ok


# ---------------------------------------------------------------- what one spell costs and allows
def _card_rules(corpus: Corpus, card: CardDefinition) -> list[tuple[A.Call, str, Optional[str]]]:
    """Spellbook statements about a spell: from its own abilities and its traits' codex entries.
    Each with its source and, for a trait, the trait's name parameter."""
    out = [(c, card.name, None) for c in _rule_calls(card.abilities)]
    for t in card.traits:
        entry = corpus.codex.get(t.key)
        if entry is not None:
            out.extend((c, entry.name, t.arg) for c in _rule_calls(entry.abilities))
    return out


def spell_cost(corpus: Corpus, rules: MageRules, card: CardDefinition) -> SpellCost:
    """Spellbook points for one copy of a spell, for this Mage.  Raises RuleError if unreadable."""
    if not card.schools:
        raise RuleError(f"'{card.name}' has no school and level to price")
    schools = _schools(corpus)
    own = [Modifier(_phrase_arg(c), _int_arg(c, 1), src)
           for c, src, _ in _card_rules(corpus, card) if c.name == COST]
    parts = []
    for school, level in card.schools:
        part = Part(school, level, rules.factors.get(school, UNTRAINED_FACTOR))
        hit = [m.factor for m in rules.modifiers if matches(m.what, card, part, None, schools)]
        hit += [m.factor for m in own if matches(m.what, card, part, card, schools)]
        if hit:
            part.factor = min(hit)
        parts.append(part)
    if card.school_join == "and":
        return SpellCost(sum(p.points for p in parts), tuple(parts))
    best = min(parts, key=lambda p: p.points)
    return SpellCost(best.points, (best,))


def copy_limit(corpus: Corpus, card: CardDefinition) -> Optional[tuple[int, str]]:
    """The most copies a book may hold (with the rule's source), or None for no limit."""
    limits = [(_int_arg(c, 1), src) for c, src, _ in _card_rules(corpus, card)
              if c.name == COPIES and _phrase_arg(c) and _is_this(_phrase_arg(c))]
    return min(limits) if limits else None


def _is_this(phrase: A.Phrase) -> bool:
    if [w.text.lower() for w in phrase.words] != ["this"]:
        raise RuleError("a spellbook rule on a spell that does not speak of 'this' spell")
    return True


def restrictions(corpus: Corpus, card: CardDefinition) -> list[tuple[str, str]]:
    """The "X Only" kinds of Mage that may include the spell: (X, the trait's text) pairs."""
    out = []
    for c, src, arg in _card_rules(corpus, card):
        if c.name != ONLY:
            continue
        _is_this(_phrase_arg(c))
        if not arg:
            raise RuleError(f"'{src}' states '{ONLY}' but names no kind of Mage")
        text = next((t.text for t in card.traits if t.arg == arg and corpus.codex.get(t.key) is not None
                     and corpus.codex[t.key].name == src), f"{arg} {src}")
        out.append((arg, text))
    return out


def trained_for(rules: MageRules, card: CardDefinition, school: str, schools: frozenset[str]) -> bool:
    """Whether the Mage is trained in a school for this spell: the school is in its training, or
    one of its stats card's exceptions prices this spell's part in that school at the trained rate
    (the Paladin is trained in Holy up to level 3 that way)."""
    if school in rules.trained:
        return True
    level = dict(card.schools).get(school)
    if level is None:
        return False
    part = Part(school, level, UNTRAINED_FACTOR)
    return any(m.factor == TRAINED_FACTOR and matches(m.what, card, part, None, schools)
               for m in rules.modifiers)


def allowed(rules: MageRules, card: CardDefinition, who: str, text: str, schools: frozenset[str]) -> bool:
    """Whether the Mage is the kind `who` names: its class (the Mage's name or its last words),
    or "<School> <subtype>" for a Mage of that subtype trained in that school for this spell."""
    name = rules.mage.name
    if name == who or name.endswith(" " + who):
        return True
    head, _, tail = who.rpartition(" ")
    if head in schools and tail in rules.stats.subtypes and trained_for(rules, card, head, schools):
        return True
    return any(g == text or g.startswith(text + " ") for g in rules.granted_only)


# ---------------------------------------------------------------- validate a book
def validate(book: Spellbook) -> list[Diagnostic]:
    """Every problem of a spellbook, located: reading problems first, then the building rules."""
    diags = list(book.problems)
    if book.mage is None or book.stats is None:
        return diags
    corpus = book.corpus
    rules = mage_rules(corpus, book.mage, book.stats)
    where = book.stats_span or book.mage_span
    for p in rules.problems:
        diags.append(Diagnostic("B104", f"cannot read a spellbook rule of '{book.stats.name}': {p}", where))
    schools = _schools(corpus)
    total = 0
    for e in book.entries:
        if e.card is None:
            continue
        try:
            total += spell_cost(corpus, rules, e.card).points * e.count
            limit = copy_limit(corpus, e.card)
            only = restrictions(corpus, e.card)
        except RuleError as exc:
            diags.append(Diagnostic("B104", f"cannot read a spellbook rule for '{e.card.name}': {exc}", e.span))
            continue
        if limit is not None and e.count > limit[0]:
            diags.append(Diagnostic(
                "B102", f"{e.count} copies of '{e.card.name}'; a book may hold {limit[0]} ({limit[1]})", e.span))
        for who, text in only:
            if not allowed(rules, e.card, who, text, schools):
                diags.append(Diagnostic(
                    "B103", f"'{e.card.name}' is {text}: the {book.mage.name} may not include it", e.span))
    if total > rules.limit:
        diags.append(Diagnostic(
            "B101", f"the spells cost {total} spellbook points; the {book.mage.name} has {rules.limit}",
            book.mage_span or where))
    return diags
