"""The statistics of a duel: Wilson intervals against published values, summaries of records."""
import math

import pytest

from magewars.duel.stats import running_win_rate, summarize, wilson


def test_wilson_matches_textbook_values():
    # Wilson 95% for 8 of 10: (0.4902, 0.9433) (Newcombe 1998, and any statistics package)
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=5e-4) and hi == pytest.approx(0.9433, abs=5e-4)
    lo, hi = wilson(0, 20)  # the interval of zero successes is not degenerate
    assert lo == 0.0 and hi == pytest.approx(0.1611, abs=5e-4)
    lo, hi = wilson(160, 200)
    assert lo == pytest.approx(0.7391, abs=5e-4) and hi == pytest.approx(0.8498, abs=5e-4)


def test_wilson_bounds_and_bad_input():
    assert wilson(0, 0) == (0.0, 1.0)
    for k in range(0, 31):
        lo, hi = wilson(k, 30)
        assert 0 <= lo <= k / 30 <= hi <= 1
    with pytest.raises(ValueError):
        wilson(11, 10)


def rec(i, winner, first, rounds=5, reason="mage destroyed"):
    return {"index": i, "winner": winner, "first": first, "rounds": rounds, "reason": reason}


def test_summary_counts_wins_draws_and_first_player():
    records = [rec(0, "A", "A", 4), rec(1, "A", "B", 6), rec(2, None, "A", 40, "round cap"), rec(3, "B", "B", 10)]
    s = summarize(records, ("x", "y"), ("greedy", "random"))
    assert s.games == 4 and s.draws == 1 and s.decided == 3
    assert [x.wins for x in s.sides] == [2, 1]
    assert s.first_player_wins == 2 and s.first_player_rate == pytest.approx(2 / 3)
    assert s.mean_rounds == pytest.approx(15.0)
    assert s.reasons == {"mage destroyed": 3, "round cap": 1}
    assert s.sides[0].low == pytest.approx(wilson(2, 4)[0])
    with pytest.raises(ValueError):
        summarize([rec(0, "C", "A")], ("x", "y"), ("a", "b"))


def test_running_win_rate_is_in_game_order():
    pts = running_win_rate([rec(1, "B", "B"), rec(0, "A", "A"), rec(2, "A", "A")])
    assert [p[0] for p in pts] == [1, 2, 3]
    assert [p[1] for p in pts] == [1.0, 0.5, pytest.approx(2 / 3)]
    assert all(p[2] <= p[1] <= p[3] for p in pts)
