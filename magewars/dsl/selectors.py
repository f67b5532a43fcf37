"""Phrases compiled to selectors: every word of a phrase is read once, here, at check time.

A phrase ("each enemy Living creature in this zone") becomes a typed, frozen
:class:`Selector`.  The compiler understands every phrase word by its role in the
vocabulary (magewars/dsl/vocab.py, PHRASE_WORDS_TABLE); a word it cannot place is a located
diagnostic (E106), an unknown Capitalised name is E103.  The engine evaluates selectors
(magewars/engine/phrases.py) and never reads the words again.

Where compiled selectors live: the checker stores each one in ``Corpus.selectors``, a dict
keyed by the :class:`~magewars.dsl.ast.Phrase` node.  AST nodes are frozen dataclasses whose
spans do not take part in equality, so two phrases with the same words share one key and one
selector (a selector depends only on the words and the names the corpus knows).  The AST stays
unchanged and the engine gets a selector with one dict lookup.
"""
from __future__ import annotations

from dataclasses import field
from typing import Iterable, Optional

from .frozen import frozen_dataclass  # @dataclass(frozen=True), cheaper to create
from . import ast as A
from . import vocab as V
from .diagnostics import Diagnostic, did_you_mean


# ---------------------------------------------------------------- the model
@frozen_dataclass
class NameTest:
    """A Capitalised name an object must have (trait, condition, token, subtype, school, card
    name, card-type word), or must not have when negated (`Non-Flying`)."""
    name: str
    negated: bool = False
    subtype: bool = False  # "Frost subtype": only the subtype of that name counts (not a trait named alike)


@frozen_dataclass
class Selector:
    text: str = field(default="", compare=False)


@frozen_dataclass
class Pronoun(Selector):
    """One object named by a pronoun ("this", "attacker"); `kinds` narrows it ("that creature")."""
    word: str = "this"
    kinds: Optional[tuple[str, ...]] = None


@frozen_dataclass
class ControllerOf(Selector):
    """The Mage of the controller (or owner) of each object `of` names."""
    of: Selector = field(default_factory=Selector)
    owner: bool = False


@frozen_dataclass
class OpponentOf(Selector):
    """The Mages of the players other than the controller of each object `of` names."""
    of: Selector = field(default_factory=Selector)


@frozen_dataclass
class ZoneOf(Selector):
    """The zone of each object `of` names ("this zone", "the zone of target")."""
    of: Selector = field(default_factory=Selector)


@frozen_dataclass
class Relation:
    pass


@frozen_dataclass
class InZone(Relation):
    zone: Selector  # a zone selector


@frozen_dataclass
class Within(Relation):
    distance: int
    of: Selector  # Pronoun("this") unless stated


@frozen_dataclass
class AdjacentTo(Relation):
    of: Selector  # an object (its zone) or a zone


@frozen_dataclass
class AttachedTo(Relation):
    host: Selector  # "attached to X", "on X", "equipment of X", "its ..."


@frozen_dataclass
class OnBorderOf(Relation):
    zone: Selector  # "a wall on a border of this zone"


@frozen_dataclass
class HasNames(Relation):
    """"with Burn": an object has the names; a zone holds an object that has them."""
    names: tuple[NameTest, ...]


@frozen_dataclass
class Damaged(Relation):
    """"with damage": an object with at least one damage on it (a wounded creature)."""


@frozen_dataclass
class Holds(Relation):
    """"with a revealed Curse enchantment": an object carries an attachment that matches;
    "a zone with an enemy creature": a zone holds an object that matches."""
    what: Selector


@frozen_dataclass
class ControlledBy(Relation):
    who: Selector


@frozen_dataclass
class CastBy(Relation):
    """"a Healing spell by your mage": the spell's caster."""
    who: Selector


@frozen_dataclass
class Described(Selector):
    """Objects (or zones, borders, markers, players) picked by a description."""
    quantifier: str = "each"  # each | one | the | target | up_to
    count: Optional[int] = None  # up to N; "the 2 adjacent zones"
    domain: str = "object"  # object | zone | border | marker | player
    kinds: Optional[tuple[str, ...]] = None  # card kinds (objects); None: any
    subtype_noun: Optional[str] = None  # the noun also matches this subtype (a Mage-subtype creature)
    marker_kind: Optional[str] = None  # markers: token | condition | None (either)
    opponent: bool = False  # players: only opponents of the controller of this
    names: tuple[NameTest, ...] = ()
    controller: Optional[str] = None  # friendly | enemy
    other: bool = False  # not this, nor its host
    new: bool = False  # not the object the effect is about already (it, target)
    visibility: Optional[str] = None  # revealed | hidden
    state: Optional[str] = None  # destroyed | discarded: in a discard pile
    level: Optional[int] = None
    level_max: bool = False  # "up to level N"
    adjacent: bool = False  # zones: adjacent to the zone of this
    relations: tuple[Relation, ...] = ()


