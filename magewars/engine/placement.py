"""What a spell does when it resolves, and the rules about where it may go (engine/casting.py).

* Placement: a creature or conjuration enters its zone (a conjuration cast on an object is attached
  to it), a wall goes on a border, equipment into its slots on a Mage (the duplicate-equipment rule),
  an enchantment face down on an object or zone; each fires `enters`.  A summoned creature's action
  marker starts on its used side (it acts from the next round).
* Restrictions read from the codex and the cards: `spellbook_only` ("X Mage Only": only that kind
  of Mage casts it), `copies_in_play` (Legendary, Unique), `zone_limit` (Zone Exclusive), the
  duplicate-enchantment rule, `cannot(this, "be targeted")` of a target.
* Cost changes: `costs(...)` statics of objects in play.
* Line of sight from the walls that block it (`block_los`), for casting until engine/movement.py
  offers `in_los`.

Nothing here knows a card or trait by name.
"""
from __future__ import annotations

from operator import is_
from typing import Iterator, Optional

from ..dsl import ast as A
from . import castlimit as CL
from .cardindex import index as card_index, per_definition
from .decisions import Option
from .errors import EngineError, unsupported_note
from .phrases import Ctx, has_name, matches
from .spellstatics import CAST_ONLY, COPIES_IN_PLAY, COSTS, SPELLBOOK_ONLY, ZONE_LIMIT
from .restrictions import forbids, permits
from .state import ROW_LETTERS, GameObject
from .decisions import Option
from .movement import one_way as _one_way

from ..dsl.vocab import CONJURATION_KINDS  # noqa: E402  (one vocabulary)
ZONE_KINDS = ("creature",) + CONJURATION_KINDS


def probe(game, caster, card, zone) -> GameObject:
    """The spell as an object not yet in play, for phrases asked before it is cast.  Its id names
    its card, its zone and what it is attached to (fresh_probe), so derived values cached for one
    probe (engine/effects.py keeps them by object id) are never read for another card, or for the same
    card in another zone or on another host.

    Kept per game, keyed by the caster's controller, the card (by identity) and the zone: every field
    of a probe follows from these three (it is never in play, carries no marker, is attached to
    nothing), so one object stands for every probe of that key.  Being the same object, the answers
    other layers keep per object by identity (a restriction query's statements, what the codex entries
    it carries state, the pooled "nothing states it") hold for it from one candidate and one decision to
    the next, as they would for an object in play.  Nothing may write to it: a caller that must change
    a field (x_from_card's attachment) makes its own with `fresh_probe`."""
    kept = game.__dict__.get("_probes")
    if kept is None:
        kept = game._probes = {}
    key = (caster.controller, id(card), zone)
    got = kept.get(key)
    if got is None or got.card is not card:
        got = kept[key] = fresh_probe(caster, card, zone)
    return got


def fresh_probe(caster, card, zone, attached_to: Optional[str] = None) -> GameObject:
    """A probe of its own (placement.probe), for a caller that needs one attached to an object.  Its id
    names its zone and attachment as well as its caster's controller and card: derived values are kept
    by object id (Effects.derived), and what a probe is may depend on where it is (a static about the
    objects in a zone) and on what it is attached to (statics about what is attached to its host).  Its
    zone and attachment are set here, never changed afterwards (the id would no longer name them)."""
    where = zone if attached_to is None else f"{zone}>{attached_to}"
    return GameObject(f"probe:{caster.controller}:{card.name}@{where}", card, caster.controller, caster.controller,
                      zone=zone, attached_to=attached_to, in_play=False)


# ---------------------------------------------------------------- borders and line of sight
def parse_border(arena, text) -> Optional[tuple[str, str]]:
    """'B2/B3' (or 'B2-B3') -> ('B2', 'B3') when the two zones are adjacent; else None."""
    if not isinstance(text, str):
        return None
    for sep in ("/", "-", " "):
        if sep in text:
            a, _, b = text.partition(sep)
            a, b = a.strip().upper(), b.strip().upper()
            if arena.is_zone(a) and arena.is_zone(b) and arena.adjacent(a, b):
                return tuple(sorted((a, b)))
    return None


def borders(arena) -> list[tuple[str, str]]:
    out = []
    zs = arena.zones()
    for i, a in enumerate(zs):
        for b in zs[i + 1:]:
            if arena.adjacent(a, b):
                out.append((a, b))
    return out


