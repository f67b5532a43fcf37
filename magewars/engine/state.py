"""Game state: players, objects (with controller and owner), the arena, markers.

Every mutation goes through a method that bumps `GameState.version`, so that
derived values (armor, life, traits) can be cached and invalidated cheaply.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterator, Optional

from ..dsl.model import CardDefinition
from ..dsl.frozen import light_dataclass  # @dataclass, made without compiling source text

ROW_LETTERS = "ABCDEFGH"

#: how a temporary effect's `until` joins several durations ("until A or B, whichever comes first")
UNTIL_EITHER = "|"


def ends_at(until: Optional[str], duration: str) -> bool:
    """Does an effect lasting `until` (a duration key, or several joined by UNTIL_EITHER) end when
    `duration` ends?"""
    return until is not None and (until == duration or duration in until.split(UNTIL_EITHER))


def start_of_action_phase(obj_id: str) -> str:
    """The duration key of "until the start of this object's next Action Phase"."""
    return f"start_of_action_phase#{obj_id}"


@dataclass(init=False)
class Player:
    name: str
    mana: int = 0
    channeling: int = 0
    mage_id: Optional[str] = None

    def __init__(self, name: str, mana: int = 0, channeling: int = 0, mage_id: Optional[str] = None):
        # written by hand: the dataclass's own __init__ would set the light field `mana` through its
        # counting property (a Python call); its store `_mana` is set here directly
        self.name = name
        self._mana = mana
        self.channeling = channeling
        self.mage_id = mage_id


@light_dataclass
class Arena:
    """Zones are labelled row letter + column number: A1 .. C4 by default (3 rows, 4 columns)."""
    rows: int = 3
    cols: int = 4
    # label -> coords, as of (rows, cols): every range, line-of-sight and movement question parses labels
    _coords: dict = field(default_factory=dict, init=False, compare=False, repr=False)
    _coords_rows: int = field(default=-1, init=False, compare=False, repr=False)
    # zone -> {every zone, in zones() order: its distance from that zone}, as of (rows, cols): distances_from
    _from: dict = field(default_factory=dict, init=False, compare=False, repr=False)
    _coords_cols: int = field(default=-1, init=False, compare=False, repr=False)

    def zones(self) -> list[str]:
        return [f"{ROW_LETTERS[r]}{c + 1}" for r in range(self.rows) for c in range(self.cols)]

    def is_zone(self, label: str) -> bool:
        return self.coords(label) is not None

    def coords(self, label: str) -> Optional[tuple[int, int]]:
        if not isinstance(label, str) or len(label) < 2:
            return None
        cache = self._coords
        if self._coords_rows != self.rows or self._coords_cols != self.cols:
            cache.clear()
            self._coords_rows, self._coords_cols = self.rows, self.cols
        got = cache.get(label, False)
        if got is False:
            got = self._parse(label)
            if len(cache) < 1024:
                cache[label] = got
        return got

    def _parse(self, label: str) -> Optional[tuple[int, int]]:
        r = ROW_LETTERS.find(label[0].upper())
        try:
            c = int(label[1:]) - 1
        except ValueError:
            return None
        if 0 <= r < self.rows and 0 <= c < self.cols:
            return r, c
        return None

    def distance(self, a: str, b: str) -> int:
        # (labels already read are looked up here: range and movement ask thousands of distances a duel)
        cache = self._coords
        p, q = cache.get(a), cache.get(b)
        if p is None or q is None or self._coords_rows != self.rows or self._coords_cols != self.cols:
            p, q = self.coords(a), self.coords(b)
        (r1, c1), (r2, c2) = p, q
        return abs(r1 - r2) + abs(c1 - c2)  # no diagonals in Mage Wars range

    def distances_from(self, here: str) -> dict:
        """Every zone (in `zones()` order) and its distance from `here`, kept per zone while the size
        stays the same (a spell's candidate targets are each asked their distance from the caster)."""
        key = (self.rows, self.cols, here)
        got = self._from.get(key)
        if got is None:
            if len(self._from) >= 1024:
                self._from.clear()
            got = self._from[key] = {z: self.distance(here, z) for z in self.zones()}
        return got

    def adjacent(self, a: str, b: str) -> bool:
        return self.distance(a, b) == 1

    def border(self, a: str, b: str) -> frozenset:
        if not self.adjacent(a, b):
            raise ValueError(f"zones {a} and {b} share no border")
        return frozenset((a, b))


#: (GameObject.__init__: a default standing for "a new empty container", as the dataclass's default_factory did)
_NEW = object()

#: the light fields of an object (each read is counted in LIGHT_READS)
LIGHT_FIELDS = ("damage", "guard", "action_marker", "moves_taken", "move_stopped", "defense_uses", "uses",
                "fresh")


class _LightStores:
    """The slots holding an object's light fields (`_damage`...), read through GameObject's counting
    properties (_light); and an instance dict, made only when some module keeps an attribute of its
    own on an object (othercasters' given spells)."""
    # (`_light_stamp`: LIGHT_WRITES as of the last write of one of its TRACKED_LIGHT fields, for Effects: LIGHT_TRACK)
    __slots__ = (*("_" + name for name in LIGHT_FIELDS), "_light_stamp", "__dict__")


# Slots, not an instance dict: an object has thirty fields, past what an instance dict keeps in its
# compact shared form, so each object made (and left to the collector) a 3 KB dict of its own; slots
# are read and written in one step.  (The dataclass's own slots for the light fields stay unused:
# _light puts the counting properties in their place.)
@dataclass(eq=False, init=False, slots=True)
class GameObject(_LightStores):
    """A card in the game.  An entity: two objects are the same only if they are one object (compared
    by identity; comparing field by field read every field, damage included, wherever an object was
    looked for in a list)."""
    id: str
    card: CardDefinition
    controller: str
    owner: str
    zone: Optional[str] = None  # for objects in a zone (creatures, conjurations)
    attached_to: Optional[str] = None  # id of the object it is attached to
    attached_zone: Optional[str] = None  # zone an enchantment/conjuration is attached to
    border: Optional[frozenset] = None  # walls
    facing: Optional[str] = None  # a wall: the zone of its border the top of the card faces
    hidden: bool = False  # enchantments: face down
    timestamp: int = 0
    damage: int = 0
    markers: Counter = field(default_factory=Counter)  # conditions and tokens by codex name
    fresh: Counter = field(default_factory=Counter)  # conditions received from barrier/counterstrike
    # when each marker it carries was first placed (a point between two timestamps): an effect that
    # holds because of a marker (a Pet token) dates from then (Rules, Effects)
    marker_since: dict = field(default_factory=dict)
    guard: bool = False
    action_marker: str = "ready"  # ready | used
    defense_uses: Counter = field(default_factory=Counter)  # per round, by defense index
    uses: set = field(default_factory=set)  # once-per-round abilities used (tracked by the source)
    in_play: bool = True
    destroyed_by_damage: bool = False
    moves_taken: int = 0  # move actions taken in its current Action Phase (engine/movement.py)
    move_stopped: Optional[str] = None  # why it may not move again this Action Phase (hindered...)
    hindered_until: Optional[int] = None  # a hinder(...) effect lasts through this round
    left_to: Optional[str] = None  # where it went when it left play: discard | obliterated | spellbook
    display: Optional[str] = None  # shown instead of the card name (a mage shown by its name, not its stats card)
    entered_round: Optional[int] = None  # the round it came into play by a spell or effect (movement.enter_zone)
    # out of the arena but in play (remove_from_arena): the zone it left, and the token counting it down
    outside: Optional[tuple] = None  # (zone, token name or None)
    front: Optional[str] = None  # a wall: the zone its front faces (the first zone of its border)
    # its Life when it came to be unable to gain life (Finite Life): a Life +X that grows later is held there
    life_when_barred: Optional[int] = None

    def __init__(self, id: str, card: CardDefinition, controller: str, owner: str, zone: Optional[str] = None,
                 attached_to: Optional[str] = None, attached_zone: Optional[str] = None,
                 border: Optional[frozenset] = None, facing: Optional[str] = None, hidden: bool = False,
                 timestamp: int = 0, damage: int = 0, markers: Counter = _NEW, fresh: Counter = _NEW,
                 marker_since: dict = _NEW, guard: bool = False, action_marker: str = "ready",
                 defense_uses: Counter = _NEW, uses: set = _NEW, in_play: bool = True,
                 destroyed_by_damage: bool = False, moves_taken: int = 0, move_stopped: Optional[str] = None,
                 hindered_until: Optional[int] = None, left_to: Optional[str] = None, display: Optional[str] = None,
                 entered_round: Optional[int] = None, outside: Optional[tuple] = None, front: Optional[str] = None,
                 life_when_barred: Optional[int] = None):
        # Written by hand (the dataclass's fields, in their order, with their defaults): the generated
        # __init__ set each light field through its counting property (eight Python calls an object),
        # and made each Counter through Counter.__init__ (two more); here the light fields' stores
        # (`_damage`...) are set directly and an empty Counter is made by dict.__new__, which is all
        # Counter() does when given nothing to count.
        self.id = id
        self.card = card
        self.controller = controller
        self.owner = owner
        self.zone = zone
        self.attached_to = attached_to
        self.attached_zone = attached_zone
        self.border = border
        self.facing = facing
        self.hidden = hidden
        self.timestamp = timestamp
        self._damage = damage
        self._light_stamp = 0
        self.markers = dict.__new__(Counter) if markers is _NEW else markers
        self._fresh = None if fresh is _NEW else fresh  # (made when first read: _LAZY_LIGHT)
        self.marker_since = {} if marker_since is _NEW else marker_since
        self._guard = guard
        self._action_marker = action_marker
        self._defense_uses = None if defense_uses is _NEW else defense_uses  # (made when first read)
        self._uses = None if uses is _NEW else uses  # (made when first read)
        self.in_play = in_play
        self.destroyed_by_damage = destroyed_by_damage
        self._moves_taken = moves_taken
        self._move_stopped = move_stopped
        self.hindered_until = hindered_until
        self.left_to = left_to
        self.display = display
        self.entered_round = entered_round
        self.outside = outside
        self.front = front
        self.life_when_barred = life_when_barred

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def kind(self) -> str:
        return self.card.kind

    def label(self) -> str:
        return f"{self.display or self.card.name} [{self.id}]"

    def public_label(self) -> str:
        return f"hidden enchantment [{self.id}]" if self.hidden else self.label()


#: how many times a "light" field has been read: an object's damage, guard, action marker, moves
#: taken, move stop, defense uses, once-per-round uses and fresh markers, a player's mana, and the
#: game's records kept in a LightList or LightSet (attacks made, abilities used, who just moved,
#: the initiative order) and its attack under way (Game.current_attack).
#: Derived values computed without such a read stay valid when only light fields change
#: (Effects.derived: set_damage says so, and a state change that leaves every other field as it
#: was is found by a fingerprint of those other fields).
LIGHT_READS = [0]
#: reads of an object's damage alone (magewars odds asks whether an attack's outcome depends on it)
DAMAGE_READS = [0]
#: the light fields of an object whose reads are tracked object by object while a derived value is worked
#: out (scalars written only through their properties; the containers are changed in place, and are not)
TRACKED_LIGHT = ("damage", "guard", "action_marker", "moves_taken", "move_stopped")
#: [the objects whose TRACKED_LIGHT fields the derived value being worked out read -> their `_light_stamp` then,
#: or None when none is]: Effects.derived sets it, so that a value that read only such fields is dropped only
#: when one of those objects' fields is written again, not at every change of a light field
LIGHT_TRACK: list = [None]
#: reads of TRACKED_LIGHT fields while LIGHT_TRACK is set (each is counted in LIGHT_READS too)
TRACKED_READS = [0]
#: writes of TRACKED_LIGHT fields so far (an object's `_light_stamp` is this count as of its last such write)
LIGHT_WRITES = [0]
#: writes of an object's damage or guard marker so far (what a state check reads of the objects besides the
#: fingerprinted state and derived values: Game.check_state keeps an answer while it stays the same)
HEALTH_WRITES = [0]

_LIGHT_ACCESSORS = """
def get(self):
    LIGHT_READS[0] += 1{damage}
    return self._{name}

def set_(self, value):
    self._{name} = value
"""

#: light fields holding a container that many objects never touch (no fresh markers, no defense used, no
#: once-per-round ability): each is made when first read (an empty one, as the constructor's default
#: was), so an object that never reads it makes none, and leaves none to the collector
_LAZY_LIGHT = {"fresh": lambda: dict.__new__(Counter), "defense_uses": lambda: dict.__new__(Counter), "uses": set}

_LAZY_LIGHT_ACCESSORS = """
def get(self):
    LIGHT_READS[0] += 1
    got = self._{name}
    if got is None:
        got = self._{name} = NEW()
    return got

def set_(self, value):
    self._{name} = value
"""


_TRACKED_ACCESSORS = """
def get(self):
    LIGHT_READS[0] += 1{damage}
    track = LIGHT_TRACK[0]
    if track is not None:
        TRACKED_READS[0] += 1
        track[self] = self._light_stamp
    return self._{name}

def set_(self, value):
    self._{name} = value{health}
    LIGHT_WRITES[0] += 1
    self._light_stamp = LIGHT_WRITES[0]
"""


def _light(cls, name: str) -> None:
    # The accessors are written out for each field (the store's name in their code, not read from a
    # variable): `self._damage` is an attribute read the interpreter specializes, where
    # `self.__dict__[slot]` looked the instance dict up (and made the object keep one) at every read.
    env = {"LIGHT_READS": LIGHT_READS, "DAMAGE_READS": DAMAGE_READS, "NEW": _LAZY_LIGHT.get(name),
           "LIGHT_TRACK": LIGHT_TRACK, "TRACKED_READS": TRACKED_READS, "LIGHT_WRITES": LIGHT_WRITES,
           "HEALTH_WRITES": HEALTH_WRITES}
    src = (_LAZY_LIGHT_ACCESSORS if name in _LAZY_LIGHT and cls is GameObject else
           _TRACKED_ACCESSORS if name in TRACKED_LIGHT and cls is GameObject else _LIGHT_ACCESSORS).format(
        name=name, damage="\n    DAMAGE_READS[0] += 1" if name == "damage" else "",
        health="\n    HEALTH_WRITES[0] += 1" if name in ("damage", "guard") else "")
    exec(compile(src, __file__, "exec"), env)
    # the dataclass field stays a constructor argument (with its default); reading it is counted
    setattr(cls, name, property(env["get"], env["set_"]))


for _name in LIGHT_FIELDS:
    _light(GameObject, _name)
_light(Player, "mana")


class LightList(list):
    """A list of the game's records (attacks made, abilities used) whose reads are counted in
    LIGHT_READS: derived values that never read it stay valid when only it changes."""
    __slots__ = ()

    def __iter__(self):
        LIGHT_READS[0] += 1
        return super().__iter__()

    def __getitem__(self, i):
        LIGHT_READS[0] += 1
        return super().__getitem__(i)

    def __len__(self):
        LIGHT_READS[0] += 1
        return super().__len__()

    def __contains__(self, x):
        LIGHT_READS[0] += 1
        return super().__contains__(x)

    def __reversed__(self):
        LIGHT_READS[0] += 1
        return super().__reversed__()

    def index(self, *a):
        LIGHT_READS[0] += 1
        return super().index(*a)

    def count(self, x):
        LIGHT_READS[0] += 1
        return super().count(x)

    def __add__(self, other):
        LIGHT_READS[0] += 1
        return list(super().__iter__()) + list(other)

    def __radd__(self, other):
        LIGHT_READS[0] += 1
        return list(other) + list(super().__iter__())


class LightSet(set):
    """A set of the game's (creatures whose last action was a move...) whose reads are counted
    in LIGHT_READS, like LightList."""
    __slots__ = ()

    def __iter__(self):
        LIGHT_READS[0] += 1
        return super().__iter__()

    def __len__(self):
        LIGHT_READS[0] += 1
        return super().__len__()

    def __contains__(self, x):
        LIGHT_READS[0] += 1
        return super().__contains__(x)


def new_spell_id(game) -> str:
    """The id of a new spell object (a spell being cast, a wall placed by an Extendable one): `spellN`,
    numbered after the spell objects there are and never below the last number given, and skipping an
    id in use.  Counting alone is not enough: an object that left the state (a card cast from a discard
    pile, othercasters.cast_unplanned) lowers the count, and an id a scenario or test gave an object may
    take the next number."""
    objects = game.state.objects
    n = max(sum(1 for o in objects if o.startswith("spell")), getattr(game, "spells_made", 0)) + 1
    while f"spell{n}" in objects:
        n += 1
    game.spells_made = n
    return f"spell{n}"


class GameState:
    @property
    def order(self) -> list:
        """The players in initiative order: a LightList (its reads are counted, so derived values
        that never read it survive a new initiative)."""
        return self._order

    @order.setter
    def order(self, value) -> None:
        self._order = LightList(value)

    @property
    def round(self) -> int:
        """The round number: a light field (its reads are counted, so derived values that never read it
        survive a new round; those that do are worked out again at the next change)."""
        LIGHT_READS[0] += 1
        return self._round

    @round.setter
    def round(self, value: int) -> None:
        self._round = value

    def __init__(self, arena: Optional[Arena] = None):
        self.arena = arena or Arena()
        self.players: dict[str, Player] = {}
        # initiative order (the `order` and `round` properties' stores, set directly: no Python call each)
        self._order: list[str] = LightList()
        self.objects: dict[str, GameObject] = {}
        # the discard piles: reads counted (a derived value that reads them, a phrase naming cards in a
        # discard pile, is dropped at the next change of the state; the others outlive a card discarded)
        self.graveyard: list[GameObject] = LightList()
        self._round = 1
        self.version = 0
        # bumped with version by every change except damage alone (set_damage): what derived values
        # (Effects) depend on unless they read damage
        self.shape_version = 0
        self._clock = 0

    # ------------------------------------------------------------ bookkeeping
    def touch(self) -> None:
        self.version += 1
        self.shape_version += 1

    def touch_light(self) -> None:
        """A change of light fields only (an object's damage, guard, action marker, moves taken, move stop,
        defense and ability uses, fresh markers; a player's mana; the records kept in a LightList): the
        version moves, the shape version does not, so that Effects does not fingerprint the state again
        only to find it the same.  Only for a change that leaves every fingerprinted field as it was
        (Effects._fingerprint); anything else goes through touch()."""
        self.version += 1

    def next_timestamp(self) -> int:
        self._clock += 1
        return self._clock

    def add_player(self, name: str, mana: int = 0, channeling: int = 0) -> Player:
        p = Player(name, mana, channeling)
        self.players[name] = p
        self._order.append(name)
        self.touch()
        return p

    def add_object(self, obj: GameObject) -> GameObject:
        if obj.id in self.objects:
            raise ValueError(f"duplicate object id {obj.id!r}")
        obj.timestamp = self.next_timestamp()
        self.objects[obj.id] = obj
        self.touch()
        return obj

    def get(self, oid: str) -> GameObject:
        return self.objects[oid]

    # ------------------------------------------------------------ queries
    def in_play(self) -> list[GameObject]:
        """The objects in play, in the order they came into the game (a list: built at once, cheaper
        than a generator resumed for each object, and unmoved by a change of the table while read)."""
        return [o for o in self.objects.values() if o.in_play]

    def zone_of(self, obj: GameObject) -> Optional[str]:
        seen = 0
        while obj is not None and seen < 10:
            if obj.zone is not None:
                return obj.zone
            if obj.attached_zone is not None:
                return obj.attached_zone
            if obj.attached_to is None:
                return None
            obj = self.objects.get(obj.attached_to)
            seen += 1
        return None

    def host(self, obj: GameObject) -> Optional[GameObject]:
        return self.objects.get(obj.attached_to) if obj.attached_to else None

    def attachments(self, obj: GameObject) -> list[GameObject]:
        return [o for o in self.objects.values() if o.in_play and o.attached_to == obj.id]

    def zone_attachments(self, zone: str) -> list[GameObject]:
        return [o for o in self.objects.values() if o.in_play and o.attached_zone == zone]

    def objects_in_zone(self, zone: str) -> list[GameObject]:
        return [o for o in self.objects.values() if o.in_play and o.zone == zone]

    def mage_of(self, player: str) -> Optional[GameObject]:
        p = self.players.get(player)
        return self.objects.get(p.mage_id) if p and p.mage_id else None

    # ------------------------------------------------------------ mutations
    def set_damage(self, obj: GameObject, amount: int) -> None:
        obj.damage = max(0, amount)
        self.version += 1  # not shape_version: only derived values that read damage are stale

    def add_marker(self, obj: GameObject, name: str, count: int = 1, fresh: bool = False) -> None:
        if obj.markers.get(name, 0) <= 0 and count > 0:
            obj.marker_since[name] = self._clock + 0.5  # after every effect in play, before the next
        obj.markers[name] += count
        if fresh:
            obj.fresh[name] += count
        self.touch()

    def remove_marker(self, obj: GameObject, name: str, count: Optional[int] = None) -> int:
        have = obj.markers.get(name, 0)
        n = have if count is None else min(count, have)
        if n:
            obj.markers[name] -= n
            if obj.markers[name] <= 0:
                del obj.markers[name]
            if obj.fresh.get(name):
                obj.fresh[name] = min(obj.fresh[name], obj.markers.get(name, 0))
                if obj.fresh[name] <= 0:
                    del obj.fresh[name]
            self.touch()
        return n

    def move_to_zone(self, obj: GameObject, zone: str) -> None:
        obj.zone = zone
        self.touch()

    def attach(self, obj: GameObject, host: Optional[GameObject] = None, zone: Optional[str] = None) -> None:
        """(Re)attach; the attachment takes a new timestamp (an enchantment moved is later in order)."""
        obj.attached_to = host.id if host else None
        obj.attached_zone = zone
        obj.zone = None
        obj.timestamp = self.next_timestamp()
        self.touch()

    def remove_from_play(self, obj: GameObject, to: str = "discard") -> None:
        """Take an object out of play, to its owner's discard pile (where "destroyed" phrases look),
        out of the game (`obliterated`) or back to its owner's spellbook (`spellbook`)."""
        obj.in_play = False
        obj.guard = False
        obj.left_to = to
        if to == "discard":
            self.graveyard.append(obj)
        self.touch()