THIS = Pronoun("this", "this")


class PhraseCompileError(Exception):
    """Raised by :func:`compile_or_raise` with the diagnostics of a phrase."""

    def __init__(self, diags: list[Diagnostic]):
        self.diags = diags
        super().__init__("; ".join(f"{d.code} {d.message}" for d in diags))


# ---------------------------------------------------------------- the compiler


class _Fail(Exception):
    pass


class _Parser:
    def __init__(self, phrase: A.Phrase, names: set[str], lenient_names: bool):
        self.p = phrase
        self.words = list(phrase.words)
        self.i = 0
        self.names = names
        self.lenient = lenient_names
        self.diags: list[Diagnostic] = []

    # -- helpers
    def low(self, k: int = 0) -> Optional[str]:
        j = self.i + k
        if j >= len(self.words):
            return None
        w = self.words[j]
        return w.text.lower() if w.kind != "name" else None

    def word(self, k: int = 0) -> Optional[A.Word]:
        j = self.i + k
        return self.words[j] if j < len(self.words) else None

    def at_end(self) -> bool:
        return self.i >= len(self.words)

    def fail(self, w: Optional[A.Word], why: str) -> None:
        span = w.span if w is not None else self.p.span
        shown = w.text if w is not None else self.p.text
        self.diags.append(Diagnostic("E106", f"phrase word '{shown}' not understood here: {why}", span,
                                     f"phrase: '{self.p.text}'"))
        raise _Fail()

    def expect(self, text: str, why: str) -> None:
        if self.low() != text:
            self.fail(self.word(), f"expected '{text}' {why}")
        self.i += 1

    def number(self, why: str) -> int:
        w = self.word()
        if w is None or w.kind != "number":
            self.fail(w, f"expected a number {why}")
        self.i += 1
        return int(w.text)

    def role(self, k: int = 0) -> Optional[str]:
        lw = self.low(k)
        if lw is None:
            return None
        r = V.PHRASE_WORDS.get(lw)
        return r[0] if r else None

    def sub(self, start: int) -> str:
        return " ".join(w.text for w in self.words[start:self.i])

    # -- names
    def names_run(self) -> list[NameTest]:
        """Greedy-match consecutive Capitalised words against known names."""
        out = []
        while self.i < len(self.words) and self.words[self.i].kind == "name":
            w = self.words[self.i]
            first = w.text
            neg = False
            if first.startswith("Non-") and len(first) > 4:
                first, neg = first[4:], True
            texts = [first] + [x.text for x in self.words[self.i + 1:]]
            matched = 0
            for j in range(len(texts), 0, -1):
                run = self.words[self.i:self.i + j]
                if any(x.kind != "name" for x in run):
                    continue
                cand = " ".join(texts[:j])
                if cand in self.names:
                    matched = j
                    break
            if matched == 0:
                if not self.lenient:
                    self.diags.append(Diagnostic("E103", f"unknown name '{first}' in a phrase", w.span,
                                                 did_you_mean(first, self.names)))
                    raise _Fail()
                matched = 1
            self.i += matched
            sub = self.i < len(self.words) and self.words[self.i].kind != "name" \
                and self.words[self.i].text.lower() == "subtype"
            if sub:  # "Non-Frost subtype creature": the subtype alone, not the Frost +X trait
                self.i += 1
            out.append(NameTest(" ".join(texts[:matched]), neg, sub))
        return out

    # -- phrases
    def top(self) -> Selector:
        sel = self.ref()
        if not self.at_end():
            role = self.role()
            what = {"reserved": "it is only an argument name", "attack": "it names an attack kind, not an object",
                    None: "a name cannot follow a complete description"}.get(role, f"no {role} may stand here")
            self.fail(self.word(), f"the phrase '{self.sub(0)}' is complete before it; {what}")
        return sel

    def ref(self) -> Selector:
        """A pronoun form or a description, with its relations."""
        start = self.i
        lw = self.low()
        if lw in ("controller", "owner") and self.low(1) == "of":
            self.i += 2
            of = self.ref()
            return ControllerOf(self.sub(start), of, owner=(lw == "owner"))
        if (lw == "the" and self.low(1) == "zone" and self.low(2) == "of") or (lw == "zone" and self.low(1) == "of"):
            self.i += 3 if lw == "the" else 2
            of = self.ref()
            return ZoneOf(self.sub(start), of)
        if lw == "the" and self.low(1) == "same" and self.low(2) == "zone":
            self.i += 3
            return ZoneOf(self.sub(start), THIS)
        if lw == "target" and (self.word(1) is None or self.role(1) == "relation"):
            self.i += 1
            return Pronoun("target", "target")
        if lw in V.PRONOUNS and lw != "target":
            nxt = self.low(1)
            if nxt == "zone":
                self.i += 2
                return ZoneOf(self.sub(start), Pronoun(lw, lw))
            if lw == "its" and nxt == "opponent":
                self.i += 2
                return OpponentOf(self.sub(start), Pronoun("it", "it"))
            if lw in ("its", "your") and self.word(1) is not None:
                return self.described()
            if lw in ("this", "that", "it") and nxt is not None and V.PHRASE_WORDS.get(nxt, ("",))[0] == "noun":
                dom, kinds, _ = V.noun_meaning(nxt)
                if dom == "object":
                    self.i += 2
                    return Pronoun(self.sub(start), lw, kinds)
            if not (lw == "attached" and nxt == "to"):
                self.i += 1
                return Pronoun(lw, lw)
        return self.described()

    def described(self) -> Selector:
        start = self.i
        f: dict = {}
        rels: list[Relation] = []
        names: list[NameTest] = []
        negate_next = False
        noun_seen = False
        # ---- before the noun
        while not self.at_end():
            w = self.word()
            lw = self.low()
            if w.kind == "name":
                run = self.names_run()
                if negate_next and run:
                    run[0] = NameTest(run[0].name, not run[0].negated, run[0].subtype)
                    negate_next = False
                names.extend(run)
                continue
            if negate_next:
                self.fail(w, "'non' must be followed by a Capitalised name")
            if w.kind == "number":
                f["count"] = self.number("")
                if self.low() == "of" and self.low(1) == "your":  # "3 of your Mind spells"
                    self.i += 2
                    f["controller"] = "friendly"
                continue
            if lw in ("each", "every", "all"):
                f["quantifier"] = "each"
            elif lw in ("a", "an", "any"):
                f["quantifier"] = "one"
            elif lw == "the":
                f["quantifier"] = "the"
            elif lw == "up":
                self.i += 1
                self.expect("to", "after 'up'")
                if self.low() == "level":
                    self.i += 1
                    f["level"] = self.number("after 'up to level'")
                    f["level_max"] = True
                else:
                    f["count"] = self.number("after 'up to'")
                    f["quantifier"] = "up_to"
                    if self.low() == "of" and self.low(1) == "your":  # "up to 3 of your Mind spells"
                        self.i += 2
                        f["controller"] = "friendly"
                continue
            elif lw == "target":
                rest = self.low(1)
                if self.word(1) is None or (rest is not None and V.PHRASE_WORDS.get(rest, ("",))[0] == "relation"):
                    # "a new target": the thing chosen is any object
                    self.i += 1
                    noun_seen = True
                    break
                f["quantifier"] = "target"
            elif lw == "another":
                f["other"] = True
                f.setdefault("quantifier", "one")
            elif lw == "other":
                f["other"] = True
            elif lw == "new":
                f["new"] = True
            elif lw in ("friendly", "enemy"):
                f["controller"] = lw
            elif lw == "your":
                f["controller"] = "friendly"
            elif lw == "its":
                rels.append(AttachedTo(Pronoun("it", "it")))
            elif lw in ("revealed", "hidden"):
                f["visibility"] = lw
            elif lw in ("destroyed", "discarded"):
                f["state"] = lw
            elif lw == "adjacent":
                f["adjacent"] = True
            elif lw == "level":
                self.i += 1
                f["level"] = self.number("after 'level'")
                continue
            elif lw == "non":
                negate_next = True
            elif self.role() == "noun":
                self.noun(f, names)
                noun_seen = True
                break
            else:
                break
            self.i += 1
        if negate_next:
            self.fail(self.word(), "'non' must be followed by a Capitalised name")
        if self.i == start:
            self.fail(self.word(), "a description starts with a quantifier, adjective, name or noun")
        # ---- after the noun: relations
        while not self.at_end():
            lw = self.low()
            if lw == "in":
                self.i += 1
                rels.append(InZone(self.zone_ref()))
            elif lw == "within":
                self.i += 1
                n = self.number("after 'within'")
                if self.low() not in ("zone", "zones"):
                    self.fail(self.word(), "expected 'zone' or 'zones' after 'within N'")
                self.i += 1
                of: Selector = THIS
                if self.low() == "of":
                    self.i += 1
                    of = self.ref()
                rels.append(Within(n, of))
            elif lw == "adjacent" and self.low(1) == "to":
                self.i += 2
                rels.append(AdjacentTo(self.ref()))
            elif lw == "attached" and self.low(1) == "to":
                self.i += 2
                rels.append(AttachedTo(self.ref()))
            elif lw == "on":
                self.i += 1
                if self.low() in ("a", "the") and self.low(1) == "border" and self.low(2) == "of":
                    self.i += 3
                    rels.append(OnBorderOf(self.zone_ref()))
                else:
                    rels.append(AttachedTo(self.ref()))
            elif lw == "with":
                self.i += 1
                rels.append(self.with_part())
            elif lw == "controlled" and self.low(1) == "by":
                self.i += 2
                rels.append(ControlledBy(self.ref()))
            elif lw == "by":
                self.i += 1
                rels.append(CastBy(self.ref()))
            elif lw == "of":
                self.i += 1
                who = self.ref()
                rels.append(ControlledBy(who) if _names_player(who) else AttachedTo(who))
            elif lw in ("destroyed", "discarded"):
                f["state"] = lw
                self.i += 1
            else:
                break
        if not noun_seen and f.get("domain") is None:
            f["domain"] = "object"
        return Described(self.sub(start), names=tuple(names), relations=tuple(rels), **f)

    def noun(self, f: dict, names: list[NameTest]) -> None:
        lw = self.low()
        dom, kinds, subtype = V.noun_meaning(lw)
        self.i += 1
        nxt = self.low()
        if dom == "zone" and nxt in ("border", "borders"):  # "zone border"
            dom, kinds = "border", ()
            self.i += 1
        elif dom == "object" and nxt is not None and V.PHRASE_WORDS.get(nxt, ("",))[0] == "noun" \
                and (V.noun_meaning(nxt)[0] == "marker"  # "vine marker": the vine object
                     or V.noun_meaning(nxt)[1] in (V.SPELL_KINDS, V.CARD_KINDS)):  # "creature spells"
            self.i += 1
        f["domain"] = dom
        if dom == "object":
            f["kinds"] = kinds
            if subtype:
                f["subtype_noun"] = lw.rstrip("s").capitalize()
        elif dom == "marker":
            singular = lw.rstrip("s")
            f["marker_kind"] = singular if singular in ("token", "condition") else None
        elif dom == "player":
            f["opponent"] = lw == "opponent"
        if lw == "arena":
            f["quantifier"] = "each"

    def zone_ref(self) -> Selector:
        """After 'in' or 'on a border of': a zone selector (or the arena)."""
        sel = self.ref()
        if isinstance(sel, Described) and sel.domain not in ("zone",):
            self.fail(None, f"'{sel.text}' is not a zone")
        return sel  # a pronoun may name a zone or an object (then its zone)

    def with_part(self) -> Relation:
        start = self.i
        if self.low() == "damage":  # "with damage": damaged
            self.i += 1
            return Damaged()
        if self.word() is not None and self.word().kind == "name":
            run = self.names_run()
            nxt = self.low()
            if nxt is None or V.PHRASE_WORDS.get(nxt, ("",))[0] != "noun":
                return HasNames(tuple(run))
            self.i = start
        return Holds(self.ref())


def _names_player(sel: Selector) -> bool:
    if isinstance(sel, Pronoun):
        return sel.word in ("you", "your", "controller", "owner")
    if isinstance(sel, (ControllerOf, OpponentOf)):
        return True
    return isinstance(sel, Described) and sel.domain == "player"


def compile_phrase(phrase: A.Phrase, names: Iterable[str] = (), lenient_names: bool = False
                   ) -> tuple[Optional[Selector], list[Diagnostic]]:
    """Phrase -> Selector, or None with located diagnostics (E106 word not understood, E103 name)."""
    nameset = names if isinstance(names, (set, frozenset)) else set(names)
    p = _Parser(phrase, nameset, lenient_names)
    if not phrase.words:
        return None, [Diagnostic("E106", "an empty phrase names nothing", phrase.span)]
    try:
        return p.top(), p.diags
    except _Fail:
        return None, p.diags


def compile_or_raise(phrase: A.Phrase, names: Iterable[str] = (), lenient_names: bool = True) -> Selector:
    sel, diags = compile_phrase(phrase, names, lenient_names)
    if sel is None:
        raise PhraseCompileError(diags)
    return sel
