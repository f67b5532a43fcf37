"""The scenario file format as a pydantic schema: every key, its type and its range.

:func:`validate` checks a loaded scenario (the LDict/LList tree of
:mod:`.loader`) and returns *all* of its problems at once, each located at the
YAML node it concerns.  The runner then only has to resolve names (cards,
object ids, zones), never to guard against a wrong type or a nonsense number.

Codes: S002 wrong shape or type / missing key, S003 unknown key (with a
suggestion), S007 number out of range, S008 a die value out of range.

A new action is added by giving its body a model in ACTIONS (see
docs/scenarios.md for the format).
"""
from __future__ import annotations

from ..matching import closest
from typing import Annotated, Any, Literal, Optional, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, TypeAdapter, ValidationError

from ..dsl.diagnostics import Diagnostic
from ..limits import MAX_ACTIONS, MAX_ARENA_SIDE, MAX_DIAGNOSTICS, MAX_SCENARIO_NUMBER
from .loader import LDict, LList, ScenarioDiagnostic

N = MAX_SCENARIO_NUMBER
Count = Annotated[StrictInt, Field(ge=1, le=N)]          # how many of something: at least one
Amount = Annotated[StrictInt, Field(ge=0, le=N)]         # damage, mana, markers already there
Seed = Annotated[StrictInt, Field(ge=0, le=2 ** 32 - 1)]
Side = Annotated[StrictInt, Field(ge=1, le=MAX_ARENA_SIDE)]
D12 = Annotated[StrictInt, Field(ge=1, le=12)]
Name = Union[StrictStr, StrictInt]                        # ids, players: the runner reads them as text
Text = Annotated[StrictStr, Field(max_length=10_000)]
Face = Union[Annotated[StrictInt, Field(ge=0, le=2)], Annotated[StrictStr, Field(max_length=3)]]
Zone = Annotated[StrictStr, Field(max_length=8)]


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Arena(_M):
    rows: Side = 3
    cols: Side = 4


class Player(_M):
    name: Name
    mana: Amount = 0
    channeling: Amount = 0
    spellbook: Optional[Text] = None  # a shipped spellbook's name or a file: the player's library
    planned: Optional[Annotated[list[Text], Field(max_length=2)]] = None  # spells planned this round


class Obj(_M):
    id: Name
    card: Text
    controller: Optional[Name] = None
    owner: Optional[Name] = None
    zone: Optional[Zone] = None
    border: Optional[Annotated[list[Zone], Field(min_length=2, max_length=2)]] = None
    facing: Optional[Zone] = None  # a wall: the zone of its border the top of its card faces
    damage: Amount = 0
    markers: Optional[dict[Name, Amount]] = None
    guard: StrictBool = False
    attachments: Optional[list["Obj"]] = None
    attached_to: Optional[Name] = None
    zone_attachment: Optional[Zone] = None
    hidden: StrictBool = False
    x: Optional[Amount] = None
    action_marker: Optional[Text] = None
    entered_this_round: StrictBool = False


class Dice(_M):
    attack: list[Union[Face, list[Face]]] = []
    d12: list[D12] = []
    then_seed: Optional[Seed] = None


class Choice(_M):
    kind: Optional[Text] = None
    choose: Optional[Name] = None
    player: Optional[Name] = None
    step: Optional[Text] = None
    reveal: Optional[Name] = None
    defense: Optional[Name] = None
    counterstrike: Optional[Name] = None
    zone_order: Optional[Name] = None
    target: Optional[Name] = None
    optional: Optional[Union[Name, StrictBool]] = None
    order: Optional[Name] = None
    alternative: Optional[Name] = None
    reroll: Optional[Name] = None
    upkeep: Optional[Name] = None  # pay an upkeep cost or not (the option's label, e.g. "do not pay")
    plan: Optional[Name] = None  # a spell planned in the Planning Phase (its name)
    action: Optional[Name] = None  # what an activating creature does (the option's label or its start)
    activate: Optional[Name] = None  # which creature activates next (its label)
    initiative: Optional[Name] = None  # keep the initiative, or give it to a player
    amount: Optional[Name] = None  # how much of an "up to N" amount (chosen_amount): "0".."N"


class ObjExpect(_M):
    damage: Optional[Amount] = None
    armor: Optional[Amount] = None
    life: Optional[Amount] = None
    destroyed: Optional[StrictBool] = None
    in_play: Optional[StrictBool] = None
    has: Optional[Union[Text, list[Text]]] = None
    lacks: Optional[Union[Text, list[Text]]] = None
    markers: Optional[dict[Name, Amount]] = None
    zone: Optional[Zone] = None
    hidden: Optional[StrictBool] = None
    action_marker: Optional[Literal["ready", "used"]] = None
    guard: Optional[StrictBool] = None
    attached_to: Optional[Name] = None
    left_to: Optional[Literal["discard", "obliterated", "spellbook"]] = None
    channeling: Optional[Amount] = None