def blocks_los(game, obj: GameObject) -> bool:
    """A wall in play that blocks line of sight: a `block_los(this)` static of its card or of a
    codex entry of one of its traits."""
    if obj.border is None or not obj.in_play:
        return False
    for ab in obj.card.abilities:
        if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name == "block_los":
            return True
    return any(game.codex_statics(key, "block_los") for key in game.d(obj).traits)


def zone_los(game, a: str, b: str) -> bool:
    """Line of sight between zone centres: blocked when the line crosses a border held by a wall
    that blocks it.  A line through a corner is blocked only when both ways round are blocked."""
    arena = game.state.arena
    if a == b:
        return True
    game.effects.reads_others()
    cache = getattr(game, "_los_cache", None)
    if cache is None or cache[0] != game.state.version:
        blocked = frozenset(o.border for o in game.state.in_play() if o.border is not None and blocks_los(game, o))
        cache = game._los_cache = (game.state.version, blocked, {})
    blocked, known = cache[1], cache[2]
    if not blocked:
        return True
    got = known.get((a, b))
    if got is None:
        got = known[(a, b)] = _line_clear(arena, a, b, blocked)
    return got


def _line_clear(arena, a: str, b: str, blocked) -> bool:
    (r1, c1), (r2, c2) = arena.coords(a), arena.coords(b)
    steps = 64 * (abs(r1 - r2) + abs(c1 - c2))
    cells = []
    for i in range(steps + 1):
        t = i / steps
        y, x = r1 + 0.5 + (r2 - r1) * t, c1 + 0.5 + (c2 - c1) * t
        cell = (int(y), int(x))
        if not cells or cells[-1] != cell:
            cells.append(cell)

    def label(rc):
        return f"{ROW_LETTERS[rc[0]]}{rc[1] + 1}"

    for p, q in zip(cells, cells[1:]):
        if abs(p[0] - q[0]) + abs(p[1] - q[1]) == 1:
            if frozenset((label(p), label(q))) in blocked:
                return False
        else:  # through a corner: two ways round
            m1, m2 = (p[0], q[1]), (q[0], p[1])
            way1 = frozenset((label(p), label(m1))) in blocked or frozenset((label(m1), label(q))) in blocked
            way2 = frozenset((label(p), label(m2))) in blocked or frozenset((label(m2), label(q))) in blocked
            if way1 and way2:
                return False
    return True


# ---------------------------------------------------------------- statics of a card and its traits
_STATICS: dict = {}


def _statics(game, card, name: str) -> tuple:
    """Static calls `name` stated by a card itself or by the codex entries of its traits.  Kept per
    card and name with the codex entries read (definitions and entries are frozen): reused while the
    game's codex holds the same entries for the card's traits, since every candidate cast and every
    card of a spellbook at Planning asks several of them."""
    hit = _STATICS.get((id(card), name))
    codex = game.codex
    if hit is not None and hit[0] is card and all(map(is_, map(codex.get, hit[1]), hit[2])):
        return hit[3]
    out = [ab.effect for ab in card.abilities
           if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name == name]
    for t in card.traits:
        out.extend(ab.effect for ab in game.codex_statics(t.key, name))
    if len(_STATICS) >= 20_000:
        _STATICS.clear()
    got = tuple(out)
    keys = tuple(t.key for t in card.traits)
    _STATICS[(id(card), name)] = (card, keys, tuple(map(codex.get, keys)), got)
    return got


def _kw(call: A.Call) -> dict:
    return {a.key: a.value for a in call.args if a.key}


def _pos(call: A.Call) -> list:
    return [a.value for a in call.args if not a.key]


def _is_this(v) -> bool:
    return isinstance(v, A.Phrase) and [w.text.lower() for w in v.words] == ["this"]


# ---------------------------------------------------------------- restrictions on the caster and the card
def _lifts_mage_only(game, caster: GameObject, card) -> Optional[str]:
    """A `can(WHO, "cast", ...)` letting this caster cast the spell (`permits`' reason), or None."""
    return permits(game, "cast", caster, probe(game, caster, card, game.state.zone_of(caster))) or None


