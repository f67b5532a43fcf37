"""Movement: the move action, Push, Teleport and Bash, hindering, walls and line of sight.

Every change of zone follows the move sequence of the rules (Supplement 2016, Rules: Move Action),
one named step each, in this order (MOVE_STEPS, the language's own table: dsl/vocab.py), each step's
work a function of that name here, and a reveal window after each step that runs (after_step: the
players may reveal, as after the steps of the attack and casting sequences):

1. ``declare_move``   — the destination is one zone away, no diagonals; the creature may move
   (no `cannot(this, "move")` from its traits or conditions), has a move action left and is not
   stopped by hindering; no wall on the border forbids the crossing.  A move action's declaration
   is heard (`declares(X, "move")`).
2. ``pay_costs``      — the extra mana cards in play charge for a move action (engine/move_costs.py).
   A declared move whose costs cannot all be paid is canceled here and its move action is lost
   (a "canceled" event says why); the creature stays where it is.
3. ``leaving_zone``   — the "leaves" event.
4. ``walls``          — walls on the border: passage attacks strike before it crosses (Teleports skip
   this step; Flying movers ignore walls); if it can no longer move, the rest is canceled.
5. ``move_to_zone``   — the creature is placed in the new zone.
6. ``entering_zone``  — traps must be revealed, then the "moves" event (zone triggers).

Until the creature stands in its new zone, a reveal that cancels the move (Stumble) or leaves the
creature unable to make it (Force Crush, Force Hold: Restrained) ends the sequence after that window:
no walls, no new zone; a move action so canceled is spent.  A move action runs all six steps (a move
made by an effect all but Pay Costs); a teleport in place of one all but Walls; a push steps 3-6; a
teleport or an exchange of places steps 3, 5 and 6 (a teleport is stopped only by `cannot(this, "be teleported")`, a push by `cannot(this, "be
pushed")`).

What a creature may do is read from the codex entries it carries, never from their names:

* `cannot(this, "move")` / `cannot(this, "take actions")` — no move actions;
* `cannot(this, "be pushed")`, `cannot(this, "be teleported")`;
* `can(this, "move twice")` — two move actions before the quick action;
* `cannot(this, "act after moving")` — a move action ends its Action Phase (one move at most);
* `hinder(this)` (and a card's `static hinder(PHRASE)`, the `hinder(...)` effect) — always hindered;
* `immune(this, "hinder")` — never hindered;
* `cannot(this, "hinder"[, target: PHRASE])` — it hinders no one (or not those);
* `ignore(this, "enemy creatures" | "hindering"[, against: PHRASE])` — it is not hindered by them;
* `ignore(this, "walls while moving")` — walls neither stop nor attack it (the arena's edge does);
* on a wall: `cannot(PHRASE, "move through")` — creatures matching PHRASE may not cross it;
  `block_los(this)` — it blocks line of sight.

"enters" is the event of an object coming into play (``enter_zone``, used when a spell is placed);
a creature that changes zone fires "moves" (with ``into``/``frm``/``how``) and "leaves".

A move action (``move``, ``teleport_move``) runs the steps of MOVE_STEPS from Declare Move, and so does a
move an effect makes "as a move action would" (``move(..., action=False)``, without Pay Costs); a push,
a teleport or an exchange of places runs them from Leaving Zone (``change_zone``): all through
``run_steps``.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterable, Optional

from ..dsl import ast as A
from ..dsl.model import CardDefinition
from .cardindex import per_definition
from . import decisionmemo as DM
from .decisions import Option
from . import move_costs
from .errors import EngineError, secret_keywords
from .phrases import Ctx, PhraseError, matches, resolve
from .restrictions import full_action_move, permits, push_through_forbidden
from . import restrictions as RS
from .state import ROW_LETTERS, GameObject

Game = Any  # engine.game.Game: named, not imported (nothing in the engine imports game.py)

CREATURE_KINDS = ("creature", "mage", "magestats")
from ..dsl.vocab import CONJURATION_KINDS, MOVE_STEPS as MOVE_STEP_NAMES, STEP_TITLES  # noqa: E402  (one vocabulary)

#: rule names given with refusals (sections of the Supplement 2016 and of the rulebook)
RULE_MOVE = "Rules: Move Action (one zone per move, no diagonals)"
RULE_ACTIONS = "Rules: Action Phase (move actions before the quick action)"
RULE_HINDER = "Rules: Hindering"
RULE_WALLS = "Rules: Walls"
RULE_ARENA = "Rules: Walls (the arena's outer walls)"
RULE_CONJ = "Rules: Moving Conjurations"
RULE_TELEPORT = "Rules: Teleporting"
RULE_PUSH = "Codex: Push"

#: restriction and permission strings this module reads (statics of codex entries and cards)
CANNOT_MOVE = ("move", "take actions")
CANNOT_PUSHED = "be pushed"
CANNOT_TELEPORTED = "be teleported"
CANNOT_HINDER = "hinder"
CANNOT_ACT_AFTER_MOVING = "act after moving"
CANNOT_MOVE_THROUGH = "move through"
CAN_MOVE_TWICE = "move twice"
IMMUNE_HINDER = "hinder"
IGNORE_ENEMIES = "enemy creatures"
IGNORE_HINDERING = "hindering"
IGNORE_WALLS = "walls while moving"
#: every string above, for coverage (which asks whether such a static is read)
CANNOT_READ = frozenset(CANNOT_MOVE + (CANNOT_PUSHED, CANNOT_TELEPORTED, CANNOT_HINDER, CANNOT_ACT_AFTER_MOVING,
                                      CANNOT_MOVE_THROUGH))
CAN_READ = frozenset({CAN_MOVE_TWICE})
IGNORE_READ = frozenset({IGNORE_ENEMIES, IGNORE_HINDERING, IGNORE_WALLS})
IMMUNE_READ = frozenset({IMMUNE_HINDER})
#: static calls of cards and codex entries this module reads (the continuous-effects layer leaves them)
STATIC_CALLS_READ = frozenset({"hinder", "block_los", "tunnel"})
#: `static tunnel(WHO, FROM, TO, N)` of a card in play: one move action of an object fitting WHO may take it
#: straight (no walls crossed, no zone between entered) up to N zones, from a zone fitting FROM into another
#: fitting TO, or back (`this` = the card)
TUNNEL = "tunnel"
#: static calls of an attack bar read when the attack pushes (`push` effects of the bar's attack)
BAR_STATIC_CALLS = ("push_direction",)

#: the Bash attack (glossary: Bashed): 3 dice, neither melee nor ranged, with the trait that no Defense
#: can avoid (the codex entry named here states what it does)
ARENA_WALL_ID = "arena-wall"

DIRECTIONS = {"north": (-1, 0), "south": (1, 0), "west": (0, -1), "east": (0, 1)}
OPPOSITE = {"north": "south", "south": "north", "west": "east", "east": "west"}
#: `push(..., direction: "toward")`: one zone toward the source instead of away (Snatch)
TOWARD = "toward"
#: a random push rolls the effect die (Rules: Push): 1-3 north, 4-6 east, 7-9 south, 10-12 west
RANDOM_DIRECTIONS = ((3, "north"), (6, "east"), (9, "south"), (12, "west"))


class IllegalMove(EngineError):
    """A move the rules forbid, refused before anything changes; `.rule` names the rule."""

    def __init__(self, message: str, rule: str):
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.reason = message


# ---------------------------------------------------------------- what the codex says about an object
def _stated(game: Game, obj, fn: str) -> list:
    """(entry or card name, ability) of each `static fn(...)` the object's codex entries and card state,
    guards not yet checked.  They follow from the entries it carries and its card alone: kept per game by
    those (movement asks them of every creature and zone, again after every change of the state)."""
    names = game.effects.entries(obj)  # its traits (printed and gained) and its markers
    card = obj.card
    cache = game.__dict__.get("_movement_stated")
    if cache is None or len(cache) >= 20_000:
        cache = game._movement_stated = {}
    key = (fn, id(card), names)
    hit = cache.get(key)
    if hit is not None and hit[0] is card and hit[1] is game.codex and hit[2] == len(game.codex):
        return hit[3]
    seen = []
    for name in names:
        for ab in game.codex_statics(name, fn):
            seen.append((name, ab))
    for ab in card.abilities:
        if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name == fn:
            seen.append((card.name, ab))
    cache[key] = (card, game.codex, len(game.codex), seen)
    return seen


def _statics(game: Game, obj, fn: str) -> Iterable[tuple[str, A.StaticAbility]]:
    """`static fn(...)` of the codex entries the object carries and of its own card (guards checked, as
    they are reached).  Most objects state none: then no generator is made."""
    stated = _stated(game, obj, fn)
    return _guarded(game, obj, stated) if stated else ()


def _guarded(game: Game, obj, stated: list) -> Iterable[tuple[str, A.StaticAbility]]:
    for name, ab in stated:
        if ab.guard is not None:
            try:
                if not game.evaluate(ab.guard, Ctx(this=obj, it=obj)):
                    continue
            except Exception as e:  # noqa: BLE001 - reported, never skipped silently
                game.emit("unsupported", f"NOT IMPLEMENTED: cannot evaluate the condition of a static of "
                                         f"{name} on {obj.label()}: {e}")
                continue
        yield name, ab


def _args(call: A.Call) -> tuple[list, dict]:
    return [a.value for a in call.args if not a.key], {a.key: a.value for a in call.args if a.key}


def _is_this(node) -> bool:
    return isinstance(node, A.Phrase) and [w.text.lower() for w in node.words] == ["this"]


def _matches(game: Game, obj, phrase, this, what: str) -> bool:
    try:
        return matches(game, obj, phrase, Ctx(this=this, it=obj))
    except PhraseError as e:
        game.emit("unsupported", f"NOT IMPLEMENTED: {what}: {e}")
        return False


def restriction(game: Game, obj, action: str, target=None, here: Optional[str] = None,
                dest: Optional[str] = None) -> Optional[str]:
    """What forbids `obj` to ACTION, or None: a codex entry it carries (or its card) stating
    `cannot(this, ACTION[, target: PHRASE])`, a card in play stating `cannot(PHRASE, ACTION[, out_of:
    PLACE][, into: PLACE])` about it (leaving `here`, entering `dest`), or an effect until end of round."""
    for name, ab in _statics(game, obj, "cannot"):
        said, kw = _own_cannot(ab.effect)
        if said != action:
            continue
        if "target" in kw:
            if target is None or not _matches(game, target, kw["target"], obj, f"{name}: cannot {action}"):
                continue
        return name
    who = _imposed(game, obj, action, here, dest)
    if who:
        return who
    for (oid, act, detail, sid, rnd) in getattr(game, "restrictions", ()):
        if oid == obj.id and act == action and rnd == game.state.round:
            src = game.state.objects.get(sid) if sid else None
            return f"until the end of the round, by {src.label() if src is not None else 'an effect'}"
    return None


@per_definition
def _own_cannot(call: A.Call) -> tuple[Optional[str], dict]:
    """(ACTION, keywords) of a `cannot(this, ACTION, ...)`, (None, keywords) for any other shape: read once
    per call (calls are frozen; restriction asks it of every statement, for every action, of every
    creature it is asked about)."""
    pos, kw = _args(call)
    said = pos[1].value if len(pos) >= 2 and _is_this(pos[0]) and isinstance(pos[1], A.StringLit) else None
    return said, kw


def _rule_of(game: Game, who: str) -> str:
    """The rule a refusal names: the codex entry, else the card (or effect) that imposes it."""
    return f"Codex: {who}" if who in game.codex else f"Card: {who}"


@per_definition
def _imposing(card) -> dict:
    """A card's `static cannot(PHRASE, ACTION, ...)` about others (PHRASE not `this`), by ACTION, in printed
    order: (ability, positional arguments, keywords).  Cards are frozen: worked out once per card."""
    got: dict = {}
    for ab in card.abilities:
        if not (isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name == "cannot"):
            continue
        pos, kw = _args(ab.effect)
        if len(pos) < 2 or _is_this(pos[0]) or not isinstance(pos[0], A.Phrase) or not isinstance(pos[1], A.StringLit):
            continue
        got.setdefault(pos[1].value, []).append((ab, pos, kw))
    return got


def _imposers(game: Game, action: str) -> list:
    """(source, ability, positional arguments, keywords) of each face-up card in play stating `static
    cannot(PHRASE, ACTION, ...)` about others, in the order of the objects in play: kept per fingerprint
    (Effects.shape: which objects are in play and face up, and their cards), except inside a derived
    value's computation, whose reads of the objects must be seen."""
    st = game.state
    if game.effects._frames:
        return [(src, ab, pos, kw) for src in st.in_play() if not src.hidden
                for ab, pos, kw in _imposing(src.card).get(action, ())]
    key = game.effects.shape()
    cache = game.__dict__.get("_imposers")
    if cache is None or cache[0] is not key:
        by_action: dict = {}
        for src in st.in_play():
            if not src.hidden:
                for act, items in _imposing(src.card).items():
                    by_action.setdefault(act, []).extend((src, ab, pos, kw) for ab, pos, kw in items)
        cache = game._imposers = (key, by_action)
    return cache[1].get(action, ())


