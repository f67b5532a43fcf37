"""The game round, as the rulebook orders it: one small unit per phase, in a step table.

``ROUND_PHASES`` lists the phases in order, each a name from the rulebook, the timing it runs
(the ``at TIMING`` abilities of cards and of codex entries carried by objects: dsl/vocab.py TIMINGS),
and the function that owns its work.  ``play_round(game)`` runs a whole round; ``run_phase(game)``
one phase; ``next_activation(game)`` one creature's action phase.

Who does what is read from the corpus: upkeep damage, regeneration, Upkeep +X costs, conditions that
wear off at the end of an action phase are all ``at ...`` abilities of codex/*.mw; the engine runs
the timing and never names a trait or a condition.  Every choice goes through ``game.decide``: which
player's effect goes first is ordered by its controller (kind ``order``), which creature activates
(``activate``), what it does (``action``: the typed records of engine/actions.py), which spells a
player plans (``plan``, hidden from the opponent).

Nothing in the engine imports this module but the match (engine/match.py) and the Game's thin
forwarding methods, so the import graph stays acyclic: this module never imports engine/game.py.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import field
from typing import Callable, Optional

from ..dsl import ast as A
from . import actions as ACT
from . import activation as AV
from . import decisionmemo as DM
from . import casting, movement
from . import bound as BD
from . import extracost as EC
from . import othercasters as OC
from . import ability_costs as COSTS
from . import forced_reveals as FORCED
from .cardindex import index as card_index, per_definition
from . import manasupply as MS
from .decisions import HiddenPick, Option
from .phrases import Ctx, resolve
from .restrictions import forbids
from .state import ends_at, start_of_action_phase
from ..dsl.frozen import light_dataclass  # @dataclass, made without compiling source text


# ---------------------------------------------------------------- per-game round state
@light_dataclass
class RoundState:
    """Where the game is in its round, and each player's cards out of play."""
    next_phase: int = 0  # index in ROUND_PHASES of the phase to run next
    initiative: Optional[str] = None
    first: Optional[str] = None  # who has the first round's initiative, when set at the start (no roll)
    library: dict = field(default_factory=dict)  # player -> Counter of card names still in the spellbook
    planned: dict = field(default_factory=dict)  # player -> card names planned this round (not cast yet)
    discard: dict = field(default_factory=dict)  # player -> card names cast or discarded
    quickcast_ready: set = field(default_factory=set)  # players whose quickcast marker is unused
    turn: int = 0  # action phase: index (in initiative order) of the player who activates next
    in_action_phase: bool = False
    activation: Optional[ACT.Activation] = None
    result: Optional[tuple] = None  # (winner or None, reason) once a mage is destroyed

    def phase_key(self) -> str:
        """The key of the phase being run (between phases: the one run next); restrictions stated
        `during:` a phase read it (engine/restrictions.py)."""
        return ROUND_PHASES[self.next_phase].key


def state_of(game) -> RoundState:
    rs = getattr(game, "round_state", None)
    if rs is None:
        rs = RoundState()
        game.round_state = rs
    return rs


def players(game) -> list[str]:
    """Players in initiative order."""
    return list(game.state.order)


def living_mage(game, player: str):
    m = game.state.mage_of(player)
    return m if m is not None and m.in_play else None


# ---------------------------------------------------------------- timings
def _timed(ab):
    inner = ab.ability if isinstance(ab, A.OncePerRound) else ab
    return inner if isinstance(inner, A.TimedAbility) else None


def _codex_timed(game) -> dict:
    """`at TIMING` abilities of codex entries, by timing, then by entry name (built once per corpus)."""
    cached = getattr(game.corpus, "_codex_timed", None)
    if cached is not None and cached[0] == len(game.codex):
        return cached[1]
    idx: dict = {}
    for name, cd in game.codex.items():
        for ab in cd.abilities:
            inner = _timed(ab)
            if inner is not None:
                idx.setdefault(inner.timing.name, {}).setdefault(name, []).append((cd, ab, inner))
    try:
        game.corpus._codex_timed = (len(game.codex), idx)
    except AttributeError:
        pass
    return idx


@per_definition
def _card_timed(card) -> dict:
    """A card's `at TIMING` abilities by timing: (ability, inner), in printed order (once per card)."""
    got: dict = {}
    for ab in card.abilities:
        inner = _timed(ab)
        if inner is not None:
            got.setdefault(inner.timing.name, []).append((ab, inner))
    return got


