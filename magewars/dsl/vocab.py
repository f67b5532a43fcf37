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
from .frozen import frozen_dataclass

# ---------------------------------------------------------------- effects
EFFECTS = """
destroy(what: obj)                               Destroy an object; it goes to its owner's discard pile.
discard(what: obj)                               Discard an object (not destroyed: no destroy triggers).
damage(what: obj, amount: num, type?: name)      Deal damage that is not an attack; armor does not reduce it.
direct_damage(what: obj, amount: num, type?: name) Deal direct damage (ignores armor, cannot be avoided).
heal(what: obj, amount: num)                     Remove up to this much damage from a Living object.
reconstruct(what: obj, amount: num)              Remove damage from a Nonliving object.
regenerate(what: obj, amount: num)               Heal by regeneration: nothing happens to an object that may not regenerate.
regain_life(what: obj, amount: num)              Alias kept for healing mages beyond damage bookkeeping.
place(what: obj, markers: traits, count?: num)   Place condition markers or tokens on an object.
remove(what: obj, markers: traits, count?: num)  Remove condition markers or tokens from an object.
remove_all(what: obj, kind?: any)                Remove every condition (or every marker of a kind) from an object.
push(what: obj, distance?: num, direction?: any) Push an object into an adjacent zone (the pusher chooses unless stated: a compass direction, "random" (the effect die), "toward" the source, "along": the way the object whose move the ability answers goes, or "the same direction for all": one way chosen once, the pusher ordering the pushes).
move(what: obj, distance?: num, to?: obj, over?: obj) Move an object as a move action would (walls fitting over do not stop it; their passage attacks still come).
teleport(what: obj, to: obj)                     Teleport an object to a zone; not a move, ignores walls.
swap(first: obj, second: obj)                    Exchange the zones of two objects.
attach(what: obj, to: obj, replacing?: any)      Attach an enchantment, conjuration or equipment to an object (an equipment already in that location goes where replacing says, e.g. "return_to_hand").
move_enchantment(what: obj, to: obj)             Move an attached enchantment to a new legal object; it gets a new timestamp.
reveal(what: obj)                                Reveal a hidden enchantment (paying its reveal cost unless stated).
flip_hidden(what: obj)                           Turn a revealed enchantment face down again.
look_at(what: obj)                               The controller looks at a hidden card and leaves it hidden.
make_attack(attacker: obj, target?: obj, attack?: str, with?: obj, kind?: any) The object makes an attack outside the normal action sequence (with the attack bar of an object, e.g. an equipment, and of a kind such as "quick melee", if given).
attack_each(targets: obj, attack?: str)          Make the named attack against each object of a set, in the attacker's order.
avoid_attack()                                   The current attack is avoided.
cancel_attack()                                  The current attack is canceled: it ends at once with no further steps.
count_as_defense()                               This effect counts as a defense for defense-counting rules.
redirect_attack(to: obj)                         The current attack's target becomes another object.
reroll(what: any, count?: num)                   Reroll dice (attack dice or the effect die) once.
modify_dice(amount: num)                         Add or remove attack dice for the current attack.
modify_dice_per_action(amount: num)             Add attack dice once per attack action: later attacks of the action get only what earlier ones did not.
pierce_armor(amount: num)                        The current attack treats the defender's armor as this much lower (never below 0).
all_damage_critical()                            Every point of damage of the current attack counts as critical.
ignore_normal_damage()                           The current attack's normal (non-critical) damage is ignored.
only_ones_count()                                Only the 1s on the current attack's dice count (as critical damage); the attack places no effects.
attack_zone()                                    Static on an attack trait: the attack is made against every object in a zone, one attack each.
zone_attack_rolls_on()                           Static on a zone attack's bar: once its zone is attacked, the attacker's controller picks an orthogonal direction and the attack goes on into each next zone that way, to the arena's edge.
attack_unavoidable()                             Static on an attack trait: no defense can avoid the attack.
counts_as_damage(amount: num)                    Static on a condition: each of its markers counts as this much damage that healing cannot remove.
max_markers(count: num)                          Static on a condition: an object holds at most this many of its markers; more placed are discarded instead.
shared_with_placer()                             Static on a condition: the marker pairs the object carrying it with the object that placed it: its statics and restrictions about `this` hold for both; it is not placed on the placer itself or on an object outside the placer's zone, and it comes off when the placer leaves play or that zone.
max_placed(count: num)                           Static on a condition: an object keeps at most this many of these markers it placed on objects in play (`this` in the count is that object); one more it would place is not placed.
loses_abilities()                                Static on a condition: while it is on an object, the object has no attack bars and none of its printed abilities (triggers, timed and action abilities, statics) but what sets X; its stats, defenses, traits and subtypes stay.
attacks_unanswered()                             Static on a trait: an attack made by an object with it triggers no counterstrike or damage barrier and removes no guard marker.
outlasts_own_activation()                        Static on a condition: markers placed on an object during its own activation are set aside when that action phase ends, so they last through the end of its next one (as markers from a damage barrier or counterstrike do).
innate(what: obj, unless?: traits)               Static on a trait: every object the phrase names (by kind: each creature, each conjuration) has the trait without printing it, unless it has one of the listed traits.
no_armor(what: obj)                              Static on a trait: the object has no armor value; its armor is 0 and nothing raises it.
healing_removes()                                Static on a condition: the object's controller may give up healing point for point, each point removing one of its markers instead of one damage (nothing to give up while it cannot heal).
armor_floor()                                    Static on a condition that lowers armor: its markers are placed after an attack's other conditions; one that would take armor below 0 is not placed and deals 1 direct damage of the condition's damage type (its category) instead; markers beyond the object's armor drop off when its armor falls.
bash_attack(dice: num, traits?: traits)          Static on a wall trait: an object pushed into a wall with it (or into the arena's edge) is Bashed: it receives an attack of this many dice with these traits, neither melee nor ranged.
attack_usable_in(step: step)                     Static on an attack trait: an attack bar with it may be used in that step (a counterstrike).
attack_strikes(count: num)                       Static on an attack trait: the attack strikes its target this many times in one attack action.
attack_targets(count: num)                       Static on an attack trait: one attack action attacks up to this many different targets.
modify_effect_roll(amount: num)                  Add to the effect die roll of the current attack.
modify_damage(amount: num)                       Change the damage of the current attack before armor.
prevent_damage(amount?: num)                     Prevent damage that would be dealt (all if no amount).
gain_mana(who: obj, amount: num)                 Add mana to a player's supply.
pay_mana(who: obj, amount: num)                  A player pays mana from their supply.
drain_mana(who: obj, amount: num)                Remove mana from a player's supply (and optionally give it to another).
transfer_mana(from: obj, to: obj, amount: num)   Move mana between supplies or objects.
place_tokens(what: obj, token: name, count?: num) Place tokens (mana, charge, rage, dissipate...) on an object.
remove_tokens(what: obj, token: name, count?: num) Remove tokens from an object; as the first step of an optional effect (may { ... }) it is that effect's payment: the effect is offered only while the object holds that many.
counter_spell(what?: obj)                        Counter a spell being cast; it has no effect.
return_to_hand(what: obj)                        Return an object to its owner's spellbook.
return_from_discard(what: obj, to?: obj)         Return a card from a discard pile to the spellbook or into play.
search(who: obj, what: obj)                      Search a spellbook for a card.
summon(what: obj, to?: obj)                      Put a creature or conjuration into play (a marker named "... marker": a new one from the supply); `to:` the zone (a `target zone` is targeted; `a zone ...` is a place its controller picks among those the phrase names, range and line of sight not counted).
transform(what: obj, into: obj)                  Replace an object with another card's definition.
gain_control(who: obj, what: obj)                Take control of an object.
ready(what: obj)                                 Ready an action marker or a ready marker.
exhaust(what: obj)                               Flip an object's action or ready marker to its used side.
take_action(what: obj, action?: any)             The object takes an extra action.
guard(what: obj)                                 Place a guard marker.
remove_guard(what: obj)                          Remove a guard marker.
cast_spell(who: obj, what: obj, free?: any, on?: obj, within?: obj) The object (or your Mage) casts one of the spells it has that fits the phrase (given at Planning, planned, or bound), through the whole casting sequence; as part of an effect it spends no action (free: "action" says so); on: names its target; within: its target must be the zone of that object, an object in it or one of its borders. Your Mage may also cast a spell it did not plan: the card `target`/`it` names in a discard pile, or a card of your spellbook fitting a phrase ending in "card".
copy_spell(what: obj)                            Copy a spell being cast.
cannot(what: obj, action: any, detail?: any, target?: obj, except?: obj, by?: obj, during?: step, into?: obj, out_of?: obj, attack?: str, kind?: any) Restriction: the object cannot do something (move, attack, be attacked, guard, cast...): only aimed at target, not when except matches, only by a source, only during a step or phase, only into or out of a place, only with the named attack bar of this card, only by attacks of a kind (melee, ranged, zone).
can(what: obj, action: any, detail?: any, target?: obj, by?: obj, during?: step, into?: obj, instead_of?: any, ignoring?: any, until?: any, speed?: str) Permission: the object may do something it otherwise could not (aimed at target, by a source, during a step, into a place, in place of another action, ignoring a rule such as range or LoS, until a stated time when granted by an effect; a spell cast with the stated speed, "quick" or "full").
must(what: obj, action: any, detail?: any, target?: obj, to?: any, during?: step, before?: any, toward?: obj, out_of?: obj, into?: obj, at?: obj) Obligation: the object must do something when able (aimed at target, for a purpose such as moving out of a zone, during a step, before another event, toward an object).
costs(what: obj, amount: num, detail?: any, only?: any, minimum?: num, on?: obj, by?: obj, uses?: num, shared?: any, into?: obj, optional?: any) Casting-cost change for spells matching a phrase: only the casting or the reveal cost if only says so, never below a minimum, a spell cast with the change must be placed into a zone if into says so, the caster may decline it if optional, only when the spell targets on, only when cast by a caster matching by, at most uses times a round (shared with the other costs() lines naming the same shared key).
immune(what: obj, to: any)                       The object is immune to a kind of effect or condition.
ignore(what: obj, rule: any, against?: obj)      The object ignores a rule or effect (walls, guards, LoS...), only when acting against objects matching against, if given.
set_stat(what: obj, stat: any, value: num)       Set a stat to a value (overrides modifiers of earlier timestamp).
gain_attack(what: obj, attack: str)              The object gains an attack bar defined on this card.
pay_upkeep(what: obj, amount: num)               The object's controller must pay upkeep or destroy it.
roll_effect_die()                                Roll the d12 effect die and remember the roll.
roll_attack_dice(count: num)                     Roll attack dice and remember the result.
choose(who: obj, from: obj)                      A player chooses among objects; later effects refer to the choice.
sacrifice(what: obj)                             The controller destroys one of their own objects as a cost.
note(text: str)                                  A purely informative note for players; has no game effect.
block_los(where: obj, detail?: any, crossing?: num) Line of sight through a place is blocked (only for lines that cross this many of its borders, if given).
set_source(what: obj, source: obj)               An object becomes the source of a spell or attack (range and LoS count from it).
reorder_step(step: any, after: any)              In the current sequence, a step happens right after another step instead of its usual place.
share_damage_and_effects(from: obj, to: obj)     Apply to an object the damage and effects another object just received (typeless, armor ignored).
transfer_damage(from: obj, to: obj, up_to?: num) Move up to this many points of the damage already on one object onto another (neither healing nor damage dealt: Finite Life and damage prevention do not stop it).
summon_later(who: obj, card: str, where: obj)    At the end of the round, a card of this name from the spellbook or discard pile of the player controlling who (their choice) is summoned into the zone where `where` is (or was); meanwhile it waits face down, out of play.
set_x(value: num)                                X for this card or ability equals this value (worked out when it is used).
push_direction(direction: any)                   Pushes this object or attack causes go this way (random, toward...) instead of the pusher's choice.
prevent_unless_paid(who: obj, amount: num)       The pending event does not happen unless that player pays this much extra mana.
prevent_destruction()                            In a would-be-destroyed window: the object is not destroyed.
bind_spell(what: obj, to: obj, action?: any)     Bind a spell card from the spellbook to an object, replacing any spell bound to it (only a spell cast with this action, e.g. "quick", if given).
modify_defense_roll(amount: num)                 Add to the roll of a defense.
defense_bonus(what: obj, amount: num, until?: any) The object adds this much to each of its defense rolls (until a stated time, e.g. "end of round").
attacks_gain(what: obj, traits: traits, kind?: any, until?: any) The object's attacks (only melee or ranged ones if kind says so) gain traits (until a duration ends, if given).
grant_defense(what: obj, roll: num, uses: num, detail?: any, limit?: any, conditions?: any, until?: any) The object gains a Defense: avoids on roll+ this many times a round (limit: "no melee" or "no ranged"; conditions: "unaffected" when conditions that disable defenses do not stop it; until: a duration such as "attack" when granted by an effect).
hinder(what: obj, until?: any)                   The object counts as hindered: it may take only one move action in its action phase (while the effect lasts, or until a stated time such as "end of round").
lose_life(who: obj, amount: num)                 The object loses life outright; this is not damage and cannot be prevented.
miss_attack()                                    The current attack misses: it fails to hit, as if the roll to miss had failed.
modify_healing(amount: num)                      In a `when healed` ability: the healing just given heals this much more (no more than the damage left).
enhance_attack(who: obj, attack: str, which?: any, until?: any) The object's matching attack takes on the damage type, effect roll and traits of an attack bar on this card.
attack_gains(traits: traits)                     The attack being resolved gains traits until it ends.
spend_action(who: obj, kind?: any)               Another object uses up its quick or full action to pay for this ability.
action_cost(what: obj, action: any, amount: num) Each such action the object takes first costs its controller this much extra mana ("move": each move action; "teleport": each teleport it makes in place of a move action; either is not offered when unpaid, and one declared anyway is canceled at Pay Costs with its move action lost; "defense": each use of a defense).
reanimate(what: obj, with?: traits, damage?: num) Reanimate a just-destroyed creature: it waits face down where it died and is summoned at the end of the round (with these markers and this much damage, if given).
obliterate(what: obj)                            Remove an object or card from the game; it is not destroyed and goes to no discard pile.
remove_from_arena(what: obj, tokens?: name, count?: num) The object leaves the arena but stays in play: it takes no actions, its action marker stays as it is, it is out of range and LoS of everything, and only attached spells, its conditions and its own traits and abilities affect it. With tokens, that many are placed on it, one is removed each Upkeep Phase, and when the last goes it returns to the zone it left.
convert_critical(amount: num)                    Turn up to this much critical damage of the current attack into normal damage.
convert_to_critical(amount: num)                 Turn up to this much normal damage of the current attack into critical damage.
attack_with(targets: obj, dice: num, traits?: traits) The source makes an unnamed attack of this many dice against each object.
remove_condition(what: obj, count?: num, by?: obj) Remove conditions of the controller's choice from an object, paying each removal cost (by: the player who chooses and pays, named by their Mage).
cancel_action()                                  The action being declared or taken is canceled.
lose_until(what: obj, traits: traits, until: any) The object loses these traits until the end of a duration (round, attack...).
gain_until(what: obj, traits: traits, until: any) The object gains these traits (a trait or a condition's state) until a duration ends (round, attack...; "start_of_action_phase": the start of its own next Action Phase; "A or B": whichever comes first).
redirect_mana(to: obj)                           Mana being lost, paid or transferred by the current event goes to this object instead.
cannot_until(what: obj, action: any, until: any, detail?: any, target?: obj, except?: obj, by?: obj) A restriction like cannot() that lasts only until a stated time (end_of_round, start_of_action_phase...); only aimed at target, not when except matches.
linger(until?: any, uses?: num)                   A spell's own triggered abilities keep listening after it resolves and leaves play (target: the object it was cast on), until a duration ends and/or until they have triggered this many times; without either, until the end of the round.
follow_up_attack(what: obj, after: any, kind?: any) The next time this round the object ends a matching attack action, it may make one more attack of a kind within that action.
redirect_spell(what: obj, to: obj)               A spell being cast gets a new target; its controller may remake its other choices, paying any cost increase or canceling it.
remove_paying(what: obj, kind?: any, count?: num) Remove any number of condition markers (only of a kind, e.g. Poison, if given) from an object, paying each removal cost.
spellbook_cost(what: obj, factor: num)           During spellbook building, spells matching the phrase cost this many points per level (1 trained, 3 opposed).
cast_only(who: obj, *spells: obj, school_of?: obj) Casting restriction: the object may cast only spells matching one of the phrases (and, if school_of is given, only spells of one of the schools it names, e.g. glyph_schools(this)).
unlimited_per_round(what: obj, rule: traits)    A trait that normally works once per round (Trample...) works every time for this object.
cast_limit(what: obj, per_round: num, by?: obj)  Casting restriction: a spell (or the spells matching the phrase) may be cast at most this many times a round (by one caster, if given).
upkeep_paid_in(what: obj, token: name, from?: obj) The object's Upkeep is paid with tokens of this name taken from an object (its controller's mage unless stated) instead of mana; short of tokens, it is destroyed.
cannot_reveal(what: obj, during: step)           The enchantment cannot be revealed during a phase or step (or during any action, with "action").
next_attack_targets(what: obj, count: num)       Once this round, the object's quick melee attack made as its full action (no move before it) may be made against up to count different objects in its zone, one after the other as with Sweeping; its additional strikes stay with the first target.
next_attack_gains(who: obj, traits: traits, kind?: any, dice?: num, against?: obj, provided?: bool, counterstrike?: any) The next attack (of a kind: melee or ranged; a counterstrike counts only if counterstrike says so) the object makes this round gains traits (and extra dice) until that attack ends; only an attack against a matching object, and only if the provided condition holds when it is declared.
tunnel(what: obj, between: obj, other: obj, distance: num) One move action of the objects may carry them straight from one place to another matching place up to this many zones away, ignoring walls and zones in between.
not_counted(what: obj, as: name, rule: any)      The object does not count as a kind of object for a rule (e.g. adjacency between outposts).
spend_only(who: obj, on: obj, cost?: any)        Mana in the object's own supply can pay only for spells matching the phrase (only their casting or reveal cost if cost says so).
act_as_defender(who: obj, defense_of: obj)       The object uses its own Defense against the current attack as if it were the defender; the attack's target does not change.
action_swap(what: obj, from: any, to: any, except?: any) Actions of one kind (quick or full) the object takes count as the other kind (except move actions, if said).
glyph(who: obj, school: name, state: any)        Turn one of an object's school Glyphs "active" or "inactive".
move_glyph(from: obj, to: obj)                  Its controller places one of the Glyphs the first object owns and holds on the second object (still its owner's Glyph, turned and read by the owner's abilities).
glyphs(who: obj, *schools: name)                The object owns one Glyph of each of these schools, inactive at first (a static).
borrow_bars(who: obj, from: obj, until?: any)    The object may use the action and attack bars of another object (until a stated time, e.g. "end of action_phase": its activation).
use_actions_of(who: obj, other: obj)            The object may use the action abilities printed on the other objects' cards as its own actions: its controller pays, they work from it (this = it) and each keeps its own once-per-round use.
widen_to_arena(who: obj, cost: num)             As the object uses one of its own action abilities that names objects in its zone, its controller may pay this much more mana: the ability then reads "this zone" as the whole arena.
cast_as(who: obj, action: any, max_range: num)   The object casts every spell as this kind of action and at a range of at most this many zones.
rolls_alone(what: obj)                           The Defense it gives rolls on its own: the modifiers of the creature it is attached to do not apply (Autonomous equipment).
works_hidden(what: obj)                          Its triggered abilities work even while it is face down (an enchantment that pays out when destroyed unrevealed).
one_way(what: obj)                               A wall works (its attacks, its Passage traits) only against objects crossing it from the side its front faces.
upkeep_first(what: obj)                          This object's upkeep is paid before any other upkeep on the object it is attached to.
extra_prepared(who: obj, count: num)             In the Planning Phase the object prepares this many spells more than usual.
mana_supply()                                    Static on a token: each marker is one mana kept by the object that carries it, spent first when that object casts.
optional_extra_cost(what: obj, amount: num)     Static on a spell (or a trait of it): when it is cast, its caster may pay this much more mana as part of its cost (paid back with the rest if it is countered).
sacrifice_for_range(who: obj, spells: obj, what: obj) Casting permission bought with an additional cost: as an object the first phrase names casts a spell the second names, its controller may destroy one object the third names, in the caster's line of sight, as part of the cost; the spell's range then does not count for a target that is that object's zone, an object in that zone or a border of it.
range_for_mana(who: obj, spells: obj, range: num, cost: num, speed?: any) Casting permission bought with an additional cost: as an object the first phrase names casts a spell the second names (cast as a quick or full action, if speed says so), its controller may pay this much more mana as part of the cost to add range zones to the spell's maximum range; it is paid only when a target is beyond the printed range.
extend_wall(what: obj)                           A wall cast with its optional extra cost paid: another copy of it from the spellbook is placed, not cast, on a free border connected to it and in the caster's line of sight (range and the first wall not counted).
bound_casting(who: obj, per_round: num)          Static on an object spells are bound to: who may cast the bound spell, like a planned spell and paying its full cost, this many times a round; it stays bound whether it resolves or is countered.
assign_spell(who: obj)                           Planning: the controller secretly gives the object one spell from the spellbook that it may cast; it casts it later this round, and a spell it never cast goes back to the book (to the discard pile if the object left play).
spellbook_copies(what: obj, count: num)          During spellbook building, a book may hold at most this many copies of each spell matching the phrase.
spellbook_only(what: obj, who: any)              During spellbook building, only the kind of Mage named (a class, or a school's Mage: trained in it) may include spells matching the phrase.
copies_in_play(what: obj, count: num, per?: any)  At most this many objects of this card's name are in play at once (counted per player when per is "player"); a spell that would add one more cannot be cast.
zone_limit(what: obj, count: num)                A zone holds at most this many objects matching the phrase; a spell that would put one more into a zone cannot be cast there.
gain_subtypes(what: obj, *names: name)          The object has these subtypes as well (in a condition's entry: while it carries the marker).
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
has_subtype(what: obj, name: name) -> bool       Whether an object has this subtype (printed, or given by a condition on it), not a trait of the same name.
is(what: obj, kind: obj) -> bool                 Whether an object matches a phrase.
in_zone(what: obj, zone: obj) -> bool            Whether an object is in a zone.
controls(who: obj, what: obj) -> bool            Whether a player controls an object, or a zone (a creature of theirs is in it and no opponent's is).
attack_is(traits: traits) -> bool                Whether the current attack has these traits.
attack_kind(kind: any) -> bool                   Whether the current attack is melee, ranged, zone...
damaged() -> bool                                Whether the current attack dealt damage.
would_damage() -> bool                           Whether the current attack's dice would damage its target, after armor and the preventions already set.
hit() -> bool                                    Whether the current attack reached Damage and Effects.
critical() -> bool                               Whether the current attack dealt critical damage.
first_attack() -> bool                           Whether this is the first attack of its attack action.
roll_at_least(value: num) -> bool                Whether the remembered effect roll is at least a value.
chosen() -> obj                                  The object chosen by the last choose().
placer(of: obj, condition: name) -> obj           The objects that placed the markers of a condition now on an object.
the_attack() -> obj                              The attack being resolved.
attacker_of() -> obj                             The source of the attack being resolved.
prey(of: obj) -> obj                             The objects another object holds: those carrying a shared condition (`shared_with_placer()`) it placed.
bars_placing(what: obj, condition: name) -> num   How many of an object's attack bars place this condition with their effect die.
strongest(among: obj) -> obj                     The objects of a set with the highest level (all those tied).
inactive(what: obj) -> bool                      Whether a creature's action marker shows its inactive side.
has_initiative(who: obj) -> bool                 Whether a player has the initiative this round.
charging() -> bool                               Whether the current attack gets a Charge bonus.
random_target(among?: obj) -> obj                A legal target of the current attack (optionally of a kind), picked at random.
amount() -> num                                  The amount of the triggering event (damage dealt or healed, mana paid...).
paid(what?: obj) -> bool                         Whether the optional cost of this card's ability was paid for the current attack or effect.
defended_by(what: obj) -> bool                   Whether the current attack was avoided with this object's Defense.
redirected_to(what: obj) -> bool                 Whether the current attack was redirected to this object (it was not its declared target).
guarding(what: obj) -> bool                      Whether an object has a guard marker.
damage_type_is(type: name) -> bool               Whether the current attack deals this damage type.
versus_bonus() -> num                            The current attack's "+X vs Name" bonuses whose names its defender has, added up.
removal_cost(what: traits) -> num                The mana it costs to remove one such condition marker.
had(what: obj, traits: traits) -> bool           Whether the object had these traits just before the event being answered (a condition placed).
bound_spell(what: obj) -> obj                    The spell card bound to an object.
cost_of(what: obj) -> num                        A spell's full mana cost (casting plus reveal).
damaged_this_round(what: obj, by: obj) -> bool   Whether an object was attacked and damaged this round by something matching a phrase.
succeeded() -> bool                              Whether the previous effect in this sequence actually happened.
moves_taken(what: obj) -> num                    Move actions the object has taken in its current action phase.
owns(who: obj, what: obj) -> bool                Whether a player owns an object (it came from that player's spellbook).
times_used(what?: obj, during?: any) -> num      How often this ability was used (for that object, if given) this round or in the named duration.
half(value: num) -> num                          Half a value, rounded up.
at_most(value: num, cap: num) -> num             A value, capped at a maximum.
chosen_amount(up_to: num) -> num                 A number the controller of the ability chooses, from 0 up to a value ("up to N").
action_kind(kind: any) -> bool                   Whether the current action is a quick or a full action.
in_los(from: obj, to: obj) -> bool               Whether the second object is in line of sight of the first.
last_amount() -> num                             The amount the previous effect actually dealt, healed, moved or removed, after every limit.
cost_on(what: obj, on: obj) -> num               What a spell would cost to cast and reveal on a given object (Magebind and similar included).
entered_this_round(what: obj) -> bool            Whether an object came into play this round.
extra_cost_paid(what: obj) -> bool               Whether the optional extra cost of a spell was paid when it was cast.
mana_spent(what: obj) -> num                     The mana actually paid to cast a spell, after reductions and extra costs.
upkeep_paid(what?: obj) -> bool                  Whether the upkeep of this object (or of the object named) was paid in this Upkeep Phase.
glyph_active(who: obj, school: name) -> bool     Whether an object's Glyph of a school is active.
glyph_schools(who: obj) -> obj                   The schools of the Glyphs an object holds now (by name).
used_this_round(what: obj, kind: any) -> bool    Whether the object has already used its attack or its defense ("attack", "defense") this round.
able(what: obj, action: any, target?: obj) -> bool Whether the object could take that action now (against target, if given).
could_attach(what: obj, to: obj) -> bool         Whether an object could now legally target or be placed on another object (e.g. after it gains Uncontainable).
crossed_border_with(what: obj, kind: obj) -> bool In an ability answering the object's move (leaves, moves): whether the border it crosses holds an object matching the phrase (a wall with Passage Attacks...).
"""