def mage_only_lifted(game, caster: GameObject, card) -> Optional[str]:
    """Why this caster may cast a spell restricted to another kind of Mage (a card's permission), or None
    when the spell is not so restricted for it.  The casting sequence says it once the cast is legal;
    `restrictions`, asked for every option an agent is offered, says nothing."""
    if not _statics(game, card, SPELLBOOK_ONLY) or not list(mage_only(game, caster.controller, card, granted=False)):
        return None
    return _lifts_mage_only(game, caster, card)


def restrictions(game, caster: GameObject, card) -> Iterator[tuple[str, str]]:
    """(rule, message) for each restriction that forbids this caster this spell now."""
    st = game.state
    if _statics(game, card, SPELLBOOK_ONLY):
        whys = list(mage_only(game, caster.controller, card, granted=False))
        if whys and _lifts_mage_only(game, caster, card):
            whys = []  # (said when the spell is cast: mage_only_lifted; asking changes nothing, says nothing)
        for why in whys:
            yield ("mage-only", why)
    for call in _statics(game, caster.card, CAST_ONLY):
        pos, kw = _pos(call), _kw(call)
        if not pos or not _is_this(pos[0]):
            continue  # a restriction of other casters is stated by their own cards
        if not all(isinstance(ph, A.Phrase) or _names_spell(ph) for ph in pos[1:]) or \
                ("school_of" in kw and not isinstance(kw["school_of"], A.Call)):
            _refuse(game, caster, "cast_only(...) with a computed spell, or a school_of: that is no value")
            continue
        spell = probe(game, caster, card, st.zone_of(caster))
        named = [game.evaluate(ph, Ctx(this=caster, it=caster)) for ph in pos[1:] if _names_spell(ph)]
        if not any(isinstance(ph, A.Phrase) and _spell_fits(game, caster, spell, ph) for ph in pos[1:]) \
                and card.name not in named:
            yield ("cast-only", f"{caster.label()} may cast only "
                                + " or ".join([ph.text for ph in pos[1:] if isinstance(ph, A.Phrase)]
                                              + [f"its bound spell ({n or 'none'})" for n in named])
                                + f"; {card.name} is not one")
        elif "school_of" in kw:  # only spells of one of the schools the value names (glyph_schools(this))
            got = game.evaluate(kw["school_of"], Ctx(this=caster, it=caster))
            schools = {str(x) for x in (got if isinstance(got, (list, tuple, set, frozenset)) else [got])
                       if x is not None}
            if not schools & {sc for sc, _lvl in card.schools}:
                yield ("cast-only", f"{caster.label()} may cast only spells of "
                                    + (" or ".join(sorted(schools)) if schools else "no school now")
                                    + f"; {card.name} is not one")
    why = CL.spell_limit(game, caster.controller, card)
    if why:
        yield ("cast-limit", why)
    for call in _statics(game, card, COPIES_IN_PLAY):
        pos, kw = _pos(call), _kw(call)
        if len(pos) < 2 or not _is_this(pos[0]) or not isinstance(pos[1], int):
            raise EngineError(f"NOT IMPLEMENTED: {card.name}: copies_in_play(...) must read (this, N)")
        per = kw.get("per")
        per_player = isinstance(per, A.StringLit) and per.value == "player"
        same = [o for o in st.in_play() if o.name == card.name
                and (not per_player or o.controller == caster.controller)]
        if len(same) >= pos[1]:
            who = f"{caster.controller} already has" if per_player else "the game already has"
            yield ("copy-in-play-limit",
                   f"{who} {len(same)} {card.name} in play ({same[0].label()}); at most {pos[1]} "
                   + ("per player" if per_player else "in play at once"))


def _names_spell(v) -> bool:
    """A cast_only argument computed as one spell card: `bound_spell(this)` (engine/bound.py)."""
    return isinstance(v, A.Call) and v.name == "bound_spell"


def mage_only(game, player: str, card, granted: bool = True) -> Iterator[str]:
    """Why the player's Mage may not cast or take control of this "X Mage Only" card (the spellbook
    rules read the same `spellbook_only` statement: magewars/spellbook/rules.py).  `granted=False`: the
    stats card's permissions to cast such spells are left out (casting asks them through the general
    query: restrictions)."""
    if not _statics(game, card, SPELLBOOK_ONLY):
        return
    mage = game.state.mage_of(player)
    mcard = mage.card if mage is not None else None
    got = _mage_only(game.corpus, mcard, card, granted)
    if got is None:  # a reading that raises: read again as it goes (what comes before the error is said)
        got = _read_mage_only(game.corpus, mcard, card, granted)
    for why in got:
        yield why if why is not _NO_MAGE else \
            f"{card.name} is restricted to a kind of Mage, and {player} has no Mage the rules can read"