class PlayerExpect(_M):
    mana: Optional[Amount] = None


class AttackExpect(_M):
    attacker: Optional[Name] = None
    source: Optional[Name] = None
    target: Optional[Name] = None
    attack: Optional[Text] = None
    strike: Optional[Count] = None
    status: Optional[Literal["hit", "missed", "avoided", "canceled", "pending"]] = None
    dice: Optional[Amount] = None
    faces: Optional[list[Face]] = None
    normal: Optional[Amount] = None
    critical: Optional[Amount] = None
    damage: Optional[Amount] = None
    effect_roll: Optional[Annotated[StrictInt, Field(ge=-N, le=N)]] = None
    conditions: Optional[dict[Name, Amount]] = None
    kind: Optional[list[Text]] = None
    steps: Optional[list[Text]] = None  # the steps of the chart this attack entered, in order
    skipped: Optional[list[Text]] = None  # steps this attack must not have entered


class Expect(_M):
    objects: Optional[dict[Name, ObjExpect]] = None
    players: Optional[dict[Name, PlayerExpect]] = None
    attacks: Optional[list[AttackExpect]] = None
    log_contains: Optional[list[Union[Text, StrictInt]]] = None
    log_lacks: Optional[list[Union[Text, StrictInt]]] = None
    no_unsupported: Optional[StrictBool] = None
    all_scripted_used: Optional[StrictBool] = None


class Scenario(_M):
    name: Optional[Union[Text, StrictInt]] = None
    cite: Optional[Union[Text, StrictInt]] = None
    description: Optional[Text] = None
    cards: Optional[list[Annotated[StrictStr, Field(min_length=1, max_length=1024)]]] = None
    arena: Optional[Arena] = None
    players: Optional[list[Player]] = None
    objects: list[Obj]
    dice: Optional[Dice] = None
    seed: Optional[Seed] = None
    choices: Optional[list[Choice]] = None
    unscripted: Literal["defaults", "fail"] = "defaults"
    actions: Annotated[list[Any], Field(max_length=MAX_ACTIONS)]
    expect: Optional[Expect] = None
    x: Optional[Amount] = None
    initiative: Optional[Name] = None  # the player with the initiative (phases run in this order)
    xfail: Optional[Text] = None  # the engine cannot reach this ruling yet: why (the scenario must fail)


# ---------------------------------------------------------------- actions
class Attack(_M):
    attacker: Name
    attack: Optional[Text] = None
    target: Optional[Name] = None
    targets: Optional[Union[Name, list[Name]]] = None
    zone: Optional[Zone] = None
    alternative: Optional[Text] = None


class AttackSpell(_M):
    caster: Name
    spell: Text
    target: Optional[Name] = None
    zone: Optional[Zone] = None


class Cast(_M):
    caster: Name
    spell: Text
    target: Optional[Name] = None
    targets: Optional[Union[Name, list[Name]]] = None
    zone: Optional[Zone] = None
    border: Optional[Annotated[list[Zone], Field(min_length=2, max_length=2)]] = None
    x: Optional[Amount] = None
    id: Optional[Name] = None
    refused: Optional[Text] = None
    status: Optional[Literal["resolved", "canceled", "countered"]] = None


class ResolveSpell(_M):
    caster: Name
    spell: Text
    target: Optional[Name] = None


class Move(_M):
    object: Name
    to: Zone
    refused: Optional[Text] = None  # the move must be refused by a rule whose name contains this


class Push(_M):
    object: Name
    from_: Optional[Name] = Field(default=None, alias="from")  # a zone or an object: the push's source
    direction: Optional[Literal["north", "south", "east", "west", "random"]] = None
    by: Optional[Name] = None  # the player who chooses the way (default: the first player)


class MoveEnchantment(_M):
    enchantment: Name
    to: Name


class Markers(_M):
    object: Name
    condition: Optional[Text] = None
    marker: Optional[Text] = None
    count: Count = 1


class Damage(_M):
    object: Name
    amount: Amount = 1
    type: Optional[Text] = None


class Heal(_M):
    object: Name
    amount: Amount = 1


class RoundRun(_M):
    to: Optional[Text] = None  # run phases up to and including this one (default: the End Phase)


class Offered(_M):
    object: Name  # the activating creature
    includes: Optional[list[Text]] = None  # labels (or their starts) that must be among its options
    excludes: Optional[list[Text]] = None  # labels (or their starts) that must not be
    only: Optional[list[Literal["move", "attack", "cast", "guard", "ability", "pass"]]] = None  # kinds offered


