"""Continuous effects, applied in timestamp order, and the derived values they produce.

Sources: printed values and traits (earliest), then abilities of attached
enchantments and equipment, conjurations and zone effects, conditions and
tokens, and effects created by resolving abilities ("until end of round"),
each at its timestamp.  Rules implemented here:

* the later of a gain and a lose wins;
* "loses and cannot gain" always wins, whatever its timestamp;
* a trait that forbids gaining life (`cannot(this, "gain life")`) stops life gains applied after it,
  keeps earlier ones;
* names an object has by nature come from the codex (`static innate(each creature, unless: [...])`);
* an enchantment that is moved takes a new timestamp (GameState.attach);
* an effect that stops applying stops at once (values are recomputed from
  the current sources; the cache is keyed on the state version);
* the second damage barrier of an object does not function.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from operator import attrgetter, is_, itemgetter
from typing import TYPE_CHECKING, Any, Callable, Optional

from ..dsl import ast as A
from ..dsl.model import AttackDefinition, Defense, TraitInstance, versus_entry
from .codextable import copy_of
from .gamepart import GamePart
from .errors import unsupported_note
from .cardindex import index as card_index, lower_words, per_definition
from ..spellbook.rules import RULE_CALLS as SPELLBOOK_RULE_CALLS
from .spellstatics import CAST_STATIC_CALLS
from . import movement
from ..dsl.vocab import noun_meaning
from .phrases import Ctx, has_name, matches, selector_of, words_of, pronoun, reads_this
from ..dsl import selectors as S
from . import staterules
from .barclauses import bar_immunity
from .phrases import not_counted_runs
from .manasupply import spend_only_runs
from .restrictions import ignore_honoured, in_foreach_runs, is_ignore, is_obligation, is_permission, is_restriction
from .defenses import STATIC_CALLS as DEFENSE_STATIC_CALLS, static_runs as defense_static_runs
from .state import LIGHT_READS, LIGHT_TRACK, LIGHT_WRITES, TRACKED_READS
from ..dsl.frozen import light_dataclass  # @dataclass, made without compiling source text

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameObject

# codex entry id -> (entry, its innate rules): each entry is read once (Effects.innate_rules)
_INNATE: dict[int, tuple[object, tuple]] = {}
# the ids of a codex's entries -> (the entries, their innate rules): one reading per compiled codex
_INNATE_BY_CODEX: dict[tuple, tuple[tuple, list]] = {}
#: entry name -> TraitInstance(name): the names objects have by nature (Effects._innate)
_BARE_TRAITS: dict[str, TraitInstance] = {}


@per_definition
def _innate_by_kind(rules: list) -> dict:
    """Object kind -> [(entry, what takes it away, the trait it gives)] from a list of innate rules
    (Effects.innate_rules).  The trait is a frozen instance without a value: one per name serves all."""
    by: dict = {}
    for name, kinds, unless in rules:
        t = _BARE_TRAITS.get(name)
        if t is None:
            t = _BARE_TRAITS[name] = TraitInstance(name)
        for k in kinds:
            by.setdefault(k, []).append((name, unless, t))
    return by


@per_definition
def _codex_node_kind(node) -> Optional[str]:
    """How Effects._codex_static applies one node of a codex entry's static to the object carrying it,
    read once per node: "call" (`immune`/`cannot`/`can`/`no_armor` of `this`: Effects._codex_call),
    "gain" or "lose" (`this gains/loses [...]`), "other" (another node about `this`: nothing here), None
    (about other objects: collected from their sources)."""
    subj = getattr(node, 'subject', None)
    if isinstance(node, A.Call) and node.name in ("immune", "cannot", "can", "no_armor") and node.args \
            and isinstance(node.args[0].value, A.Phrase) and lower_words(node.args[0].value) == ("this",):
        return "call"
    if subj is None or lower_words(subj) != ('this',):
        return None
    if isinstance(node, A.Gain):
        return "gain"
    if isinstance(node, A.Lose):
        return "lose"
    return "other"


@per_definition
def _entry_subjects(cd) -> tuple:
    """A codex entry's statics with a subject, split once per entry (Effects.collect asks for every object
    computed): (those about the object carrying it, `this`/`it` first; those whose subject does not start
    with `this`, read about the objects attached to its carrier)."""
    own, others = [], []
    for ab in cd.abilities:
        subj = getattr(ab.effect, "subject", None) if isinstance(ab, A.StaticAbility) else None
        if subj is None:
            continue
        ws = lower_words(subj)
        if ws and ws[0] in ("this", "it"):
            own.append(ab)
        if ws[:1] != ("this",):
            others.append(ab)
    return (tuple(own), tuple(others))


@per_definition
def _own_statics(cd) -> tuple:
    """A codex entry's statics that Effects._codex_static applies to the object that carries it: a
    `static for each` (its body is read there), or one whose node is about `this` in a way applied there
    (`this gains/loses [...]`, `immune`/`cannot`/`can`/`no_armor` of `this`: _codex_node_kind).  The
    others apply nothing there (`innate(...)` is about objects in general, Effects.innate_rules; a cost, a
    restriction or another call is read where it is used), so their guards are not evaluated for nothing
    (Magebind's `if is(enchanted, Mage)` derived the host of every enchantment computed)."""
    return tuple(ab for ab in cd.abilities if isinstance(ab, A.StaticAbility)
                 and (isinstance(ab.effect, A.ForEach) or _codex_node_kind(ab.effect) in ("call", "gain", "lose")))


@per_definition
def _self_stat_changes(cd) -> tuple:
    """A codex entry's `static this gets ...` (a stat change about the object carrying it: Armor +X, Life
    +X), read once per entry (Effects._trait_stats asked it of every trait of every object computed)."""
    return tuple(ab for ab in cd.abilities if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.StatChange)
                 and [w.lower() for w in words_of(ab.effect.subject)] == ["this"])


def _entry_innate(name: str, cd) -> tuple:
    got = _INNATE.get(id(cd))
    if got is not None and got[0] is cd:
        return got[1]
    rules = []
    for ab in cd.abilities:
        if not (isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call)
                and ab.effect.name == "innate" and ab.effect.args):
            continue
        kinds: list[str] = []
        for w in words_of(ab.effect.args[0].value):
            try:
                dom, ks, _ = noun_meaning(w)
            except KeyError:
                continue  # a quantifier ("each")
            if dom == "object":
                kinds.extend(ks)
        unless = next((a.value for a in ab.effect.args if a.key == "unless"), None)
        names = tuple(r.name.text for r in unless.traits) if isinstance(unless, A.TraitGroup) else ()
        rules.append((name, tuple(kinds), names))
    if len(_INNATE) > 4096:
        _INNATE.clear()
    _INNATE[id(cd)] = (cd, tuple(rules))
    return _INNATE[id(cd)][1]


@light_dataclass
class Mod:
    """One applied (or refused) effect, for the log: what, from where, when."""
    source: str
    timestamp: int
    what: str
    applied: bool = True
    why: str = ""

    def __str__(self) -> str:
        s = f"{self.what} (from {self.source}, t{self.timestamp})"
        if not self.applied:
            s += f" — no effect: {self.why}"
        return s


#: id of a card -> [the card, the names by nature it was read with, (entry names, entries) read or None, what a
#: derivation of an object of it works out before the effects on it, what it works out when nothing else
#: applies]: Effects._template_entry
_TEMPLATES: dict[int, list] = {}
#: the fields of a Derived that are sets and dicts a template carries (Effects._keep_template)
_TEMPLATE_SETS = ("cannot_gain", "immune_conditions", "immune_types", "cannot_do", "can_do")
_TEMPLATE_DICTS = ("immune_by", "cannot_by", "can_by")
_NO_NAMES: frozenset = frozenset()
_TIMESTAMP = attrgetter("timestamp")
_FIRST = itemgetter(0)


#: a temporary effect `borrow_bars(OBJECT id)` (engine/glyphs.py): the object may use the other's bars
BORROW_BARS = "borrow_bars"


@dataclass(init=False)
class Derived:
    traits: dict = field(default_factory=dict)  # key -> list[TraitInstance]
    cannot_gain: set = field(default_factory=set)
    base_armor: int = 0  # before Corrode
    armor: int = 0
    no_armor: bool = False
    life: Optional[int] = None
    channeling: Optional[int] = None  # mana it brings its controller each Channeling Phase
    mods: list = field(default_factory=list)
    defenses: list = field(default_factory=list)  # (Defense, source obj id, index key)
    attacks: list = field(default_factory=list)  # (AttackDefinition, source obj id)
    attack_traits: list = field(default_factory=list)  # (TraitInstance, kind or None, source label)
    immune_conditions: set = field(default_factory=set)
    immune_types: set = field(default_factory=set)  # damage types nothing of which reaches it
    immune_by: dict = field(default_factory=dict)  # condition or type -> the trait that gives the immunity
    cannot_do: set = field(default_factory=set)  # actions its traits forbid: `cannot(this, "heal")`
    cannot_by: dict = field(default_factory=dict)  # action -> the trait that forbids it
    can_by: dict = field(default_factory=dict)  # action -> the trait that allows it (codex `can(this, ...)`)
    can_do: set = field(default_factory=set)  # actions its traits allow: `can(this, "ignore guards")`
    cannot_be_attacked: list = field(default_factory=list)  # (detail, source label)
    barrier: Optional[tuple] = None  # (AttackDefinition, source obj id) — the one that functions
    extra_barriers: list = field(default_factory=list)
    carried: dict = field(default_factory=dict)  # event -> codex listeners it carries (Game._carried)
    heard: Optional[frozenset] = None  # events it may hear in play (Game._heard_by), worked out on first use
    borrowed: list = field(default_factory=list)  # ids of objects whose bars it may use (borrow_bars)
    # the statics of its traits' entries about what is attached to it (Effects._about_attached), on first use
    about_attached: Optional[tuple] = None
    entries: Optional[tuple] = None  # the codex entries it carries (Effects.entries), on first use
    # what the statements of those entries are about (restrictions._value_stated), on first use
    stated: Optional[frozenset] = None

    def __init__(self, traits: Optional[dict] = None, mods: Optional[list] = None, sets: Optional[tuple] = None,
                 dicts: Optional[tuple] = None) -> None:
        """A value being worked out (Effects._compute) or what is known before (Effects._printed): every
        field at its default.  Or a value copied from a template of its card (Effects._from_template), to
        be finished: its mods, its five sets (cannot_gain, immune_conditions, immune_types, cannot_do,
        can_do: the template's frozen ones, shared, as nothing writes them once a value is worked out and a
        write would fail loudly) and its three dicts (immune_by, cannot_by, can_by: copied).  Written out,
        not generated: the generated __init__ tested each of the 23 fields for a default factory (a fifth
        of a derivation's own bytecode)."""
        if sets is None:
            cannot_gain, immune_conditions, immune_types, cannot_do, can_do = set(), set(), set(), set(), set()
        else:
            cannot_gain, immune_conditions, immune_types, cannot_do, can_do = sets
        if dicts is None:
            immune_by, cannot_by, can_by = {}, {}, {}
        else:
            immune_by, cannot_by, can_by = (dict(x) if x else {} for x in dicts)
        self.traits = {} if traits is None else traits
        self.cannot_gain = cannot_gain
        self.base_armor = 0
        self.armor = 0
        self.no_armor = False
        self.life = None
        self.channeling = None
        self.mods = [] if mods is None else mods
        self.defenses = []
        self.attacks = []
        self.attack_traits = []
        self.immune_conditions = immune_conditions
        self.immune_types = immune_types
        self.immune_by = immune_by
        self.cannot_do = cannot_do
        self.cannot_by = cannot_by
        self.can_by = can_by
        self.can_do = can_do
        self.cannot_be_attacked = []
        self.barrier = None
        self.extra_barriers = []
        self.carried = {}
        self.heard = None
        self.borrowed = []
        self.about_attached = None
        self.entries = None
        self.stated = None

    def has(self, key: str) -> bool:
        return key in self.traits

    def value(self, key: str, stacking: str = "add") -> int:
        vals = [t.value for t in self.traits.get(key, ()) if isinstance(t.value, int)]
        if not vals:
            return 0
        return max(vals) if stacking == "highest" else sum(vals)

    def trait_names(self) -> list[str]:
        out = []
        for k, ts in self.traits.items():
            v = [t.value for t in ts if isinstance(t.value, int)]
            out.append(f"{k} {'+' if sum(v) > 0 else ''}{sum(v)}" if v and any(v) else k)
        return sorted(out)


def trait_from_ref(ref: A.TraitRef, codex: Optional[dict] = None) -> TraitInstance:
    if ref.versus:  # `+X vs Name`: the codex entry declared `param versus` (its key depends on the codex)
        key = versus_entry(codex or {}) or ref.text
        val = ref.param.signed_value() if ref.param is not None else None
        return TraitInstance(key, val, None, tuple(v.text for v in ref.versus), ref.text)
    return _plain_trait(ref)


@per_definition
def _plain_trait(ref: A.TraitRef) -> TraitInstance:
    """The trait a reference without `vs` makes: the same reference makes the same (frozen) instance, made
    once per reference, not at every derivation (a frozen dataclass's __init__ is slow: object.__setattr__
    for each field)."""
    return TraitInstance(ref.name.text, ref.param.signed_value() if ref.param is not None else None, None, (),
                         ref.text)