def _imposed(game: Game, obj, action: str, here: Optional[str], dest: Optional[str]) -> Optional[str]:
    """A card in play whose `static cannot(PHRASE, ACTION, ...)` names `obj` (not `this`)."""
    for src, ab, pos, kw in _imposers(game, action):
        if "out_of" in kw and not zone_matches(game, kw["out_of"], here, src):
            continue
        if "into" in kw and not zone_matches(game, kw["into"], dest, src):
            continue
        if ab.guard is not None and not game.evaluate(ab.guard, Ctx(this=src)):
            continue
        if _matches(game, obj, pos[0], src, f"cannot {action} of {src.label()}"):
            return src.label()
    return None


def permitted(game: Game, obj, action: str) -> Optional[str]:
    for name, ab in _statics(game, obj, "can"):
        pos, _ = _args(ab.effect)
        if len(pos) >= 2 and _is_this(pos[0]) and isinstance(pos[1], A.StringLit) and pos[1].value == action:
            return name
    return None


def ignores(game: Game, obj, rule: str, other=None) -> Optional[str]:
    """The entry by which `obj` ignores `rule` (against `other`, when the static names whom)."""
    for name, ab in _statics(game, obj, "ignore"):
        pos, kw = _args(ab.effect)
        if len(pos) < 2 or not _is_this(pos[0]) or not isinstance(pos[1], A.StringLit) or pos[1].value != rule:
            continue
        if "against" in kw:
            if other is None or not _matches(game, other, kw["against"], obj, f"{name}: ignore {rule}"):
                continue
        return name
    return None


def cannot_move(game: Game, obj) -> Optional[str]:
    """Why the object can take no move action (the entry that says so), or None."""
    for action in CANNOT_MOVE:
        who = restriction(game, obj, action)
        if who:
            return who
    return None


def moves_before_quick(game: Game, obj) -> int:
    """Move actions it may take before its quick action (`can(this, "move twice")`: 2, else 1)."""
    return 2 if permitted(game, obj, CAN_MOVE_TWICE) else 1


def max_moves(game: Game, obj) -> int:
    """Move actions it may take in one Action Phase: a quick action may be spent on one more move;
    a creature whose move ends its Action Phase (`cannot(this, "act after moving")`) moves once."""
    if restriction(game, obj, CANNOT_ACT_AFTER_MOVING):
        return 1
    return 2


def phase_ends_after_move(game: Game, obj) -> bool:
    """Does a move action end this creature's Action Phase (no quick action after it)?"""
    return restriction(game, obj, CANNOT_ACT_AFTER_MOVING) is not None


def move_takes_full_action(game: Game, obj, to_zone: str) -> Optional[str]:
    """Why a move action of `obj` into `to_zone` takes its whole action (a `must(WHO, "full_action", to:
    "move", ...)` of a card or codex entry: engine/restrictions.py full_action_move), or None."""
    here = _zone_of(game, obj)
    return full_action_move(game, obj, here, to_zone, walls_on(game, here, to_zone)) if here is not None else None


def move_uses_quick_action(game: Game, obj) -> bool:
    """Is its next move action taken in place of its quick action?"""
    return obj.moves_taken >= moves_before_quick(game, obj)


def reset_moves(obj) -> None:
    """A new Action Phase: no move action taken, not stopped by hindering."""
    obj.moves_taken = 0
    obj.move_stopped = None


# ---------------------------------------------------------------- hindering
def _hinders(game: Game, hinderer, mover) -> bool:
    """Does `hinderer` hinder `mover`?  Only enemy creatures in play do; a creature that cannot
    hinder (or cannot hinder this mover), or one the mover ignores, does not."""
    if hinderer is mover or not hinderer.in_play or hinderer.hidden or hinderer.kind not in CREATURE_KINDS:
        return False
    if hinderer.controller == mover.controller:
        return False
    if restriction(game, hinderer, CANNOT_HINDER, target=mover):
        return False
    if ignores(game, mover, IGNORE_ENEMIES, hinderer) or ignores(game, mover, IGNORE_HINDERING, hinderer):
        return False
    return True


