"""Spells cast by other casters: objects given a spell at Planning, and effects that cast a spell.

A spawnpoint or a familiar is given a spell at Planning (`assign_spell(this)`, stated by the codex
entries Spawnpoint and Familiar as an `at planning` ability), hidden from the opponent like a Mage's
planned spells.  It casts it later through the card's own words: `cast_spell(this, PHRASE)` or
`summon(PHRASE, to: ZONE)` (a spawnpoint's `at deployment` ability), or as its own action (a familiar:
engine/round.py offers the cast in its action phase).  The caster is the object: range and line of
sight count from its zone, and it pays with the mana kept on it first (engine/manasupply.py).  A spell
never cast goes back to the spellbook at the next Planning Phase, or to the discard pile if the object
left play meanwhile.

What an object may be given is what it may cast: the casting restrictions of engine/placement.py
(`cast_only` and the others), and, when its card casts with `cast_spell(this, PHRASE)` or
`summon(PHRASE)`, a spell matching one of those phrases.  No card or trait is named here.

`cast_spell(you, PHRASE)` by a Mage casts one of its planned spells (Quick Summoning).  Shapes the
engine does not run are refused loudly (`refused_shape`, which coverage reads too).
"""
from __future__ import annotations

from typing import Optional

from ..dsl import ast as A
from . import casting as C
from . import placement as P
from . import movement
from .actions import CastChoice, PassChoice, options_of
from .decisions import HiddenPick
from .decisions import Option
from .errors import EffectStopped
from .cardindex import index as card_index, per_definition
from .phrases import Ctx, resolve, selector_of
from ..dsl import selectors as S
from .targeting import choose_target, needs_choice
from ..dsl import vocab as V
from .spellstatics import EXTRA_PREPARED

CASTING_CALLS = ("cast_spell", "summon")


class Refused(Exception):
    """A shape of a casting effect the engine does not run: reported as an `unsupported` event."""

    def __init__(self, name: str, where: str = ""):
        self.name = name
        self.where = where
        super().__init__(f"{name}: {where}")


# ---------------------------------------------------------------- reading a card's casting effects
def _args(call: A.Call) -> tuple[list, dict]:
    return [a.value for a in call.args if not a.key], {a.key: a.value for a in call.args if a.key}


def _word0(v) -> Optional[str]:
    return v.words[0].text.lower() if isinstance(v, A.Phrase) and v.words else None


def spell_phrase(call: A.Call):
    """The phrase naming the spell a casting effect casts: `cast_spell(WHO, SPELL)`, `summon(SPELL)`."""
    pos, _ = _args(call)
    if call.name == "cast_spell":
        return pos[1] if len(pos) > 1 else None
    return pos[0] if pos else None


def refused_shape(call: A.Call) -> Optional[str]:
    """Why the engine does not run this casting effect as written, or None when it does."""
    pos, kw = _args(call)
    if call.name == "cast_spell":
        free = kw.get("free")
        if free is not None and not (isinstance(free, A.StringLit) and free.value == "action"):
            return "a free cast other than a free action is not run yet"
        if _word0(pos[0] if pos else None) == "you" and isinstance(pos[1] if len(pos) > 1 else None, A.Phrase) \
                and (_word0(pos[1]) in ("target", "it") or from_spellbook(pos[1])):
            return None  # a card in a discard pile, or one of your spellbook (cast_unplanned)
        if _word0(pos[0] if pos else None) == "you" and isinstance(pos[1] if len(pos) > 1 else None, A.Phrase) \
                and _word0(pos[1]) not in ("a", "an", "your"):
            return "casting a spell that is not planned (from the spellbook or the discard pile) is not run yet"
        if _word0(pos[0] if pos else None) not in ("this", "you"):
            return "only the object itself, or your Mage, casts a spell"
        what = pos[1] if len(pos) > 1 else None
        if isinstance(what, A.Call) and what.name == "bound_spell":
            return None
        if not isinstance(what, A.Phrase) or _word0(what) in ("target", "it", "its"):
            return "the spell must be a phrase naming a kind of spell"
        return None
    if call.name == "summon":
        what = pos[0] if pos else None
        to = kw.get("to")
        if is_marker(what) or is_found(what):  # a marker into a zone; a card a search found
            return None if to is None or isinstance(to, A.Phrase) else "the zone must be a phrase"
        from_discard = isinstance(what, A.Phrase) and _word0(what) in ("target", "it")
        if not from_discard and (not isinstance(what, A.Phrase) or
                                 not any(w.text.lower() in ("creature", "creatures") for w in what.words)):
            return "summoning anything but a creature spell the summoner was given, or a creature card " \
                   "from a discard pile, is not run yet"
        to = kw.get("to")
        if to is not None and not (isinstance(to, A.Phrase) and to.text in ("this zone", "your zone")):
            return "summoning into a zone other than the summoner's or your Mage's is not run yet"
        return None  # from a discard pile: the target must be a creature card there (summon_from_discard)
    return None


