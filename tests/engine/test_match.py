"""The whole game on the shipped spellbooks: the round's phases, the one game API, victory, determinism,
hidden planning, and agents that fail loudly."""
import json
import random

import pytest
from click.testing import CliRunner

from magewars.cli import main
from magewars.dsl import vocab
from magewars.engine import registry as REG
from magewars.engine import round as R
from magewars.engine.actions import Activation, AttackChoice, MoveChoice, PassChoice
from magewars.engine.activation import legal_actions
from magewars.engine.decisions import Agent, RandomAgent, ScriptedAgent, UnscriptedDecision
from magewars.engine.match import GameResult, start_game, step_action, step_phase
from magewars.engine.views import texts
from magewars.spellbook import load_spellbook


@pytest.fixture(scope="module")
def books(corpus):
    return {n: load_spellbook(n, corpus) for n in ("wizard", "warlord", "beastmaster", "necromancer")}


class Aggressive(Agent):
    """Attacks when it can, otherwise moves toward the nearest enemy, otherwise random (seeded)."""

    def __init__(self, game_ref, seed):
        self.rng = random.Random(seed)
        self.game_ref = game_ref

    def decide(self, d):
        vals = [o.value for o in d.options]
        if d.kind == "action":
            atk = [o for o in d.options if isinstance(o.value, AttackChoice)]
            if atk:
                return self.rng.choice(atk)
            g = self.game_ref[0]
            moves = [o for o in d.options if isinstance(o.value, MoveChoice)]
            if moves:
                me = g.state.objects[moves[0].value.obj_id]
                foes = [o.zone for o in g.state.in_play() if o.controller != me.controller and o.zone
                        and g.is_creature(o)]
                dist = g.state.arena.distance
                best = min(moves, key=lambda o: min((dist(o.value.to_zone, z) for z in foes), default=0))
                if foes and min(dist(me.zone, z) for z in foes) > min(dist(best.value.to_zone, z) for z in foes):
                    return best
            passes = [o for o in d.options if isinstance(o.value, PassChoice)]
            if passes and len(vals) > 1 and self.rng.random() < 0.5:
                return passes[0]
        return self.rng.choice(d.options)


def _aggressive_game(corpus, books, seed, a="wizard", b="warlord"):
    ref = []
    g = start_game(corpus, [books[a], books[b]], seed, {"P1": Aggressive(ref, seed), "P2": Aggressive(ref, seed + 1)})
    ref.append(g)
    return g


def test_setup_reads_the_mage_stats(corpus, books):
    g = start_game(corpus, [books["wizard"], books["warlord"]], 1, RandomAgent(1))
    p1, p2 = g.state.mage_of("P1"), g.state.mage_of("P2")
    assert (p1.zone, p2.zone) == ("A1", "C4")  # opposite corners of the 3x4 arena
    assert g.life(p1) == p1.card.life and p1.card.kind == "magestats"
    assert g.state.players["P1"].mana == p1.card.channeling + (p1.card.starting_mana or 0)
    lib = R.state_of(g).library["P1"]
    assert sum(lib.values()) == books["wizard"].count()


def test_a_whole_game_runs_to_a_winner(corpus, books):
    winners = set()
    for seed in range(4):
        g = _aggressive_game(corpus, books, seed)
        res = g.play(max_rounds=40)
        assert isinstance(res, GameResult)
        if res.winner is not None:
            loser = "P2" if res.winner == "P1" else "P1"
            assert not g.state.mage_of(loser).in_play and g.state.mage_of(res.winner).in_play
            assert res.reason and res.rounds >= 1 and res.seed == seed
            assert g.log.of_kind("game_over")
            winners.add(res.winner)
        d = res.to_dict()
        assert json.loads(json.dumps(d)) == d
    assert winners, "no seeded game reached a winner"


def test_the_same_seed_gives_the_same_log(corpus, books):
    sigs = []
    for _ in range(2):
        g = start_game(corpus, [books["beastmaster"], books["necromancer"]], 11,
                       {"P1": RandomAgent(11), "P2": RandomAgent(12)})
        g.play(max_rounds=6)
        sigs.append(g.log.signature())
    assert sigs[0] == sigs[1] and len(sigs[0]) > 50
    g3 = start_game(corpus, [books["beastmaster"], books["necromancer"]], 12,
                    {"P1": RandomAgent(12), "P2": RandomAgent(13)})
    g3.play(max_rounds=6)
    assert g3.log.signature() != sigs[0]


def test_cli_play_json_is_byte_identical_for_a_seed():
    r = CliRunner()
    args = ["play", "wizard", "warlord", "--seed", "5", "--max-rounds", "3", "--json"]
    a, b = r.invoke(main, args), r.invoke(main, args)
    assert a.exit_code == 0, a.output
    assert a.output == b.output
    doc = json.loads(a.output)
    assert doc["result"]["seed"] == 5 and doc["result"]["winner"] is None
    assert "round cap" in doc["result"]["reason"]
    text = r.invoke(main, ["play", "wizard", "warlord", "--seed", "5", "--max-rounds", "2"])
    assert text.exit_code == 0 and "result: draw" in text.output


def test_cli_play_refuses_bad_input_cleanly():
    r = CliRunner()
    bad = r.invoke(main, ["play", "wizard", "no-such-book"])
    assert bad.exit_code == 2 and "no-such-book" in bad.output and "Traceback" not in bad.output
    bad = r.invoke(main, ["play", "wizard", "warlord", "--agents", "random,genius"])
    assert bad.exit_code == 2 and "genius" in bad.output
    bad = r.invoke(main, ["play", "wizard", "warlord", "--as", "P9", "--json"])
    assert bad.exit_code == 2 and "P9" in json.loads(bad.output)["error"]