def hinderers(game: Game, mover, zone: Optional[str]) -> list:
    if zone is None:
        return []
    return [o for o in game.state.objects_in_zone(zone) if _hinders(game, o, mover)]


def always_hindered(game: Game, obj) -> Optional[str]:
    """Why the object counts as hindered whatever is around it: a `hinder(this)` static it carries,
    a card in play whose `static hinder(PHRASE)` matches it, or a `hinder(...)` effect still lasting."""
    for name, ab in _statics(game, obj, "hinder"):
        pos, _ = _args(ab.effect)
        if pos and _is_this(pos[0]):
            return name
    for src, ab in game.effects.statics_in_play("hinder"):  # (face-up cards in play, in order)
        if src is obj:
            continue
        pos, _ = _args(ab.effect)
        if not pos or _is_this(pos[0]):
            continue
        if ab.guard is not None:
            try:
                if not game.evaluate(ab.guard, Ctx(this=src)):
                    continue
            except Exception as e:  # noqa: BLE001
                game.emit("unsupported", f"NOT IMPLEMENTED: condition of {src.label()}'s hinder: {e}",
                          **secret_keywords(src, f"NOT IMPLEMENTED: condition of {src.public_label()}'s hinder"))
                continue
        if _matches(game, obj, pos[0], src, f"hinder of {src.label()}"):
            return src.label()
    until = getattr(obj, "hindered_until", None)
    if until is not None and until >= game.state.round:
        return "an effect lasting until the end of the round"
    return None


def hindered(game: Game, obj, here: Optional[str], dest: Optional[str]) -> Optional[str]:
    """Why a move action from `here` to `dest` is hindered, or None (Rules: Hindering): leaving or
    entering a zone with enemy creatures that hinder it, or always hindered; never when immune."""
    if "be affected by " + IMMUNE_HINDER in game.d(obj).cannot_do:
        return None
    why = DM.recall(game, ("always hindered", obj.id), lambda: always_hindered(game, obj))
    if why:
        return f"hindered ({why})"
    for zone, verb in ((here, "leaves"), (dest, "enters")):
        hs = DM.recall(game, ("hinderers", obj.id, zone), lambda zone=zone: tuple(hinderers(game, obj, zone)))
        if hs:
            return f"hindered: it {verb} {zone}, which holds {', '.join(h.label() for h in hs)}"
    return None


# ---------------------------------------------------------------- walls
def walls_on(game: Game, a: str, b: str) -> list:
    """The objects in play on the border of zones `a` and `b`, in the order of the objects in play: the
    walls of every border are filed at once per fingerprint (Effects.shape: which objects are in play, on
    which border), as each candidate move asks, twice; except inside a derived value's computation, whose
    reads of the objects must be seen."""
    border = frozenset((a, b))
    st = game.state
    if game.effects._frames:
        return [o for o in st.in_play() if o.border == border]
    shape = game.effects.shape()
    kept = game.__dict__.get("_walls_kept")
    if kept is None or kept[0] is not st or kept[1] is not shape:
        by_border: dict = {}
        for o in st.in_play():
            if o.border is not None:
                by_border.setdefault(o.border, []).append(o)
        kept = game._walls_kept = (st, shape, by_border)
    return list(kept[2].get(border, ()))


def blocks_passage(game: Game, wall, mover) -> Optional[str]:
    """The entry of `wall` that forbids `mover` to cross it (`cannot(PHRASE, "move through")`)."""
    for name, ab in _statics(game, wall, "cannot"):
        pos, _ = _args(ab.effect)
        if len(pos) >= 2 and isinstance(pos[1], A.StringLit) and pos[1].value == CANNOT_MOVE_THROUGH \
                and isinstance(pos[0], A.Phrase) and _matches(game, mover, pos[0], wall, f"{name} of {wall.label()}"):
            return name
    return None


def ignores_walls(game: Game, obj) -> Optional[str]:
    return ignores(game, obj, IGNORE_WALLS)


#: `static one_way(this)` in a passage attack bar: the wall makes that attack only against a creature crossing
#: from the zone the top of its card faces (GameObject.facing, chosen as the wall is placed)
ONE_WAY = "one_way"
PASSAGE_BAR_STATICS: tuple[str, ...] = (ONE_WAY,)


def one_way(adef) -> bool:
    return any(isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name == ONE_WAY
               for ab in getattr(adef, "abilities", ()) or ())


def _passage_attacks(wall, here: Optional[str] = None) -> list:
    """The passage attack bars of a wall that attack a creature crossing it from `here`."""
    return [adef for adef in wall.card.attacks if "passage" in adef.special
            and (here is None or not one_way(adef) or wall.facing == here)]


passage_attacks = _passage_attacks  # the attacks a wall makes on what crosses it (from `here`, if given)


# ---------------------------------------------------------------- the move action
def _zone_of(game: Game, obj) -> Optional[str]:
    return game.state.zone_of(obj)


#: the action a move declares (`declares(X, "move")`)
MOVE_ACTION = "move"


def declare_move(game: Game, obj, to_zone: str, count_action: bool = True, over=None) -> Optional[str]:
    """Step 1, Declare Move: every check, before anything changes.  Returns why the move is hindered
    (or None); raises IllegalMove naming the rule.  `over(wall)`: walls it says yes to do not forbid the
    crossing (a climb; their passage attacks still come)."""
    st = game.state
    here = _zone_of(game, obj)
    if not obj.in_play or here is None or obj.zone is None:
        raise IllegalMove(f"{obj.label()} is not standing in a zone of the arena", RULE_MOVE)
    if obj.kind not in CREATURE_KINDS and obj.kind not in CONJURATION_KINDS:
        raise IllegalMove(f"{obj.label()} is a {obj.kind}: only creatures (and conjurations that can) move",
                          RULE_MOVE)
    if not st.arena.is_zone(to_zone):
        raise IllegalMove(f"{to_zone!r} is not a zone of the {st.arena.rows}x{st.arena.cols} arena", RULE_ARENA)
    if to_zone == here:
        raise IllegalMove(f"{obj.label()} is already in {here}: a move action goes to another zone", RULE_MOVE)
    dist = st.arena.distance(here, to_zone)
    tunnel = tunnel_of(game, obj, here, to_zone) if count_action else None
    if dist != 1 and tunnel is None:
        raise IllegalMove(f"{obj.label()} cannot move from {here} to {to_zone} in one move: that is {dist} zones "
                          f"away (diagonals count two); a move action goes to an adjacent zone", RULE_MOVE)
    # what is asked of the creature alike for every zone: once per decision (engine/decisionmemo.py)
    who = DM.recall(game, ("cannot move", obj.id), lambda: cannot_move(game, obj))
    if who:
        raise IllegalMove(f"{obj.label()} cannot take move actions ({who})", _rule_of(game, who))
    if count_action:
        if obj.action_marker != "ready":
            raise IllegalMove(f"{obj.label()} has had its Action Phase this round (its action marker is "
                              f"{obj.action_marker})", RULE_ACTIONS)
        if obj.move_stopped:
            raise IllegalMove(f"{obj.label()} must stop moving this Action Phase: its last move was "
                              f"{obj.move_stopped}", RULE_HINDER)
        # a move taking the full action is refused only after a move (the first move action may take it): asked
        # then.  The obligations it reads bind the creature alike for every zone: whether any does is asked once
        # per decision (when none does, as usual, it would find nothing for any zone)
        full = full_action_move(game, obj, here, to_zone, walls_on(game, here, to_zone)) \
            if obj.moves_taken and (game.__dict__.get("_decision_memo") is None or DM.recall(
                game, ("full action duties", obj.id), lambda: _bound_to_full_action(game, obj))) else None
        if full:
            raise IllegalMove(f"{obj.label()} has moved already this Action Phase: {full}", full.rule)
        limit = DM.recall(game, ("max moves", obj.id), lambda: max_moves(game, obj))
        if obj.moves_taken >= limit:
            raise IllegalMove(f"{obj.label()} has taken {obj.moves_taken} move action(s) this Action Phase, "
                              f"its most", RULE_ACTIONS)
    if obj.kind in CONJURATION_KINDS:
        for other in st.objects_in_zone(to_zone):
            if other is not obj and other.in_play and other.name == obj.name:
                raise IllegalMove(f"{to_zone} already holds a conjuration named {obj.name}", RULE_CONJ)
    if not DM.recall(game, ("ignores walls", obj.id), lambda: ignores_walls(game, obj)) and tunnel is None:
        for wall in walls_on(game, here, to_zone):
            who = blocks_passage(game, wall, obj) if over is None or not over(wall) else None
            if who:
                raise IllegalMove(f"{wall.label()} on the border of {here} and {to_zone} lets nothing through "
                                  f"({who})", _rule_of(game, who))
    return hindered(game, obj, here, to_zone)


