"""What the engine implements: the one place coverage, lint and docs ask "does this run?".

Everything here is read from the engine's own tables where a table exists
(effects: `primitives.PRIMITIVES`; values: `primitives.VALUES`; static calls the
continuous-effects layer applies: `effects.Effects.STATIC_CALLS`).  Where the
engine has no table yet, the fact is written out once below, next to the code it
mirrors, and a test compares it with the engine source (`FIRED_EVENTS` against
every `fire("...")`, `REVEAL_EVENTS` against every `atk.events.add(("...", ...))`,
`BAR_STATIC_CALLS` against every `bar_mods(atk, "...")`).

Nothing in the engine imports this module: it sits on top of the engine, so the
import graph stays acyclic.

Each construct of the language is in one of three states when the engine meets it:

* **runs** — it is implemented;
* **refused loudly** — the engine does not implement it and says so at run time with an
  ``unsupported`` event (an effect call missing from PRIMITIVES, a value missing from VALUES,
  a static call missing from STATIC_CALLS...);
* **dropped silently** — the engine never looks at it and says nothing (an event it never
  fires, an ``at <phase>`` timing, an ``action`` ability, a clause inside an attack bar...).

:func:`static_call_status` and the ``SILENT_*`` / ``LOUD_*`` tables below say which.
"""
from __future__ import annotations

from typing import Optional

from ..dsl import ast as A
from ..dsl import vocab
from .attack import STEPS as _ATTACK_STEPS
from . import barclauses as _bar
from . import defenses as _defenses
from .casting import CAST_STEPS as _CAST_STEPS
from . import movement as _movement
from .codex_rules import LOS_WALLS, MINIMUM_RANGE
from .effects import Effects, attached_subject as _attached_subject
from .attack import ATTACKS_UNANSWERED as _ATTACKS_UNANSWERED
from .primitives import PRIMITIVES, TOKENS_ON_ZONE as _TOKENS_ON_ZONE, VALUES as _VALUE_TABLE, names_zone as _names_zone
from . import addons as _addons  # noqa: F401  adds its modules' effects and values to those tables
from . import forced_reveals as _forced
from . import phrases as _phrases
from . import staterules as _staterules
from . import manasupply as _mana
from .round import DURATIONS_ENDED, ROUND_PHASES, TIMINGS_RUN as _ROUND_TIMINGS
from .spellstatics import CAST_LIMIT as _CAST_LIMIT, CAST_STATIC_CALLS as _CAST_STATICS, COSTS
from .othercasters import refused_shape as _casting_refused
from .placement import ONLY_READ as _COST_ONLY
from .reveal import own_reveal_cost as _own_reveal_cost
from .healtrade import HEALING_REMOVES as _HEALING_REMOVES
from .game import Game as _Game, LOSES_ABILITIES as _LOSES, MAX_PLACED as _MAX_PLACED, OUTLASTS_OWN_ACTIVATION as _OUTLASTS, SHARED_WITH_PLACER as _SHARED
from ..spellbook.rules import RULE_CALLS as _SPELLBOOK_RULE_CALLS
from .restrictions import ACTIONS as _RESTRICTION_ACTIONS, bar_restriction_runs, grantable, ignore_honoured, \
    imposable, in_foreach_runs, is_obligation, is_permission, is_restriction

# ---------------------------------------------------------------- derived from engine tables

def codex_costs_runs(call: A.Call) -> bool:
    """A codex entry's `static costs(...)` runs when it changes the reveal cost of the enchantment that
    carries the entry (engine/reveal.py Reveals.trait_changes); no other codex cost change is read."""
    return _own_reveal_cost(call)


