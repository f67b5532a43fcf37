"""Semantic checks: AST -> compiled definitions, with located diagnostics.

The checker works on a whole corpus at once (codex + spells), because names
resolve across files: a card's traits resolve against the codex, phrases
against every known subtype, and definitions must be unique.
"""
from __future__ import annotations

import dataclasses
import functools
import weakref
from dataclasses import field
from typing import Iterable, Optional

from . import ast as A
from . import model as M
from . import vocab as V
from ..matching import closest
from .diagnostics import Diagnostic, did_you_mean
from .selectors import Selector, compile_phrase
from .frozen import light_dataclass  # @dataclass, made without compiling source text

SPELL_KINDS = {"creature", "conjuration", "wall", "terrain", "vine", "enchantment", "equipment",
               "incantation", "attack"}
REQUIRED_STATS = {
    "creature": ("life", "armor"),
    "wall": ("life", "armor"),
    "vine": ("life", "armor"),
    "magestats": ("life", "armor", "channeling", "spellbook"),
}
SINGLE_ITEMS = {A.School: "school", A.Cost: "cost", A.Casting: "cast", A.Range: "range",
                A.Targets: "targets", A.Slot: "slot", A.Traits: "traits", A.Subtypes: "subtypes",
                A.Summary: "summary", A.Training: "training", A.SchoolCost: "school cost"}
CARD_ONLY = (A.Printed, A.Subtypes, A.School, A.Casting, A.Targets, A.Stat, A.Defense, A.Slot,
             A.Traits, A.AttackBar, A.Training, A.SchoolCost)
CODEX_ONLY = (A.ParamDecl, A.Category, A.Stacking, A.Removal, A.Marker)
BASE_NAMES = set(M.SCHOOLS) | {
    "Mage", "Creature", "Conjuration", "Enchantment", "Equipment", "Incantation", "Attack", "Wall",
    "Terrain", "Vine", "Object", "Zone", "Level", "Arena", "Friendly", "Enemy", "Non",
    # subtypes that card text names although no Arena card carries them (Potion and Mummy: Academy)
    "Sprite", "Potion", "Mummy",
}


@functools.lru_cache(maxsize=None)
def _field_names(cls) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


# leaves that never hold a call: the walk does not enter them
_LEAVES = (A.Span, A.Phrase, A.TraitGroup, A.TraitRef, A.StringLit, A.Name, A.XValue, A.Signed, str, int,
           type(None), bool)


def _named_trait_texts(d) -> set[str]:
    """The printed traits of a card whose every word is a Capitalised name and that take a name as their
    parameter (`Priestess Only`, `Mind Mage Only`): read as one name in phrases."""
    out = set()
    for it in d.items:
        if isinstance(it, A.Traits):
            for t in it.traits:
                words = t.text.split()
                if len(words) > 1 and not t.versus and all(w[:1].isupper() and w.replace("'", "").isalpha()
                                                            for w in words):
                    out.add(t.text)
    return out


_TOKEN_NAMES: dict[int, tuple] = {}  # id(definition) -> (a weak reference to it, the names it places)


def _placed_by(d) -> frozenset:
    """_placed_token_names of a definition, kept while the definition lives: the language server checks
    the same (unchanged, memoised) definitions again at every keystroke, and the walk visits every node."""
    key = id(d)
    hit = _TOKEN_NAMES.get(key)
    if hit is not None and hit[0]() is d:
        return hit[1]
    names = frozenset(_placed_token_names(d))
    try:
        _TOKEN_NAMES[key] = (weakref.ref(d, lambda _, key=key: _TOKEN_NAMES.pop(key, None)), names)
    except TypeError:  # (an object that takes no weak reference: not kept)
        pass
    return names


def _placed_token_names(node, out=None) -> set[str]:
    """Names of the tokens a definition places with place_tokens(), found anywhere in its items."""
    out = set() if out is None else out
    if isinstance(node, _LEAVES):
        return out
    if isinstance(node, A.Call) and node.name == "place_tokens":
        pos = [a.value for a in node.args if a.key is None]
        if len(pos) > 1 and isinstance(pos[1], A.Phrase):
            out.add(pos[1].text)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        for name in _field_names(type(node)):
            _placed_token_names(getattr(node, name), out)
    elif isinstance(node, (list, tuple)):
        for x in node:
            _placed_token_names(x, out)
    return out