def _bound_to_full_action(game: Game, obj) -> bool:
    """Does any `must(WHO, "full_action", ...)` bind `obj` now, whatever the move (full_action_move reads
    each one's places, zone by zone)?"""
    return next(iter(RS.obligations_on(game, "full action", obj)), None) is not None


def _tunnels(game: Game) -> list:
    """(card, ability) of each face-up `static tunnel(...)` in play."""
    return [(src, ab) for src, ab in game.effects.statics_in_play(TUNNEL) if len(ab.effect.args) == 4]


def tunnel_of(game: Game, obj, here: str, to_zone: str):
    """The card in play whose `static tunnel(WHO, FROM, TO, N)` lets a move action of `obj` go straight from
    `here` to `to_zone` (one fits FROM, the other TO, at most N zones apart), or None."""
    st = game.state
    if here == to_zone:
        return None
    for src, ab in _tunnels(game):
        who, frm, to, most = (a.value for a in ab.effect.args)
        ctx = Ctx(this=src)
        try:
            if ab.guard is not None and not game.evaluate(ab.guard, ctx):
                continue
            n = game.evaluate(most, ctx)
            if not isinstance(n, int) or st.arena.distance(here, to_zone) > n:
                continue
            if not matches(game, obj, who, ctx):
                continue
            if (matches(game, here, frm, ctx) and matches(game, to_zone, to, ctx)) or \
                    (matches(game, here, to, ctx) and matches(game, to_zone, frm, ctx)):
                return src
        except Exception as e:  # noqa: BLE001 - reported, never guessed
            game.note_unsupported(f"static tunnel of {src.card.name}", f"cannot read it: {e}", src=src)
    return None


def pay_costs(game: Game, obj, to_zone: str, action: str = move_costs.MOVE) -> bool:
    """Step 2, Pay Costs: the extra mana cards in play make this move action (or teleport in place of one)
    cost (engine/move_costs.py).  Returns whether they were paid: when its controller cannot pay them all,
    nothing is paid, the move is canceled and its move action is lost (Rules: Move Action, step 2) --
    the move action still counts (``_action_lost``)."""
    why = move_costs.unpaid_reason(game, obj, action)
    if why:
        game.emit("canceled", f"the move of {obj.label()} to {to_zone} is canceled at Pay Costs: {why}; "
                              f"its move action is lost", target=obj.id, to=to_zone, step="pay_costs", why=why,
                  rule=move_costs.RULE)
        return False
    move_costs.pay(game, obj, action)
    return True


def _action_lost(game: Game, obj) -> bool:
    """A declared move action canceled before the creature left its zone (its costs unpaid, or an
    enchantment revealed in a window after Declare Move or Pay Costs): it still counts as one of its move
    actions.  Returns False (the creature did not arrive)."""
    obj.moves_taken += 1
    game.state.touch_light()  # (moves taken: light)
    return False


def leaving_zone(game: Game, obj, here: str, to_zone: str, how: str) -> None:
    """Step 3, Leaving Zone Effects: the "leaves" event."""
    game.fire("leaves", obj, Ctx(this=obj, it=obj), zone=here, into=to_zone, how=how_kind(how))


def _stop_keys(how: str) -> tuple:
    """The restrictions that stop a change of zone of this kind under way: a teleport or a push only its
    own (Restrained creatures may still be pushed or teleport, Unmovable ones teleport: Codex, Restrained;
    Rules, Teleporting); any other move also one that forbids moving."""
    if how == "teleports":
        return (CANNOT_TELEPORTED,)
    if how.startswith("is pushed"):
        return (CANNOT_PUSHED,)
    return CANNOT_MOVE


def _stoppers(game: Game, obj, how: str) -> set:
    return {k for k in _stop_keys(how) if restriction(game, obj, k)}


def walls(game: Game, obj, here: str, to_zone: str, how: str) -> bool:
    """Step 4, Walls: each wall with a passage attack on the border attacks the creature before it
    crosses; if that leaves it destroyed or newly unable to move (Stun, Restrained, Unmovable...),
    the rest of the move is canceled.  Returns whether the move goes on."""
    if ignores_walls(game, obj):
        return True
    for wall in walls_on(game, here, to_zone):
        bars = _passage_attacks(wall, here)
        if not bars:
            if _passage_attacks(wall):
                game.emit("rule", f"{obj.label()} {how} through {wall.label()} from {here}, not from the side its "
                                  f"top faces ({wall.facing}): no passage attack")
            continue
        before = _stoppers(game, obj, how)

        def still_crossing(before=before):
            now = _stoppers(game, obj, how) - before
            if now or (how == "moves" and cannot_move(game, obj)):
                why = sorted({restriction(game, obj, k) or k for k in now} or {cannot_move(game, obj)})
                return f"{obj.label()} can no longer make its move ({', '.join(why)})"
            return None
        for adef in bars:
            game.emit("rule", f"{obj.label()} {how} through {wall.label()}: its passage attack comes before it "
                              f"crosses")
            game.run_attack(wall, adef, [obj], holds_while=still_crossing)
        if not obj.in_play:
            return False
        now = _stoppers(game, obj, how) - before
        if now or (how == "moves" and cannot_move(game, obj)):
            why = sorted({restriction(game, obj, k) or k for k in now} or {cannot_move(game, obj)})
            game.emit("rule", f"{obj.label()} cannot complete its move (now {', '.join(why)}): it stays in {here}")
            return False
    return True


def move_to_zone(game: Game, obj, here: Optional[str], to_zone: str, how: str, why: str = "") -> None:
    """Step 5, Move to New Zone."""
    game.state.move_to_zone(obj, to_zone)
    game.emit("move", f"{obj.label()} {how} from {here} to {to_zone}" + (f" ({why})" if why else ""),
              target=obj.id, frm=here, to=to_zone)
    atk = game.current_attack
    if atk is not None and atk.status in ("declared", "avoided") and (obj is atk.target or obj is atk.source
                                                                     or obj is atk.attacker):
        atk.action.illegal.add(atk.target.id)
        game.attacks.cancel(atk, f"{obj.label()} moved")
    game.check_state()


def entering_zone(game: Game, obj, here: Optional[str], to_zone: str, how: str) -> None:
    """Step 6, Entering Zone Triggers: hidden enchantments that must be revealed when a creature moves
    (traps: `reveal must on moves(..., into: this zone)`), then the "moves" event (zone triggers)."""
    if not obj.in_play:
        return
    info = {"into": to_zone, "frm": here, "how": how_kind(how)}
    for player in game.state.order:
        for ench in game.reveals.hidden_of(player):
            if not obj.in_play:
                return
            if ench.hidden and ench.in_play and _must_reveal_on(game, ench, obj, info):
                game.emit("rule", f"{ench.label()} must be revealed: {obj.label()} entered {to_zone}",
                          secret_for=ench.controller,
                          public_text=f"{ench.public_label()} must be revealed: {obj.label()} entered {to_zone}")
                game.reveals.reveal(ench, None, forced=True, subject=obj)
    if obj.in_play:
        game.fire("moves", obj, Ctx(this=obj, it=obj), **info)


#: events a `reveal must on EVENT(...)` rule of a hidden enchantment is checked for during a move
REVEAL_ON = ("moves",)


def _must_reveal_on(game: Game, ench, mover, info: dict) -> bool:
    for ab in ench.card.abilities:
        if isinstance(ab, A.RevealRule) and ab.mode == "must" and ab.on:
            for ev in ab.on:
                if ev.name in REVEAL_ON and game.event_matches(ev, ench, mover, Ctx(this=ench), info):
                    return True
    return False


# ---------------------------------------------------------------- the move sequence
#: the move sequence, in the rulebook's order (Rules: Move Action), under the names the language gives
#: its steps (dsl/vocab.py: `reveal ... after STEP` rules name them; one table for both).  Every change
#: of zone runs the steps of this table that apply to it, in this order (run_steps): a move action all
#: six, a teleport in place of one all but Walls, a push Leaving Zone to Entering Zone, a teleport or an
#: exchange of places the same without Walls.  Each step's work is STEP_WORK[name]; a reveal window
#: follows each step that ran (after_step).  tests/engine/test_move_sequence.py checks the order.
MOVE_STEPS: tuple[str, ...] = MOVE_STEP_NAMES
#: the steps after which the creature stands in its new zone: a reveal then cancels nothing of the move
MOVED_STEPS = frozenset({"move_to_zone", "entering_zone"})


