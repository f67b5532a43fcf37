"""Scenario files: a board, actions, scripted dice and choices, expectations.

`load_scenario(path)` validates a file into a `Scenario` (or raises
ScenarioError with located diagnostics); `run_scenario` runs it on the engine
and checks its expectations; `run_cli` prints the log (text or JSON).

Exit codes of run_cli: 0 all expectations hold; 1 an expectation failed (or the
engine hit a rule it does not implement); 2 the scenario is malformed or cannot
run (unknown card, dice ran out, a decision nobody scripted...).
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from ..engine import (Arena, DiceError, EngineError, Game, ScriptedAgent, ScriptedChoice, ScriptedDice,
                      SeededDice, UnscriptedDecision)
from ..engine import movement
from ..engine.attack import STEPS as ATTACK_STEPS
from ..engine.casting import IllegalCast, cast_attack_spell, cast_incantation, cast_spell
from ..engine.dice import parse_face
from ..dsl.diagnostics import Diagnostic
from .loader import LDict, LList, ScenarioDiagnostic, ScenarioError, load_yaml
from . import rounds

ROUND_ACTIONS = ("phase", "round", "activate", "offered")  # scenario/rounds.py

TOP_KEYS = {"name", "cite", "description", "cards", "arena", "players", "objects", "dice", "choices",
            "unscripted", "actions", "expect", "x", "seed", "initiative", "xfail"}
OBJECT_KEYS = {"id", "card", "controller", "owner", "zone", "border", "facing", "damage", "markers", "guard", "attachments",
               "attached_to", "zone_attachment", "hidden", "x", "action_marker", "entered_this_round"}
ACTIONS = {"attack", "reveal", "move", "teleport", "push", "cast", "resolve_spell", "move_enchantment", "destroy",
           "place", "damage", "end_action_phase", "end_round", "expect", "guard", "remove", "heal",
           "attack_spell"} | set(ROUND_ACTIONS)
EXPECT_KEYS = {"objects", "players", "attacks", "log_contains", "log_lacks", "no_unsupported", "all_scripted_used"}
OBJ_EXPECT_KEYS = {"damage", "armor", "life", "destroyed", "in_play", "has", "lacks", "markers", "zone", "hidden",
                   "guard", "attached_to", "action_marker", "left_to", "channeling"}


@dataclass
class Scenario:
    path: str
    data: LDict
    name: str = ""
    cite: str = ""
    description: str = ""
    cards_roots: tuple = ()  # folders the user allowed card files from (besides the scenario's own)
    xfail: str = ""  # why the engine cannot reach this ruling yet: the scenario is expected to fail


@dataclass
class Check:
    where: str
    what: str
    expected: Any
    actual: Any

    @property
    def ok(self) -> bool:
        return self.expected == self.actual

    def format(self) -> str:
        mark = "ok " if self.ok else "FAIL"
        s = f"[{mark}] {self.what}: expected {self.expected!r}"
        if not self.ok:
            s += f", got {self.actual!r}  ({self.where})"
        return s


@dataclass
class ScenarioResult:
    scenario: Scenario
    game: Optional[Game]
    checks: list = field(default_factory=list)
    error: Optional[Diagnostic] = None

    @property
    def failed(self) -> list:
        return [c for c in self.checks if not c.ok]

    @property
    def ok(self) -> bool:
        return self.error is None and not self.failed

    @property
    def status(self) -> str:
        """pass, fail, error; for a scenario marked `xfail`: xfail (fails as expected) or xpass."""
        if self.scenario.xfail:
            return "xpass" if self.ok else "xfail"
        return "pass" if self.ok else "error" if self.error is not None else "fail"

    @property
    def exit_code(self) -> int:
        if self.scenario.xfail:  # failing is what it is expected to do; passing means the mark is stale
            return 1 if self.ok else 0
        if self.error is not None:
            return 2
        return 1 if self.failed else 0


class _V:
    """Collects located diagnostics while validating."""

    def __init__(self, path: str):
        self.path = path
        self.diags: list[Diagnostic] = []

    def err(self, where: tuple, code: str, msg: str):
        self.diags.append(ScenarioDiagnostic(self.path, where[0], where[1], code, msg))

    def mapping(self, v, where, what) -> Optional[LDict]:
        if not isinstance(v, dict):
            self.err(where, "S002", f"{what} must be a mapping (key: value), not {_tname(v)}")
            return None
        return v

    def seq(self, v, where, what) -> Optional[list]:
        if not isinstance(v, list):
            self.err(where, "S002", f"{what} must be a list, not {_tname(v)}")
            return None
        return v

    def keys(self, m: LDict, allowed: set, what: str):
        from ..matching import closest
        for k in m:
            if k not in allowed:
                close = closest(str(k), sorted(allowed), limit=1)
                self.err(_at(m, k, key=True), "S003",
                         f"unknown key {k!r} in {what}" + (f" (did you mean {close[0]!r}?)" if close else "")
                         + f"; allowed: {', '.join(sorted(allowed))}")


def _tname(v) -> str:
    return {dict: "a mapping", LDict: "a mapping", list: "a list", LList: "a list", str: "text",
            int: "a number", bool: "true/false", type(None): "nothing"}.get(type(v), type(v).__name__)


def _at(m, k, key=False) -> tuple:
    if isinstance(m, (LDict, LList)):
        return m.at(k)
    return (1, 1)


def load_scenario(path: str, cards_roots: tuple = ()) -> Scenario:
    from ..limits import MAX_SCENARIO_BYTES, LimitError, read_bounded
    p = Path(path)
    try:
        text = read_bounded(p, MAX_SCENARIO_BYTES)
    except (OSError, UnicodeDecodeError, LimitError, ValueError) as e:
        why = getattr(e, "strerror", None) or (e.reason if isinstance(e, UnicodeDecodeError) else str(e))
        raise ScenarioError([ScenarioDiagnostic(str(path)[:300], 1, 1, "S000", f"cannot read the file: {why}")])
    data = load_yaml(text, str(path))
    from .schema import validate
    problems = validate(data, str(path))
    if problems:
        raise ScenarioError(problems)
    v = _V(str(path))
    if not isinstance(data, dict):
        v.err((1, 1), "S002", "a scenario must be a mapping with at least `objects` and `actions`")
        raise ScenarioError(v.diags)
    v.keys(data, TOP_KEYS, "the scenario")
    for req in ("objects", "actions"):
        if req not in data:
            v.err(data.where, "S002", f"missing required key `{req}`")
    if v.diags:
        raise ScenarioError(v.diags)
    return Scenario(str(path), data, str(data.get("name", p.stem)), str(data.get("cite", "")),
                    str(data.get("description", "")), tuple(cards_roots), str(data.get("xfail", "") or ""))


# ---------------------------------------------------------------- building the game
_BASE = {}


def base_corpus():
    """The shipped corpus.  If some shipped file has errors (a card being written), the
    definitions that do compile are still used, and the problem is noted once."""
    if "corpus" not in _BASE:
        from ..dsl import CorpusError, compile_shipped, load_corpus
        try:
            _BASE["corpus"] = load_corpus()
            _BASE["warnings"] = []
        except CorpusError as e:
            corpus, diags = compile_shipped()
            _BASE["corpus"] = corpus
            _BASE["warnings"] = [d.format(False) for d in diags if d.severity == "error"]
    return _BASE["corpus"]


def _corpus_for(sc: Scenario, v: _V):
    from ..dsl import compile_paths
    from ..dsl.model import Corpus
    base = base_corpus()
    corpus = Corpus(dict(base.cards), dict(base.codex))
    cards = sc.data.get("cards")
    if cards is None:
        return corpus
    lst = v.seq(cards, _at(sc.data, "cards"), "`cards`")
    if lst is None:
        return corpus
    from .sandbox import Sandbox
    box = Sandbox.for_scenario(sc.path, sc.cards_roots)
    paths = []
    for i, c in enumerate(lst):
        if not isinstance(c, str):
            v.err(_at(lst, i), "S002", "each entry of `cards` is a path to a .mw file or folder")
            continue
        files, refused = box.resolve(c)
        if refused:
            v.err(_at(lst, i), *refused)
            continue
        paths.extend(files)
    if paths:
        extra, diags = _compile_cached(paths)
        mine = {str(f) for f in paths}
        for d in diags:
            if d.severity == "error" and d.span.path in mine:
                v.diags.append(d)
        corpus.cards.update(extra.cards)
        corpus.codex.update({k: c for k, c in extra.codex.items() if k not in corpus.codex})
    return corpus


def _book_file(sc, v, entry: str, where) -> Optional[str]:
    """A player's `spellbook: NAME.book`: a file in the scenario's folder (or a --cards-root folder),
    refused unread anywhere else, like a `cards:` path."""
    from .sandbox import Sandbox
    from ..limits import is_regular_file
    box = Sandbox.for_scenario(sc.path, sc.cards_roots)
    given = Path(entry)
    found = next((c for c in ([given] if given.is_absolute() else [r / given for r in box.roots]) if c.exists()), None)
    if found is None or not box.inside(found) or not is_regular_file(found):
        v.err(where, "S009", f"spellbook file {entry!r} is not a file in the scenario's folder (or a --cards-root "
                             f"folder): refused")
        return None
    return str(found)


_EXTRA: dict = {}


def _compile_cached(paths: list) -> tuple:
    """compile_paths for a scenario's own card files, reused while the files are unchanged
    (the codex is compiled alongside, which costs seconds: many scenarios share one file)."""
    from ..dsl import compile_paths
    try:
        key = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in paths)
    except OSError:
        return compile_paths(paths)
    if key not in _EXTRA:
        if len(_EXTRA) >= 32:
            _EXTRA.pop(next(iter(_EXTRA)))
        _EXTRA[key] = compile_paths(paths)
    return _EXTRA[key]


def _resolve_card(game: Game, name: str):
    cd = game.card(name)
    if cd.kind == "mage":
        for cand in (f"{cd.name} Stats",):
            try:
                return game.card(cand)
            except KeyError:
                pass
    return cd


def _choices(sc: Scenario, v: _V) -> list[ScriptedChoice]:
    out = []
    ch = sc.data.get("choices")
    if ch is None:
        return out
    lst = v.seq(ch, _at(sc.data, "choices"), "`choices`")
    for i, c in enumerate(lst or []):
        where = _at(lst, i)
        m = v.mapping(c, where, "a choice")
        if m is None:
            continue
        kinds = {"reveal", "defense", "counterstrike", "zone_order", "target", "optional", "choose", "order",
                 "alternative", "reroll", "upkeep", "plan", "action", "activate", "initiative", "amount"}
        allowed = kinds | {"kind", "choose", "player", "step"}
        v.keys(m, allowed, "a choice")
        kind = m.get("kind")
        choose = m.get("choose")
        short = [k for k in m if k in kinds and not (k == "choose" and "kind" in m)]  # `kind: X, choose: Y`
        if short:
            kind, choose = short[0], m[short[0]]
        if kind is None or choose is None:
            v.err(where, "S002", "a choice needs `kind` and `choose` (or the short form `reveal: Block`)")
            continue
        out.append(ScriptedChoice(str(kind), choose if isinstance(choose, int) else str(choose),
                                  None if m.get("player") is None else str(m.get("player")),
                                  None if m.get("step") is None else str(m.get("step")),
                                  f"{sc.path}:{where[0]}:{where[1]}"))
    return out


def _dice(sc: Scenario, v: _V, seed_override: Optional[int] = None):
    """The scenario's dice: its scripted rolls first, then seeded dice (the `seed` or `then_seed` it
    gives, or the seed given on the command line, which overrides both)."""
    d = sc.data.get("dice")
    seed = sc.data.get("seed") if seed_override is None else seed_override
    if d is None:
        return SeededDice(seed if isinstance(seed, int) else 0)
    m = v.mapping(d, _at(sc.data, "dice"), "`dice`")
    if m is None:
        return SeededDice(0)
    v.keys(m, {"attack", "d12", "then_seed"}, "`dice`")
    attack = m.get("attack", [])
    d12 = m.get("d12", [])
    if not isinstance(attack, list):
        v.err(_at(m, "attack"), "S002", "`dice.attack` must be a list of faces (0, 1, 2, 1*, 2*) or of rolls")
        attack = []
    if not isinstance(d12, list):
        v.err(_at(m, "d12"), "S002", "`dice.d12` must be a list of numbers 1-12")
        d12 = []
    flat = []
    for i, item in enumerate(attack):
        items = item if isinstance(item, list) else [item]
        for f in items:
            try:
                flat.append(parse_face(f))
            except DiceError as e:
                v.err(_at(attack, i), "S008", str(e))
    for i, n in enumerate(d12):
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 12:
            v.err(_at(d12, i), "S008", f"bad effect die value {n!r}: must be 1 to 12")
    fallback = SeededDice(m["then_seed"]) if isinstance(m.get("then_seed"), int) else None
    if seed_override is not None:
        fallback = SeededDice(seed_override)
    try:
        return ScriptedDice(flat, [n for n in d12 if isinstance(n, int) and not isinstance(n, bool)], fallback)
    except DiceError as e:
        v.err(_at(sc.data, "dice"), "S008", str(e))
        return SeededDice(0)


def build(sc: Scenario, seed: Optional[int] = None) -> tuple[Game, dict]:
    v = _V(sc.path)
    data = sc.data
    corpus = _corpus_for(sc, v)
    arena = Arena()
    if "arena" in data:
        am = v.mapping(data["arena"], _at(data, "arena"), "`arena`")
        if am is not None:
            v.keys(am, {"rows", "cols"}, "`arena`")
            arena = Arena(int(am.get("rows", 3)), int(am.get("cols", 4)))
    dice = _dice(sc, v, seed)
    choices = _choices(sc, v)
    mode = data.get("unscripted", "defaults")
    if mode not in ("defaults", "fail"):
        v.err(_at(data, "unscripted"), "S002", "`unscripted` is `defaults` or `fail`")
    agent = ScriptedAgent(choices, lenient=(mode != "fail"))
    game = Game(corpus, dice, agent, arena)
    players = data.get("players")
    if players is None:
        players = []
    pl = v.seq(players, _at(data, "players"), "`players`") or []
    for i, p in enumerate(pl):
        m = v.mapping(p, _at(pl, i), "a player")
        if m is None:
            continue
        v.keys(m, {"name", "mana", "channeling", "spellbook", "planned"}, "a player")
        book = m.get("spellbook")
        if isinstance(book, str) and book.endswith(".book"):  # a book file: fenced like `cards:`
            m["spellbook"] = _book_file(sc, v, book, _at(m, "spellbook"))
        if "name" not in m:
            v.err(m.where, "S002", "a player needs a `name`")
            continue
        game.state.add_player(str(m["name"]), int(m.get("mana", 0) or 0), int(m.get("channeling", 0) or 0))
    objs = v.seq(data["objects"], _at(data, "objects"), "`objects`") or []
    pending_attach = []

    def make(m: LDict, where, host_id=None):
        v.keys(m, OBJECT_KEYS, "an object")
        for req in ("id", "card"):
            if req not in m:
                v.err(m.where, "S002", f"an object needs `{req}`")
                return
        oid = str(m["id"])
        if oid in game.state.objects:
            v.err(_at(m, "id"), "S005", f"object id {oid!r} is used twice")
            return
        try:
            card = _resolve_card(game, str(m["card"]))
        except KeyError:
            from ..matching import closest
            close = closest(str(m["card"]), game.corpus.cards, limit=1) if len(str(m["card"])) <= 64 else []
            v.err(_at(m, "card"), "S004", f"unknown card {m['card']!r}"
                  + (f" (did you mean {close[0]!r}?)" if close else "") + "; add a card file with `cards:`")
            return
        ctl = str(m.get("controller", game.state.order[0] if game.state.order else "P1"))
        if ctl not in game.state.players:
            if game.state.players:
                v.err(_at(m, "controller"), "S005", f"unknown player {ctl!r}; players: {', '.join(game.state.order)}")
                return
            game.state.add_player(ctl)
        zone = m.get("zone")
        if zone is not None and not arena.is_zone(str(zone)):
            v.err(_at(m, "zone"), "S006", f"bad zone {zone!r}: zones are A1..{chr(64 + arena.rows)}{arena.cols}")
            return
        zatt = m.get("zone_attachment")
        if zatt is not None and not arena.is_zone(str(zatt)):
            v.err(_at(m, "zone_attachment"), "S006", f"bad zone {zatt!r}")
            return
        att = host_id or m.get("attached_to")
        border = m.get("border")
        if border is not None:
            if (not isinstance(border, list) or len(border) != 2 or not all(arena.is_zone(str(z)) for z in border)
                    or not arena.adjacent(str(border[0]), str(border[1]))):
                v.err(_at(m, "border"), "S006", "`border` is two adjacent zones, e.g. [B2, B3]")
                return
        if zone is None and att is None and zatt is None and border is None:
            v.err(m.where, "S002", f"object {oid!r} needs a `zone`, `border`, `attached_to` or `zone_attachment`")
            return
        owner = str(m.get("owner", ctl))
        hidden = bool(m.get("hidden", card.kind == "enchantment" and False))
        obj = game.create(card, oid, ctl, owner, zone=str(zone) if zone and not att else None,
                          attached_zone=str(zatt) if zatt else None, hidden=hidden)
        if card.name.lower() != str(m["card"]).lower():
            obj.display = str(m["card"])
        if border is not None:
            obj.border = frozenset(str(z) for z in border)
            facing = m.get("facing")
            if facing is not None:
                if str(facing) not in obj.border:
                    v.err(_at(m, "facing"), "S006", "`facing` is one of the wall's two zones")
                    return
                obj.facing = str(facing)
        elif m.get("facing") is not None:
            v.err(_at(m, "facing"), "S006", "`facing` is for a wall (an object with a `border`)")
            return
        if att is not None:
            pending_attach.append((obj, str(att), _at(m, "attached_to") if not host_id else where))
        if "damage" in m:
            obj.damage = int(m["damage"])
        if "markers" in m:
            mk = v.mapping(m["markers"], _at(m, "markers"), "`markers`")
            for k, n in (mk or {}).items():
                if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                    v.err(_at(mk, k), "S002", f"marker count for {k!r} must be a number >= 0")
                    continue
                obj.markers[str(k)] = n
        if m.get("guard"):
            obj.guard = True
        if "x" in m:
            game.x_values[oid] = int(m["x"])
        if "action_marker" in m:
            obj.action_marker = str(m["action_marker"])
        if m.get("entered_this_round"):
            obj.entered_round = game.state.round  # came into play this round (`entered_this_round(...)`)
        if "attachments" in m:
            al = v.seq(m["attachments"], _at(m, "attachments"), "`attachments`") or []
            for j, a in enumerate(al):
                am = v.mapping(a, _at(al, j), "an attachment")
                if am is not None:
                    make(am, _at(al, j), host_id=oid)

    for i, o in enumerate(objs):
        m = v.mapping(o, _at(objs, i), "an object")
        if m is not None:
            make(m, _at(objs, i))
    for obj, host, where in pending_attach:
        h = game.state.objects.get(host)
        if h is None:
            v.err(where, "S005", f"`attached_to`: no object with id {host!r}")
            continue
        obj.attached_to = h.id
        obj.zone = None
    rounds.setup(game, v, pl, data, _at)
    if v.diags:
        raise ScenarioError(v.diags)
    game.state.touch()
    game.check_state()
    return game, {"v": v}


# ---------------------------------------------------------------- running
def _obj(game: Game, v: _V, m, key, where) -> Optional[Any]:
    oid = m.get(key) if isinstance(m, dict) else m
    o = game.state.objects.get(str(oid)) if oid is not None else None
    if o is None:
        v.err(where, "S005", f"no object with id {oid!r}; objects: {', '.join(game.state.objects)}")
    return o


class _Stop(Exception):
    pass


def run_scenario(path: str, cards_roots: tuple = (), seed: Optional[int] = None,
                 observers: tuple = ()) -> ScenarioResult:
    """Run one scenario.  `seed` (the command line's --seed) seeds the dice it does not script;
    each of `observers` is called with the game once it is set up, before anything is logged (the
    scenario page records the board after every change)."""
    sc = load_scenario(path, cards_roots)
    game, _ = build(sc, seed)
    for watch in observers:
        watch(game)
    result = ScenarioResult(sc, game)
    v = _V(sc.path)
    game.emit("info", f"scenario: {sc.name}" + (f" — {sc.cite}" if sc.cite else ""))
    acts = v.seq(sc.data["actions"], _at(sc.data, "actions"), "`actions`") or []
    # validate action shapes first, so a typo is found before anything runs
    for i, a in enumerate(acts):
        if isinstance(a, str) and a in ("end_round", "round"):
            continue
        m = v.mapping(a, _at(acts, i), "an action")
        if m is None:
            continue
        if len(m) != 1:
            v.err(_at(acts, i), "S002", f"an action is one key (one of: {', '.join(sorted(ACTIONS))})")
        v.keys(m, ACTIONS, "an action")
    if "expect" in sc.data:
        _validate_expect(v, sc.data["expect"], _at(sc.data, "expect"))
    if v.diags:
        raise ScenarioError(v.diags)
    for i, a in enumerate(acts):
        where = _at(acts, i)
        try:
            _run_action(game, v, a, where, result)
        except (DiceError, UnscriptedDecision, EngineError, KeyError) as e:
            msg = str(e).strip("'\"")
            code = {DiceError: "S010", UnscriptedDecision: "S011", movement.IllegalMove: "S013"}.get(type(e), "S012")
            result.error = ScenarioDiagnostic(sc.path, where[0], where[1], code, msg)
            game.emit("error", f"{code} {msg}")
            return result
        if v.diags:
            result.error = v.diags[0]
            return result
    if "expect" in sc.data:
        _check(game, v, sc.data["expect"], _at(sc.data, "expect"), result)
    if v.diags:
        result.error = v.diags[0]
    return result


def _run_action(game: Game, v: _V, a, where, result: ScenarioResult) -> None:
    if isinstance(a, str):
        a = {a: None}
    (kind, body), = a.items()
    bw = a.at(kind) if isinstance(a, LDict) else where
    st = game.state
    if kind == "attack":
        m = v.mapping(body, bw, "`attack`")
        if m is None:
            return
        v.keys(m, {"attacker", "attack", "target", "targets", "zone", "alternative"}, "`attack`")
        attacker = _obj(game, v, m, "attacker", _at(m, "attacker"))
        if attacker is None:
            return
        targets = []
        if "target" in m:
            t = _obj(game, v, m, "target", _at(m, "target"))
            if t is None:
                return
            targets = [t]
        if "targets" in m:
            tl = m["targets"] if isinstance(m["targets"], list) else [m["targets"]]
            for j, tid in enumerate(tl):
                t = _obj(game, v, tid, None, _at(tl, j) if isinstance(tl, LList) else _at(m, "targets"))
                if t is None:
                    return
                targets.append(t)
        zone = m.get("zone")
        if zone is not None and not st.arena.is_zone(str(zone)):
            v.err(_at(m, "zone"), "S006", f"bad zone {zone!r}")
            return
        try:
            adef, _src = game.attacks.find_attack(attacker, m.get("attack"),
                                                  at_zone=(zone is not None) if (zone is not None or targets) else None)
        except KeyError as e:
            names = [x.name for x, _ in game.d(attacker).attacks]
            v.err(_at(m, "attack"), "S004", f"{attacker.label()} has no attack {m.get('attack')!r}; "
                                            f"its attacks: {', '.join(names) or 'none'}")
            return
        if not targets and zone is None and (adef.kind is not None or adef.is_zone):
            # only a bar that is neither melee nor ranged may be used at no object (its effect says what)
            v.err(bw, "S002", "`attack` needs `target`, `targets` or `zone`")
            return
        game.attacks.make_attack(attacker, m.get("attack"), targets, zone=str(zone) if zone else None,
                                 alternative=m.get("alternative"))
    elif kind == "attack_spell":
        m = v.mapping(body, bw, "`attack_spell`")
        if m is None:
            return
        v.keys(m, {"caster", "spell", "target", "zone"}, "`attack_spell`")
        caster = _obj(game, v, m, "caster", _at(m, "caster"))
        try:
            card = game.card(str(m.get("spell")))
        except KeyError:
            v.err(_at(m, "spell"), "S004", f"unknown spell {m.get('spell')!r}")
            return
        if not card.attacks:
            v.err(_at(m, "spell"), "S004", f"{card.name} has no attack bar")
            return
        targets = [_obj(game, v, m, "target", _at(m, "target"))] if "target" in m else []
        if caster is None or None in targets:
            return
        cast_attack_spell(game, caster, card, targets, zone=m.get("zone"))
    elif kind == "cast":
        _run_cast(game, v, body, bw, result)
    elif kind == "resolve_spell":
        m = v.mapping(body, bw, "`resolve_spell`")
        if m is None:
            return
        v.keys(m, {"caster", "spell", "target"}, "`resolve_spell`")
        caster = _obj(game, v, m, "caster", _at(m, "caster"))
        try:
            card = game.card(str(m.get("spell")))
        except KeyError:
            v.err(_at(m, "spell"), "S004", f"unknown spell {m.get('spell')!r}")
            return
        target = _obj(game, v, m, "target", _at(m, "target")) if "target" in m else None
        if caster is None or ("target" in m and target is None):
            return
        cast_incantation(game, caster, card, target)
    elif kind == "reveal":
        o = _obj(game, v, body, None, bw)
        if o is not None:
            game.reveals.reveal(o, game.current_attack)
    elif kind in ("move", "teleport"):
        m = v.mapping(body, bw, f"`{kind}`")
        if m is None:
            return
        v.keys(m, {"object", "to", "refused"}, f"`{kind}`")
        o = _obj(game, v, m, "object", _at(m, "object"))
        to = str(m.get("to"))
        if not st.arena.is_zone(to):
            v.err(_at(m, "to"), "S006", f"bad zone {to!r}")
            return
        if o is not None:
            _move_action(game, m, kind, o, to, result)
    elif kind == "push":
        m = v.mapping(body, bw, "`push`")
        if m is None:
            return
        v.keys(m, {"object", "from", "direction", "by"}, "`push`")
        o = _obj(game, v, m, "object", _at(m, "object"))
        src = m.get("from")
        if src is not None and not st.arena.is_zone(str(src)):
            so = _obj(game, v, m, "from", _at(m, "from"))
            src = st.zone_of(so) if so is not None else None
        way = m.get("direction")
        if way is not None and str(way) not in (*movement.DIRECTIONS, "random"):
            v.err(_at(m, "direction"), "S002", f"`direction` is north, south, east, west or random, not {way!r}")
            return
        if o is not None:
            by = str(m.get("by", st.order[0] if st.order else o.controller))
            movement.push(game, o, str(src) if src is not None else None, by, str(way) if way else None,
                          "scenario action")
    elif kind == "move_enchantment":
        m = v.mapping(body, bw, "`move_enchantment`")
        if m is None:
            return
        o = _obj(game, v, m, "enchantment", _at(m, "enchantment"))
        to = _obj(game, v, m, "to", _at(m, "to"))
        if o is not None and to is not None:
            game.move_attachment(o, to)
    elif kind == "destroy":
        o = _obj(game, v, body, None, bw)
        if o is not None:
            game.destroy(o, why="scenario action")
    elif kind in ("place", "remove"):
        m = v.mapping(body, bw, f"`{kind}`")
        if m is None:
            return
        o = _obj(game, v, m, "object", _at(m, "object"))
        name = str(m.get("condition") or m.get("marker"))
        n = int(m.get("count", 1))
        if o is None:
            return
        if kind == "place":
            game.place_condition(o, name, n, "scenario action")
        else:
            st.remove_marker(o, name, n)
            game.emit("condition", f"{n} {name} removed from {o.label()}")
            game.check_state()
    elif kind == "damage":
        m = v.mapping(body, bw, "`damage`")
        if m is None:
            return
        o = _obj(game, v, m, "object", _at(m, "object"))
        if o is not None:
            game.deal_damage(o, int(m.get("amount", 1)), "scenario action", m.get("type"), direct=True)
    elif kind == "heal":
        m = v.mapping(body, bw, "`heal`")
        o = _obj(game, v, m, "object", _at(m, "object")) if m is not None else None
        if o is not None:
            game.heal(o, int(m.get("amount", 1)), "scenario action")
    elif kind == "guard":
        o = _obj(game, v, body, None, bw)
        if o is not None:
            o.guard = True
            st.touch()
            game.emit("marker", f"{o.label()} guards")
    elif kind == "end_action_phase":
        o = _obj(game, v, body, None, bw)
        if o is not None:
            game.end_action_phase(o)
    elif kind == "end_round":
        game.end_round()
    elif kind in ROUND_ACTIONS:
        rounds.run(game, v, kind, body, bw, lambda oid: _obj(game, v, oid, None, bw), result, Check)
    elif kind == "expect":
        _validate_expect(v, body, bw)
        if not v.diags:
            _check(game, v, body, bw, result)


def _move_action(game: Game, m, kind: str, o, to: str, result: ScenarioResult) -> None:
    """A `move` (one move action) or `teleport`.  An illegal one stops the scenario with S013 naming
    the rule, unless `refused: TEXT` says it must be refused by a rule whose name contains TEXT."""
    want = m.get("refused")
    try:
        if kind == "move":
            movement.move(game, o, to)
        else:
            movement.teleport(game, o, to, "scenario action")
    except movement.IllegalMove as e:
        game.emit("rule", f"refused: {e}")
        if want is None:
            raise
        w = _at(m, "refused")
        result.checks.append(Check(f"{result.scenario.path}:{w[0]}:{w[1]}",
                                   f"{o.id} {kind} to {to} refused by a rule naming {want!r}", True,
                                   str(want).lower() in e.rule.lower()))
        return
    if want is not None:
        w = _at(m, "refused")
        result.checks.append(Check(f"{result.scenario.path}:{w[0]}:{w[1]}", f"{o.id} {kind} to {to} refused",
                                   True, False))
CAST_KEYS = {"caster", "spell", "target", "targets", "zone", "border", "x", "id", "refused", "status"}


def _run_cast(game: Game, v: _V, body, bw, result: ScenarioResult) -> None:
    """The casting sequence (engine/casting.py).  A refused cast is a located S013 error naming the
    rule, unless the action says `refused: RULE` (then it is a check that the cast is refused for
    that rule).  `status: resolved|canceled|countered` checks how the spell ended; `id` names the
    object a permanent spell leaves in play."""
    m = v.mapping(body, bw, "`cast`")
    if m is None:
        return
    v.keys(m, CAST_KEYS, "`cast`")
    caster = _obj(game, v, m, "caster", _at(m, "caster"))
    try:
        card = game.card(str(m.get("spell")))
    except KeyError:
        v.err(_at(m, "spell"), "S004", f"unknown spell {m.get('spell')!r}")
        return
    targets = []
    if "target" in m:
        targets.append(_obj(game, v, m, "target", _at(m, "target")))
    if "targets" in m:
        tl = m["targets"] if isinstance(m["targets"], list) else [m["targets"]]
        for j, tid in enumerate(tl):
            targets.append(_obj(game, v, tid, None, _at(tl, j) if isinstance(tl, LList) else _at(m, "targets")))
    zone = m.get("zone")
    if zone is not None and not game.state.arena.is_zone(str(zone)):
        v.err(_at(m, "zone"), "S006", f"bad zone {zone!r}")
        return
    if "border" in m:
        b = m["border"]
        if not (isinstance(b, list) and len(b) == 2 and all(game.state.arena.is_zone(str(z)) for z in b)
                and game.state.arena.adjacent(str(b[0]), str(b[1]))):
            v.err(_at(m, "border"), "S006", "`border` is two adjacent zones, e.g. [B2, B3]")
            return
        zone = f"{b[0]}/{b[1]}"
    x = m.get("x")
    if x is not None and (not isinstance(x, int) or isinstance(x, bool) or not 0 <= x <= 10_000):
        v.err(_at(m, "x"), "S007", "`x` is a number 0..10000")
        return
    oid = m.get("id")
    if oid is not None and str(oid) in game.state.objects:
        v.err(_at(m, "id"), "S005", f"an object with id {oid!r} already exists")
        return
    if caster is None or None in targets:
        return
    want = m.get("refused")
    where = _at(m, "refused") if want is not None else bw
    loc = f"{result.scenario.path}:{where[0]}:{where[1]}"
    try:
        obj = cast_spell(game, caster, card, targets, zone=str(zone) if zone is not None else None, x=x)
    except IllegalCast as e:
        game.emit("refused", str(e), rule=e.rule, spell=card.name)
        if want is None:
            v.err(bw, "S013", f"{e} (add `refused: {e.rule}` if the scenario expects it)")
            return
        result.checks.append(Check(loc, f"cast of {card.name} refused by rule", str(want), e.rule))
        return
    if want is not None:
        result.checks.append(Check(loc, f"cast of {card.name} refused by rule", str(want), None))
        return
    c = getattr(game, "last_cast", None)
    if "status" in m and c is not None:
        result.checks.append(Check(f"{result.scenario.path}:{_at(m, 'status')[0]}:{_at(m, 'status')[1]}",
                                   f"cast of {card.name} status", str(m["status"]), c.status))
    if oid is not None and obj is not None:
        _rename(game, obj, str(oid))


def _rename(game: Game, obj, oid: str) -> None:
    """Give the object a permanent spell left in play the id the scenario chose."""
    st = game.state
    old = obj.id
    del st.objects[old]
    obj.id = oid
    st.objects[oid] = obj
    for o in st.objects.values():
        if o.attached_to == old:
            o.attached_to = oid
    if old in game.x_values:
        game.x_values[oid] = game.x_values.pop(old)
    st.touch()


def _validate_expect(v: _V, body, where):
    m = v.mapping(body, where, "`expect`")
    if m is None:
        return
    v.keys(m, EXPECT_KEYS, "`expect`")
    objs = m.get("objects")
    if objs is not None:
        om = v.mapping(objs, _at(m, "objects"), "`expect.objects`")
        for k, e in (om or {}).items():
            em = v.mapping(e, _at(om, k), f"expectations for {k!r}")
            if em is not None:
                v.keys(em, OBJ_EXPECT_KEYS, f"expectations for {k!r}")


def _check(game: Game, v: _V, body: LDict, where, result: ScenarioResult):
    st = game.state
    path = result.scenario.path

    def loc(m, k):
        w = _at(m, k)
        return f"{path}:{w[0]}:{w[1]}"

    for oid, em in (body.get("objects") or {}).items():
        o = st.objects.get(str(oid))
        if o is None:
            v.err(_at(body["objects"], oid), "S005", f"expectation names unknown object {oid!r}")
            continue
        d = game.d(o)
        for k, want in em.items():
            w = loc(em, k)
            if k == "damage":
                got = o.damage
            elif k == "armor":
                got = d.armor
            elif k == "life":
                got = d.life
            elif k == "destroyed":
                got = not o.in_play
            elif k == "in_play":
                got = o.in_play
            elif k == "left_to":
                got = o.left_to
            elif k == "channeling":
                got = d.channeling
            elif k == "zone":
                got = st.zone_of(o)
            elif k == "hidden":
                got = o.hidden
            elif k == "guard":
                got = o.guard
            elif k == "action_marker":
                got = o.action_marker
            elif k == "attached_to":
                got = o.attached_to
            elif k == "markers":
                want = {str(a): b for a, b in (want or {}).items()}
                got = {a: o.markers.get(a, 0) for a in want}
            elif k in ("has", "lacks"):
                names = want if isinstance(want, list) else [want]
                for n in names:
                    present = d.has(str(n))
                    result.checks.append(Check(w, f"{oid} {'has' if k == 'has' else 'lacks'} {n}",
                                               k == "has", present))
                continue
            else:
                continue
            result.checks.append(Check(w, f"{oid}.{k}", want, got))
    for pname, pm in (body.get("players") or {}).items():
        p = st.players.get(str(pname))
        if p is None:
            v.err(_at(body["players"], pname), "S005", f"expectation names unknown player {pname!r}")
            continue
        for k, want in pm.items():
            if k == "mana":
                result.checks.append(Check(loc(pm, k), f"{pname}.mana", want, p.mana))
    atks = body.get("attacks")
    if atks is not None:
        hist = game.attacks.history
        for i, am in enumerate(atks):
            w = f"{path}:{_at(atks, i)[0]}:{_at(atks, i)[1]}"
            if i >= len(hist):
                result.checks.append(Check(w, f"attack #{i + 1} exists", True, False))
                continue
            s = hist[i].summary()
            for k, want in am.items():
                got = s.get(k)
                if k in ("steps", "skipped"):
                    bad = [x for x in want if str(x) not in ATTACK_STEPS]
                    if bad:
                        v.err(_at(am, k), "S014", f"unknown attack step {bad[0]!r}; the steps: "
                                                  f"{', '.join(ATTACK_STEPS)}")
                        continue
                if k == "skipped":  # steps this attack must not have entered
                    got = [st for st in want if st in s["steps"]]
                    want = []
                elif k == "conditions":
                    got = {n: c for n, c in s["conditions"]}
                    want = dict(want or {})
                if k == "faces":
                    want = [str(parse_face(f)) for f in want]
                result.checks.append(Check(w, f"attack #{i + 1}.{k}", want, got))
        # the list is the whole record: an attack that happened and is not listed fails
        result.checks.append(Check(loc(body, "attacks"), "number of attacks made", len(atks), len(hist)))
    texts = [e.text for e in game.log.events]
    for s in body.get("log_contains") or []:
        result.checks.append(Check(loc(body, "log_contains"), f"log contains {s!r}", True,
                                   any(str(s).lower() in t.lower() for t in texts)))
    for s in body.get("log_lacks") or []:
        result.checks.append(Check(loc(body, "log_lacks"), f"log lacks {s!r}", True,
                                   not any(str(s).lower() in t.lower() for t in texts)))
    if body.get("all_scripted_used"):
        agent = game.agents
        unused = [f"{c.kind}: {c.choose}" for c in getattr(agent, "unused", lambda: [])()]
        result.checks.append(Check(loc(body, "all_scripted_used"), "every scripted choice was used", [], unused))
        left = getattr(game.dice, "unused", (0, 0))
        result.checks.append(Check(loc(body, "all_scripted_used"), "every scripted die was used (attack, d12)",
                                   (0, 0), left))
    if body.get("no_unsupported"):
        result.checks.append(Check(loc(body, "no_unsupported"), "no unimplemented primitive was met", [],
                                   list(game.unsupported)))


# ---------------------------------------------------------------- CLI
def run_cli(path: str, json_out: bool = False, out=None, cards_roots: tuple = (),
            viewer: Optional[str] = None, seed: Optional[int] = None) -> int:
    out = out or sys.stdout
    try:
        result = run_scenario(path, cards_roots, seed)
    except ScenarioError as e:
        if json_out:
            print(json.dumps({"ok": False, "errors": [d.to_json() for d in e.diags]}, indent=2), file=out)
        else:
            for d in e.diags:
                print(d.format(), file=out)
        return 2
    except Exception as e:  # never a traceback for a user's scenario
        msg = f"{path}:1:1: S099 internal error while running the scenario: {type(e).__name__}: {e}"
        if json_out:
            print(json.dumps({"ok": False, "errors": [{"path": path, "line": 1, "column": 1, "code": "S099",
                                                       "message": msg}]}), file=out)
        else:
            print(msg, file=out)
        return 2
    game = result.game
    from ..engine import views
    try:
        viewer = views.check_viewer(game, viewer)
    except views.UnknownViewer as e:
        if json_out:
            print(json.dumps({"ok": False, "errors": [{"path": path, "line": 1, "column": 1, "code": "S002",
                                                       "message": f"--as: {e}"}]}, indent=2), file=out)
        else:
            print(f"error: --as: {e}", file=out)
        return 2
    if viewer is not None:  # a player's view: only what that player may see (engine/views.py)
        doc = {"scenario": result.scenario.name, "cite": result.scenario.cite, **views.document(game, viewer)}
        if json_out:
            print(json.dumps(doc, indent=2, default=str), file=out)
        else:
            print(f"Scenario: {result.scenario.name} (as seen by {viewer})", file=out)
            print("", file=out)
            print(views.render(game, viewer), file=out)
        if result.error:  # its message may list a player's hidden options: location and code only
            sp = result.error.span
            print(f"{sp.path}:{sp.line}:{sp.col}: {result.error.code} the scenario stopped here "
                  f"(run without --as for the details)", file=out)
        return result.exit_code
    if json_out:
        doc = {
            "scenario": result.scenario.name, "cite": result.scenario.cite, "ok": result.ok,
            "status": result.status, "xfail": result.scenario.xfail or None,
            "events": game.log.to_json(),
            "attacks": [a.summary() for a in game.attacks.history],
            "final_state": game.view(),
            "expectations": [{"what": c.what, "expected": c.expected, "actual": c.actual, "ok": c.ok,
                              "where": c.where} for c in result.checks],
            "unsupported": list(game.unsupported),
        }
        if result.error:
            doc["errors"] = [result.error.to_json()]
        print(json.dumps(doc, indent=2, default=str), file=out)
    else:
        print(f"Scenario: {result.scenario.name}", file=out)
        if result.scenario.cite:
            print(f"Source:   {result.scenario.cite}", file=out)
        print("", file=out)
        print(game.log.render(), file=out)
        print("", file=out)
        if result.checks:
            print("Expectations:", file=out)
            for c in result.checks:
                print("  " + c.format(), file=out)
        if game.unsupported:
            print(f"Not implemented by the engine: {', '.join(sorted(set(game.unsupported)))}", file=out)
        unused = [f"{c.kind}: {c.choose}" + (f" ({c.where})" if c.where else "")
                  for c in getattr(game.agents, "unused", lambda: [])()]
        if unused:
            print("Warning: scripted choices never asked for: " + "; ".join(unused), file=out)
        left = getattr(game.dice, "unused", (0, 0))
        if left != (0, 0):
            print(f"Warning: scripted dice left unused: {left[0]} attack dice, {left[1]} effect die rolls", file=out)
        if result.error:
            print(result.error.format(), file=out)
        if result.scenario.xfail:
            print(f"Expected to fail: {result.scenario.xfail}", file=out)
        print("RESULT: " + ("ok" if result.ok else "error" if result.error else
                            f"{len(result.failed)} expectation(s) failed")
              + {"xfail": " (expected: the scenario is marked xfail)",
                 "xpass": " (but the scenario is marked xfail: remove the mark)"}.get(result.status, ""), file=out)
    return result.exit_code