def timed_abilities(game, timing: str, subject=None) -> list[tuple]:
    """Every `at TIMING` ability due now: (source object, ability, inner, X, label).  Printed
    abilities of face-up objects in play, and the codex abilities of the traits each object has
    (X = the trait's value) and of the conditions and tokens on it (X = how many)."""
    return [t for t in _due(game, timing) if _timing_applies(game, t, subject)]


def _due(game, timing: str) -> list[tuple]:
    """timed_abilities before the check of whom a timing names, kept per derived epoch
    (`Effects.current_epoch`), by timing: it is worked out from which objects are in play and face up,
    their cards, markers and labels (fingerprinted fields) and their derived traits and values alone,
    so it stays valid while the epoch stays the same (most timings of a round find nothing: each asked
    again visited every object).  Not kept while a derived value is being worked out.  The caller must
    not change the list."""
    if timing not in _codex_timed(game):  # printed abilities only: every such timing from one visit
        return game.effects.for_epoch(("timed", None), lambda: _read_printed_due(game)).get(timing, ())
    return game.effects.for_epoch(("timed", timing), lambda: _read_due(game, timing))


def _read_printed_due(game) -> dict[str, list[tuple]]:
    """_read_due of every timing no codex entry has abilities for, at once: {timing: the printed `at
    TIMING` abilities of the face-up objects in play, in order} (a creature's activation asks four
    such timings in the same epoch, each of which visited every object)."""
    out: dict[str, list] = {}
    timed = _card_timed.table  # (its own table read first: one dict get, not a call, per object)
    for src in list(game.state.in_play()):
        if src.hidden:
            continue
        got = timed.get(id(src.card))
        for timing, items in (got if got is not None else _card_timed(src.card)).items():
            got = out.setdefault(timing, [])
            for ab, inner in items:
                got.append((src, ab, inner, None, src.label()))
    return out


def _read_due(game, timing: str) -> list[tuple]:
    out = []
    entries = _codex_timed(game).get(timing, {})
    timed = _card_timed.table  # (its own table read first: one dict get, not a call, per object)
    for src in list(game.state.in_play()):
        if src.hidden:
            continue
        got = timed.get(id(src.card))
        for ab, inner in (got if got is not None else _card_timed(src.card)).get(timing, ()):
            out.append((src, ab, inner, None, src.label()))
        if not entries:
            continue
        named = entries.keys()
        d = game.d(src)
        traits = d.traits
        if not named.isdisjoint(traits):  # (most objects carry nothing with an ability at this timing)
            for key in traits:
                for (cd, ab, inner) in entries.get(key, ()):
                    x = d.value(cd.name, cd.stacking or "add")
                    out.append((src, ab, inner, x, f"{cd.name}{f' {x:+d}' if x else ''} ({src.label()})"))
        if not src.markers or named.isdisjoint(src.markers):
            continue
        for key, n in list(src.markers.items()):
            if n and key not in traits:
                for (cd, ab, inner) in entries.get(key, ()):
                    out.append((src, ab, inner, n, f"{cd.name} x{n} ({src.label()})"))
    return out


def _timing_applies(game, item, subject) -> bool:
    """A timing that names an object (`end_of_action_phase(this)`) applies only to that object."""
    src, _ab, inner, _x, _label = item
    args = [a.value for a in inner.timing.args if not a.key]
    if not args or not isinstance(args[0], A.Phrase):
        return True
    if subject is None:
        return False
    return subject in resolve(game, args[0], Ctx(this=src, it=src))


def run_timing(game, timing: str, subject=None, ordered: bool = False) -> int:
    """Run the `at TIMING` abilities due now.  With `ordered`, players in initiative order each
    order their own (a decision of kind "order" when they have more than one); otherwise they run
    in a fixed order (codex rules of the game first, then printed abilities by timestamp)."""
    due = _due(game, timing)  # (timed_abilities, with no list made when nothing is due: most timings)
    if not due:
        return 0
    due = [t for t in due if _timing_applies(game, t, subject)]
    if not due:
        return 0
    if ordered:
        due = _player_order(game, due, timing)
    else:
        due.sort(key=lambda t: (t[3] is None, t[0].timestamp))
    n = 0
    for item in due:
        src, ab, inner, x, label = item
        if not src.in_play:
            continue
        once_key = ("once", id(ab), game.state.round)
        if isinstance(ab, A.OncePerRound) and once_key in src.uses:
            continue
        ctx = Ctx(this=src, it=subject if subject is not None else src)
        ctx.extra["ability"] = id(inner)
        if x is not None:
            ctx.extra["x"] = x
        ctx.extra["label"] = label
        game.emit("trigger", f"{label}: at {timing}", source=src.id, timing=timing)
        before = game.state.version
        game.log.depth += 1
        try:
            game.run_effects(inner.effects, ctx)
        finally:
            game.log.depth -= 1
        # a once-per-round ability is used up when it did something (a declined "may" leaves it ready)
        if isinstance(ab, A.OncePerRound) and game.state.version != before:
            src.uses.add(once_key)
        n += 1
    return n