def _walk(effects):
    for e in effects:
        if isinstance(e, A.Call):
            yield e
        elif isinstance(e, A.OptionalEffect):
            yield from _walk(e.body)
        elif isinstance(e, A.ChoiceEffect):
            for opt in e.options:
                yield from _walk(opt)
        elif isinstance(e, A.IfEffect):
            yield from _walk(e.then)
            yield from _walk(e.otherwise or ())
        elif isinstance(e, A.ForEach):
            yield from _walk(e.body)


def _count(effects) -> int:
    """How many spells one run of an effect sequence casts at most."""
    n = 0
    for e in effects:
        if isinstance(e, A.Call) and e.name in CASTING_CALLS:
            n += 1
        elif isinstance(e, A.OptionalEffect):
            n += _count(e.body)
        elif isinstance(e, A.ChoiceEffect):
            n += max((_count(o) for o in e.options), default=0)
        elif isinstance(e, A.IfEffect):
            n += max(_count(e.then), _count(e.otherwise or ()))
    return n


def _abilities(card):
    for ab in card.abilities:
        inner = ab.ability if isinstance(ab, A.OncePerRound) else ab
        effs = getattr(inner, "effects", None)
        if effs:
            yield effs


def _read_own_casts(card) -> tuple[tuple, int]:
    """The spell phrases the card's own abilities cast with (`cast_spell(this, ...)`, `summon(...)`),
    and how many spells one of its abilities casts at most (the number it is given at Planning)."""
    phrases, most, bound_only = [], 0, False
    for effs in _abilities(card):
        for call in _walk(effs):
            if call.name == "cast_spell" and isinstance(spell_phrase(call), A.Call):
                bound_only = True  # it casts a spell bound to it (engine/bound.py), not one given
            if call.name in CASTING_CALLS and refused_shape(call) is None:
                pos, _ = _args(call)
                if call.name == "cast_spell" and _word0(pos[0]) != "this":
                    continue
                ph = spell_phrase(call)
                if isinstance(ph, A.Phrase):
                    phrases.append(ph)
        most = max(most, _count(effs))
    if bound_only and not phrases:
        return (), 0
    return tuple(phrases), max(1, most)


#: _read_own_casts once per card definition: every Planning Phase asks it for every card of a spellbook
own_casts = per_definition(_read_own_casts)


# ---------------------------------------------------------------- what an object may cast

def given(obj) -> list:
    """The card names an object was given at Planning and has not cast yet (kept on the object, so
    they follow it when a scenario renames it)."""
    got = getattr(obj, "given_spells", None)
    if got is None:
        got = obj.given_spells = []
    return got


def _fits(game, caster, card, phrase) -> bool:
    if not P.may_fit(caster, card, caster.controller, phrase):  # (no spell object made to find that out)
        return False
    spell = P.probe(game, caster, card, game.state.zone_of(caster))
    return P._spell_fits(game, caster, spell, phrase)


def may_be_given(game, obj, card) -> Optional[str]:
    """Why `obj` may not be given `card` at Planning, or None."""
    if card.kind not in C.SPELL_KINDS:
        return f"{card.name} is not a spell"
    # (what the object's own card lets it cast first: read from the card, it turns most spells of a spellbook
    # away before the restrictions on casting them are asked)
    phrases, count = own_casts(obj.card)
    if count == 0:
        return f"{obj.label()} casts only the spell bound to it"
    if phrases and not any(_fits(game, obj, card, ph) for ph in phrases):
        return f"{obj.label()} casts only " + " or ".join(ph.text for ph in phrases)
    for rule, why in P.restrictions(game, obj, card):
        return why
    return None


def _library(game, player: str):
    rs = getattr(game, "round_state", None)
    if rs is None or player not in rs.library:
        return None
    return rs.library[player]


