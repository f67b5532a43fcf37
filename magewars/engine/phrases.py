"""Evaluating compiled phrases ("each enemy Living creature in this zone") against the state.

The checker compiles every phrase of the corpus into a selector (magewars/dsl/selectors.py)
and keeps it in ``Corpus.selectors``; this module looks the selector up by the phrase node and
evaluates it, never re-reading the words.  A phrase the engine builds itself is compiled here
on first use (and cached).  A selector part the engine cannot evaluate raises
:class:`PhraseError`, which the engine reports as an `unsupported` event.

A phrase is resolved relative to a :class:`Ctx`: the object whose ability is running
(`this`), the attack being resolved, the event object (`it`) and any chosen target.
Pronouns name one object; descriptions select objects, zones, markers or players.
Players are named by their Mage (as `you` and `controller` are).  A marker phrase
("each Burn marker on this") resolves to its carrier, once per marker.
"""
from __future__ import annotations

import functools
from dataclasses import field
from typing import Any, Optional

from ..dsl import ast as A
from ..dsl import selectors as S
from ..dsl import vocab as V
from ..dsl.frozen import light_dataclass  # @dataclass, made without compiling source text

# The engine's Game and GameObject, named but not imported: this module needs only their
# attributes, and importing them would tie it into the engine's import cycle.
Game = Any
GameObject = Any

# Canonical groupings live in the vocabulary; kept here under their old names for callers.
CREATURE_KINDS = V.CREATURE_KINDS
CONJ_KINDS = V.CONJURATION_KINDS
PRONOUNS = V.PRONOUNS


@light_dataclass
class Ctx:
    this: Optional[GameObject] = None
    attack: Any = None  # engine.attack.Attack
    it: Optional[GameObject] = None
    target: Optional[GameObject] = None
    chosen: Optional[GameObject] = None
    extra: dict = field(default_factory=dict)


class PhraseError(Exception):
    pass


def words_of(phrase) -> list[str]:
    if isinstance(phrase, A.Phrase):
        return [w.text for w in phrase.words]
    if isinstance(phrase, str):
        return phrase.split()
    if isinstance(phrase, (list, tuple)):
        return [str(w) for w in phrase]
    raise PhraseError(f"not a phrase: {phrase!r}")


# ---------------------------------------------------------------- selectors of phrases
# Phrases the checker did not compile (built by the engine, or a corpus assembled by hand):
# compiled once per corpus and phrase.  The corpus is held with its names so its id stays its own.
_NAMES: dict[int, tuple[Any, frozenset]] = {}
#: id of a phrase -> (the phrase, the corpus, its selector): selector_of by identity (entries keep
#: their phrase alive, so an id is never reused while its entry stands)
_BY_ID: dict[int, tuple] = {}
_COMPILED: dict[tuple[int, A.Phrase], S.Selector] = {}


def _known_names(corpus) -> frozenset:
    got = _NAMES.get(id(corpus))
    if got is not None and got[0] is corpus:
        return got[1]
    from ..dsl.checker import BASE_NAMES
    if len(_NAMES) >= 64:  # bounded: a long run builds many scenario corpora
        _NAMES.clear()
        _COMPILED.clear()
    names = set(BASE_NAMES) | set(corpus.codex) | set(corpus.cards)
    for c in corpus.cards.values():
        names.update(c.subtypes)
        names.update(t.text for t in c.traits if " " in t.text and all(
            w[:1].isupper() and w.replace("'", "").isalpha() for w in t.text.split()))  # as the checker does
    frozen = frozenset(names)
    _NAMES[id(corpus)] = (corpus, frozen)
    return frozen


def _as_phrase(phrase) -> A.Phrase:
    if isinstance(phrase, A.Phrase):
        return phrase
    ws = words_of(phrase)
    return A.Phrase(tuple(A.Word(w, "name" if w[:1].isupper() else ("number" if w.isdigit() else "word"))
                          for w in ws))