_NO_MAGE = object()  # stands for the message naming the player (the rest of the answer does not)


def _mage_only(corpus, mcard, card, granted: bool) -> Optional[tuple]:
    """mage_only's answer for this Mage card: it reads the corpus and the two cards alone (frozen), so it
    is kept on the corpus per Mage card, spell card and `granted` (every card of a spellbook is asked at
    each Planning Phase).  None when the reading raises (nothing kept)."""
    kept = corpus.__dict__.setdefault("_mage_only", {})
    key = (id(mcard), id(card), granted)
    hit = kept.get(key)
    if hit is not None and hit[0] is mcard and hit[1] is card:
        return hit[2]
    try:
        got = tuple(_read_mage_only(corpus, mcard, card, granted))
    except Exception:
        return None
    if len(kept) >= 20_000:
        kept.clear()
    kept[key] = (mcard, card, got)
    return got


def _read_mage_only(corpus, mcard, card, granted: bool) -> Iterator:
    from ..spellbook import rules as SR
    stats = None
    if mcard is not None and mcard.kind == "magestats":
        stats, mcard = mcard, SR.mage_for(corpus, mcard)
    elif mcard is not None and mcard.kind == "mage":
        stats = SR.stats_for(corpus, mcard)
    if mcard is None or stats is None:
        yield _NO_MAGE
        return
    try:
        rules = SR.mage_rules(corpus, mcard, stats)
        if not granted:
            from dataclasses import replace
            rules = replace(rules, granted_only=())
        only = SR.restrictions(corpus, card)
        schools = SR._schools(corpus)
    except SR.RuleError as exc:
        raise EngineError(f"NOT IMPLEMENTED: cannot read the restriction of {card.name}: {exc}")
    for who, text in only:
        if not SR.allowed(rules, card, who, text, schools):
            yield f"{card.name} is {text}: the {mcard.name} cannot cast it or take control of it"


# ---------------------------------------------------------------- targets
def untargetable(game, obj: GameObject, caster: GameObject) -> Iterator[str]:
    """Why a spell of `caster` cannot target this object (its `cannot(this, "be targeted", ...)`, read by
    engine/restrictions.py with the caster as the one targeting)."""
    why = forbids(game, "be targeted", obj, by=caster)
    if why:
        yield why


def placement_problems(game, caster, card, targets, zone) -> Iterator[tuple[str, str]]:
    """Where the spell would go is not allowed: duplicate enchantments, zone limits."""
    st = game.state
    if card.kind == "enchantment":
        hosts = list(targets)
        for h in hosts:
            for o in st.attachments(h):
                if o.kind == "enchantment" and o.name == card.name and \
                        (not o.hidden or o.controller == caster.controller):
                    yield ("duplicate-enchantment",
                           f"{h.label()} already has {'a revealed' if not o.hidden else 'your hidden'} "
                           f"{card.name}")
        if zone and not hosts:
            for o in st.zone_attachments(zone):
                if o.kind == "enchantment" and o.name == card.name and \
                        (not o.hidden or o.controller == caster.controller):
                    yield ("duplicate-enchantment", f"zone {zone} already has {card.name}")
    into = zone if zone and "/" not in zone else None
    if into is None and card.kind in CONJURATION_KINDS and targets:
        into = st.zone_of(targets[0])
    limits = _statics(game, card, ZONE_LIMIT) if into is not None and card.kind in ZONE_KINDS else ()
    if limits:  # (the spell as an object in that zone, made only for a spell stating a limit)
        spell = probe(game, caster, card, into)
        for call in limits:
            pos = _pos(call)
            if len(pos) < 2 or not isinstance(pos[0], A.Phrase) or not isinstance(pos[1], int):
                raise EngineError(f"NOT IMPLEMENTED: {card.name}: zone_limit(...) must read (PHRASE, N)")
            ctx = Ctx(this=spell)
            if not matches(game, spell, pos[0], ctx):
                continue
            there = [o for o in st.objects_in_zone(into) if matches(game, o, pos[0], ctx)]
            if len(there) >= pos[1]:
                yield ("zone-limit", f"zone {into} already holds {there[0].label()}: at most {pos[1]} "
                                     f"{pos[0].text.removeprefix('each ')} per zone")


