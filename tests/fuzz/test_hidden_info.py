"""Random games with face-down enchantments: no opponent's view names a card that stayed hidden.

The big budget runs in scripts/fuzz.py (`--games`); CI plays a few dozen games.
"""
import json

from hypothesis import HealthCheck, given, settings, strategies as st

from magewars.engine import views

from .games import leaks, play


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_no_opponent_view_names_a_hidden_card(seed):
    game = play(seed)
    assert leaks(game) == []


def test_the_leak_check_sees_a_planted_leak():
    # find a game where a card stays hidden from someone, then log its name publicly
    for seed in range(200):
        game = play(seed)
        if leaks(game):
            continue
        for viewer in game.state.order:
            seen = ({o.name for o in game.state.objects.values() if not o.hidden or o.controller == viewer}
                    | set(game.corpus.codex))
            hidden = [o for o in views.hidden_from(game, viewer) if o.name not in seen]
            if hidden:
                game.emit("info", f"planted: {hidden[0].name}")
                assert (viewer, hidden[0].name, f"planted: {hidden[0].name}") in leaks(game)
                return
    raise AssertionError("no game kept a card hidden")


def test_every_record_states_who_may_see_it():
    game = play(7)
    for viewer in (None, *game.state.order):
        for rec in game.log.to_json(viewer):
            assert rec["visible_to"]["record"] == "all" or viewer is None or viewer in rec["visible_to"]["record"]
            assert rec["visible_to"]["text"] == "all" or isinstance(rec["visible_to"]["text"], list)
    json.dumps(views.document(game, game.state.order[0]), default=str)


def test_decisions_log_only_the_option_taken():
    for seed in range(60):
        game = play(seed)
        for e in game.log.of_kind("decision"):
            assert set(e.data) <= {"kind", "player", "choice"}, e.data


def test_a_passed_counter_window_is_not_announced_to_the_opponent(tmp_path):
    # the shipped countering scenario, with the counter passed instead of revealed
    from pathlib import Path
    from magewars.scenario import run_scenario
    root = Path(__file__).resolve().parents[1]
    src = (root / "scenarios" / "mind_shield_counter.yaml").read_text()
    text = "\n".join(ln for ln in src.splitlines() if "step: counter_reveal" not in ln) + "\n"
    p = tmp_path / "passed.yaml"
    p.write_text(text)
    game = run_scenario(str(p), (root / "engine" / "cards",)).game
    windows = [e for e in game.log.events if e.data.get("step") == "counter_reveal" and e.kind == "window"]
    assert windows, "the scenario no longer opens a counter window"
    holders = set(windows[0].audience)
    others = [p for p in game.state.order if p not in holders]
    assert holders and others
    for viewer in others:
        assert "counter window" not in views.render(game, viewer)
        assert all(r.get("data", {}).get("step") != "counter_reveal" for r in game.log.to_json(viewer))
    for viewer in holders:
        assert "counter window" in views.render(game, viewer)