#: effect calls `run_effect` executes (anything else in an effect list is refused loudly)
EFFECTS: frozenset[str] = frozenset(PRIMITIVES)
#: value functions and predicates `evaluate` answers (anything else is refused loudly)
VALUES: frozenset[str] = frozenset(_VALUE_TABLE)
#: `static CALL(...)` forms the continuous-effects layer applies
STATIC_CALLS: frozenset[str] = frozenset(Effects.STATIC_CALLS)
#: `static CALL(...)` forms the continuous-effects layer skips without a word
STATIC_SKIPPED: frozenset[str] = frozenset(getattr(Effects, "IGNORED_STATIC", ()))
#: `static CALL(...)` forms the casting sequence reads (engine/spellstatics.py: restrictions, copy
#: limits, zone limits, cost changes)
CAST_STATIC_CALLS: frozenset[str] = frozenset(_CAST_STATICS)
#: `once per round static CALL(...)` forms the engine runs: a once-per-round cost change is applied to
#: the first fitting spell or reveal of each round (placement.cost_changes counts its uses per round)
ONCE_STATIC_CALLS: frozenset[str] = frozenset({COSTS})
#: `static CALL(...)` forms the spellbook validator evaluates (magewars/spellbook/rules.py RULE_CALLS):
#: they state spellbook building, which runs whenever a book is checked
SPELLBOOK_STATIC_CALLS: frozenset[str] = frozenset(_SPELLBOOK_RULE_CALLS)
#: `static CALL(...)` forms read where their value is used (set_x: Game.x_value, Game.static_x)
STATIC_READ: frozenset[str] = frozenset(Effects.READ_STATIC)
#: effect nodes (other than calls) the continuous-effects layer applies, as statics and as
#: effects "until end of ..." created by resolving abilities
STATIC_NODES: tuple[type, ...] = (A.Gain, A.Lose, A.StatChange)

# ---------------------------------------------------------------- written out, checked against the source
#: every event name the engine fires (`Game.fire("<name>", ...)` in magewars/engine/*.py);
#: tests/test_coverage.py greps the engine source and fails when this drifts
FIRED_EVENTS: tuple[str, ...] = (
    "action_ends", "activated", "attack_resolved", "attack_step", "attacked", "attacks", "avoided", "cast",
    "casting", "condition_damage", "condition_placed", "condition_removed", "counterstrike", "damaged",
    "deals_damage", "declares", "destroyed", "discarded", "enters", "guards", "healed", "hit", "intercepts",
    "leaves", "loses_mana", "moves", "pushes", "reveals", "rolls", "targeted", "token_removed", "would_be_destroyed",
)
#: events the engine runs without `fire`: a `when revealed` ability resolves when its enchantment
#: is revealed (engine/reveal.py, `Reveals.reveal`)
HANDLED_EVENTS: tuple[str, ...] = ("revealed",)
#: events a `reveal ... on EVENT` rule can match: those an attack records on itself
#: (`atk.events.add(("<name>", ...))` in engine/attack.py), those a spell being cast records on itself
#: (engine/casting.py: `declares` a spell, `casting`, `targeted`) and `reveals` (a counter-reveal,
#: engine/reveal.py `Reveals.can_counter`)
REVEAL_EVENTS: tuple[str, ...] = ("attacked", "casting", "damaged", "deals_damage", "declares", "hit", "reveals",
                                   "targeted")
#: steps a `reveal must ... after STEP` rule is checked at: a reveal window follows every step of the
#: attack sequence (AttackEngine.step), of the casting sequence and of the move sequence (movement.after_step);
#: a rule naming no step is checked at every window
REVEAL_AFTER_STEPS: frozenset[str] = frozenset(_ATTACK_STEPS) | frozenset(_CAST_STEPS) | frozenset(_movement.MOVE_STEPS)
#: steps a `reveal must ... during STEP` rule is checked at (AvoidAttack.run, the Counter Spell step, and
#: Damage and Effects once damage is dealt: DamageAndEffects.damage; each step of the move sequence, once its
#: work is done: movement.after_step); `before` is never checked
REVEAL_DURING_STEPS: frozenset[str] = frozenset({"avoid_attack", "counter_spell_step", "damage_and_effects"}) \
    | frozenset(_movement.MOVE_STEPS)