@light_dataclass
class Checker:
    diags: list[Diagnostic] = field(default_factory=list)
    codex: dict[str, M.CodexDefinition] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)  # every known Capitalised name (for phrases)
    card_names: set[str] = field(default_factory=set)
    current_attacks: Optional[set[str]] = None  # attack names of the card being checked
    selectors: dict[A.Phrase, Selector] = field(default_factory=dict)  # compiled phrases, by phrase

    def err(self, code: str, msg: str, span: A.Span, hint: Optional[str] = None, severity: str = "error"):
        self.diags.append(Diagnostic(code, msg, span, hint, severity))

    # ------------------------------------------------------------ corpus
    def check(self, files: Iterable[A.SourceFile], codex=None) -> M.Corpus:
        """Check every definition of `files` and compile them.

        `codex`: the codex compiled before, by a check that knew the same names (magewars/dsl/__init__.py
        keeps one in the cache for linting card files): `files` then hold no codex definition, and the
        codex is not checked again.  `self.codex_marks` says where the codex's own part of the check
        ends: (diagnostics before it, diagnostics after it, selectors after it)."""
        files = list(files)
        codex_defs, card_defs, dupes = self.declare(files)
        corpus = M.Corpus()
        start = len(self.diags)
        if codex is None:
            for d in codex_defs:
                corpus.codex[d.name] = self.compile_codex_header(d)
            self.codex = corpus.codex
            # pass 2: bodies
            for d in codex_defs:
                corpus.codex[d.name] = self.compile_codex(d, corpus.codex[d.name])
        else:
            corpus.codex = self.codex = codex
        self.codex_marks = (start, len(self.diags), len(self.selectors))
        for d in card_defs:
            c = self.compile_card(d)
            if c is not None:
                corpus.cards[c.name] = c
        for d in dupes:  # checked for their own errors; the first definition is the one kept
            if isinstance(d, A.CodexDef):
                self.compile_codex(d, self.compile_codex_header(d))
            else:
                self.compile_card(d)
        corpus.selectors = self.selectors
        return corpus

    def declare(self, files: list[A.SourceFile]) -> tuple[list, list, list]:
        """Pass 1: the definitions by family (a duplicate is reported, E501, and set apart) and every
        name phrases may use.  (codex definitions, card definitions, duplicates)"""
        self._skipped = {f.path: f.skipped for f in files if getattr(f, "skipped", ())}
        seen: dict[tuple[str, str], A.Span] = {}
        codex_defs: list[A.CodexDef] = []
        card_defs: list[A.CardDef] = []
        dupes: list[A.Definition] = []  # still checked, so a duplicate name hides no other mistake
        for f in files:
            for d in f.definitions:
                family = "codex" if isinstance(d, A.CodexDef) else "card"
                key = (family, d.name.lower())
                if key in seen:
                    self.err("E501", f"duplicate definition of {d.kind} '{d.name}'", d.name_span,
                             f"first defined at {seen[key]}")
                    dupes.append(d)
                    continue
                seen[key] = d.name_span
                (codex_defs if family == "codex" else card_defs).append(d)
        for d in codex_defs:
            self.names.update(self._name_forms(d.name))
        for d in card_defs:
            self.card_names.add(d.name)
            self.names.update(self.names_of(d))
        self.names |= BASE_NAMES
        return codex_defs, card_defs, dupes

    @staticmethod
    def names_of(d: A.CardDef) -> set[str]:
        """The names a card definition gives phrases (pass 1, besides its own name, which is a card
        name): its subtypes, the tokens it places, its printed traits that are names as a whole."""
        out = {n.text for it in d.items if isinstance(it, A.Subtypes) for n in it.names}
        # a token a card places (place_tokens(x, Pet, 1)) is a name other phrases may use
        out.update(_placed_by(d))
        # a trait printed with a name in it ("Priestess Only") is a name as a whole: "Priestess Only spells"
        out.update(_named_trait_texts(d))
        return out

    def _written_but_skipped(self, d, word: str) -> bool:
        """True if the parser skipped text naming `word` inside definition d (a syntax error
        there is already reported; the field is present, only unreadable)."""
        for line, text in getattr(self, "_skipped", {}).get(d.span.path, ()):
            if d.span.line <= line <= d.span.end_line and closest(word, text.split(), cutoff=75):
                return True
        return False

    @staticmethod
    def _name_forms(name: str) -> set[str]:
        return {name}

    # ------------------------------------------------------------ codex
    def compile_codex_header(self, d: A.CodexDef) -> M.CodexDefinition:
        param = None
        for it in d.items:
            if isinstance(it, A.ParamDecl):
                param = it.kind
        return M.CodexDefinition(d.name, d.kind, param=param, span=d.name_span)

    def compile_codex(self, d: A.CodexDef, head: M.CodexDefinition) -> M.CodexDefinition:
        cats, stacking, removal, removable, marker, summary = [], None, None, False, None, None
        abilities, unsupported = [], []
        for it in d.items:
            if isinstance(it, CARD_ONLY) or isinstance(it, (A.Cost, A.Range)):
                self.err("E402", f"'{_item_word(it)}' is not allowed in a {d.kind} definition", it.span)
            elif isinstance(it, A.Category):
                cats.extend(n.text for n in it.names)
            elif isinstance(it, A.Stacking):
                stacking = it.mode
            elif isinstance(it, A.Removal):
                removal, removable = it.cost, it.cost is not None
            elif isinstance(it, A.Marker):
                marker = it.kind
            elif isinstance(it, A.Summary):
                summary = it.text
            elif isinstance(it, A.UnsupportedItem):
                unsupported.append(M.UnsupportedClause(it.reason, it.clause, it.span))
            elif isinstance(it, (A.ParamDecl, A.Errata)):
                pass
            else:
                abilities.append(it)
                unsupported.extend(self.check_ability(it))
        if d.kind == "condition" and marker is None:
            marker = "condition"
        return M.CodexDefinition(d.name, d.kind, head.param, tuple(cats), stacking, removal, removable,
                                 marker, tuple(abilities), summary, tuple(unsupported), d.name_span)

    # ------------------------------------------------------------ cards
    def compile_card(self, d: A.CardDef) -> Optional[M.CardDefinition]:
        f: dict = dict(name=d.name, kind=d.kind, span=d.name_span)
        seen_single: dict[type, A.Span] = {}
        stats: dict[str, A.Stat] = {}
        printings, errata, abilities, unsupported, attacks, defenses = [], [], [], [], [], []
        self.current_attacks = {it.name for it in d.items if isinstance(it, A.AttackBar)}
        for it in d.items:
            t = type(it)
            if t in SINGLE_ITEMS:
                if t in seen_single:
                    self.err("E403", f"'{SINGLE_ITEMS[t]}' is given twice", it.span,
                             f"first given at {seen_single[t]}")
                    continue
                seen_single[t] = it.span
            if isinstance(it, CODEX_ONLY):
                self.err("E402", f"'{_item_word(it)}' is only allowed in codex definitions", it.span)
            elif isinstance(it, A.Printed):
                printings.append((it.set_name, it.card_id))
            elif isinstance(it, A.Subtypes):
                f["subtypes"] = tuple(n.text for n in it.names)
            elif isinstance(it, A.School):
                f.update(self.compile_school(it))
            elif isinstance(it, A.Cost):
                f["cast_cost"], f["reveal_cost"] = it.cast, it.reveal
                if it.reveal is not None and d.kind != "enchantment":
                    self.err("E402", "only enchantments have a reveal cost", it.span)
            elif isinstance(it, A.Casting):
                f["action"] = it.action
            elif isinstance(it, A.Range):
                if it.low > it.high:
                    self.err("E202", f"impossible range {it.low}-{it.high}: minimum above maximum", it.span)
                f["range"] = (it.low, it.high)
            elif isinstance(it, A.Targets):
                for p in it.alternatives:
                    self.check_phrase(p)
                f["targets"] = tuple(p.text for p in it.alternatives)
                if len(set(it.joins)) > 1:
                    self.err("E202", "a targets line cannot mix 'and' and 'or'", it.span)
                f["target_join"] = it.joins[0] if it.joins else "or"
                f["target_phrases"] = it.alternatives
            elif isinstance(it, A.Stat):
                if it.stat in stats:
                    self.err("E403", f"'{it.stat}' is given twice", it.span, f"first given at {stats[it.stat].span}")
                    continue
                stats[it.stat] = it
                if isinstance(it.value, int) and it.value < 0 and it.stat != "mana":
                    self.err("E202", f"{it.stat} cannot be negative", it.span)
                if it.value is None and it.stat != "armor":
                    self.err("E201", f"only armor can be 'none', not {it.stat}", it.span)
            elif isinstance(it, A.Defense):
                if not 1 <= it.roll <= 12:
                    self.err("E202", f"defense roll {it.roll}+ is outside the d12 (1-12)", it.span)
                if it.uses is not None and it.uses < 1:
                    self.err("E202", "a defense needs at least one use per round", it.span)
                defenses.append(M.Defense(it.roll, it.uses, it.limit))
            elif isinstance(it, A.Slot):
                f["slot"] = tuple(n.text for n in it.names)
                f["slot_join"] = it.joins[0] if it.joins else "single"
            elif isinstance(it, A.Traits):
                always, alts = self.compile_trait_list(it)
                if alts:
                    self.err("E402", "'OR' alternatives belong in an attack bar's traits", it.span)
                f["traits"] = always
            elif isinstance(it, A.AttackBar):
                a = self.compile_attack(it, d)
                if a is not None:
                    attacks.append(a)
            elif isinstance(it, A.Training):
                f["training"] = tuple(n.text for n in it.schools)
                for n in it.schools:
                    self.check_school_name(n)
            elif isinstance(it, A.SchoolCost):
                f["school_costs"] = tuple((n.text, c) for n, c in it.costs)
                for n, _ in it.costs:
                    self.check_school_name(n)
            elif isinstance(it, A.Summary):
                f["summary"] = it.text
            elif isinstance(it, A.Errata):
                errata.append(it.cite)
            elif isinstance(it, A.UnsupportedItem):
                unsupported.append(M.UnsupportedClause(it.reason, it.clause, it.span))
            else:
                abilities.append(it)
                unsupported.extend(self.check_ability(it))
        for s, st in stats.items():
            key = {"spellbook": "spellbook", "mana": "starting_mana"}.get(s, s)
            f[key] = st.value  # `armor none` stays None: the No Armor symbol (the engine's no_armor)
        for need in REQUIRED_STATS.get(d.kind, ()):
            if need not in stats and not self._written_but_skipped(d, need):
                self.err("E401", f"a {d.kind} needs '{need}'", d.name_span,
                         f"add '{need} N' to '{d.name}'")
        if d.kind in SPELL_KINDS and any(cid for _, cid in printings):
            for need, key in (("school", "schools"), ("cost", "cast_cost"), ("cast", "action")):
                if key not in f and not self._written_but_skipped(d, need):
                    self.err("E401", f"a {d.kind} spell needs '{need}'", d.name_span,
                             f"add '{need} ...' to '{d.name}'")
        f["printings"] = tuple(printings)
        f["errata"] = tuple(errata)
        f["abilities"] = tuple(abilities)
        f["unsupported"] = tuple(unsupported)
        f["attacks"] = tuple(attacks)
        f["defenses"] = tuple(defenses)
        return M.CardDefinition(**f)

    def compile_school(self, it: A.School) -> dict:
        joins = set(it.joins)
        if len(joins) > 1:
            self.err("E202", "a school line cannot mix 'and' and 'or'", it.span)
        for r in it.reqs:
            self.check_school_name(r.school)
            if not 0 <= r.level <= 10:
                self.err("E202", f"school level {r.level} is outside 0-10", r.span)
        return {"schools": tuple((r.school.text, r.level) for r in it.reqs),
                "school_join": (it.joins[0] if it.joins else "single")}

    def check_school_name(self, n: A.Name):
        if n.text not in M.SCHOOLS:
            self.err("E104", f"unknown school '{n.text}'", n.span, did_you_mean(n.text, M.SCHOOLS))

    # ------------------------------------------------------------ traits
    def resolve_trait(self, ref: A.TraitRef, kinds: tuple[str, ...] = ("trait", "condition", "keyword")
                      ) -> Optional[M.TraitInstance]:
        codex = self.codex
        if ref.versus:
            for n in ref.versus:
                self.check_name_words(n.words, n.span)
            key = M.versus_entry(codex)
            if key is None:
                self.err("E101", "unknown trait '+X vs': no codex entry is declared 'param versus'", ref.span)
                return None
            return M.TraitInstance(key, ref.param.signed_value(), None,
                                   tuple(n.text for n in ref.versus), ref.text, ref.span)
        text = ref.name.text
        entry = codex.get(text)
        arg = None
        if entry is None:
            for cand in codex.values():
                if cand.param == "name" and text.endswith(" " + cand.name):
                    entry, arg = cand, text[: -len(cand.name) - 1]
                    break
        if entry is None or entry.kind not in kinds:
            pool = [c.display for c in codex.values() if c.kind in kinds]
            what = "/".join(kinds[:2]) if len(kinds) > 1 else kinds[0]
            self.err("E101", f"unknown {what} '{ref.text}'", ref.name.span, did_you_mean(text, pool + list(codex)))
            return None
        p = ref.param
        kind = entry.param
        if kind in (None, "name"):
            if p is not None:
                self.err("E201", f"'{entry.name}' takes no number", p.span, f"write '{entry.display}'")
                return None
        else:
            if p is None:
                self.err("E201", f"'{entry.name}' needs a parameter", ref.span, f"write '{entry.display}'")
                return None
            if kind == "number" and p.sign is not None:
                self.err("E201", f"'{entry.name}' takes a plain number, not '{p}'", p.span,
                         f"write '{entry.display}'")
                return None
            if kind == "bonus" and p.sign != "+":
                self.err("E201", f"'{entry.name}' takes a bonus '+N', not '{p}'", p.span,
                         f"write '{entry.display}'")
                return None
            if kind == "penalty" and p.sign != "-":
                self.err("E201", f"'{entry.name}' takes a penalty '-N', not '{p}'", p.span,
                         f"write '{entry.display}'")
                return None
            if kind == "signed" and p.sign is None:
                self.err("E201", f"'{entry.name}' takes a signed number (+N or -N), not '{p}'", p.span,
                         f"write '{entry.display}'")
                return None
        value = p.signed_value() if p is not None else None
        return M.TraitInstance(entry.name, value, arg, (), ref.text, ref.span)

    def compile_trait_list(self, it: A.Traits) -> tuple[tuple[M.TraitInstance, ...], tuple]:
        """Split a traits line at 'OR': the single trait before OR is the first
        alternative; everything after it is the second (supplement, "OR" attacks)."""
        resolved = [self.resolve_trait(t) for t in it.traits]
        if "OR" not in it.seps:
            return tuple(r for r in resolved if r is not None), ()
        if list(it.seps).count("OR") > 1:
            self.err("E202", "only one 'OR' is allowed in a traits line", it.span)
        i = list(it.seps).index("OR")
        before = [r for r in resolved[:i] if r is not None]
        first = [resolved[i]] if resolved[i] is not None else []
        second = [r for r in resolved[i + 1:] if r is not None]
        return tuple(before), (tuple(first), tuple(second))

    def codex_states(self, key: str, fn: str) -> bool:
        """Does the codex entry `key` state `static fn(...)`?"""
        entry = self.codex.get(key)
        return entry is not None and any(
            isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name == fn
            for ab in entry.abilities)

    # ------------------------------------------------------------ attacks
    def compile_attack(self, bar: A.AttackBar, card: A.CardDef) -> Optional[M.AttackDefinition]:
        f: dict = dict(name=bar.name, action=None, kind=None, special=(), range=None, damage_type=None,
                       dice=None, effect_die=(), traits=(), alternatives=(), cost=None, span=bar.span)
        specials, abilities, unsupported = [], [], []
        for it in bar.items:
            if isinstance(it, A.AttackAction):
                f["action"] = it.action
            elif isinstance(it, A.AttackKind):
                if f["kind"] is not None:
                    self.err("E403", "an attack is melee or ranged, given twice", it.span)
                f["kind"] = it.kind
            elif isinstance(it, A.SpecialKind):
                specials.append(it.kind)
            elif isinstance(it, A.Range):
                if it.low > it.high:
                    self.err("E202", f"impossible range {it.low}-{it.high}: minimum above maximum", it.span)
                f["range"] = (it.low, it.high)
            elif isinstance(it, A.DamageType):
                types = M.damage_types(self.codex)
                if it.name.text not in types:
                    self.err("E104", f"unknown damage type '{it.name.text}'", it.name.span,
                             did_you_mean(it.name.text, types))
                f["damage_type"] = it.name.text
            elif isinstance(it, A.Dice):
                if isinstance(it.amount, int) and it.amount < 0:
                    self.err("E202", "dice cannot be negative", it.span)
                f["dice"] = it.amount
            elif isinstance(it, A.EffectDie):
                f["effect_die"] = self.compile_effect_die(it)
            elif isinstance(it, A.Traits):
                always, alts = self.compile_trait_list(it)
                f["traits"], f["alternatives"] = always, alts
            elif isinstance(it, A.Cost):
                f["cost"] = it.cast
            elif isinstance(it, (A.Summary, A.Errata)):
                pass
            elif isinstance(it, A.UnsupportedItem):
                unsupported.append(M.UnsupportedClause(it.reason, it.clause, it.span))
            else:
                abilities.append(it)
                unsupported.extend(self.check_ability(it))
        if f["kind"] == "ranged" and f["range"] is None and card.kind != "attack":
            self.err("E401", f"ranged attack '{bar.name}' needs a range", bar.span, "add 'range MIN-MAX'")
        f["special"] = tuple(specials)
        f["zone_trait"] = any(self.codex_states(t.key, "attack_zone") for t in f["traits"])
        f["abilities"] = tuple(abilities)
        f["unsupported"] = tuple(unsupported)
        return M.AttackDefinition(**f)

    def compile_effect_die(self, ed: A.EffectDie) -> tuple[M.EffectRow, ...]:
        rows = []
        for r in ed.rows:
            # Modifiers can lift an effect roll above 12, so rows may name 13+.
            bad = r.low < 1 or r.low > 24 or (r.high is not None and (r.high > 24 or r.high < r.low))
            if bad:
                shown = f"{r.low}-{r.high}" if r.high is not None else f"{r.low}+"
                self.err("E202", f"impossible effect-die range {shown}", r.span,
                         "rows run from 1 upwards, low before high")
            outs = []
            for o in r.outcomes:
                ref = A.TraitRef(o.name, None, (), o.span)
                ti = self.resolve_trait(ref, ("condition", "keyword", "trait"))
                if ti is not None:
                    outs.append((ti.key, o.count or 1))
            rows.append((r, M.EffectRow(r.low, r.high, tuple(outs))))
        rows.sort(key=lambda x: x[0].low)
        for (ra, a), (rb, b) in zip(rows, rows[1:]):
            a_hi = a.high if a.high is not None else 99
            if b.low <= a_hi:
                self.err("E301", f"effect-die rows overlap: {_row(a)} and {_row(b)}", rb.span)
            elif b.low > a_hi + 1:
                self.err("E302", f"effect-die table has a gap between {_row(a)} and {_row(b)}", rb.span,
                         f"rolls {a_hi + 1}-{b.low - 1} do nothing; extend a row or split it")
        if rows and rows[-1][1].high is not None and rows[-1][1].high < 12:
            pass  # an effect table may top out below 12 only if the card says so; allowed
        return tuple(r for _, r in rows)

    # ------------------------------------------------------------ phrases and names
    def check_name_words(self, words: tuple[str, ...], span: A.Span, first_span: Optional[A.Span] = None):
        """Greedy-match consecutive Capitalised words against known names."""
        i = 0
        words = list(words)
        while i < len(words):
            w = words[i]
            if w.startswith("Non-"):
                words[i] = w = w[4:]
                if not w:
                    i += 1
                    continue
            matched = 0
            for j in range(len(words), i, -1):
                cand = " ".join(words[i:j])
                if cand in self.names or cand in self.card_names:
                    matched = j - i
                    break
            if matched == 0:
                self.err("E103", f"unknown name '{w}' in a phrase", span,
                         did_you_mean(w, self.names))
                return
            i += matched

    def check_phrase(self, p: A.Phrase, strict: bool = True):
        """Compile a phrase to a selector (magewars/dsl/selectors.py) and keep it for the engine.

        Strict (an object phrase): every word must be understood, or E106/E103 is reported.
        Not strict (an `any` argument, which may be free words such as `melee`): a phrase that
        compiles is kept, one that does not is left to the primitive that reads it."""
        if p in self.selectors:
            return
        sel, diags = compile_phrase(p, self.names | self.card_names)
        if sel is not None:
            self.selectors[p] = sel
        elif strict:
            self.diags.extend(diags)

    # ------------------------------------------------------------ abilities
    def check_ability(self, ab) -> list[M.UnsupportedClause]:
        uns: list[M.UnsupportedClause] = []
        if isinstance(ab, A.StaticAbility):
            if ab.guard is not None:
                self.check_condition(ab.guard, uns)
            self.check_effect(ab.effect, uns)
        elif isinstance(ab, A.TriggeredAbility):
            self.check_call(ab.event, V.EVENT_FUNCS, "event", uns)
            if ab.guard is not None:
                self.check_condition(ab.guard, uns)
            for e in ab.effects:
                self.check_effect(e, uns)
        elif isinstance(ab, A.TimedAbility):
            self.check_call(ab.timing, V.TIMING_FUNCS, "timing", uns)
            for e in ab.effects:
                self.check_effect(e, uns)
        elif isinstance(ab, A.ActivatedAbility):
            for c in ab.costs:
                if isinstance(c, A.Call):
                    self.check_call(c, V.EFFECT_FUNCS, "function", uns)
            for e in ab.effects:
                self.check_effect(e, uns)
        elif isinstance(ab, A.RevealRule):
            for ev in ab.on:
                self.check_call(ev, V.EVENT_FUNCS, "event", uns)
            if ab.step is not None and ab.step not in V.STEPS:
                self.err("E102", f"unknown step '{ab.step}'", ab.span, did_you_mean(ab.step, V.STEPS))
        elif isinstance(ab, A.OneShotAbility):
            for e in ab.effects:
                self.check_effect(e, uns)
        elif isinstance(ab, A.OncePerRound):
            uns.extend(self.check_ability(ab.ability))
        return uns

    def check_effect(self, e, uns: list):
        if isinstance(e, A.Call):
            self.check_call(e, V.EFFECT_FUNCS, "function", uns)
        elif isinstance(e, (A.Gain, A.Lose)):
            self.check_phrase(e.subject)
            for t in e.traits.traits:
                self.resolve_trait(t)
            if isinstance(e, A.Gain) and e.duration is not None:
                self.check_duration(e.duration)
        elif isinstance(e, A.StatChange):
            self.check_phrase(e.subject)
            if e.duration is not None:
                self.check_duration(e.duration)
        elif isinstance(e, A.IfEffect):
            self.check_condition(e.condition, uns)
            for x in e.then + (e.otherwise or ()):
                self.check_effect(x, uns)
        elif isinstance(e, A.OptionalEffect):
            for x in e.body:
                self.check_effect(x, uns)
        elif isinstance(e, A.ChoiceEffect):
            for opt in e.options:
                for x in opt:
                    self.check_effect(x, uns)
        elif isinstance(e, A.ForEach):
            self.check_phrase(e.over)
            for x in e.body:
                self.check_effect(x, uns)
        elif isinstance(e, A.Unsupported):
            uns.append(M.UnsupportedClause(e.reason, e.clause, e.span))

    def check_duration(self, d: A.Duration):
        if d.until not in V.DURATIONS:
            self.err("E102", f"unknown duration 'end of {d.until}'", d.span, did_you_mean(d.until, V.DURATIONS))

    def check_condition(self, c, uns: list):
        if isinstance(c, A.Call):
            self.check_call(c, V.VALUE_FUNCS, "predicate", uns)
        elif isinstance(c, A.Compare):
            self.check_value(c.left, "num", uns)
            self.check_value(c.right, "num", uns)
        elif isinstance(c, (A.CondAnd, A.CondOr)):
            for x in c.items:
                self.check_condition(x, uns)
        elif isinstance(c, A.CondNot):
            self.check_condition(c.item, uns)

    def check_call(self, call: A.Call, table: dict, what: str, uns: list):
        sig = table.get(call.name)
        if sig is None:
            other = V.all_functions() | V.EVENT_FUNCS | V.TIMING_FUNCS
            hint = did_you_mean(call.name, table)
            if call.name in other:
                hint = f"'{call.name}' is not a {what} here" + (f"; {hint}" if hint else "")
            self.err("E102", f"unknown {what} '{call.name}'", call.span, hint)
            return
        if call.bare:
            return
        positional = [a for a in call.args if a.key is None]
        keyed = {a.key: a for a in call.args if a.key is not None}
        params = list(sig.params)
        rest = next((p for p in params if p.rest), None)
        fixed = [p for p in params if not p.rest]
        if rest is not None:
            # parameters after a *rest parameter can only be given by keyword
            fixed_pos = [p for p in params[:params.index(rest)]]
        else:
            fixed_pos = fixed
        if len(positional) > len(fixed_pos) and rest is None:
            self.err("E203", f"{call.name}() takes at most {len(fixed)} argument(s), got {len(positional)}",
                     call.span, f"signature: {sig.render()}")
            return
        bound = {}
        for p, a in zip(fixed_pos, positional):
            bound[p.name] = a
        for k, a in keyed.items():
            if k not in {p.name for p in params}:
                self.err("E203", f"{call.name}() has no parameter '{k}'", a.span,
                         did_you_mean(k, [p.name for p in params]) or f"signature: {sig.render()}")
                continue
            if k in bound:
                self.err("E203", f"{call.name}() got '{k}' twice", a.span)
                continue
            bound[k] = a
        for p in fixed:
            if not p.optional and p.name not in bound:
                self.err("E203", f"{call.name}() needs '{p.name}'", call.span, f"signature: {sig.render()}")
        if what == "event":
            roles = V.EVENT_PARAM_ROLES.get(call.name, {})
            for name, a in bound.items():
                if name not in roles:  # nothing compares it with the event: it would be ignored
                    self.err("E204", f"{call.name}(): the engine does not match '{name}' against the event",
                             a.span, "the ability would fire whatever it says; matched here: "
                                     + (", ".join(roles) or "nothing"))
        for p in fixed:
            if p.name in bound:
                self.check_value(bound[p.name].value, p.kind, uns, bound[p.name].span, p.name)
        if rest is not None:
            for a in positional[len(fixed_pos):]:
                self.check_value(a.value, rest.kind, uns, a.span, rest.name)

    def check_value(self, v, kind: str, uns: list, span: Optional[A.Span] = None, param_name: str = ""):
        span = getattr(v, "span", None) or span or A.NOSPAN
        if isinstance(v, A.Call):
            sig = V.VALUE_FUNCS.get(v.name)
            if sig is None:
                self.err("E102", f"unknown value function '{v.name}'", v.span,
                         did_you_mean(v.name, V.VALUE_FUNCS))
                return
            self.check_call(v, V.VALUE_FUNCS, "value function", uns)
            if kind in ("num", "obj", "bool") and sig.returns != kind and kind != "any":
                self.err("E203", f"{v.name}() gives a {sig.returns}, but a {kind} is needed here", v.span)
            return
        if kind == "any":
            if isinstance(v, A.Phrase):
                self.check_phrase(v, strict=False)  # free words (an action name, melee...) or a phrase
            elif isinstance(v, A.TraitGroup):
                for t in v.traits:
                    self.resolve_trait(t)
            return
        if kind == "obj" and isinstance(v, A.StringLit):
            # a quoted card name: "a card named ..."
            if v.value not in self.card_names:
                self.err("E105", f"no card is named '{v.value}'", span, did_you_mean(v.value, self.card_names))
            return
        if kind == "str" and isinstance(v, A.StringLit) and self.current_attacks is not None \
                and param_name == "attack" and v.value not in self.current_attacks:
            self.err("E105", f"this card has no attack named '{v.value}'", span,
                     did_you_mean(v.value, self.current_attacks) or
                     (f"its attacks: {', '.join(sorted(self.current_attacks))}" if self.current_attacks
                      else "it has no attack bars"))
            return
        if kind == "step" and isinstance(v, A.StringLit):
            # a quoted step or phase name: checked against the steps the engine knows
            if v.value not in V.STEPS:
                self.err("E102", f"unknown step '{v.value}'", span, did_you_mean(v.value, V.STEPS))
            return
        if kind in ("obj", "name", "step"):
            if isinstance(v, A.Phrase):
                if kind == "obj":
                    self.check_phrase(v)
                elif kind == "name":
                    low = next((w for w in v.words if w.kind != "name"), None)
                    if low is not None:
                        self.err("E106", f"phrase word '{low.text}' not understood here: "
                                         f"{param_name or 'this argument'} takes a Capitalised name", low.span)
                return
            self.err("E203", f"expected {_KIND_WORDS[kind]}, got {_describe(v)}", span)
        elif kind == "num":
            if isinstance(v, (int, A.XValue, A.Signed)):
                return
            if isinstance(v, A.BinOp):
                self.check_value(v.left, "num", uns, span)
                self.check_value(v.right, "num", uns, span)
                return
            self.err("E203", f"expected {_KIND_WORDS[kind]}, got {_describe(v)}", span)
        elif kind == "traits":
            if isinstance(v, A.TraitGroup):
                for t in v.traits:
                    self.resolve_trait(t)
                return
            self.err("E203", f"expected {_KIND_WORDS[kind]}, got {_describe(v)}", span,
                     "write traits and conditions in brackets, e.g. [Burn]")
        elif kind == "bool":
            if isinstance(v, A.Call):
                return  # a predicate call: checked above
            self.err("E203", f"expected {_KIND_WORDS[kind]}, got {_describe(v)}", span)
        elif kind == "str":
            if not isinstance(v, A.StringLit):
                self.err("E203", f"expected {_KIND_WORDS[kind]}, got {_describe(v)}", span)


