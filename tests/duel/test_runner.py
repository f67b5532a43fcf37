"""Duels are reproducible game by game, whatever the number of processes; the CLI writes its
files and fails without tracebacks; a replay re-plays the recorded game."""
import csv
import re
import json

import pytest
from click.testing import CliRunner

from magewars.cli import main
from magewars.duel.replay import ReplayError, replay_game
from magewars.duel.backend import run
from magewars.duel.runner import DuelConfig, document, dumps, first_side, game_seed, play_game, run_local

CFG = DuelConfig(("beastmaster", "wizard"), ("random", "random"), seed=11, max_rounds=6)


def invoke(*args):
    return CliRunner().invoke(main, list(map(str, args)))


def test_game_seeds_are_derived_and_sides_alternate():
    seeds = [game_seed(1, i) for i in range(1000)]
    assert len(set(seeds)) == 1000 and seeds == [game_seed(1, i) for i in range(1000)]
    assert game_seed(1, 0) != game_seed(2, 0)
    assert [first_side(i) for i in range(4)] == ["A", "B", "A", "B"]


def test_sides_alternate_the_first_initiative_in_real_games():
    for i in range(2):
        game = play_game(CFG, i).game
        first = next(e for e in game.log.events if e.kind == "initiative")
        assert first.data["player"] == first_side(i)


def test_a_game_is_the_same_alone_or_in_a_series():
    series = run_local(CFG, 3)
    assert play_game(CFG, 2).record == series[2]
    assert [r["index"] for r in series] == [0, 1, 2]


def test_same_seed_same_bytes_with_one_or_two_workers():
    one = dumps(document(CFG, run(CFG, 6, workers=1)))
    two = dumps(document(CFG, run(CFG, 6, workers=2)))
    assert one == two
    other = dumps(document(DuelConfig(CFG.books, CFG.agents, 12, CFG.max_rounds), run(CFG.__class__(
        CFG.books, CFG.agents, 12, CFG.max_rounds), 6)))
    assert other != one  # a different seed plays different games


def test_cli_duel_writes_json_csv_and_charts(tmp_path):
    out, table = tmp_path / "r.json", tmp_path / "r.csv"
    r = invoke("duel", "beastmaster", "wizard", "--games", 4, "--seed", 3, "--max-rounds", 5, "--agents",
               "greedy,random", "--json", out, "--csv", table, "--chart", tmp_path / "c.html", "-q")
    assert r.exit_code == 0, r.output
    assert "greedy" in r.output and "95% interval" in r.output and "first player" in r.output
    doc = json.loads(out.read_text())
    assert doc["config"]["agents"] == ["greedy", "random"] and len(doc["games"]) == 4
    assert doc["summary"]["games"] == 4
    assert doc["summary"]["sides"][0]["wins"] == sum(g["winner"] == "A" for g in doc["games"])
    rows = list(csv.DictReader(table.open()))
    assert [int(x["index"]) for x in rows] == [0, 1, 2, 3] and rows[1]["first"] == "B"
    page = (tmp_path / "c.html").read_text()
    assert page.startswith("<!doctype html>") and "<svg" in page and "<script" not in page
    assert not re.search(r"(src|href)=[\"'](https?:|//)", page)  # self-contained: nothing fetched
    r = invoke("duel", "beastmaster", "wizard", "--games", 2, "--max-rounds", 3, "--chart", tmp_path / "c.png",
               "-q")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = invoke("duel", "beastmaster", "wizard", "--games", 2, "--max-rounds", 1)
    assert r.exit_code == 0, r.output  # one round decides nothing: no rate of 0 of 0 games is printed
    assert "first player advantage: no game was decided" in r.output and "of 0 decided" not in r.output


def test_cli_duel_json_to_stdout_is_the_document():
    r = invoke("duel", "beastmaster", "wizard", "--games", 2, "--max-rounds", 3, "--json", "-")
    assert r.exit_code == 0
    assert json.loads(r.stdout)["format"] == "magewars-duel/1"


@pytest.mark.parametrize("args, message", [
    (["nosuchbook", "wizard"], "no spellbook"),
    (["beastmaster", "wizard", "--agents", "random,oracle"], "unknown agent 'oracle'"),
    (["beastmaster", "wizard", "--agents", "a,b,c"], "two agents"),
    (["beastmaster", "wizard", "--chart", "x.svg"], ".png or .html"),
    (["beastmaster", "wizard", "--games", "0"], "0"),
])
def test_cli_duel_bad_input_is_a_message(args, message):
    r = invoke("duel", *args)
    assert r.exit_code == 2
    assert message in r.output and "Traceback" not in r.output


