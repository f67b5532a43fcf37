"""Agents answer through a checking seat, see only their own player's view, and fail loudly."""
from collections import Counter

import pytest

from magewars.duel.agents import GreedyAgent, IllegalChoice, RandomDuelAgent, Seat, expected_damage
from magewars.duel.roster import make_agent
from magewars.duel.runner import DuelConfig, play_game
from magewars.engine.decisions import Decision, Option


def decision(kind="choose", player="A", n=3):
    return Decision(kind, player, [Option(f"o{i}", i) for i in range(n)], {}, "pick one")


class Answers:
    """A duel agent that answers what it is told (to test the seat's checks)."""
    name = "fixed"
    needs_view = False

    def __init__(self, answer):
        self.answer = answer

    def choose(self, d, view):
        return self.answer(d)


def test_seat_refuses_answers_that_are_not_options():
    d = decision()
    with pytest.raises(IllegalChoice, match="not one of the 3 options"):
        Seat("A", Answers(lambda d: Option("o1", 1))).decide(d)  # equal, but not the option offered
    with pytest.raises(IllegalChoice, match="not one of"):
        Seat("A", Answers(lambda d: "o1")).decide(d)
    assert Seat("A", Answers(lambda d: d.options[2])).decide(d) is d.options[2]


def test_seat_refuses_unknown_kinds_other_players_and_empty_decisions():
    seat = Seat("A", RandomDuelAgent(1))
    with pytest.raises(IllegalChoice, match="unknown decision kind"):
        seat.decide(decision(kind="bribe"))
    with pytest.raises(IllegalChoice, match="was asked B's"):
        seat.decide(decision(player="B"))
    with pytest.raises(IllegalChoice, match="no option"):
        seat.decide(decision(n=0))


def test_a_view_agent_without_a_game_fails_loudly(corpus):
    with pytest.raises(IllegalChoice, match="needs a view"):
        Seat("A", GreedyAgent(1, corpus)).decide(decision(kind="action"))


def test_random_agent_is_uniform_and_seeded():
    a, b = RandomDuelAgent(5), RandomDuelAgent(5)
    d = decision(n=4)
    seq_a = [a.choose(d, None).value for _ in range(4000)]
    assert seq_a == [b.choose(d, None).value for _ in range(4000)]
    picks = Counter(seq_a)
    assert set(picks) == {0, 1, 2, 3}
    # chi-square with 3 degrees of freedom: 16.27 is its 0.999 quantile
    chi2 = sum((c - 1000) ** 2 / 1000 for c in picks.values())
    assert chi2 < 16.27, picks


def test_unknown_agent_names_fail(corpus):
    with pytest.raises(ValueError, match="unknown agent 'oracle'"):
        make_agent("oracle", 1, corpus)


def test_expected_damage_respects_armor_and_criticals():
    assert expected_damage(4, 0) == pytest.approx(4.0)  # 2 normal + 2 critical on average
    assert expected_damage(4, 2) == pytest.approx(2.0)  # armor takes the normal part only
    assert expected_damage(4, 9) == pytest.approx(2.0)


class Spy(GreedyAgent):
    """Greedy, and records every view it is given together with the game's hidden truth."""
    game = None
    seen: list = []
    view_kinds = None  # sees the view at every decision

    def choose(self, d, view):
        hidden = {o.name for o in self.game.state.objects.values()
                  if o.hidden and o.in_play and o.controller != view.player}
        public = {o.name for o in self.game.state.objects.values() if not o.hidden and o.in_play}
        planned = set()
        from magewars.engine import round as R
        for p, names in R.state_of(self.game).planned.items():
            if p != view.player:
                planned |= set(names)
        Spy.seen.append((view, hidden - public, planned - public))
        return super().choose(d, view)