def selector_of(game: Game, phrase) -> S.Selector:
    """The compiled selector of a phrase: the checker's, or compiled now (engine-built phrases)."""
    if isinstance(phrase, S.Selector):
        return phrase
    corpus = game.corpus
    # by identity first: hashing a phrase (a frozen dataclass of words and spans) on every reading cost
    # more than the matching it serves
    hit = _BY_ID.get(id(phrase))
    if hit is not None and hit[0] is phrase and hit[1] is corpus:
        return hit[2]
    p = _as_phrase(phrase)
    sel = getattr(corpus, "selectors", {}).get(p)
    if sel is None:
        key = (id(corpus), p)
        sel = _COMPILED.get(key)
        if sel is None:
            try:
                sel = S.compile_or_raise(p, _known_names(corpus), lenient_names=True)
            except S.PhraseCompileError as e:
                raise PhraseError(f"phrase '{p.text}' cannot be read: {e}") from None
            _COMPILED[key] = sel
    if isinstance(phrase, A.Phrase):  # (a phrase built from a string each time is not worth keeping)
        if len(_BY_ID) >= 50_000:
            _BY_ID.clear()
        _BY_ID[id(phrase)] = (phrase, corpus, sel)
    return sel


# ---------------------------------------------------------------- pronouns
def pronoun(game: Game, word: str, ctx: Ctx) -> Any:
    st = game.state
    this = ctx.this
    if word == "this":
        return this
    if word in ("enchanted", "attached", "bearer"):
        if this is None:
            return None
        if this.attached_to:
            return st.objects.get(this.attached_to)
        if this.attached_zone:
            return this.attached_zone
        return None
    if word in ("attacker",):
        return ctx.attack.attacker if ctx.attack is not None else None
    if word == "source":
        if ctx.attack is not None:
            return ctx.attack.source
        # an ability answering an event an object's effect caused (healing, mana lost): that object
        return ctx.extra.get("event_source", this)
    if word == "defender":
        return ctx.attack.target if ctx.attack is not None else None
    if word in ("it", "that", "its"):
        return ctx.it if ctx.it is not None else ctx.target
    if word == "target":
        if ctx.target is None and this is not None and not getattr(this, "in_play", True) \
                and getattr(game, "lingering", None):
            # a spell that left play and still listens (engine/lingering.py): the object it was cast on
            return next((lg.target for lg in game.lingering if lg.spell is this), None)
        return ctx.target
    if word in ("controller", "you", "your", "owner"):
        if this is None:
            return None
        who = this.owner if word == "owner" else this.controller
        return st.mage_of(who) or who
    raise PhraseError(f"pronoun '{word}' has no meaning in the engine")


# ---------------------------------------------------------------- public entry points
def resolve(game: Game, phrase, ctx: Ctx) -> list:
    """Objects (or zones, or players' Mages) a phrase names."""
    return _eval(game, selector_of(game, phrase), ctx)


def resolve_one(game: Game, phrase, ctx: Ctx):
    got = resolve(game, phrase, ctx)
    return got[0] if got else None


def matches(game: Game, obj, phrase, ctx: Ctx) -> bool:
    """Does the object (or zone) fit the phrase?"""
    sel = selector_of(game, phrase)
    if isinstance(sel, S.Described):
        return _fits(game, obj, sel, ctx)
    return any(x is obj or x == obj for x in _eval(game, sel, ctx))


def reads_this(game: Game, phrase) -> bool:
    """May whether an object fits the phrase depend on the object `this` names, beyond its controller and
    what it is attached to (`friendly`, `other`)?  So it may for a relation (`in this zone`, `within 1 zone
    of this`), a phrase about zones, markers or players, or targets; not for a description of objects by
    kind, names, controller, level... (Effects._sources: a value such a static's phrase was matched against
    does not depend on the fields of its source).  Kept per phrase and corpus."""
    corpus = game.corpus
    hit = _READS_THIS.get(id(phrase))
    if hit is not None and hit[0] is phrase and hit[1] is corpus:
        return hit[2]
    sel = selector_of(game, phrase)
    got = not (isinstance(sel, S.Described) and sel.domain == "object" and sel.quantifier != "target"
               and not sel.relations)
    if len(_READS_THIS) >= 20_000:
        _READS_THIS.clear()
    _READS_THIS[id(phrase)] = (phrase, corpus, got)
    return got


#: id of a phrase -> (the phrase, the corpus it was read in, reads_this)
_READS_THIS: dict[int, tuple] = {}


def zones_matching(game: Game, phrase, ctx: Ctx) -> list:
    """Zones a zone phrase names ("a zone in the arena", "an adjacent zone")."""
    return [z for z in resolve(game, phrase, ctx) if isinstance(z, str)]