# ---------------------------------------------------------------- cost changes
def _cost_statics(game):
    """(source, static, once per round?) of each `costs(...)` of a face-up card in play: kept per
    fingerprint (Effects.shape: which objects are in play and face up, and their cards), as every
    candidate cast of a decision asks; except inside a derived value's computation, whose reads of the
    objects must be seen (engine/effects.py)."""
    st = game.state
    if game.effects._frames:
        return _read_cost_statics(st)
    key = (st, game.effects.shape())
    hit = game.__dict__.get("_cost_statics")
    if hit is None or hit[0][0] is not st or hit[0][1] is not key[1]:
        hit = game._cost_statics = (key, _read_cost_statics(st))
    return hit[1]


def _read_cost_statics(st) -> list:
    out = []
    indexed = card_index.table  # (card_index's own table read first: one dict get, not a call, per card)
    for src in st.in_play():
        if not src.hidden:
            ci = indexed.get(id(src.card))
            for inner, once in (ci if ci is not None else card_index(src.card)).static_calls.get(COSTS, ()):
                out.append((src, inner, once))
    return out


def _refuse(game, src, what: str) -> None:
    """Say once per card that a statement is not applied (never skipped silently)."""
    key = (src.card.name, what)
    if key not in game.static_unsupported:
        game.static_unsupported.add(key)
        game.unsupported.append(f"static {what}")
        game.pending_notes.append(unsupported_note(
            f"NOT IMPLEMENTED: static {what} of {src.card.name} is not applied", src,
            f"NOT IMPLEMENTED: static {what} of {src.public_label()} is not applied"))


def has_cost_changes(game) -> bool:
    if game.effects._frames:  # (reading no further than the first)
        return any(card_index(src.card).static_calls.get(COSTS) for src in game.state.in_play() if not src.hidden)
    return bool(_cost_statics(game))


#: the `only:` values of a `costs(...)` static this module applies (None: the casting cost)
ONLY_READ = (None, "enchantment_reveal", "reveal", "upkeep")


def _uses_key(src, call, kw):
    shared = kw.get("shared")
    return (src.id, shared.value if isinstance(shared, A.StringLit) else id(call))


def cost_changes(game, caster, spell, targets, which: str, into: Optional[str] = None) -> list[tuple]:
    """(source, call, minimum) for each `costs(...)` static that changes this spell's `which` cost
    ("casting" or "reveal") now.  A change stating `into: PLACE` applies only to a spell cast into a zone
    fitting PLACE (`into`, the zone it is cast into: the caster choosing that zone takes the change, so
    an `optional:` one is taken then, never otherwise)."""
    statics = _cost_statics(game)
    if not statics:  # (no `costs(...)` in play: most casts, and every candidate of a decision)
        return []
    out, seen = [], set()
    uses = getattr(game, "cost_uses", {})
    rnd = game.state.round
    for src, ab, once in statics:
        call = ab.effect
        pos, kw = _pos(call), _kw(call)
        only = kw.get("only")
        only = only.value if isinstance(only, A.StringLit) else None
        if only not in ONLY_READ:
            _refuse(game, src, "costs(...) with only: other than a reveal or upkeep cost")
            continue
        if "into" in kw and (which != "casting" or into is None
                             or not matches(game, into, kw["into"], Ctx(this=src))):
            continue
        # "enchantment_reveal": an enchantment on its reveal cost, any other spell on its casting cost;
        # "reveal": only a reveal cost; "upkeep": only an upkeep payment (primitives.p_pay_upkeep)
        if which == "casting" and (only in ("reveal", "upkeep") or (
                only == "enchantment_reveal" and getattr(spell, "kind", None) == "enchantment")):
            continue
        if which == "reveal" and only not in ("enchantment_reveal", "reveal"):
            continue
        if (which == "upkeep") != (only == "upkeep"):
            continue
        ctx = Ctx(this=src, it=spell)
        if ab.guard is not None and not game.evaluate(ab.guard, ctx):
            continue
        if not pos or not isinstance(pos[0], A.Phrase) or not _spell_fits(game, src, spell, pos[0], targets):
            continue
        if "by" in kw and not matches(game, caster, kw["by"], Ctx(this=src)):
            continue
        if "on" in kw and not any(matches(game, t, kw["on"], Ctx(this=src)) for t in targets):
            continue
        limit = 1 if once else kw.get("uses")
        key = _uses_key(src, call, kw)
        if isinstance(limit, int) and uses.get((key, rnd), 0) >= limit:
            continue
        if key in seen:
            continue
        seen.add(key)
        minimum = kw.get("minimum")
        out.append((src, call, minimum if isinstance(minimum, int) else None))
    return out