def attached_subject(subject) -> bool:
    """A codex static's subject naming the objects attached to its carrier: `each KIND attached to this`."""
    ws = lower_words(subject) if subject is not None else ()
    return len(ws) >= 5 and ws[0] in ("each", "every", "all") and tuple(ws[-3:]) == ("attached", "to", "this")



#: what an `immune(this, WHAT)` of a codex entry names, in words, per argument (by identity: entries are frozen)
_IMMUNE_WORDS: dict[int, tuple] = {}


def _immune_words(what) -> str:
    """`[Burn, Poison]`, `Flame`, `"hinder"`: the words a mod shows.  Worked out once per argument (a
    group's dataclass text was formatted on every derivation: 5% of an armored attack sequence)."""
    hit = _IMMUNE_WORDS.get(id(what))
    if hit is not None and hit[0] is what:
        return hit[1]
    if isinstance(what, A.TraitGroup):
        words = "[" + ", ".join(r.name.text for r in what.traits) + "]"
    elif isinstance(what, A.StringLit):
        words = what.value
    else:
        words = getattr(what, "text", "") or str(what)
    if len(_IMMUNE_WORDS) > 10_000:
        _IMMUNE_WORDS.clear()
    _IMMUNE_WORDS[id(what)] = (what, words)
    return words

#: id of a card -> (the card, Effects._static_plan); id of a ForEach node -> (the node, Effects._foreach_shape).
#: Worked out from the definition alone (frozen: each entry keeps its key's object alive), shared by games.
_PLANS: dict[int, tuple] = {}
_FOREACH_SHAPES: dict[int, tuple] = {}
#: id of a ForEach node whose body applies only to `it` -> (the node, *_marker_gate of its body)
_FOREACH_GATES: dict[int, tuple] = {}
#: id of a ForEach node -> Effects._foreach_reading (the node first: it keeps its key's object alive)
_FOREACH_READINGS: dict[int, tuple] = {}


@per_definition
def _marker_phrase(phrase) -> tuple:
    """(marker name, False) for `<Name> token(s)|marker(s) on this|it`, (None, True) for `token(s) on
    this` (every token), else (None, False): how a `for each` phrase counts markers, read once per
    phrase (Effects._marker_count and _static_foreach ask it at every object computed)."""
    ws = words_of(phrase)
    low = [w.lower() for w in ws]
    if len(ws) >= 4 and low[1] in ('token', 'tokens', 'marker', 'markers') and low[2] == 'on' \
            and low[3] in ('this', 'it'):
        return ws[0], False
    return None, low in (["token", "on", "this"], ["tokens", "on", "this"])


#: nouns a pronoun subject may carry and still name one object (`this creature`, `your Mage`)
_PRONOUN_NOUNS = ("creature", "object", "mage", "conjuration")


def _static_pronoun(subject) -> Optional[str]:
    """The pronoun a static's subject is (`this`, `bearer`, `your Mage`...): it names one object, the same
    whichever object is worked out (Effects._affects, Effects._static_plan); None for any other phrase."""
    ws = lower_words(subject)
    if ws and ws[0] in ("this", "enchanted", "attached", "bearer", "it", "controller", "you", "your") and (
            len(ws) == 1 or ws[1] in _PRONOUN_NOUNS):
        return ws[0]
    return None


def _body_pronoun(subject) -> Optional[str]:
    """How a clause of a `static for each` body names its subject (Effects._denotes, _foreach_shape):
    "it" (`it`, `its`, `that`: the object the phrase named), a pronoun of the source (`this`, `bearer`,
    `your Mage`...), or None for any other phrase."""
    ws = lower_words(subject)
    if ws and ws[0] in ("it", "its", "that") and (len(ws) == 1 or ws[1] in ("creature", "object")):
        return "it"
    if ws and ws[0] in ("this", "enchanted", "attached", "bearer", "controller", "you", "your") and (
            len(ws) == 1 or ws[1] in _PRONOUN_NOUNS):
        return ws[0]
    return None


def _gate_open(gate: tuple, obj) -> bool:
    """Does the object carry the markers some clause of a gated body waits for?"""
    markers = obj.markers
    if not markers:
        return False  # (every clause waits for one marker at least: _marker_gate; most objects carry none)
    return any(all(markers.get(n, 0) >= least for n, least in needs) for needs in gate)


def _gate_need(c) -> Optional[tuple]:
    """(NAME, least count) for a condition `tokens(it, NAME) >= N` or `> N` (N a number, the least 1 or
    more), else None.  NAME is the phrase's text, as the `tokens` value reads it (a marker named in several
    words too: Eternal Servant, On Guard)."""
    if isinstance(c, A.Compare) and isinstance(c.left, A.Call) and c.left.name == "tokens" \
            and len(c.left.args) == 2 and not any(a.key for a in c.left.args) \
            and isinstance(c.left.args[0].value, A.Phrase) and lower_words(c.left.args[0].value) == ("it",) \
            and isinstance(c.left.args[1].value, A.Phrase) and c.left.args[1].value.words \
            and isinstance(c.right, int) and not isinstance(c.right, bool) and c.op in (">=", ">"):
        least = c.right if c.op == ">=" else c.right + 1
        if least >= 1:
            return c.left.args[1].value.text, least
    return None


def _marker_gate(body) -> Optional[tuple]:
    """When every clause of a `static for each` body sits in an `if` (with no `else`) whose condition
    requires markers on `it` (a conjunct `tokens(it, NAME) >= N` or `> N`, N a number): (for each clause,
    the (NAME, least count) it requires; whether that is all the body asks: every conjunct is such a
    count and no clause holds a further `if`, so its conditions read nothing but the markers on `it`).
    None when some clause requires none: the body is read."""
    gate = []
    only = True
    for node in body:
        if not isinstance(node, A.IfEffect) or node.otherwise:
            return None
        conds = node.condition.items if isinstance(node.condition, A.CondAnd) else (node.condition,)
        needs = []
        for c in conds:
            need = _gate_need(c)
            if need is not None:
                needs.append(need)
            else:
                only = False
        if not needs:
            return None
        if any(isinstance(n, A.IfEffect) for n in node.then):
            only = False
        gate.append(tuple(needs))
    return (tuple(gate), only) if gate else None


class _Watched(dict):
    """The objects of the state while a derived value is worked out: an object read by id is one the
    computation depends on; going over them all, it depends on every object (Effects._sync drops the
    value when one it depends on changes).  A copy: the state's own dict is put back when the
    computation ends."""
    __slots__ = ("frames",)  # the computations under way (Effects._frames); made by dict's constructor
    # (Effects.derived: an __init__ here was a Python frame and a super() call per value computed)

    def _mark(self, key=None) -> None:
        if self.frames:
            frame = self.frames[-1]
            if key is None:
                frame[1] = None  # went over every object
            elif key != frame[0] and frame[1] is not None:
                frame[1].add(key)

    def get(self, key, default=None):
        self._mark(key)
        return dict.get(self, key, default)

    def __getitem__(self, key):
        self._mark(key)
        return dict.__getitem__(self, key)

    def __contains__(self, key):
        self._mark(key)
        return dict.__contains__(self, key)

    def values(self):
        self._mark()
        return dict.values(self)

    def items(self):
        self._mark()
        return dict.items(self)

    def keys(self):
        self._mark()
        return dict.keys(self)

    def __iter__(self):
        self._mark()
        return dict.__iter__(self)

    def __len__(self):
        self._mark()
        return dict.__len__(self)

    def _changed(self, *a, **kw):
        raise RuntimeError("the state's objects changed while a derived value was being worked out")

    __setitem__ = __delitem__ = pop = popitem = setdefault = update = clear = _changed


_UNKEPT = object()  # (Effects.for_epoch: no answer kept yet)
#: derived() answers given from an unfinished computation so far, in all games (did a phrase match see
#: one?  Effects._static_foreach compares it before and after).  Not an attribute of Effects: past 29
#: attributes an instance's values leave their compact shared form, and making each game's Effects cost
#: about twice as much (this counter gave its place to `_quiet`)
PARTIAL_READS = [0]