def has_name(game: Game, obj: GameObject, name: str) -> bool:
    """Does the object carry this Capitalised name (trait, condition, token, subtype, school,
    card name or card-type word)?  Names an object has without printing them (Living for a
    creature...) are traits it has: the codex states them (`static innate(...)`, Effects._innate)."""
    n, kinds = _name_reading(name)
    if obj.card.kind in kinds:
        return True
    # what the card prints and the markers on it first: the derived traits (the costly part, and
    # the only one that can start a computation of derived values) only when those do not answer
    if n in _printed_names(obj.card):
        return True
    if obj.markers.get(name):
        return True
    for key, count in obj.markers.items():  # a condition's `static gain_subtypes(this, ...)` while it is on
        if count and n in _gained_subtypes(game, key):
            return True
    # (its card's name is among the printed names)
    return game.effects.derived(obj).has(name)


@functools.lru_cache(maxsize=20_000)  # (names come from the corpus and the engine; the vocabulary is fixed)
def _name_reading(name: str) -> tuple[str, tuple]:
    """(the name's lower case, the object kinds it names as a card-type noun, or ()): has_name reads it
    for every name test of every phrase."""
    n = name.lower()
    kinds: tuple = ()
    if n in V.NOUN_MEANINGS or n in V.PHRASE_WORDS:
        try:
            dom, nk, _subtype = V.noun_meaning(n)
        except KeyError:
            dom, nk = "", ()
        if dom == "object":
            kinds = tuple(nk)
    return n, kinds


def _has_test(game: Game, obj: GameObject, t) -> bool:
    """A name test of a phrase: the name in any sense, or only the subtype (`Frost subtype`)."""
    return has_subtype(game, obj, t.name) if getattr(t, "subtype", False) else has_name(game, obj, t.name)


_PRINTED_NAMES: dict[int, tuple] = {}


def _printed_names(card) -> frozenset:
    """The lower-cased names a card definition carries in print: its subtypes, schools, slots
    (equipment named by its location: "Weapon equipment"), its own name and its traits printed with a
    name in them ("Priestess Only").  Read once per definition."""
    hit = _PRINTED_NAMES.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    names = frozenset([s.lower() for s in card.subtypes] + [s.lower() for s, _ in card.schools]
                      + [s.lower() for s in card.slot] + [card.name.lower()]
                      + [t.text.lower() for t in card.traits if " " in t.text]  # "Priestess Only"
                      + _mage_class_names(card))
    if len(_PRINTED_NAMES) > 20_000:
        _PRINTED_NAMES.clear()
    _PRINTED_NAMES[id(card)] = (card, names)
    return names


def _mage_class_names(card) -> list:
    """A Mage (its Mage card, or its stats card "X Stats") is named by its class: its name or its last words
    ("your Warlord mage" names an Anvil Throne Warlord too), as the spellbook rules read "X Only"
    (spellbook/rules.py allowed)."""
    if card.kind not in ("mage", "magestats"):
        return []
    name = card.name
    if card.kind == "magestats":
        name = name.split(" Stats")[0] if " Stats" in name else name
    words = name.lower().split()
    return [" ".join(words[i:]) for i in range(len(words))]


#: the static call of a condition's entry naming subtypes its carrier has while marked
GAIN_SUBTYPES = "gain_subtypes"


def has_subtype(game: Game, obj, name: str) -> bool:
    """Does the object have this subtype (printed, or given by a condition on it), as opposed to a trait of
    the same name (the Frost subtype of an Ice Golem, not the Frost -3 trait of a Grizzly)?"""
    n = name.lower()
    return any(s.lower() == n for s in obj.card.subtypes) or any(
        c and n in _gained_subtypes(game, k) for k, c in obj.markers.items())


def _gained_subtypes(game: Game, entry: str) -> frozenset:
    """Lower-case subtypes the codex entry `entry` gives what carries its marker (cached per game)."""
    cache = game.__dict__.setdefault("_gained_subtypes", {})
    got = cache.get(entry)
    if got is None:
        names = set()
        for ab in game.codex_statics(entry, GAIN_SUBTYPES):
            for a in ab.effect.args[1:]:
                if isinstance(a.value, A.Phrase):
                    names.add(a.value.text.lower())
        got = cache[entry] = frozenset(names)
    return got


# ---------------------------------------------------------------- evaluation
def _player(game: Game, x) -> Optional[str]:
    """The player a value stands for (a Mage or any object: its controller; a player name)."""
    if isinstance(x, str):
        return x if x in game.state.players else None
    return getattr(x, "controller", None)


def _zone(game: Game, x) -> Optional[str]:
    if isinstance(x, str):
        return x if game.state.arena.is_zone(x) else None
    return game.state.zone_of(x) if x is not None else None


def _mage(game: Game, who: str):
    return game.state.mage_of(who) or who


