"""The search agent: copies of the game where the opponent's hidden cards and the coming dice are
guesses; it plays whole games reproducibly and answers only with offered options."""
import os
import random

from magewars.duel.runner import DuelConfig, book, play_game, setup_game
from magewars.duel.search import Sampler, score_view
from magewars.engine import round as R

CFG = DuelConfig(("beastmaster", "warlock"), ("search", "greedy"), seed=9, max_rounds=3,
                 agent_options=(("iterations", 4),))


def test_determinize_replaces_what_the_player_cannot_know(corpus):
    game, seats, _, _ = setup_game(CFG, 0)
    b_book = book("warlock")
    in_b = {cd.name for cd, _ in b_book.cards}
    b_enchantments = {cd.name for cd, _ in b_book.cards if cd.kind == "enchantment"}
    foreign = next(cd for cd in corpus.cards.values() if cd.kind == "enchantment" and cd.name not in in_b)
    mine = next(cd for cd in corpus.cards.values() if cd.kind == "enchantment")
    theirs = game.create(foreign, "hidden-b", "B", attached_to=game.state.mage_of("B").id, hidden=True)
    own = game.create(mine, "hidden-a", "A", attached_to=game.state.mage_of("A").id, hidden=True)
    rs = R.state_of(game)
    rs.planned["B"] = ["not a card anyone has", "nor this"]
    rs.planned["A"] = ["kept"]
    dice = game.dice
    Sampler(game, {"A": book("beastmaster"), "B": b_book}).determinize("A", random.Random(1))
    assert theirs.card.name in b_enchantments  # a guess from B's list, never the real card
    assert own.card is mine  # A knows its own cards
    assert len(rs.planned["B"]) == 2 and set(rs.planned["B"]) <= in_b
    assert rs.planned["A"] == ["kept"]
    assert game.dice is not dice  # the coming rolls of the real game stay unknown


def test_score_view_reads_the_mages():
    state = {"objects": {
        "a": {"card": "?", "controller": "A", "in_play": True, "life": 10, "damage": 0},
        "b": {"card": "?", "controller": "B", "in_play": True, "life": 10, "damage": 10}}}

    class Corpus:  # two mages: card data says what a mage is
        class _Mage:
            kind, subtypes = "mage", ()
        cards = {"?": _Mage()}
    assert score_view(state, "A", Corpus) == 1.0 and score_view(state, "B", Corpus) == 0.0
    state["objects"]["b"]["damage"] = 5
    assert 0.5 < score_view(state, "A", Corpus) < 1.0


def test_search_plays_whole_games_reproducibly():
    pid = os.getpid()
    first = play_game(CFG, 0)
    assert os.getpid() == pid  # the copies never came back into the caller
    agent = first.seats["A"].agent
    assert agent.copies > 0  # it searched
    assert first.record["decisions"]["A"] > 0
    again = play_game(CFG, 0)
    assert again.record == first.record
    assert [e.text for e in again.game.log.events] == [e.text for e in first.game.log.events]


def test_candidates_are_compared_on_the_same_futures_within_a_budget(corpus):
    """Every candidate's k-th copy gets the same seed (common random numbers); the best mean wins;
    once the game's copy budget is spent, greedy's first choice is taken without copies."""
    from magewars.duel.agents import PlayerView
    from magewars.duel.search import SearchAgent
    from magewars.engine.decisions import Decision, Option

    agent = SearchAgent(7, corpus, iterations=6, candidates=3, budget=8)
    agent.sampler = object()  # bound (the copies are stubbed below, nothing is forked)
    agent.greedy.score_action = lambda view, value: -value  # greedy ranks option 0 first
    played = []

    def copy(decision, index, view, seed):
        played.append((index, seed))
        agent.copies += 1
        return {0: 0.2, 1: 0.7, 2: 0.4}[index] + (seed % 7) / 100  # option 1 is best on every future
    agent._play_copy = copy
    d = Decision("action", "A", [Option(f"o{i}", i) for i in range(4)], {}, "act")
    view = PlayerView("A", {"round": 1, "players": {}, "objects": {}})
    assert agent.choose(d, view) is d.options[1]
    seeds = {i: [s for j, s in played if j == i] for i in range(3)}
    assert len(seeds[0]) == 2 and seeds[0] == seeds[1] == seeds[2]  # two copies each, the same futures
    assert {j for j, _ in played} == {0, 1, 2}  # option 3, ranked last by greedy, is not searched
    played.clear()
    assert agent.choose(d, view) is d.options[0] and played == []  # 6 + 6 copies would pass the budget of 8