ACTIONS: dict[str, Any] = {
    "attack": Attack, "attack_spell": AttackSpell, "cast": Cast, "resolve_spell": ResolveSpell, "reveal": Name,
    "move": Move, "teleport": Move, "push": Push, "move_enchantment": MoveEnchantment, "destroy": Name,
    "place": Markers, "remove": Markers, "damage": Damage, "heal": Heal, "guard": Name,
    "end_action_phase": Name, "end_round": Optional[Any], "expect": Expect,
    "phase": Text, "round": Optional[RoundRun], "activate": Name, "offered": Offered,
}
_ADAPTERS = {k: TypeAdapter(t) for k, t in ACTIONS.items()}
_SCENARIO = TypeAdapter(Scenario)


# ---------------------------------------------------------------- errors -> located diagnostics
def _tname(v) -> str:
    if isinstance(v, bool):
        return "true/false"
    return {dict: "a mapping", LDict: "a mapping", list: "a list", LList: "a list", str: "text",
            int: "a number", float: "a decimal number", type(None): "nothing"}.get(type(v), type(v).__name__)


def _walk(data, loc) -> tuple[list, Any, Any, tuple]:
    """Follow a pydantic `loc` through the data: (data path, parent, value, position)."""
    path, parent, cur = [], None, data
    pos = getattr(data, "where", (1, 1))
    for part in loc:
        if isinstance(cur, dict) and not isinstance(part, int) and part in cur:
            parent, pos, cur = cur, cur.at(part) if isinstance(cur, LDict) else pos, cur[part]
            path.append(part)
        elif isinstance(cur, list) and isinstance(part, int) and 0 <= part < len(cur):
            parent, pos, cur = cur, cur.at(part) if isinstance(cur, LList) else pos, cur[part]
            path.append(part)
        elif isinstance(cur, dict) and isinstance(part, int) and part in cur:
            parent, pos, cur = cur, cur.at(part) if isinstance(cur, LDict) else pos, cur[part]
            path.append(part)
        # else: a union branch or a "[key]" marker of pydantic, not a step in the data
    return path, parent, cur, pos


def _dotted(path) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "the scenario"


def _convert(path: str, data, errors: list[dict], prefix=(), root=None) -> list[Diagnostic]:
    grouped: dict[tuple, list[dict]] = {}
    for e in errors:
        dpath, parent, value, pos = _walk(data, e["loc"])
        key = tuple(dpath)
        grouped.setdefault(key, []).append((e, parent, value, pos))
    # A union reports one error per branch: keep the most specific place (a list
    # item's own error beats "the list is not a number"), and a range error beats
    # the branch of another type.
    keys = list(grouped)
    for k in keys:
        if any(o != k and o[:len(k)] == k for o in keys) and \
                all(i[0]["type"] not in ("extra_forbidden", "missing") for i in grouped[k]):
            del grouped[k]
    ranged = {"greater_than_equal", "less_than_equal", "greater_than", "less_than", "too_short", "too_long",
              "string_too_short", "string_too_long"}
    out = []
    for dpath, items in grouped.items():
        rng = [i for i in items if i[0]["type"] in ranged]
        if rng:
            items = rng
        e, parent, value, pos = items[0]
        where = _dotted(list(prefix) + list(dpath))
        kind = e["type"]
        if kind == "extra_forbidden":
            bad = dpath[-1] if dpath else "?"
            allowed = _allowed_keys(root, e["loc"]) if root is not None else []
            close = closest(str(bad), allowed, limit=1) if len(str(bad)) <= 64 else []
            kpos = parent.key_at(bad) if isinstance(parent, LDict) else pos
            out.append(ScenarioDiagnostic(path, kpos[0], kpos[1], "S003",
                                          f"unknown key {_short(bad)} in {_dotted(list(prefix) + list(dpath[:-1]))}"
                                          + (f" (did you mean {close[0]!r}?)" if close else "")
                                          + (f"; allowed: {', '.join(allowed)}" if allowed else "")))
            continue
        if kind == "missing":
            missing = e["loc"][-1]
            out.append(ScenarioDiagnostic(path, pos[0], pos[1], "S002",
                                          f"missing required key `{missing}` in {where}"))
            continue
        if all(i[0]["type"] in ranged for i in items) and kind in ranged:
            code = "S008" if dpath and dpath[0] == "dice" else "S007"
            shown = _short(value) if not isinstance(value, (dict, list)) else f"{len(value)} entries"
            out.append(ScenarioDiagnostic(path, pos[0], pos[1], code,
                                          f"`{where}`: {shown} is out of range: {_lower(e['msg'])}"))
            continue
        msgs = []
        for it in items:
            m = _lower(it[0]["msg"])
            if m not in msgs:
                msgs.append(m)
        out.append(ScenarioDiagnostic(path, pos[0], pos[1], "S002",
                                      f"`{where}`: {' or '.join(msgs)} (got {_tname(value)})"))
    return out