def p_assign_spell(game, call, ctx) -> None:
    """Planning: the object's controller secretly picks the spell(s) it will cast this round."""
    pos, _ = _args(call)
    objs = [o for o in resolve(game, pos[0], ctx) if not isinstance(o, str)] if pos else []
    for obj in objs:
        lib = _library(game, obj.controller)
        if lib is None:
            raise Refused("assign_spell", f"{obj.controller} has no spellbook to give {obj.label()} a spell from")
        _, count = own_casts(obj.card)
        if count == 0:
            game.emit("rule", f"{obj.label()} casts only the spell bound to it: it is given none")
            continue
        mine = given(obj)
        for i in range(count - len(mine)):
            names = sorted(n for n, k in lib.items() if k > 0 and may_be_given(game, obj, game.card(n)) is None)
            if not names:
                game.emit("rule", f"{obj.label()}: no spell in {obj.controller}'s spellbook it may cast")
                break
            opts = [Option(n, HiddenPick(n, obj.controller)) for n in names] + [Option("no spell", None)]
            ch = game.decide("plan", obj.controller, opts, prompt=f"the spell {obj.label()} casts this round",
                             default=len(opts) - 1, caster=obj.id)
            if ch.value is None:
                break
            lib[str(ch.value)] -= 1
            mine.append(str(ch.value))
            game.emit("plan", f"{obj.controller} gives {obj.label()} {ch.value}", player=obj.controller,
                      secret_for=obj.controller, public_text=f"{obj.controller} gives {obj.public_label()} a spell")
        game.state.touch()


def return_unused(game, player: str) -> None:
    """Planning: spells given last round and never cast go back to the spellbook; those of an object
    that left play go to the discard pile (they were destroyed with it)."""
    lib = _library(game, player)
    rs = getattr(game, "round_state", None)
    for obj in list(game.state.objects.values()):
        names = getattr(obj, "given_spells", None)
        if not names or obj.controller != player:
            continue
        if obj.in_play and lib is not None:
            for n in names:
                lib[n] += 1
        else:
            if rs is not None:
                rs.discard.setdefault(player, []).extend(names)
            game.emit("rule", f"{obj.label()} left play: the spell it was given goes to the discard pile",
                      secret_for=player, public_text=f"{obj.public_label()} left play: its spell is discarded")
        obj.given_spells = []
    game.state.touch()


# ---------------------------------------------------------------- casting
def _available(game, caster) -> list[str]:
    """The spells a caster has to cast: those it was given, or a Mage's planned spells."""
    mine = getattr(caster, "given_spells", None)
    if mine:
        return list(mine)
    pl = game.state.players.get(caster.controller)
    rs = getattr(game, "round_state", None)
    if pl is not None and pl.mage_id == caster.id and rs is not None:
        return list(rs.planned.get(caster.controller, []))
    return []


def _used(game, caster, name: str) -> None:
    mine = getattr(caster, "given_spells", None)
    rs = getattr(game, "round_state", None)
    if mine and name in mine:
        mine.remove(name)
    elif rs is not None and name in rs.planned.get(caster.controller, []):
        rs.planned[caster.controller].remove(name)
    if rs is not None:
        rs.discard.setdefault(caster.controller, []).append(name)


def choices(game, caster, names, phrase=None, into: Optional[str] = None) -> list[CastChoice]:
    """Every legal cast of the named spells by the caster (matching the phrase; placed in `into`)."""
    out = []
    for name in dict.fromkeys(names):
        card = game.card(name)
        if phrase is not None and not _fits(game, caster, card, phrase):
            continue
        for ch in C.kept_casts(game, caster, name, card):  # (kept for the decision: asked by the action options too)
            if into is not None and (ch.zone != into or ch.target_ids):
                continue
            out.append(ch)
    return out


def _pick(game, caster, opts: list[CastChoice], prompt: str, ctx: Ctx, none_text: str) -> CastChoice:
    """The caster's controller picks one of the casts, or passes; with none to pick, or a pass, the
    effect stops (`succeeded()` false).  What the caster could have cast is said only to its controller."""
    if not opts:
        game.emit("rule", f"{caster.label()} {none_text}", secret_for=caster.controller,
                  public_text=f"{caster.public_label()} casts nothing")
        ctx.extra["succeeded"] = False
        raise EffectStopped(caster.label())
    ch = game.decide("action", caster.controller, options_of(opts + [PassChoice(caster.id)], game),
                     prompt=prompt, default=len(opts))
    if isinstance(ch.value, PassChoice):
        ctx.extra["succeeded"] = False
        game.emit("rule", f"{caster.label()} casts nothing")
        raise EffectStopped(caster.label())
    return ch.value