#: card kinds whose own `effect:` runs: an incantation when cast (AttackEngine.cast_spell), an
#: enchantment when revealed (Reveals.reveal); an attack spell's `effect:` outside its bar is never run
ONE_SHOT_KINDS: frozenset[str] = frozenset({"incantation", "enchantment"})
#: kinds of card that go to the discard pile as soon as they resolve: a `when`/`at` ability printed on
#: one can only hear what happens while it is being cast (these events); anything later is never heard.
#: (An attack spell is there while its attack runs, so its abilities hear the attack's events.)
SPENT_KINDS: frozenset[str] = frozenset({"incantation"})
SPENT_EVENTS: frozenset[str] = frozenset({"casting", "cast", "targeted"})
#: ...unless its effect states `linger(...)`: its triggered abilities keep listening after it resolves
#: (engine/lingering.py; Game._listening asks it), `target` naming the object it was cast on
lingers = _addons.lingering.lingers
#: static calls written inside an attack bar that the attack sequence reads
#: (`AttackEngine.bar_mods(atk, "<name>")` in engine/attack.py); every other clause of an attack bar
#: (its `effect:`, its triggers, other statics) is never looked at
BAR_STATIC_CALLS: tuple[str, ...] = ("modify_dice", "modify_effect_roll")
#: the other clauses of an attack bar the attack sequence runs (engine/barclauses.py): its triggers
#: for the events fired about the attack (Game.attack_listeners), its `effect:` (Damage and Effects,
#: in place of damage or after it) and the statics it reads when an attack is made
BAR_EVENTS: frozenset[str] = _bar.BAR_EVENTS
BAR_EFFECTS_RUN: bool = True
bar_static_runs = _bar.static_runs
#: an attack trait's `effect:` in the codex is what an attack with that trait does to its target in
#: Damage and Effects instead of damage (engine/barclauses.py effects)
ATTACK_TRAIT_EFFECTS_RUN: bool = True
#: `static [if C] may CALL(...)` forms the Avoid Attack step reads (engine/defenses.py): a bonus to a
#: defense roll its controller always takes
DEFENSE_OPTIONAL_STATICS = _defenses.static_runs
#: `at <timing>` abilities the engine runs: those the phases of the round's step table run
#: (engine/round.py ROUND_PHASES), for printed abilities and for the codex entries objects carry
TIMINGS_RUN: frozenset[str] = _ROUND_TIMINGS
#: the phases of the round, in order (their rulebook names)
PHASES: tuple[str, ...] = tuple(p.name for p in ROUND_PHASES)
#: `action ...:` abilities are offered to an activating creature (engine/actions.py ability_options:
#: its own, and those of what is attached to it) and run through the effects they state
ACTIONS_RUN: bool = True
#: a trait's codex entry's `action ...:` abilities are offered to an activating creature that has the trait
#: (engine/activation.py ability_options, AbilityChoice.entry) and run like a card's (Climbing)
CODEX_TRAIT_ACTIONS_RUN: bool = True
#: durations that end (engine/round.py `expire`: at the end of the round, of each phase, of each
#: creature's action phase); an effect lasting until the end of any other duration never ends
DURATIONS_END: frozenset[str] = DURATIONS_ENDED | {"attack", "attack_action"}  # AttackEnds; the action's end
#: stats a `gets STAT +N` change is applied to (effects.Effects._compute); any other stat is skipped
STATS_CHANGED: frozenset[str] = frozenset({"armor", "life", "channeling"})
#: which clauses of a codex entry the engine runs, and for which holder:
#: - triggers (`when EVENT`) of every trait an object has, every condition or token on it, and every
#:   trait of the attack being resolved (Game.fire: carried_listeners, attack_listeners), when the
#:   engine fires that event;
#: - a marker's `static` gain, lose or stat change about the marked object (`this`/`it`, once per
#:   marker: Effects.collect); a trait's `static this gains/loses [...]` and
#:   `static for each <Name> token on this: ...` (Effects._codex_static, until nothing new comes);
#: - a trait's `static immune(this, ...)`, `cannot(this, "ACTION")`, `can(this, "ACTION")` for the
#:   actions the engine consults (CODEX_CANNOT_READ, CODEX_CAN_READ);
#: - a condition's `immune(PHRASE, [itself])`, `counts_as_damage(N)`, `armor_floor()`, `healing_removes()`,
#:   `max_markers(N)`, `outlasts_own_activation()`, `shared_with_placer()` (Game.held: Effects.collect and the
#:   restriction query read its statics for the placer too), `max_placed(N)` and `loses_abilities()`
#:   (Game._sync_abilities: the object is read as its card without attack bars and abilities)
#:   (Game.immune_to_condition, Game.marker_damage, Game.lowers_armor), and an attack trait's shape
#:   statics (AttackEngine.shape_one).
#: - a codex entry's `at TIMING` abilities, for each object carrying it, when a phase runs that timing
#:   (engine/round.py timed_abilities).
CODEX_STATIC_SUBJECTS: frozenset[str] = frozenset({"this", "it"})
#: a trait's `static each KIND attached to this gains [...]`: what is attached to the carrier gains those
#: traits (Effects.collect, read when the attachment's derived values are worked out)
codex_attached_gain = _attached_subject
CODEX_MARKERS: frozenset[str] = frozenset({"condition", "token"})
#: a codex entry that is no marker (`marker none`) and states an `effect:` is what an effect die naming
#: it does (Push, Snatch): Game.place_condition runs it (movement.run_outcome) instead of placing markers
CODEX_OUTCOME_EFFECTS: bool = True
CODEX_OUTCOME_MARKER: str = _movement.OUTCOME_MARKER
CODEX_CANNOT_READ: frozenset[str] = frozenset({"heal", "gain life", "use_defense", "attack", "counterstrike", "force attacks"}) \
    | _movement.CANNOT_READ