def _eval(game: Game, sel: S.Selector, ctx: Ctx) -> list:
    st = game.state
    if isinstance(sel, S.Pronoun):
        obj = pronoun(game, sel.word, ctx)
        if obj is None:
            return []
        if sel.kinds is not None and (isinstance(obj, str) or obj.kind not in sel.kinds):
            return []
        return [obj]
    if isinstance(sel, S.ControllerOf):
        out = []
        for ref in _eval(game, sel.of, ctx):
            if isinstance(ref, str):
                continue
            who = ref.owner if sel.owner else ref.controller
            m = _mage(game, who)
            if m not in out:
                out.append(m)
        return out
    if isinstance(sel, S.OpponentOf):
        mine = {_player(game, r) for r in _eval(game, sel.of, ctx)}
        return [_mage(game, p) for p in st.order if p not in mine]
    if isinstance(sel, S.ZoneOf):
        out = []
        for ref in _eval(game, sel.of, ctx):
            z = _zone(game, ref)
            if z is not None and z not in out:
                out.append(z)
        return out
    if isinstance(sel, S.Described):
        return _eval_described(game, sel, ctx)
    raise PhraseError(f"selector {type(sel).__name__} cannot be evaluated")


def _eval_described(game: Game, sel: S.Described, ctx: Ctx) -> list:
    st = game.state
    if sel.domain == "border":
        raise PhraseError(f"'{sel.text}': borders are not objects the engine can select yet")
    if sel.quantifier == "target":  # a spell with two targets (a creature and a zone) names either
        return [t for t in _targets(ctx) if _fits(game, t, sel, ctx)]
    # what a relation names (`within 1 zone of a friendly vine marker`) is the same for every candidate: read
    # once for this evaluation (at the first candidate that asks), not once per candidate
    inner = {} if sel.relations else None
    if sel.domain == "zone":
        return [z for z in st.arena.zones() if _fits(game, z, sel, ctx, inner)]
    if sel.domain == "player":
        return [_mage(game, p) for p in st.order if _fits_player(game, p, sel, ctx)]
    if sel.domain == "marker":
        out = []
        for host in _marker_hosts(game, sel, ctx):
            out.extend([host] * _marker_count(game, host, sel))
        return out
    pool = st.graveyard if sel.state else st.in_play()
    return [o for o in pool if _fits(game, o, sel, ctx, inner)]


def _fits_player(game: Game, player: str, sel: S.Described, ctx: Ctx) -> bool:
    if sel.opponent or sel.controller == "enemy":
        return ctx.this is not None and player != ctx.this.controller
    if sel.controller == "friendly":
        return ctx.this is not None and player == ctx.this.controller
    if sel.names or sel.relations or sel.other or sel.new or sel.visibility or sel.state or sel.level is not None:
        raise PhraseError(f"'{sel.text}': a player cannot be described this way")
    return True


def _marker_hosts(game: Game, sel: S.Described, ctx: Ctx) -> list:
    hosts = None
    for r in sel.relations:
        if not isinstance(r, S.AttachedTo):
            raise PhraseError(f"'{sel.text}': markers can only be selected on an object")
        got = [h for h in _eval(game, r.host, ctx) if not isinstance(h, str)]
        hosts = got if hosts is None else [h for h in hosts if h in got]
    if hosts is None:
        hosts = list(game.state.in_play())
    return hosts


def _marker_count(game: Game, host, sel: S.Described) -> int:
    n = 0
    for name, count in host.markers.items():
        if count <= 0:
            continue
        entry = game.codex.get(name)
        if sel.marker_kind is not None:
            kind = entry.marker if entry is not None else None
            if kind != sel.marker_kind:
                continue
        ok = True
        for t in sel.names:
            cats = entry.categories if entry is not None else ()
            has = name == t.name or t.name in cats
            if has == t.negated:
                ok = False
                break
        if ok:
            n += count
    return n


def _targets(ctx: Ctx) -> list:
    """The context's targets: its target, and the other targets of a spell that has two
    (`ctx.extra["targets"]`, set by the casting sequence)."""
    out = [ctx.target] if ctx.target is not None else []
    return out + [t for t in ctx.extra.get("targets", ()) if t is not None and t is not ctx.target]