def use_cost_changes(game, caster, spell, targets, which: str, into: Optional[str] = None) -> None:
    """Count the uses of the limited cost changes that applied to this cast."""
    if not hasattr(game, "cost_uses"):
        game.cost_uses = {}
    rnd = game.state.round
    for src, call, _ in cost_changes(game, caster, spell, targets, which, into=into):
        key = (_uses_key(src, call, _kw(call)), rnd)
        game.cost_uses[key] = game.cost_uses.get(key, 0) + 1


_KINDS = {"incantation", "enchantment", "equipment", "creature", "conjuration", "wall", "attack"}


_FILLER = ("spell", "spells", "card", "cards", "a", "an", "each", "object", "objects")


def _words_plan(words) -> tuple[tuple, tuple]:
    """What plain words of a phrase ask of one thing, read once per phrase: the checks that need only
    the thing's kind, level and controller (("own", same controller?), ("kind", stem), ("level", N),
    ("never",) for a word this reading does not know), and the names it must (or, "Non-", must not)
    carry: (name, negated)."""
    checks, names = [], []
    skip = -1
    for i, w in enumerate(words):
        if i == skip:
            continue
        low = w.text.lower()
        if low in _FILLER:
            continue
        if low in ("your", "friendly"):
            checks.append(("own", True))
            continue
        if low == "enemy":
            checks.append(("own", False))
            continue
        stem = low[:-1] if low.endswith("s") and low[:-1] in _KINDS else low
        if stem in _KINDS:
            checks.append(("kind", stem))
            continue
        if low == "level" and i + 1 < len(words) and words[i + 1].text.isdigit():
            skip = i + 1
            checks.append(("level", int(words[i + 1].text)))
            continue
        if w.kind != "name":
            checks.append(("never",))  # a word this reading does not know: the change does not apply
            continue
        neg = w.text.startswith("Non-")
        names.append((w.text[4:] if neg else w.text, neg))
    return tuple(checks), tuple(names)


def _plain_fit(src, checks, kind: str, controller: str, level) -> bool:
    """The checks of a words plan that need no names: ownership, kind, level, unknown words."""
    for c in checks:
        what = c[0]
        if what == "own":
            if (controller == src.controller) != c[1]:
                return False
        elif what == "kind":
            stem = c[1]
            if kind != stem and not (stem == "creature" and kind in ("mage", "magestats")):
                return False
        elif what == "level":
            if level is None or level != c[1]:
                return False
        else:
            return False
    return True


def _words_fit(src, plan, kind: str, has, controller: str, level=None) -> bool:
    """Plain words of a phrase (read by _words_plan) against one thing: ownership, kind, level and
    names (trait, subtype, school).  Every word must fit; the names, the only costly part (a name may
    be one the thing has through derived values), are asked only when the rest fits."""
    checks, names = plan
    if not _plain_fit(src, checks, kind, controller, level):
        return False
    for base, neg in names:
        if has(base) == neg:
            return False
    return True


@per_definition
def _phrase_plan(phrase: A.Phrase) -> tuple:
    """(plan of the words before "on", plan of the words after it or None): once per phrase."""
    words = list(phrase.words)
    on = next((i for i, w in enumerate(words) if w.text.lower() == "on"), None)
    return (_words_plan(words), None) if on is None else (_words_plan(words[:on]), _words_plan(words[on + 1:]))


def may_fit(src, card, controller: str, phrase: A.Phrase) -> bool:
    """False when a spell of this card controlled by `controller`, with no target, can never fit the
    phrase (_spell_fits with no targets) whatever names it carries: its kind, level or controller refuse,
    or the phrase asks of a target.  Read from the card alone, before any spell object is made."""
    head, rest = _phrase_plan(phrase)
    return rest is None and _plain_fit(src, head[0], card.kind, controller, card.level)