#: `static upkeep_first(this)`: the card's upkeep effects come first among its controller's
UPKEEP_FIRST = "upkeep_first"


def _player_order(game, due: list, timing: str):
    """Upkeep-style ordering: the player with initiative resolves theirs first, in the order they
    choose, then the next player (the controller of the object carrying the effect decides).  Yields
    one effect at a time: who controls an object is read again before each, so an object whose
    control changed (its Mind Control unpaid and destroyed) has its other effects decided by its new
    controller, in that player's turn."""
    pending = list(due)
    order = {p: i for i, p in enumerate(game.state.order)}
    while pending:
        by_player: dict = {}
        for item in pending:
            by_player.setdefault(item[0].controller, []).append(item)
        player = min(by_player, key=lambda p: order.get(p, 99))
        group = sorted(by_player[player], key=lambda t: t[0].timestamp)
        # a card stating `static upkeep_first(this)` has its effects resolved before the player's others
        first = [it for it in group if UPKEEP_FIRST in card_index(it[0].card).static_calls]
        if first:
            item = first[0]
        elif len(group) > 1:
            opts = [Option(f"{i + 1}. {it[4]}", i) for i, it in enumerate(group)]
            ch = game.decide("order", player, opts, prompt=f"which {timing} effect resolves first?", default=0)
            item = group[ch.value]
        else:
            item = group[0]
        pending.remove(item)
        yield item


# ---------------------------------------------------------------- victory
def check_victory(game) -> Optional[tuple]:
    """A destroyed mage ends the game at the end of the phase (or action phase) it died in:
    the other player wins; every mage destroyed is a draw."""
    rs = state_of(game)
    if rs.result is not None:
        return rs.result
    st = game.state
    dead = []
    for p in st.order:  # (asked after every phase and activation: no list of the mages made)
        m = st.mage_of(p)
        if m is None:
            return None
        if not m.in_play:
            dead.append(p)
    if not dead:
        return None
    alive = [p for p in dict.fromkeys(st.order) if p not in dead]
    if not alive:
        rs.result = (None, "every mage was destroyed")
        game.emit("game_over", "the game is a draw: every mage was destroyed", winner=None)
    elif len(alive) == 1:
        rs.result = (alive[0], f"the mage of {', '.join(dead)} was destroyed")
        game.emit("game_over", f"{alive[0]} wins: {rs.result[1]}", winner=alive[0])
    return rs.result


# ---------------------------------------------------------------- the phases
def initiative_phase(game) -> None:
    """Round 1: each player rolls the effect die (ties roll again); the winner may keep the initiative
    or give it away.  Later rounds: the initiative passes to the next player."""
    rs = state_of(game)
    ps = players(game)
    if not ps:
        return
    if rs.initiative is None and rs.first is not None:
        rs.initiative = rs.first  # given at the start of the game (start_game(first=...)): no roll
    elif rs.initiative is None:
        first = None
        for _ in range(20):
            rolls = {p: game.dice.d12() for p in ps}
            game.emit("roll", "initiative roll: " + ", ".join(f"{p} {r}" for p, r in rolls.items()))
            best = max(rolls.values())
            top = [p for p in ps if rolls[p] == best]
            if len(top) == 1:
                first = top[0]
                break
        first = first or ps[0]
        others = [p for p in ps if p != first]
        opts = [Option("keep the initiative", first)] + [Option(f"give it to {p}", p) for p in others]
        rs.initiative = game.decide("initiative", first, opts, prompt="who has the initiative first?",
                                    default=0).value
    else:
        i = ps.index(rs.initiative) if rs.initiative in ps else -1
        rs.initiative = ps[(i + 1) % len(ps)]
    all_ps = list(game.state.players)
    k = all_ps.index(rs.initiative)
    game.state.order = all_ps[k:] + all_ps[:k]
    game.state.touch_light()  # (the initiative and the order of play: light, not fingerprinted)
    game.emit("initiative", f"{rs.initiative} has the initiative", player=rs.initiative)