def test_views_never_show_the_opponents_hidden_cards(corpus, monkeypatch):
    """Over whole games, no view an agent gets names a face-down card or a planned spell of the
    opponent (unless the same name is public anyway)."""
    import magewars.duel.roster as agents_mod
    from magewars.duel import runner

    monkeypatch.setitem(agents_mod.AGENTS, "greedy", Spy)
    Spy.seen = []
    cfg = DuelConfig(("beastmaster", "priestess"), ("greedy", "greedy"), seed=3, max_rounds=8)
    hidden_seen = 0
    for i in range(2):
        Spy.game = None

        def grab(game):
            Spy.game = game
        played = play_game(cfg, i, observers=[grab])
        assert played.record["decisions"]["A"] > 0
    assert Spy.seen
    for view, hidden, planned in Spy.seen:
        text = repr(view.state)
        for name in hidden | planned:
            hidden_seen += 1
            assert name not in text, f"{view.player} sees {name}"
    assert hidden_seen > 0  # the opponent had planned spells or face-down cards to hide
    for view, _, _ in Spy.seen:
        for rec in view.objects().values():
            if rec.get("hidden") and rec["controller"] != view.player:
                assert rec["card"] == "hidden enchantment"


def test_an_illegal_answer_stops_the_duel_with_the_game_named(monkeypatch):
    """An agent answering with something that is not an option stops the whole run, naming the game."""
    import magewars.duel.roster as agents_mod
    from magewars.duel.runner import DuelError, run_local

    class Cheater(RandomDuelAgent):
        def choose(self, d, view):
            return Option("win the game", "win")

    monkeypatch.setitem(agents_mod.AGENTS, "random", Cheater)
    cfg = DuelConfig(("beastmaster", "wizard"), seed=4, max_rounds=2)
    with pytest.raises(DuelError, match=r"game 0 of seed 4 .* IllegalChoice: .*not one of the"):
        run_local(cfg, 1)


def test_agents_know_every_kind_of_decision_the_engine_asks():
    """The seat refuses unknown kinds loudly; so every kind the engine's code asks must be known."""
    import re
    from pathlib import Path

    from magewars.duel.agents import KNOWN_KINDS
    from magewars.engine.decisions import decision_kinds
    root = Path(__file__).resolve().parents[2] / "magewars" / "engine"
    asked = {m for p in root.rglob("*.py") for m in re.findall(r'decide\(\s*"(\w+)"', p.read_text("utf-8"))}
    asked.discard("KIND")  # the docstring's example call
    assert asked and asked <= set(decision_kinds()), sorted(asked - set(decision_kinds()))
    assert KNOWN_KINDS == set(decision_kinds())
    unasked = set(decision_kinds()) - asked  # a listed kind nobody asks is a stale entry
    assert not unasked, sorted(unasked)


def test_the_seat_builds_views_only_where_the_agent_reads_them(corpus):
    """Greedy reads the view for actions, planning and targets only; a decision asked again in the same
    state gets the same view object (built once)."""
    from magewars.duel.runner import setup_game
    built = []

    class Counting(GreedyAgent):
        def choose(self, d, view):
            built.append((d.kind, view))
            return super().choose(d, view)
    cfg = DuelConfig(("beastmaster", "wizard"), ("greedy", "greedy"), seed=2, max_rounds=2)
    game, seats, _, _ = setup_game(cfg, 0)
    seat = Seat("A", Counting(1, corpus), seats["A"].viewer)
    seat.decide(Decision("reveal", "A", [Option("pass"), Option("x", 1)], {}, "reveal?"))
    plan = Decision("plan", "A", [Option("pass", None)], {}, "plan")
    seat.decide(plan)
    seat.decide(plan)
    assert built[0] == ("reveal", None)
    assert built[1][1] is not None and built[2][1] is built[1][1]  # the same state: one view
    game.state.players["A"].mana += 1
    game.state.touch()
    seat.decide(plan)
    assert built[3][1] is not built[1][1] and built[3][1].mana() == built[1][1].mana() + 1