CODEX_CAN_READ: frozenset[str] = frozenset({"ignore guards"}) | _movement.CAN_READ
#: movement (engine/movement.py) reads, from the codex entries an object carries and from its card:
#: `ignore(this, RULE[, against: ...])`, `immune(this, "hinder")`, `hinder(this)`, `block_los(this)`,
#: a wall's `cannot(PHRASE, "move through")`; from cards in play, `static hinder(PHRASE)`
CODEX_IGNORE_READ: frozenset[str] = _movement.IGNORE_READ
CODEX_IMMUNE_STRINGS_READ: frozenset[str] = _movement.IMMUNE_READ | {_addons.removal.IMMUNE_TO_REMOVAL}
#: a condition's `static set_x(VALUE)`: what X is in its `removal X`, about the marked object
#: (engine/removal.py removal_cost)
CODEX_MARKER_X_CALLS: frozenset[str] = frozenset({_addons.removal.SET_X})
#: a condition's `static gain_subtypes(this, Name...)`: its carrier has those subtypes while marked
#: (phrases.has_name)
CODEX_MARKER_SUBTYPE_CALLS: frozenset[str] = frozenset({_phrases.GAIN_SUBTYPES})
MOVEMENT_STATIC_CALLS: frozenset[str] = _movement.STATIC_CALLS_READ
MOVEMENT_CANNOT_ANY_SUBJECT: frozenset[str] = frozenset({_movement.CANNOT_MOVE_THROUGH})
#: static calls of an attack bar read by the effects of its attack (a push's direction)
BAR_STATICS_READ_BY_EFFECTS: tuple[str, ...] = _movement.BAR_STATIC_CALLS


def passage_bar_static_runs(call: A.Call, adef) -> bool:
    """A static of a passage attack bar read by the move sequence's Walls step (`one_way(this)`:
    engine/movement.py walls); in any other bar it is read by nothing."""
    return call.name in _movement.PASSAGE_BAR_STATICS and adef is not None and "passage" in adef.special
#: static calls of an attack bar read when the attack is offered (engine/castlimit.py: a per-round
#: limit on a spell attack, checked by activation.attack_options)
BAR_STATICS_READ_BY_ACTIONS: tuple[str, ...] = (_CAST_LIMIT,)
CODEX_ATTACK_SHAPE: frozenset[str] = frozenset({"attack_strikes", "attack_targets", "attack_zone",
                                                "attack_unavoidable", "attack_gains", "attack_usable_in"})
CODEX_CONDITION_CALLS: frozenset[str] = frozenset({"counts_as_damage", "immune", "armor_floor", _HEALING_REMOVES,
                                                   "max_markers", _OUTLASTS, _SHARED, _MAX_PLACED,
                                                   _LOSES})  # Game.place_condition
#: a trait's statics about objects in general, read by the continuous-effects layer: `innate(PHRASE,
#: unless: [...])` (Effects.innate_rules: the names objects have by nature) and `no_armor(this)`
#: (Effects._codex_call), `bash_attack(DICE, [TRAITS])` (Game.bash_definition)
CODEX_TRAIT_CALLS: frozenset[str] = frozenset({"innate", "no_armor", "bash_attack", "remove_guard",
                                               _ATTACKS_UNANSWERED, "rolls_alone"})