def _short(v, n: int = 60) -> str:
    r = repr(v)
    return r if len(r) <= n else r[:n] + f"… ({len(r)} characters)"


def _lower(msg: str) -> str:
    return msg[:1].lower() + msg[1:]


def _unwrap(t):
    """Annotated/Optional/Union -> the model inside, if any, else the bare type."""
    while True:
        origin = get_origin(t)
        if origin is Annotated:
            t = get_args(t)[0]
        elif origin is Union:
            args = [a for a in get_args(t) if a is not type(None)]
            models = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
            containers = [a for a in args if get_origin(a) in (list, dict)]
            t = (models or containers or args or [t])[0]
            if get_origin(t) is Union:
                return t
        else:
            return t


def _allowed_keys(root, loc) -> list[str]:
    """The fields of the model in which `loc` ends (for the unknown-key message)."""
    t = _unwrap(root)
    if loc and loc[0] == "_":  # an action body: the location starts at the action key
        loc = loc[1:]
    for part in loc[:-1]:
        if isinstance(t, type) and issubclass(t, BaseModel):
            f = t.model_fields.get(part)
            if f is None:
                continue  # a union tag in the location
            t = _unwrap(f.annotation)
        elif get_origin(t) is list and isinstance(part, int):
            t = _unwrap(get_args(t)[0])
        elif get_origin(t) is dict:
            t = _unwrap(get_args(t)[1])
    if isinstance(t, type) and issubclass(t, BaseModel):
        return sorted(t.model_fields)
    return []


def validate(data: Any, path: str) -> list[Diagnostic]:
    """Every schema problem of a loaded scenario, located, at most MAX_DIAGNOSTICS then a summary."""
    diags: list[Diagnostic] = []
    if not isinstance(data, dict):
        return [ScenarioDiagnostic(path, 1, 1, "S002",
                                   "a scenario must be a mapping with at least `objects` and `actions`")]
    try:
        _SCENARIO.validate_python(data)
    except ValidationError as exc:
        diags.extend(_convert(path, data, exc.errors(include_url=False, include_input=False), root=Scenario))
    acts = data.get("actions")
    if isinstance(acts, list):
        for i, a in enumerate(acts[:MAX_ACTIONS]):
            diags.extend(_action(path, acts, i, a))
    diags.sort(key=lambda d: (d.span.line, d.span.col))
    if len(diags) > MAX_DIAGNOSTICS:
        more = len(diags) - MAX_DIAGNOSTICS
        last = diags[MAX_DIAGNOSTICS - 1].span
        diags = diags[:MAX_DIAGNOSTICS] + [ScenarioDiagnostic(
            path, last.line, last.col, "S002", f"{more} more problem(s) in this file not shown")]
    return diags


def _action(path: str, acts, i: int, a) -> list[Diagnostic]:
    pos = acts.at(i) if isinstance(acts, LList) else (1, 1)
    where = f"actions[{i}]"
    if isinstance(a, str):
        a_map = {a: None}
    elif isinstance(a, dict):
        a_map = a
    else:
        return [ScenarioDiagnostic(path, pos[0], pos[1], "S002",
                                   f"`{where}`: an action is a mapping of one key (got {_tname(a)})")]
    out = []
    if len(a_map) != 1:
        out.append(ScenarioDiagnostic(path, pos[0], pos[1], "S002",
                                      f"`{where}`: an action is one key (one of: {', '.join(sorted(ACTIONS))})"))
    for kind, body in a_map.items():
        kpos = a_map.key_at(kind) if isinstance(a_map, LDict) else pos
        if kind not in ACTIONS:
            close = closest(str(kind), sorted(ACTIONS), limit=1) if len(str(kind)) <= 64 else []
            out.append(ScenarioDiagnostic(path, kpos[0], kpos[1], "S003",
                                          f"unknown key {_short(kind)} in an action"
                                          + (f" (did you mean {close[0]!r}?)" if close else "")
                                          + f"; allowed: {', '.join(sorted(ACTIONS))}"))
            continue
        try:
            _ADAPTERS[kind].validate_python(body, strict=True)
        except ValidationError as exc:
            holder = LDict({"_": body})
            holder.where = pos
            holder.marks = {"_": a_map.at(kind) if isinstance(a_map, LDict) else pos}
            holder.key_marks = dict(holder.marks)
            errs = [{**e, "loc": ("_",) + tuple(e["loc"])} for e in exc.errors(include_url=False,
                                                                                include_input=False)]
            root = ACTIONS[kind]
            for d in _convert(path, holder, errs, prefix=(), root=root):
                d = ScenarioDiagnostic(d.span.path, d.span.line, d.span.col, d.code,
                                       d.message.replace("`_", f"`{where}.{kind}").replace(" in _", f" in {where}.{kind}"))
                out.append(d)
    return out
