"""The vocabulary abilities may call: effects, value functions, events, timings, steps.

Each entry is a general game primitive named after the game's own term.  The
engine implements effects under exactly these names (magewars/engine), the
checker validates every call against these signatures, and docs/dsl.md lists
them.  To add a primitive, add one line to the right table: a signature and a
short description in our own words.  Never add a card-specific primitive.

Signature syntax:  name(param: kind, opt?: kind, *rest: kind)
Kinds:
  obj     a phrase ("target Living creature", "this") or a call returning obj
  num     a number, X, a signed number, arithmetic, or a call returning num
  traits  a bracketed group of traits or conditions: [Burn], [Melee +2, Flying]
  name    a phrase of one Capitalised name (a damage type, school, subtype...)
  str     a quoted string
  step    a phrase or bare word naming a step or phase
  any     anything
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# ---------------------------------------------------------------- effects
EFFECTS = """
destroy(what: obj)                               Destroy an object; it goes to its owner's discard pile.
discard(what: obj)                               Discard an object (not destroyed: no destroy triggers).
damage(what: obj, amount: num, type?: name)      Deal damage that is not an attack; armor does not reduce it.
direct_damage(what: obj, amount: num)            Deal direct damage (ignores armor, cannot be avoided).
heal(what: obj, amount: num)                     Remove up to this much damage from a Living object.
reconstruct(what: obj, amount: num)              Remove damage from a Nonliving object.
regain_life(what: obj, amount: num)              Alias kept for healing mages beyond damage bookkeeping.
place(what: obj, markers: traits, count?: num)   Place condition markers or tokens on an object.
remove(what: obj, markers: traits, count?: num)  Remove condition markers or tokens from an object.
remove_all(what: obj, kind?: any)                Remove every condition (or every marker of a kind) from an object.
push(what: obj, distance?: num, direction?: any) Push an object into an adjacent zone (the pusher chooses unless stated).
move(what: obj, distance?: num, to?: obj)        Move an object as a move action would.
teleport(what: obj, to: obj)                     Teleport an object to a zone; not a move, ignores walls.
swap(first: obj, second: obj)                    Exchange the zones of two objects.
attach(what: obj, to: obj)                       Attach an enchantment or conjuration to an object.
move_enchantment(what: obj, to: obj)             Move an attached enchantment to a new legal object; it gets a new timestamp.
reveal(what: obj)                                Reveal a hidden enchantment (paying its reveal cost unless stated).
flip_hidden(what: obj)                           Turn a revealed enchantment face down again.
look_at(what: obj)                               The controller looks at a hidden card and leaves it hidden.
make_attack(attacker: obj, target?: obj, attack?: str) The object makes an attack outside the normal action sequence.
attack_each(targets: obj, attack?: str)          Make the named attack against each object of a set, in the attacker's order.
avoid_attack()                                   The current attack is avoided.
cancel_attack()                                  The current attack is canceled: it ends at once with no further steps.
count_as_defense()                               This effect counts as a defense for defense-counting rules.
redirect_attack(to: obj)                         The current attack's target becomes another object.
reroll(what: any, count?: num)                   Reroll dice (attack dice or the effect die) once.
modify_dice(amount: num)                         Add or remove attack dice for the current attack.
modify_effect_roll(amount: num)                  Add to the effect die roll of the current attack.
modify_damage(amount: num)                       Change the damage of the current attack before armor.
prevent_damage(amount?: num)                     Prevent damage that would be dealt (all if no amount).
gain_mana(who: obj, amount: num)                 Add mana to a player's supply.
pay_mana(who: obj, amount: num)                  A player pays mana from their supply.
drain_mana(who: obj, amount: num)                Remove mana from a player's supply (and optionally give it to another).
transfer_mana(from: obj, to: obj, amount: num)   Move mana between supplies or objects.
place_tokens(what: obj, token: name, count?: num) Place tokens (mana, charge, rage, dissipate...) on an object.
remove_tokens(what: obj, token: name, count?: num) Remove tokens from an object.
counter_spell(what?: obj)                        Counter a spell being cast; it has no effect.
return_to_hand(what: obj)                        Return an object to its owner's spellbook.
return_from_discard(what: obj, to?: obj)         Return a card from a discard pile to the spellbook or into play.
search(who: obj, what: obj)                      Search a spellbook for a card.
summon(what: obj, to?: obj)                      Put a creature or conjuration into play.
transform(what: obj, into: obj)                  Replace an object with another card's definition.
gain_control(who: obj, what: obj)                Take control of an object.
ready(what: obj)                                 Ready an action marker or a ready marker.
exhaust(what: obj)                               Flip an object's action or ready marker to its used side.
take_action(what: obj, action?: any)             The object takes an extra action.
restrain(what: obj)                              The object becomes restrained.
guard(what: obj)                                 Place a guard marker.
remove_guard(what: obj)                          Remove a guard marker.
cast_spell(who: obj, what: obj, free?: any)      Cast a spell outside the normal casting sequence.
copy_spell(what: obj)                            Copy a spell being cast.
cannot(what: obj, action: any, detail?: any)     Restriction: the object cannot do something (move, attack, be attacked, guard, cast...).
can(what: obj, action: any, detail?: any)        Permission: the object may do something it otherwise could not.
must(what: obj, action: any, detail?: any)       Obligation: the object must do something when able.
costs(what: obj, amount: num, detail?: any)      Casting-cost change for spells matching a phrase.
immune(what: obj, to: any)                       The object is immune to a kind of effect or condition.
ignore(what: obj, rule: any)                     The object ignores a rule or effect (walls, guards, LoS...).
set_stat(what: obj, stat: any, value: num)       Set a stat to a value (overrides modifiers of earlier timestamp).
gain_attack(what: obj, attack: str)              The object gains an attack bar defined on this card.
pay_upkeep(what: obj, amount: num)               The object's controller must pay upkeep or destroy it.
roll_effect_die()                                Roll the d12 effect die and remember the roll.
roll_attack_dice(count: num)                     Roll attack dice and remember the result.
choose(who: obj, from: obj)                      A player chooses among objects; later effects refer to the choice.
sacrifice(what: obj)                             The controller destroys one of their own objects as a cost.
note(text: str)                                  A purely informative note for players; has no game effect.
block_los(where: obj, detail?: any)              Line of sight through a place is blocked.
set_source(what: obj, source: obj)               An object becomes the source of a spell or attack (range and LoS count from it).
reorder_step(step: any, after: any)              In the current sequence, a step happens right after another step instead of its usual place.
share_damage_and_effects(from: obj, to: obj)     Apply to an object the damage and effects another object just received (typeless, armor ignored).
set_x(value: num)                                X for this card or ability equals this value (worked out when it is used).
push_direction(direction: any)                   Pushes this object or attack causes go this way (random, toward...) instead of the pusher's choice.
prevent_unless_paid(who: obj, amount: num)       The pending event does not happen unless that player pays this much extra mana.
bind_spell(what: obj, to: obj)                   Bind a spell card from the spellbook to an object, replacing any spell bound to it.
modify_defense_roll(amount: num)                 Add to the roll of a defense.
attacks_gain(what: obj, traits: traits, kind?: any, until?: any) The object's attacks (only melee or ranged ones if kind says so) gain traits (until a duration ends, if given).
grant_defense(what: obj, roll: num, uses: num, detail?: any) The object gains a Defense: avoids on roll+ this many times a round.
hinder(what: obj)                                The object counts as hindered: it may take only one move action in its action phase.
lose_life(who: obj, amount: num)                 The object loses life outright; this is not damage and cannot be prevented.
miss_attack()                                    The current attack misses: it fails to hit, as if the roll to miss had failed.
modify_healing(amount: num)                      Change the amount of the healing being applied.
enhance_attack(who: obj, attack: str, which?: any, until?: any) The object's matching attack takes on the damage type, effect roll and traits of an attack bar on this card.
attack_gains(traits: traits)                     The attack being resolved gains traits until it ends.
spend_action(who: obj, kind?: any)               Another object uses up its quick or full action to pay for this ability.
action_cost(what: obj, action: any, amount: num) Each such action the object takes first costs its controller this much extra mana.
reanimate(what: obj)                             Reanimate a just-destroyed creature: it waits face down where it died and is summoned at the end of the round.
obliterate(what: obj)                            Remove an object or card from the game; it is not destroyed and goes to no discard pile.
convert_critical(amount: num)                    Turn up to this much critical damage of the current attack into normal damage.
attack_with(targets: obj, dice: num, traits?: traits) The source makes an unnamed attack of this many dice against each object.
remove_condition(what: obj, count?: num)         Remove conditions of the controller's choice from an object, paying each removal cost.
cancel_action()                                  The action being declared or taken is canceled.
lose_until(what: obj, traits: traits, until: any) The object loses these traits until the end of a duration (round, attack...).
redirect_mana(to: obj)                           Mana being lost, paid or transferred by the current event goes to this object instead.
cannot_until(what: obj, action: any, until: any, detail?: any) A restriction like cannot() that lasts only until a stated time (end_of_round, start_of_action_phase...).
incapacitate(what: obj, until?: any)             The object is incapacitated (no actions, no defenses, no guarding) while the effect lasts or until a stated time.
follow_up_attack(what: obj, after: any, kind?: any) The next time this round the object ends a matching attack action, it may make one more attack of a kind within that action.
redirect_spell(what: obj, to: obj)               A spell being cast gets a new target; its controller may remake its other choices, paying any cost increase or canceling it.
remove_paying(what: obj, kind?: any, count?: num) Remove any number of condition markers (only of a kind, e.g. Poison, if given) from an object, paying each removal cost.
spellbook_cost(what: obj, factor: num)           During spellbook building, spells matching the phrase cost this many points per level (1 trained, 3 opposed).
spellbook_copies(what: obj, count: num)          During spellbook building, a book may hold at most this many copies of each spell matching the phrase.
spellbook_only(what: obj, who: any)              During spellbook building, only the kind of Mage named (a class, or a school's Mage: trained in it) may include spells matching the phrase.
"""

# ---------------------------------------------------------------- value functions and predicates
VALUES = """
level(what: obj) -> num                          The level of a spell or object.
life(what: obj) -> num                           Current life.
damage_on(what: obj) -> num                      Damage currently on an object.
armor(what: obj) -> num                          Current armor.
count(what: obj) -> num                          How many objects a phrase matches.
tokens(what: obj, kind?: name) -> num            How many markers or tokens an object carries.
rolled() -> num                                  The last roll's total (effect die, or damage from attack dice).
damage_dealt() -> num                            Damage the current attack dealt.
mana_of(who: obj) -> num                         A player's mana supply.
distance(a: obj, b: obj) -> num                  Zones between two objects.
x() -> num                                       The value chosen for X.
has(what: obj, traits: traits) -> bool           Whether an object has all these traits or conditions.
is(what: obj, kind: obj) -> bool                 Whether an object matches a phrase.
in_zone(what: obj, zone: obj) -> bool            Whether an object is in a zone.
controls(who: obj, what: obj) -> bool            Whether a player controls an object.
attack_is(traits: traits) -> bool                Whether the current attack has these traits.
attack_kind(kind: any) -> bool                   Whether the current attack is melee, ranged, zone...
damaged() -> bool                                Whether the current attack dealt damage.
hit() -> bool                                    Whether the current attack reached Damage and Effects.
critical() -> bool                               Whether the current attack dealt critical damage.
first_attack() -> bool                           Whether this is the first attack of its attack action.
roll_at_least(value: num) -> bool                Whether the remembered effect roll is at least a value.
chosen() -> obj                                  The object chosen by the last choose().
the_attack() -> obj                              The attack being resolved.
attacker_of() -> obj                             The source of the attack being resolved.
prey(of: obj) -> obj                             The creature an object holds with its Grapple.
strongest(among: obj) -> obj                     The objects of a set with the highest level (all those tied).
inactive(what: obj) -> bool                      Whether a creature's action marker shows its inactive side.
has_initiative(who: obj) -> bool                 Whether a player has the initiative this round.
charging() -> bool                               Whether the current attack gets a Charge bonus.
random_target(among?: obj) -> obj                A legal target of the current attack (optionally of a kind), picked at random.
amount() -> num                                  The amount of the triggering event (damage dealt or healed, mana paid...).
paid(what?: obj) -> bool                         Whether the optional cost of this card's ability was paid for the current attack or effect.
defended_by(what: obj) -> bool                   Whether the current attack was avoided with this object's Defense.
guarding(what: obj) -> bool                      Whether an object has a guard marker.
damage_type_is(type: name) -> bool               Whether the current attack deals this damage type.
removal_cost(what: traits) -> num                The mana it costs to remove one such condition marker.
bound_spell(what: obj) -> obj                    The spell card bound to an object.
cost_of(what: obj) -> num                        A spell's full mana cost (casting plus reveal).
damaged_this_round(what: obj, by: obj) -> bool   Whether an object was attacked and damaged this round by something matching a phrase.
succeeded() -> bool                              Whether the previous effect in this sequence actually happened.
moves_taken(what: obj) -> num                    Move actions the object has taken in its current action phase.
owns(who: obj, what: obj) -> bool                Whether a player owns an object (it came from that player's spellbook).
times_used(what?: obj, during?: any) -> num      How often this ability was used (for that object, if given) this round or in the named duration.
half(value: num) -> num                          Half a value, rounded up.
at_most(value: num, cap: num) -> num             A value, capped at a maximum.
action_kind(kind: any) -> bool                   Whether the current action is a quick or a full action.
in_los(from: obj, to: obj) -> bool               Whether the second object is in line of sight of the first.
last_amount() -> num                             The amount the previous effect actually dealt, healed, moved or removed, after every limit.
cost_on(what: obj, on: obj) -> num               What a spell would cost to cast and reveal on a given object (Magebind and similar included).
entered_this_round(what: obj) -> bool            Whether an object came into play this round.
mana_spent(what: obj) -> num                     The mana actually paid to cast a spell, after reductions and extra costs.
"""

# ---------------------------------------------------------------- events
EVENTS = """
cast(what?: obj)                                 A spell is cast (after it resolves).
casting(what?: obj)                              A spell is being cast (Counter Spell window).
revealed()                                       This enchantment is revealed.
enters(what?: obj, zone?: obj)                   An object comes into play.
destroyed(what?: obj, by?: any)                  An object is destroyed.
discarded(what?: obj)                            An object is discarded.
attacked(what?: obj, by?: any)                   An object is declared as the target of an attack.
attacks(what?: obj, target?: obj)                An object declares an attack.
hit(what?: obj, by?: any)                        An attack reaches Damage and Effects against an object.
damaged(what?: obj, by?: any)                    An object receives damage.
deals_damage(what?: obj, to?: obj)               An object deals damage.
avoided(what?: obj)                              An attack against an object is avoided.
moves(what?: obj, into?: obj)                    An object moves (optionally, into a zone).
leaves(what?: obj, zone?: obj)                   An object leaves a zone.
enchanted(what?: obj)                            An enchantment is attached to an object.
condition_placed(what?: obj, kind?: traits)      A condition marker is placed on an object.
condition_removed(what?: obj, kind?: traits)     A condition marker is removed.
token_removed(what?: obj, kind?: name)           A token is removed from an object.
healed(what?: obj)                               An object is healed.
activated(what?: obj)                            An object is activated (its action phase starts).
action_ends(what?: obj)                          An object's action phase ends.
targeted(what?: obj, by?: any)                   An object becomes the target of a spell.
counterstrike(what?: obj)                        An object makes a counterstrike.
guards(what?: obj)                               An object takes a guard action.
channels(who?: obj)                              A player channels mana.
pays(who?: obj, amount?: num)                    A player pays mana.
pushes(what?: obj, target?: obj)                 An object pushes another object.
intercepts(what?: obj)                           An object intercepts an attack.
attack_resolved(what?: obj)                      An attack made by an object has ended (after its Attack Ends step).
condition_damage(what?: obj, kind?: traits)      A condition marker on an object deals its damage (Burn, Rot, Bleed...).
would_be_destroyed(what?: obj, by?: any)         An object is about to be destroyed (a window to replace or prevent it).
attack_step(step: any, defending?: obj, attacking?: obj) An attack (against or by an object) reaches a step of the attack sequence (step named as in STEPS, quoted).
reveals(who?: obj, what?: obj)                   A player reveals an enchantment.
rolls(what?: any)                                Dice are rolled: attack dice, the effect die, a defense or an escape roll.
loses_mana(who?: obj, source?: obj)              A player loses, pays or has mana transferred away because of an effect.
declares(what?: obj, action?: any)               An object declares an action or a spell ("move", "attack", "quick_spell"...), before it resolves.
"""

# ---------------------------------------------------------------- timings
TIMINGS = """
upkeep(who?: obj)                                During the Upkeep Phase.
channeling(who?: obj)                            During the Channeling Phase.
planning()                                       During the Planning Phase.
deployment()                                     During the Deployment Phase.
quickcast()                                      During a Quickcast Phase.
start_of_round()                                 At the beginning of the round.
end_of_round()                                   At the end of the round.
start_of_action_phase(what?: obj)                At the beginning of an object's action phase.
end_of_action_phase(what?: obj)                  At the end of an object's action phase.
before_activation(what?: obj)                    Before a friendly creature's action phase (conjuration attacks).
after_activation(what?: obj)                     After a friendly creature's action phase.
around_activation(what?: obj)                    Immediately before or immediately after an object's action phase.
"""

# ---------------------------------------------------------------- steps and durations
STEPS = {
    # attack sequence (supplement chart)
    "declare_attack", "pay_costs", "roll_to_miss", "avoid_attack", "roll_dice",
    "damage_and_effects", "additional_strikes", "damage_barrier", "counterstrike", "attack_ends",
    # casting sequence
    "declare_spell", "pay_spell_costs", "counter_spell_step", "resolve_spell",
    # move
    "declare_move", "move_step", "move_ends",
    # phases
    "upkeep", "channeling", "planning", "deployment", "initiative", "action", "quickcast", "reset",
}
DURATIONS = {"round", "action_phase", "attack", "attack_action", "turn", "phase", "game"}

KINDS = {"obj", "num", "traits", "name", "str", "step", "any", "bool"}


@dataclass(frozen=True)
class Param:
    name: str
    kind: str
    optional: bool = False
    rest: bool = False


@dataclass(frozen=True)
class Signature:
    name: str
    params: tuple[Param, ...]
    returns: str  # effect | num | bool | obj | event | timing
    doc: str

    @property
    def required(self) -> int:
        return sum(1 for p in self.params if not p.optional and not p.rest)

    def render(self) -> str:
        ps = ", ".join(("*" if p.rest else "") + p.name + ("?" if p.optional else "") + ": " + p.kind
                       for p in self.params)
        ret = f" -> {self.returns}" if self.returns in ("num", "bool", "obj") else ""
        return f"{self.name}({ps}){ret}"


_LINE = re.compile(r"^(\w+)\(([^)]*)\)(?:\s*->\s*(\w+))?\s+(.*)$")


def _parse_table(text: str, default_return: str) -> dict[str, Signature]:
    out: dict[str, Signature] = {}
    for raw in text.strip().splitlines():
        raw = raw.strip()
        if not raw:
            continue
        m = _LINE.match(raw)
        if not m:
            raise ValueError(f"bad vocabulary line: {raw}")
        name, params, ret, doc = m.groups()
        plist = []
        for p in [p.strip() for p in params.split(",") if p.strip()]:
            pname, kind = [x.strip() for x in p.split(":")]
            rest = pname.startswith("*")
            optional = pname.endswith("?")
            pname = pname.strip("*?")
            if kind not in KINDS:
                raise ValueError(f"bad kind {kind!r} in vocabulary line: {raw}")
            plist.append(Param(pname, kind, optional, rest))
        sig = Signature(name, tuple(plist), ret or default_return, doc.strip())
        if name in out:
            # Two authors may add the same primitive; identical signatures merge.
            if (out[name].params, out[name].returns) != (sig.params, sig.returns):
                raise ValueError(f"vocabulary entry {name!r} given twice with different signatures")
            continue
        out[name] = sig
    return out


EFFECT_FUNCS = _parse_table(EFFECTS, "effect")
VALUE_FUNCS = _parse_table(VALUES, "num")
EVENT_FUNCS = _parse_table(EVENTS, "event")
TIMING_FUNCS = _parse_table(TIMINGS, "timing")

# Words a phrase may use, by role (the grammar fixes the set; this says what they mean).
PRONOUNS = {"this", "that", "it", "its", "target", "enchanted", "attached", "attacker", "defender",
            "controller", "you", "your", "owner", "source", "bearer"}
QUANTIFIERS = {"each", "every", "all", "a", "an", "any", "another", "other", "up", "to", "the", "new", "same"}
NOUNS = {"creature", "creatures", "conjuration", "conjurations", "object", "objects", "enchantment",
         "enchantments", "equipment", "mage", "mages", "zone", "zones", "border", "borders", "wall",
         "walls", "spell", "spells", "incantation", "incantations", "card", "cards", "token", "tokens",
         "marker", "markers", "arena", "player", "players", "opponent", "terrain", "vine", "damage",
         "condition", "conditions"}
ADJECTIVES = {"friendly", "enemy", "revealed", "hidden", "non", "destroyed", "discarded", "adjacent",
              "controlled", "melee", "ranged", "level"}
RELATIONS = {"in", "of", "with", "within", "on", "from", "by"}


def all_functions() -> dict[str, Signature]:
    out = {}
    out.update(EFFECT_FUNCS)
    out.update(VALUE_FUNCS)
    return out