def cast_one(game, caster, opts: list[CastChoice], prompt: str, ctx: Ctx, holder=None) -> bool:
    """The caster's controller picks one of the casts (or none); the spell is cast by the caster.
    A spell bound to `holder` stays bound (engine/bound.py); any other leaves what the caster had."""
    c = _pick(game, caster, opts, prompt, ctx, "has no spell it can cast now")
    if holder is None:
        _used(game, caster, c.card_name)
    else:
        game.emit("rule", f"{caster.label()} casts {c.card_name}, bound to {holder.label()}")
    C.cast_spell(game, caster, game.card(c.card_name), [game.state.objects[t] for t in c.target_ids],
                 zone=c.zone, face_down=c.face_down, bound_to=holder)
    ctx.extra["succeeded"] = True
    return True


def from_spellbook(phrase) -> bool:
    """`cast_spell(you, PHRASE card)`: a phrase ending in "card" names a card of your spellbook."""
    return isinstance(phrase, A.Phrase) and bool(phrase.words) and phrase.words[-1].text.lower() in ("card", "cards")


def cast_unplanned(game, caster, what, on, ctx) -> None:
    """Your Mage casts a spell it did not plan, through the whole casting sequence: the card an effect
    names in a discard pile (`target`, `it`: whoever's pile; the caster now controls it), or a card of
    your spellbook fitting a phrase ending in "card" (you pick it; your spellbook holds one fewer).
    `on:` limits its target (objects, or a zone)."""
    st = game.state
    if not from_spellbook(what):
        cards = [o for o in resolve(game, what, ctx) if not isinstance(o, str) and o in st.graveyard]
        if not cards:
            game.emit("rule", f"{caster.label()}: no card in a discard pile to cast")
            ctx.extra["succeeded"] = False
            raise EffectStopped(caster.label())
        names, took = [cards[0].card.name], cards[0]
    else:
        lib = _library(game, caster.controller)
        names = [n for n, k in (lib or {}).items() if k > 0 and _fits(game, caster, game.card(n), what)]
        took = None
    opts = choices(game, caster, names)
    if on is not None:
        ids = {o.id for o in on if not isinstance(o, str)}
        zones = {o for o in on if isinstance(o, str)}
        opts = [c for c in opts if (c.target_ids and set(c.target_ids) <= ids) or (c.zone in zones and not c.target_ids)]
    c = _pick(game, caster, opts, f"{caster.label()} casts a spell it did not plan", ctx,
              "has no such spell it can cast now")
    if took is not None:  # the card leaves the discard pile it was in
        st.graveyard.remove(took)
        del st.objects[took.id]
        st.touch()
        game.emit("rule", f"{caster.label()} casts {took.card.name} from {took.owner}'s discard pile")
    else:
        _library(game, caster.controller)[c.card_name] -= 1
        game.emit("rule", f"{caster.label()} casts {c.card_name} from the spellbook")
    C.cast_spell(game, caster, game.card(c.card_name), [st.objects[t] for t in c.target_ids], zone=c.zone,
                 face_down=c.face_down)
    ctx.extra["succeeded"] = True


def _caster(game, v, ctx):
    got = [o for o in resolve(game, v, ctx) if not isinstance(o, str)]
    if not got:
        return None
    o = got[0]
    return o


def _within(game, c, places: set) -> bool:
    """Is every target of this cast one of the zones, an object in one, or a border of one?"""
    for t in c.target_ids:
        if game.state.zone_of(game.state.objects[t]) not in places:
            return False
    if c.zone:
        from .placement import parse_border
        sides = parse_border(game.state.arena, c.zone) or (c.zone,)
        if not any(z in places for z in sides):
            return False
    return True