_KIND_WORDS = {"obj": "an object phrase", "num": "a number", "traits": "[traits]", "name": "a name",
               "str": "a quoted string", "step": "a step name", "bool": "a condition"}


def _describe(v) -> str:
    if isinstance(v, bool):
        return "a flag"
    if isinstance(v, (int, A.XValue, A.Signed, A.BinOp)):
        return "a number"
    if isinstance(v, A.Phrase):
        return f"the phrase '{v.text}'"
    if isinstance(v, A.TraitGroup):
        return "a [trait] group"
    if isinstance(v, A.StringLit):
        return "a string"
    return type(v).__name__


def _row(r: M.EffectRow) -> str:
    return f"{r.low}-{r.high}" if r.high is not None else f"{r.low}+"


def _item_word(it) -> str:
    return {A.Printed: "printed", A.Subtypes: "subtypes", A.School: "school", A.Casting: "cast",
            A.Targets: "targets", A.Stat: getattr(it, "stat", "stat"), A.Defense: "defense", A.Slot: "slot",
            A.Traits: "traits", A.AttackBar: "attack", A.Training: "training", A.SchoolCost: "school cost",
            A.ParamDecl: "param", A.Category: "category", A.Stacking: "stacking", A.Removal: "removal",
            A.Marker: "marker", A.Cost: "cost", A.Range: "range", A.Errata: "errata"}.get(type(it), type(it).__name__)
