"""Reading phrases ("each enemy Living creature in this zone") against the state.

A phrase is resolved relative to a :class:`Ctx`: the object whose ability is
running (`this`), the attack being resolved, the event object (`it`) and any
chosen target.  Pronouns name one object; quantified phrases select objects.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional

from ..dsl import ast as A

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameObject

CREATURE_KINDS = ("creature", "mage", "magestats")
CONJ_KINDS = ("conjuration", "wall", "terrain", "vine")
NOUN_KINDS = {
    "creature": CREATURE_KINDS, "creatures": CREATURE_KINDS,
    "conjuration": CONJ_KINDS, "conjurations": CONJ_KINDS,
    "wall": ("wall",), "walls": ("wall",),
    "enchantment": ("enchantment",), "enchantments": ("enchantment",),
    "equipment": ("equipment",), "mage": ("mage", "magestats"), "mages": ("mage", "magestats"),
    "terrain": ("terrain",), "vine": ("vine",),
}
PRONOUNS = {"this", "that", "it", "its", "target", "enchanted", "attached", "attacker", "defender",
            "controller", "you", "your", "owner", "source", "bearer"}


@dataclass
class Ctx:
    this: Optional["GameObject"] = None
    attack: Any = None  # engine.attack.Attack
    it: Optional["GameObject"] = None
    target: Optional["GameObject"] = None
    chosen: Optional["GameObject"] = None
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


def pronoun(game: "Game", word: str, ctx: Ctx) -> Any:
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
        return ctx.attack.source if ctx.attack is not None else this
    if word == "defender":
        return ctx.attack.target if ctx.attack is not None else None
    if word in ("it", "that", "its"):
        return ctx.it if ctx.it is not None else ctx.target
    if word == "target":
        return ctx.target
    if word in ("controller", "you", "your", "owner"):
        if this is None:
            return None
        who = this.owner if word == "owner" else this.controller
        return st.mage_of(who) or who
    return None


def resolve(game: "Game", phrase, ctx: Ctx) -> list:
    """Objects (or zones) a phrase names."""
    ws = words_of(phrase)
    if not ws:
        return []
    low = [w.lower() for w in ws]
    if low[0] in ("controller", "owner") and len(low) > 2 and low[1] == "of" and low[2] in PRONOUNS:
        ref = pronoun(game, low[2], ctx)
        if ref is None or isinstance(ref, str):
            return []
        who = ref.controller if low[0] == "controller" else ref.owner
        return [game.state.mage_of(who) or who]
    if low[0] in PRONOUNS and low[0] not in ("target",) and not (len(low) > 1 and low[1] in ("zone",)):
        obj = pronoun(game, low[0], ctx)
        if obj is None:
            return []
        return [obj]
    if low[0] == "target":
        if ctx.target is not None:
            return [ctx.target]
        return []
    if low[:2] == ["this", "zone"] or low[:2] == ["its", "zone"]:
        base = ctx.this if low[0] == "this" else (ctx.it or ctx.this)
        z = game.state.zone_of(base) if base is not None else None
        return [z] if z else []
    if ("zone" in low or "zones" in low) and not any(w in NOUN_KINDS or w in ("object", "objects") for w in low):
        return zones_matching(game, low, ctx)
    return [o for o in game.state.in_play() if matches(game, o, ws, ctx)]


def zones_matching(game: "Game", low: list, ctx: Ctx) -> list:
    """Zones a phrase names: "a zone in the arena", "an adjacent zone", "a zone within 2 of this"."""
    arena = game.state.arena
    zones = arena.zones()
    here = game.state.zone_of(ctx.this) if ctx.this is not None else None
    if "adjacent" in low and here:
        zones = [z for z in zones if arena.distance(z, here) == 1]
    if "within" in low:
        i = low.index("within")
        if i + 1 < len(low) and low[i + 1].isdigit() and here:
            zones = [z for z in zones if arena.distance(z, here) <= int(low[i + 1])]
    if "other" in low or "another" in low:
        zones = [z for z in zones if z != here]
    return zones


def resolve_one(game: "Game", phrase, ctx: Ctx):
    got = resolve(game, phrase, ctx)
    return got[0] if got else None


def has_name(game: "Game", obj: "GameObject", name: str) -> bool:
    """Does the object carry this Capitalised name (trait, condition, subtype, school, kind)?"""
    n = name.lower()
    d = game.effects.derived(obj)
    if n == "living":
        return obj.kind in CREATURE_KINDS + CONJ_KINDS and not d.has("Nonliving") and (
            obj.kind in CREATURE_KINDS or d.has("Living"))
    if n == "corporeal":
        return not d.has("Incorporeal")
    if n == "mage":
        return obj.kind in ("mage", "magestats") or "Mage" in obj.card.subtypes
    if d.has(name):
        return True
    if any(s.lower() == n for s in obj.card.subtypes):
        return True
    if any(s.lower() == n for s, _ in obj.card.schools):
        return True
    if obj.markers.get(name):
        return True
    if obj.name.lower() == n:
        return True
    return False


def matches(game: "Game", obj: "GameObject", phrase, ctx: Ctx) -> bool:
    ws = words_of(phrase)
    st = game.state
    this = ctx.this
    negate = False
    i = 0
    kind_ok = None
    while i < len(ws):
        w = ws[i]
        lw = w.lower()
        if lw in ("each", "every", "all", "a", "an", "any", "up", "to", "the", "new", "same"):
            pass
        elif lw == "non":
            negate = True
            i += 1
            continue
        elif lw in ("friendly", "enemy"):
            if this is None:
                return False
            ok = (obj.controller == this.controller) == (lw == "friendly")
            if ok == negate:
                return False
        elif lw in ("other", "another"):
            host = st.objects.get(this.attached_to) if this is not None and this.attached_to else None
            if obj is this or obj is host:
                return False
        elif lw in ("revealed", "hidden"):
            if obj.hidden != (lw == "hidden"):
                return False
        elif lw in NOUN_KINDS:
            kinds = NOUN_KINDS[lw]
            k_ok = obj.kind in kinds
            if lw.startswith("mage"):
                k_ok = k_ok or "Mage" in obj.card.subtypes
            kind_ok = (kind_ok or False) or k_ok
            if not k_ok:
                return False
        elif lw in ("object", "objects"):
            if obj.kind not in CREATURE_KINDS + CONJ_KINDS:
                return False
        elif lw in ("in", "within"):
            rest = [x.lower() for x in ws[i + 1:]]
            zone = st.zone_of(obj)
            if lw == "within" and rest and rest[0].isdigit():
                n = int(rest[0])
                base = this
                if "of" in rest:
                    ref = rest[rest.index("of") + 1] if rest.index("of") + 1 < len(rest) else None
                    base = pronoun(game, ref, ctx) if ref in PRONOUNS else base
                if base is None or zone is None or st.zone_of(base) is None:
                    return False
                if st.arena.distance(zone, st.zone_of(base)) > n:
                    return False
                break
            if rest[:2] in (["this", "zone"], ["its", "zone"], ["the", "zone"]):
                if this is None or zone is None or zone != st.zone_of(this):
                    return False
                break
            if rest[:2] == ["that", "zone"]:
                ref = ctx.it or ctx.target
                if ref is None or zone != st.zone_of(ref):
                    return False
                break
            break
        elif lw == "attached" and i + 2 < len(ws) and ws[i + 1].lower() == "to" and ws[i + 2].lower() in PRONOUNS:
            ref = pronoun(game, ws[i + 2].lower(), ctx)
            if ref is None or isinstance(ref, str) or obj.attached_to != ref.id:
                return False
            i += 3
            continue
        elif lw == "on" and i + 1 < len(ws) and ws[i + 1].lower() in PRONOUNS:
            ref = pronoun(game, ws[i + 1].lower(), ctx)
            if ref is None or isinstance(ref, str) or obj.attached_to != ref.id:
                return False
            i += 2
            continue
        elif lw in ("with", "of", "on", "from", "by", "adjacent", "controlled"):
            break  # relations the engine does not read yet: accept
        elif w[:1].isupper():
            ok = has_name(game, obj, w)
            if ok == negate:
                return False
        elif lw in PRONOUNS:
            ref = pronoun(game, lw, ctx)
            if ref is not obj:
                return False
        negate = False
        i += 1
    return True
