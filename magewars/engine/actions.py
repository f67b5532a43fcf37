"""The typed action choices of the whole-game contract, and how they are labelled for agents.

Every action choice reaches an agent as ``game.decide("action", player, options)``; each
``Option.value`` is one of the records below: plain frozen values (ids and names only), hashable and
printable, so a log or a replay can hold them.  Which of them an activating creature may take now is
worked out in engine/activation.py.
"""
from __future__ import annotations

from typing import Optional

from .decisions import Option
from ..dsl.frozen import light_dataclass  # @dataclass, made without compiling source text

# ---------------------------------------------------------------- the typed choices
@light_dataclass(frozen=True)
class MoveChoice:
    obj_id: str
    to_zone: str
    teleport: bool = False  # a move action spent on a teleport a permission allows (movement.teleport_moves)

    def label(self) -> str:
        return f"move {self.obj_id} to {self.to_zone}"


@light_dataclass(frozen=True)
class AttackChoice:
    obj_id: str
    attack_name: str
    target_ids: tuple = ()
    zone: Optional[str] = None
    quickcast: bool = False  # made with the Mage's quickcast marker

    def label(self) -> str:
        at = self.zone if self.zone else ", ".join(self.target_ids)
        return f"{self.obj_id} attacks {at} with {self.attack_name}"


@light_dataclass(frozen=True)
class CastChoice:
    caster_id: str
    card_name: str
    target_ids: tuple = ()
    zone: Optional[str] = None
    face_down: bool = False
    quickcast: bool = False  # cast with the mage's quickcast marker, not its action

    @property
    def hidden(self) -> bool:
        """A face-down cast names its spell to the caster's player only (the decision log keeps it secret)."""
        return self.face_down

    def public_label(self) -> str:
        at = [*self.target_ids] + ([self.zone] if self.zone else [])
        return f"{self.caster_id} casts a spell face down" + (f" on {', '.join(at)}" if at else "")

    def label(self) -> str:
        at = [*self.target_ids] + ([self.zone] if self.zone else [])
        return (f"{self.caster_id} {'quickcasts' if self.quickcast else 'casts'} {self.card_name}"
                + (" face down" if self.face_down else "") + (f" on {', '.join(at)}" if at else ""))


@light_dataclass(frozen=True)
class GuardChoice:
    obj_id: str

    def label(self) -> str:
        return f"{self.obj_id} guards"


@light_dataclass(frozen=True)
class AbilityChoice:
    obj_id: str  # the object whose card carries the ability
    ability_index: int  # index in that card's abilities
    target_ids: tuple = ()
    actor_id: Optional[str] = None  # the activating creature, when it is not obj_id
    entry: Optional[str] = None  # the codex entry (a trait obj_id has) whose abilities are indexed, if not its card
    quickcast: bool = False  # a Mage's own quick ability (a quick spell) used with its quickcast marker
    card_of: Optional[str] = None  # the object whose card carries the ability, used by obj_id as its own
    # (othercasters.use_actions_of)

    def label(self) -> str:
        by = f" (by {self.actor_id})" if self.actor_id and self.actor_id != self.obj_id else ""
        of = f" of {self.card_of}" if self.card_of else ""
        return f"{self.obj_id} uses action ability #{self.ability_index + 1}{of}{by}"


@light_dataclass(frozen=True)
class PassChoice:
    obj_id: str

    def label(self) -> str:
        return f"{self.obj_id} ends its action phase"


ActionChoice = (MoveChoice, AttackChoice, CastChoice, GuardChoice, AbilityChoice, PassChoice)


@light_dataclass
class Activation:
    """Where one creature's action phase stands."""
    obj_id: str
    moves: int = 0  # move actions taken
    acted: bool = False  # its quick or full action is taken (or it passed)
    quickcast_before: bool = False  # the mage quickcast before its action


class _Names(dict):
    """Object id -> its name in an option (public_label: a face-down card is never named in an option:
    the choice taken is logged for all), each worked out once for one set of options (the state does not
    change while they are labelled)."""
    __slots__ = ("objs",)

    def __init__(self, objs) -> None:
        super().__init__()
        self.objs = objs

    def __missing__(self, oid):
        o = self.objs.get(oid)
        got = self[oid] = o.public_label() if o is not None else oid
        return got


def options_of(choices: list, game) -> list[Option]:
    names = _Names(game.state.objects)
    out = []
    for c in choices:  # (the usual kinds labelled here: one call per option the less)
        cls = c.__class__
        if cls is MoveChoice:
            label = f"{'teleport' if c.teleport else 'move'} {names[c.obj_id]} to {c.to_zone}"
        elif cls is PassChoice:
            label = f"{names[c.obj_id]} passes"
        else:
            label = _labelled(c, names)
        out.append(Option(label, c))
    return out


def _label(game, c) -> str:
    return _labelled(c, _Names(game.state.objects))


def _labelled(c, names: _Names) -> str:
    if isinstance(c, MoveChoice):
        return f"{'teleport' if c.teleport else 'move'} {names[c.obj_id]} to {c.to_zone}"
    if isinstance(c, AttackChoice):
        at = c.zone if c.zone else ", ".join([names[t] for t in c.target_ids])
        if c.quickcast:
            return f"{names[c.obj_id]} quickcast attack: {at} with {c.attack_name}"
        return f"{names[c.obj_id]} attacks {at} with {c.attack_name}"
    if isinstance(c, CastChoice):
        at = [names[t] for t in c.target_ids] + ([c.zone] if c.zone else [])
        return (f"{names[c.caster_id]} {'quickcasts' if c.quickcast else 'casts'} {c.card_name}"
                + (" face down" if c.face_down else "") + (f" on {', '.join(at)}" if at else ""))
    if isinstance(c, GuardChoice):
        return f"{names[c.obj_id]} guards"
    if isinstance(c, AbilityChoice):
        src = names.objs.get(c.obj_id)
        if c.entry is not None:
            return f"{names[c.obj_id]}: {c.entry} action"
        if c.card_of is not None:  # another object's ability, used as its own (othercasters.use_actions_of)
            return f"{names[c.obj_id]}: action ability #{c.ability_index + 1} of {names[c.card_of]}"
        return (f"{names[c.obj_id]}: action ability #{c.ability_index + 1}"
                + (f" ({src.card.name})" if src is not None and c.actor_id else "")
                + (" with the quickcast marker" if c.quickcast else ""))
    if isinstance(c, PassChoice):
        return f"{names[c.obj_id]} passes"
    return str(c)