# ---------------------------------------------------------------- events
EVENTS = """
cast(what?: obj)                                 A spell is cast (after it resolves).
casting(what?: obj)                              A spell is being cast (Counter Spell window).
revealed()                                       This enchantment is revealed.
enters(what?: obj, zone?: obj)                   An object comes into play (`zone:` matches only where an effect puts it into a zone: a spawnpoint's or a reanimation's summon, a return to the arena; a card cast or summoned in its own casting, or a wall's second section, brings no zone, so `zone:` never matches those; an object moving in is `moves(..., into:)`).
destroyed(what?: obj, by?: any)                  An object is destroyed (`by: damage`: by damage; `by: "attack"`: by an attack's damage, which `attacker` then names).
discarded(what?: obj)                            An object is discarded.
attacked(what?: obj, by?: any)                   An object is declared as the target of an attack.
attacks(what?: obj, target?: obj)                An object declares an attack.
hit(what?: obj, by?: any)                        An attack reaches Damage and Effects against an object.
damaged(what?: obj, by?: any, kind?: any)        An object receives damage (from an attack of a kind, e.g. melee, if given).
deals_damage(what?: obj, to?: obj)               An object deals damage.
avoided(what?: obj)                              An attack against an object is avoided.
moves(what?: obj, into?: obj, how?: str)         An object moves (optionally, into a zone; how: "move", "push", "teleport" or "swap").
leaves(what?: obj, zone?: obj, how?: str)        An object leaves a zone (optionally, one zone; how: "move", "push", "teleport" or "swap").
enchanted(what?: obj)                            An enchantment is attached to an object.
condition_placed(what?: obj, kind?: traits)      A condition marker is placed on an object.
condition_removed(what?: obj, kind?: traits)     A condition marker is removed.
token_removed(what?: obj, kind?: name)           A token is removed from an object.
healed(what?: obj)                               An object is healed (`source`: the object whose effect heals it; `amount()`: the damage healed).
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

# ---------------------------------------------------------------- what an event's arguments are matched against
#: The roles an event parameter may have: what the engine compares its argument with when the event
#: happens (engine/game.py Game.event_matches reads an event's arguments through EVENT_PARAM_ROLES and
#: nothing else).
EVENT_ROLES: dict[str, str] = {
    "subject": "the object the event is about must fit the phrase",
    "other": "the event's other object (the one damaged, attacked or pushed; the player revealing) must fit the phrase",
    "cause": "what brought the event about: an attack of a kind, an attack or spell named, an object or player",
    "marker": "the condition the event is about is one of the bracketed names",
    "attack_kind": "the attack behind the event is of this kind (melee, ranged...)",
    "place": "the zone entered, left or moved into fits the place",
    "how": "the kind of change of zone",
    "step": "the step of the attack sequence reached",
    "defending": "the object defending against the attack must fit the phrase",
    "attacking": "the attacking object must fit the phrase",
    "action": "the action declared",
    "roll": "the roll made",
    "source": "the object whose effect brought the event about must fit the phrase",
}
#: For each event, the role of each parameter the engine matches.  A parameter missing from its event's
#: row is never compared with anything: the checker refuses an argument given for it (E204) rather than
#: let the ability fire as if it had not been written.
EVENT_PARAM_ROLES: dict[str, dict[str, str]] = {
    "cast": {"what": "subject"},
    "casting": {"what": "subject"},
    "revealed": {},
    "enters": {"what": "subject", "zone": "place"},
    "destroyed": {"what": "subject", "by": "cause"},
    "discarded": {"what": "subject"},
    "attacked": {"what": "subject", "by": "cause"},
    "attacks": {"what": "subject", "target": "other"},
    "hit": {"what": "subject", "by": "cause"},
    "damaged": {"what": "subject", "by": "cause", "kind": "attack_kind"},
    "deals_damage": {"what": "subject", "to": "other"},
    "avoided": {"what": "subject"},
    "moves": {"what": "subject", "into": "place", "how": "how"},
    "leaves": {"what": "subject", "zone": "place", "how": "how"},
    "enchanted": {"what": "subject"},
    "condition_placed": {"what": "subject", "kind": "marker"},
    "condition_removed": {"what": "subject", "kind": "marker"},
    "token_removed": {"what": "subject", "kind": "marker"},
    "healed": {"what": "subject"},
    "activated": {"what": "subject"},
    "action_ends": {"what": "subject"},
    "targeted": {"what": "subject", "by": "cause"},
    "counterstrike": {"what": "subject"},
    "guards": {"what": "subject"},
    "channels": {"who": "subject"},
    "pays": {"who": "subject"},
    "pushes": {"what": "subject", "target": "other"},
    "intercepts": {"what": "subject"},
    "attack_resolved": {"what": "subject"},
    "condition_damage": {"what": "subject", "kind": "marker"},
    "would_be_destroyed": {"what": "subject", "by": "cause"},
    "attack_step": {"step": "step", "defending": "defending", "attacking": "attacking"},
    "reveals": {"who": "other", "what": "subject"},
    "rolls": {"what": "roll"},
    "loses_mana": {"who": "subject", "source": "source"},
    "declares": {"what": "subject", "action": "action"},
}


def call_arguments(sig: "Signature", call) -> tuple[dict, list]:
    """A call's arguments by parameter name: positional ones by their place in the signature (a `*name`
    parameter gathers those from its place on, as a tuple), keyword ones by key (a positional one wins
    over a keyword of the same name); and the positional ones the signature has no place for."""
    pos = [a.value for a in call.args if not a.key]
    out: dict = {}
    i = 0
    for p in sig.params:
        if i >= len(pos):
            break
        if p.rest:
            out[p.name] = tuple(pos[i:])
            i = len(pos)
            break
        out[p.name] = pos[i]
        i += 1
    for a in call.args:
        if a.key and a.key not in out:
            out[a.key] = a.value
    return out, pos[i:]


def event_arguments(call) -> dict:
    """The arguments of an event call by parameter name (call_arguments), or {} for an unknown event."""
    sig = EVENT_FUNCS.get(call.name)
    return call_arguments(sig, call)[0] if sig is not None else {}


def unmatched_event_params(name: str) -> tuple[str, ...]:
    """The parameters of an event that no role covers: an argument for one would be ignored."""
    sig = EVENT_FUNCS.get(name)
    roles = EVENT_PARAM_ROLES.get(name, {})
    return tuple(p.name for p in sig.params if p.name not in roles) if sig else ()


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
# The three sequences the engine runs step by step, each step by its name in the language (`after STEP`,
# `attack_step("STEP")`, `reveal ... after STEP`) and its title in the rulebook (the log's step lines).
# The engine's sequences read these tables: engine/attack.py (its chart's columns are made of these
# names), engine/casting.py and engine/movement.py; tests/test_vocabulary_docs.py checks that each
# runs exactly its sequence's steps.
#: the attack sequence (the supplement's chart), in its order
ATTACK_STEPS = ("declare_attack", "pay_costs", "roll_to_miss", "avoid_attack", "roll_dice",
                "damage_and_effects", "additional_strikes", "damage_barrier", "counterstrike", "attack_ends")
#: the casting sequence (Rules: Casting Spells), in its order: a reveal window follows each step
CAST_STEPS = ("declare_spell", "pay_spell_costs", "counter_spell_step", "resolve_spell")
#: the move sequence (Rules: Move Action), in the rulebook's order: a reveal window follows each step that
#: runs (engine/movement.py runs them, under the same names; its MOVE_STEPS is this tuple)
MOVE_STEPS = ("declare_move", "pay_costs", "leaving_zone", "walls", "move_to_zone", "entering_zone")


def step_title(name: str) -> str:
    """A step's title in the rulebook as its name spells it: roll_to_miss -> Roll to Miss."""
    return " ".join(w if w in ("to", "and") else w.capitalize() for w in name.split("_"))