class Effects(GamePart):
    def __init__(self, game: "Game"):
        super().__init__(game)  # (held weakly: engine/gamepart.py)
        self._state = game.state  # (the game's state for its lifetime: read at every derived() call)
        self._cache: dict[str, Derived] = {}
        self._version = -1
        self._shape_version = -1
        self.epoch = 0  # Effects.current_epoch
        self._epoch_kept: tuple = (-1, {})  # (epoch, key -> answer): Effects.for_epoch
        self._shape_kept: tuple = (None, {})  # (fingerprint, key -> answer): Effects.for_shape
        self._prev_shape: tuple = ()  # the fingerprint before the last change (Effects._changed_objects)
        self._frames: list = []  # [object id, ids of the other objects read (None: all)] of each computation under way
        self._deps: dict[str, Optional[set]] = {}  # kept value -> the other objects its computation read (None: all)
        self._shape: tuple = ()  # Effects._fingerprint as of the last state change
        self._damage_dependent: set[str] = set()  # cached objects whose derived values read a light field
        # cached objects whose derived values read only tracked light fields (state.TRACKED_LIGHT) -> {object read:
        # its light stamp then}: dropped only when one of those objects' tracked fields was written since
        self._light_keys: dict[str, dict] = {}
        # kept values of attachments that read their host apart (Effects._host_read) -> [the host's id, what
        # else their computation read, the value while it is set aside (not in _cache) or None]
        self._quiet: dict[str, list] = {}
        self._writes_seen = -1  # state.LIGHT_WRITES when _light_keys was last checked
        # (state version, round) and, per (source id, foreach node id), the objects its phrase names,
        # kept only when matching saw no unfinished computation (then every derived value it read is
        # the one cached for this version, and it depends on the state alone)
        self._foreach_its: tuple = (-1, -1, {})
        self._computing: set[str] = set()
        self._partial: dict[str, Derived] = {}  # objects being computed: their traits so far
        # the fingerprint (self._shape, the very tuple) Effects._sources was gathered at: what it reads
        # (which objects are in play, face up, attached, their cards, the players' Mages) is fingerprinted,
        # so it stays valid while only light fields change
        self._sources_shape: Optional[tuple] = None
        self._sources_list: list = []
        # the ids of the objects whose fingerprint changed since _sources_shape (what Effects._changed_objects
        # found at each change since, pooled), or None when it found anything else changed (or no list was
        # gathered yet): _sources works out again only the entries of those objects.  (No more attributes than
        # this: past 30, an instance's attributes leave their compact shared form and every read costs more.)
        self._sources_changed: Optional[set] = None
        self._in_play_statics: tuple = (None, {})  # (fingerprint, call name -> Effects.statics_in_play)
        self._attached: dict = {}  # host id -> the objects attached to it in play, as of _sources_shape
        self._printed_traits: dict[int, tuple] = {}
        self._elsewhere: dict[int, tuple] = {}  # id of a static call -> (call, read elsewhere?)  # id of a card -> (card, its traits before any source)
        self.temporary: list[tuple] = []  # (timestamp, source label, target id, effect node, until)
        self._innate_rules: Optional[list] = None  # Effects.innate_rules, read once per game
        self._innate_by_kind: Optional[dict] = None  # object kind -> [(name, unless)]

    # ------------------------------------------------------------ cache
    def _sync(self) -> None:
        """The state changed since the kept values were checked: drop what may be stale.  Everything
        else in the fingerprint the same: only what was worked out reading a light field.  Only some
        objects' fingerprints changed, none of them a card with static abilities, and nothing else:
        only their own values and those of objects whose computation read another object."""
        st = self._state
        if self._shape_version != st.shape_version and not self._same_shape():
            self.epoch += 1
            changed = self._changed_objects()
            since = self._sources_changed
            if since is not None:  # (what _sources reads of an object is in its fingerprint: Effects._sources)
                self._sources_changed = None if changed is None else since | changed
            if changed is None:
                self._cache.clear()
                self._damage_dependent.clear()
                self._light_keys.clear()
                self._deps.clear()
                self._quiet.clear()
            else:
                deps = self._deps
                quiet = self._quiet
                if quiet:  # values set aside before: they go once what they read besides their host changed
                    for oid in [oid for oid, q in quiet.items()
                                if q[2] is not None and (oid in changed or not changed.isdisjoint(q[1]))]:
                        del quiet[oid]
                        self._damage_dependent.discard(oid)
                        self._light_keys.pop(oid, None)
                        deps.pop(oid, None)
                for oid in [oid for oid in self._cache
                            if oid in changed or deps.get(oid, None) is None or not changed.isdisjoint(deps[oid])]:
                    d = self._cache.pop(oid)
                    q = quiet.get(oid) if quiet else None
                    if q is not None:
                        if oid not in changed and changed.isdisjoint(q[1]):
                            q[2] = d  # only its host, or what the host's value read, changed: set aside
                            continue  # (with what is kept about it: _restored takes it back or drops it)
                        del quiet[oid]
                    self._damage_dependent.discard(oid)
                    self._light_keys.pop(oid, None)
                    deps.pop(oid, None)
        if self._damage_dependent:  # light fields may have changed too: drop what was computed reading one
            self.epoch += 1
            quiet = self._quiet
            for oid in self._damage_dependent:
                self._cache.pop(oid, None)
                self._deps.pop(oid, None)
                if quiet:
                    quiet.pop(oid, None)
            self._damage_dependent.clear()
        if self._light_keys and self._writes_seen != LIGHT_WRITES[0]:
            # values that read tracked light fields only: those whose objects' fields were written since
            self._writes_seen = LIGHT_WRITES[0]
            stale = []
            for oid, read in self._light_keys.items():
                for o, stamp in read.items():
                    if o._light_stamp != stamp:
                        stale.append(oid)
                        break
            if stale:
                self.epoch += 1
                for oid in stale:
                    self._cache.pop(oid, None)
                    self._deps.pop(oid, None)
                    del self._light_keys[oid]
                    if self._quiet:
                        self._quiet.pop(oid, None)
        self._shape_version = st.shape_version
        self._version = st.version

    def _changed_objects(self) -> Optional[set]:
        """The ids of the objects whose fingerprint differs between the last two shapes (objects that came
        into the game count as changed), or None when anything else differs (the round, the players, X
        values...), or when one that changed carries statics that may reach other objects (it may change
        any object: everything is worked out again)."""
        old, new = self._prev_shape, self._shape
        # (the arena, the players | the objects | lasting effects, X values, casters, the codex: see
        #  _fingerprint; the round and the discard piles are light, state.GameState)
        if len(old) != len(new) or old[:3] != new[:3] \
                or old[7:] != new[7:] or len(old[3]) > len(new[3]):
            return None
        changed = set()
        objects = self._state.objects
        if old[5] != new[5]:
            # the value of X of an object changed (a spell costing X is cast): read by its own value and, as
            # one of its fields would be, by what its statics apply (the values tagged with it: collect) and by
            # the object it is attached to (statics naming only the object or its host)
            for k in {k for k, _ in set(old[5]) ^ set(new[5])}:
                changed.add(k)
                changed.add(("static", k))
                o = objects.get(k)
                if o is not None and o.attached_to is not None:
                    changed.add(o.attached_to)
        for b in new[3][len(old[3]):]:  # objects that came into the game (the table only grows)
            o = objects.get(b[0])
            if o is None or not self._affects_only_self(o) and self._applies(b, o):
                return None  # (statics that do not apply yet reach nothing: face down, not in play...)
            changed.add(b[0])
            if b[11]:  # it came carrying markers (Effects._gated_none)
                changed.update([("marker", n) for n, _ in b[11]])
            if b[5] is not None:  # attached to something as it came: its host changed
                changed.add(b[5])
        if old[4] != new[4]:  # effects lasting a while: read by the object they are on (collect)
            changed.update(e[2] for e in set(old[4]) ^ set(new[4]))
        if old[6] != new[6]:  # the caster of a spell: read through the spell object
            changed.update(k for k, _ in set(old[6]) ^ set(new[6]))
        for a, b in zip(old[3], new[3]):
            if a is b or a == b:
                continue
            if a[0] != b[0] or a[1] != b[1]:  # another object, or its card changed
                return None
            o = objects.get(b[0])
            if o is None:
                return None
            if not self._affects_only_self(o):
                if a[2] != b[2] or self._applies(a, o) != self._applies(b, o):
                    # its statics may reach others, and it began or stopped applying them, or its controller
                    # (whose Mage its pronouns name) changed: any object may change
                    return None
                # else only the values whose computation its statics read (Effects.collect: its tag)
                changed.add(("static", b[0]))
            changed.add(b[0])
            if (a[11] or b[11]) and (a[11] != b[11] or a[10] != b[10]):
                # its markers changed, or it came into play or left it carrying some: whatever waits for an
                # object carrying them (Effects._gated_none) may change
                changed.update([("marker", n) for n, _ in a[11] + b[11]])
            for host in (a[5], b[5]):  # what it is attached to, before and after: its attachments changed
                if host is not None:
                    changed.add(host)
        placers = self.game.placers
        if placers:  # who placed a shared condition on a changed object carries it too (Game.held, collect)
            for (oid, name), ids in placers.items():
                if oid in changed and self.game.shared(name):  # (placers of other conditions carry nothing)
                    changed.update(ids)
        return changed

    @staticmethod
    def _applies(fp: tuple, o) -> bool:
        """Do the statics of an object apply, as of its part of a fingerprint (Effects._sources: in play,
        face up, an enchantment only while attached)?"""
        return fp[10] and not fp[8] and (o.kind != "enchantment" or fp[5] is not None or fp[6] is not None)

    #: pronoun subjects naming the source itself or the object it is attached to
    _SELF_OR_HOST = ("this", "enchanted", "attached", "bearer")

    def _affects_only_self(self, o) -> bool:
        """Can a change of this object change derived values of objects other than itself and what it
        is attached to (before and after)?  Not when its statics applied here name only itself or its
        host: every other kind (a phrase naming others, for each, a call decided by _static_call, a
        controller's Mage) may change any object."""
        statics = card_index(o.card).statics
        if not statics:
            return True
        return all(step[0] == "apply" and step[4] in self._SELF_OR_HOST for step in self._static_plan(o.card, statics))

    def reads_others(self) -> None:
        """A computation under way read something worked out from other objects (a kept answer of
        another layer): its value is dropped whenever any object changes (Effects._sync)."""
        if self._frames:
            self._frames[-1][1] = None

    def current_epoch(self) -> int:
        """A number that changes whenever the fingerprint changes or a kept derived value is dropped (and
        only then): what is worked out from the fingerprinted fields of the state and from derived values
        alone (the listeners of an event, what the codex entries a party carries state) stays valid while
        it is the same, however many light fields (damage, mana, guard...) changed meanwhile."""
        if self._version != self._state.version:
            self._sync()
        return self.epoch

    def shape(self) -> tuple:
        """The fingerprint of the state now (Effects._fingerprint): the very tuple stays while only light
        fields change, so what is worked out from fingerprinted fields alone (which objects are in play,
        face up, attached, on which border, their cards) may be kept while it is the same object."""
        if self._version != self._state.version:
            self._sync()
        return self._shape

    def statics_in_play(self, name: str) -> list:
        """(source, static ability) of each `static name(...)` (not once per round) printed on a face-up
        object in play, in the order of the objects and of their abilities: kept per fingerprint (most
        calls are printed on no card in play, and the layers reading them ask at every decision; the
        caller must not change the list).  A computation under way that asks reads every object."""
        if self._frames:  # (reads_others)
            self._frames[-1][1] = None
        shape = self._shape if self._version == self._state.version else self.shape()
        kept = self._in_play_statics
        if kept[0] is not shape:  # every call name at once: one pass over the objects per fingerprint
            by_name: dict = {}
            indexed = card_index.table  # (cardindex.per_definition's table: no call per object)
            for src in dict.values(self._state.objects):
                if src.in_play and not src.hidden:
                    ci = indexed.get(id(src.card))
                    for fn, abs_ in (ci if ci is not None else card_index(src.card)).every_call.items():
                        if abs_:
                            by_name.setdefault(fn, []).extend([(src, ab) for ab in abs_])
            kept = self._in_play_statics = (shape, by_name)
        return kept[1].get(name, ())

    def for_epoch(self, key, work: Callable[[], Any]):
        """`work()`, kept under `key` while the derived epoch stays the same: the one table of answers
        other layers work out from fingerprinted state and derived values alone (the state check's
        "does anything state gain_control", the state rules in play, the round's timed abilities...).
        Not kept when the epoch moved while it was worked out, or while a derived value is."""
        epoch = self.current_epoch()
        kept = self._epoch_kept
        if kept[0] != epoch:
            kept = self._epoch_kept = (epoch, {})
        got = kept[1].get(key, _UNKEPT)
        if got is _UNKEPT:
            got = work()
            if self.current_epoch() == epoch and not self._computing:
                kept[1][key] = got
        return got

    def for_shape(self, key, work: Callable[[], Any]):
        """`work()`, kept under `key` while the fingerprint stays the very tuple Effects.shape() hands out:
        for answers worked out from fingerprinted state alone (which objects are in play, face up, their
        cards), never from derived values or light fields.  Kept longer than for_epoch's, whose epoch also
        moves when a value that read a light field is dropped.  A computation under way that asks reads
        every object."""
        if self._frames:
            self._frames[-1][1] = None
        shape = self.shape()
        kept = self._shape_kept
        if kept[0] is not shape:
            kept = self._shape_kept = (shape, {})
        got = kept[1].get(key, _UNKEPT)
        if got is _UNKEPT:
            got = kept[1][key] = work()
        return got

    def derived(self, obj: "GameObject") -> Derived:
        if self._version != self._state.version:
            self._sync()
        oid = obj.id
        d = self._cache.get(oid)
        if d is None and self._quiet:
            d = self._restored(oid)
        if d is not None:
            if oid in self._damage_dependent:
                LIGHT_READS[0] += 1  # a computation using this one depends on light fields too
            elif self._light_keys:
                read = self._light_keys.get(oid)
                if read is not None:  # (it read tracked light fields only: so does one using it, the same)
                    LIGHT_READS[0] += 1
                    track = LIGHT_TRACK[0]
                    if track is not None:
                        TRACKED_READS[0] += 1
                        track.update(read)
            if self._frames:
                self._read_value_of(oid)
            return d
        frames = self._frames
        if obj.id in self._computing:  # a phrase asked about the object being computed: what is known so far
            PARTIAL_READS[0] += 1
            if frames and frames[-1][0] != obj.id:
                frames[-1][1] = None  # an unfinished value: whatever it ends up reading
            got = self._partial.get(obj.id)
            if got is None:  # (read before its computation has a value of its own: what it prints, one
                # copy for every such read of this computation; _compute puts its own value in its place)
                got = self._partial[obj.id] = self._printed(obj)
            return got
        st = self._state
        outer = not frames
        if outer:
            if self._sources_shape is not self._shape:
                self._sources()  # (worked out for every object alike, before reads are watched)
            real = st.objects
            watched = st.objects = _Watched(real)
            watched.frames = frames
        frame = [obj.id, set()]
        frames.append(frame)
        self._computing.add(obj.id)
        reads = LIGHT_READS[0]
        tracked = TRACKED_READS[0]
        around = LIGHT_TRACK[0]  # (the computation this one is nested in: what it reads, that one reads)
        read = LIGHT_TRACK[0] = {}
        try:
            d = self._compute(obj)
        finally:
            LIGHT_TRACK[0] = around
            frames.pop()
            if outer:
                st.objects = real
            self._computing.discard(obj.id)
            self._partial.pop(obj.id, None)
        if LIGHT_READS[0] != reads:
            if LIGHT_READS[0] - reads == TRACKED_READS[0] - tracked:  # only tracked fields, of these objects
                self._light_keys[obj.id] = read
            else:
                self._damage_dependent.add(obj.id)
        if around is not None and read:
            around.update(read)
        if len(frame) > 2 and frame[1] is not None:  # its host read apart (_host_read)
            hid, host_reads = frame[2]
            self._quiet[obj.id] = [hid, frame[1], None]
            self._deps[obj.id] = frame[1] | host_reads  # (what a computation reading this value depends on)
        else:
            if self._quiet:
                self._quiet.pop(obj.id, None)
            self._deps[obj.id] = frame[1]
        self._cache[obj.id] = d
        if frames:  # worked out inside another computation: that one read this value
            self._read_value_of(obj.id)
        return d

    def _read_value_of(self, oid: str) -> None:
        """The computation under way read the kept value of object `oid`: it depends on that object and
        on what that value was worked out from."""
        frame = self._frames[-1]
        if frame[0] == oid or frame[1] is None:
            return
        more = self._deps.get(oid, None)
        if more is None:
            frame[1] = None
        else:
            frame[1].add(oid)
            frame[1].update(more)

    def _same_shape(self) -> bool:
        old = self._shape
        new = self._fingerprint()
        if new == old:
            return True  # (the kept tuple stays: what is kept as of it, Effects._sources, stays valid)
        self._shape = new
        self._prev_shape = old
        return False

    def _fingerprint(self) -> tuple:
        """Everything derived values are worked out from except what is light (state.LIGHT_READS
        counts its reads: damage, mana, the initiative order, the attacks made, the abilities used...): every other field
        of every object and player, the round, the effects lasting a while, the values of X.  A state change
        (`GameState.touch`) that leaves it the same changed light fields only: derived values that
        read none stay valid.  Kept as of the last check (`self._shape`, Effects._same_shape)."""
        g = self.game
        st = g.state
        # (a list built, then made a tuple: a generator is resumed once per object; most objects carry no
        # marker, and the empty tuple stands for theirs without two calls each)
        objs = tuple([(o.id, id(o.card), o.controller, o.owner, o.zone, o.attached_to, o.attached_zone, o.border,
                       o.hidden, o.timestamp, o.in_play, tuple(o.markers.items()) if o.markers else (),
                       o.destroyed_by_damage, o.hindered_until, o.left_to, o.display) for o in st.objects.values()])
        fp = (st.arena.rows, st.arena.cols,
              tuple([(p.name, p.channeling, p.mage_id) for p in st.players.values()]), objs,
              tuple(self.temporary), tuple(g.x_values.items()),
              tuple(getattr(g, "spell_casters", {}).items()), len(g.codex))
        return fp

    def _source_by_label(self, label: str):
        """The object in play a collected effect names as its source (Effects.collect keeps its label),
        or None.  Found without reading every object (the state's objects are watched while a value is
        worked out: going over them all would make the value depend on every object), then read by id:
        the value depends on that object alone."""
        objects = self._state.objects
        for o in dict.values(objects):
            if o.in_play and o.label() == label:
                return objects.get(o.id)
        return None

    def _printed(self, obj: "GameObject") -> Derived:
        """What an object being computed is known to have before its sources are read: its printed
        traits and the names it has by nature (a creature is Living unless...).  They depend on its
        card alone: worked out once per card, a fresh copy each time (readers may keep it)."""
        card = obj.card
        hit = self._printed_traits.get(id(card))
        if hit is None or hit[0] is not card:
            traits: dict = {}
            for t in card.traits:
                traits.setdefault(t.key, []).append(t)
            self._innate(obj, traits)
            hit = self._printed_traits[id(card)] = (card, traits)
        return Derived(traits={k: list(v) for k, v in hit[1].items()})

    # ------------------------------------------------------------ sources
    def _affects(self, src: "GameObject", subject, obj: "GameObject") -> bool:
        if not lower_words(subject):
            return False
        word = _static_pronoun(subject)
        if word is not None:
            return pronoun(self.game, word, Ctx(this=src)) is obj
        return matches(self.game, obj, subject, Ctx(this=src))

    def _guard_ok(self, guard, src, obj) -> bool:
        if guard is None:
            return True
        plan = _GUARD_PLANS.get(id(guard))
        if plan is None:
            plan = _guard_plan(guard)
        try:
            if plan:  # `has(this, [...])`, `guarding(this)`, or `not` one of them: read directly
                got = _guard_read(self.game, plan, src)
                if got is not None:
                    return got
            return bool(self.game.evaluate(guard, Ctx(this=src, it=obj)))
        except Exception:
            return True

    def _sources(self) -> list:
        """(object, its static abilities, whether some objects are immune to it) of each object in
        play whose statics apply now (face up; an enchantment only while attached): one pass over
        the objects per fingerprint (Effects._same_shape), shared by every object computed."""
        st = self._state
        if self._sources_shape is self._shape:
            return self._sources_list
        game = self.game  # (a property reading a weak reference: read once)
        got = []
        attached: dict = {}  # host id -> what is attached to it, in play (face down too): Effects._finish
        indexed = card_index.table  # (cardindex.per_definition's table: no call per object)
        # an object whose fingerprint is the same as when the list was last gathered has the same entry (or none):
        # all it is worked out from is that object's fingerprinted fields (in play, face down, attached, its
        # card, controller and owner), the players' Mages (a change of them changes more: _changed_objects
        # finds no set) and what each pronoun names through those fields (that object, its host object)
        changed = self._sources_changed
        before = {e[0].id: e for e in self._sources_list} if changed is not None else None
        for src in st.objects.values():
            if not src.in_play:
                continue
            if src.attached_to is not None:
                attached.setdefault(src.attached_to, []).append(src)
            if src.hidden:
                continue
            if before is not None and src.id not in changed:
                entry = before.get(src.id)
                if entry is not None:
                    got.append(entry)
                continue
            ci = indexed.get(id(src.card))
            statics = (ci if ci is not None else card_index(src.card)).statics
            if not statics:
                continue
            if src.card.kind == "enchantment" and src.attached_to is None and src.attached_zone is None:
                continue
            plan = []
            only_self = True
            for step in self._static_plan(src.card, statics):
                if step[0] == "apply":
                    if step[4] is not None:  # a pronoun: names one object, the same for all
                        step = (*step[:5], pronoun(game, step[4], Ctx(this=src)))
                    else:  # a phrase: may an object's fitting it depend on the source's fields?
                        step = (*step[:5], reads_this(game, step[3]))
                if step[0] != "apply" or step[4] not in self._SELF_OR_HOST:
                    only_self = False
                plan.append(step)
            entry = (src, plan, bool(game.source_immunities(src.card)), None if only_self else ("static", src.id))
            got.append(entry)
        self._sources_shape, self._sources_list, self._attached = self._shape, got, attached
        self._sources_changed = set()
        return got

    def _static_plan(self, card, statics) -> list:
        """How each static ability of a card is read when an object is computed, worked out once per card
        and game: ("foreach", ab, node), ("apply", ab, node, subject, pronoun or None): the node applies
        to the objects its subject names, ("call", ab, node): Effects._static_call decides (and refuses
        loudly what it does not apply).  Statics read elsewhere (restrictions, permissions, obligations,
        values read where they are used, immunities to the card itself or to one of its bars) and statics
        about no one are left out: _static_call and collect passed over them for every object."""
        hit = _PLANS.get(id(card))
        if hit is not None and hit[0] is card:
            return hit[1]
        plan = []
        for ab in statics:
            eff = ab.effect
            if isinstance(eff, A.ForEach):
                plan.append(("foreach", ab, eff))
                continue
            subject = getattr(eff, "subject", None)
            if subject is None and isinstance(eff, A.Call):
                call = eff
                if is_ignore(call):
                    plan.append(("call", ab, eff))  # honoured or not depends on the game's codex: _static_call
                    continue
                if is_restriction(call) or is_permission(call) or is_obligation(call) or self._read_elsewhere(call):
                    continue
                if call.name not in self.STATIC_CALLS or not call.args or not isinstance(call.args[0].value, A.Phrase):
                    if call.name in self.STATIC_CALLS:
                        continue  # about no phrase: nothing to apply
                    plan.append(("call", ab, eff))  # refused loudly by _static_call
                    continue
                if call.name == "immune":
                    to = call.args[1].value if len(call.args) > 1 else None
                    if isinstance(to, A.Phrase) and lower_words(to) == ("this",) or bar_immunity(call, card):
                        continue
                    ws = lower_words(call.args[0].value)
                    if ws and ws[0] not in ("this", "enchanted", "attached", "bearer"):
                        plan.append(("call", ab, eff))
                        continue
                if call.name == "cannot":
                    act = call.args[1].value if len(call.args) > 1 else None
                    if not (isinstance(act, A.StringLit) and act.value == "be_attacked"):
                        plan.append(("call", ab, eff))
                        continue
                subject = call.args[0].value
            elif subject is None:
                continue
            if not lower_words(subject):
                continue
            plan.append(("apply", ab, eff, subject, _static_pronoun(subject)))
        if len(_PLANS) >= 20_000:
            _PLANS.clear()
        _PLANS[id(card)] = (card, plan)
        return plan

    def collect(self, obj: "GameObject") -> list[tuple]:
        """Every continuous effect on `obj`: (timestamp, source label, node, multiplier)."""
        st = self._state
        game = self.game  # (a property reading a weak reference: read once)
        out = []
        frames = self._frames
        frame = frames[-1] if frames else None
        for src, plan, immunities, tag in (self._sources_list if self._sources_shape is self._shape else self._sources()):
            # did what a source whose statics may reach others applies here read the source (its zone, markers,
            # controller...)?  Then the value depends on it: a change of the source's own fields drops it
            # (`tag` is in what Effects._changed_objects finds changed; the statics of others name only the
            # source or its host: the rules for any object read apply)
            read = immunities
            if immunities and game.immune_to_source(obj, src):
                if tag is not None and frame is not None and frame[1] is not None:
                    frame[1].add(tag)
                continue  # `static immune(PHRASE, this)`: nothing of this card affects the object
            for step in plan:
                how, ab, eff = step[0], step[1], step[2]
                if how == "apply":
                    if step[4] is not None:  # a pronoun, resolved once per fingerprint (_sources)
                        if step[5] is obj:
                            read = True
                            if self._guard_ok(ab.guard, src, obj):
                                out.append((src.timestamp, src.label(), eff, 1))
                    else:
                        if step[5]:  # (whether the phrase fits reads the source: _sources)
                            read = True
                        if matches(game, obj, step[3], Ctx(this=src)):
                            read = True  # (its guard, its timestamp and label)
                            if self._guard_ok(ab.guard, src, obj):
                                out.append((src.timestamp, src.label(), eff, 1))
                elif how == "foreach":
                    if ab.guard is not None:
                        read = True
                        if not self._guard_ok(ab.guard, src, obj):
                            continue
                    if self._static_foreach(src, eff, obj, out):
                        read = True
                elif self._static_call(src, ab, eff, obj, out):
                    read = True
            if read and tag is not None and frame is not None and frame[1] is not None:
                frame[1].add(tag)
        # codex statics of the traits of the object this one is attached to, about what is attached
        # to it (`static each enchantment attached to this gains [...]`: Invisible; read here only: a
        # second reading of those gains gave each attachment of an Invisible creature Invisible twice)
        codex = game.codex
        hid = obj.attached_to
        host = self._host_read(obj, hid, frame) if hid else None
        if host is not None and host.in_play:
            for key, others in self._about_attached(host):
                for ab in others:
                    if self._affects(host, ab.effect.subject, obj) and self._guard_ok(ab.guard, host, obj):
                        out.append((host.timestamp, f"{key} ({host.label()})", ab.effect, 1))
        # conditions and tokens with codex abilities
        for name, n in obj.markers.items():
            cd = codex.get(name)
            if cd is None or n <= 0:
                continue
            for ab in _entry_subjects(cd)[0]:
                out.append((obj.timestamp, self.marker_label(name, n), ab.effect, n))
        # a shared condition it placed on another object (`shared_with_placer()`): it carries that one too
        for name, carrier, n in (game.held(obj) if game.placers else ()):
            for ab in codex[name].abilities:
                if isinstance(ab, A.StaticAbility) and getattr(ab.effect, "subject", None) is not None:
                    ws = lower_words(ab.effect.subject)
                    if ws and ws[0] in ("this", "it"):
                        out.append((obj.timestamp, f"{self.marker_label(name, n)} shared with {carrier.label()}",
                                    ab.effect, n))
        for (ts, label, target_id, node, _until) in self.temporary:
            if target_id == obj.id:
                out.append((ts, label, node, 1))
        if len(out) > 1:
            out.sort(key=_FIRST)  # (stable: effects of one timestamp keep the order they were found in)
        return out

    def _host_read(self, obj: "GameObject", hid: str, frame) -> Optional["GameObject"]:
        """The object `obj` is attached to, for collect to read the codex statics its traits state about
        what is attached to it (`_about_attached`), or None when it reads nothing of it.  Usually there are
        none (no trait of the host states one): then the value worked out for `obj` depends on its host
        only as far as that stays so, not on everything else of the host (its zone, its markers, what its
        own value read).  Its host is then read apart (`frame[2]`: the host's id and what reading the host
        read; `derived` keeps it in `_quiet`, `_sync` sets the value aside when only that changed, and it
        is taken back only when the host still carries no such statics: `_restored`).  Otherwise (some
        statics to apply, a host being worked out, a computation reading everything) the host is read as
        any other object."""
        if frame is None or frame[0] != obj.id or frame[1] is None or len(frame) != 2:
            return self._state.objects.get(hid)  # (as any object read by id)
        host = dict.get(self._state.objects, hid)  # (not recorded: what is read of it is, below)
        if host is None or not host.in_play:
            frame.append((hid, {hid}))  # (nothing read of it; a change of it is a change of its id)
            return None
        if hid in self._computing:  # (what is known of it so far: read as any object)
            return self._state.objects.get(hid)
        saved = frame[1]
        frame[1] = set()
        try:
            about = self._about_attached(host)
        finally:
            got = frame[1]
            frame[1] = saved
        if got is None:  # (its value read every object: so does this one)
            frame[1] = None
            return host
        got.add(hid)
        if about:  # statics to apply: the value depends on the host and on what its value read
            saved.update(got)
            return host
        frame.append((hid, got))
        return None

    def _restored(self, oid: str) -> Optional[Derived]:
        """A value set aside by _sync (`_quiet`: only its host, or what the host's value read, changed
        since it was worked out) taken back when what it read of its host is still so: the host is gone,
        out of play, or carries no codex statics about what is attached to it (`_host_read`), as when the
        value was worked out.  Otherwise the value goes, with what is kept about it, and None is returned."""
        q = self._quiet.get(oid)
        if q is None or q[2] is None:
            return None
        d = q[2]
        q[2] = None  # (in the cache or gone below: never both)
        hid = q[0]
        host = dict.get(self._state.objects, hid)
        if host is None or not host.in_play:
            same = True
        elif hid in self._computing:
            same = False
        else:
            same = not self._about_attached(host)
        kept = self._cache.get(oid)
        if kept is not None:  # (worked out again meanwhile, by reading the host: that one stands)
            return kept
        if same:
            self._cache[oid] = d
            return d
        self._quiet.pop(oid, None)
        self._deps.pop(oid, None)
        self._damage_dependent.discard(oid)
        self._light_keys.pop(oid, None)
        return None

    def entries(self, obj: "GameObject") -> tuple:
        """The codex entries an object carries: its derived traits, then the markers on it that are not
        one of them (movement and the restriction queries ask them of every party, many times a
        decision).  Kept on its derived value: they are worked out from it and from the markers, which
        are fingerprinted (a change of them drops the value); not on a value still being worked out."""
        d = self.derived(obj)
        got = d.entries
        if got is None:
            traits = d.traits
            got = tuple(traits)
            if obj.markers:
                got += tuple([k for k, n in obj.markers.items() if n and k not in traits])
            if obj.id not in self._computing:
                d.entries = got
        return got

    def _about_attached(self, host) -> tuple:
        """(trait, its entry's statics whose subject does not start with `this`) for each trait of `host`
        whose entry has any: what collect reads about the objects attached to it (`static each enchantment
        attached to this gains [...]`: Invisible).  Kept on the host's derived value (which
        it is worked out from, with the codex: kept while that value is), but not on one still being
        worked out (its traits may yet change)."""
        d = self.derived(host)
        got = d.about_attached
        if got is None:
            codex = self.game.codex
            subjects = _entry_subjects.table  # (its table read first: a dict get, not a call, per trait)
            got = tuple((key, others) for key in list(d.traits) if (cd := codex.get(key)) is not None
                        and (others := (subjects.get(id(cd)) or _entry_subjects(cd))[1]))
            if host.id not in self._computing:
                d.about_attached = got
        return got

    STATIC_CALLS = ("gain_attack", "attacks_gain", "grant_defense", "immune", "cannot")
    IGNORED_STATIC = ()
    #: static calls read where their value is used, not applied here: `set_x` (Game.x_value),
    #: `action_swap` (engine/action_speed.py, asked by the Action Phase), `unlimited_per_round`
    #: (engine/unlimited.py, asked by Game.run_trigger), `upkeep_paid_in` (primitives.p_pay_upkeep),
    #: `gain_control` (engine/control.py, by the state check), `upkeep_first` (engine/round.py, the order
    #: of a player's upkeep effects), `works_hidden` (Game._listening: its triggered abilities hear events
    #: while it is face down), `rolls_alone` (engine/defenses.py), `glyphs` (engine/glyphs.py: the Glyphs an
    #: object owns, read when one is turned or moved), `use_actions_of` (engine/othercasters.py actions_lent:
    #: another object's action abilities offered to this one), `widen_to_arena` (engine/extracost.py widen,
    #: asked as an action ability is used)
    READ_STATIC = ("set_x", "action_swap", "unlimited_per_round", "upkeep_paid_in", "gain_control", "upkeep_first",
                   "works_hidden", "rolls_alone", "glyphs", "use_actions_of", "widen_to_arena")

    def _read_elsewhere(self, call: A.Call) -> bool:
        """Is this static call read where its value is used, not applied here?  (Per call node.)"""
        got = self._elsewhere.get(id(call))
        if got is None or got[0] is not call:
            got = self._elsewhere[id(call)] = (call, call.name in self.IGNORED_STATIC or call.name in self.READ_STATIC
                                               or call.name in CAST_STATIC_CALLS or call.name in SPELLBOOK_RULE_CALLS
                                               or movement.reads_static(call) or call.name in DEFENSE_STATIC_CALLS
                                               or defense_static_runs(call) or not_counted_runs(call)
                                               or spend_only_runs(call))
        return got[1]

    def _static_call(self, src, ab, call: A.Call, obj, out) -> bool:
        """Apply a static call of `src` to `obj` when it names it; answers whether that read the source (a
        call read elsewhere, or refused, reads nothing of it: Effects.collect)."""
        g = self.game
        # (restrictions, permissions and obligations never reach here: _static_plan leaves them out)
        if ignore_honoured(call, g.codex):
            return False  # read when the engine is about to act (engine/restrictions.py)
        if self._read_elsewhere(call):
            return False  # read where it is used (casting: engine/casting.py; spellbook building: spellbook/rules.py;
            #         movement: hinder, walls, line of sight, move restrictions)
        if call.name not in self.STATIC_CALLS:
            key = (src.card.name, call.name)
            if key not in g.static_unsupported:
                g.static_unsupported.add(key)
                g.unsupported.append(f"static {call.name}")
                g.pending_notes.append(unsupported_note(
                    f"NOT IMPLEMENTED: static {call.name}(...) of {src.card.name} is not applied", src,
                    f"NOT IMPLEMENTED: static {call.name}(...) of {src.public_label()} is not applied"))
            return False
        if not call.args or not isinstance(call.args[0].value, A.Phrase):
            return False
        if call.name == "immune":
            ws = lower_words(call.args[0].value)
            to = call.args[1].value if len(call.args) > 1 else None
            if isinstance(to, A.Phrase) and lower_words(to) == ("this",):
                return False  # objects immune to this card: read by Game.immune_to_source
            if bar_immunity(call, src.card):
                return False  # objects immune to one attack bar of this card: read by barclauses.immune_to_bar
            if ws and ws[0] not in ("this", "enchanted", "attached", "bearer"):
                key = (src.card.name, "immune (of other objects)")
                if key not in g.static_unsupported:
                    g.static_unsupported.add(key)
                    g.unsupported.append("static immune (others)")
                    g.pending_notes.append(unsupported_note(
                        f"NOT IMPLEMENTED: static immune(...) of {src.card.name} "
                        f"(immunity of other objects to this one) is not applied", src,
                        f"NOT IMPLEMENTED: static immune(...) of {src.public_label()} is not applied"))
                return False
        if call.name == "cannot":  # (not a restriction: _static_plan leaves those out)
            act = call.args[1].value if len(call.args) > 1 else None
            if not (isinstance(act, A.StringLit) and act.value == "be_attacked"):
                key = (src.card.name, "cannot")
                if key not in g.static_unsupported:
                    g.static_unsupported.add(key)
                    g.unsupported.append("static cannot")
                    g.pending_notes.append(unsupported_note(
                        f"NOT IMPLEMENTED: static cannot(...) of {src.card.name} is not applied", src,
                        f"NOT IMPLEMENTED: static cannot(...) of {src.public_label()} is not applied"))
                return False
        if not self._affects(src, call.args[0].value, obj) or not self._guard_ok(ab.guard, src, obj):
            return True
        out.append((src.timestamp, src.label(), call, 1))
        return True

    def _x_trait(self, t: TraitInstance, src) -> TraitInstance:
        """A trait whose value is X (`Armor -X`, `Melee +X`): X of the object granting it."""
        if not isinstance(t.value, A.XValue):
            return t
        return replace(t, value=t.value.coef * self.game.x_value(src))

    @staticmethod
    def _trait_value(ts, stacking) -> int:
        vals = [t.value for t in ts if isinstance(t.value, int)]
        if not vals:
            return 0
        return max(vals) if stacking == "highest" else sum(vals)

    @staticmethod
    def _ignores(cdef, name: str) -> bool:
        """Does a codex entry state `static ignore(this, [NAME])` (its own effects ignore that rule)?"""
        for ab in cdef.abilities:
            eff = getattr(ab, "effect", None)
            if isinstance(ab, A.StaticAbility) and isinstance(eff, A.Call) and eff.name == "ignore" \
                    and len(eff.args) > 1 and isinstance(eff.args[1].value, A.TraitGroup) \
                    and any(r.name.text == name for r in eff.args[1].value.traits):
                return True
        return False

    # ------------------------------------------------------------ static for each
    #: calls a `static for each ...` body may make that this layer applies (about `it`)
    FOREACH_CALLS = ("attacks_gain",)

    def _static_foreach(self, src, eff: A.ForEach, obj, out) -> bool:
        """`static for each <Name> token on this: BODY` (the body applies once per marker) and
        `static for each <objects>: BODY`, whose body (gains, loses, stat changes, `attacks_gain`,
        `if ... then ...`) is read once per object `it` the phrase names, at the source's timestamp.
        A body clause about `this` or another object applies to it while the clause holds for some
        `it`.  Anything else in the body is refused loudly.  Answers whether what it did read the source
        (its markers, its zone...: Effects.collect, _changed_objects): not when the body can apply nothing
        to `obj` whatever the source's fields."""
        reading = _FOREACH_READINGS.get(id(eff))  # (what is read of the node alone, once: _foreach_reading)
        if reading is None or reading[0] is not eff:
            reading = self._foreach_reading(eff)
        _, rule, name, every_token, shape, gate = reading
        if rule:
            return False  # a state rule (tokens removed when a condition holds): Game.check_state applies it
        if name is not None or every_token:
            count = sum(n for n in src.markers.values() if n > 0) if every_token else src.markers.get(name, 0)
            if count > 0:
                self._foreach_body(src, eff.body, obj, None, count, out)
            return True
        if shape == "none":
            return False  # nothing in its body is applied here (restrictions and obligations: engine/restrictions.py)
        if shape == "it" or (shape == "it_this" and obj is not src):
            # every clause it applies is about `it` (or about the source itself, which is not the object
            # computed): only `it` = the object computed can name it (and only while in play: the phrase
            # names objects in play)
            if not obj.in_play:
                return False
            if gate is not None and not _gate_open(gate[1], obj):
                return False  # every clause waits for markers the object does not carry (`if tokens(it, Pet) >= 1`)
        g = self.game
        st = self._state
        if self._foreach_its[0] != st.version or self._foreach_its[1] != st._round:  # (uncounted: bookkeeping)
            self._foreach_its = (st.version, st._round, {})
        memo = self._foreach_its[2]
        if shape == "it" or (shape == "it_this" and obj is not src):
            k = (src.id, id(eff), obj.id)
            fits = memo.get(k)
            if fits is None:
                try:
                    partial = PARTIAL_READS[0]
                    fits = matches(g, obj, eff.over, Ctx(this=src))
                except Exception as e:  # a phrase the engine cannot read: say so once
                    self._refuse(src, "static foreach", f"cannot read {eff.over.text!r}: {e}")
                    return True
                if PARTIAL_READS[0] == partial:
                    memo[k] = fits
            if fits:
                self._foreach_body(src, eff.body, obj, obj, 1, out)
                return True
            # not named: nothing applies to it, whatever the source's fields, unless whether it fits the phrase
            # may depend on them (a relation to the source, zones, markers: phrases.reads_this)
            return reads_this(g, eff.over)
        if gate is not None:
            its = self._gated_its(src, eff, gate[1], gate[2] and shape != "any")
            if its is not None:
                for it in its:
                    self._foreach_body(src, eff.body, obj, it, 1, out)
                return True
        self.reads_others()  # which objects the phrase names: any object may change that
        key = (src.id, id(eff))
        its = memo.get(key)
        if its is None:
            # each object's answer is kept too (a phrase asking about the object being computed
            # reads unfinished values: that one answer is asked again, the others are not)
            its, stable = [], True
            try:
                for o in st.in_play():
                    k = (src.id, id(eff), o.id)
                    fits = memo.get(k)
                    if fits is None:
                        partial = PARTIAL_READS[0]
                        fits = matches(g, o, eff.over, Ctx(this=src))
                        if PARTIAL_READS[0] == partial:  # only finished values read: kept for this version
                            memo[k] = fits
                        else:
                            stable = False
                    if fits:
                        its.append(o)
            except Exception as e:  # a phrase the engine cannot read: say so once
                self._refuse(src, "static foreach", f"cannot read {eff.over.text!r}: {e}")
                return True
            if stable:  # the same for every object computed
                memo[key] = its
        for it in its:
            if gate is None or _gate_open(gate[1], it):  # (no clause can hold for an `it` without the markers)
                self._foreach_body(src, eff.body, obj, it, 1, out)
        return True

    def _gated_its(self, src, eff: A.ForEach, gate: tuple, only: bool) -> Optional[list]:
        """For a `static for each <objects>` body whose every clause waits for markers on `it`
        (_marker_gate), read where any object may be `it`: the objects in play carrying those markers that
        the phrase names, [] when none does (then no clause can hold).  The value worked out depends on
        the objects in play carrying them (read by id) and on no other object unless it gains them: it is
        tagged ("marker", NAME) for each marker the gate names, which Effects._changed_objects finds
        changed when an object's markers change or it comes or goes carrying some.  `only`: the clauses'
        conditions read nothing but those markers and apply only to `it` or the source (_foreach_shape),
        so an object named adds nothing else read.  None (the caller reads every object) when one is
        named and not `only`, or a phrase cannot be read."""
        g = self.game
        objects = self._state.objects
        ctx = None
        its: list = []
        for o in dict.values(objects):  # (not watched: only the objects whose gate is open are read)
            if o.in_play and o.markers and _gate_open(gate, o):
                objects.get(o.id)  # (read by id: a change of it drops the value)
                if ctx is None:
                    ctx = Ctx(this=src)
                try:
                    if matches(g, o, eff.over, ctx):
                        if not only:
                            return None
                        its.append(o)
                except Exception:
                    return None  # (the general path refuses it loudly)
        frames = self._frames
        if frames and frames[-1][1] is not None:
            frames[-1][1].update([("marker", n) for needs in gate for n, _ in needs])
        return its

    def _foreach_reading(self, eff: A.ForEach) -> tuple:
        """(the node, whether it is a state rule (staterules.reads), the marker a `for each <Name> token on
        this` counts, whether it counts every token (_marker_phrase), its shape (_foreach_shape), its marker
        gate entry or None): what _static_foreach reads of the node alone, in one table per node."""
        name, every_token = _marker_phrase(eff.over)
        shape = self._foreach_shape(eff)
        got = (eff, staterules.reads(eff), name, every_token, shape, _FOREACH_GATES.get(id(eff)))
        if len(_FOREACH_READINGS) >= 20_000:
            _FOREACH_READINGS.clear()
        _FOREACH_READINGS[id(eff)] = got
        return got

    def _foreach_shape(self, eff: A.ForEach) -> str:
        """What the body of a `static for each <objects>` can apply here, read once per node: "none"
        (only statements engine/restrictions.py reads), "it" (every clause applied is about `it`
        itself: read only with `it` = the object being computed), "it_this" (about `it` or about the
        source itself: so for any object but the source), or "any".  A body whose every clause waits
        for markers on `it` also gets its gate (_marker_gate)."""
        hit = _FOREACH_SHAPES.get(id(eff))
        if hit is not None and hit[0] is eff:
            return hit[1]
        subjects: list = []
        other = False

        def walk(body) -> None:
            nonlocal other
            for node in body:
                if isinstance(node, A.IfEffect):
                    walk(node.then)
                    walk(node.otherwise or ())
                elif isinstance(node, (A.Gain, A.Lose, A.StatChange)):
                    subjects.append(node.subject)
                elif isinstance(node, A.Call) and node.name in self.FOREACH_CALLS and node.args \
                        and isinstance(node.args[0].value, A.Phrase):
                    subjects.append(node.args[0].value)
                elif isinstance(node, A.Call) and in_foreach_runs(node):
                    continue
                else:
                    other = True  # refused loudly by _foreach_leaves: keep the general path

        walk(eff.body)
        if other:
            shape = "any"
        elif not subjects:
            shape = "none"
        else:
            words = [_body_pronoun(x) for x in subjects]  # as Effects._denotes reads them
            if all(w == "it" for w in words):
                shape = "it"
            elif all(w in ("it", "this") for w in words):
                shape = "it_this"
            else:
                shape = "any"
        if len(_FOREACH_SHAPES) >= 20_000:
            _FOREACH_SHAPES.clear()
            _FOREACH_GATES.clear()
        _FOREACH_SHAPES[id(eff)] = (eff, shape)
        gate = _marker_gate(eff.body) if shape != "none" else None
        if gate is not None:
            _FOREACH_GATES[id(eff)] = (eff, *gate)
        return shape

    def _foreach_body(self, src, body, obj, it, n: int, out) -> None:
        """The clauses of the body that hold for `it` (conditions read once per state version while
        they read only finished values), applied to `obj` when their subject names it."""
        st = self._state
        if self._foreach_its[0] != st.version or self._foreach_its[1] != st._round:  # (uncounted: bookkeeping)
            self._foreach_its = (st.version, st._round, {})
        memo = self._foreach_its[2]
        key = ("body", src.id, id(body), it.id if it is not None else None, n)
        leaves = memo.get(key)
        if leaves is None:
            leaves = []
            partial = PARTIAL_READS[0]
            self._foreach_leaves(src, body, it, leaves)
            if PARTIAL_READS[0] == partial:
                memo[key] = leaves
        for node, subject, marks in leaves:
            if self._denotes(src, subject, obj, it):
                ts = src.timestamp
                if marks and it is not None:  # it holds because of markers on `it`: from when they came
                    ts = max([ts] + [it.marker_since.get(m, ts) for m in marks])
                out.append((ts, src.label(), node, n))

    @staticmethod
    def _markers_read(cond) -> tuple:
        """The markers a condition counts on `it` (`tokens(it, Pet) >= 1`)."""
        found = []

        def walk(n):
            if isinstance(n, A.Call) and n.name == "tokens" and len(n.args) > 1 \
                    and isinstance(n.args[0].value, A.Phrase) and lower_words(n.args[0].value) == ("it",):
                v = n.args[1].value
                found.extend([v.text] if isinstance(v, A.Phrase) else [r.name.text for r in getattr(v, "traits", ())])
            for f in getattr(n, "__dataclass_fields__", {}):
                c = getattr(n, f, None)
                for x in (c if isinstance(c, (list, tuple)) else [c]):
                    if hasattr(x, "__dataclass_fields__"):
                        walk(x)
        walk(cond)
        return tuple(found)

    def _foreach_leaves(self, src, body, it, leaves: list, marks: tuple = ()) -> None:  # noqa: C901
        g = self.game
        ctx = Ctx(this=src, it=it)
        for node in body:
            if isinstance(node, A.IfEffect):
                try:
                    ok = bool(g.evaluate(node.condition, ctx))
                except Exception as e:
                    self._refuse(src, "static foreach", f"cannot evaluate a condition: {e}")
                    continue
                branch = node.then if ok else (node.otherwise or ())
                self._foreach_leaves(src, branch, it, leaves, marks + (self._markers_read(node.condition) if ok else ()))
            elif isinstance(node, (A.Gain, A.Lose, A.StatChange)):
                leaves.append((node, node.subject, marks))
            elif isinstance(node, A.Call) and node.name in self.FOREACH_CALLS and node.args \
                    and isinstance(node.args[0].value, A.Phrase):
                leaves.append((node, node.args[0].value, marks))
            elif isinstance(node, A.Call) and in_foreach_runs(node):
                continue  # a restriction or obligation about `it`: engine/restrictions.py reads it
            else:
                what = node.name if isinstance(node, A.Call) else type(node).__name__
                self._refuse(src, f"static foreach {what}", f"{what} in a static for each is not applied")

    def _denotes(self, src, subject, obj, it) -> bool:
        """Does the subject of a body clause (`it`, `this`, `bearer`...) name `obj`?"""
        word = _body_pronoun(subject)
        if word == "it":
            return it is obj
        if word is not None:
            return pronoun(self.game, word, Ctx(this=src, it=it)) is obj
        return matches(self.game, obj, subject, Ctx(this=src, it=it))

    def _refuse(self, src, what: str, why: str) -> None:
        g = self.game
        key = (src.card.name, what)
        if key not in g.static_unsupported:
            g.static_unsupported.add(key)
            g.unsupported.append(what)
            g.pending_notes.append(unsupported_note(f"NOT IMPLEMENTED: {what} of {src.card.name}: {why}", src,
                                                    f"NOT IMPLEMENTED: {what} of {src.public_label()}"))

    @staticmethod
    def marker_label(name: str, n: int) -> str:
        return f"{name} x{n}"

    # ------------------------------------------------------------ codex statics of traits
    def _codex_static(self, obj, key, ab, traits, d, gain, guard_checked: bool = False) -> bool:
        """Apply one static ability of the codex entry of a trait the object has (`this` = the object).
        Returns True when it added a trait.  `guard_checked`: the caller has just found its guard to hold."""
        eff = ab.effect
        if not guard_checked and ab.guard is not None and not self._guard_ok(ab.guard, obj, obj):
            return False
        count = 1
        body = [eff]
        if isinstance(eff, A.ForEach):
            count = self._marker_count(obj, eff.over)
            body = list(eff.body)
            if count is None:
                self.game.note_unsupported(f'static for each of {key}', f'cannot count {eff.over.text!r}')
                return False
        new = False
        for node in body:
            how = _codex_node_kind(node)
            if how == "call":
                self._codex_call(node, d, key, obj)
                continue
            if how is None:
                continue  # statics about other objects are collected from their sources
            if how == "gain":
                for ref in node.traits.traits:
                    for _ in range(count):
                        if ref.name.text not in traits:
                            new = True
                        gain(trait_from_ref(ref, self.game.codex), key, obj.timestamp)
            elif how == "lose":
                for ref in node.traits.traits:
                    k = ref.name.text
                    if node.cannot_gain:
                        d.cannot_gain.add(k)
                    if traits.pop(k, None) is not None:
                        d.mods.append(Mod(key, obj.timestamp, f'loses {k}' + (' and cannot gain it'
                                                                               if node.cannot_gain else '')))
        return new

    # ------------------------------------------------------------ names objects have by nature
    def innate_rules(self) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
        """(entry, object kinds, entries that take it away) for each codex `static innate(PHRASE, unless: [...])`:
        every object of those kinds has the entry without printing it (creatures are Living, conjurations
        Nonliving...).  Read once per game; each entry's reading is shared by every game (by identity)."""
        rules = self._innate_rules
        if rules is None:
            codex = self.game.codex
            corpus = self.game.corpus
            shared = copy_of(codex, corpus.codex)
            cached = getattr(corpus, "_innate_rules", None) if shared else None
            if cached is not None:  # the game's codex is its corpus's, unchanged
                rules = self._innate_rules = cached
                return rules
            key = tuple(map(id, codex.values()))  # the same entries: the same rules (games copy the dict)
            got = _INNATE_BY_CODEX.get(key)
            if got is None or any(a is not b for a, b in zip(got[0], codex.values())):
                if len(_INNATE_BY_CODEX) > 8:
                    _INNATE_BY_CODEX.clear()
                got = _INNATE_BY_CODEX[key] = (tuple(codex.values()),
                                               [r for name, cd in codex.items() for r in _entry_innate(name, cd)])
            rules = self._innate_rules = got[1]
            if shared:
                try:
                    corpus._innate_rules = rules
                except AttributeError:
                    pass
        return rules

    def _innate(self, obj, traits: dict) -> list[tuple[str, tuple[str, ...]]]:
        """Give the object the names it has by nature; returns (name, what takes it away) of those given."""
        given = []
        by_kind = self._innate_by_kind
        if by_kind is None:  # (the rules are shared by the games of a corpus: so is this table)
            by_kind = self._innate_by_kind = _innate_by_kind(self.innate_rules())
        for name, unless, t in by_kind.get(obj.card.kind, ()):
            if name not in traits and traits.keys().isdisjoint(unless):
                traits[name] = [t]
                given.append((name, unless))
        return given

    @staticmethod
    def _codex_call(call: A.Call, d: "Derived", key: str, obj) -> None:
        """`immune(this, Flame)`, `immune(this, [Burn])`, `cannot(this, "heal")`, `can(this, "...")`,
        `no_armor(this)`."""
        what = call.args[1].value if len(call.args) > 1 else None
        if call.name == "no_armor":
            if not d.no_armor:
                d.mods.append(Mod(key, obj.timestamp, "has no armor"))
            d.no_armor = True
        elif call.name == "immune":
            if isinstance(what, A.TraitGroup):
                for ref in what.traits:
                    d.immune_conditions.add(ref.name.text)
                    d.immune_by.setdefault(ref.name.text, key)
            elif isinstance(what, A.Phrase):
                d.immune_types.add(what.text)
                d.immune_by.setdefault(what.text, key)
            elif isinstance(what, A.StringLit):
                d.cannot_do.add(f"be affected by {what.value}")
            d.mods.append(Mod(key, obj.timestamp, f"immune to {_immune_words(what)}"))
        elif isinstance(what, A.StringLit):
            (d.cannot_do if call.name == "cannot" else d.can_do).add(what.value)
            (d.cannot_by if call.name == "cannot" else d.can_by).setdefault(what.value, key)

    @staticmethod
    def _marker_count(obj, phrase):
        """`<Name> token(s)|marker(s) on this|it`: how many of those markers the object carries."""
        name = _marker_phrase(phrase)[0]
        return None if name is None else obj.markers.get(name, 0)

    # ------------------------------------------------------------ stat changes stated by trait entries
    def _trait_stats(self, obj, traits: dict, d: Derived, armor: int, life, channeling):
        """Armor and life changes the codex entries of its traits state (`static this gets life +X`:
        Armor +X, Life +X, Innate Life +X), X being each instance's value.  A life gain is refused
        while a trait of the object forbids gaining life (Finite Life), unless the entry says it
        ignores that trait (Innate Life)."""
        codex = self.game.codex
        # (the readings per_definition keeps, by the entry's identity: most entries state none, and a call
        #  per trait of every object derived in full was most of this loop)
        kept = _self_stat_changes.table
        for key, insts in list(traits.items()):
            cdef = codex.get(key)
            if cdef is None:
                continue
            changes = kept.get(id(cdef))
            if changes is None:
                changes = _self_stat_changes(cdef)
            for ab in changes:
                eff = ab.effect
                if ab.guard is not None and not self._guard_ok(ab.guard, obj, obj):
                    continue
                values = [self._trait_x(obj, t) for t in insts]
                if cdef.stacking == "highest" and values:
                    values = [max(values)]
                for x in values:
                    ctx = Ctx(this=obj, it=obj)
                    ctx.extra["x"] = x
                    for sm in eff.mods:
                        amt = self.game.evaluate(sm.amount, ctx)
                        if sm.stat == "armor":
                            if d.no_armor and amt > 0:
                                d.mods.append(Mod(key, obj.timestamp, f"armor {amt:+d}", False, "has no armor"))
                                continue
                            armor += amt
                        elif sm.stat == "life" and life is not None:
                            blocker = self._life_blocker(cdef, traits, d, obj) if amt > 0 else None
                            if blocker:
                                d.mods.append(Mod(key, obj.timestamp, f"life {amt:+d}", False, blocker))
                                continue
                            life += amt
                        elif sm.stat == "channeling" and channeling is not None:
                            channeling = max(0, channeling + amt)
                        else:
                            continue
                        d.mods.append(Mod(key, obj.timestamp, f"{sm.stat} {amt:+d}"))
        return armor, life, channeling

    def _trait_x(self, obj, t: TraitInstance) -> int:
        if isinstance(t.value, int):
            return t.value
        if isinstance(t.value, A.XValue):  # Armor -X: the card's own X
            return t.value.coef * self.game.x_value(obj)
        return 0

    @staticmethod
    def _own_ignores(obj) -> set:
        """Codex entries the object's own card ignores (`static ignore(this, [ENTRY])`)."""
        return {r.name.text for ab in obj.card.abilities if isinstance(getattr(ab, "effect", None), A.Call)
                and is_ignore(ab.effect) and lower_words(ab.effect.args[0].value) == ("this",)
                for r in ab.effect.args[1].value.traits}

    def _life_blocker(self, cdef, traits: dict, d: Derived, obj=None):
        """The trait that stops this entry's life gain, or None: one whose entry states
        cannot(this, "gain life"), unless this entry (or the object's own card) states
        ignore(this, [that trait])."""
        if "gain life" not in d.cannot_do:
            return None
        ignored = set()
        if obj is not None:
            ignored.update(self._own_ignores(obj))
        for ab in cdef.abilities:
            eff = ab.effect if isinstance(ab, A.StaticAbility) else None
            if isinstance(eff, A.Call) and eff.name == "ignore" and len(eff.args) > 1 \
                    and isinstance(eff.args[1].value, A.TraitGroup):
                ignored.update(r.name.text for r in eff.args[1].value.traits)
        for key in traits:
            if key in ignored:
                continue
            other = self.game.codex.get(key)
            if other is not None and any(
                    isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name == "cannot"
                    and len(ab.effect.args) > 1 and isinstance(ab.effect.args[1].value, A.StringLit)
                    and ab.effect.args[1].value.value == "gain life" for ab in other.abilities):
                return key
        return None

    # ------------------------------------------------------------ templates of cards
    def _template_deps(self, card) -> Optional[tuple]:
        """(entry names, the game's entries or None) of every codex entry whose statics the values of an
        object of this card can read when nothing else applies to it: the entries of its printed traits
        and of the names it may have by nature, and, in turn, of every trait their `this gains [...]`
        brings.  None when working those values out reads more than the card and these entries: a
        value X (of the card, or of a trait an entry brings: read from the state), a guard, a `for each`
        (markers on the object), a stat change an entry states (evaluated), a `+X vs` reference (the
        whole codex).  Then nothing is kept (Effects._keep_template)."""
        if card.channeling is not None and not isinstance(card.channeling, int):
            return None
        if any(isinstance(t.value, A.XValue) for t in card.traits):
            return None
        codex = self.game.codex
        todo = [t.key for t in card.traits] + [name for name, _unless, _t in self._innate_by_kind.get(card.kind, ())]
        seen: dict = {}
        while todo:
            key = todo.pop()
            if key in seen:
                continue
            cd = seen[key] = codex.get(key)
            if cd is None:
                continue
            if _self_stat_changes(cd):
                return None
            for ab in _own_statics(cd):
                if ab.guard is not None or isinstance(ab.effect, A.ForEach):
                    return None
                if _codex_node_kind(ab.effect) == "gain":
                    for ref in ab.effect.traits.traits:
                        if ref.versus or isinstance(_plain_trait(ref).value, A.XValue):
                            return None
                        todo.append(ref.name.text)
        return tuple(seen), tuple(seen.values())

    def _template_entry(self, obj: "GameObject") -> Optional[list]:
        """The templates kept for the object's card in this game: [card, names by nature, (entry names,
        entries) read, prefix, full] (prefix, full: Effects._keep_prefix, Effects._keep_template, None
        until kept), or None when its values read more than its card and the codex (Effects._template_deps).
        An entry is used only while every codex entry it was worked out from is the game's entry by that
        name and the game's names by nature are those it was read with; else it is worked out again."""
        card = obj.card
        by_kind = self._innate_by_kind
        if by_kind is None:
            by_kind = self._innate_by_kind = _innate_by_kind(self.innate_rules())
        hit = _TEMPLATES.get(id(card))
        if hit is not None and hit[0] is card and hit[1] is by_kind:
            deps = hit[2]
            if deps is None:
                return None  # known to read more than its card and these entries
            # (the very entries, by identity: a prefix keeps the ids of their abilities it applied)
            if all(map(is_, map(self.game.codex.get, deps[0]), deps[1])):
                return hit
        deps = self._template_deps(card)
        if len(_TEMPLATES) >= 20_000:
            _TEMPLATES.clear()
        hit = _TEMPLATES[id(card)] = [card, by_kind, deps, None, None]
        return hit if deps is not None else None

    @staticmethod
    def _template_of(obj: "GameObject", d: Derived) -> Optional[tuple]:
        """What a derivation of `obj` worked out so far, for a template: (traits, mods without their
        timestamp, the sets and dicts filled), or None when a mod bears another timestamp than the
        object's (a copy stamps the next object's) or a field Effects._finish fills is not empty."""
        ts = obj.timestamp
        if d.defenses or d.attacks or d.attack_traits or d.cannot_be_attacked or d.borrowed or d.extra_barriers \
                or d.carried or d.barrier is not None or d.heard is not None or d.about_attached is not None \
                or d.entries is not None \
                or any(m.timestamp != ts for m in d.mods):
            return None
        return (tuple((k, tuple(v)) for k, v in d.traits.items()),
                tuple((m.source, m.what, m.applied, m.why) for m in d.mods),
                tuple((name, tuple(getattr(d, name))) for name in _TEMPLATE_SETS if getattr(d, name)),
                tuple((name, tuple(getattr(d, name).items())) for name in _TEMPLATE_DICTS if getattr(d, name)))

    @staticmethod
    def _fill(obj: "GameObject", d: Derived, kept: tuple) -> None:
        """Give `d` a copy of what Effects._template_of kept, its mods stamped with the object's timestamp."""
        traits, mods, sets, dicts = kept
        into = d.traits
        for k, v in traits:
            into[k] = list(v)
        if mods:
            ts = obj.timestamp
            d.mods.extend([Mod(source, ts, what, applied, why) for source, what, applied, why in mods])
        for name, values in sets:
            setattr(d, name, set(values))
        for name, items in dicts:
            setattr(d, name, dict(items))

    def _keep_prefix(self, entry: list, obj: "GameObject", d: Derived, applied, finished, implied_by, innate,
                     settled) -> None:
        """Keep what a derivation works out before the effects on the object are applied (its printed
        traits, what their entries bring, the names it has by nature), with the bookkeeping the rest of
        the derivation reads (the statics applied, the entries done with, what each brought, the names by
        nature given, what was known when it came to rest): Effects._compute starts the next object of
        the card from a copy.  Kept only from a derivation on which no effect made it lose a trait for good
        (those are refused from the start)."""
        kept = self._template_of(obj, d)
        if kept is not None:
            entry[3] = (kept, d.no_armor, tuple(applied), tuple(finished),
                        tuple((k, tuple(v)) for k, v in implied_by.items()), tuple(innate), settled)

    def _from_prefix(self, prefix: tuple, obj: "GameObject", d: Derived, applied: set, finished: set,
                     implied_by: dict) -> tuple:
        """Start a derivation from a kept prefix (Effects._keep_prefix): returns (the names by nature
        given, what was known when it came to rest)."""
        kept, no_armor, done, ended, brought, innate, settled = prefix
        self._fill(obj, d, kept)
        d.no_armor = no_armor
        applied.update(done)
        finished.update(ended)
        implied_by.update((k, list(v)) for k, v in brought)
        return list(innate), settled

    def _keep_template(self, entry: Optional[list], obj: "GameObject", d: Derived, life, channeling) -> None:
        """Keep what a derivation of an object nothing applied to worked out before Effects._finish (its
        traits, mods, immunities, armor, Life and channeling), when it was worked out from its card and
        the codex entries Effects._template_deps names alone: the next object of the card is given a
        copy (Effects._from_template) while the game's codex holds those same entries and the same names
        by nature.  `entry`: the card's (Effects._template_entry, asked once per derivation)."""
        if entry is None or entry[4] is not None:
            return
        kept = self._template_of(obj, d)
        if kept is not None:
            traits, mods, _sets, _dicts = kept
            entry[4] = (traits, mods, tuple(frozenset(getattr(d, name)) if getattr(d, name) else _NO_NAMES
                                            for name in _TEMPLATE_SETS),
                        tuple(tuple(getattr(d, name).items()) for name in _TEMPLATE_DICTS),
                        d.no_armor, d.base_armor, d.armor, life, channeling)

    @staticmethod
    def _from_template(obj: "GameObject", full: tuple) -> tuple:
        """(a fresh Derived, its Life, its channeling) copied from the template of the object's card
        (`full`: what Effects._keep_template kept), to be finished (Effects._finish)."""
        traits, mods, sets, dicts, no_armor, base_armor, armor, life, channeling = full
        if mods:
            ts = obj.timestamp
            mods = [Mod(source, ts, what, applied, why) for source, what, applied, why in mods]
        else:
            mods = []
        d = Derived({k: list(v) for k, v in traits}, mods, sets, dicts)
        d.no_armor, d.base_armor, d.armor = no_armor, base_armor, armor
        return d, life, channeling

    # ------------------------------------------------------------ compute
    def _compute(self, obj: "GameObject") -> Derived:
        st = self._state
        codex = self.game.codex
        effects = self.collect(obj)
        entry = None  # the templates of its card (Effects._template_entry), asked once here
        if not effects:  # nothing applies to it but its card and the codex: as for the last object of its card?
            entry = self._template_entry(obj)
            if entry is not None and entry[4] is not None:
                return self._finish(obj, *self._from_template(obj, entry[4]))
        d = Derived()
        card = obj.card
        mods = d.mods
        marker_labels = {self.marker_label(name, n) for name, n in obj.markers.items()}

        # "loses and cannot gain" wins whatever the order
        for (ts, label, node, _n) in effects:
            if isinstance(node, A.Lose) and node.cannot_gain:
                for ref in node.traits.traits:
                    d.cannot_gain.add(ref.name.text)

        traits: dict[str, list] = {}
        gained_attacks: list = []
        # a guard read while computing (`static if has(this, [Slow]) ...`) sees the traits gained so far
        d.traits = traits
        self._partial[obj.id] = d

        def gain(t: TraitInstance, label: str, ts: int):
            if isinstance(t.value, A.XValue):  # X of the source that grants it
                src = None if label == t.key else self._source_by_label(label)
                t = self._x_trait(t, src if src is not None else obj)
            if t.key in d.cannot_gain:
                mods.append(Mod(label, ts, f"gains {t}", False, f"loses and cannot gain {t.key}"))
                return
            traits.setdefault(t.key, []).append(t)
            mods.append(Mod(label, ts, f"gains {t}"))

        # a derivation no effect makes lose a trait for good starts from the template of its card's
        # traits, what their entries bring and the names it has by nature (Effects._keep_prefix)
        if d.cannot_gain:
            entry = None
        elif effects:  # (with none, it was asked above: nothing made it lose a trait)
            entry = self._template_entry(obj)
        prefix = entry[3] if entry is not None else None
        if prefix is None:
            for t in card.traits:
                if t.key not in d.cannot_gain:
                    traits.setdefault(t.key, []).append(self._x_trait(t, obj))

        armor_base = card.armor
        # printed `armor none`; a trait whose codex entry states `no_armor(this)` (Effects._codex_call) too
        d.no_armor = armor_base is None and card.kind in ("creature", "conjuration", "wall")
        life = card.life
        channeling = card.channeling
        if channeling is not None and not isinstance(channeling, int):  # "channeling X"
            channeling = self.game.x_value(obj)
        armor = armor_base or 0

        applied: set = set()
        finished: set = set()  # trait keys every static of whose entry is in `applied`
        guards: dict = {}  # id of a guarded codex static -> (what it was evaluated on, whether it held)

        def known():
            """What is known of the object so far, in counts: every change made while computing adds
            a mod, a trait or an immunity, so equal counts mean nothing changed."""
            return (len(mods), len(traits), sum(map(len, traits.values())), len(d.cannot_gain),
                    len(d.cannot_do), len(d.can_do), len(d.immune_conditions), len(d.immune_types), d.no_armor)

        settled = [None]  # known() when implied() last came to rest

        def guard_holds(ab) -> bool:
            """The static's guard, evaluated again only once what is known of the object changed
            (a guard reads the object's traits so far, and the state, which a computation does not
            change)."""
            seen = known()
            got = guards.get(id(ab))
            if got is None or got[0] != seen:
                got = guards[id(ab)] = (seen, self._guard_ok(ab.guard, obj, obj))
            return got[1]

        def implied():
            """Traits and conditions state what else they bring in their codex entries
            (`static this gains [...]`, `static this loses [...] and cannot gain`, and
            `static for each <Name> token on this: this gains [...]`): apply those of every trait
            the object has, until nothing new comes.  Nothing can come when nothing changed since
            it last came to rest (every guard would read what it read then)."""
            if settled[0] is not None and settled[0] == known():
                return
            for _ in range(8):
                new = False
                for key in list(traits):
                    if key in finished:
                        continue
                    cdef = codex.get(key)
                    waiting = False
                    own = _OWN_STATICS.get(id(cdef)) if cdef is not None else ()  # (its table: a dict get)
                    for ab in (own if own is not None else _own_statics(cdef)):
                        if (key, id(ab)) in applied:
                            continue
                        # a guarded static whose guard does not hold yet is tried again once more
                        # traits arrive (Fast meeting a Slow gained from a marker)
                        if ab.guard is not None and not guard_holds(ab):
                            waiting = True
                            continue
                        applied.add((key, id(ab)))
                        new |= self._codex_static(obj, key, ab, traits, d, implied_gain(key), guard_checked=True)
                    if not waiting:
                        finished.add(key)  # every static of its entry applied: not read again
                if not new:
                    settled[0] = known()
                    return

        def implied_gain(key):
            """`gain`, remembering that the trait came from the codex entry of `key`."""
            def g(t, label, ts):
                before = len(traits.get(t.key, ()))
                gain(t, label, ts)
                if len(traits.get(t.key, ())) > before:
                    implied_by.setdefault(key, []).append(t)
            return g

        def drop_implied(key):
            """A trait lost takes with it what its codex entry brought (Invisible lost: no longer
            Elusive, Pest, untargetable), unless something else gives it too; a trait so lost takes
            what its own entry brought in turn.  (A loop, not a recursive closure: one that calls
            itself refers to itself, and every computation would leave a reference cycle holding
            its values for the cyclic collector.)"""
            todo = [key]
            while todo:
                key = todo.pop()
                for t in implied_by.pop(key, []):
                    lst = traits.get(t.key)
                    if lst and any(x is t for x in lst):
                        lst[:] = [x for x in lst if x is not t]
                        if not lst:
                            traits.pop(t.key, None)
                            todo.append(t.key)
                for done, by_key in ((d.cannot_do, d.cannot_by), (d.can_do, d.can_by)):
                    for what, by in list(by_key.items()):
                        if by == key:
                            done.discard(what)
                            by_key.pop(what, None)
                for done in [a for a in applied if a[0] == key]:
                    applied.discard(done)
                finished.discard(key)

        implied_by: dict = {}
        if prefix is None:
            implied()
            innate = self._innate(obj, traits)
            implied()
            if entry is not None:
                self._keep_prefix(entry, obj, d, applied, finished, implied_by, innate, settled[0])
        else:
            innate, settled[0] = self._from_prefix(prefix, obj, d, applied, finished, implied_by)

        marker_armor = 0
        for (ts, label, node, n) in effects:
            if isinstance(node, A.Gain):
                for ref in node.traits.traits:
                    for _ in range(n):
                        gain(trait_from_ref(ref, self.game.codex), label, ts)
                implied()
            elif isinstance(node, A.Lose):
                for ref in node.traits.traits:
                    key = ref.name.text
                    had = key in traits
                    traits.pop(key, None)
                    if had:
                        drop_implied(key)
                    mods.append(Mod(label, ts, f"loses {key}" + (" and cannot gain it" if node.cannot_gain else ""),
                                    had or node.cannot_gain, "" if had else "did not have it"))
            elif isinstance(node, A.Call) and node.name == "gain_attack":
                src_obj = self._source_by_label(label)
                name = next((a.value.value for a in node.args[1:] if isinstance(a.value, A.StringLit)), None)
                if src_obj is not None:
                    for adef in src_obj.card.attacks:
                        if name is None or adef.name == name:
                            gained_attacks.append((ts, adef, src_obj.id))
            elif isinstance(node, A.Call) and node.name == BORROW_BARS:  # engine/glyphs.py p_borrow_bars
                other = st.objects.get(node.args[0].value.value) if node.args else None
                if other is not None and other.in_play and other is not obj:
                    d.borrowed.append(other.id)
                    gained_attacks.extend((ts, adef, other.id) for adef in other.card.attacks)
                    mods.append(Mod(label, ts, f"may use the action and attack bars of {other.label()}"))
            elif isinstance(node, A.Call) and node.name == "attacks_gain":
                pos = [a.value for a in node.args if not a.key]
                kw = {a.key: a.value for a in node.args if a.key}
                kind = kw.get("kind", pos[2] if len(pos) > 2 else None)  # melee, ranged or one attack's name
                kind = kind.text if isinstance(kind, A.Phrase) else (kind.value if isinstance(kind, A.StringLit) else None)
                if len(pos) > 1 and isinstance(pos[1], A.TraitGroup):
                    for ref in pos[1].traits:
                        d.attack_traits.append((trait_from_ref(ref, self.game.codex), kind, label))
                        mods.append(Mod(label, ts, f"attacks gain {ref.text}" + (f" ({kind})" if kind else "")))
            elif isinstance(node, A.Call) and node.name == "grant_defense":
                pos = [a.value for a in node.args if not a.key]
                try:
                    roll = self.game.evaluate(pos[1], Ctx(this=obj))
                    uses = self.game.evaluate(pos[2], Ctx(this=obj)) if len(pos) > 2 else None
                    d.defenses.append((Defense(roll, uses), obj.id, f"{label}#granted"))
                    mods.append(Mod(label, ts, f"gains Defense {roll}+ ({uses}x)"))
                except Exception:
                    pass
            elif isinstance(node, A.Call) and node.name == "immune":
                to = node.args[1].value if len(node.args) > 1 else None
                if isinstance(to, A.TraitGroup):
                    for ref in to.traits:
                        d.immune_conditions.add(ref.name.text)
                        mods.append(Mod(label, ts, f"immune to {ref.name.text}"))
                elif isinstance(to, A.Phrase) and len(to.words) == 1:
                    gain(TraitInstance(f"{to.text} Immunity"), label, ts)
                elif isinstance(to, A.StringLit):  # immune to an effect named by a word ("hinder")
                    d.cannot_do.add(f"be affected by {to.value}")
                    mods.append(Mod(label, ts, f"immune to {to.value}"))
            elif isinstance(node, A.Call) and node.name == "cannot":
                det = next((a.value for a in node.args if a.key in ("kind", "detail")), None)
                d.cannot_be_attacked.append((det.text if isinstance(det, A.Phrase) else
                                             det.value if isinstance(det, A.StringLit) else "", label))
            elif isinstance(node, A.StatChange):
                for sm in node.mods:
                    amt = sm.amount.as_int()
                    if not isinstance(amt, int):  # X, 2X...: the coefficient and the sign count too
                        amt = self.game.x_value(obj) * amt.coef * (-1 if sm.amount.sign == "-" else 1)
                    amt *= n
                    if sm.stat == "armor":
                        if d.no_armor and amt > 0:
                            mods.append(Mod(label, ts, f"armor {amt:+d}", False, "has no armor"))
                        else:
                            armor += amt
                            if label in marker_labels:
                                marker_armor += amt
                            mods.append(Mod(label, ts, f"armor {amt:+d}"))
                    elif sm.stat == "channeling":
                        channeling = (channeling or 0) + amt
                        mods.append(Mod(label, ts, f"channeling {amt:+d}"))
                    elif sm.stat == "life":
                        if life is None:
                            continue
                        if amt > 0 and "gain life" in d.cannot_do and \
                                d.cannot_by.get("gain life", "") not in self._own_ignores(obj):
                            mods.append(Mod(label, ts, f"life {amt:+d}", False, d.cannot_by.get("gain life", "")))
                        else:
                            life += amt
                            mods.append(Mod(label, ts, f"life {amt:+d}"))
                    elif sm.stat == "channeling":
                        channeling = max(0, (channeling or 0) + amt)
                        mods.append(Mod(label, ts, f"channeling {amt:+d}"))

        implied()
        for k in d.cannot_gain:
            traits.pop(k, None)
        armor, life, channeling = self._trait_stats(obj, traits, d, armor, life, channeling)
        for key, unless in innate:  # a name it had by nature goes when it gained what takes it away
            if not traits.keys().isdisjoint(unless):
                traits.pop(key, None)

        d.traits = traits
        if d.no_armor:
            armor = 0
        # armor before the conditions that lower it (Corrode): their excess markers drop off
        d.base_armor = armor - marker_armor
        d.armor = max(0, armor)
        if not effects:  # worked out from its card and the codex alone: kept for the next object of this card
            self._keep_template(entry, obj, d, life, channeling)
        return self._finish(obj, d, life, channeling, gained_attacks)

    def _finish(self, obj: "GameObject", d: Derived, life, channeling, gained_attacks=()) -> Derived:
        """What a derivation adds after its traits, armor and immunities (Effects._compute, or a template of
        its card: Effects._from_template): the Life it keeps while it cannot gain life (read and written on
        the object), its channeling, and its defenses, attacks and damage barriers (named by its id, and
        those of what is attached to it, and the attacks it gained: (timestamp, attack, source id))."""
        st = self._state
        card = obj.card
        if life is not None and "gain life" in d.cannot_do:
            # it keeps the Life it had when it could no longer gain life: a bonus that grows later
            # (Stranglevine's Life +2X as Crush tokens come) does not raise it
            if obj.life_when_barred is None:
                obj.life_when_barred = life
            elif life > obj.life_when_barred:
                d.mods.append(Mod(d.cannot_by.get("gain life", ""), obj.timestamp,
                                  f"life held at {obj.life_when_barred}", False, f"{life} would be a gain"))
                life = obj.life_when_barred
        elif life is not None:
            obj.life_when_barred = None  # it may gain life again: its Life follows its bonuses at once
        d.life = life
        d.channeling = channeling

        # defenses, attacks, damage barriers
        for i, df in enumerate(card.defenses):
            d.defenses.append((df, obj.id, f"{obj.id}#{i}"))
        for a in card.attacks:
            if "barrier" in a.special:
                continue
            d.attacks.append((a, obj.id))
        barriers = []
        for a in card.attacks:
            if "barrier" in a.special:
                barriers.append((obj.timestamp if False else 0, a, obj.id))
        # (read without marking every object read: a change of an attachment's fingerprint counts as a
        # change of its host, before and after: Effects._changed_objects)
        if self._sources_shape is self._shape:  # (gathered by Effects._sources, in the objects' order)
            attached = self._attached.get(obj.id, ())
        else:
            attached = [o for o in dict.values(st.objects) if o.in_play and o.attached_to == obj.id]
        for att in sorted(attached, key=_TIMESTAMP) if attached else ():
            if att.hidden:
                continue
            if att.card.kind == "equipment":
                for i, df in enumerate(att.card.defenses):
                    d.defenses.append((df, att.id, f"{att.id}#{i}"))
                for a in att.card.attacks:
                    if "barrier" not in a.special:
                        d.attacks.append((a, att.id))
            for a in att.card.attacks:
                if "barrier" in a.special:
                    barriers.append((att.timestamp, a, att.id))
        for (ts, a, sid) in gained_attacks:
            if "barrier" in a.special:
                if not any(b[1] is a and b[2] == sid for b in barriers):
                    barriers.append((ts, a, sid))
            elif not any(x is a for x, _ in d.attacks):
                d.attacks.append((a, sid))
        if len(barriers) > 1:
            barriers.sort(key=_FIRST)
        if barriers:
            d.barrier = (barriers[0][1], barriers[0][2])
            d.extra_barriers = [(b[1], b[2]) for b in barriers[1:]]
        return d