def p_cast_spell(game, call, ctx) -> None:
    why = refused_shape(call)
    if why:
        raise Refused("cast_spell", why)
    pos, kw = _args(call)
    who = _word0(pos[0])
    caster = _caster(game, pos[0], ctx) if who == "this" else game.state.mage_of(ctx.this.controller)
    on = [o for o in resolve(game, kw["on"], ctx) if not isinstance(o, str)] if "on" in kw else None
    if caster is None or not caster.in_play:
        ctx.extra["succeeded"] = False
        return
    what = pos[1]
    holder = None
    if who == "you" and isinstance(what, A.Phrase) and (_word0(what) in ("target", "it") or from_spellbook(what)):
        zone_on = [z for z in resolve(game, kw["on"], ctx) if isinstance(z, str)] if "on" in kw else []
        cast_unplanned(game, caster, what, (on or []) + zone_on if "on" in kw else None, ctx)
        return
    if isinstance(what, A.Call):  # a bound spell: it stays bound to the object named
        got = game.evaluate(what, ctx)
        names = [got] if isinstance(got, str) else []
        args = [a.value for a in what.args if not a.key]
        held = [o for o in resolve(game, args[0], ctx) if not isinstance(o, str)] if args else []
        holder = held[0] if held else None
        opts = choices(game, caster, names)
    else:
        opts = choices(game, caster, _available(game, caster), what)
    if on is not None:  # `on:` names the spell's target
        opts = [c for c in opts if c.target_ids and set(c.target_ids) <= {o.id for o in on}]
    if "within" in kw:  # `within:` the target is that zone, an object in it or one of its borders
        places = {q if isinstance(q, str) else game.state.zone_of(q) for q in resolve(game, kw["within"], ctx)}
        opts = [c for c in opts if _within(game, c, places)]
    cast_one(game, caster, opts, f"{caster.label()} casts a spell", ctx, holder)


def p_summon(game, call, ctx) -> None:
    why = refused_shape(call)
    if why:
        raise Refused("summon", why)
    pos, kw = _args(call)
    summoner = ctx.this
    if summoner is None or not summoner.in_play:
        ctx.extra["succeeded"] = False
        return
    to = kw.get("to")
    if to is not None and to.text == "your zone":
        mage = game.state.mage_of(summoner.controller)
        into = game.state.zone_of(mage) if mage is not None else None
    elif to is not None and to.text != "this zone":  # a zone the phrase names (the ability's target zone)
        sel = needs_choice(game, to, ctx)
        if sel is not None:
            choose_target(game, sel, ctx)
        zones = [z for z in resolve(game, to, ctx) if isinstance(z, str)]
        place = sel is None and _one_zone(game, to)  # `to: a zone ...`: a place, not a target
        if not zones and place:
            game.emit("rule", f"{summoner.label()}: no zone is {to.text} — nothing is put into play")
            ctx.extra["succeeded"] = False
            return
        if not zones:
            raise Refused("summon", f"'{to.text}' names no zone")
        into = zones[0]
        if place:
            game.emit("rule", f"{summoner.label()}: {pos[0].text} may go in {', '.join(zones)} ({to.text})")
            if len(zones) > 1:
                into = game.decide("target", summoner.controller, [Option(z, z) for z in zones],
                                   prompt=f"{summoner.label()}: where to put {pos[0].text} ({to.text})",
                                   default=0).value
    else:
        into = game.state.zone_of(summoner)
    if is_marker(pos[0]):
        summon_marker(game, pos[0], into, summoner.controller, ctx)
        return
    if is_found(pos[0]):
        summon_found(game, pos[0], into, summoner, ctx)
        return
    if _word0(pos[0]) in ("target", "it"):
        for o in [o for o in resolve(game, pos[0], ctx) if not isinstance(o, str)]:
            summon_from_discard(game, o, into, summoner.controller, ctx)
        return
    opts = choices(game, summoner, _available(game, summoner), pos[0], into)
    cast_one(game, summoner, opts, f"{summoner.label()} summons a creature", ctx)


def _one_zone(game, phrase) -> bool:
    """`a zone ...`: one zone among those the phrase describes, chosen by the summoner's controller; not a
    target, so range and line of sight do not count (a place the rules let it put something)."""
    sel = selector_of(game, phrase)
    return isinstance(sel, S.Described) and sel.domain == "zone" and sel.quantifier == "one"


def is_marker(phrase) -> bool:
    """`summon(a vine marker, ...)`: a phrase with the word "marker" names a marker card (no cost, never
    cast: the game's supply of markers of that kind)."""
    return isinstance(phrase, A.Phrase) and any(w.text.lower() == "marker" for w in phrase.words)


def is_found(phrase) -> bool:
    """`summon(Talos, ...)` after `search(you, Talos)`: a phrase that is one card name."""
    return isinstance(phrase, A.Phrase) and len(phrase.words) >= 1 and all(w.kind == "name" for w in phrase.words) \
        and _word0(phrase) not in ("target", "it")