class MoveInProgress:
    """A change of zone under way (the move sequence): what its steps share, and, shaped as an attack for
    the reveal process and `cancel_action`, the move itself (its `attacker` and `target` are the mover;
    its events say the mover is moving, until it stands in its new zone).  It has none of an attack's
    other features: an effect that asks for one (avoid_attack...) finds it empty."""
    is_casting = False
    spell = None
    defender = None
    traits = ()
    gained = ()
    engaged = False
    kind = None
    unavoidable = False
    is_counterstrike = is_barrier = is_zone = redirected = False
    definition = None

    def __init__(self, mover, to_zone: Optional[str] = None, how: str = "moves", here: Optional[str] = None,
                 counts: bool = False, over=None, why: str = "", skip: frozenset = frozenset()):
        self.attacker = self.target = self.source = self.mover = mover
        self.events = {("moves", mover.id)}
        self.status = "declared"
        self.canceled = False
        self.action = self
        self.to_zone, self.how, self.here, self.why = to_zone, how, here, why
        self.counts = counts  # a move action of the mover's own: declared, paid for and counted
        self.counted = False  # ... counted already (from Leaving Zone on)
        self.over = over  # declare_move's `over`
        self.skip = skip  # steps of MOVE_STEPS that do not apply to it
        self.hindered: Optional[str] = None  # why the move is hindered (Declare Move says)
        self.tunnel = None  # the card taking it straight to a zone further away (Declare Move says)
        self.before: set = set()  # restrictions stopping it that it had before its sequence began
        self.seen = None  # (state version, effects until end of round) when it was last found still able to move
        self.step: Optional[str] = None  # the last step run
        self.permission = None  # a teleport in place of a move action: what allows it (teleport_move)

    def kinds(self) -> frozenset:
        return frozenset({"move"})

    def __getattr__(self, name):  # any other attack feature: a move has none
        return None

    def has_trait(self, key: str) -> bool:
        return False


def _declare(game: Game, mv: MoveInProgress) -> bool:
    """Step 1's work: the declaration's checks (declare_move; a teleport in place of a move action was
    checked by teleport_move), then `when declares(X, "move")` abilities answer a declared move action."""
    obj = mv.mover
    if mv.how == "teleports":  # a teleport in place of a move action, its permission found (teleport_move)
        _check_teleport(game, obj, mv.to_zone)
        game.emit("rule", f"{obj.label()}'s move action is a teleport: {mv.permission}", target=obj.id)
    else:
        mv.hindered = declare_move(game, obj, mv.to_zone, count_action=mv.counts, over=mv.over)
        mv.seen = (game.state.version, len(getattr(game, "restrictions", ())))  # (nothing forbids moving: _unable)
        if mv.counts and game.state.arena.distance(mv.here, mv.to_zone) != 1:
            mv.tunnel = tunnel_of(game, obj, mv.here, mv.to_zone)
        if mv.tunnel is not None:
            mv.skip = mv.skip | {"walls"}
        if mv.counts:
            game.fire("declares", obj, Ctx(this=obj, it=obj), actions=(MOVE_ACTION,))
    return obj.in_play


def _pay(game: Game, mv: MoveInProgress) -> bool:
    """Step 2's work (pay_costs): unpaid, the move is canceled (its move action is lost: run_move)."""
    return pay_costs(game, mv.mover, mv.to_zone, move_costs.MOVE if mv.how == "moves" else move_costs.TELEPORT)


def _leave(game: Game, mv: MoveInProgress) -> bool:
    """Step 3's work: a move action is taken from here on (counted; hindered, it must stop after it);
    conjurations attached to a teleporting object are destroyed; then the "leaves" event."""
    obj = mv.mover
    if mv.counts:
        obj.moves_taken += 1
        mv.counted = True
        if mv.hindered:
            obj.move_stopped = mv.hindered
            game.emit("rule", f"{obj.label()} is {mv.hindered}: after this move it must stop")
        game.state.touch_light()  # (moves taken and the move stop: light)
        if mv.tunnel is not None:
            game.emit("rule", f"{obj.label()} goes straight from {mv.here} to {mv.to_zone} through "
                              f"{mv.tunnel.label()}: no wall crossed, no zone between entered")
    if mv.how == "teleports":
        for att in list(game.state.attachments(obj)):
            if att.kind in CONJURATION_KINDS:
                game.destroy(att, why=f"a conjuration attached to {obj.label()}, which teleports")
    leaving_zone(game, obj, mv.here, mv.to_zone, mv.how)
    return obj.in_play


def _cross(game: Game, mv: MoveInProgress) -> bool:
    """Step 4's work (walls): returns whether the move goes on."""
    return mv.here == mv.to_zone or walls(game, mv.mover, mv.here, mv.to_zone, mv.how)


def _arrive(game: Game, mv: MoveInProgress) -> bool:
    """Step 5's work (move_to_zone): from now on the move is made (its events are over)."""
    move_to_zone(game, mv.mover, mv.here, mv.to_zone, mv.how, mv.why)
    mv.status, mv.events = "moved", frozenset()
    return True


def _enter(game: Game, mv: MoveInProgress) -> bool:
    """Step 6's work (entering_zone)."""
    entering_zone(game, mv.mover, mv.here, mv.to_zone, mv.how)
    return True


#: each step's work, by its name in MOVE_STEPS (each calls the step's function of this module)
STEP_WORK = {"declare_move": _declare, "pay_costs": _pay, "leaving_zone": _leave, "walls": _cross,
             "move_to_zone": _arrive, "entering_zone": _enter}
assert tuple(STEP_WORK) == MOVE_STEPS


def run_steps(game: Game, mv: MoveInProgress, first: str) -> bool:
    """The move sequence from step `first` on: each step of MOVE_STEPS that applies to this move (not in
    `mv.skip`), its title in the log, its work, then the reveal window after it (after_step).  A step
    whose work cancels the move (costs unpaid, a wall's attack that stops it) or a window after which it
    can no longer move ends the sequence there.  Returns whether every step ran."""
    if mv.here is None:
        mv.here = _zone_of(game, mv.mover)
    if mv.how != "moves":  # (a move is stopped by anything that forbids moving: _unable)
        mv.before = _stoppers(game, mv.mover, mv.how)
    for name in MOVE_STEPS[MOVE_STEPS.index(first):]:
        if name in mv.skip:
            continue
        game.emit_data("step", STEP_TITLES[name], {"step": name, "move": mv.how, "target": mv.mover.id})
        if not STEP_WORK[name](game, mv):
            return False
        if not after_step(game, mv, name):
            return False
    return True


def after_step(game: Game, mv: MoveInProgress, name: str) -> bool:
    """After a step of the move sequence: the mandatory reveals `during` it, then the reveal window after
    it (engine/reveal.py: each player in turn may reveal face-down enchantments, as after every step of
    the attack and casting sequences; with nothing face down nobody is asked).  Before the creature stands
    in its new zone, a reveal (or the step itself) that cancels the move or leaves the creature unable to
    make it ends the move sequence: no walls, no new zone (Rules: Move Action).  Returns whether it goes on."""
    obj = mv.mover
    mv.step = name
    if not obj.in_play:
        return False
    game.reveals.window(name, mv, game, during=True)  # (its `during` mandatory reveals first)
    if not obj.in_play:
        return False
    if name in MOVED_STEPS:
        return True
    if mv.canceled or mv.status == "canceled":
        game.emit("rule", f"the move of {obj.label()} is canceled: it stays in {mv.here}")
        return False
    why = _unable(game, mv)
    if why:
        game.emit("rule", f"{obj.label()} cannot complete its move (now {why}): it stays in {mv.here}")
        return False
    return True


def _unable(game: Game, mv: MoveInProgress) -> Optional[str]:
    """Why the mover can no longer make this move (a restriction it did not have when the sequence began;
    for a move, anything that forbids moving), or None.  Asked again only when the state or the effects
    lasting until the end of the round changed since it was last found able."""
    seen = (game.state.version, len(getattr(game, "restrictions", ())))
    if mv.seen == seen:
        return None
    obj = mv.mover
    if mv.how == "moves":  # (whatever forbids moving: it had none when the move was declared)
        why = cannot_move(game, obj)
    else:
        now = _stoppers(game, obj, mv.how) - mv.before
        why = ", ".join(sorted(restriction(game, obj, k) or k for k in now)) if now else None
    if why is None:
        mv.seen = seen
    return why