#: each step's title in the rulebook: its name's words (step_title), but where the rulebook says more or
#: other (the attack's and the move's Pay Costs are one name and one title)
STEP_TITLES = {name: step_title(name) for name in (*ATTACK_STEPS, *CAST_STEPS, *MOVE_STEPS)} | {
    "pay_spell_costs": "Pay Costs", "counter_spell_step": "Counter Spell",
    "leaving_zone": "Leaving Zone Effects", "move_to_zone": "Move to New Zone",
    "entering_zone": "Entering Zone Triggers",
}
assert set(STEP_TITLES) == {*ATTACK_STEPS, *CAST_STEPS, *MOVE_STEPS}
STEPS = {
    *ATTACK_STEPS, *CAST_STEPS, *MOVE_STEPS,
    # phases
    "upkeep", "channeling", "planning", "deployment", "initiative", "action", "quickcast", "reset",
}
DURATIONS = {"round", "action_phase", "attack", "attack_action", "turn", "phase", "game"}

KINDS = {"obj", "num", "traits", "name", "str", "step", "any", "bool"}


@frozen_dataclass
class Param:
    name: str
    kind: str
    optional: bool = False
    rest: bool = False


@frozen_dataclass
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

# ---------------------------------------------------------------- phrase words
# Every lower-case word a phrase may use, with its role and meaning.  This table is the one
# place phrase words come from: the grammar's `pword` rule and the word lists in docs/dsl.md
# are tested against it, and magewars/dsl/selectors.py compiles phrases by these roles.
# Roles: pronoun, quantifier, adjective, noun, relation, attack (free words for attack kinds and
# damage, meaningful only where a call takes `any`), reserved (a keyword only as an argument name).
PHRASE_WORDS_TABLE = """
this         pronoun     the object whose ability is running
that         pronoun     the object the triggering event is about ("that creature", "that spell")
it           pronoun     the object the event or the current step is about
its          pronoun     possessive of it: "its zone", "its Curse enchantment" (attached to it)
target       pronoun     the chosen target; "target X" is the chosen target, which must be an X
enchanted    pronoun     the object or zone this enchantment is attached to
attached     pronoun     the object this card is attached to; "attached to X" is a relation
attacker     pronoun     the attacking object of the current attack
defender     pronoun     the target of the current attack
controller   pronoun     the Mage of this object's controller; "controller of X" for another object's
you          pronoun     the Mage of this object's controller
your         pronoun     possessive of you: "your Mage", "your zone", "your Holy spells"
owner        pronoun     the Mage of this object's owner; "owner of X" for another object's
source       pronoun     the source of the current attack
bearer       pronoun     the object this equipment is attached to
each         quantifier  every object that matches
every        quantifier  every object that matches
all          quantifier  every object that matches
a            quantifier  one object that matches (the engine offers every match)
an           quantifier  one object that matches (the engine offers every match)
any          quantifier  one object that matches (the engine offers every match)
the          quantifier  the object or place that matches ("the zone of this", "the 2 adjacent zones")
up           quantifier  "up to N": at most N objects that match
to           quantifier  "up to N"; after attached, "attached to X"; after adjacent, "adjacent to X"
another      quantifier  one object that matches other than this one (and its host)
other        adjective   not this object (nor the object it is attached to)
new          adjective   not the object the effect is already about (it, target)
same         adjective   "in the same zone": in the zone of this
friendly     adjective   controlled by the controller of this
enemy        adjective   controlled by an opponent of the controller of this
revealed     adjective   a face-up enchantment
hidden       adjective   a face-down enchantment
non          adjective   "non X": not X (written Non-X in one word as well)
destroyed    adjective   in a discard pile, having been destroyed
discarded    adjective   in a discard pile
adjacent     adjective   a zone one step away (from the zone of this unless "adjacent to X")
controlled   adjective   "controlled by X": its controller is X's controller
level        adjective   "level N" or "up to level N": the spell level
creature     noun        creature: a creature or a Mage
creatures    noun        creature
conjuration  noun        conjuration: a conjuration, wall, terrain or vine
conjurations noun        conjuration
object       noun        object: a creature or a conjuration
objects      noun        object
enchantment  noun        enchantment
enchantments noun        enchantment
equipment    noun        equipment
mage         noun        mage: a Mage (by card kind or Mage subtype)
mages        noun        mage
wall         noun        wall
walls        noun        wall
terrain      noun        terrain
vine         noun        vine ("vine marker" names the same object)
incantation  noun        incantation
incantations noun        incantation
spell        noun        spell: any spell card
spells       noun        spell
card         noun        card: any card
cards        noun        card
zone         noun        zone: a zone of the arena
zones        noun        zone
border       noun        border: a border between two zones
borders      noun        border
arena        noun        arena: every zone ("in the arena": anywhere in play)
marker       noun        marker: one condition marker or token on an object
markers      noun        marker
token        noun        marker
tokens       noun        marker
condition    noun        marker
conditions   noun        marker
player       noun        player: a player, named by their Mage
players      noun        player
opponent     noun        opponent: a player other than the controller of this, named by their Mage
in           relation    "in this zone", "in the zone of X", "in target zone", "in the arena", "in a zone with ..."
of           relation    "zone of X", "controller of X", "within N zones of X", "equipment of X", "N of your ..."
with         relation    "with Burn": has the name (trait, condition, token); "with <phrase>": carries or holds a match
within       relation    "within N zones [of X]": at most N zones from X (this by default)
on           relation    "on X": attached to X; "on a border of <zone>": a wall on that zone's border
by           relation    "controlled by X"; "spell by X": cast by X
from         reserved    only an argument name: transfer_mana(from: ...)
subtype      adjective   after a Capitalised name: that subtype alone ("Non-Frost subtype creature": not the Frost +X trait)
melee        attack      a melee attack
ranged       attack      a ranged attack
damage       attack      damage (a free word, or the damage() call); "with damage": an object with damage on it
"""


