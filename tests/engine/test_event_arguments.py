"""Every argument of an event is either compared with what happened or refused: never passed over.

The engine reads an event's arguments through one table (vocab.EVENT_PARAM_ROLES: the role of each
parameter; Game.EVENT_ROLE_READERS: the reader of each role).  These tests walk every event of the
vocabulary: each parameter is read (its role has a reader, and the engine's fire sites, found in its
source, give what the reader compares with) or the checker refuses an argument for it (E204).  Then
shipped cards whose triggers named an object the engine used to pass over, played out."""
from __future__ import annotations

import ast
import dataclasses
import inspect
from pathlib import Path

import pytest

import magewars.engine as engine_pkg
from magewars.dsl import compile_sources
from magewars.dsl import vocab as V
from magewars.engine import Game, ScriptedDice
from magewars.engine import registry as R
from magewars.engine.decisions import ScriptedAgent, ScriptedChoice
from magewars.engine.phrases import Ctx, PhraseError

ENGINE = Path(engine_pkg.__file__).parent


# ---------------------------------------------------------------- the fire sites, read from the source
def _dict_keys(fn: ast.AST) -> dict[str, set[str]]:
    """Names bound to a dict literal in a function, with their keys (for `fire(..., **info)`)."""
    out: dict[str, set[str]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
            keys = {k.value for k in node.value.keys if isinstance(k, ast.Constant)}
            for t in node.targets:
                if isinstance(t, ast.Name):
                    out.setdefault(t.id, set()).update(keys)
    return out


def fire_sites() -> dict[str, list[dict]]:
    """event -> one entry per `fire("EVENT", subject, Ctx(...), DETAIL=...)` in magewars/engine: the
    details passed, the Ctx's keywords (as source) and the subject (as source)."""
    sites: dict[tuple, dict] = {}
    for f in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(f.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            dicts = _dict_keys(fn)
            for node in ast.walk(fn):
                if not (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) in ("fire", "fire_heard")
                        and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                    continue
                details = set()
                for k in node.keywords:
                    if k.arg is not None:
                        details.add(k.arg)
                    elif isinstance(k.value, ast.Name):
                        details |= dicts.get(k.value.id, set())
                ctx = node.args[2] if len(node.args) > 2 else None
                ctx_kw = {k.arg: ast.unparse(k.value) for k in ctx.keywords} if isinstance(ctx, ast.Call) else {}
                sites[(str(f), node.lineno)] = {"event": node.args[0].value, "where": f"{f.name}:{node.lineno}",
                                                "details": details, "ctx": ctx_kw,
                                                "subject": ast.unparse(node.args[1]) if len(node.args) > 1 else ""}
    out: dict[str, list[dict]] = {}
    for s in sites.values():
        out.setdefault(s["event"], []).append(s)
    return out


SITES = fire_sites()


def test_the_fire_sites_are_found():
    assert set(SITES) == set(R.FIRED_EVENTS)


def test_every_event_has_a_row_of_roles_and_every_role_a_reader():
    assert set(V.EVENT_PARAM_ROLES) == set(V.EVENT_FUNCS)
    for name, roles in V.EVENT_PARAM_ROLES.items():
        assert set(roles) <= {p.name for p in V.EVENT_FUNCS[name].params}, name
        assert set(roles.values()) <= set(V.EVENT_ROLES), name
    assert set(V.EVENT_ROLES) == set(Game.EVENT_ROLE_READERS)
    assert set(Game.EVENT_OTHER_OBJECT) == {e for e, r in V.EVENT_PARAM_ROLES.items() if "other" in r.values()}


def test_event_matches_reads_arguments_only_through_the_table():
    src = inspect.getsource(Game.event_matches)
    assert "V.event_arguments(call)" in src and "EVENT_ROLE_READERS" in src
    assert ".args" not in src.replace("V.event_arguments(call)", "")


def _given(event: str, role: str, param: str) -> tuple[bool, str]:
    """Do the fire sites of `event` give what the reader of `role` compares `param` with?"""
    sites = SITES.get(event, [])
    if role == "subject":
        return True, ""
    if role == "other":
        where = Game.EVENT_OTHER_OBJECT[event]
        if where == "it":
            bad = [s["where"] for s in sites if s["ctx"].get("it") in (None, s["subject"])]
        elif where == "attack.target":
            bad = [s["where"] for s in sites if "attack" not in s["ctx"]]
        else:
            bad = [s["where"] for s in sites if where not in s["details"]]
        return not bad, f"no other object ({where}) at {bad}"
    if role in ("defending", "attacking"):
        bad = [s["where"] for s in sites if "attack" not in s["ctx"]]
        return not bad, f"no attack at {bad}"
    if role == "action":
        bad = [s["where"] for s in sites if "actions" not in s["details"] and "attack" not in s["ctx"]]
        return not bad, f"no action at {bad}"
    if role in ("cause", "attack_kind"):  # outside an attack, `by:` reads the object whose effect it is
        ok = any("attack" in s["ctx"] or "by_obj" in s["details"] for s in sites)
        return ok, "no fire site gives an attack or the object whose effect it is"
    detail = Game.EVENT_ROLE_DETAIL.get(param if role == "place" else role, param)
    if role == "place":  # a card summoned into play enters no zone: some sites give none
        return any(detail in s["details"] for s in sites), f"no fire site gives {detail}="
    bad = [s["where"] for s in sites if detail not in s["details"]]
    return not bad, f"no {detail}= at {bad}"


_SAMPLE = {"obj": "this", "num": "1", "traits": "[Burn]", "name": "Burn", "str": '"x"', "any": '"x"',
           "step": '"roll_dice"', "bool": "damaged()"}


def _refused(event: str, param: str) -> bool:
    sig = V.EVENT_FUNCS[event]
    p = next(p for p in sig.params if p.name == param)
    src = f'creature "T" {{\n  armor 1 life 2\n  when {event}({param}: {_SAMPLE[p.kind]}): heal(this, 1)\n}}'
    _, diags = compile_sources([("t.mw", src)])
    return any(d.code == "E204" and d.span.line == 3 and param in d.message for d in diags)


@pytest.mark.parametrize("event", sorted(V.EVENT_FUNCS))
def test_every_event_parameter_is_read_or_refused(event):
    roles = V.EVENT_PARAM_ROLES[event]
    fired = event in SITES
    for p in V.EVENT_FUNCS[event].params:
        if p.name in R.event_params_read(event):
            if fired:  # (an event never fired is reported as such: registry.event_status)
                ok, why = _given(event, roles[p.name], p.name)
                assert ok, f"{event}({p.name}:) is read as {roles[p.name]!r}, but {why}"
        else:
            assert _refused(event, p.name), f"{event}({p.name}:) is neither read nor refused"


# ---------------------------------------------------------------- shipped cards


def _game(corpus, script=(), attack_dice=(("2*", "2*"),) * 6):
    agent = ScriptedAgent(list(script), lenient=True)
    g = Game(corpus, ScriptedDice(list(attack_dice), [1] * 12), agent)
    for p in ("A", "B"):
        g.state.add_player(p, mana=20)
    g.state.order = ["A", "B"]
    g.create("Warlord", "wl", "A", zone="A1")
    g.create("Wizard", "wiz", "B", zone="C3")
    return g


def _triggered(g, card: str) -> bool:
    return any(e.kind == "trigger" and e.text.startswith(card) for e in g.log.events)


@pytest.mark.parametrize("damaged,owner,fires", [("Timber Wolf", "B", True),  # an enemy creature
                                                  ("Battle Forge", "B", False),  # an enemy conjuration
                                                  ("Timber Wolf", "A", False)])  # a friendly creature
def test_altar_of_carnage_feeds_mana_only_for_damage_to_an_enemy_creature(corpus, damaged, owner, fires):
    """Altar of Carnage: a friendly Soldier that damages an enemy creature may put 1 mana on a friendly
    Spawnpoint.  Its trigger names the damaged object second (`deals_damage(friendly Soldier creature,
    enemy creature)`); it used to fire for damage to anything."""
    g = _game(corpus, [ScriptedChoice("optional", 0), ScriptedChoice("choose", 0)])
    g.create("Altar of Carnage", "altar", "A", zone="A1")
    barracks = g.create("Barracks", "barracks", "A", zone="A1")
    soldier = g.create("Bloodwave Greatbow", "bow", "A", zone="B2")
    target = g.create(damaged, "d", owner, zone="B2")
    g.attacks.make_attack(soldier, "Dagger", [target])
    assert target.damage > 0
    assert _triggered(g, "Altar of Carnage") is fires
    assert barracks.markers["Mana"] == (1 if fires else 0)


def test_shock_answers_only_a_melee_attack_on_its_creature(corpus):
    """Shock: after a melee attack on the creature it enchants, the attacker is Staggered and Shock is
    destroyed.  `attack_step("attack_ends", enchanted)` names the defender positionally; it used to be
    passed over, so any melee attack anywhere set Shock off."""
    g = _game(corpus)
    bow = g.create("Bloodwave Greatbow", "bow", "A", zone="B2")
    other = g.create("Timber Wolf", "other", "B", zone="B2")
    wolf = g.create("Timber Wolf", "wolf", "B", zone="B2")
    shock = g.create("Shock", "shock", "B", attached_to="wolf")
    g.attacks.make_attack(bow, "Dagger", [other])
    assert not _triggered(g, "Shock") and shock.in_play and not bow.markers["Stagger"]
    g.attacks.make_attack(bow, "Dagger", [wolf])
    assert _triggered(g, "Shock") and not shock.in_play and bow.markers["Stagger"] == 1


def test_pillar_of_righteous_flame_attacks_when_a_dissipate_token_is_removed(corpus):
    """Pillar of Righteous Flame attacks an enemy creature in its zone when one of its Dissipate tokens
    is removed (`token_removed(this, kind: Dissipate)`); the removal of another token is not one."""
    g = _game(corpus, attack_dice=(("2*",) * 4,) * 4)
    pillar = g.create("Pillar of Righteous Flame", "pillar", "A", zone="B2")
    g.create("Timber Wolf", "wolf", "B", zone="B2")
    g.state.add_marker(pillar, "Load", 2)
    g.state.add_marker(pillar, "Dissipate", 4)
    load = next(ab.costs[0] for ab in g.card("Akiro's Hammer").abilities if getattr(ab, "costs", None))
    g.run_effects([load], Ctx(this=pillar))  # Akiro's Hammer's action cost, removing Load tokens
    assert pillar.markers["Load"] == 0 and not _triggered(g, "Pillar of Righteous Flame")
    upkeep = next(ab for ab in corpus.codex["Dissipate"].abilities if hasattr(ab, "timing"))
    before = pillar.markers["Dissipate"]
    g.run_effects(upkeep.effects, Ctx(this=pillar))  # the Dissipate entry's upkeep: one token goes
    assert pillar.markers["Dissipate"] == before - 1
    assert _triggered(g, "Pillar of Righteous Flame")


def test_an_argument_nothing_reads_is_refused_at_run_time(corpus):
    """Past the checker (an event call made by hand), an argument with no reader stops the match with an
    error, which run_trigger reports as unsupported: it is never taken as matching."""
    g = _game(corpus)
    altar = g.create("Altar of Carnage", "altar", "A", zone="A1")
    event = next(ab.event for ab in g.card("Altar of Carnage").abilities if hasattr(ab, "event"))
    paid = dataclasses.replace(event, name="pays")  # pays(who, amount): nothing compares the amount
    with pytest.raises(PhraseError, match="amount"):
        g.event_matches(paid, altar, g.state.objects["wl"], Ctx(it=g.state.objects["wl"]))
    ab = next(ab for ab in g.card("Altar of Carnage").abilities if hasattr(ab, "event"))
    assert g.run_trigger(altar, ab, dataclasses.replace(ab, event=paid), g.state.objects["wl"], Ctx(), {}) is False
    assert any(e.kind == "unsupported" and "amount" in e.text for e in g.log.events)


def test_removing_tokens_an_object_does_not_have_removes_none_and_sets_nothing_off(corpus):
    """`token_removed` says a token was removed: an effect that removes Dissipate tokens from a Pillar of
    Righteous Flame carrying none removes none, and the Pillar does not attack (it used to: the event
    was fired whatever was removed)."""
    g = _game(corpus, attack_dice=(("2*",) * 4,) * 4)
    pillar = g.create("Pillar of Righteous Flame", "pillar", "A", zone="B2")
    g.create("Timber Wolf", "wolf", "B", zone="B2")
    upkeep = next(ab for ab in corpus.codex["Dissipate"].abilities if hasattr(ab, "timing"))
    assert not pillar.markers["Dissipate"]
    g.run_effects(upkeep.effects, Ctx(this=pillar))
    assert not pillar.markers["Dissipate"]
    assert not _triggered(g, "Pillar of Righteous Flame")