def _spell_fits(game, src, spell, phrase: A.Phrase, targets=()) -> bool:
    """Does the spell fit a `costs(...)` phrase such as "your Soldier spells", "enemy incantations",
    "your Enchantment spells on a friendly creature"?  Ownership words are checked against the
    spell's controller, the rest against its card; words after "on" against its target."""
    head, rest = _phrase_plan(phrase)
    if rest is not None:
        if not any(not isinstance(t, str) and _words_fit(
                src, rest, t.kind, lambda n, t=t: has_name(game, t, n), t.controller)
                   for t in targets):
            return False
    card = spell.card
    return _words_fit(src, head, card.kind, lambda n: has_name(game, spell, n), spell.controller, card.level)


# ---------------------------------------------------------------- resolving
def resolve(game, c) -> Optional[GameObject]:
    """The spell's effect: run, attack, or placed.  Returns the object left in play, if any."""
    card, spell = c.card, c.spell
    kind = card.kind
    if kind == "attack" or (kind == "incantation" and card.attacks and not _one_shots(card)):
        game.emit("info", f"{c.caster.label()} casts {card.name}: its attack enters the attack sequence")
        zone = c.zone if c.zone and "/" not in c.zone else None
        way = _roll_way(game, c, zone) if zone is not None and _rolls_on(card) else None
        game.attacks.make_attack(c.caster, None, list(c.targets), zone=zone, spell=spell)
        if way is not None:
            _roll_on(game, c, zone, way)
        return None
    if kind == "incantation":
        t = c.targets[0] if c.targets else None
        ctx = Ctx(this=spell, target=t, it=t)
        ctx.extra["casting"] = c  # the casting it resolves (a choice remade by a new controller: primitives)
        if c.zone and "/" not in c.zone:
            ctx.extra["zone"] = c.zone
            # its target zone (`target zone`): beside an object target (Teleport), or alone (Mass Sleep)
            ctx.extra["targets"] = [c.zone]
        elif len(c.targets) > 1:  # its other targets (Shift Enchantment's new target)
            ctx.extra["targets"] = list(c.targets[1:])
        for ab in card.abilities:
            if isinstance(ab, A.OneShotAbility):
                for eff in ab.effects:
                    if c.status == "canceled":  # canceled as it resolves (a cost it is not paid): no more
                        return None
                    game.run_effects((eff,), ctx)
        return None
    if kind == "enchantment":
        return _attach(game, c, hidden=True)
    if kind == "equipment":
        return _equip(game, c)
    if kind in ZONE_KINDS:
        return _summon(game, c)
    raise EngineError(f"NOT IMPLEMENTED: resolving a {kind} spell")


def _rolls_on(card) -> bool:
    """A zone attack spell stating `static roll_on(this)`: it attacks zone after zone along one way."""
    return any(isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name == "roll_on"
               for ab in card.abilities)


def _next_zone(game, z: str, way: str) -> Optional[str]:
    from .movement import DIRECTIONS
    arena = game.state.arena
    r, col = arena.coords(z)
    dr, dc = DIRECTIONS[way]
    if 0 <= r + dr < arena.rows and 0 <= col + dc < arena.cols:
        return f"{ROW_LETTERS[r + dr]}{col + dc + 1}"
    return None


def _roll_way(game, c, zone: str) -> Optional[str]:
    """`roll_on`: as the spell resolves its caster picks an orthogonal way (one with a zone beyond)."""
    from .movement import DIRECTIONS
    ways = [w for w in DIRECTIONS if _next_zone(game, zone, w) is not None]
    if not ways:
        return None
    return game.decide("target", c.caster.controller, [Option(w, w) for w in ways],
                       prompt=f"{c.card.name} rolls on which way?", default=0).value


def _roll_on(game, c, zone: str, way: str) -> None:
    """The same attack against each next zone that way, to the arena's edge (a creature pushed ahead
    of it is attacked again)."""
    step = lambda z, w: _next_zone(game, z, w)  # noqa: E731
    nxt = step(zone, way)
    while nxt is not None and c.spell is not None:
        game.emit("rule", f"{c.card.name} rolls on {way} into {nxt}")
        game.attacks.make_attack(c.caster, None, [], zone=nxt, spell=c.spell)
        nxt = step(nxt, way)