#: (`attacks_unanswered()`: the object's attacks meet no counterstrike or damage barrier and remove no guard
#: marker, AttackEngine.unanswered)
#: (`remove_guard(this)`: a creature with the trait loses its guard marker, Game.check_state;
#: `rolls_alone(this)`: the Defense an object with the trait gives takes none of its bearer's roll
#: modifiers, defenses.rolls_alone)
#: attack legality a trait states with `target:` (engine/codex_rules.py): `cannot(SUBJECT, "melee_attack",
#: target: PHRASE)` on an object's trait, `can(attacker, "melee_attack", target: PHRASE)` on an attack
#: trait, `can(SUBJECT, "ranged_attack", target: PHRASE, ignoring: "minimum_range")` on either side
CODEX_ATTACK_CANNOT: frozenset[str] = frozenset({"melee_attack"})
CODEX_ATTACK_CAN: frozenset[str] = frozenset({"melee_attack"})
CODEX_RANGED_IGNORING: frozenset[str] = frozenset({MINIMUM_RANGE})
#: rules an attack trait's `ignore(attacker, RULE)` lifts for the attack it is on, or for the attacker that has
#: it (engine/codex_rules.py ignores_los_walls, read by AttackEngine.los_reason: Indirect)
CODEX_ATTACK_IGNORE_READ: frozenset[str] = frozenset({LOS_WALLS})
#: pronouns a static `immune(...)` may start with; immunity granted to other objects is refused loudly,
#: except `immune(PHRASE, this)`: objects fitting the phrase are immune to this card (its attacks cannot
#: target them, its effects and statics skip them: Game.immune_to_source)
STATIC_IMMUNE_SUBJECTS: frozenset[str] = frozenset({"this", "enchanted", "attached", "bearer"})
#: `static cannot(WHO, "ACTION", ...)` restrictions (and `cannot_reveal`, a codex entry's `prevent_damage()`)
#: read when the engine acts: engine/restrictions.py `forbids`, asked at the hook points its HOOKS table
#: names (casting, reveals, attacks, guard, defenses, destruction, damage, regeneration), with target:,
#: by:, except:, attack:, during:, into:, out_of:
RESTRICTION_ACTIONS: frozenset[str] = _RESTRICTION_ACTIONS


def effect_call_runs(call: A.Call) -> bool:
    """An effect call runs when the engine implements it; `cannot(...)` as an effect only for an action
    some procedure asks the restriction query about (engine/restrictions.py imposable)."""
    return call.name in EFFECTS and (call.name != "cannot" or imposable(call)) and (call.name != "can" or grantable(call))


def restriction_runs(call: A.Call, codex: bool = False) -> bool:
    """A `cannot(...)`/`can(...)` statement the general query (engine/restrictions.py) applies."""
    return is_restriction(call, codex=codex) or is_permission(call) or is_obligation(call)
#: the action a static `cannot(..., detail: KIND)` is applied for by the continuous-effects layer;
#: every other restriction is refused loudly
STATIC_CANNOT_ACTIONS: frozenset[str] = frozenset({"be_attacked"})

RUNS, LOUD, SILENT = "runs", "refused loudly", "dropped silently"


def effect_status(name: str) -> str:
    return RUNS if name in EFFECTS else LOUD


def effect_refused(call: A.Call) -> Optional[str]:
    """Why an effect the engine implements is refused loudly as written (a casting effect in a shape
    engine/othercasters.py does not run: a free cast, a summon of something not given), or None."""
    if call.name in ("place_tokens", "remove_tokens") and call.args and _names_zone(call.args[0].value):
        return _TOKENS_ON_ZONE
    return _casting_refused(call) if call.name in ("cast_spell", "summon") else None


def value_status(name: str) -> str:
    return RUNS if name in VALUES else LOUD


#: what an event's arguments are compared with: the roles Game.event_matches has a reader for
#: (Game.EVENT_ROLE_READERS), the events whose fire sites give an other object (Game.EVENT_OTHER_OBJECT)
EVENT_ROLES_READ: frozenset[str] = frozenset(_Game.EVENT_ROLE_READERS)
EVENTS_WITH_OTHER_OBJECT: frozenset[str] = frozenset(_Game.EVENT_OTHER_OBJECT)