def change_zone(game: Game, obj, to_zone: str, how: str, walls_step: bool = True, why: str = "") -> bool:
    """Steps 3 to 6 of the move sequence for a change of zone already declared legal (a push, a move made
    by an effect; a Teleport or an exchange of places skips the walls: `walls_step=False`), each followed
    by its reveal window.  Returns whether every step ran."""
    mv = MoveInProgress(obj, to_zone, how, why=why, skip=frozenset() if walls_step else frozenset({"walls"}))
    return run_steps(game, mv, "leaving_zone")


def move(game: Game, obj, to_zone: str, action: bool = True, over=None) -> bool:
    """One move action of `obj` into the adjacent zone `to_zone` (the move sequence, MOVE_STEPS).
    Raises IllegalMove (naming the rule) at Declare Move, before anything changes; a move canceled
    later (its costs unpaid at Pay Costs, an enchantment revealed after a step) is a move action lost.
    Returns whether it arrived.  `action=False`: an effect moves it "as a move action would" outside
    its own actions (no move action declared, paid or counted; hindering does not stop later ones)."""
    here = _zone_of(game, obj)
    mv = MoveInProgress(obj, to_zone, "moves", here=here, counts=action, over=over,
                        skip=frozenset() if action else frozenset({"pay_costs"}))
    arrived = run_steps(game, mv, "declare_move")
    if not action:
        return arrived and obj.zone == to_zone and here != to_zone
    if not mv.counted:  # canceled before it left its zone: the move action is lost all the same
        _action_lost(game, obj)
    if arrived:
        game.just_moved.add(obj.id)
    who = restriction(game, obj, CANNOT_ACT_AFTER_MOVING) if obj.in_play else None
    if who:  # the round ends the Action Phase (round.perform asks phase_ends_after_move)
        game.emit("rule", f"{obj.label()} took a move action: its Action Phase ends ({who})")
    return arrived and obj.zone == to_zone and here != to_zone


def legal_moves(game: Game, obj, action: bool = True, over=None) -> list[str]:
    """Zones one move action of `obj` can reach now (empty when it cannot move); `action=False`: zones
    an effect moving it "as a move action would" may take it to."""
    here = _zone_of(game, obj)
    if here is None or not obj.in_play:
        return []
    # A move action its controller cannot pay for is not offered.  The rules let a player declare one (it is
    # then canceled at Pay Costs and the move action is lost: `move` does so), but declaring it gains
    # nothing -- the creature stays, the move action is spent, and what answers a declared move still
    # happens -- and the rules treat such a move as one the creature cannot take: without the mana a card
    # in play charges for each move action, the creature "cannot take a move action" (Supplement, Spells:
    # Suppression Orb), and an action whose costs cannot be paid is not a possible one (Rules: Mandatory
    # Actions).  Left out, the choice list holds only moves that can be made and a random agent never
    # spends an action on one that cannot.
    if action and move_costs.unpaid_reason(game, obj):
        return []
    out = []
    tunnels = None  # (a zone further than one away is reached only through a tunnel: none is looked for
    # when no card in play states one, as tunnel_of would find none; its own zone is never one)
    for z, dist in game.state.arena.distances_from(here).items():  # (every zone, in zones() order)
        if dist != 1:
            if not action or z == here:
                continue
            if tunnels is None:
                tunnels = bool(_tunnels(game))
            if not (tunnels and tunnel_of(game, obj, here, z)):
                continue
        try:
            declare_move(game, obj, z, count_action=action, over=over)
        except IllegalMove:
            continue
        out.append(z)
    return out


def can_move(game: Game, obj) -> bool:
    return bool(legal_moves(game, obj))


# ---------------------------------------------------------------- a move action that is a teleport
def teleport_moves(game: Game, obj, costs: bool = True) -> list[str]:
    """Zones one move action of `obj` may teleport it to instead of moving: those a permission
    `can(WHO, "teleport", into: PLACE, instead_of: "move")` names (engine/restrictions.py permits),
    while it has a move action left and (`costs`) its controller can pay what such a teleport costs
    (engine/move_costs.py; one that cannot be paid is not offered, as legal_moves says why).  Walls,
    hindering and line of sight do not matter to a teleport."""
    here = _zone_of(game, obj)
    if here is None or not obj.in_play or obj.action_marker != "ready" or obj.moves_taken >= max_moves(game, obj):
        return []
    if restriction(game, obj, CANNOT_TELEPORTED, here=here):
        return []
    if costs and move_costs.unpaid_reason(game, obj, move_costs.TELEPORT):  # `action_cost(WHO, "teleport", N)`
        return []
    # every zone's permission query has the same parties (the zone is no party): when no statement about
    # the action is in reach of them and no effect grants one for a while, each would answer None
    # (restrictions._query's own first test, asked once here instead of once per zone)
    if not getattr(game, "effect_permissions", None) and \
            RS._nothing_states(game, "can", RS._norm("teleport"), [obj, None, None, None], True):
        return []
    return [z for z in game.state.arena.zones()
            if z != here and permits(game, "teleport", obj, into=z)]


def teleport_move(game: Game, obj, zone: str) -> bool:
    """A move action spent on a teleport a permission allows (teleport_moves): the move sequence but its
    Walls step -- declared, paid for (unpaid, it is canceled and the move action lost, as a move is), then
    the teleport, a reveal window after each step.  Returns whether it arrived."""
    why = permits(game, "teleport", obj, into=zone)
    if not why or zone not in teleport_moves(game, obj, costs=False):
        raise IllegalMove(f"{obj.label()} may not teleport to {zone} as a move action", RULE_TELEPORT)
    mv = MoveInProgress(obj, zone, "teleports", counts=True, why=why.rule, skip=frozenset({"walls"}))
    mv.permission = why
    arrived = run_steps(game, mv, "declare_move")
    if not mv.counted:  # canceled before it left its zone: the move action is lost all the same
        _action_lost(game, obj)
    return arrived


# ---------------------------------------------------------------- teleport, push, bash, placement
def _check_teleport(game: Game, obj, zone: str) -> str:
    """A teleport's checks, before anything changes (raises IllegalMove naming the rule); returns the zone
    it leaves."""
    here = _zone_of(game, obj)
    if not obj.in_play or here is None:
        raise IllegalMove(f"{obj.label()} is not standing in a zone of the arena", RULE_TELEPORT)
    if not game.state.arena.is_zone(zone):
        raise IllegalMove(f"{zone!r} is not a zone of the arena", RULE_ARENA)
    who = restriction(game, obj, CANNOT_TELEPORTED, here=here, dest=zone)
    if who:
        raise IllegalMove(f"{obj.label()} cannot be teleported ({who})", _rule_of(game, who))
    return here


def teleport(game: Game, obj, zone: str, source: str = "") -> bool:
    """Teleport (Rules: Teleporting): straight into `zone`, skipping walls, zones between and
    hindering; Unmovable and Restrained creatures may; a `cannot(this, "be teleported")` object
    may not.  Conjurations attached to it are destroyed (as it leaves its zone), even into its own zone."""
    _check_teleport(game, obj, zone)
    return change_zone(game, obj, zone, "teleports", walls_step=False, why=source)


def push_options(game: Game, obj, source_zone: Optional[str]) -> list[str]:
    """Directions a push may take (Codex: Push): straight away from the source; on a diagonal either
    of the two nearest; from the same zone (or no source) any of the four."""
    arena = game.state.arena
    here = _zone_of(game, obj)
    r, c = arena.coords(here)
    if source_zone is None or source_zone == here or arena.coords(source_zone) is None:
        return list(DIRECTIONS)
    sr, sc = arena.coords(source_zone)
    out = []
    if r != sr:
        out.append("south" if r > sr else "north")
    if c != sc:
        out.append("east" if c > sc else "west")
    return out


def bar_push_direction(atk) -> Optional[str]:
    """An attack bar's `static push_direction("...")`: the way the pushes of its attack go."""
    for ab in getattr(atk.action.definition, "abilities", ()) or ():
        if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name in BAR_STATIC_CALLS:
            arg = ab.effect.args[0].value if ab.effect.args else None
            if isinstance(arg, A.StringLit):
                return arg.value
    return None