def _new_id(game, stem: str) -> str:
    n = 1
    while f"{stem}{n}" in game.state.objects:
        n += 1
    return f"{stem}{n}"


def _marker_cards(corpus, kinds: frozenset) -> list:
    """The corpus's cards of these kinds with no casting cost (markers), by name: kept on the corpus per
    kinds while its table of cards is the same one of the same size, since each summon of a marker
    went through every card of the corpus."""
    cards = corpus.cards
    kept = corpus.__dict__.setdefault("_marker_cards", {})
    hit = kept.get(kinds)
    if hit is not None and hit[0] is cards and hit[1] == len(cards):
        return hit[2]
    got = sorted((cd for cd in cards.values() if cd.kind in kinds and cd.cast_cost is None), key=lambda cd: cd.name)
    kept[kinds] = (cards, len(cards), got)
    return got


def summon_marker(game, phrase, into: Optional[str], player: str, ctx) -> None:
    """A marker (a card of a kind no spell is cast as, such as a vine marker) is put into a zone under
    the player's control: a new object, not cast, nothing paid for it."""
    kinds = set()
    for w in phrase.words:
        low = w.text.lower()
        if low in V.NOUN_MEANINGS:
            dom, ks, _sub = V.noun_meaning(low)
            if dom == "object":
                kinds.update(ks)
    cards = _marker_cards(game.corpus, frozenset(kinds))
    if not cards or into is None:
        raise Refused("summon", f"no marker card for '{phrase.text}', or no zone to put it in")
    card = cards[0]
    if len(cards) > 1:
        card = game.decide("choose", player, [Option(cd.name, cd) for cd in cards],
                           prompt=f"which {phrase.text}?", default=0).value
    obj = game.create(card, _new_id(game, card.kind), player)
    movement.enter_zone(game, obj, into, how="is placed")
    game.check_state()


def summon_found(game, phrase, into: Optional[str], summoner, ctx) -> None:
    """The card a `search` of this effect found, fitting the phrase, is summoned into the zone: a new
    object, not cast and paid nothing for, its action marker used if it is a creature."""
    found = ctx.extra.get("found") or []
    name = next((n for n in found if n.lower() == phrase.text.lower()), None)
    if name is None or into is None:
        game.emit("rule", f"{summoner.label()}: no {phrase.text} was found — nothing is summoned")
        ctx.extra["succeeded"] = False
        return
    found.remove(name)
    card = game.card(name)
    obj = game.create(card, _new_id(game, "summoned"), summoner.controller)
    if card.kind == "creature":
        obj.action_marker = "used"
    movement.enter_zone(game, obj, into, how="is summoned")
    game.check_state()


def p_search(game, call, ctx) -> None:
    """`search(WHO, PHRASE)`: the player takes a card fitting the phrase (a card name) out of their
    spellbook and sets it aside for what the effect does next (`summon(NAME, ...)`).  Nothing found,
    nothing happens; the other cards of the spellbook stay unseen."""
    pos, _ = _args(call)
    who = [o for o in resolve(game, pos[0], ctx) if not isinstance(o, str)] if pos else []
    player = who[0].controller if who else (ctx.this.controller if ctx.this else None)
    lib = _library(game, player) if player else None
    what = pos[1] if len(pos) > 1 else None
    name = next((n for n, k in (lib or {}).items() if k > 0 and isinstance(what, A.Phrase)
                 and n.lower() == what.text.lower()), None)
    if name is None:
        game.emit("rule", f"{player} finds no {getattr(what, 'text', '?')} in their spellbook")
        ctx.extra["succeeded"] = False
        return
    lib[name] -= 1
    ctx.extra.setdefault("found", []).append(name)
    game.emit("rule", f"{player} takes {name} out of their spellbook", secret_for=player,
              public_text=f"{player} takes a card out of their spellbook")