def reset_phase(game) -> None:
    """Action markers and quickcast markers ready; per-round defense uses come back."""
    rs = state_of(game)
    for o in game.state.in_play():
        if game.is_creature(o) or o.kind in ("conjuration", "wall", "terrain", "vine"):
            ready_marker(game, o)
        o.defense_uses.clear()
    rs.quickcast_ready = {p for p in players(game) if living_mage(game, p) is not None}
    # (action markers and defense uses are light fields, the quickcast markers no derived value reads: the
    # fingerprint is the same, and working it out again only to find so was a twentieth of a random duel's
    # state fingerprints)
    game.state.touch_light()
    run_timing(game, "start_of_round")


def ready_marker(game, o) -> None:
    """Flip an object's action marker to its ready side, unless a statement forbids it
    (`cannot(WHO, "ready", during: ...)`, asked through the general query)."""
    if o.action_marker == "ready":
        return
    why = forbids(game, "ready", o)
    if why:
        game.emit("rule", f"{o.label()}'s action marker stays used: {why}", target=o.id)
        return
    o.action_marker = "ready"


def _channelers(game, player: str) -> list:
    """(object, channeling) of what the player controls with a channeling value, after continuous effects."""
    out = []
    for o in game.state.in_play():
        if o.controller == player and not o.hidden:
            c = game.d(o).channeling
            if c:
                out.append((o, c))
    return out


def channeling_phase(game) -> None:
    """Each player's Mage channels its channeling into the player's supply; any other object the player
    controls with a channeling value (a familiar, a spawnpoint) collects its channeling as mana kept on
    itself (the codex's mana-supply token: engine/manasupply.py), which it spends first when it casts."""
    supply = MS.supply_markers(game)
    for p in players(game):
        mage = living_mage(game, p)
        if mage is None:
            continue
        pl = game.state.players[p]
        n = 0
        for o, c in _channelers(game, p):
            if o is mage or o.id == pl.mage_id or not supply:
                n += c
                continue
            game.state.add_marker(o, supply[0], c)
            game.emit("mana", f"{o.label()} collects {c} mana on itself (now {o.markers.get(supply[0], 0)})",
                      target=o.id, amount=c)
        pl.mana += n
        game.state.touch_light()  # (mana: light; the markers added above touched the state themselves)
        game.emit("mana", f"{p} channels {n} mana (now {pl.mana})", player=p, amount=n)
    run_timing(game, "channeling")


def upkeep_phase(game) -> None:
    """Upkeep effects and costs (burning, bleeding, regeneration, Upkeep +X...), each player ordering
    their own, the player with initiative first; then the countdowns procedures keep (an object out of
    the arena: engine/outofarena.py) run."""
    run_timing(game, "upkeep", ordered=True)
    for hook in list(game.upkeep_hooks):  # countdowns kept by procedures (an object out of the arena)
        hook(game)


#: (player, card name) -> the option of planning that spell: an option and its hidden pick are plain
#: values made from these two alone and never changed, so one stands for every offer of them (a Planning
#: Phase offers every spell left in the book, twice per player)
_PLAN_OPTIONS: dict[tuple[str, str], Option] = {}


def _plan_option(player: str, name: str) -> Option:
    got = _PLAN_OPTIONS.get((player, name))
    if got is None:
        if len(_PLAN_OPTIONS) >= 20_000:
            _PLAN_OPTIONS.clear()
        got = _PLAN_OPTIONS[(player, name)] = Option(name, HiddenPick(name, player))
    return got


def planning_phase(game) -> None:
    """Each player takes two spells from their spellbook for the round; what they pick is hidden
    from the opponent.  Spells planned last round and not cast go back to the book first."""
    rs = state_of(game)
    for p in players(game):
        lib = rs.library.setdefault(p, Counter())
        for name in rs.planned.get(p, []):
            lib[name] += 1
        rs.planned[p] = []
        OC.return_unused(game, p)  # spells given to spawnpoints and familiars (engine/othercasters.py)
        if living_mage(game, p) is None or not lib:
            continue
        count = 2 + OC.extra_prepared(game, p)  # `extra_prepared` statics (engine/othercasters.py)
        for i in range(count):
            names = sorted([n for n, c in lib.items() if c > 0])
            if not names:
                break
            opts = [_PLAN_OPTIONS.get((p, n)) or _plan_option(p, n) for n in names]
            opts.append(Option("no more spells", None))
            ch = game.decide("plan", p, opts, prompt=f"plan spell {i + 1} of {count}", default=len(opts) - 1)
            if ch.value is None:
                break
            lib[str(ch.value)] -= 1
            rs.planned[p].append(str(ch.value))
        game.emit("plan", f"{p} plans {', '.join(rs.planned[p]) or 'no spell'}", player=p,
                  secret_for=p, public_text=f"{p} plans {len(rs.planned[p])} spell(s)")
    run_timing(game, "planning")