def reads_static(call: A.Call) -> bool:
    """Is this static call of a card one this module applies (so the continuous-effects layer leaves it)?
    `hinder` and `block_los` in any form; `cannot(ANY, ACTION)` for the actions read here (about the
    card itself, or about the objects a phrase names, with `out_of:`/`into:` places); `can` and
    `ignore` about the card itself."""
    if call.name in STATIC_CALLS_READ or move_costs.reads(call):
        return True
    first = call.args[0].value if call.args else None
    second = call.args[1].value if len(call.args) > 1 else None
    if not isinstance(second, A.StringLit):
        return False
    if call.name == "cannot":
        keys = {a.key for a in call.args if a.key}
        return second.value in CANNOT_READ and (_is_this(first) or keys <= {"out_of", "into"})
    table = {"can": CAN_READ, "ignore": IGNORE_READ}.get(call.name)
    return table is not None and second.value in table and _is_this(first)


def random_direction(game: Game) -> str:
    face = game.dice.d12()
    for top, way in RANDOM_DIRECTIONS:
        if face <= top:
            return way
    return RANDOM_DIRECTIONS[-1][1]


def push(game: Game, obj, source_zone: Optional[str], chooser: str, direction: Optional[str] = None,
         why: str = "", by=None) -> bool:
    """Push one zone (Codex: Push) through the move sequence (no move action, no hindering).  An
    object that cannot be pushed stays; into the arena's edge or a wall it may not cross, it is
    Bashed instead (Flying creatures ignore walls, not the arena's edge).  Returns whether it moved."""
    arena = game.state.arena
    here = _zone_of(game, obj)
    if here is None or not obj.in_play:
        return False
    who = restriction(game, obj, CANNOT_PUSHED)
    if who:
        game.emit("rule", f"{obj.label()} cannot be pushed ({who}): it stays in {here}")
        return False
    if direction == "random":
        way = random_direction(game)
        game.emit("rule", f"{obj.label()} is pushed in a random direction: {way}")
    elif direction == TOWARD:
        options = [OPPOSITE[w] for w in push_options(game, obj, source_zone)] \
            if source_zone not in (None, here) else []
        if not options:
            game.emit("rule", f"{obj.label()} is in the source's zone: a pull toward it does not move it")
            return False
        way = options[0] if len(options) == 1 else game.decide(
            "target", chooser, [Option(d, d) for d in options], prompt=f"pull {obj.label()} which way?",
            default=0).value
    elif direction in DIRECTIONS:
        way = direction
    else:
        options = push_options(game, obj, source_zone)
        free = [w for w in options if not _push_barred(game, obj, here, w, by)]  # engine/restrictions.py
        options = free or options
        if len(options) > 1:
            way = game.decide("target", chooser, [Option(d, d) for d in options],
                              prompt=f"push {obj.label()} which way?", default=0).value
        else:
            way = options[0]
    r, c = arena.coords(here)
    dr, dc = DIRECTIONS[way]
    nr, nc = r + dr, c + dc
    if not (0 <= nr < arena.rows and 0 <= nc < arena.cols):
        game.emit("rule", f"{obj.label()} is pushed {way} into the arena's outer wall: it is Bashed")
        bash(game, obj, None)
        return False
    dest = f"{ROW_LETTERS[nr]}{nc + 1}"
    barred = _push_barred(game, obj, here, way, by)
    if barred:
        game.emit("rule", f"{obj.label()} may not be pushed {way} through that wall: {barred}; it stays in {here}",
                  rule=barred.rule)
        return False
    if not ignores_walls(game, obj):
        for wall in walls_on(game, here, dest):
            if blocks_passage(game, wall, obj):
                game.emit("rule", f"{obj.label()} is pushed {way} into {wall.label()}: it is Bashed")
                bash(game, obj, wall)
                return False
    return change_zone(game, obj, dest, f"is pushed {way}", why=f"by {why}" if why else "")


def _push_barred(game: Game, obj, here: str, way: str, by):
    """A restriction forbidding this push to cross a wall on its way (engine/restrictions.py)."""
    arena = game.state.arena
    r, c = arena.coords(here)
    dr, dc = DIRECTIONS[way]
    if not (0 <= r + dr < arena.rows and 0 <= c + dc < arena.cols):
        return None
    # a one-way wall crossed from behind makes no passage attack, so a ban on pushes through such walls
    # does not hold there (Wall of Pikes)
    walls = [w for w in walls_on(game, here, f"{ROW_LETTERS[r + dr]}{c + dc + 1}")
             if _passage_attacks(w, here) or not _passage_attacks(w)]
    return push_through_forbidden(game, obj, by, walls) if walls else None


def bash(game: Game, obj, wall) -> None:
    """Bashed (pushed into a wall it cannot cross): an Unavoidable attack of 3 dice, neither melee nor
    ranged, made by the wall (the arena's outer wall when `wall` is None)."""
    if wall is None:
        wall = game.state.objects.get(ARENA_WALL_ID)
        if wall is None:
            wall = game.state.objects[ARENA_WALL_ID] = _arena_wall()
            game.state.touch()  # a new object in the state: what was kept of the state before is not of this one
    adef = game.bash_definition(wall)  # the codex states the Bash attack (`static bash_attack(...)`)
    if adef is None:
        game.note_unsupported("bash", "no codex entry states the Bash attack (static bash_attack(...))")
        return
    game.run_attack(wall, adef, [obj])


def _arena_wall():
    wall = GameObject(ARENA_WALL_ID, CardDefinition("outer wall of the arena", "wall"), "-", "-")
    wall.in_play = False
    return wall


def enter_zone(game: Game, obj, zone: Optional[str] = None, how: str = "is placed") -> None:
    """An object comes into play (placed by a spell or an effect): it is put in `zone` (if given) and
    the "enters" event fires.  Being placed is not moving: no "moves" event, no traps (Rules:
    Entering a Zone)."""
    if zone is not None:
        game.state.move_to_zone(obj, zone)
        game.emit("move", f"{obj.label()} {how} in {zone}", target=obj.id, to=zone)
    obj.entered_round = game.state.round  # the `entered_this_round(...)` value
    game.fire("enters", obj, Ctx(this=obj, it=obj), zone=zone or _zone_of(game, obj), how=how)


# ---------------------------------------------------------------- effect-die outcomes that move
#: the `marker` declaration of a keyword that names an effect, not a marker
OUTCOME_MARKER = "none"

def outcome_effects(game: Game, name: str) -> tuple:
    """The `effect:` of a codex entry that is no marker (`marker none`): what an effect die naming it
    does (Push, Snatch) instead of placing a marker."""
    cd = game.codex.get(name)
    if cd is None or cd.marker != OUTCOME_MARKER:
        return ()
    return tuple(e for ab in cd.abilities if isinstance(ab, A.OneShotAbility) for e in ab.effects)


def run_outcome(game: Game, obj, name: str, count: int, source: str, attack=None) -> int:
    """Apply an effect-die outcome stated by a codex entry's `effect:` to `obj` (`this`), `count` times;
    the entry's own `immune(PHRASE, "Name")` statics say who is unaffected.  Returns times applied."""
    cd = game.codex[name]
    for ab in cd.abilities:
        if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name == "immune":
            pos, _ = _args(ab.effect)
            if len(pos) > 1 and isinstance(pos[1], A.StringLit) and pos[1].value == name \
                    and isinstance(pos[0], A.Phrase) and _matches(game, obj, pos[0], obj, f"immunity to {name}"):
                game.emit("immune", f"{obj.label()} is immune to {name} from {source} "
                                    f"({pos[0].text.removeprefix('each ')})")
                return 0
    done = 0
    for _ in range(count):
        if not obj.in_play:
            break
        game.emit("effect", f"{name} on {obj.label()} ({source})")
        ctx = Ctx(this=obj, it=obj, attack=attack)
        ctx.extra["label"] = f"{name} from {source}"
        game.run_effects(outcome_effects(game, name), ctx)
        done += 1
    return done


# ---------------------------------------------------------------- events about places
#: events whose place arguments are matched here: `moves(WHO, into: ZONE)`, `leaves(WHO, ZONE)`
#: (or `zone:`), `enters(WHO, ZONE)` (or `zone:`); each names the key of the fired event's details
ZONE_EVENTS = {"moves": ("into", "into"), "leaves": ("zone", "zone"), "enters": ("zone", "zone")}
#: `moves(..., how: "...")`: the kind of change of zone, from the verb the sequence logs
HOW_KINDS = {"moves": "move", "is pushed": "push", "teleports": "teleport", "swaps": "swap"}


def how_kind(how: str) -> str:
    return next((k for verb, k in HOW_KINDS.items() if how.startswith(verb)), how)


def event_places(event: str, pos: list, kw: dict) -> list:
    """(detail key, place phrase) pairs a `when EVENT(...)` names."""
    key, kwname = ZONE_EVENTS[event]
    out = []
    if "how" in kw:
        out.append(("how", kw["how"]))
    if kwname in kw:
        out.append((key, kw[kwname]))
    elif len(pos) > 1:
        out.append((key, pos[1]))
    return out