def test_greedy_first_choice_stands_unless_beaten_on_every_future(corpus):
    """Another candidate replaces greedy's first choice only when it scores higher on every sampled
    future and by more than SWITCH_MARGIN on average; a better mean carried by one lucky future, a
    gain inside the margin or a tie keeps greedy's choice."""
    from magewars.duel.agents import PlayerView
    from magewars.duel.search import SWITCH_MARGIN, SearchAgent
    from magewars.engine.decisions import Decision, Option

    agent = SearchAgent(3, corpus, iterations=6, candidates=3)
    agent.sampler = object()  # bound (the copies are stubbed below, nothing is forked)
    agent.greedy.score_action = lambda view, value: -value  # greedy ranks option 0 first
    d = Decision("action", "A", [Option(f"o{i}", i) for i in range(3)], {}, "act")
    view = PlayerView("A", {"round": 1, "players": {}, "objects": {}})

    def answer(table):
        calls = {}

        def copy(decision, index, view, seed):
            k = calls[index] = calls.get(index, -1) + 1
            return table[index][k]
        agent._play_copy = copy
        return d.options.index(agent.choose(d, view))

    big = 10 * SWITCH_MARGIN
    assert answer({0: [0.5, 0.5], 1: [0.5 + big, 0.5 + big], 2: [0.5, 0.5]}) == 1
    assert answer({0: [0.5, 0.5], 1: [0.5 + 4 * big, 0.5 - 0.001], 2: [0.4, 0.4]}) == 0  # one lucky future
    assert answer({0: [0.5, 0.5], 1: [0.5 + SWITCH_MARGIN / 2] * 2, 2: [0.5, 0.5]}) == 0  # inside the margin
    assert answer({0: [0.5, 0.5], 1: [0.5, 0.5], 2: [0.5, 0.5]}) == 0  # a tie
    assert answer({0: [0.5, 0.5], 1: [0.5 + big] * 2, 2: [0.5 + 2 * big] * 2}) == 2  # the largest sure gain


def test_a_candidate_stops_at_the_first_future_it_does_not_win(corpus):
    """A candidate's copies stop at the first sampled future where it does not beat greedy's choice
    (it can no longer replace it); the budget is still charged every candidate's full share."""
    from magewars.duel.agents import PlayerView
    from magewars.duel.search import SearchAgent
    from magewars.engine.decisions import Decision, Option

    agent = SearchAgent(5, corpus, iterations=9, candidates=3, budget=100)
    agent.sampler = object()  # bound (the copies are stubbed below, nothing is forked)
    agent.greedy.score_action = lambda view, value: -value  # greedy ranks option 0 first
    table = {0: [0.5, 0.5, 0.5], 1: [0.6, 0.5, 0.9], 2: [0.4, 0.9, 0.9]}
    played = []

    def copy(decision, index, view, seed):
        played.append(index)
        return table[index][played.count(index) - 1]
    agent._play_copy = copy
    d = Decision("action", "A", [Option(f"o{i}", i) for i in range(3)], {}, "act")
    view = PlayerView("A", {"round": 1, "players": {}, "objects": {}})
    assert agent.choose(d, view) is d.options[0]
    assert played.count(0) == 3 and played.count(1) == 2 and played.count(2) == 1
    assert agent.spent == 9


def test_a_copy_is_scored_after_a_bounded_number_of_decisions(corpus, monkeypatch):
    """A copy that is still before its horizon after COPY_DECISIONS decisions is scored where it stands
    (the bound counts decisions, so it does not depend on the machine's speed)."""
    from magewars.duel import search
    from magewars.engine.decisions import Decision, Option
    game, seats, _, _ = setup_game(CFG, 0)
    finished = []

    class Stop(Exception):
        pass

    roll = search._Rollout(-1, "A", game, horizon_round=99, evaluator=lambda st: 0.25)
    roll.finish = lambda v: (finished.append(v), (_ for _ in ()).throw(Stop()))
    agent = search._RolloutAgent(1, corpus, roll)
    d = Decision("optional", "A", [Option("no", False), Option("yes", True)], {}, "?")
    for _ in range(search.COPY_DECISIONS):
        agent.choose(d, None)
    assert finished == []
    try:
        agent.choose(d, None)
    except Stop:
        pass
    assert finished == [0.25]