#: _own_statics' table (cardindex.per_definition), read first where every trait of a derivation asks it
_OWN_STATICS = _own_statics.table


# ---------------------------------------------------------------- guards read directly
@per_definition
def _guard_plan(guard) -> tuple:
    """How a static's guard may be read without the general evaluator: (value name, not?, the phrase,
    the names) for `has(this, [NAMES])` and `guarding(this)`, or either under `not`; () for any other
    guard.  Most guards a derivation evaluates are these (Fast's `has(this, [Slow])`, Flying's
    `guarding(this)`), at every change of what is known of the object (Effects._compute's implied)."""
    negated = False
    if isinstance(guard, A.CondNot):
        negated, guard = True, guard.item
    if not isinstance(guard, A.Call) or guard.name not in ("has", "guarding") or any(a.key for a in guard.args):
        return ()
    args = [a.value for a in guard.args]
    if len(args) != (2 if guard.name == "has" else 1) or not isinstance(args[0], A.Phrase) \
            or [w.text.lower() for w in args[0].words] != ["this"]:
        return ()
    if guard.name == "has":
        if not isinstance(args[1], A.TraitGroup):
            return ()
        return ("has", negated, args[0], tuple(ref.name.text for ref in args[1].traits))
    return ("guarding", negated, args[0], ())


_GUARD_PLANS = _guard_plan.table


def _guard_read(game, plan: tuple, src) -> Optional[bool]:
    """A guard of _guard_plan's shapes read as the evaluator reads it (primitives.v_has and `guarding`:
    the object `this` names, unless a counterspell spared it from its own effect, `game.spared_from`;
    `this` is never filtered by immunity), or None when the evaluator's table or the phrase's selector is
    not the one this stands in for (then the evaluator reads it).  It reads what they read: has_name of
    `this`, or its guard marker (a light field, counted by its property)."""
    name, negated, phrase, names = plan
    if not game.stock_value(name):  # (an addon put another primitive in its place: the evaluator reads it)
        return None
    sel = selector_of(game, phrase)
    if sel.__class__ is not S.Pronoun or sel.word != "this" or sel.kinds is not None:
        return None
    if src is None:
        held = False
    else:
        spared = game.spared_from.get(src.id)
        if spared and src.id in spared:
            held = False
        elif name == "has":
            held = True
            for n in names:
                if not has_name(game, src, n):
                    held = False
                    break
        else:
            held = bool(src.guard)
    return not held if negated else held