def zone_matches(game: Game, phrase, zone: Optional[str], src) -> bool:
    """Does the zone of an event fit the place an ability names ("this zone", "an adjacent zone")?
    (A quoted word is compared as it is: `how: "teleport"`.)"""
    if zone is None:
        return False
    if isinstance(phrase, A.StringLit):
        return phrase.value == zone
    try:
        got = resolve(game, phrase, Ctx(this=src))
    except PhraseError as e:
        game.emit("unsupported", f"NOT IMPLEMENTED: the place of an event of {src.label()}: {e}",
                  **secret_keywords(src, f"NOT IMPLEMENTED: the place of an event of {src.public_label()}"))
        return False
    return any((x if isinstance(x, str) else game.state.zone_of(x)) == zone for x in got)


# ---------------------------------------------------------------- line of sight
# Points are kept in doubled coordinates (twice the row and column, measured from the arena's corner):
# a zone's centre and a border's middle are then whole numbers, hashed and compared cheaply; _trace
# halves them into exact fractions only to work a line out.


def _place(game: Game, x) -> Optional[tuple]:
    """Where a line of sight is traced from or to: a zone's centre, or the middle of a wall's border
    (doubled coordinates)."""
    st = game.state
    if isinstance(x, str):
        rc = st.arena.coords(x)
        if not rc:
            return None
        return (2 * rc[0] + 1, 2 * rc[1] + 1)
    if x is None:
        return None
    if not getattr(x, "in_play", True):
        # an object destroyed by the attack in hand still marks where it stood for the rest of that
        # attack (a chaining attack whose just-destroyed target is the next link's source)
        atk = game.current_attack
        if atk is None or x not in (atk.target, atk.defender, atk.source) or x.left_to != "discard":
            return None
    border = getattr(x, "border", None)
    if border:
        a, b = sorted(border)
        pa, pb = _place(game, a), _place(game, b)
        if pa is None or pb is None:
            return None
        # (two centres are odd numbers: their sums are even, so the middle is whole)
        return ((pa[0] + pb[0]) // 2, (pa[1] + pb[1]) // 2)
    z = st.zone_of(x)
    return _place(game, z) if z else None


def _zone_at(r: int, c: int) -> str:
    return f"{ROW_LETTERS[r]}{c + 1}"


#: _crossings by (p, q): a line's crossings depend on its two end points alone (zone centres and border
#: middles, so few), and working them out with exact fractions costs far more than looking them up
_CROSSINGS: dict = {}


def _crossings(p, q) -> tuple:
    """The borders a straight line from p to q crosses, in order: each is ("border", zone, zone) or
    ("corner", zone before, zone after, (way 1 borders), (way 2 borders)) when it passes a grid corner."""
    got = _CROSSINGS.get((p, q))
    if got is None:
        if len(_CROSSINGS) >= 50_000:
            _CROSSINGS.clear()
        got = _CROSSINGS[(p, q)] = tuple(_trace(p, q))
    return got


def _trace(p, q) -> list:
    """The crossings of the line from p to q (doubled coordinates), worked out (_crossings keeps them)."""
    (y0, x0), (y1, x1) = (Fraction(p[0], 2), Fraction(p[1], 2)), (Fraction(q[0], 2), Fraction(q[1], 2))
    events = {}
    dy, dx = y1 - y0, x1 - x0
    if dx:
        lo, hi = sorted((x0, x1))
        for k in range(int(lo) + (0 if lo != int(lo) else 1), int(hi) + 1):
            k = Fraction(k)
            if lo < k < hi:
                t = (k - x0) / dx
                events.setdefault(t, set()).add("v")
    if dy:
        lo, hi = sorted((y0, y1))
        for k in range(int(lo) + (0 if lo != int(lo) else 1), int(hi) + 1):
            k = Fraction(k)
            if lo < k < hi:
                t = (k - y0) / dy
                events.setdefault(t, set()).add("h")
    out = []
    for t in sorted(events):
        y, x = y0 + t * dy, x0 + t * dx
        eps = Fraction(1, 1000)
        before = (y0 + (t - eps) * dy, x0 + (t - eps) * dx)
        after = (y0 + (t + eps) * dy, x0 + (t + eps) * dx)
        zb = _zone_at(int(before[0]), int(before[1]))
        za = _zone_at(int(after[0]), int(after[1]))
        if len(events[t]) == 1:
            out.append(("border", zb, za))
        else:
            (rb, cb), (ra, ca) = (int(before[0]), int(before[1])), (int(after[0]), int(after[1]))
            via1, via2 = _zone_at(rb, ca), _zone_at(ra, cb)
            out.append(("corner", zb, za, ((zb, via1), (via1, za)), ((zb, via2), (via2, za))))
    return out


def los_blockers(game: Game) -> tuple[dict, list]:
    """Walls that block line of sight, by border; zone objects whose `block_los(this zone,
    crossing: N)` blocks lines crossing N of their zone's borders.  Worked out once per state version
    (agents ask line of sight many times between two changes)."""
    frames = game.effects._frames
    if frames:  # (Effects.reads_others, written out: nothing to do outside a derivation)
        frames[-1][1] = None
    cached = getattr(game, "_los_blockers", None)
    if cached is not None and cached[0] == game.state.version:
        return cached[1]
    got = _los_blockers(game)
    game._los_blockers = (game.state.version, got, {})  # and in_los between zones, as it is asked
    return got


def _los_blockers(game: Game) -> tuple[dict, list]:
    by_border: dict = {}
    zonal = []
    for o in game.state.in_play():
        if o.hidden:
            continue
        for name, ab in _statics(game, o, "block_los"):
            pos, kw = _args(ab.effect)
            if o.border and pos and _is_this(pos[0]):
                by_border.setdefault(o.border, []).append(o)
            else:
                n = kw.get("crossing")
                zone = o.attached_zone or o.zone
                if zone is not None and pos and isinstance(pos[0], A.Phrase) \
                        and [w.text.lower() for w in pos[0].words] == ["this", "zone"]:
                    zonal.append((o, zone, n.as_int() if hasattr(n, "as_int") else 1))
                else:
                    # said once a game, before the next event: lines of sight are traced for the options
                    # an agent is offered too, and asking writes nothing
                    game.note_unsupported(f"block_los of {o.card.name}",
                                          "it names a place the line-of-sight tracer cannot read")
    return by_border, zonal


def in_los(game: Game, a, b, ignore_walls: bool = False) -> bool:
    """Line of sight from `a` to `b` (objects or zones): a straight line from the centre of a's zone
    (the middle of a wall's border) to b's.  A wall that blocks line of sight on a border the line
    crosses blocks it; where the line passes exactly through a corner it is blocked only if both
    ways round the corner are.  Objects outside the arena are out of everyone's sight."""
    p, q = _place(game, a), _place(game, b)
    if p is None or q is None:
        return False
    if p == q:
        return True
    by_border, zonal = los_blockers(game)
    if not by_border and not zonal:
        return True
    ba, bb = getattr(a, "border", None), getattr(b, "border", None)
    # the answer depends on the two end points, their own borders and the blockers alone: kept with the
    # blockers (per state version), since agents ask the same lines many times between two changes
    known = game._los_blockers[2]
    key = (p, q, ba, bb, ignore_walls)
    got = known.get(key)
    if got is None:
        own = frozenset({ba, bb} - {None})  # (the ends' borders, which never block their own line)
        got = known[key] = _traced_los(by_border, zonal, p, q, own, ignore_walls)
    return got


def _traced_los(by_border: dict, zonal: list, p, q, own: frozenset, ignore_walls: bool) -> bool:
    """in_los along the line from p to q, given the blockers (`own`: the borders of the two ends, which
    never block their own line)."""
    walls_block = (not ignore_walls) and bool(by_border)

    def blocked(x: str, y: str) -> bool:
        border = frozenset((x, y))
        return walls_block and border not in own and bool(by_border.get(border))

    crossed: dict = {}
    for ev in _crossings(p, q):
        if ev[0] == "border":
            _, x, y = ev
            if blocked(x, y):
                return False
            for z in (x, y):
                crossed[z] = crossed.get(z, 0) + 1
        else:
            _, x, y, way1, way2 = ev
            if all(any(blocked(*pair) for pair in way) for way in (way1, way2)):
                return False
    for (o, zone, n) in zonal:
        if crossed.get(zone, 0) >= (n or 1):
            return False
    return True