def _fits(game: Game, obj, sel: S.Described, ctx: Ctx, inner: Optional[dict] = None) -> bool:
    """Whether an object (or a zone, for a zone selector) fits every part of a description.  `inner`: what
    the relations' own phrases name, kept by the caller for the candidates of one evaluation (_named)."""
    st = game.state
    this = ctx.this
    if sel.quantifier == "target" and not any(obj is t or (isinstance(obj, str) and obj == t) for t in _targets(ctx)):
        return False
    if sel.domain == "zone":
        if not isinstance(obj, str):
            return False
        return _zone_fits(game, obj, sel, ctx, inner)
    if sel.domain == "marker":
        return not isinstance(obj, str) and _marker_count(game, obj, sel) > 0 and obj in _marker_hosts(game, sel, ctx)
    if sel.domain == "player":
        p = _player(game, obj)
        return p is not None and st.mage_of(p) is obj and _fits_player(game, p, sel, ctx)
    if sel.domain == "border":
        if not isinstance(obj, str):
            return False  # an object is no border (a spell made to target a border, redirected to one)
        raise PhraseError(f"'{sel.text}': borders are not objects the engine can select yet")
    if isinstance(obj, str) or obj is None:
        return False
    if sel.state is not None and obj.in_play:
        return False
    if sel.kinds is not None and obj.card.kind not in sel.kinds and not (
            sel.subtype_noun and sel.subtype_noun in obj.card.subtypes):
        return False
    # (what is read off the object and the context first: the names, which may derive the object, only when
    # those fit)
    if sel.controller is not None:
        if this is None:
            return False
        if (obj.controller == this.controller) != (sel.controller == "friendly"):
            return False
    if sel.visibility is not None and obj.hidden != (sel.visibility == "hidden"):
        return False
    if sel.level is not None:
        lvl = obj.card.level
        if lvl > sel.level if sel.level_max else lvl != sel.level:
            return False
    for t in sel.names:
        if _has_test(game, obj, t) == t.negated:
            return False
    if sel.other:
        host = st.objects.get(this.attached_to) if this is not None and this.attached_to else None
        if obj is this or obj is host:
            return False
    if sel.new and (obj is ctx.it or obj is ctx.target):
        return False
    if sel.adjacent:
        raise PhraseError(f"'{sel.text}': 'adjacent' describes zones, not objects")
    for r in sel.relations:
        if not _relation(game, obj, r, sel, ctx, inner):
            return False
    return True


def _named(game: Game, sel: S.Selector, ctx: Ctx, inner: Optional[dict]) -> list:
    """What the phrase of a relation names (_eval); with `inner`, kept there for the other candidates of the
    same evaluation (the phrase reads the context, never the candidate, and nothing changes meanwhile)."""
    if inner is None:
        return _eval(game, sel, ctx)
    got = inner.get(id(sel))
    if got is None:
        got = inner[id(sel)] = _eval(game, sel, ctx)
    return got


#: `static not_counted(this, NAME, "adjacency")`: the card's object is not counted as a NAME when a phrase
#: asks what is adjacent to a NAME ("zone adjacent to another friendly Outpost")
NOT_COUNTED = "not_counted"
ADJACENCY = "adjacency"
NOT_COUNTED_FOR: frozenset[str] = frozenset({ADJACENCY})


def not_counted_runs(call) -> bool:
    """Is this `static not_counted(this, NAME, "adjacency")`, the form read here?"""
    if not (isinstance(call, A.Call) and call.name == NOT_COUNTED and len(call.args) == 3) or \
            any(a.key for a in call.args):
        return False
    who, name, what = (a.value for a in call.args)
    return isinstance(who, A.Phrase) and [w.text.lower() for w in who.words] == ["this"] and \
        isinstance(name, A.Phrase) and len(name.words) == 1 and isinstance(what, A.StringLit) and \
        what.value in NOT_COUNTED_FOR


def not_counted(obj, sel, what: str) -> bool:
    """Is `obj` not counted, for `what`, as one of the names the selector asks for?"""
    if isinstance(obj, str) or obj is None:
        return False
    names = {t.name for t in getattr(sel, "names", ()) or () if not getattr(t, "negated", False)}
    if not names:
        return False
    for ab in obj.card.abilities:
        call = getattr(ab, "effect", None)
        if isinstance(ab, A.StaticAbility) and not_counted_runs(call) and call.args[2].value.value == what \
                and call.args[1].value.words[0].text in names:
            return True
    return False