def event_params_read(name: str) -> frozenset[str]:
    """The parameters of an event the engine compares with what happened (vocab.EVENT_PARAM_ROLES, for
    the roles it reads); an argument for any other parameter is refused by the checker (E204)."""
    roles = vocab.EVENT_PARAM_ROLES.get(name, {})
    return frozenset(p for p, r in roles.items()
                     if r in EVENT_ROLES_READ and (r != "other" or name in EVENTS_WITH_OTHER_OBJECT))


def event_status(name: str) -> str:
    """A `when EVENT` ability of a card: it runs when the engine fires (or handles) the event."""
    return RUNS if name in FIRED_EVENTS or name in HANDLED_EVENTS else SILENT


def must_status(call: A.Call) -> str:
    """A codex entry's `static must(this, "ACTION", target: PHRASE)`."""
    return RUNS if is_obligation(call) else LOUD  # read by engine/restrictions.py obligations_on
#: events a `reveal must on EVENT(...)` rule is checked for during the move sequence (movement.entering_zone)
MOVEMENT_REVEAL_EVENTS: tuple[str, ...] = _movement.REVEAL_ON + _forced.EVENTS  # and engine/forced_reveals.py


#: actions a `declares(WHO, "ACTION")` event is fired for: the attack sequence declares attacks
#: (DeclareAttack.run), a move action declares "move" (movement.move); a spell's declaration is not fired
DECLARED_ACTIONS: frozenset[str] = frozenset({"attack", "melee_attack", "ranged_attack", _movement.MOVE_ACTION})


def trigger_status(event: A.Call) -> str:
    """Like event_status, for the whole event call: a declaration of an action nothing declares yet
    is never fired."""
    if event.name == "declares":
        act = event.args[1].value if len(event.args) > 1 else None
        if not (isinstance(act, A.StringLit) and act.value in DECLARED_ACTIONS):
            return SILENT
    return event_status(event.name)


def reveal_event_status(name: str) -> str:
    return RUNS if name in REVEAL_EVENTS or name in MOVEMENT_REVEAL_EVENTS else SILENT


def timing_status(name: str) -> str:
    return RUNS if name in TIMINGS_RUN else SILENT


def reveal_step_status(rel: Optional[str], step: Optional[str]) -> str:
    if step is None:
        return RUNS
    if (rel or "during") == "after":
        return RUNS if step in REVEAL_AFTER_STEPS else SILENT
    if (rel or "during") == "during":
        return RUNS if step in REVEAL_DURING_STEPS else SILENT
    return SILENT


def _first_word(v) -> Optional[str]:
    if isinstance(v, A.Phrase) and v.words:
        return v.words[0].text.lower()
    return None


