"""Continuous effects, applied in timestamp order, and the derived values they produce.

Sources: printed values and traits (earliest), then abilities of attached
enchantments and equipment, conjurations and zone effects, conditions and
tokens, and effects created by resolving abilities ("until end of round"),
each at its timestamp.  Rules implemented here:

* the later of a gain and a lose wins;
* "loses and cannot gain" always wins, whatever its timestamp;
* Finite Life stops life gains applied after it, keeps earlier ones;
* an enchantment that is moved takes a new timestamp (GameState.attach);
* an effect that stops applying stops at once (values are recomputed from
  the current sources; the cache is keyed on the state version);
* the second damage barrier of an object does not function.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Optional

from ..dsl import ast as A
from ..dsl.model import AttackDefinition, Defense, TraitInstance
from ..spellbook.rules import RULE_CALLS as SPELLBOOK_RULE_CALLS
from .spellstatics import CAST_STATIC_CALLS
from . import movement
from .phrases import Ctx, matches, words_of, pronoun

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameObject

CONJURATION_KINDS = ("conjuration", "wall", "terrain", "vine")


@dataclass
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


@dataclass
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
    can_do: set = field(default_factory=set)  # actions its traits allow: `can(this, "ignore guards")`
    cannot_be_attacked: list = field(default_factory=list)  # (detail, source label)
    barrier: Optional[tuple] = None  # (AttackDefinition, source obj id) — the one that functions
    extra_barriers: list = field(default_factory=list)

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


def trait_from_ref(ref: A.TraitRef) -> TraitInstance:
    val = ref.param.signed_value() if ref.param is not None else None
    if ref.versus:
        return TraitInstance("Versus", val, None, tuple(v.text for v in ref.versus), ref.text)
    return TraitInstance(ref.name.text, val, None, (), ref.text)


class Effects:
    def __init__(self, game: "Game"):
        self.game = game
        self._cache: dict[str, Derived] = {}
        self._version = -1
        self._computing: set[str] = set()
        self.temporary: list[tuple] = []  # (timestamp, source label, target id, effect node, until)

    # ------------------------------------------------------------ cache
    def derived(self, obj: "GameObject") -> Derived:
        st = self.game.state
        if self._version != st.version:
            self._cache.clear()
            self._version = st.version
        d = self._cache.get(obj.id)
        if d is not None:
            return d
        if obj.id in self._computing:  # a phrase asked about the object being computed: printed view
            return self._printed(obj)
        self._computing.add(obj.id)
        try:
            d = self._compute(obj)
        finally:
            self._computing.discard(obj.id)
        self._cache[obj.id] = d
        return d

    def _printed(self, obj: "GameObject") -> Derived:
        d = Derived()
        for t in obj.card.traits:
            d.traits.setdefault(t.key, []).append(t)
        return d

    # ------------------------------------------------------------ sources
    def _affects(self, src: "GameObject", subject, obj: "GameObject") -> bool:
        ws = [w.lower() for w in words_of(subject)]
        if not ws:
            return False
        if ws[0] in ("this", "enchanted", "attached", "bearer", "it", "controller", "you", "your") and (
                len(ws) == 1 or ws[1] in ("creature", "object", "mage", "conjuration")):
            ref = pronoun(self.game, ws[0], Ctx(this=src))
            return ref is obj
        return matches(self.game, obj, subject, Ctx(this=src))

    def _guard_ok(self, guard, src, obj) -> bool:
        if guard is None:
            return True
        try:
            return bool(self.game.evaluate(guard, Ctx(this=src, it=obj)))
        except Exception:
            return True

    def collect(self, obj: "GameObject") -> list[tuple]:
        """Every continuous effect on `obj`: (timestamp, source label, node, multiplier)."""
        st = self.game.state
        out = []
        for src in st.in_play():
            if src.hidden:
                continue
            if src.kind == "enchantment" and src.attached_to is None and src.attached_zone is None:
                continue
            for ab in src.card.abilities:
                if isinstance(ab, A.OncePerRound):
                    continue
                if not isinstance(ab, A.StaticAbility):
                    continue
                eff = ab.effect
                subject = getattr(eff, "subject", None)
                if subject is None and isinstance(eff, A.Call):
                    self._static_call(src, ab, eff, obj, out)
                    continue
                if subject is None:
                    continue
                if self._affects(src, subject, obj) and self._guard_ok(ab.guard, src, obj):
                    out.append((src.timestamp, src.label(), eff, 1))
        # conditions and tokens with codex abilities
        codex = self.game.codex
        for name, n in obj.markers.items():
            cd = codex.get(name)
            if cd is None or n <= 0:
                continue
            for ab in cd.abilities:
                if isinstance(ab, A.StaticAbility) and getattr(ab.effect, "subject", None) is not None:
                    ws = [w.lower() for w in words_of(ab.effect.subject)]
                    if ws and ws[0] in ("this", "it"):
                        out.append((obj.timestamp, self.marker_label(name, n), ab.effect, n))
        for (ts, label, target_id, node, _until) in self.temporary:
            if target_id == obj.id:
                out.append((ts, label, node, 1))
        out.sort(key=lambda e: e[0])
        return out

    STATIC_CALLS = ("gain_attack", "attacks_gain", "grant_defense", "incapacitate", "immune", "cannot")
    IGNORED_STATIC = ("set_x",)  # read where it is used

    def _static_call(self, src, ab, call: A.Call, obj, out) -> None:
        g = self.game
        if call.name in self.IGNORED_STATIC or call.name in CAST_STATIC_CALLS or call.name in SPELLBOOK_RULE_CALLS \
                or movement.reads_static(call):
            return  # read where it is used (casting: engine/casting.py; spellbook building: spellbook/rules.py;
            #         movement: hinder, walls, line of sight, move restrictions)
        if call.name not in self.STATIC_CALLS:
            key = (src.card.name, call.name)
            if key not in g.static_unsupported:
                g.static_unsupported.add(key)
                g.unsupported.append(f"static {call.name}")
                g.pending_notes.append(f"NOT IMPLEMENTED: static {call.name}(...) of {src.card.name} is not applied")
            return
        if not call.args or not isinstance(call.args[0].value, A.Phrase):
            return
        if call.name == "immune":
            ws = [w.lower() for w in words_of(call.args[0].value)]
            if ws and ws[0] not in ("this", "enchanted", "attached", "bearer"):
                key = (src.card.name, "immune (of other objects)")
                if key not in g.static_unsupported:
                    g.static_unsupported.add(key)
                    g.unsupported.append("static immune (others)")
                    g.pending_notes.append(f"NOT IMPLEMENTED: static immune(...) of {src.card.name} "
                                           f"(immunity of other objects to this one) is not applied")
                return
        if call.name == "cannot":
            act = call.args[1].value if len(call.args) > 1 else None
            if not (isinstance(act, A.StringLit) and act.value == "be_attacked"):
                key = (src.card.name, "cannot")
                if key not in g.static_unsupported:
                    g.static_unsupported.add(key)
                    g.unsupported.append("static cannot")
                    g.pending_notes.append(f"NOT IMPLEMENTED: static cannot(...) of {src.card.name} is not applied")
                return
        if not self._affects(src, call.args[0].value, obj) or not self._guard_ok(ab.guard, src, obj):
            return
        out.append((src.timestamp, src.label(), call, 1))

    @staticmethod
    def marker_label(name: str, n: int) -> str:
        return f"{name} x{n}"

    # ------------------------------------------------------------ codex statics of traits
    def _codex_static(self, obj, key, ab, traits, d, gain) -> bool:
        """Apply one static ability of the codex entry of a trait the object has (`this` = the object).
        Returns True when it added a trait."""
        eff = ab.effect
        if ab.guard is not None and not self._guard_ok(ab.guard, obj, obj):
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
            subj = getattr(node, 'subject', None)
            if isinstance(node, A.Call) and node.name in ("immune", "cannot", "can") and node.args \
                    and isinstance(node.args[0].value, A.Phrase) \
                    and [w.lower() for w in words_of(node.args[0].value)] == ["this"]:
                self._codex_call(node, d, key, obj)
                continue
            if subj is None or [w.lower() for w in words_of(subj)] != ['this']:
                continue  # statics about other objects are collected from their sources
            if isinstance(node, A.Gain):
                for ref in node.traits.traits:
                    for _ in range(count):
                        if ref.name.text not in traits:
                            new = True
                        gain(trait_from_ref(ref), key, obj.timestamp)
            elif isinstance(node, A.Lose):
                for ref in node.traits.traits:
                    k = ref.name.text
                    if node.cannot_gain:
                        d.cannot_gain.add(k)
                    if traits.pop(k, None) is not None:
                        d.mods.append(Mod(key, obj.timestamp, f'loses {k}' + (' and cannot gain it'
                                                                               if node.cannot_gain else '')))
        return new

    @staticmethod
    def _codex_call(call: A.Call, d: "Derived", key: str, obj) -> None:
        """`immune(this, Flame)`, `immune(this, [Burn])`, `cannot(this, "heal")`, `can(this, "...")`."""
        what = call.args[1].value if len(call.args) > 1 else None
        if call.name == "immune":
            if isinstance(what, A.TraitGroup):
                for ref in what.traits:
                    d.immune_conditions.add(ref.name.text)
                    d.immune_by.setdefault(ref.name.text, key)
            elif isinstance(what, A.Phrase):
                d.immune_types.add(what.text)
                d.immune_by.setdefault(what.text, key)
            elif isinstance(what, A.StringLit):
                d.cannot_do.add(f"be affected by {what.value}")
            d.mods.append(Mod(key, obj.timestamp, f"immune to {getattr(what, 'text', '') or what}"))
        elif isinstance(what, A.StringLit):
            (d.cannot_do if call.name == "cannot" else d.can_do).add(what.value)

    @staticmethod
    def _marker_count(obj, phrase):
        """`<Name> token(s)|marker(s) on this|it`: how many of those markers the object carries."""
        ws = words_of(phrase)
        low = [w.lower() for w in ws]
        if len(ws) >= 4 and low[1] in ('token', 'tokens', 'marker', 'markers') and low[2] == 'on' \
                and low[3] in ('this', 'it'):
            return obj.markers.get(ws[0], 0)
        return None

    # ------------------------------------------------------------ compute
    def _compute(self, obj: "GameObject") -> Derived:
        st = self.game.state
        codex = self.game.codex
        d = Derived()
        card = obj.card
        mods = d.mods
        effects = self.collect(obj)
        marker_labels = {self.marker_label(name, n) for name, n in obj.markers.items()}

        # "loses and cannot gain" wins whatever the order
        for (ts, label, node, _n) in effects:
            if isinstance(node, A.Lose) and node.cannot_gain:
                for ref in node.traits.traits:
                    d.cannot_gain.add(ref.name.text)

        traits: dict[str, list] = {}
        gained_attacks: list = []

        def gain(t: TraitInstance, label: str, ts: int):
            if t.key in d.cannot_gain:
                mods.append(Mod(label, ts, f"gains {t}", False, f"loses and cannot gain {t.key}"))
                return
            traits.setdefault(t.key, []).append(t)
            mods.append(Mod(label, ts, f"gains {t}"))

        for t in card.traits:
            if t.key not in d.cannot_gain:
                traits.setdefault(t.key, []).append(t)
        if obj.kind in CONJURATION_KINDS and "Living" not in traits:
            traits.setdefault("Nonliving", []).append(TraitInstance("Nonliving"))
            traits.setdefault("Psychic Immunity", []).append(TraitInstance("Psychic Immunity"))

        armor_base = card.armor
        d.no_armor = armor_base is None and obj.kind in ("creature", "conjuration", "wall") or "Incorporeal" in traits
        life = card.life
        channeling = card.channeling
        if channeling is not None and not isinstance(channeling, int):  # "channeling X"
            channeling = self.game.x_value(obj)
        armor = armor_base or 0

        applied: set = set()

        def implied():
            """Traits and conditions state what else they bring in their codex entries
            (`static this gains [...]`, `static this loses [...] and cannot gain`, and
            `static for each <Name> token on this: this gains [...]`): apply those of every trait
            the object has, until nothing new comes."""
            for _ in range(8):
                new = False
                for key in list(traits):
                    if key in applied:
                        continue
                    applied.add(key)
                    cdef = codex.get(key)
                    if cdef is None:
                        continue
                    for ab in cdef.abilities:
                        if isinstance(ab, A.StaticAbility):
                            new |= self._codex_static(obj, key, ab, traits, d, gain)
                if not new:
                    return

        implied()

        marker_armor = 0
        for (ts, label, node, n) in effects:
            if isinstance(node, A.Gain):
                for ref in node.traits.traits:
                    for _ in range(n):
                        gain(trait_from_ref(ref), label, ts)
                implied()
            elif isinstance(node, A.Lose):
                for ref in node.traits.traits:
                    key = ref.name.text
                    had = key in traits
                    traits.pop(key, None)
                    mods.append(Mod(label, ts, f"loses {key}" + (" and cannot gain it" if node.cannot_gain else ""),
                                    had or node.cannot_gain, "" if had else "did not have it"))
            elif isinstance(node, A.Call) and node.name == "gain_attack":
                src_obj = next((o for o in st.in_play() if o.label() == label), None)
                name = next((a.value.value for a in node.args[1:] if isinstance(a.value, A.StringLit)), None)
                if src_obj is not None:
                    for adef in src_obj.card.attacks:
                        if name is None or adef.name == name:
                            gained_attacks.append((ts, adef, src_obj.id))
            elif isinstance(node, A.Call) and node.name == "attacks_gain":
                pos = [a.value for a in node.args if not a.key]
                kw = {a.key: a.value for a in node.args if a.key}
                kind = kw.get("kind")
                kind = kind.text if isinstance(kind, A.Phrase) else (kind.value if isinstance(kind, A.StringLit) else None)
                if len(pos) > 1 and isinstance(pos[1], A.TraitGroup):
                    for ref in pos[1].traits:
                        d.attack_traits.append((trait_from_ref(ref), kind, label))
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
            elif isinstance(node, A.Call) and node.name == "incapacitate":
                gain(TraitInstance("Incapacitated"), label, ts)
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
                det = next((a.value for a in node.args if a.key == "detail"), None)
                d.cannot_be_attacked.append((det.text if isinstance(det, A.Phrase) else
                                             det.value if isinstance(det, A.StringLit) else "", label))
            elif isinstance(node, A.StatChange):
                for sm in node.mods:
                    amt = sm.amount.as_int()
                    if not isinstance(amt, int):
                        amt = self.game.x_value(obj)
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
                        if amt > 0 and "Finite Life" in traits:
                            mods.append(Mod(label, ts, f"life {amt:+d}", False, "Finite Life"))
                        else:
                            life += amt
                            mods.append(Mod(label, ts, f"life {amt:+d}"))

        implied()
        for k in d.cannot_gain:
            traits.pop(k, None)

        d.traits = traits
        if d.no_armor:
            armor = 0
        # armor before the conditions that lower it (Corrode): their excess markers drop off
        d.base_armor = armor - marker_armor
        d.armor = max(0, armor)
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
        for att in sorted(st.attachments(obj), key=lambda o: o.timestamp):
            if att.hidden:
                continue
            if att.kind == "equipment":
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
        barriers.sort(key=lambda b: b[0])
        if barriers:
            d.barrier = (barriers[0][1], barriers[0][2])
            d.extra_barriers = [(b[1], b[2]) for b in barriers[1:]]
        return d