def deployment_phase(game) -> None:
    run_timing(game, "deployment")


def _quickcast_phase(game, which: str) -> None:
    """Players in initiative order may each cast one quick spell with their quickcast marker."""
    rs = state_of(game)
    for p in players(game):
        mage = living_mage(game, p)
        if mage is None or p not in rs.quickcast_ready:
            continue
        with DM.scope(game):  # (what the candidates ask alike is worked out once: engine/decisionmemo.py)
            casts = AV.cast_options(game, mage, rs.planned.get(p, []), ("quick",), True)
            casts += AV.quickcast_attacks(game, mage)  # a permission to attack with the marker
        if not casts:
            continue
        ch = game.decide("action", p, ACT.options_of(casts + [ACT.PassChoice(mage.id)], game),
                         prompt=f"{which}: cast a quick spell?", default=len(casts))
        if not isinstance(ch.value, ACT.PassChoice):
            perform(game, mage, ch.value, None)
    run_timing(game, "quickcast")


def first_quickcast_phase(game) -> None:
    _quickcast_phase(game, "first quickcast phase")


def final_quickcast_phase(game) -> None:
    _quickcast_phase(game, "final quickcast phase")


def action_phase(game) -> None:
    """Creatures activate alternately, the player with initiative first; a player with nothing left
    to activate lets the other activate the rest."""
    rs = state_of(game)
    begin_action_phase(game)
    while rs.in_action_phase:
        next_activation(game)


def begin_action_phase(game) -> None:
    rs = state_of(game)
    if not rs.in_action_phase:
        rs.in_action_phase = True
        rs.turn = 0


def _ready_creatures(game, player: str) -> list:
    is_creature = game.is_creature
    return [o for o in game.state.in_play() if o.controller == player and o.zone is not None
            and is_creature(o) and o.action_marker == "ready"]


def next_activation(game):
    """One creature's action phase; returns it, or None when no creature is left (the action phase
    is then over)."""
    rs = state_of(game)
    ps = players(game)
    for k in range(len(ps)):
        p = ps[(rs.turn + k) % len(ps)]
        ready = _ready_creatures(game, p)
        if not ready:
            continue
        rs.turn = (rs.turn + k + 1) % len(ps)
        if len(ready) == 1:
            obj = ready[0]
        else:
            ch = game.decide("activate", p, [Option(o.label(), o.id) for o in ready],
                             prompt="which creature activates?", default=0)
            obj = game.state.objects[ch.value]
        activate(game, obj)
        check_victory(game)
        if rs.result is not None:
            rs.in_action_phase = False
        return obj
    rs.in_action_phase = False
    return None


def activate(game, obj) -> None:
    """A creature's action phase: a move then a quick action, or a full action (or two moves);
    a mage may quickcast before or after; Incapacitated creatures only pass."""
    rs = state_of(game)
    game.emit("step", f"{obj.label()} activates (action phase)", target=obj.id)
    act = ACT.Activation(obj.id)
    rs.activation = act
    game.log.depth += 1
    try:
        expire(game, start_of_action_phase(obj.id))  # effects "until the start of its next Action Phase"
        run_timing(game, "before_activation", obj)
        run_timing(game, "around_activation", obj)
        run_timing(game, "start_of_action_phase", obj)
        game.fire("activated", obj, Ctx(this=obj, it=obj))
        FORCED.reveal_on(game, "activated", obj)  # `reveal must on activated(X)`: a trap springs first
        for _ in range(8):  # two moves, an action, a quickcast and passes: bounded
            if not obj.in_play:
                break
            notes: list = []
            choices = AV.legal_actions(game, obj, act, rs.planned.get(obj.controller, []),
                                        obj.controller in rs.quickcast_ready, notes)
            for text in notes:  # what narrows the offer, said as it is made
                game.emit("rule", text)
            passes = [i for i, c in enumerate(choices) if isinstance(c, ACT.PassChoice)]
            ch = game.decide("action", obj.controller, ACT.options_of(choices, game),
                             prompt=f"{obj.label()}: what does it do?", default=passes[0] if passes else None)
            if isinstance(ch.value, ACT.PassChoice):
                break
            perform(game, obj, ch.value, act)
            is_mage = game.state.players[obj.controller].mage_id == obj.id
            if act.acted and not (is_mage and obj.controller in rs.quickcast_ready):
                break
        if obj.in_play:
            end_action_phase(game, obj)
        run_timing(game, "after_activation", obj)
        run_timing(game, "around_activation", obj)
    finally:
        game.log.depth -= 1
        rs.activation = None


