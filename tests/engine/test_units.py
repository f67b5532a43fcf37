"""Unit tests of the engine's parts: dice, agents, events, hidden information, effects cache."""
import pytest

from magewars.engine import (DiceError, FirstLegalAgent, Game, Option, RandomAgent, ScriptedAgent,
                             ScriptedChoice, ScriptedDice, SeededDice, UnscriptedDecision)
from magewars.engine.decisions import Decision
from magewars.engine.dice import ATTACK_FACES, Face, parse_face
from magewars.engine.primitives import PRIMITIVES, NotImplementedPrimitive
from magewars.scenario import build, load_scenario
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCEN = HERE.parent / "scenarios"


def test_attack_die_faces():
    assert [str(f) for f in ATTACK_FACES] == ["-", "-", "1", "2", "1*", "2*"]
    assert sum(f.critical for f in ATTACK_FACES) == 2


def test_parse_face():
    assert parse_face("2*") == Face(2, True)
    assert parse_face(0) == Face(0)
    assert parse_face("-") == Face(0)
    with pytest.raises(DiceError):
        parse_face(3)
    with pytest.raises(DiceError):
        parse_face("x")


def test_scripted_dice_fail_loudly():
    d = ScriptedDice([[1, "2*"]], [7])
    assert d.attack(2) == [Face(1), Face(2, True)]
    assert d.d12() == 7
    with pytest.raises(DiceError):
        d.attack(1)
    with pytest.raises(DiceError):
        d.d12()


def test_scripted_dice_rejects_bad_d12():
    with pytest.raises(DiceError):
        ScriptedDice([], [13])


def test_seeded_dice_repeat():
    a, b = SeededDice(42), SeededDice(42)
    assert [a.attack(5) for _ in range(10)] == [b.attack(5) for _ in range(10)]
    assert [a.d12() for _ in range(10)] == [b.d12() for _ in range(10)]


def _decision(kind="reveal", default=0):
    return Decision(kind, "Bob", [Option("pass"), Option("Block", 1)], {"step": "avoid_attack"}, "?", default)


def test_scripted_agent_fails_on_unscripted():
    with pytest.raises(UnscriptedDecision):
        ScriptedAgent([]).decide(_decision())


def test_scripted_agent_lenient_uses_default():
    assert ScriptedAgent([], lenient=True).decide(_decision()).label == "pass"
    with pytest.raises(UnscriptedDecision):
        ScriptedAgent([], lenient=True).decide(_decision(default=None))


def test_scripted_agent_matches_kind_player_step():
    agent = ScriptedAgent([ScriptedChoice("reveal", "Block", "Bob", "avoid_attack")])
    assert agent.decide(_decision()).label == "Block"
    assert agent.unused() == []


def test_scripted_agent_bad_choice_is_loud():
    agent = ScriptedAgent([ScriptedChoice("defense", "nonsense")])
    with pytest.raises(UnscriptedDecision):
        agent.decide(_decision("defense"))


def test_first_legal_and_random_agents():
    assert FirstLegalAgent().decide(_decision()).label == "pass"
    r1, r2 = RandomAgent(3), RandomAgent(3)
    assert [r1.decide(_decision()).label for _ in range(20)] == [r2.decide(_decision()).label for _ in range(20)]


def test_primitives_are_vocabulary_names():
    from magewars.dsl import vocab
    names = set(vocab.EFFECT_FUNCS)
    assert set(PRIMITIVES) <= names, set(PRIMITIVES) - names


def test_hidden_enchantment_never_named_to_opponent():
    sc = load_scenario(str(SCEN / "block_avoids.yaml"), (Path(__file__).resolve().parent / "cards",))
    game, _ = build(sc)
    view_alice = game.view("Alice")
    view_bob = game.view("Bob")
    assert view_alice["objects"]["block"]["card"] == "hidden enchantment"
    assert view_bob["objects"]["block"]["card"] == "Block"
    import json
    assert "Block" not in json.dumps(view_alice)


def test_unimplemented_primitive_is_recorded_not_skipped():
    from magewars.dsl import ast as A
    from magewars.engine.primitives import run_effect
    from magewars.engine.phrases import Ctx
    sc = load_scenario(str(SCEN / "block_avoids.yaml"), (Path(__file__).resolve().parent / "cards",))
    game, _ = build(sc)
    run_effect(game, A.Call("summon", ()), Ctx(this=game.state.objects["wolf"]))
    assert "summon" in game.unsupported
    assert any(e.kind == "unsupported" and "summon" in e.text for e in game.log.events)


def test_derived_values_cached_and_invalidated():
    sc = load_scenario(str(SCEN / "corrode_bitterwood_fox.yaml"), (Path(__file__).resolve().parent / "cards",))
    game, _ = build(sc)
    fox = game.state.objects["fox"]
    d1 = game.effects.derived(fox)
    assert game.effects.derived(fox) is d1  # cached
    game.place_condition(fox, "Corrode", 1, "test")
    assert game.effects.derived(fox) is not d1
    assert game.armor(fox) == 0


def test_log_never_names_hidden_enchantment_to_opponent():
    from magewars.scenario import run_scenario
    res = run_scenario(str(SCEN / "block_avoids.yaml"), (Path(__file__).resolve().parent / "cards",))
    events = res.game.log.events[1:]  # the first event is the scenario title
    first_reveal = next(i for i, e in enumerate(events) if e.kind == "reveal")
    alice_view = [e.view("Alice")[0] for e in events[:first_reveal]]
    assert not any("Block" in t for t in alice_view), alice_view
    bob_view = [e.view("Bob")[0] for e in events[:first_reveal]]
    assert any("Block" in t for t in bob_view)
    assert "Block" not in str(res.game.log.to_json("Alice")[1:first_reveal + 1])