def test_planning_is_hidden_from_the_opponent(corpus, books):
    g = start_game(corpus, [books["wizard"], books["warlord"]], 3, RandomAgent(3))
    for _ in range(5):  # initiative .. planning
        step_phase(g)
    planned = R.state_of(g).planned
    assert all(len(v) == 2 for v in planned.values())
    p1_only = set(planned["P1"]) - set(planned["P2"]) - {o.name for o in g.state.objects.values()}
    assert p1_only
    seen_by_p2 = "\n".join(texts(g, "P2"))
    seen_by_p1 = "\n".join(texts(g, "P1"))
    for name in p1_only:
        assert name not in seen_by_p2
        assert name in seen_by_p1


def test_phases_run_in_the_rulebook_order(corpus, books):
    g = start_game(corpus, [books["wizard"], books["warlord"]], 2, RandomAgent(2))
    names = [step_phase(g).name for _ in R.ROUND_PHASES]
    assert names == ["Initiative Phase", "Reset Phase", "Channeling Phase", "Upkeep Phase", "Planning Phase",
                     "Deployment Phase", "First Quickcast Phase", "Action Phase", "Final Quickcast Phase",
                     "End Phase"]
    assert g.state.round == 2
    init = [e.data["player"] for e in g.log.of_kind("initiative")]
    step_phase(g)
    init2 = [e.data["player"] for e in g.log.of_kind("initiative")]
    assert len(init2) == 2 and init2[1] != init[0]  # the initiative passes
    assert g.state.order[0] == init2[1]


def test_channeling_adds_each_round(corpus, books):
    g = start_game(corpus, [books["wizard"], books["warlord"]], 2, RandomAgent(2))
    before = g.state.players["P2"].mana
    for _ in range(3):
        step_phase(g)
    assert g.state.players["P2"].mana == before + g.state.mage_of("P2").card.channeling


def test_step_action_runs_one_activation(corpus, books):
    g = start_game(corpus, [books["wizard"], books["warlord"]], 4, RandomAgent(4))
    first = step_action(g)
    assert first is not None and first.action_marker == "used"
    second = step_action(g)
    assert second is not None and second.controller != first.controller
    assert R.ROUND_PHASES[R.state_of(g).next_phase].key == "action"


def test_scripted_agent_fails_loudly_on_an_unscripted_choice(corpus, books):
    g = start_game(corpus, [books["wizard"], books["warlord"]], 1, ScriptedAgent([]))
    with pytest.raises(UnscriptedDecision) as exc:
        g.play(max_rounds=1)
    assert exc.value.decision.kind == "initiative"


def test_a_creature_that_cannot_act_only_passes(corpus, books):
    g = start_game(corpus, [books["wizard"], books["warlord"]], 1, RandomAgent(1))
    mage = g.state.mage_of("P1")
    g.state.add_marker(mage, "Stun", 1)
    got = legal_actions(g, mage, Activation(mage.id), [], False)
    assert got == [PassChoice(mage.id)]


def test_every_timing_of_the_vocabulary_is_run_by_a_phase():
    assert REG.TIMINGS_RUN == R.TIMINGS_RUN
    assert set(vocab.TIMING_FUNCS) - R.TIMINGS_RUN == set()
    assert REG.ACTIONS_RUN


def test_conditions_wear_off_as_the_codex_states(corpus, books):
    """Stun comes off at the end of an action phase because its codex entry says so; one received
    from a damage barrier or counterstrike this activation stays; strip the entry's timing and
    nothing comes off."""
    import dataclasses
    from magewars.dsl import ast as A
    g = start_game(corpus, [books["wizard"], books["warlord"]], 1, RandomAgent(1))
    mage = g.state.mage_of("P1")
    g.state.add_marker(mage, "Stun", 1)
    g.state.add_marker(mage, "Stun", 1, fresh=True)
    R.end_action_phase(g, mage)
    assert mage.markers.get("Stun") == 1 and not mage.fresh
    R.end_action_phase(g, mage)
    assert not mage.markers.get("Stun")
    g2 = start_game(corpus, [books["wizard"], books["warlord"]], 1, RandomAgent(1))
    stun = g2.codex["Stun"]
    g2.codex["Stun"] = dataclasses.replace(stun, abilities=tuple(
        a for a in stun.abilities if not isinstance(a, A.TimedAbility)))
    g2.corpus = dataclasses.replace(corpus, codex=dict(g2.codex))
    m2 = g2.state.mage_of("P1")
    g2.state.add_marker(m2, "Stun", 1)
    R.end_action_phase(g2, m2)
    assert m2.markers.get("Stun") == 1


def test_scenario_round_actions_are_checked(tmp_path):
    from magewars.scenario import run_scenario
    from magewars.scenario.loader import ScenarioError
    p = tmp_path / "bad.yaml"
    p.write_text("players: [{name: A}, {name: B}]\nobjects:\n  - {id: w, card: Wizard, controller: A, zone: A1}\n"
                 "actions:\n  - phase: teatime\n", encoding="utf-8")
    res = run_scenario(str(p))
    assert res.error is not None and res.error.code == "S005" and "teatime" in res.error.format()
    assert ":5:" in res.error.format()
    p.write_text("players: [{name: A, planned: [No Such Spell]}, {name: B}]\nobjects:\n"
                 "  - {id: w, card: Wizard, controller: A, zone: A1}\nactions: [round]\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as exc:
        run_scenario(str(p))
    assert "No Such Spell" in str(exc.value)
