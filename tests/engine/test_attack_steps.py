"""The attack sequence follows the supplement's attack-procedure chart, and the chart's table
(engine.attack.STEP_ORDER) is what drives it.

The chart's facts are restated here on their own (not read from STEP_ORDER), and every attack
action of every scenario, plus a sweep of attacks between shipped creatures, is checked against
them from the log: which steps each kind of attack takes, and the only ways back (another strike
goes back to Roll to Miss, the next object of a zone to Avoid Attack, a first-striking defender's
counterstrike right after Pay Costs).
"""
import random
from pathlib import Path

import pytest

from magewars.dsl import compile_paths
from magewars.dsl.model import Corpus
from magewars.engine import FirstLegalAgent, Game, SeededDice
from magewars.engine import attack as attack_mod
from magewars.scenario import run_scenario
from magewars.scenario.runner import base_corpus

HERE = Path(__file__).resolve().parent
SCENARIOS = sorted((HERE.parent / "scenarios").glob("*.yaml"))
CARDS_ROOT = HERE / "cards"

CHART = ["declare_attack", "pay_costs", "roll_to_miss", "avoid_attack", "roll_dice", "damage_and_effects",
         "additional_strikes", "damage_barrier", "counterstrike", "attack_ends"]
# steps the chart leaves out, by the kind of attack action (read from the action's log line)
NEVER = {
    "counterstrike": {"counterstrike"},
    "damage barrier attack": {"avoid_attack", "additional_strikes", "damage_barrier", "counterstrike"},
}
# the only backward moves the chart allows
BACK = {("additional_strikes", "roll_to_miss"),  # another strike: back to step 3
        ("counterstrike", "roll_to_miss")}  # first strike: counterstrike came right after Pay Costs
# a zone attack: the next object in the zone (after that object's last step taken)
ZONE_BACK = {("avoid_attack", "avoid_attack"), ("roll_dice", "avoid_attack"), ("damage_and_effects", "avoid_attack")}


def actions(game) -> list[tuple[str, list[str]]]:
    """Each attack action in the log: its kind (from its log line) and its own steps, in order."""
    evs = game.log.events
    out = []
    for i, e in enumerate(evs):
        if e.kind != "action":
            continue
        kind = next((k for k in ("counterstrike", "damage barrier attack", "attack action")
                     if f": {k} with " in e.text), None)
        keys = []
        for f in evs[i + 1:]:
            if f.depth <= e.depth and f.kind in ("action", "step"):
                break
            if f.kind == "step" and f.depth == e.depth + 1:
                keys.append(f.data["step"])
        if kind is not None:  # an attack action (not a spell being cast, nor a phase)
            out.append((kind, keys))
    return out


def check_chart(kind: str, keys: list[str]) -> None:
    assert not set(keys) & NEVER.get(kind, set()), (kind, keys)
    runs, cur = [], []
    for k in keys:  # one run per target (Sweeping: the whole column again for each target)
        if k == "declare_attack" and cur:
            runs.append(cur)
            cur = []
        cur.append(k)
    if cur:
        runs.append(cur)
    for run in runs:
        assert run[0] == "declare_attack", (kind, keys)
        for a, b in zip(run, run[1:]):
            forward = CHART.index(b) > CHART.index(a)
            zone = "additional_strikes" not in run and run.count("avoid_attack") > 1
            assert forward or (a, b) in BACK or (zone and (a, b) in ZONE_BACK), f"{kind}: {a} -> {b} in {keys}"
            if (a, b) == ("pay_costs", "counterstrike"):
                assert kind == "attack action"
        # a run ends with Attack Ends, or stops at once: an illegal declaration, or a first-striking
        # defender destroyed the attacker before the strikes
        assert run[-1] == "attack_ends" or run == ["declare_attack"] or run[-1] == "counterstrike", run


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_attacks_follow_the_chart(path):
    result = run_scenario(str(path), (CARDS_ROOT,))
    if result.scenario.xfail and result.error is not None:
        pytest.skip(f"marked xfail: {result.scenario.xfail}")
    assert result.error is None, result.error.format()
    for kind, keys in actions(result.game):
        check_chart(kind, keys)


@pytest.fixture(scope="module")
def corpus():
    base = base_corpus()
    extra, _ = compile_paths([CARDS_ROOT])
    return Corpus({**base.cards, **extra.cards}, dict(base.codex))


def test_attacks_between_shipped_creatures_follow_the_chart(corpus):
    """Every attack bar of a sample of shipped creatures against others (multiple strikes, zone
    attacks, damage barriers and counterstrikes among them) keeps to the chart."""
    creatures = sorted(n for n, cd in corpus.cards.items() if cd.kind == "creature" and cd.attacks and cd.life)
    barriers = sorted(n for n, cd in corpus.cards.items()
                      if cd.kind == "enchantment" and any("barrier" in a.special for a in cd.attacks))
    assert barriers
    rng = random.Random(9)
    kinds_seen, steps_seen = set(), set()
    for i in range(150):
        an, dn = rng.choice(creatures), rng.choice(creatures)
        g = Game(corpus, SeededDice(i), FirstLegalAgent())
        g.state.add_player("A", mana=100)
        g.state.add_player("B", mana=100)
        a = g.create(an, "a", "A", zone="B2")
        d = g.create(dn, "d", "B", zone="B2")
        if i % 2:
            g.create(rng.choice(barriers), "e", "B", attached_to="d")
        bar = corpus.cards[an].attacks[i % len(corpus.cards[an].attacks)]
        g.attacks.make_attack(a, bar.name, [d])
        for kind, keys in actions(g):
            check_chart(kind, keys)
            kinds_seen.add(kind)
            steps_seen.update(keys)
    assert kinds_seen == {"attack action", "counterstrike", "damage barrier attack"}
    assert steps_seen == set(CHART)


def test_the_table_drives_the_sequence(corpus, monkeypatch):
    """Change the chart's melee column and the engine follows it: the table is not a comment."""
    def bite_steps():
        g = Game(corpus, SeededDice(1), FirstLegalAgent())
        g.state.add_player("A", mana=100)
        g.state.add_player("B", mana=100)
        a = g.create("Timber Wolf", "a", "A", zone="B2")
        d = g.create("Test Dummy", "d", "B", zone="B2")
        g.attacks.make_attack(a, "Bite", [d])
        return actions(g)[0][1]

    one_strike = [s for s in CHART if s != "additional_strikes"]
    assert bite_steps() == one_strike
    col = attack_mod.STEP_ORDER["melee"]
    monkeypatch.setitem(attack_mod.STEP_ORDER, "melee",
                        attack_mod.Column(tuple(s for s in col.steps if s != "pay_costs"), col.again))
    assert bite_steps() == [s for s in one_strike if s != "pay_costs"]


def test_every_step_is_a_unit_of_its_own():
    """Each step of the chart is one class owning its key; the table names only known steps,
    each column in the chart's order."""
    assert list(attack_mod.STEPS) == CHART
    for key, st in attack_mod.STEPS.items():
        assert st.key == key and type(st).__name__ == "".join(w.capitalize() for w in key.split("_"))
    for col in attack_mod.STEP_ORDER.values():
        assert list(col.steps) == [s for s in CHART if s in col.steps]
        assert col.again is None or col.again in col.steps