def _zone_fits(game: Game, z: str, sel: S.Described, ctx: Ctx, inner: Optional[dict] = None) -> bool:
    st = game.state
    here = _zone(game, ctx.this) if ctx.this is not None else None
    if sel.names or sel.controller or sel.visibility or sel.state or sel.level is not None or sel.new:
        raise PhraseError(f"'{sel.text}': a zone cannot be described this way")
    if sel.adjacent and (here is None or st.arena.distance(z, here) != 1):
        return False
    if sel.other and z == here:
        return False
    for r in sel.relations:
        if isinstance(r, S.HasNames):
            if not any(all(_has_test(game, o, t) != t.negated for t in r.names)
                       for o in st.objects_in_zone(z)):
                return False
        elif isinstance(r, S.Damaged):
            if not any(o.damage > 0 for o in st.objects_in_zone(z)):
                return False
        elif isinstance(r, S.Holds):
            if not any(_fits_any(game, o, r.what, ctx) for o in st.objects_in_zone(z)):
                return False
        elif isinstance(r, S.InZone):
            named = _named(game, r.zone, ctx, inner)
            zones = {_zone(game, x) for x in named}
            if z not in zones:
                return False
        elif isinstance(r, (S.Within, S.AdjacentTo)):
            named = _named(game, r.of, ctx, inner)
            bases = [b for b in (_zone(game, x) for x in named
                                 if not (isinstance(r, S.AdjacentTo) and not_counted(x, r.of, ADJACENCY)))
                     if b is not None]
            if isinstance(r, S.Within):
                if not any(st.arena.distance(z, b) <= r.distance for b in bases):
                    return False
            elif not any(st.arena.distance(z, b) == 1 for b in bases):
                return False
        else:
            raise PhraseError(f"'{sel.text}': a zone cannot be related by {type(r).__name__}")
    return True


def _fits_any(game: Game, obj, sel: S.Selector, ctx: Ctx) -> bool:
    if isinstance(sel, S.Described):
        return _fits(game, obj, sel, ctx)
    return any(x is obj for x in _eval(game, sel, ctx))


def _relation(game: Game, obj, r: S.Relation, sel: S.Described, ctx: Ctx, inner: Optional[dict] = None) -> bool:
    st = game.state
    if isinstance(r, S.InZone):
        if ctx.extra and ctx.extra.get("arena_wide") and isinstance(r.zone, S.ZoneOf) \
                and isinstance(r.zone.of, S.Pronoun) and r.zone.of.word == "this":
            return st.zone_of(obj) is not None  # an ability widened to the arena (extracost.widen_to_arena)
        named = _named(game, r.zone, ctx, inner)
        zones = {_zone(game, x) for x in named}
        return st.zone_of(obj) in zones
    if isinstance(r, S.Within):
        zone = st.zone_of(obj)
        named = _named(game, r.of, ctx, inner)
        bases = [b for b in (_zone(game, x) for x in named) if b is not None]
        return zone is not None and any(st.arena.distance(zone, b) <= r.distance for b in bases)
    if isinstance(r, S.AdjacentTo):
        zone = st.zone_of(obj)
        named = _named(game, r.of, ctx, inner)
        bases = [b for b in (_zone(game, x) for x in named if not not_counted(x, r.of, ADJACENCY)) if b is not None]
        return zone is not None and any(st.arena.distance(zone, b) == 1 for b in bases)
    if isinstance(r, S.AttachedTo):
        for host in _named(game, r.host, ctx, inner):
            if isinstance(host, str):
                if obj.attached_zone == host:
                    return True
            elif obj.attached_to == host.id:
                return True
        return False
    if isinstance(r, S.OnBorderOf):
        if not obj.border:
            return False
        named = _named(game, r.zone, ctx, inner)
        zones = {_zone(game, x) for x in named}
        return any(z in obj.border for z in zones)
    if isinstance(r, S.HasNames):
        return all(_has_test(game, obj, t) != t.negated for t in r.names)
    if isinstance(r, S.Damaged):
        return obj.damage > 0
    if isinstance(r, S.Holds):
        return any(_fits_any(game, a, r.what, ctx) for a in st.attachments(obj))
    if isinstance(r, S.ControlledBy):
        named = _named(game, r.who, ctx, inner)
        players = {_player(game, x) for x in named}
        return obj.controller in players
    if isinstance(r, S.CastBy):
        by = getattr(game, "spell_casters", {}).get(obj.id)  # recorded by engine/casting.py
        caster = st.objects.get(by) if by is not None else None
        if caster is None:
            return False
        named = _named(game, r.who, ctx, inner)
        return any(x is caster for x in named)
    raise PhraseError(f"'{sel.text}': relation {type(r).__name__} cannot be evaluated")