def perform(game, obj, choice, act: Optional[ACT.Activation]) -> None:
    """Carry out one typed action choice."""
    rs = state_of(game)
    if isinstance(choice, ACT.MoveChoice):
        mover = game.state.objects[choice.obj_id]
        whole = movement.move_takes_full_action(game, mover, choice.to_zone)
        as_quick = movement.move_uses_quick_action(game, mover) or whole is not None
        if whole:
            game.emit("rule", f"{whole}: nothing else this Action Phase")
        if choice.teleport:
            movement.teleport_move(game, mover, choice.to_zone)
        else:
            movement.move(game, mover, choice.to_zone)
        # (the players may reveal after each step of the move, the last after Entering Zone: a Slow
        # revealed then is in time to stop the creature's next action -- engine/movement.py after_step)
        if act is not None:
            act.moves += 1
            if as_quick or movement.phase_ends_after_move(game, mover) or not mover.in_play:
                act.acted = True  # the move was its quick action (or a move ends its action phase)
    elif isinstance(choice, ACT.AttackChoice):
        attacker = game.state.objects[choice.obj_id]
        targets = [game.state.objects[t] for t in choice.target_ids]
        if choice.quickcast:  # the quickcast marker is spent, not the creature's action
            rs.quickcast_ready.discard(attacker.controller)
        elif act is not None:
            act.acted = True
        adef, _src = game.attacks.find_attack(attacker, choice.attack_name, at_zone=choice.zone is not None)
        bound = [o for (duty, objs, _n) in AV.obligations(game, attacker)
                 if duty in ("attack", "melee_attack", f"{adef.kind}_attack") for o in objs]
        game.attacks.make_attack(attacker, choice.attack_name, targets, zone=choice.zone, quickcast=choice.quickcast,
                                 choose_more=True, bound_to=bound)
    elif isinstance(choice, ACT.CastChoice):
        caster = game.state.objects[choice.caster_id]
        if choice.quickcast:
            rs.quickcast_ready.discard(caster.controller)
        elif act is not None:
            act.acted = True
        planned = rs.planned.get(caster.controller, [])
        given = OC.given(caster)
        holder = None
        if given and choice.card_name in given:  # a familiar's spell (engine/othercasters.py)
            given.remove(choice.card_name)
            rs.discard.setdefault(caster.controller, []).append(choice.card_name)
        elif choice.card_name in planned:
            planned.remove(choice.card_name)
            rs.discard.setdefault(caster.controller, []).append(choice.card_name)
        else:
            holder = BD.use(game, caster, choice.card_name)  # a bound spell stays bound (engine/bound.py)
            if holder is None:
                rs.discard.setdefault(caster.controller, []).append(choice.card_name)
        targets = [game.state.objects[t] for t in choice.target_ids]
        casting.cast_spell(game, caster, game.card(choice.card_name), targets, zone=choice.zone,
                           face_down=choice.face_down, bound_to=holder)
    elif isinstance(choice, ACT.GuardChoice):
        o = game.state.objects[choice.obj_id]
        o.guard = True
        game.state.touch_light()  # (a guard marker: a light field)
        game.emit("action", f"{o.label()} takes the guard action", target=o.id)
        if act is not None:
            act.acted = True
        game.fire("guards", o, Ctx(this=o, it=o))  # `when guards(X)`: it took the guard action
    elif isinstance(choice, ACT.AbilityChoice):
        src = game.state.objects[choice.obj_id]
        ab = _abilities(game, choice, src)[choice.ability_index]
        if choice.quickcast:  # paid for with the Mage's quickcast marker, not its action
            state_of(game).quickcast_ready.discard(src.controller)
            use_ability(game, choice)
            return
        use_ability(game, choice)
        if act is not None:
            if COSTS.spends_move(ab):  # the ability takes the place of a move (engine/ability_costs.py)
                act.moves += 1
            else:
                act.acted = True
    else:
        raise TypeError(f"not an action choice: {choice!r}")