def _one_shots(card) -> bool:
    return any(isinstance(ab, A.OneShotAbility) for ab in card.abilities)


def _enters(game, obj, how: str) -> None:
    game.fire("enters", obj, Ctx(this=obj, it=obj), how=how)


def _attach(game, c, hidden: bool) -> GameObject:
    st = game.state
    spell = c.spell
    if c.targets:
        st.attach(spell, c.targets[0])
        where = c.targets[0].label()
    else:
        st.attach(spell, None, zone=c.zone)
        where = f"zone {c.zone}"
    spell.hidden = hidden
    st.touch()
    game.emit("placed", f"{spell.label()} is placed face down on {where}" if hidden
              else f"{spell.label()} is attached to {where}", target=spell.id, secret_for=spell.controller
              if hidden else None, public_text=f"{spell.public_label()} is placed face down on {where}"
              if hidden else None)
    return spell


def _slots(card) -> tuple[str, ...]:
    return tuple(card.slot)


def _equip(game, c) -> Optional[GameObject]:
    """Equipment goes on a Mage.  One piece per name and per slot location: the same controller's
    new piece replaces the old one (back to its owner's spellbook); an enemy's is destroyed."""
    st = game.state
    spell = c.spell
    mage = c.targets[0] if c.targets else st.mage_of(c.caster.controller)
    if mage is None:
        raise EngineError(f"NOT IMPLEMENTED: {c.card.name}: equipment with no Mage to go on")
    mine = set(_slots(c.card))
    clash = [o for o in st.attachments(mage) if o.kind == "equipment" and o is not spell
             and (o.name == c.card.name or (mine and mine & set(_slots(o.card))))]
    if clash and spell.controller != mage.controller:
        st.attach(spell, mage)
        game.emit("rule", f"{spell.label()} duplicates {clash[0].label()} on an enemy Mage: it is destroyed")
        game.destroy(spell, why="duplicate equipment cast by an enemy")
        return None
    for old in clash:
        game.return_to_spellbook(old)
        game.emit("rule", f"{old.label()} shares its name or slot with {c.card.name}: it returns to its "
                          f"owner's spellbook ({old.owner}'s)", target=old.id)
    if clash:  # between the two pieces: excess Corrode comes off (Rules, Replacing Equipment, step 2)
        game.check_state()
    if spell.controller != mage.controller:  # the Mage wearing equipment controls it (Rules, Equipment Control)
        game.emit("rule", f"{spell.label()} is controlled by {mage.controller}, whose Mage wears it")
        spell.controller = mage.controller
    st.attach(spell, mage)
    game.emit("placed", f"{spell.label()} is equipped on {mage.label()}"
                        + (f" ({'/'.join(_slots(c.card))})" if _slots(c.card) else ""), target=spell.id)
    game.check_state()
    _enters(game, spell, "cast")
    return spell


def _summon(game, c) -> GameObject:
    st = game.state
    spell = c.spell
    card = c.card
    if card.kind == "wall":
        pair = parse_border(st.arena, c.zone)
        spell.zone = pair[0]
        spell.border = frozenset(pair)
        spell.front = pair[0]  # a one-way wall faces the first zone named
        where = f"the border {pair[0]}/{pair[1]}"
        if any(_one_way(adef) for adef in card.attacks):  # which way its top faces: its caster says
            ch = game.decide("target", c.caster.controller, [Option(z, z) for z in pair],
                             prompt=f"{card.name}: which zone does the top of the card face?", default=0)
            spell.facing = ch.value
            where += f", its top facing {spell.facing}"
    elif c.targets and card.kind != "creature":
        st.attach(spell, c.targets[0])
        where = c.targets[0].label()
    else:
        to = c.zone if c.zone else st.zone_of(c.caster)
        st.move_to_zone(spell, to)
        where = f"zone {to}"
    if card.kind == "creature":
        spell.action_marker = "used"  # a summoned creature first acts next round
    st.touch()
    game.emit("placed", f"{spell.label()} is {'summoned' if card.kind == 'creature' else 'placed'} "
                        f"in {where}" if card.kind != "wall" else f"{spell.label()} is placed on {where}",
              target=spell.id, zone=st.zone_of(spell))
    game.check_state()
    _enters(game, spell, "summoned")
    return spell