def test_replay_plays_the_recorded_game(tmp_path):
    path = tmp_path / "r.json"
    cfg = DuelConfig(("beastmaster", "priestess"), ("random", "greedy"), seed=5, max_rounds=5)
    records = run(cfg, 3)
    path.write_text(dumps(document(cfg, records)))
    again = replay_game(path, 1)
    assert again.record == records[1]
    assert again.text.splitlines()[-1].startswith("result:")
    r = invoke("replay", path, "--game", 1)
    assert r.exit_code == 0 and again.text.strip() == r.output.strip()
    # a player's view: hidden things of the opponent are not named, and records only they see are kept
    mine = replay_game(path, 1, "A")
    theirs = replay_game(path, 1, "side b")
    full = replay_game(path, 1)
    assert mine.viewer == "A" and theirs.viewer == "B"
    assert mine.text != full.text and theirs.text != full.text
    r = invoke("replay", path, "--game", 1, "--as", "B", "--json")
    doc = json.loads(r.stdout)
    assert doc["viewer"] == "B" and doc["game"] == records[1] and doc["events"]


def test_replay_fails_loudly(tmp_path):
    path = tmp_path / "r.json"
    records = run(CFG, 2)
    doc = document(CFG, records)
    path.write_text(dumps(doc))
    with pytest.raises(ReplayError, match="no game 7"):
        replay_game(path, 7)
    with pytest.raises(ReplayError, match="no player 'zed'"):
        replay_game(path, 0, "zed")
    doc["games"][0]["rounds"] += 1  # the file no longer matches what the engine plays
    path.write_text(dumps(doc))
    with pytest.raises(ReplayError, match="re-played differently"):
        replay_game(path, 0)
    (tmp_path / "junk.json").write_text("{not json")
    r = invoke("replay", tmp_path / "junk.json", "--game", 0)
    assert r.exit_code == 2 and "not a duel results file" in r.output and "Traceback" not in r.output
    r = invoke("replay", tmp_path / "missing.json", "--game", 0, "--json")
    assert r.exit_code == 2 and json.loads(r.stdout)["error"]


def test_cli_duel_refuses_an_illegal_book_with_its_location(tmp_path):
    bad = tmp_path / "bad.book"
    bad.write_text("mage: Beastmaster\n\n500 Timber Wolf\n")
    r = invoke("duel", bad, "wizard", "--games", 1)
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert re.search(rf"{re.escape(str(bad))}:3:1: B\d+ ", r.output), r.output


def test_cluster_without_ray_is_a_message_not_a_traceback(monkeypatch):
    """Without the extra, --cluster says how to install it and exits 2 before playing anything."""
    import sys
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails as if it were not installed
    r = invoke("duel", "druid", "warlock", "--games", 1, "--cluster", "local", "-q")
    assert r.exit_code == 2, r.output
    assert 'pip install ".[cluster]"' in r.output and "Traceback" not in r.output
    r = invoke("duel", "druid", "warlock", "--games", 1, "--cluster", "local", "--json", "-")
    assert r.exit_code == 2 and 'pip install ".[cluster]"' in json.loads(r.stdout)["error"]


def test_start_game_gives_the_first_initiative_without_a_roll(corpus):
    from magewars.duel.runner import book
    from magewars.engine.decisions import RandomAgent
    from magewars.engine.game import EngineError
    from magewars.engine.match import start_game
    books = [book("beastmaster"), book("wizard")]
    for first in ("P1", "P2"):
        g = start_game(corpus, books, seed=3, agents=RandomAgent(3), first=first)
        g.play(max_rounds=2)
        kinds = [e.kind for e in g.log.events]
        assert [e.data["player"] for e in g.log.events if e.kind == "initiative"] == [first, "P2" if first == "P1"
                                                                                        else "P1"]
        assert not any(e.kind == "decision" and e.data.get("kind") == "initiative" for e in g.log.events)
        assert "roll" not in kinds[:kinds.index("initiative")]
    with pytest.raises(EngineError, match="first='P3' is not a player"):
        start_game(corpus, books, seed=3, first="P3")


def test_the_engine_refuses_a_decision_kind_it_does_not_list(corpus):
    from magewars.duel.runner import book
    from magewars.engine.decisions import Option, decision_kinds
    from magewars.engine.game import EngineError
    from magewars.engine.match import start_game
    assert decision_kinds()[:4] == ["initiative", "plan", "activate", "action"]
    g = start_game(corpus, [book("beastmaster"), book("wizard")], seed=3)
    with pytest.raises(EngineError, match="unknown decision kind 'bribe'"):
        g.decide("bribe", "P1", [Option("yes", True)])