def _phrase_words(text: str) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for raw in text.strip().splitlines():
        word, role, meaning = raw.split(None, 2)
        if word in out:
            raise ValueError(f"phrase word {word!r} given twice")
        out[word] = (role, meaning)
    return out


PHRASE_WORDS: dict[str, tuple[str, str]] = _phrase_words(PHRASE_WORDS_TABLE)
PHRASE_ROLES = ("pronoun", "quantifier", "adjective", "noun", "relation", "attack", "reserved")


def words_with_role(role: str) -> frozenset[str]:
    return frozenset(w for w, (r, _) in PHRASE_WORDS.items() if r == role)


PRONOUNS = words_with_role("pronoun")
QUANTIFIERS = words_with_role("quantifier")
ADJECTIVES = words_with_role("adjective")
NOUNS = words_with_role("noun")
RELATIONS = words_with_role("relation")
ATTACK_WORDS = words_with_role("attack")

# Object kinds (card kinds of objects in play), grouped as the game groups them.
# The stat words of the card language (the grammar's `stat_kw`: `armor 2 life 12`); a page labels a
# card's stats with these words, capitalised.
STAT_WORDS = ("armor", "life", "channeling", "spellbook", "mana")

# The codex category that makes a trait entry a damage type (`trait "Flame" { ... category Object, Damage }`):
# an attack bar's `damage T` must name one, and the type's name is known to phrases.
DAMAGE_TYPE_CATEGORY = "Damage"