def summon_from_discard(game, old, into: Optional[str], player: str, ctx) -> None:
    """A creature card in a discard pile is summoned into a zone: it leaves the pile and comes into play
    as a new object (nothing on it, a new timestamp, its action marker used: it first acts next round),
    controlled by the summoning player, kept by its owner.  The effect's `target`/`it` name the new object
    for what the effect does next (damage, markers)."""
    st = game.state
    if old.in_play or old not in st.graveyard or old.kind != "creature" or into is None:
        raise Refused("summon", f"{old.label()} is not a creature card in a discard pile that can be summoned "
                                f"into a zone")
    st.graveyard.remove(old)
    del st.objects[old.id]  # the card comes back as a new object under its old name
    obj = game.create(old.card, old.id, player, owner=old.owner)
    obj.action_marker = "used"
    for key in ("target", "it"):
        if getattr(ctx, key) is old:
            setattr(ctx, key, obj)
    movement.enter_zone(game, obj, into, how=f"is summoned from {old.owner}'s discard pile")
    game.check_state()


PRIMITIVES = {"assign_spell": p_assign_spell, "cast_spell": p_cast_spell, "summon": p_summon, "search": p_search}


# ---------------------------------------------------------------- planning more spells
def extra_prepared(game, player: str) -> int:
    """How many spells more than two the player plans: `extra_prepared(WHO, N)` statics of face-up
    objects in play whose WHO is the player's Mage (the Mage itself, or the bearer of an equipment)."""
    mage = game.state.mage_of(player)
    if mage is None:
        return 0
    n = 0
    for src in game.state.in_play():
        if src.hidden:
            continue
        for inner, _once in card_index(src.card).static_calls.get(EXTRA_PREPARED, ()):
            pos, _ = _args(inner.effect)
            if len(pos) < 2:
                continue
            ctx = Ctx(this=src, it=src)
            if inner.guard is not None and not game.evaluate(inner.guard, ctx):
                continue
            if mage in resolve(game, pos[0], ctx):
                n += game.evaluate(pos[1], ctx)
    return n


# ---------------------------------------------------------------- for the action options
def casts_nothing(game, src, ab, actor) -> bool:
    """An `action` ability whose every effect is a casting effect with nothing it could cast now
    (Quick Summoning with no fitting planned spell): not worth offering as an action."""
    inner = ab.ability if isinstance(ab, A.OncePerRound) else ab
    effs = list(getattr(inner, "effects", ()) or ())
    if not effs or not all(isinstance(e, A.Call) and e.name == "cast_spell" and refused_shape(e) is None
                           for e in effs):
        return False
    ctx = Ctx(this=src, it=actor)
    for call in effs:
        pos, _ = _args(call)
        caster = _caster(game, pos[0], ctx) if _word0(pos[0]) == "this" else game.state.mage_of(src.controller)
        if caster is None:
            continue
        what = pos[1]
        if isinstance(what, A.Call):
            got = game.evaluate(what, ctx)
            names = [got] if isinstance(got, str) else []
            if choices(game, caster, names):
                return False
        elif choices(game, caster, _available(game, caster), what):
            return False
    return True


# ---------------------------------------------------------------- another object's action abilities
#: `static use_actions_of(WHO, OTHER)` (on WHO's card, `this` = that object): the object may use the `action`
#: abilities printed on the card of each object OTHER names as its own actions: its controller pays, their
#: effects run with `this` = the object using them (its zone, its friends), and each keeps its own
#: once-per-round use, apart from OTHER's (engine/activation.py offers them, engine/round.py use_ability runs them)
USE_ACTIONS_OF = "use_actions_of"


@per_definition
def _lending(card) -> tuple:
    """The card's `use_actions_of` statements (read once per definition: every activation asks)."""
    return tuple(ab for ab in card.abilities if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call)
                 and ab.effect.name == USE_ACTIONS_OF)


def actions_lent(game, creature) -> list:
    """The objects in play whose card's `action` abilities `creature` may use as its own (its card's
    `use_actions_of(this, PHRASE)`), in the order of the statements; [] for most creatures."""
    out: list = []
    for ab in _lending(creature.card):
        pos = [a.value for a in ab.effect.args if not a.key]
        if len(pos) != 2 or not all(isinstance(v, A.Phrase) for v in pos):
            raise NotImplementedError(f"{creature.card.name}: use_actions_of(...) must read (this, PHRASE)")
        ctx = Ctx(this=creature, it=creature)
        if ab.guard is not None and not game.evaluate(ab.guard, ctx):
            continue
        if not P._is_this(pos[0]):
            raise NotImplementedError(f"{creature.card.name}: use_actions_of(...) is stated about `this` only")
        for o in resolve(game, pos[1], ctx):
            if not isinstance(o, str) and o.in_play and o is not creature and o not in out:
                out.append(o)
    return out
