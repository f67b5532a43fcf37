"""Names of the `static` calls the casting sequence reads (engine/casting.py, engine/placement.py).

A leaf module: the continuous-effects layer (engine/effects.py) leaves these statics to the casting
sequence without a word, and coverage counts them as running.
"""
from __future__ import annotations

#: `costs(PHRASE, N, ...)`: a casting-cost change for matching spells
COSTS = "costs"
#: `copies_in_play(this, N, per: "player")`: at most N objects of this name in play (per player)
COPIES_IN_PLAY = "copies_in_play"
#: `zone_limit(PHRASE, N)`: a zone holds at most N objects matching the phrase
ZONE_LIMIT = "zone_limit"
#: `cast_only(this, PHRASE, ...)`: a caster that may cast only spells matching one of the phrases
CAST_ONLY = "cast_only"
#: `spellbook_only(this, X)`: read at casting too, only that kind of Mage may cast the spell
SPELLBOOK_ONLY = "spellbook_only"

#: `mana_supply()` on a token keyword: its markers are mana kept on an object, which that object
#: spends first when it casts (engine/manasupply.py)
MANA_SUPPLY = "mana_supply"
#: `cast_limit(this, N[, by: you])`: a spell (or a spell attack bar) is cast at most N times a round
#: (engine/castlimit.py)
CAST_LIMIT = "cast_limit"
#: `extra_prepared(WHO, N)`: the object's player plans N more spells at Planning (engine/round.py)
EXTRA_PREPARED = "extra_prepared"

#: `optional_extra_cost(this, N)`: the caster may pay N more as part of the cost (engine/extracost.py)
OPTIONAL_EXTRA_COST = "optional_extra_cost"
#: `sacrifice_for_range(WHO, SPELLS, OBJECTS)`: a caster WHO names, casting a spell SPELLS names, may destroy one
#: object OBJECTS names (in its line of sight) as an additional cost, its range then not counted for a target
#: in or around that object's zone (engine/extracost.py)
SACRIFICE_FOR_RANGE = "sacrifice_for_range"
#: `range_for_mana(WHO, SPELLS, N, COST[, speed: "quick"|"full"])`: a caster WHO names, casting a spell SPELLS
#: names (cast with that action, if given), may pay COST more mana as part of the cost to add N to the spell's
#: maximum range; it is due only when a target needs it (engine/extracost.py)
RANGE_FOR_MANA = "range_for_mana"

#: `cast_as(this, ACTION, N)`: the object casts every spell as that action ("quick"/"full") and at a range
#: of at most N zones (engine/casting.py cast_as, spell_action and the range checks)
CAST_AS = "cast_as"

#: `bound_casting(WHO, N)`: who may cast the spell bound to this object, N times a round (engine/bound.py)
BOUND_CASTING = "bound_casting"

#: `set_x(N)`: the value of X of a spell costing X, worked out when it is declared (from its target).
#: Not in CAST_STATIC_CALLS: other cards state X this way for other purposes (their stats, attacks),
#: which the casting sequence does not read, so coverage keeps counting it as skipped.
SET_X = "set_x"

#: every static call the casting sequence reads
CAST_STATIC_CALLS: frozenset[str] = frozenset({COSTS, COPIES_IN_PLAY, ZONE_LIMIT, SPELLBOOK_ONLY, CAST_ONLY,
                                               MANA_SUPPLY, EXTRA_PREPARED,
                                               OPTIONAL_EXTRA_COST, SACRIFICE_FOR_RANGE, RANGE_FOR_MANA, BOUND_CASTING, CAST_LIMIT,
                                               CAST_AS})
