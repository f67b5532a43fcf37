"""What one decision's enumeration of legal options keeps (engine/decisionmemo.py) changes nothing a game
shows: kept answers are those that left no trace, dropped when the state changes, never kept outside a
scope or while a derived value is worked out; seeded duels log the same events with the memo turned off."""
import pytest

from magewars.duel.runner import DuelConfig, play_game
from magewars.engine import activation as AV
from magewars.engine import decisionmemo as DM
from magewars.engine.attack import Attack, AttackAction


@pytest.fixture(scope="module")
def game():
    return play_game(DuelConfig(("beastmaster", "wizard"), ("random", "random"), seed=3, max_rounds=2), 0).game


def counting(result, log=None):
    calls = []

    def compute():
        calls.append(1)
        if log is not None:
            log()
        return result
    return calls, compute


def test_outside_a_scope_every_answer_is_worked_out(game):
    calls, compute = counting(7)
    assert DM.recall(game, ("q",), compute) == 7 and DM.recall(game, ("q",), compute) == 7
    assert len(calls) == 2


def test_a_quiet_answer_is_kept_for_the_scope_and_dropped_after_it(game):
    calls, compute = counting((1, 2))
    with DM.scope(game):
        assert [DM.recall(game, ("q",), compute) for _ in range(3)] == [(1, 2)] * 3
        assert len(calls) == 1
        with DM.scope(game):  # an inner scope shares the outer one's answers
            DM.recall(game, ("q",), compute)
        assert len(calls) == 1
    DM.recall(game, ("q",), compute)
    assert len(calls) == 2


def test_an_answer_that_logs_is_worked_out_again_each_time(game):
    n = len(game.log.events)
    calls, compute = counting(None, lambda: game.emit("rule", "a line"))
    with DM.scope(game):
        for _ in range(3):
            DM.recall(game, ("q",), compute)
    assert len(calls) == 3 and len(game.log.events) == n + 3


def test_a_change_of_state_drops_what_was_kept(game):
    calls, compute = counting(1)
    with DM.scope(game):
        DM.recall(game, ("q",), compute)
        game.state.touch()
        DM.recall(game, ("q",), compute)
        DM.recall(game, ("q",), compute)
    assert len(calls) == 2


def test_nothing_is_kept_while_a_derived_value_is_worked_out(game):
    calls, compute = counting(1)
    with DM.scope(game):
        game.effects._frames.append(["x", set()])
        try:
            DM.recall(game, ("q",), compute)
            DM.recall(game, ("q",), compute)
        finally:
            game.effects._frames.pop()
    assert len(calls) == 2


def _logs(books, seed, rounds):
    out = []
    for i in range(2):
        g = play_game(DuelConfig(books, ("random", "random"), seed=seed, max_rounds=rounds), i).game
        out.append([(e.kind, e.text, e.depth, e.secret_for, e.public_text) for e in g.log.events])
    return out


@pytest.mark.parametrize("books", [("beastmaster", "wizard"), ("druid", "necromancer")])
def test_seeded_duels_log_the_same_events_without_the_memo(monkeypatch, books):
    kept = _logs(books, 21, 6)
    # no scope keeps anything, and no answer counts as quiet (casting then asks everything per candidate)
    monkeypatch.setattr(DM, "scope", lambda game: __import__("contextlib").nullcontext())
    monkeypatch.setattr(DM, "trace", lambda game: object())
    assert _logs(books, 21, 6) == kept
    assert sum(map(len, kept)) > 500


def test_ranged_targets_left_out_by_range_are_all_illegal(monkeypatch):
    """attack_options does not probe a ranged attack's targets beyond its range: illegal_reason refuses
    every one of them."""
    orig, checked = AV.attack_options, []

    def spy(game, creature, speeds):
        out = orig(game, creature, speeds)
        here = game.state.zone_of(creature)
        for adef, _src in game.d(creature).attacks:
            if adef.kind != "ranged" or not adef.range or adef.is_zone or here is None:
                continue
            action = AttackAction(creature, adef, creature, tuple(adef.traits), adef.kind)
            for t in game.state.in_play():
                if t is creature or t.zone is None or t.border is not None or game.life(t) is None:
                    continue
                if game.state.arena.distance(here, t.zone) > adef.range[1]:
                    assert game.attacks.illegal_reason(Attack(action, creature, creature, t)) is not None
                    assert not any(c.attack_name == adef.name and c.target_ids == (t.id,) for c in out)
                    checked.append(t.id)
        return out
    monkeypatch.setattr(AV, "attack_options", spy)
    for i in range(2):
        play_game(DuelConfig(("beastmaster", "wizard"), ("random", "random"), seed=4, max_rounds=8), i)
    assert len(checked) > 20