CREATURE_KINDS = ("creature", "mage", "magestats")
CONJURATION_KINDS = ("conjuration", "wall", "terrain", "vine")
OBJECT_KINDS = CREATURE_KINDS + CONJURATION_KINDS
SPELL_KINDS = ("creature", "conjuration", "wall", "terrain", "vine", "enchantment", "equipment",
               "incantation", "attack")
CARD_KINDS = SPELL_KINDS + ("mage", "magestats")

# What each noun selects: its domain (object, zone, border, marker, player) and, for objects,
# the card kinds it covers.  `subtype` means an object whose card has that noun as a
# Capitalised subtype counts too (a creature with the Mage subtype is a mage).
NOUN_MEANINGS: dict[str, tuple[str, tuple[str, ...], bool]] = {
    "creature": ("object", CREATURE_KINDS, False),
    "conjuration": ("object", CONJURATION_KINDS, False),
    "object": ("object", OBJECT_KINDS, False),
    "enchantment": ("object", ("enchantment",), False),
    "equipment": ("object", ("equipment",), False),
    "mage": ("object", ("mage", "magestats"), True),
    "wall": ("object", ("wall",), False),
    "terrain": ("object", ("terrain",), False),
    "vine": ("object", ("vine",), False),
    "incantation": ("object", ("incantation",), False),
    "attack": ("object", ("attack",), False),
    "spell": ("object", SPELL_KINDS, False),
    "card": ("object", CARD_KINDS, False),
    "zone": ("zone", (), False),
    "arena": ("zone", (), False),
    "border": ("border", (), False),
    "marker": ("marker", (), False),
    "player": ("player", (), False),
    "opponent": ("player", (), False),
}


def noun_meaning(word: str) -> tuple[str, tuple[str, ...], bool]:
    """(domain, kinds, subtype) of a phrase noun, singular or plural, any case ("Creature" too)."""
    w = word.lower()
    role = PHRASE_WORDS.get(w)
    if role is not None and role[0] == "noun":
        return NOUN_MEANINGS[role[1].split(":")[0].split()[0]]
    if w in NOUN_MEANINGS:  # a Capitalised card-type word with no lower-case phrase form (Attack)
        return NOUN_MEANINGS[w]
    raise KeyError(word)




def all_functions() -> dict[str, Signature]:
    out = {}
    out.update(EFFECT_FUNCS)
    out.update(VALUE_FUNCS)
    return out