def _abilities(game, choice: ACT.AbilityChoice, src) -> tuple:
    """The abilities the choice indexes: a codex entry's, another object's card's (used by `src` as its own:
    othercasters.use_actions_of), or src's card's."""
    if choice.entry is not None:
        return game.codex[choice.entry].abilities
    if choice.card_of is not None:
        return game.state.objects[choice.card_of].card.abilities
    return src.card.abilities


def use_ability(game, choice: ACT.AbilityChoice) -> None:
    """An `action ...:` ability: pay its mana, then its effects run with `this` = its card's object (or the
    object using another's ability as its own: othercasters.use_actions_of)."""
    src = game.state.objects[choice.obj_id]
    abilities = _abilities(game, choice, src)
    ab = abilities[choice.ability_index]
    inner = ab.ability if isinstance(ab, A.OncePerRound) else ab
    actor = game.state.objects.get(choice.actor_id or choice.obj_id)
    cost = AV.ability_mana(game, src, ab)
    if cost and cost > game.state.players[src.controller].mana:
        from .casting import IllegalCast
        raise IllegalCast("mana", f"not enough mana for the action ability of {src.label()} "
                                  f"(needs {cost}, has {game.state.players[src.controller].mana})")
    lender = game.state.objects[choice.card_of] if choice.card_of is not None else src
    game.emit("action", f"{actor.label()} uses " + (f"its {choice.entry} action" if choice.entry is not None
                                                     else f"an action ability of {lender.label()}"
                                                     + (" as its own" if lender is not src else ""))
                        + (f", paying {cost} mana" if cost else ""), source=src.id)
    if cost:
        p = game.state.players[src.controller]
        p.mana -= cost
        game.state.touch_light()  # (mana: light)
        game.emit("mana", f"{p.name} pays {cost} mana (now {p.mana})", player=p.name, amount=cost)
    if isinstance(ab, A.OncePerRound):
        src.uses.add(("once", id(ab), game.state.round))
    ctx = Ctx(this=src, it=actor)
    ctx.extra["ability"] = id(inner)
    if choice.entry is not None:
        ctx.extra["rule"] = choice.entry  # a codex rule's effects say which rule they come from
    game.log.depth += 1
    try:
        COSTS.pay(game, src, actor, ab, ctx)  # its other costs (tokens removed, an action spent...)
        if choice.entry is None and choice.card_of is None and actor is src:  # one of its own abilities
            EC.widen(game, src, inner.effects, ctx)  # reaching the whole arena for more mana (widen_to_arena)
        game.run_effects(inner.effects, ctx)
    finally:
        game.log.depth -= 1


def end_action_phase(game, obj) -> None:
    """The end of a creature's action phase: its `at end_of_action_phase(this)` abilities run
    (conditions that wear off are stated so in the codex).  Markers it received this activation from
    a damage barrier or a counterstrike, or of a condition stating `outlasts_own_activation()`
    (Game.place_condition), are set aside meanwhile: they last through its next one."""
    game.emit("step", f"end of {obj.label()}'s action phase")
    kept = Counter({k: min(n, obj.markers.get(k, 0)) for k, n in obj.fresh.items() if n})
    for k, n in kept.items():
        if n:
            game.state.remove_marker(obj, k, n)
            game.emit("rule", f"{n} {k} received during this action phase (a damage barrier, a counterstrike, "
                              f"or a condition that outlasts its carrier's own activation) stays through "
                              f"{obj.label()}'s next action phase")
    try:
        run_timing(game, "end_of_action_phase", obj)
    finally:
        for k, n in kept.items():
            if n and obj.in_play:
                game.state.add_marker(obj, k, n)
        obj.fresh.clear()
    expire(game, "action_phase")
    movement.reset_moves(obj)
    game.just_moved.discard(obj.id)
    obj.action_marker = "used"
    # (the action marker, moves taken, the move stop, who just moved and fresh markers are light fields;
    # markers moved and effects ended above touched the state themselves: the fingerprint is the same)
    game.state.touch_light()
    game.fire("action_ends", obj, Ctx(this=obj, it=obj))
    game.check_state()


#: durations whose "until end of ..." effects this module ends
DURATIONS_ENDED: frozenset[str] = frozenset({"round", "phase", "action_phase"})