def static_call_status(call: A.Call, codex: Optional[dict] = None, card=None) -> tuple[str, str]:
    """How the continuous-effects layer treats `static CALL(...)` on a card: (status, why).  `codex`: the
    entries an `ignore(WHO, [ENTRIES])` names are looked up there; `card`: the card stating it (its attack
    bars, for `immune(PHRASE, "BAR")`)."""
    if card is not None and _bar.bar_immunity(call, card):
        return RUNS, ""  # objects immune to one of the card's attack bars (barclauses.immune_to_bar)
    if _phrases.not_counted_runs(call):
        return RUNS, ""  # read by the phrase layer's adjacency (phrases.not_counted)
    if _mana.spend_only_runs(call):
        return RUNS, ""  # what the mana kept on the object may pay for (manasupply.spendable)
    if _movement.reads_static(call) or _defenses.static_runs(call) or restriction_runs(call) \
            or (codex is not None and ignore_honoured(call, codex)):  # defenses: read in Avoid Attack
        return RUNS, ""
    if call.name in SPELLBOOK_STATIC_CALLS or call.name in CAST_STATIC_CALLS:
        kw = {a.key: a.value for a in call.args if a.key}
        only = kw.get("only")
        computed = call.name == "cast_only" and not all(
            isinstance(a.value, A.Phrase) or (isinstance(a.value, A.Call) and a.value.name == "bound_spell")
            for a in call.args if not a.key)  # a bound spell is read (placement.restrictions)
        into_read = call.name == COSTS  # a cost change for spells cast into a place (placement.cost_changes)
        # `school_of:` a value (glyph_schools(this)): the schools a caster may cast (placement.restrictions)
        school_read = call.name == "cast_only" and isinstance(kw.get("school_of"), A.Call) \
            and kw["school_of"].name in VALUES
        if computed or ("into" in kw and not into_read) or ("school_of" in kw and not school_read) or \
                (only is not None and getattr(only, "value", None) not in _COST_ONLY):
            return LOUD, f"static {call.name}(...) with `into:` (other than a cost change's), `school_of:` (other than a value) or " \
                         f"`only:` other than a reveal or upkeep cost is not applied (reported at run time)"
        return RUNS, ""
    if call.name in STATIC_SKIPPED:
        return SILENT, f"static {call.name}(...) is skipped by the continuous-effects layer"
    if call.name in STATIC_READ:
        return RUNS, ""
    if call.name not in STATIC_CALLS:
        return LOUD, f"static {call.name}(...) is not applied (reported at run time)"
    first = call.args[0].value if call.args else None
    if not isinstance(first, A.Phrase):
        return SILENT, f"static {call.name}(...) whose first argument is not a phrase is skipped"
    second = call.args[1].value if len(call.args) > 1 else None
    if call.name == "immune" and isinstance(second, A.Phrase) and _first_word(second) == "this" \
            and len(second.words) == 1:
        return RUNS, ""  # objects immune to this card (Game.immune_to_source)
    if call.name == "immune" and _first_word(first) not in STATIC_IMMUNE_SUBJECTS:
        return LOUD, "static immune(...) of other objects is not applied (reported at run time)"
    if call.name == "cannot" and is_restriction(call):
        return RUNS, ""  # read when the engine is about to act (restrictions.forbidden)
    if call.name == "cannot":
        act = call.args[1].value if len(call.args) > 1 else None
        if not (isinstance(act, A.StringLit) and act.value in STATIC_CANNOT_ACTIONS):
            return LOUD, "static cannot(...) other than being attacked is not applied (reported at run time)"
    return RUNS, ""


#: what a card's `static for each ...:` body may hold for the continuous-effects layer to apply it
#: (Effects._static_foreach): gains, loses and stat changes, the calls in Effects.FOREACH_CALLS,
#: and `if ... then ... else ...` around them; anything else is refused loudly at run time
STATIC_FOREACH_CALLS: frozenset[str] = frozenset(Effects.FOREACH_CALLS)


def static_foreach_status(eff: A.ForEach) -> tuple[str, str]:
    """How the continuous-effects layer treats a card's `static for each ...: BODY`."""
    def bad(body) -> Optional[str]:
        for node in body:
            if isinstance(node, A.IfEffect):
                got = bad(node.then) or bad(node.otherwise or ())
                if got:
                    return got
            elif isinstance(node, STATIC_NODES):
                continue
            elif isinstance(node, A.Call) and node.name in STATIC_FOREACH_CALLS and node.args \
                    and isinstance(node.args[0].value, A.Phrase):
                continue
            elif isinstance(node, A.Call) and in_foreach_runs(node):
                continue  # a restriction or obligation about `it`, read by engine/restrictions.py
            else:
                return node.name if isinstance(node, A.Call) else type(node).__name__
        return None
    if _staterules.reads(eff):
        return RUNS, ""  # a state rule: tokens removed when a condition holds (Game.check_state)
    what = bad(eff.body)
    if what:
        return LOUD, f"{what} in a static for each is not applied (reported at run time)"
    return RUNS, ""


def summary() -> dict:
    """Counts of the vocabulary the engine runs, for reports and docs."""
    return {
        "effects": (len(EFFECTS & set(vocab.EFFECT_FUNCS)), len(vocab.EFFECT_FUNCS)),
        "values": (len(VALUES & set(vocab.VALUE_FUNCS)), len(vocab.VALUE_FUNCS)),
        "events": (len((set(FIRED_EVENTS) | set(HANDLED_EVENTS)) & set(vocab.EVENT_FUNCS)), len(vocab.EVENT_FUNCS)),
        "timings": (len(TIMINGS_RUN & set(vocab.TIMING_FUNCS)), len(vocab.TIMING_FUNCS)),
    }
