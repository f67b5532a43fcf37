"""The Game: state + dice + agents + event log + continuous effects, and the
rules that are not steps of a sequence (damage, healing, conditions, destruction).
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any, Iterable, Optional, Union

from ..dsl import ast as A
from ..dsl import vocab as V
from ..dsl.model import AttackDefinition, CardDefinition, CodexDefinition, Corpus, TraitInstance
from .decisions import DECISION_KINDS, Agent, Decision, FirstLegalAgent, Option
from .dice import Dice, SeededDice
from .attack import AttackAction, AttackEngine
from .codex_rules import entries_stating
from .barclauses import BAR_EVENTS, listeners as bar_listeners
from .cardindex import index as card_index, per_definition
_INDEXED = card_index.table  # (cardindex.per_definition's table of card_index: read first at the hottest calls)
from .effects import Effects
from .errors import EngineError, secret_keywords, unsupported_note
from .effects import trait_from_ref
from .codextable import CodexTable, copy_of as _copy_of
from .events import Event, EventLog, make_event
from . import movement
from . import staterules
from .phrases import Ctx, PhraseError, matches, resolve, resolve_one
from .primitives import evaluate, run_effect, VALUES as _VALUES
#: the value primitives as the package makes them (Game.stock_value)
_STOCK_VALUES = {name: _VALUES.get(name) for name in ("has", "guarding")}
from . import addons  # noqa: F401  effects and values of their own modules, added to the primitives' tables
from .restrictions import forbidden, forbids
from .reveal import Reveals
from .healtrade import give_up_healing
from .unlimited import unlimited
from . import round as round_
from . import control
from .state import HEALTH_WRITES, LIGHT_READS, ROW_LETTERS, Arena, GameObject, GameState, LightList, LightSet

#: a condition's `static shared_with_placer()`: the marker pairs the object carrying it with the object that
#: placed it (both in play, in one zone); its statics and restrictions about `this` hold for both
SHARED_WITH_PLACER = "shared_with_placer"
#: a condition's `static max_placed(N)`: an object keeps at most N of these markers it placed (N read with
#: `this` = that object); one more it would place is not placed
MAX_PLACED = "max_placed"
#: a condition's `static loses_abilities()`: while its marker is on an object, the object's card is read without
#: its attack bars and abilities (what sets X stays); its stats, defenses, traits and subtypes stay
LOSES_ABILITIES = "loses_abilities"
#: the abilities an object that loses its abilities keeps: the statics stating what X is
KEPT_ABILITIES = ("set_x",)
#: a condition's `static outlasts_own_activation()`: its markers placed on an object during that object's own
#: activation last through the end of its next action phase (set aside like a barrier's or counterstrike's)
OUTLASTS_OWN_ACTIVATION = "outlasts_own_activation"

_STEP_OF: dict[int, tuple] = {}


#: the event fired at every step of an attack, with the step's key (`step=`)
STEP_EVENT = "attack_step"


def _step_of(inner) -> Optional[str]:
    """The step an `attack_step(STEP, ...)` trigger names (None: it names none the engine reads
    before matching), read once per ability: Game.event_matches refuses every other step first."""
    hit = _STEP_OF.get(id(inner))
    if hit is not None and hit[0] is inner:
        return hit[1]
    pos = [a.value for a in inner.event.args if not a.key]
    step = None
    if pos and isinstance(pos[0], A.StringLit):
        step = pos[0].value
    elif pos and isinstance(pos[0], A.Phrase):
        step = pos[0].text.replace(" ", "_")
    if len(_STEP_OF) > 20_000:
        _STEP_OF.clear()
    _STEP_OF[id(inner)] = (inner, step)
    return step


def works_hidden(card) -> bool:
    """A card stating `static works_hidden(this)`: its triggered abilities work while it is face down
    (Decoy pays its mana when destroyed unrevealed)."""
    for ab in card.abilities:  # (a loop, not any() over a generator: asked of every face-down card often)
        if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name == "works_hidden":
            return True
    return False


#: events about an object that what was attached to it still hears when that object has just been
#: destroyed by them (the hit or damage that destroyed it, its destruction); later steps, no
LOOK_BACK_EVENTS = frozenset({"hit", "damaged", "destroyed"})

def _heard_keys(event: str, inners) -> set:
    """What hearing `event` through these triggered abilities adds to a set of events heard: the
    event itself and, for `attack_step`, the step each trigger names (`attack_step:STEP`;
    `attack_step:*` for one that names none the engine reads before matching): an attack fires
    `attack_step` at every step, and most listeners answer one step only (Game.unheard)."""
    if event != STEP_EVENT:
        return {event}
    out = {event}
    for inner in inners:
        step = _step_of(inner)
        out.add(f"{STEP_EVENT}:{step if step is not None else '*'}")
    return out


@per_definition
def _card_heard(card) -> frozenset:
    """The events a card's own triggered abilities hear (with _heard_keys' step keys)."""
    got: set = set()
    for event, triggers in card_index(card).triggers.items():
        got |= _heard_keys(event, (inner for _ab, inner in triggers))
    return frozenset(got)


@per_definition
def _entry_events(idx: dict) -> dict:
    """Entry name -> the events it listens for (with _heard_keys' step keys), from a codex listener
    index (Game._codex_index)."""
    by_key: dict = {}
    for event, entries in idx.items():
        for name, listeners in entries.items():
            by_key.setdefault(name, set()).update(_heard_keys(event, (inner for _cd, _ab, inner in listeners)))
    return by_key


#: the key of a listener of every attack step (_heard_keys)
_ANY_STEP = f"{STEP_EVENT}:*"


def _hears(heard, event: str, step: Optional[str]) -> bool:
    """May a listener in `heard` (a set of _heard_keys that holds `event`) hear `event` (at `step`,
    for attack_step)?"""
    return step is None or event != STEP_EVENT or _ANY_STEP in heard or f"{STEP_EVENT}:{step}" in heard


class _AttackKept:
    """What Game.attack_listeners keeps of the attack in hand: what it was worked out from (the attack,
    its traits, how many traits it gained, its bar, the bar's owner, its attacker, its X), its listeners
    by event, and the events it may hear (with _heard_keys' step keys).  (Slots: read at every event.)"""
    __slots__ = ("atk", "traits", "gained", "bar", "owner", "attacker", "listeners", "heard", "x")

    def __init__(self, atk, traits, gained, bar, owner, attacker, listeners, heard, x):
        self.atk, self.traits, self.gained, self.bar, self.owner = atk, traits, gained, bar, owner
        self.attacker, self.listeners, self.heard, self.x = attacker, listeners, heard, x


#: what Game.attack_listeners keeps before any attack: it matches no attack (its attack is None), so the
#: first attack replaces it; never written, so every new game starts from this one
_NO_ATTACK_KEPT = _AttackKept(*(None,) * 9)
#: Game.held's and Game._heard's kept answers before any is worked out: as of no state version and no
#: derived epoch (-1), so the first question replaces them; never written, so every new game starts from these
_HELD_NONE = (-1, {})
_HEARD_NONE = (-1, frozenset())
#: codex statics Game.marker_damage evaluated so far (what they read is not known: a state check that
#: evaluated one is not kept as quiet, Game.check_state)
MARKER_RULES_READ = [0]


class Game:
    # Slots for what every game sets up in __init__ (keep the two lists together), and an instance dict
    # for what modules keep on a game of their own (restrictions' memos...): past thirty attributes an
    # instance dict leaves the compact form shared by the class, so each game copied its attributes into
    # a dict of its own, grown as they came; slots are set and read in one step.  `__weakref__`: the
    # sub-engines (effects, attacks, reveals) point back at their game weakly, so that a game is no
    # reference cycle and a dropped one is freed at once, by reference counting (bench_engine: games that
    # waited for the cycle collector cost a sixth of each attack sequence in memory traffic)
    __slots__ = ('__weakref__', 'corpus', 'codex', 'state', 'dice', 'agents', 'log', 'effects', '_current_attack', 'spared_from',
                 'x_values', 'end_of_round_hooks', 'upkeep_hooks', 'unsupported', 'uses', 'transients',
                 'static_unsupported', 'pending_notes', 'restrictions', 'summon_later', 'lingering', 'taken_control',
                 'placers', '_shared', '_loses', '_stripped', '_abilities_synced', '_held', '_checked_version',
                 '_would_destroy', '_cascade', '_rule_names', '_source_immunities', '_spared', '_listeners', '_listening_cache',
                 '_listening_version', '_heard_cache', '_entry_event_map', '_attack_listening', '_lowers_armor', '_quiet',
                 'just_moved', 'attacks', 'reveals', 'round_state', "__dict__")

    @property
    def current_attack(self):
        """The attack under way (None between attacks); reads are counted in state.LIGHT_READS."""
        LIGHT_READS[0] += 1
        return self._current_attack

    @current_attack.setter
    def current_attack(self, atk) -> None:
        self._current_attack = atk

    def __init__(self, corpus: Corpus, dice: Optional[Dice] = None,
                 agents: Union[Agent, dict, None] = None, arena: Optional[Arena] = None):
        self.corpus = corpus
        codex = entries = corpus.codex
        if type(codex) is not dict:  # the corpus store's lazy table: decoded into a plain dict first
            copy = getattr(codex, "copy", None)
            entries = copy() if copy is not None else codex
        # (CodexTable copies the entries itself: a plain dict is not copied twice)
        self.codex: dict[str, CodexDefinition] = CodexTable(entries, codex)
        self.state = GameState(arena)
        self.dice = dice or SeededDice(0)
        self.agents = agents if agents is not None else FirstLegalAgent()
        self.log = EventLog()
        self.effects = Effects(self)
        self._current_attack = None  # (current_attack's store, set without a call to its setter)
        self.spared_from: dict = {}  # spell object id -> ids of objects its effect no longer reaches
        self.x_values: dict[str, int] = {}
        self.end_of_round_hooks: list = []  # delayed effects the End Phase runs (a reanimated creature returns)
        self.upkeep_hooks: list = []  # procedures the Upkeep Phase runs after its effects (outofarena.py)
        self.unsupported: list[str] = []
        self.uses: list[tuple] = LightList()  # (source id, ability id, round, attack action, objects)
        self.transients: list = []
        self.static_unsupported: set = set()
        self.pending_notes: list = []
        self.restrictions: list = []
        self.summon_later: list = []  # (player, card name, zone, source label): summoned at the end of the round
        self.lingering: list = []  # resolved spells whose abilities still listen (engine/lingering.py)
        self.taken_control: dict = {}  # object id -> its controller before a gain_control static (control.py)
        self.placers: dict = {}  # (object id, condition) -> ids of the objects that placed its markers, in order
        self._shared: dict = {}  # condition -> does it state shared_with_placer() (Game.shared)
        self._loses: dict = {}  # condition -> does it state loses_abilities() (Game._sync_abilities)
        self._stripped: dict = {}  # object id -> its own card, while it is read without its abilities
        self._abilities_synced = -1  # the derived epoch of the last _sync_abilities that changed nothing
        self._held: tuple = _HELD_NONE  # (state version, placer id -> the shared markers it placed) (Game.held)
        self._checked_version = -1
        # what the last state check that found nothing read (check_state): (the fingerprint, the derived epoch,
        # HEALTH_WRITES as of that check), or None (not known to find nothing again)
        self._quiet: Optional[tuple] = None
        self._would_destroy: set = set()  # objects in their "would be destroyed" window
        # while an object's attachments are destroyed with it (destroy): the (object, attack) pairs whose
        # `destroyed` abilities wait until all of them are gone; None when no such destruction is under way
        self._cascade: Optional[list] = None
        self._rule_names: Optional[dict] = None  # id of a codex ability -> its entry (rule_of)
        self._source_immunities: dict = {}  # card name -> phrases of its `static immune(PHRASE, this)`
        self._spared: dict = {}  # state version -> objects whose destruction by damage was prevented
        self._listeners: Optional[dict] = None  # codex triggers by event and entry (_codex_index)
        self._listening_cache: dict = {}  # event -> listeners, as of derived epoch _listening_version (_listening)
        self._listening_version = -1
        self._heard_cache: tuple = _HEARD_NONE  # (derived epoch, events anything may hear): _heard
        self._entry_event_map: Optional[tuple] = None  # (codex index, entry -> its events): _entry_events
        self._attack_listening = _NO_ATTACK_KEPT  # what attack_listeners keeps of the attack in hand
        self._lowers_armor: dict[str, bool] = {}  # codex entry -> lowers armor (lowers_armor)
        self.just_moved: set = LightSet()  # creatures whose last action was a move (Charge)  # (object id, action, detail, source id, round)
        self.attacks = AttackEngine(self)
        self.reveals = Reveals(self)
        self.round_state = None  # engine/round.py: where the round stands (created when first needed)

    # ------------------------------------------------------------ setup
    def card(self, name: str) -> CardDefinition:
        if name in self.corpus.cards:
            return self.corpus.cards[name]
        low = {k.lower(): v for k, v in self.corpus.cards.items()}
        if name.lower() in low:
            return low[name.lower()]
        raise KeyError(name)

    def create(self, card: Union[str, CardDefinition], oid: str, controller: str, owner: Optional[str] = None,
               zone: Optional[str] = None, attached_to: Optional[str] = None, attached_zone: Optional[str] = None,
               hidden: bool = False) -> GameObject:
        cd = self.card(card) if isinstance(card, str) else card
        # (by position, in GameObject's field order: a class called with keywords packs them into a dict
        # and unpacks it again, a third of what making the object costs; border and facing are None)
        obj = GameObject(oid, cd, controller, owner or controller, zone, attached_to, attached_zone, None, None,
                         hidden)
        self.state.add_object(obj)
        if cd.kind in ("mage", "magestats") or ("Mage" in cd.subtypes and cd.kind == "creature"):
            p = self.state.players.get(controller)
            if p is not None and p.mage_id is None:
                p.mage_id = oid
        return obj

    def x_value(self, obj, ctx: Optional[Ctx] = None) -> int:
        """The value of X for an object's card: set by an effect (or a scenario), else stated by
        the card's `static set_x(VALUE)`, worked out now (with `ctx`, for a spell being cast: its
        target, the chosen object...), else 0."""
        if obj is None:
            return 0
        if obj.id in self.x_values:
            return self.x_values[obj.id]
        got = self.static_x(obj.card, ctx if ctx is not None and ctx.this is obj else Ctx(this=obj))
        return got if got is not None else 0

    def static_x(self, card: CardDefinition, ctx: Ctx) -> Optional[int]:
        """X as a card's `static [if COND] set_x(VALUE)` states it, evaluated in `ctx`; None when the
        card states none (or its condition does not hold).  A value the engine cannot work out is
        reported (an `unsupported` event) and taken as None."""
        for ab in card.abilities:
            eff = getattr(ab, "effect", None)
            if not (isinstance(ab, A.StaticAbility) and isinstance(eff, A.Call) and eff.name == "set_x"
                    and eff.args):
                continue
            try:
                if ab.guard is not None and not self.evaluate(ab.guard, ctx):
                    continue
                return int(self.evaluate(eff.args[0].value, ctx))
            except Exception as e:  # a value the engine cannot compute: say so, never guess
                self.note_unsupported(f"static set_x of {card.name}", str(e))
                return None
        return None

    # ------------------------------------------------------------ log and decisions
    def emit(self, _kind: str, _text: str, *, secret_for: Optional[str] = None, public_text: Optional[str] = None,
             audience: Optional[tuple] = None, **data):
        """Record an event (engine/events.py) with its details as keyword arguments."""
        log = self.log
        if self.pending_notes or "emit" in log.__dict__:
            return self._emit_watched(_kind, _text, data, secret_for, public_text, audience)
        events = log.events  # (recorded as EventLog.record would: thirty and more events a sequence)
        ev = make_event(Event, (len(events) + 1, _kind, _text, data, log.depth, secret_for, public_text,
                                tuple(audience) if audience is not None else None))
        events.append(ev)
        return ev

    def emit_data(self, kind: str, text: str, data: dict, secret_for: Optional[str] = None,
                  public_text: Optional[str] = None, audience: Optional[tuple] = None):
        """emit with the event's details already a dict of their own (a step's title, a reveal window's
        line: a dozen and more each attack sequence), not packed from keyword arguments: a keyword
        argument that lands in **data is first compared with each named parameter, so a dict is cheaper."""
        log = self.log
        if self.pending_notes or "emit" in log.__dict__:
            return self._emit_watched(kind, text, data, secret_for, public_text, audience)
        events = log.events
        ev = make_event(Event, (len(events) + 1, kind, text, data, log.depth, secret_for, public_text,
                                tuple(audience) if audience is not None else None))
        events.append(ev)
        return ev

    def _emit_watched(self, kind: str, text: str, data: dict, secret_for, public_text, audience):
        """emit's rarer path: notes of unsupported constructs go first; a watcher that replaced the log's
        emit (invariant checks, replays) sees every event."""
        log = self.log
        if self.pending_notes:
            notes, self.pending_notes = self.pending_notes, []
            for note, note_secret_for, note_public in notes:  # (errors.unsupported_note)
                log.emit("unsupported", note, secret_for=note_secret_for, public_text=note_public)
        return log.emit(kind, text, secret_for=secret_for, public_text=public_text, audience=audience, **data)

    def note_unsupported(self, what: str, why: str, src: Optional[GameObject] = None) -> None:
        """Refuse a construct loudly: counted in `unsupported`, logged before the next event (safe to call
        while derived values are being computed).  Said once per game for each (what, why).  `src`: the
        object whose statement it is; face down, the line naming it goes to its controller only."""
        if (what, why) in self.static_unsupported:
            return
        self.static_unsupported.add((what, why))
        self.unsupported.append(what)
        self.pending_notes.append(unsupported_note(
            f"NOT IMPLEMENTED: {what}: {why}", src,
            f"NOT IMPLEMENTED: a statement of {src.public_label()}" if src is not None else ""))

    def agent_for(self, player: str) -> Agent:
        if isinstance(self.agents, dict):
            return self.agents.get(player) or self.agents.get("*") or FirstLegalAgent()
        return self.agents

    def decide(self, kind: str, player: str, options: list[Option], prompt: str = "",
               default: Optional[int] = None, **context) -> Option:
        if kind not in DECISION_KINDS:
            raise EngineError(f"unknown decision kind {kind!r} (decisions.DECISION_KINDS lists the kinds)")
        agents = self.agents
        agent = self.agent_for(player) if isinstance(agents, dict) else agents
        choice = agent.decide(Decision(kind, player, options, context, prompt, default))
        for o in options:  # agents answer with the option itself: found by identity first
            if o is choice:
                break
        else:
            if choice not in options:  # (an equal option is as good: Option compares by value)
                raise EngineError(f"agent chose {choice!r}, not an option of {kind}")
        if kind == "reveal" and choice.value is None:
            return choice  # a pass: the window's own line says nothing was revealed (and names nothing)
        # Only the option taken is logged (never the other candidates: a reveal
        # window's candidates are the player's hidden cards).  A choice that is
        # itself a face-down object is named only to its controller.
        hidden = getattr(choice.value, "hidden", False) is True
        self.emit("decision", f"{player} decides ({kind}): {choice.label}", kind=kind, player=player,
                  choice=choice.label,
                  secret_for=getattr(choice.value, "controller", player) if hidden else None,
                  public_text=f"{player} decides ({kind}): {choice.value.public_label()}" if hidden else None)
        return choice

    # ------------------------------------------------------------ derived
    def d(self, obj: GameObject):
        return self.effects.derived(obj)

    def has(self, obj: GameObject, key: str) -> bool:
        return self.effects.derived(obj).has(key)

    def life(self, obj: GameObject) -> Optional[int]:
        return self.effects.derived(obj).life

    def channeling(self, player: str) -> int:
        """How much mana a player channels: their Mage's channeling after every continuous effect
        (equipment, conjurations, enchantments that change it); without a Mage in play, the
        player's own figure."""
        mage = self.state.mage_of(player)
        got = self.effects.derived(mage).channeling if mage is not None and mage.in_play else None
        return got if got is not None else self.state.players[player].channeling

    def armor(self, obj: GameObject) -> int:
        return self.effects.derived(obj).armor

    def is_creature(self, obj: GameObject) -> bool:
        return obj.kind in ("creature", "mage", "magestats")

    def remaining_health(self, obj: GameObject) -> int:
        life = self.effects.derived(obj).life
        if life is None:
            return 0
        return max(0, life - obj.damage - (self.marker_damage(obj) if obj.markers else 0))

    # ------------------------------------------------------------ rules: damage, healing, conditions
    def deal_damage(self, obj: GameObject, amount: int, source: str, dtype: Optional[str] = None,
                    direct: bool = False, by_attack: bool = False) -> int:
        """Put damage on an object; returns damage put on it.  Checks destruction by damage."""
        if amount <= 0 or not obj.in_play or self.effects.derived(obj).life is None:
            return 0
        barred = forbidden(self, obj, ("receive damage",))
        if barred:
            self.emit("immune", f"{barred}: {amount} damage from {source} has no effect", target=obj.id)
            return 0
        if dtype and dtype in self.effects.derived(obj).immune_types:
            self.emit("immune", f"{obj.label()} is immune to {dtype}: {amount} damage from {source} has no effect")
            return 0
        self.state.set_damage(obj, obj.damage + amount)
        self.emit("damage", f"{obj.label()} takes {amount} {'direct ' if direct else ''}"
                            f"{(dtype.lower() + ' ') if dtype else ''}damage from {source} "
                            f"(now {obj.damage} damage, life {self.effects.derived(obj).life})",
                  target=obj.id, amount=amount, source=source, type=dtype, direct=direct, by_attack=by_attack)
        self.check_state(by_damage=True)
        if not by_attack:  # an attack's damage fires once its Damage and Effects are done
            self.fire("damaged", obj, Ctx(this=obj, it=obj))
        return amount

    def heal(self, obj: GameObject, amount: int, source: str, by: Optional[GameObject] = None) -> int:
        if amount <= 0 or not obj.in_play:
            return 0
        barred = forbids(self, "heal", obj, by=by)  # Finite Life... (engine/restrictions.py)
        if barred:
            self.emit("heal", f"{obj.label()} cannot heal ({source}): {barred}")
            return 0
        if obj.markers:  # healing traded for condition markers (engine/healtrade.py)
            amount -= give_up_healing(self, obj, amount, source)
        n = min(amount, obj.damage)
        if n:
            self.state.set_damage(obj, obj.damage - n)
            self.emit("heal", f"{obj.label()} heals {n} damage from {source} (now {obj.damage} damage)",
                      target=obj.id, amount=n, source=source)
            event = {"more": 0}  # modify_healing(N) in a `when healed` ability adds to this healing
            self.fire("healed", obj, Ctx(this=obj, it=obj), by_obj=by, amount=n, healing_event=event)
            more = min(event["more"], obj.damage) if obj.in_play else 0
            if more > 0:
                self.state.set_damage(obj, obj.damage - more)
                n += more
                self.emit("heal", f"{obj.label()} heals {more} more damage from {source} (now {obj.damage} damage)",
                          target=obj.id, amount=more, source=source)
            self.check_state()  # a state rule may hang on damage (engine/staterules.py)
        return n

    def codex_statics(self, name: str, fn: str) -> tuple:
        """Static calls named `fn` in the codex entry `name` (a trait, condition or token), once-per-round
        ones left out.  (Read once per entry: engine/cardindex.py; the kept tuple itself is handed out.)"""
        cd = self.codex.get(name)
        if cd is None:
            return ()
        ci = _INDEXED.get(id(cd))  # (card_index's own table read first: one dict get, not a call)
        return (ci if ci is not None else card_index(cd)).every_call.get(fn, ())

    def marker_damage(self, obj: GameObject) -> int:
        """Damage its markers count as (`static counts_as_damage(N)` per marker: Tainted...)."""
        total = 0
        for name, n in obj.markers.items():
            for ab in self.codex_statics(name, "counts_as_damage"):
                MARKER_RULES_READ[0] += 1
                ctx = Ctx(this=obj, it=obj)
                if ab.guard is None or self.evaluate(ab.guard, ctx):
                    total += n * self.evaluate(ab.effect.args[0].value, ctx)
        return total

    def lowers_armor(self, name: str) -> bool:
        """A condition whose codex entry states `static armor_floor()` (Corrode): its markers never take
        armor below zero; one that would becomes direct damage, surplus markers drop off.
        Read once per entry (the codex does not change during a game); state checks ask often."""
        got = self._lowers_armor.get(name)
        if got is None:
            got = self._lowers_armor[name] = self._entry_lowers_armor(name)
        return got

    def _entry_lowers_armor(self, name: str) -> bool:
        return bool(self.codex_statics(name, "armor_floor"))

    def immune_to_condition(self, obj: GameObject, name: str) -> Optional[str]:
        """Why `obj` cannot receive condition `name`, or None.  All of it comes from the codex: the
        object's immunities (to the condition, or to a damage type the condition belongs to) and the
        condition's own `immune(PHRASE, [name])` statics (e.g. conjurations cannot be stunned)."""
        d = self.effects.derived(obj)
        if name in d.immune_conditions:
            return f"is {d.immune_by.get(name, 'immune')}"
        cd = self.codex.get(name)
        if cd is not None:
            for cat in cd.categories:
                if cat in d.immune_types:
                    return f"has {d.immune_by.get(cat, cat + ' immunity')} ({name} is a {cat} condition)"
            for ab in self.codex_statics(name, "immune"):
                args = ab.effect.args
                if len(args) > 1 and isinstance(args[1].value, A.TraitGroup) \
                        and any(r.name.text == name for r in args[1].value.traits) \
                        and isinstance(args[0].value, A.Phrase) and matches(self, obj, args[0].value, Ctx(this=obj)):
                    return f"is a {args[0].value.text.removeprefix('each ')}, which cannot receive {name}"
        return None

    def place_condition(self, obj: GameObject, name: str, count: int, source: str,
                        fresh: bool = False, attack=None, by: Optional[GameObject] = None) -> int:
        """Place markers, honouring immunities; markers of a condition that lowers armor (Corrode) that
        would take armor below zero become direct damage of the condition's type instead.  The object
        placing them (`by`, else the attacker) is remembered for `placer(OBJ, NAME)`."""
        by = by if by is not None else getattr(attack, "attacker", None)
        return self._place_condition(obj, name, count, source, fresh, attack, by)

    def shared(self, name: str) -> bool:
        """Does the condition pair its carrier with the object that placed it (`shared_with_placer()`)?"""
        got = self._shared.get(name)
        if got is None:
            got = self._shared[name] = bool(self.codex_statics(name, SHARED_WITH_PLACER))
        return got

    def held(self, obj: GameObject) -> list[tuple[str, GameObject, int]]:
        """The shared conditions this object placed on other objects in play: (name, carrier, markers).
        Worked out once per state version (placers are recorded with the markers they placed)."""
        version = self.state.version
        if self._held[0] != version:
            table: dict = {}
            for (oid, name), ids in self.placers.items():
                if not self.shared(name):
                    continue
                carrier = self.state.objects.get(oid)
                n = carrier.markers.get(name, 0) if carrier is not None and carrier.in_play else 0
                for pid in dict.fromkeys(ids[-n:] if n else ()):
                    table.setdefault(pid, []).append((name, carrier, ids[-n:].count(pid)))
            self._held = (version, table)
        got = self._held[1].get(obj.id, [])
        objects = self.state.objects
        for (_name, carrier, _n) in got:
            # read by id: a derived value worked out now depends on each carrier (the table may have been
            # built outside its computation), so a shared condition removed from one drops it, even after
            # the placers' record of it is gone (Effects._changed_objects reads that record)
            objects.get(carrier.id)
        return got

    def _pairing_refused(self, obj: GameObject, name: str, by: Optional[GameObject]) -> Optional[str]:
        """Why a shared condition (or one limited per placer) cannot pair `obj` with `by` now, or None."""
        if by is None:
            return None
        if self.shared(name):
            if by is obj:
                return f"{obj.label()} cannot share {name} with itself"
            if not by.in_play or self.state.zone_of(by) != self.state.zone_of(obj):
                return f"{by.label()} and {obj.label()} are not in one zone"
        for ab in self.codex_statics(name, MAX_PLACED):
            cap = self.evaluate(ab.effect.args[0].value, Ctx(this=by, it=by)) if ab.effect.args else 1
            have = sum(ids[-o.markers.get(k, 0):].count(by.id) if o.markers.get(k, 0) else 0
                       for (oid, k), ids in self.placers.items() if k == name
                       for o in [self.state.objects.get(oid)] if o is not None and o.in_play)
            if have >= cap:
                return f"{by.label()} already keeps {have} {name} (at most {cap})"
        return None

    def _sync_abilities(self) -> bool:
        """An object carrying a condition that states `loses_abilities()` (Disable) is read, while the marker is
        on it, as its card without attack bars or abilities (bar the statics that set X): every procedure
        that reads the card then finds nothing to offer, fire or apply.  Its card comes back with the
        last marker, or when it leaves play.  True if any object changed.

        What it reads (markers, being in play, the card, the codex) is all fingerprinted: once a pass
        changed nothing, none is needed again until the derived epoch changes."""
        epoch = self.effects.current_epoch()
        if self._abilities_synced == epoch:
            return False
        changed = False
        for obj in list(self.state.objects.values()):
            why = None
            if obj.in_play:
                for k, n in obj.markers.items():
                    if n:
                        hit = self._loses.get(k)
                        if hit is None:
                            hit = self._loses[k] = bool(self.codex_statics(k, LOSES_ABILITIES))
                        if hit:
                            why = k
                            break
            own = self._stripped.get(obj.id)
            if why is not None and own is None:
                self._stripped[obj.id] = obj.card
                obj.card = _without_abilities(obj.card)
                self.emit("rule", f"{obj.label()} loses its attack bars and abilities ({why})", target=obj.id)
            elif why is None and own is not None:
                obj.card = self._stripped.pop(obj.id)
                if obj.in_play:
                    self.emit("rule", f"{obj.label()} has its attack bars and abilities again", target=obj.id)
            else:
                continue
            self.state.touch()
            changed = True
        if not changed:
            self._abilities_synced = epoch
        return changed

    def _pairs_broken(self) -> bool:
        """A shared condition ends when the object that placed it left play or no longer shares the carrier's
        zone (markers with no recorded placer, such as a scenario's set-up, stay).  True if any ended."""
        changed = False
        for (oid, name), ids in list(self.placers.items()):
            carrier = self.state.objects.get(oid)
            n = carrier.markers.get(name, 0) if carrier is not None and carrier.in_play else 0
            if not n or not self.shared(name):
                continue
            live = ids[-n:]
            keep = [i for i in live if (p := self.state.objects.get(i)) is not None and p.in_play
                    and self.state.zone_of(p) == self.state.zone_of(carrier)]
            if len(keep) < len(live):
                gone = len(live) - len(keep)
                self.placers[(oid, name)] = ids[:-n] + keep
                self.state.remove_marker(carrier, name, gone)
                self.emit("rule", f"{gone} {name} removed from {carrier.label()}: the object that placed it left "
                                  f"play or its zone", target=carrier.id)
                changed = True
        return changed

    def activating(self, obj: GameObject) -> bool:
        """Is this object the creature whose action phase is under way?"""
        act = getattr(self.round_state, "activation", None) if self.round_state is not None else None
        return act is not None and act.obj_id == obj.id

    def placer_of(self, obj: GameObject, name: str) -> list:
        """The objects that placed the markers of a condition now on an object (the latest ones, one per
        marker; markers placed by no object, such as a scenario's set-up, have none)."""
        n = obj.markers.get(name, 0)
        ids = self.placers.get((obj.id, name), [])[-n:] if n > 0 else []
        return [self.state.objects[i] for i in dict.fromkeys(ids) if i in self.state.objects]

    def _place_condition(self, obj: GameObject, name: str, count: int, source: str,
                         fresh: bool = False, attack=None, by: Optional[GameObject] = None) -> int:
        if count <= 0 or not obj.in_play:
            return 0
        if movement.outcome_effects(self, name):  # an effect named by the die (Push), not a marker
            return movement.run_outcome(self, obj, name, count, source, attack)
        why = self.immune_to_condition(obj, name)
        if why:
            self.emit("immune", f"{obj.label()} {why}: no {name} from {source}")
            return 0
        why = self._pairing_refused(obj, name, by) if self.codex.get(name) is not None else None
        if why:
            self.emit("rule", f"no {name} from {source}: {why}", target=obj.id)
            return 0
        for ab in self.codex_statics(name, "max_markers"):  # an object holds at most N of these markers
            cap = self.evaluate(ab.effect.args[0].value, Ctx(this=obj, it=obj)) if ab.effect.args else 1
            room = max(0, cap - obj.markers.get(name, 0))
            if count > room:
                self.emit("rule", f"{obj.label()} may hold {cap} {name}: {count - room} more from {source} "
                                  f"{'is' if count - room == 1 else 'are'} discarded instead", target=obj.id)
                count = room
            if count <= 0:
                return 0
        if not fresh and self.codex_statics(name, OUTLASTS_OWN_ACTIVATION) and self.activating(obj):
            fresh = True  # received during its own activation: it lasts through its next one
        had = frozenset(self.effects.derived(obj).traits)
        placed = self._place_markers(obj, name, count, source, fresh, by)
        if placed and obj.in_play:
            # `when condition_placed(WHO, [Name])`; had(...) reads the traits it had just before
            self.fire("condition_placed", obj, Ctx(attack=attack, it=obj), kind=name, had=had)
        return placed

    def _place_markers(self, obj: GameObject, name: str, count: int, source: str, fresh: bool,
                       by: Optional[GameObject] = None) -> int:
        def remember(n: int) -> None:  # the placer is known before the markers are (placer(OBJ, NAME), held)
            if by is not None and self.codex.get(name) is not None:
                self.placers.setdefault((obj.id, name), []).extend([by.id] * n)
        if self.lowers_armor(name):
            room = self.armor(obj)
            placed = min(room, count)
            excess = count - placed
            if placed:
                remember(placed)
                self.state.add_marker(obj, name, placed, fresh)
                self.emit("condition", f"{obj.label()} receives {placed} {name} from {source} "
                                       f"(armor now {self.armor(obj)})", target=obj.id, condition=name, count=placed)
            if excess:
                cats = self.codex[name].categories
                dtype = cats[0] if cats else None
                self.emit("rule", f"{excess} {name} would take {obj.label()} below 0 armor: "
                                  f"{excess} direct {(dtype or '').lower()} damage instead (not dealt by the attack)")
                self.deal_damage(obj, excess, f"excess {name}", dtype, direct=True)
            return placed
        remember(count)
        self.state.add_marker(obj, name, count, fresh)
        self.emit("condition", f"{obj.label()} receives {count} {name} from {source}"
                               + (" (lasts through its next action phase)" if fresh else ""),
                  target=obj.id, condition=name, count=count)
        self.check_state()
        return count

    def check_state(self, by_damage: bool = False) -> None:
        """State-based rules: excess Corrode removed; damage >= life destroys.
        Skipped when nothing changed since the last check (the state version is the same), or when the
        last check found nothing to do and nothing it read changed since (`_quiet`: the fingerprint, the
        derived epoch and HEALTH_WRITES as of that check, kept below; dropped at the first check that
        finds any of them moved).  When only damage or guard markers were written since such a check,
        the first pass tests the objects alone (`health_only`): what else it would go over is as it was."""
        st = self.state
        if self._checked_version == st.version:
            return
        quiet = self._quiet
        health_only = False
        if quiet is not None:
            # the last check found nothing to do (kept below): the fingerprint is the very tuple it was
            # (Effects.shape) and the derived epoch is the same (no derived value it read was dropped); as of
            # that fingerprint, nothing in play states gain_control (whose statics it would evaluate).  Then,
            # unless a damage or guard marker was written meanwhile, nothing it read changed; if one was, only
            # what it reads of each object may have (its damage, its guard marker)
            eff = self.effects
            if not eff._frames and eff.current_epoch() == quiet[1] and eff._shape is quiet[0] \
                    and not control._any_gain_control(self):
                if quiet[2] == HEALTH_WRITES[0]:
                    self._checked_version = st.version
                    return
                health_only = not self.taken_control
            self._quiet = None
        evaluated = MARKER_RULES_READ[0]
        derived = self.effects.derived
        for n in range(10):
            if health_only and not n:
                # as of the quiet check's fingerprint and epoch: no control to give (nothing states it, none
                # taken), no shared condition's pair broken (zones and markers are fingerprinted), no card
                # losing or getting back its abilities (synced for this epoch), no state rule in play
                changed = False
            else:
                changed = control.reconcile(self)  # who controls what, as `static gain_control` says
                if self.placers:
                    changed = self._pairs_broken() or changed
                changed = self._sync_abilities() or changed
            for obj in self.state.in_play():  # (a list of its own: destroying an object does not move it)
                markers = obj.markers  # (most objects carry none: no list to make, no markers to count)
                for name in [m for m, c in markers.items() if c and self.lowers_armor(m)] if markers else ():
                    c = obj.markers[name]
                    base = max(0, derived(obj).base_armor)
                    if c > base:
                        self.state.remove_marker(obj, name, c - base)
                        self.emit("rule", f"{obj.label()}: {c - base} {name} marker(s) in excess of its armor "
                                          f"removed")
                        changed = True
                if obj.card.kind in ("enchantment", "equipment"):  # (its card's: GameObject.kind, without the call)
                    continue  # not destroyed by damage (and its derived values are not needed here)
                d = derived(obj)
                if obj.guard:  # a trait stating `static remove_guard(this)` (Incapacitated) takes the marker away
                    traits = d.traits
                    stating = entries_stating(self, "remove_guard")  # (shared per corpus; None: a codex of its own)
                    if stating is None:
                        why = next((t for t in traits if self.codex_statics(t, "remove_guard")), None)
                    else:  # (no trait's entry looked up, no generator: most guarded objects have no such trait)
                        why = None
                        if stating and not stating.isdisjoint(traits):
                            why = next(t for t in traits if t in stating)
                    if why:
                        obj.guard = False
                        self.state.touch_light()  # (the guard marker: a light field)
                        self.emit("rule", f"{obj.label()} loses its guard marker ({why})", target=obj.id)
                        changed = True
                        d = derived(obj)  # (as of the marker gone)
                life = d.life
                if life is not None:
                    extra = self.marker_damage(obj) if obj.markers else 0
                    if obj.damage + extra >= life and obj.id not in self._spared.get(self.state.version, ()):
                        self.destroy(obj, by_damage=by_damage,
                                     why=f"{obj.damage} damage" + (f" + {extra} from markers" if extra else "")
                                     + f" >= life {life}")
                        if obj.in_play:  # its destruction was prevented: not again until something changes
                            self._spared = {self.state.version: self._spared.get(self.state.version, set()) | {obj.id}}
                        else:
                            changed = True
            # tokens a card's state rule takes away (engine/staterules.py); none in play as of a quiet check
            rules = () if health_only and not n else staterules.in_play(self)
            if rules and staterules.apply(self, rules):
                changed = True
            if not changed:
                st = self.state
                self._checked_version = st.version
                # kept only after a first pass that changed nothing, with nothing it evaluates (state rules,
                # a marker counting as damage; gain_control statics are asked above), no control taken and no
                # destruction spared at this version (retried at the next one).  What else it reads is
                # fingerprinted (zones, markers, cards; the placers of shared conditions change only with the
                # markers they record), derived (in the epoch, with whatever light field a value read) or an
                # object's damage and guard marker (HEALTH_WRITES).
                if not n and not rules and MARKER_RULES_READ[0] == evaluated and not self.taken_control \
                        and st.version not in self._spared:
                    eff = self.effects
                    if eff._version == st.version and not eff._frames:  # (its epoch and fingerprint are current:
                        # the pass read derived values, which brought them up to date; otherwise none is kept)
                        self._quiet = (eff._shape, eff.epoch, HEALTH_WRITES[0])
                return

    def destroy(self, obj: GameObject, by_damage: bool = False, why: str = "", by: Optional[GameObject] = None,
                obliterate: bool = False, rule: Optional[str] = None) -> None:
        """Destroy an object.  `by` is the object whose effect destroys it (None: the game's rules or
        damage), `rule` the codex rule doing it, if one does; `obliterate` removes it from the game,
        which no "would be destroyed" rule replaces."""
        if not obj.in_play:
            return
        if not obliterate and self.would_be_destroyed(obj, by_damage, by, rule):
            return
        st = self.state
        obj.destroyed_by_damage = by_damage
        st.remove_from_play(obj, "obliterated" if obliterate else "discard")
        tail = (" by damage" if by_damage else "") + (f" ({why})" if why else "")
        # the reason may name the face-down card itself: an opponent's line gives none
        public_tail = " by damage" if by_damage else ""
        if obliterate:  # removed from the game: not destroyed, so no "destroyed" ability triggers
            self.emit("obliterated", f"{obj.label()} is obliterated{tail}", target=obj.id,
                      secret_for=obj.controller if obj.hidden else None,
                      public_text=f"{obj.public_label()} is obliterated{public_tail}" if obj.hidden else None)
            outer = self._destroy_attached(obj)
            if outer:
                self._fire_cascade(outer)
                self.check_state()
            return
        # A face-down card leaves play unnamed to anyone but its controller.
        self.emit("destroyed", f"{obj.label()} is destroyed" + tail, target=obj.id, by_damage=by_damage,
                  secret_for=obj.controller if obj.hidden else None,
                  public_text=f"{obj.public_label()} is destroyed{public_tail}" if obj.hidden else None)
        outer = self._destroy_attached(obj)
        # destroyed by an attack's damage: `destroyed(..., by: "attack")`, `attacker` and the attack's
        # phrases read that attack
        attack = self.current_attack if by_damage else None
        if outer is None:  # destroyed with the object it was attached to: its abilities wait for the rest
            self._cascade.append((obj, attack))
            return
        self._fire_cascade(outer)
        self.fire("destroyed", obj, Ctx(this=obj, it=obj, attack=attack))
        self.check_state()  # an effect that left with it may leave another object over its life

    def _destroy_attached(self, obj: GameObject) -> Optional[list]:
        """Destroy what is attached to `obj`, which has just left play: all at once with it, so no
        `destroyed` ability of theirs and no state check runs before the last of them is gone (a state
        check between two of them could destroy another object and ask a player to choose while an
        attachment is still on an object out of play).  Returns, to the outermost destruction, the
        (object, attack) pairs whose `destroyed` abilities wait, in the order they were destroyed
        (fire them with _fire_cascade); None to a destruction nested in another's."""
        outer = self._cascade is None
        if outer:
            self._cascade = []
        try:
            for att in list(self.state.attachments(obj)):
                self.destroy(att, why=f"attached to {obj.public_label()}")
            self._drop_attachments(obj)
        finally:
            waiting = self._cascade
            if outer:
                self._cascade = None
        return waiting if outer else None

    def _fire_cascade(self, waiting: list) -> None:
        for o, attack in waiting:  # (destroyed by an attack's damage: that attack, as destroy gives it)
            self.fire("destroyed", o, Ctx(this=o, it=o, attack=attack))

    def source_immunities(self, card: CardDefinition) -> list:
        """The phrases of a card's `static immune(PHRASE, this)`: objects fitting them are immune to
        the card (its attacks cannot target them, its effects and statics do not affect them)."""
        got = self._source_immunities.get(card.name)
        if got is None:
            got = []
            for ab in card.abilities:
                eff = getattr(ab, "effect", None)
                if isinstance(ab, A.StaticAbility) and isinstance(eff, A.Call) and eff.name == "immune" \
                        and len(eff.args) > 1 and isinstance(eff.args[0].value, A.Phrase) \
                        and isinstance(eff.args[1].value, A.Phrase) \
                        and [w.text.lower() for w in eff.args[1].value.words] == ["this"]:
                    got.append(eff.args[0].value)
            self._source_immunities[card.name] = got
        return got

    def immune_to_source(self, obj, src) -> Optional[str]:
        """Why `obj` is immune to the card of `src` (`static immune(Flying creatures, this)`), or None."""
        if src is None or not isinstance(obj, GameObject) or obj is src:
            return None
        for phrase in self.source_immunities(src.card):
            if matches(self, obj, phrase, Ctx(this=src)):
                return f"{obj.label()} is immune to {src.card.name} ({phrase.text})"
        return None

    def would_be_destroyed(self, obj: GameObject, by_damage: bool, by: Optional[GameObject],
                           rule: Optional[str] = None) -> bool:
        """The "would be destroyed" window: fire `would_be_destroyed` about the object before it is
        destroyed.  A rule may replace the destruction (it obliterates the object or returns it to
        its owner's spellbook: the object leaves play) or prevent it (`prevent_unless_paid` not
        paid).  Returns True when the object is not to be destroyed.  An object already in this
        window is not asked again (a replacement that destroys it ends the recursion)."""
        if obj.id in self._would_destroy:
            return False
        why = forbidden(self, obj, ("be destroyed", "be destroyed by damage") if by_damage else ("be destroyed",),
                        by=by, rule=rule)
        if why:
            self.emit("rule", f"{obj.label()} is not destroyed: {why}", target=obj.id,
                      **secret_keywords(obj, f"{obj.public_label()} is not destroyed"))
            return True
        would = {"prevented": False, "by": by}
        self._would_destroy.add(obj.id)
        try:
            atk = self.current_attack if by_damage or (by is not None and self.current_attack is not None
                                                        and by is self.current_attack.source) else None
            self.fire("would_be_destroyed", obj, Ctx(this=obj, it=obj, attack=atk), would=would, by_obj=by)
        finally:
            self._would_destroy.discard(obj.id)
        if not obj.in_play:
            return True
        if would["prevented"]:
            self.emit("rule", f"{obj.label()} is not destroyed: {would['prevented']}", target=obj.id,
                      **secret_keywords(obj, f"{obj.public_label()} is not destroyed"))
            return True
        return False

    def _drop_attachments(self, host: GameObject) -> None:
        """What is still attached to an object that left play (its destruction was prevented or
        replaced, or the host was discarded) cannot stay attached to nothing: it is discarded."""
        for att in list(self.state.attachments(host)):
            self.discard(att, why=f"its host {host.public_label()} left play")

    def discard(self, obj: GameObject, why: str = "") -> None:
        if not obj.in_play:
            return
        # `when discarded(this)` is heard while the card is still there: a Cantrip goes back to the
        # spellbook instead (it leaves play, and nothing is left to discard)
        self.fire("discarded", obj, Ctx(this=obj, it=obj))
        if not obj.in_play:
            return
        self.state.remove_from_play(obj)
        tail = f" ({why})" if why else ""
        self.emit("discarded", f"{obj.label()} is discarded" + tail, target=obj.id,
                  secret_for=obj.controller if obj.hidden else None,
                  public_text=f"{obj.public_label()} is discarded{tail}" if obj.hidden else None)
        self._drop_attachments(obj)
        self.check_state()

    # ------------------------------------------------------------ triggers
    def _codex_index(self) -> dict:
        """Triggered abilities written in codex entries, by event name, then by entry name."""
        idx = self._listeners
        if idx is None:
            # built once per corpus (games of a duel or a benchmark share it); a game whose codex holds
            # other entries (a scenario's homebrew entry, a test's changed one) builds its own: the same
            # number of entries is not the same entries (CodexTable knows whether it was written)
            shared = _copy_of(self.codex, self.corpus.codex)
            cached = getattr(self.corpus, "_codex_listeners", None) if shared else None
            if cached is not None:
                idx = cached
            else:
                idx = {}
                for name, cd in self.codex.items():
                    for ab in cd.abilities:
                        inner = ab.ability if isinstance(ab, A.OncePerRound) else ab
                        if isinstance(inner, A.TriggeredAbility):
                            idx.setdefault(inner.event.name, {}).setdefault(name, []).append((cd, ab, inner))
                if shared:
                    try:
                        self.corpus._codex_listeners = idx
                    except AttributeError:
                        pass
            self._listeners = idx
        return idx

    def rule_of(self, ability) -> Optional[str]:
        """The codex entry an ability is written in (None: a card's own ability)."""
        names = self._rule_names
        if names is None:
            # read once per corpus: games of a duel or a benchmark share the entries (a game whose
            # codex differs, a scenario's homebrew entry, reads its own)
            shared = _copy_of(self.codex, self.corpus.codex)
            cached = getattr(self.corpus, "_rule_names", None) if shared else None
            if cached is not None:
                names = cached
            else:
                names = {}
                for name, cd in self.codex.items():
                    for ab in cd.abilities:
                        names[id(ab)] = name
                        inner = getattr(ab, "ability", None)
                        if inner is not None:
                            names[id(inner)] = name
                if shared:
                    try:
                        self.corpus._rule_names = names
                    except AttributeError:
                        pass
            self._rule_names = names
        return names.get(id(ability))

    def carried_listeners(self, src: GameObject, event: str) -> list:
        """Codex abilities an object carries for `event`: those of each trait it has (X = the trait's
        value) and of each condition or token on it (X = the number of markers)."""
        entries = self._codex_index().get(event)
        return self._carried(src, event, entries) if entries else []

    def _carried(self, src: GameObject, event: str, entries: dict) -> list:
        # kept with the object's derived values: recomputed when they are (any change of state)
        d = self.effects.derived(src)
        out = d.carried.get(event)
        if out is not None:
            return out
        out = d.carried[event] = []
        for key in d.traits:
            for (cd, ab, inner) in entries.get(key, ()):
                x = d.value(cd.name, cd.stacking or "add")
                # the label is written only if the trigger runs (most listeners do not match)
                out.append((src, ab, inner, x,
                            lambda cd=cd, x=x, src=src: f"{cd.name}{f' {x:+d}' if x else ''} ({src.label()})"))
        for key, n in src.markers.items():
            if n and key not in d.traits:
                for (cd, ab, inner) in entries.get(key, ()):
                    out.append((src, ab, inner, n, cd.name))
        return out

    def attack_listeners(self, atk, event: str) -> list:
        """Codex abilities of the traits of the attack being resolved (Vampiric, Piercing...):
        `this` is the attacker; X is the trait's value."""
        if atk is None or getattr(atk, "is_casting", False):  # a spell being cast stands in for an attack: no bar, no traits
            return ()
        kept = self._attack_kept(atk)
        if event not in kept.heard:  # neither its bar nor a trait of it listens for the event
            return ()
        got = kept.listeners.get(event)
        if got is None:
            got = kept.listeners[event] = self._attack_listeners(atk, event)
        return got

    def _attack_kept(self, atk) -> "_AttackKept":
        """What attack_listeners keeps of the attack in hand.  An attack fires a dozen events, most of
        them several times; the answer holds while the attack is the same object and none of what it is
        worked out from was replaced (compared by identity: a replaced part, even an equal one, only
        works the answer out again)."""
        kept = self._attack_listening
        action = atk.action
        if kept.atk is not atk or kept.traits is not action.traits or kept.gained != len(atk.gained) \
                or kept.bar is not action.definition \
                or kept.owner is not (action.owner or action.spell or action.source) \
                or kept.attacker is not atk.attacker or kept.x != action.x:  # (the owner: AttackAction.bar_owner)
            kept = self._attack_listening = _AttackKept(atk, action.traits, len(atk.gained), action.definition,
                                                        action.bar_owner, atk.attacker, {},
                                                        self._attack_heard(atk), action.x)
        return kept

    def _attack_heard(self, atk) -> frozenset:
        """The events the attack in hand may hear (a superset of those _attack_listeners finds any
        listener for): its bar's triggers and those of the codex entries of its traits."""
        by_key = self._entry_events()
        bar = getattr(atk.action.definition, "abilities", None) or ()  # (a move in progress has no bar)
        got = set()
        for ab in bar:
            inner = ab.ability if isinstance(ab, A.OncePerRound) else ab
            if isinstance(inner, A.TriggeredAbility) and inner.event.name in BAR_EVENTS:
                got |= _heard_keys(inner.event.name, (inner,))
        for t in (*atk.traits, *atk.gained):
            got.update(by_key.get(t.key, ()))
        return frozenset(got)

    def _attack_listeners(self, atk, event: str) -> list:
        casting = getattr(atk, "is_casting", False)  # a spell being cast stands in for an attack
        out = [] if casting else bar_listeners(self, atk, event)  # the triggers of the attack's own bar
        entries = self._codex_index().get(event)
        if not entries or atk is None or getattr(atk, "is_casting", False):  # a spell being cast has no attack traits
            return out
        seen = set()
        for t in tuple(atk.traits) + tuple(atk.gained):
            if t.key in seen:
                continue
            seen.add(t.key)
            for (cd, ab, inner) in entries.get(t.key, ()):
                if "Attack" in cd.categories:
                    out.append((atk.attacker, ab, inner, t.value if isinstance(t.value, int) else 0, str(t)))
        return out

    def bar_listeners(self, obj: GameObject, event: str) -> list:
        """Codex abilities of the traits on the object's attack bars that listen for an event about the
        object itself (`when leaves(this)`), heard outside any attack: Trample's creature leaving a zone
        may make that bar's attack.  (ability, inner, X, label, the bar's name)."""
        entries = self._codex_index().get(event)
        if not entries or not obj.in_play or obj.hidden:
            return []
        out = []
        for bar in obj.card.attacks:
            for t in bar.traits:
                for (cd, ab, inner) in entries.get(t.key, ()):
                    pos = [a.value for a in inner.event.args if a.key is None]
                    if "Attack" in cd.categories and pos and isinstance(pos[0], A.Phrase) \
                            and pos[0].text.strip().lower() == "this":
                        out.append((ab, inner, t.value if isinstance(t.value, int) else 0,
                                    f"{t} ({obj.label()}, {bar.name})", bar.name))
        return out

    def fire(self, event: str, subject: Optional[GameObject], ctx: Ctx, exclude=(), **info) -> None:
        """Run triggered abilities listening for `event` about `subject`: those printed on revealed
        objects, those of the codex entries the objects carry (traits, conditions, tokens) and those of
        the traits of the attack being resolved.

        `info` carries event details matched against keyword arguments (step=..., by=...)."""
        atk = ctx.attack
        if atk is None or not self.unheard(event, subject, atk, exclude, info.get("step")):
            self.fire_heard(event, subject, ctx, exclude, **info)

    def fire_heard(self, event: str, subject: Optional[GameObject], ctx: Ctx, exclude=(), **info) -> None:
        """fire's work once `unheard` did not rule the event out (its caller asked it first)."""
        rules, pending = self._listening(event, subject, exclude)  # kept lists: read, never changed here
        if ctx.attack is not None:
            more = self.attack_listeners(ctx.attack, event)
            if more:
                # an attack's own replacement of a destruction (Devour's Obliterate) comes before the
                # object's (Cantrip): Obliterate removes even a Cantrip from the game (Codex, Cantrip)
                rules = [*more, *rules] if event == "would_be_destroyed" else [*rules, *more]
        if (rules or pending) and event == STEP_EVENT and "step" in info:  # only the listeners of this step (event_matches would refuse the rest)
            step = info["step"]
            if rules:  # (an empty one stays as it is: no comprehension to run)
                rules = [r for r in rules if _step_of(r[2]) in (None, step)]
            if pending:
                pending = [p for p in pending if _step_of(p[2]) in (None, step)]
        # Codex rules carried by objects and attacks apply first, in a fixed order (they are rules of
        # the game, not abilities a player orders); printed abilities that trigger together are
        # ordered by their controllers.
        for (src, ab, inner, x, label) in rules:
            self.run_trigger(src, ab, inner, subject, ctx, info, x, label)
        if ctx.attack is None and subject is not None:
            for (ab, inner, x, label, bar) in self.bar_listeners(subject, event):
                self.run_trigger(subject, ab, inner, subject, ctx, info, x, label, bar=bar)
        if len(pending) > 1:
            pending = [p for p in pending if self._event_ok(p[0], p[2], subject, ctx, info)]
            if len(pending) > 1:
                pending = self.order_triggers(pending, event)
        for (src, ab, inner, x, label) in pending:
            self.run_trigger(src, ab, inner, subject, ctx, info, x, label)

    def unheard(self, event: str, subject, atk, exclude=(), step: Optional[str] = None) -> bool:
        """Is it already known that nothing hears this event of the attack in hand?  True only where
        _listening would find no listener from what it keeps (the events anything in play may hear,
        _heard, kept for the current derived epoch and already worked out) and the attack's bar and
        traits hear no such event: the usual case, most events of an attack sequence.  Anything
        else (no kept answer yet, a destruction, a subject gone, excluded objects, spells that
        linger) takes the full path.  `step`: the step of an `attack_step` event, which only listeners
        of that step (or of any step) hear (_heard_keys)."""
        eff = self.effects
        heard = self._heard_cache
        if exclude or self.lingering or event == "destroyed" or eff._version != self.state.version \
                or heard[0] != eff.epoch:
            return False
        heard = heard[1]
        if event in heard and _hears(heard, event, step):
            return False
        if event in LOOK_BACK_EVENTS and subject is not None and not isinstance(subject, str) \
                and not subject.in_play:
            return False  # what was attached to a destroyed subject still hears it
        if not getattr(atk, "is_casting", False):
            own = self._attack_kept(atk).heard
            if event in own and _hears(own, event, step):
                return False
        if eff._frames:  # (eff.reads_others(), inline, as _listening: kept across objects)
            eff._frames[-1][1] = None
        return True

    #: events about what becomes of a card as it would leave play: a face-down card's codex rules hear them
    CARD_FATE_EVENTS = ("would_be_destroyed", "discarded")

    def _listening(self, event: str, subject, exclude) -> tuple[list, list]:
        """The abilities of objects listening for `event`: codex rules they carry, and printed
        triggered abilities.  Unless the event is a destruction (the destroyed object still hears
        it) or objects are excluded, the answer depends only on the state, so it is kept until the
        state changes (an attack fires one event many times between two changes)."""
        # a destroyed subject: what was attached to it left play with it, and still hears what
        # happens to it in the same moment (its destruction, the hit that destroyed it...)
        self.effects.reads_others()  # (kept across objects)
        gone = subject is not None and not isinstance(subject, str) and not subject.in_play \
            and event in LOOK_BACK_EVENTS
        cacheable = not exclude and event != "destroyed" and not gone
        if cacheable:
            # what is read below is fingerprinted state (objects, where they are, face down or not,
            # markers) and derived values: valid while the derived epoch stays the same
            epoch = self.effects.current_epoch()
            if self._listening_version != epoch:
                self._listening_cache.clear()
                self._listening_version = epoch
            hit = self._listening_cache.get(event)
            if hit is not None:
                if self.lingering:  # spells that left play and still listen: read afresh
                    return hit[0], [*hit[1], *addons.lingering.listeners(self, event)]
                return hit  # (rules, pending): callers read them, never change them
            if event not in self._heard(epoch):  # nothing in play listens for it: no object to visit
                hit = self._listening_cache[event] = ((), ())
                if self.lingering:
                    return hit[0], [*hit[1], *addons.lingering.listeners(self, event)]
                return hit
        rules, pending = [], []
        entries = self._codex_index().get(event)  # codex entries listening for this event
        derived = self.effects.derived if entries else None
        for src in list(self.state.objects.values()):
            if src in exclude:
                continue
            if src.hidden and not works_hidden(src.card):
                if entries and event in self.CARD_FATE_EVENTS and (src.in_play or src is subject):
                    # what becomes of the card itself when it would leave play holds face down too
                    # (Codex, Cantrip: "even hidden"); its other abilities wait until it is revealed
                    rules.extend(self._carried(src, event, entries))
                continue  # a face-down card hears nothing else, unless its card says it works hidden
            if not src.in_play:
                if not (event == "destroyed" and src is subject) and not (
                        gone and src.attached_to == subject.id and src.left_to is not None and not src.hidden):
                    continue  # a destroyed object, and what was attached to it, still hear its destruction
            elif derived is not None:  # (the events it may hear, kept with its derived value: _heard_by)
                heard = derived(src).heard
                if heard is not None and event not in heard:
                    continue  # neither its card nor a codex entry it carries listens for the event
            ci = _INDEXED.get(id(src.card))  # (card_index's own table first: one dict get, not a call)
            for (ab, inner) in (ci if ci is not None else card_index(src.card)).triggers.get(event, ()):
                pending.append((src, ab, inner, None, None))
            if entries and (src.in_play or src is subject):
                rules.extend(self._carried(src, event, entries))
        if cacheable and self._listening_version == self.effects.current_epoch() and not self.effects._computing:
            self._listening_cache[event] = (rules, pending)
        if self.lingering:  # spells that left play and still listen (`linger`): never kept
            pending = [*pending, *addons.lingering.listeners(self, event)]
        return rules, pending

    def _heard(self, epoch: int) -> frozenset:
        """The events anything in play may hear now (a superset: what _listening would find for a
        cacheable event is empty unless its event is here), kept for the derived epoch: one visit of
        the objects answers every event fired until something changes, instead of one visit per event."""
        kept = self._heard_cache
        if kept[0] == epoch:
            return kept[1]
        got: set = set()
        derived = self.effects.derived
        for src in self.state.objects.values():
            if not src.in_play:
                continue  # (a destroyed subject's listeners are read afresh: not cacheable)
            if src.hidden and not works_hidden(src.card):
                got.update(self.CARD_FATE_EVENTS)  # what becomes of the card itself holds face down too
                continue
            d = derived(src)
            heard = d.heard  # (kept with the derived value: worked out once, _heard_by)
            got.update(heard if heard is not None else self._heard_by(src, d))
        got = frozenset(got)
        if self.effects.current_epoch() == epoch and not self.effects._computing:
            self._heard_cache = (epoch, got)
        return got

    def _heard_by(self, src: GameObject, d) -> frozenset:
        """The events an object in play, face up, may hear: its card's triggers and those of the codex
        entries it carries (its derived traits, its markers); kept with its derived value `d` (`d.heard`,
        which _heard reads first)."""
        by_key = self._entry_events()
        got = _card_heard.table.get(id(src.card))  # (its own table first: one dict get, not a call)
        got = set(got if got is not None else _card_heard(src.card))
        for key in d.traits:
            got.update(by_key.get(key, ()))
        for key, n in src.markers.items():
            if n:
                got.update(by_key.get(key, ()))
        got = d.heard = frozenset(got)
        return got

    def _entry_events(self) -> dict:
        """Codex entry name -> the events its triggered abilities listen for (from _codex_index)."""
        idx = self._codex_index()
        got = self._entry_event_map
        if got is None or got[0] is not idx:  # (the index is shared by the games of a corpus: so is this)
            got = self._entry_event_map = (idx, _entry_events(idx))
        return got[1]

    def _event_ok(self, src, inner, subject, ctx, info) -> bool:
        try:
            return self.event_matches(inner.event, src, subject, ctx, info)
        except Exception:
            return True  # run_trigger reports it

    def order_triggers(self, pending: list, event: str) -> list:
        """Simultaneous triggers: players in initiative order; each orders their own (a decision)."""
        out = []
        order = {p: i for i, p in enumerate(self.state.order)}
        by_player: dict = {}
        for item in pending:
            by_player.setdefault(item[0].controller, []).append(item)
        for player in sorted(by_player, key=lambda p: order.get(p, 99)):
            group = by_player[player]
            while len(group) > 1:
                ch = self.decide("order", player, [Option(f"{it[0].label()}", it) for it in group],
                                 prompt=f"which '{event}' ability resolves first?", default=0)
                out.append(ch.value)
                group = [g for g in group if g is not ch.value and g != ch.value]
            out.extend(group)
        return out

    def run_trigger(self, src, ab, inner, subject, ctx: Ctx, info: dict, x: Optional[int] = None,
                    label=None, bar: Optional[str] = None) -> bool:
        """Run one triggered ability if its event matches; `label` (a string, or a function making
        one) names it in the log; `bar` is the attack bar whose trait it is (its attack is the one made)."""
        try:
            if not self.event_matches(inner.event, src, subject, ctx, info):
                return False
        except Exception as e:  # a phrase the engine cannot read yet: say so, never skip silently
            self.unsupported.append(f"event {inner.event.name}")
            self.emit("unsupported", f"NOT IMPLEMENTED: cannot read the event of {src.label()}: {e}",
                      **secret_keywords(src, f"NOT IMPLEMENTED: cannot read the event of {src.public_label()}"))
            return False
        if callable(label):
            label = label()
        once_key = ("once", id(ab), self.state.round)
        if isinstance(ab, A.OncePerRound) and once_key in src.uses and not unlimited(self, src, self.rule_of(inner)):
            return False  # used this round (unless the object's card lifts the limit: unlimited_per_round)
        target = ctx.target
        if self.lingering and not src.in_play:  # a lingering spell's target is the one it was cast on
            target = addons.lingering.target_of(self, src) or target
        sub = Ctx(this=src, attack=ctx.attack, it=subject, target=target)
        sub.extra["ability"] = id(inner)
        if "would" in info:
            sub.extra["would"] = info["would"]
        if "rolled" in info:  # the roll behind the event, or None: no roll (rolled() == 0 does not hold)
            sub.extra["rolled"] = info["rolled"]
        if "amount" in info:  # amount(): the damage, healing or mana of the event
            sub.extra["amount"] = info["amount"]
        if "into" in info and ("zone" in info or "frm" in info):  # a move: crossed_border_with, push along
            sub.extra["crossing"] = (info.get("zone", info.get("frm")), info["into"])
        for key in ("mana_event", "healing_event"):  # what is happening, for redirect_mana, modify_healing
            if key in info:
                sub.extra[key] = info[key]
        if ctx.attack is None and info.get("by_obj") is not None:
            sub.extra["event_source"] = info["by_obj"]  # `source`: the object whose effect it is (healing...)
        if "had" in info:  # had(...): the traits the object had just before the event
            sub.extra["had"] = info["had"]
        if x is not None:
            sub.extra["x"] = x
        if label is not None:
            sub.extra["label"] = label
        if bar is not None:
            sub.extra["attack_bar"] = bar
        rule = self.rule_of(inner)
        if rule is not None:  # a codex rule's effects say which rule they come from (`except: NAME`)
            sub.extra["rule"] = rule
        try:
            if inner.guard is not None and not self.evaluate(inner.guard, sub):
                return False
        except Exception as e:
            self.unsupported.append(f"condition of {src.name}")
            self.emit("unsupported", f"NOT IMPLEMENTED: cannot evaluate the condition of {src.label()}: {e}",
                      **secret_keywords(src, f"NOT IMPLEMENTED: cannot evaluate the condition of "
                                               f"{src.public_label()}"))
            return False
        self.record_use(src, inner, ctx.attack, subject)
        text = f"{label or src.label()} triggers on {inner.event.name}({subject.label() if subject is not None else ''})"
        # a face-down card (the trigger's source, or a spell being cast face down) is named to its controller only
        secret = [o for o in (src, subject) if o is not None and getattr(o, "hidden", False) is True]
        public = None
        if secret:
            public = (f"{src.public_label() if src.hidden else (label or src.label())} triggers on {inner.event.name}"
                      f"({subject.public_label() if subject is not None else ''})")
            if len({o.controller for o in secret}) > 1:
                text, public = public, None  # hidden cards of two players: everyone reads the public line
        self.emit("trigger", text, secret_for=secret[0].controller if public is not None else None,
                  public_text=public)
        if isinstance(ab, A.OncePerRound):
            sub.extra["once"] = (src, once_key)
        self.run_effects(inner.effects, sub)
        if isinstance(ab, A.OncePerRound) and not sub.extra.get("deferred"):
            src.uses.add(once_key)
        if self.lingering and not src.in_play:
            addons.lingering.triggered(self, src)
        return True

    def record_use(self, src, ability, attack, subject) -> None:
        objs = {o.id for o in (subject, getattr(attack, "attacker", None), getattr(attack, "target", None),
                               getattr(attack, "defender", None)) if o is not None and hasattr(o, "id")}
        action = id(attack.action) if attack is not None else None
        self.uses.append((src.id, id(ability), self.state.round, action, frozenset(objs)))

    def times_used(self, src, ability_id, obj=None, during: str = "round", attack=None) -> int:
        n = 0
        for (sid, aid, rnd, action, objs) in self.uses:
            if sid != src.id or aid != ability_id:
                continue
            if during in ("attack_action", "attack") and (attack is None or action != id(attack.action)):
                continue
            if during not in ("attack_action", "attack", "game") and rnd != self.state.round:
                continue
            if obj is not None and obj.id not in objs:
                continue
            n += 1
        return n

    # steps whose defender is the new target once an attack is redirected (Intercept, Reverse Attack):
    # its traits change the dice and the effect roll; the damage barrier and counterstrike stay the
    # original defender's
    REDIRECTED_STEPS = ("roll_dice", "damage_and_effects")

    def event_matches(self, call: A.Call, src: GameObject, subject, ctx: Ctx, info: Optional[dict] = None) -> bool:
        """Does what happened (`subject`, `ctx`, the fire site's `info`) fit the event an ability names?
        Each argument is read by the role its parameter has (vocab.EVENT_PARAM_ROLES), through
        EVENT_ROLE_READERS and nothing else; an argument with no reader raises (run_trigger reports it),
        so no argument is ever passed over (the checker refuses such an argument first: E204)."""
        kept = self._EVENT_READS.get(id(call))
        if kept is None or kept[0] is not call:  # (the call is kept too: its id stays its own)
            roles = V.EVENT_PARAM_ROLES.get(call.name, {})
            reads = tuple((name, value, self.EVENT_ROLE_READERS.get(roles.get(name)))
                          for name, value in V.event_arguments(call).items())
            kept = self._EVENT_READS[id(call)] = (call, reads, [name for name, _, reader in reads if reader is None])
        if not kept[1]:
            return True
        if kept[2]:  # refused whatever the other arguments say
            raise PhraseError(f"{call.name}(): the engine does not match {', '.join(map(repr, kept[2]))} "
                              f"against the event")
        info = info or {}
        here = Ctx(this=src, attack=ctx.attack)
        for name, value, reader in kept[1]:
            if not reader(self, call.name, name, value, subject, ctx, here, info):
                return False
        return True

    #: per event call (by id, with the call): its arguments by parameter name with the reader of each,
    #: and the names of those no reader reads
    _EVENT_READS: dict = {}

    def _fits_object(self, obj, value, here: Ctx) -> bool:
        """Does an object of an event fit an object argument: a phrase (a destroyed object described
        as it was, one in play looked up), a call naming objects (`prey(this)`) or a quoted card name?"""
        if isinstance(value, A.Phrase):
            if not getattr(obj, "in_play", True):
                return matches(self, obj, value, here)
            return obj in resolve(self, value, here)
        if isinstance(value, A.Call):
            got = self.evaluate(value, here)
            return any(g is obj for g in (got if isinstance(got, (list, tuple)) else [got]))
        if isinstance(value, A.StringLit):
            return getattr(obj, "name", None) == value.value
        raise PhraseError(f"cannot match an object against {type(value).__name__}")

    def _ev_subject(self, event, name, value, subject, ctx, here, info) -> bool:
        """The object the event is about (the fire site's subject); an event without one is not narrowed."""
        return subject is None or self._fits_object(subject, value, here)

    def _ev_other(self, event, name, value, subject, ctx, here, info) -> bool:
        """The event's other object, where its fire site gives one (EVENT_OTHER_OBJECT)."""
        where = self.EVENT_OTHER_OBJECT.get(event)
        if where is None:
            raise PhraseError(f"{event}(): no other object is given where the event happens")
        if where == "it" and ctx.it is not None and ctx.it is not subject:
            obj = ctx.it
        elif where in ("it", "attack.target"):
            obj = getattr(ctx.attack, "target", None)
        else:
            obj = info.get(where)
        return obj is not None and self._fits_object(obj, value, here)

    def _ev_marker(self, event, name, value, subject, ctx, here, info) -> bool:
        """The condition or token the event is about (the fire site's `kind=`)."""
        kind = info.get(self.EVENT_ROLE_DETAIL["marker"])
        if kind is None:
            raise PhraseError(f"{event}(): the kind of marker is not given where the event happens")
        if isinstance(value, A.TraitGroup):
            return kind in {r.name.text for r in value.traits}
        if isinstance(value, A.Phrase):
            return value.text == kind
        raise PhraseError(f"{event}(): cannot read a marker kind from {type(value).__name__}")

    def _ev_attack_kind(self, event, name, value, subject, ctx, here, info) -> bool:
        """The kind of the attack behind the event (`damaged(..., kind: melee)`): none outside an attack."""
        words = [w.lower() for w in value.text.split()] if isinstance(value, A.Phrase) else \
            [value.value.lower()] if isinstance(value, A.StringLit) else None
        if words is None:
            raise PhraseError(f"{event}(): cannot read an attack kind from {type(value).__name__}")
        return ctx.attack is not None and any(w in ctx.attack.kinds() for w in words)

    def _ev_place(self, event, name, value, subject, ctx, here, info) -> bool:
        """The zone entered, left or moved into (the fire site's detail of the parameter's name), or
        the kind of change of zone (`how`)."""
        return movement.zone_matches(self, value, info.get(self.EVENT_ROLE_DETAIL.get(name, name)), here.this)

    def _ev_step(self, event, name, value, subject, ctx, here, info) -> bool:
        step = info.get(self.EVENT_ROLE_DETAIL["step"])
        if isinstance(value, A.StringLit):
            return value.value == step
        if isinstance(value, A.Phrase):
            return value.text.replace(" ", "_") == step
        raise PhraseError(f"{event}(): cannot read a step from {type(value).__name__}")

    def _ev_side(self, event, name, value, subject, ctx, here, info) -> bool:
        """`defending:` / `attacking:` of an attack step: the attack's defender (its new target once
        redirected, at the steps it rolls and lands against) or its attacker."""
        atk = ctx.attack
        if atk is None:
            return False
        if name == "attacking":
            who = atk.attacker
        else:
            who = atk.defender or atk.target
            if atk.redirected and info.get("step") in self.REDIRECTED_STEPS:
                who = atk.target  # an intercepted attack rolls and lands against its new target
        return who in resolve(self, value, here)

    def _ev_action(self, event, name, value, subject, ctx, here, info) -> bool:
        """The action declared: one of those an attack action or a move declares (`actions=`), else the
        one a spell's declaration names (the cast's `declared`)."""
        if isinstance(value, A.StringLit):
            act = value.value
        elif isinstance(value, A.Phrase):
            act = value.text.replace(" ", "_")
        else:
            raise PhraseError(f"{event}(): cannot read an action from {type(value).__name__}")
        if "actions" in info:
            return act in info["actions"]
        return act == getattr(ctx.attack, "declared", None)

    def _ev_roll(self, event, name, value, subject, ctx, here, info) -> bool:
        roll = info.get(self.EVENT_ROLE_DETAIL["roll"])
        if isinstance(value, A.StringLit):
            return value.value == roll
        if isinstance(value, A.Phrase):
            return value.text == roll
        raise PhraseError(f"{event}(): cannot read a roll from {type(value).__name__}")

    def _ev_source(self, event, name, value, subject, ctx, here, info) -> bool:
        """loses_mana(..., source: WHO): the object whose effect takes the mana."""
        return self._by_object(value, here.this, info.get(self.EVENT_ROLE_DETAIL["source"]))

    def _ev_cause(self, event, name, by, subject, ctx, here, info) -> bool:
        """`by:` an attack of a kind, an attack or spell named, the attacker (or the object whose weapon
        bar it is), or outside an attack the object whose effect it is; `destroyed(X, by: damage)`."""
        atk = ctx.attack
        if isinstance(by, A.Phrase) and by.text.lower() == "damage" and event == "destroyed":
            return bool(getattr(subject, "destroyed_by_damage", False))  # `destroyed(X, by: damage)`
        if atk is None:
            return self._by_object(by, here.this, info.get("by_obj"))
        if isinstance(by, A.StringLit):
            return by.value.lower() == "attack" or by.value.lower() == atk.action.definition.name.lower()
        if isinstance(by, A.Call):  # `by: the_attack()`: the attack being resolved, or objects
            got = self.evaluate(by, here)
            if got is atk:
                return True
            got = got if isinstance(got, (list, tuple)) else [got]
        elif isinstance(by, A.Phrase):
            kinds = atk.kinds()
            words = [w.lower() for w in by.text.split()]
            if any(w in ("melee", "ranged", "zone", "counterstrike", "barrier") for w in words):
                return any(w in kinds for w in words)
            got = resolve(self, by, here)
        else:
            raise PhraseError(f"{event}(): cannot read what the event is by from {type(by).__name__}")
        # an attack made with an object's own attack bar (a weapon) is by that object too:
        # the object is attached to the attacker (two Timber Wolves share one Bite bar)
        return atk.attacker in got or atk.source in got or any(
            o is not None and not isinstance(o, str) and o.attached_to == atk.attacker.id
            and any(a is atk.action.definition for a in o.card.attacks) for o in got)

    def _by_object(self, by, src: GameObject, obj: Optional[GameObject]) -> bool:
        """`by: PHRASE` of an event outside an attack: does the object whose effect caused the event
        fit the phrase?  A player phrase (`opponent`, `you`) names the Mage: the object fits when its
        controller is that Mage's."""
        if obj is None or not isinstance(by, A.Phrase):
            return False
        mage = self.state.mage_of(obj.controller)
        return any(got is obj or (mage is not None and got is mage)
                   for got in resolve(self, by, Ctx(this=src)))

    #: what Game.event_matches reads an argument with, by the role vocab.EVENT_PARAM_ROLES gives its
    #: parameter: the only way an event's argument is read (a role missing here is refused, loudly)
    EVENT_ROLE_READERS = {"subject": _ev_subject, "other": _ev_other, "marker": _ev_marker,
                          "attack_kind": _ev_attack_kind, "place": _ev_place, "how": _ev_place,
                          "step": _ev_step, "defending": _ev_side, "attacking": _ev_side,
                          "action": _ev_action, "roll": _ev_roll, "source": _ev_source, "cause": _ev_cause}
    #: the detail of the fire site (`fire(EVENT, ..., DETAIL=...)`) a role reads; `place` reads the detail
    #: named as its parameter (`zone=`, `into=`).  tests/engine/test_event_arguments.py checks the fire sites.
    EVENT_ROLE_DETAIL = {"marker": "kind", "how": "how", "step": "step", "roll": "what", "source": "by_obj"}
    #: where the event's other object is, as its fire sites give it: `it` (the Ctx's `it`, when it is not
    #: the subject: `fire("deals_damage", attacker, Ctx(it=target))`; an attack recorded for reveal rules
    #: gives none: its target then), `attack.target` (the target of the attack in the Ctx), or a detail
    #: passed to fire (`pushed=`, `who=`).  tests/engine/test_event_arguments.py checks the fire sites.
    EVENT_OTHER_OBJECT = {"deals_damage": "it", "attacks": "attack.target", "pushes": "pushed", "reveals": "who"}

    # ------------------------------------------------------------ abilities
    def run_effects(self, effects: Iterable, ctx: Ctx) -> None:
        for eff in effects:
            run_effect(self, eff, ctx)

    def evaluate(self, node, ctx: Ctx) -> Any:
        return evaluate(self, node, ctx)

    @staticmethod
    def stock_value(name: str) -> bool:
        """Is the value primitive `name` the package's own, not one an addon put in its place?  (Effects reads
        the guards `has(this, ...)` and `guarding(this)` directly only then: engine/effects.py _guard_read.)"""
        got = _VALUES.get(name)
        return got is not None and got is _STOCK_VALUES.get(name)

    # ------------------------------------------------------------ movement and phases
    def move_object(self, obj, zone, how="moves"):
        """Forwarding for older callers: a move action (`how="moves"`) or a teleport (engine/movement.py)."""
        if how == "moves":
            return movement.move(self, obj, zone)
        return movement.teleport(self, obj, zone)

    DIRECTIONS = movement.DIRECTIONS

    def push(self, obj, source_zone: Optional[str], chooser: str, direction: Optional[str] = None,
             why: str = "") -> None:
        movement.push(self, obj, source_zone, chooser, direction, why)

    def bash_definition(self, wall) -> Optional[AttackDefinition]:
        """The Bash attack, as the codex states it on a wall trait: `static bash_attack(DICE, [TRAITS])`.
        The wall's own traits are asked first; the arena's outer wall (no card traits) takes the entry
        that states it."""
        names = [t.key for t in wall.card.traits] + [n for n in self.codex if n not in wall.card.traits]
        for name in names:
            for ab in self.codex_statics(name, "bash_attack"):
                pos = [a.value for a in ab.effect.args if not a.key]
                dice = self.evaluate(pos[0], Ctx(this=wall)) if pos else 0
                group = pos[1] if len(pos) > 1 else None
                traits = tuple(trait_from_ref(r, self.codex) for r in group.traits) \
                    if isinstance(group, A.TraitGroup) else ()
                return AttackDefinition("Bash", None, None, ("bash",), None, None, dice, (), traits)
        return None

    def bash(self, obj, wall) -> None:
        movement.bash(self, obj, wall)

    def return_to_spellbook(self, obj: GameObject) -> None:
        """An object in play goes back to its owner's spellbook (Rules, Returning Spells to Your
        Spellbook: the owner's, even when another player controlled it)."""
        self.state.remove_from_play(obj, "spellbook")
        rs = getattr(self, "round_state", None)
        lib = rs.library.get(obj.owner) if rs is not None else None
        if lib is not None:
            lib[obj.card.name] += 1

    def run_attack(self, source, adef: AttackDefinition, targets: list, holds_while=None) -> None:
        """An attack made by an object outside an attack action it chose (a wall's passage attack, a
        Bash): the procedures that need one call this, so they need not import the attack engine.
        `holds_while`: the procedure's condition for the attack to go on (AttackAction.holds_while)."""
        action = AttackAction(source, adef, source, tuple(adef.traits), None)
        action.holds_while = holds_while
        self.attacks.run_action(action, targets)

    def move_attachment(self, obj, to) -> bool:
        if obj.attached_to is not None and not isinstance(to, str) and to is not None and to.id != obj.attached_to:
            why = forbids(self, "be moved to another object", obj, to)
            if why:
                self.emit("rule", f"{obj.public_label()} stays on its object: {why}", target=obj.id, rule=why.rule)
                return False
        if isinstance(to, str):
            self.state.attach(obj, None, zone=to)
        else:
            self.state.attach(obj, to)
        self.emit("effect", f"{obj.public_label()} is moved to {to if isinstance(to, str) else to.label()} "
                            f"and takes a new timestamp t{obj.timestamp}", target=obj.id)
        self.check_state()
        return True


    def end_action_phase(self, obj):
        """End of a creature's action phase (engine/round.py owns it)."""
        round_.end_action_phase(self, obj)

    def end_round(self):
        """End of the round (engine/round.py owns it)."""
        round_.end_round(self)

    # ------------------------------------------------------------ views
    def view(self, viewer: Optional[str] = None) -> dict:
        """The final state as a dict.  A player other than the controller never sees a hidden name."""
        out = {"round": self.state.round, "players": {}, "objects": {}}
        for p in self.state.players.values():
            out["players"][p.name] = {"mana": p.mana}
        for o in self.state.objects.values():
            secret = o.hidden and viewer is not None and viewer != o.controller
            d = self.effects.derived(o) if o.in_play else None
            rec = {"card": "hidden enchantment" if secret else o.name, "controller": o.controller,
                   "owner": o.owner, "in_play": o.in_play}
            if o.zone:
                rec["zone"] = o.zone
            if o.attached_to:
                rec["attached_to"] = o.attached_to
            if o.attached_zone:
                rec["attached_zone"] = o.attached_zone
            if o.kind == "enchantment":
                rec["hidden"] = o.hidden
            if not secret:
                if o.damage:
                    rec["damage"] = o.damage
                if o.markers:
                    rec["markers"] = dict(o.markers)
                if o.guard:
                    rec["guard"] = True
                if d is not None and o.card.life is not None:
                    rec["life"] = d.life
                    rec["armor"] = d.armor
                if d is not None and d.traits:
                    rec["traits"] = d.trait_names()
            out["objects"][o.id] = rec
        return out


_WITHOUT_ABILITIES: dict = {}


def _without_abilities(card: CardDefinition) -> CardDefinition:
    """The card as an object that lost its abilities reads it: no attack bars, no abilities but the statics
    that set X (KEPT_ABILITIES).  One copy per card definition."""
    hit = _WITHOUT_ABILITIES.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    kept = tuple(ab for ab in card.abilities if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call)
                 and ab.effect.name in KEPT_ABILITIES)
    got = dataclasses.replace(card, abilities=kept, attacks=())
    if len(_WITHOUT_ABILITIES) > 1000:
        _WITHOUT_ABILITIES.clear()
    _WITHOUT_ABILITIES[id(card)] = (card, got)
    return got