def expire(game, duration: str) -> int:
    """Effects lasting "until end of <duration>" end now."""
    temporary = game.effects.temporary
    n = 0
    if temporary:  # (most phases end with none: no list made)
        keep = [t for t in temporary if not ends_at(t[4], duration)]
        n = len(temporary) - len(keep)
    if n:
        game.effects.temporary = keep
        game.state.touch()
        game.emit("effect", f"{n} effect(s) lasting until the end of the {duration.replace('_', ' ')} end")
    gone = [lg for lg in game.lingering if ends_at(lg.until, duration)] if game.lingering else ()
    if gone:  # (spells still listening: `linger`)
        game.lingering = [lg for lg in game.lingering if lg not in gone]
        game.state.touch()
        for lg in gone:
            game.emit("effect", f"{lg.source} stops listening (the {duration.replace('_', ' ')} ends)")
    return n


def end_phase(game) -> None:
    """`at end_of_round` abilities run, then effects "until end of round" expire; the round ends."""
    run_timing(game, "end_of_round")
    for hook in list(getattr(game, "end_of_round_hooks", ())):  # delayed effects (engine/reanimation.py)
        hook(game)
    end_round(game)


def end_round(game) -> None:
    game.emit("step", f"end of round {game.state.round}")
    expire(game, "round")
    for o in game.state.in_play():
        o.defense_uses.clear()
        movement.reset_moves(o)
    summon_waiting(game)
    game.state.round += 1
    game.state.touch_light()  # (the round, defense uses and moves are light; expiry and summons touched it)
    game.check_state()


def summon_waiting(game) -> None:
    """Cards waiting face down to be summoned at the end of the round (`summon_later`) come into play,
    their action marker used (they first act next round)."""
    waiting, game.summon_later = game.summon_later, []
    for (player, name, zone, source) in waiting:
        n = 1
        while f"summoned{n}" in game.state.objects:
            n += 1
        obj = game.create(name, f"summoned{n}", player, zone=zone)
        obj.action_marker = "used"
        game.state.touch()
        game.emit("placed", f"{obj.label()} is summoned in zone {zone} ({source})", target=obj.id, zone=zone)
        game.check_state()
        game.fire("enters", obj, Ctx(this=obj, it=obj), how="summoned")


# ---------------------------------------------------------------- the table
@light_dataclass(frozen=True)
class Phase:
    name: str  # the rulebook's name
    key: str  # a short key (scenario `phase:`)
    timings: tuple  # the `at TIMING` abilities this phase runs
    run: Callable


ROUND_PHASES: tuple[Phase, ...] = (
    Phase("Initiative Phase", "initiative", (), initiative_phase),
    Phase("Reset Phase", "reset", ("start_of_round",), reset_phase),
    Phase("Channeling Phase", "channeling", ("channeling",), channeling_phase),
    Phase("Upkeep Phase", "upkeep", ("upkeep",), upkeep_phase),
    Phase("Planning Phase", "planning", ("planning",), planning_phase),
    Phase("Deployment Phase", "deployment", ("deployment",), deployment_phase),
    Phase("First Quickcast Phase", "first_quickcast", ("quickcast",), first_quickcast_phase),
    Phase("Action Phase", "action", ("before_activation", "around_activation", "start_of_action_phase",
                                     "end_of_action_phase", "after_activation"), action_phase),
    Phase("Final Quickcast Phase", "final_quickcast", ("quickcast",), final_quickcast_phase),
    Phase("End Phase", "end", ("end_of_round",), end_phase),
)
PHASE_KEYS: dict[str, Phase] = {p.key: p for p in ROUND_PHASES}
#: every timing some phase runs (coverage reports these as executing)
TIMINGS_RUN: frozenset[str] = frozenset(t for p in ROUND_PHASES for t in p.timings)


def phase_index(key: str) -> int:
    for i, p in enumerate(ROUND_PHASES):
        if p.key == key or p.name.lower() == key.lower():
            return i
    raise KeyError(f"no phase {key!r}; phases: {', '.join(p.key for p in ROUND_PHASES)}")


def run_phase(game) -> Phase:
    """Run the next phase of the round whole; returns it."""
    rs = state_of(game)
    ph = ROUND_PHASES[rs.next_phase]
    if not (ph.key == "action" and rs.in_action_phase):
        game.emit("step", f"round {game.state.round}: {ph.name}", phase=ph.key, round=game.state.round)
    game.log.depth += 1
    try:
        ph.run(game)
        expire(game, "phase")
    finally:
        game.log.depth -= 1
    rs.next_phase = (rs.next_phase + 1) % len(ROUND_PHASES)
    check_victory(game)
    return ph


def play_round(game) -> None:
    """Run phases until the round is over (or a mage is destroyed)."""
    rs = state_of(game)
    while True:
        ph = run_phase(game)
        if rs.result is not None or ph.key == "end":
            return
