"""The command line: exit codes, formats, and no traceback on any input."""
import json

import pytest
from click.testing import CliRunner

from magewars.cli import main

BROKEN = '''creature "Broken" {
  armor 1 life 2
  traits Flyng, Melee 2
  lfie 3
  attack "Bite" { quick melee dice 2 d12 4-6 Burn; 5+ Daze }
}
creature "Broken" { armor 1 life 2 }
'''


@pytest.fixture
def runner():
    return CliRunner()


def test_lint_shipped_corpus_is_clean(runner):
    r = runner.invoke(main, ["lint"])
    assert r.exit_code == 0, r.output
    assert r.stdout.strip() == ""  # the summary line goes to stderr
    assert "0 error(s)" in r.stderr


def test_lint_broken_file_reports_every_error(runner, tmp_path):
    f = tmp_path / "broken.mw"
    f.write_text(BROKEN)
    r = runner.invoke(main, ["lint", str(f)])
    assert r.exit_code == 1
    out = r.output
    for needle in (f"{f}:3:10: E101", f"{f}:3:23: E201", f"{f}:4:3: E001", f"{f}:5:52: E301", f"{f}:7:10: E501"):
        assert needle in out, out
    assert "Traceback" not in out
    assert "^" in out and "hint:" in out


def test_lint_json_and_sarif(runner, tmp_path):
    f = tmp_path / "broken.mw"
    f.write_text(BROKEN)
    r = runner.invoke(main, ["lint", "--format", "json", str(f)])
    assert r.exit_code == 1
    data = json.loads(r.output)
    codes = {d["code"] for d in data["diagnostics"]}
    assert {"E101", "E201", "E001", "E301", "E501"} <= codes
    r = runner.invoke(main, ["lint", "--format", "sarif", str(f)])
    sarif = json.loads(r.output)
    assert sarif["version"] == "2.1.0"
    results = sarif["runs"][0]["results"]
    assert any(x["ruleId"] == "E101" and x["locations"][0]["physicalLocation"]["region"]["startLine"] == 3
               for x in results)


def test_lint_usage_and_io_errors_exit_2(runner, tmp_path):
    r = runner.invoke(main, ["lint", str(tmp_path / "nope.mw")])
    assert r.exit_code == 2
    assert "E004" in r.output
    r = runner.invoke(main, ["lint", "--format", "yaml"])
    assert r.exit_code == 2


@pytest.mark.parametrize("content", [b"\xff\xfe\x00bad", b"", b"}}}}", b'creature "x" {' * 50])
def test_lint_never_tracebacks(runner, tmp_path, content):
    f = tmp_path / "odd.mw"
    f.write_bytes(content)
    r = runner.invoke(main, ["lint", str(f)])
    assert r.exit_code in (0, 1, 2)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output


def test_card_renders_generated_text(runner):
    r = runner.invoke(main, ["card", "Bear Strength"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("Bear Strength\n")
    assert "Cost: 2, reveal 3" in r.output
    r = runner.invoke(main, ["card", "bear strenght"])  # fuzzy
    assert r.exit_code == 0 and "Bear Strength" in r.output
    r = runner.invoke(main, ["card", "qqqzzz"])
    assert r.exit_code == 1
    r = runner.invoke(main, ["card", "  "])  # a blank name is no card, not a list of every card
    assert r.exit_code == 1 and "no card matches" in r.output and "several" not in r.output


def test_coverage_and_export(runner):
    r = runner.invoke(main, ["coverage", "--json"])
    assert r.exit_code == 0
    rep = json.loads(r.output)
    assert rep["total"]["cards"] == 629
    assert {"by_set", "by_type", "unsupported_reasons"} <= set(rep)
    r = runner.invoke(main, ["export", "--json"])
    data = json.loads(r.output)
    assert data["schema"] == 1 and len(data["cards"]) == 629
    fireball = next(c for c in data["cards"] if c["name"] == "Fireball")
    assert fireball["attacks"][0]["dice"] == 6 and fireball["attacks"][0]["damage_type"] == "Flame"


@pytest.mark.parametrize("args, error, usage", [
    (["odds", "Timber Wolf", "Iron Golem", "--json", "--max-attacks", "0"],
     "Invalid value for '--max-attacks': must be at least 1 (got 0)", "Usage: magewars odds [OPTIONS] ATTACKER DEFENDER"),
    (["card", "--json", "--bogus", "x"], "No such option '--bogus'.", "Usage: magewars card [OPTIONS] NAME..."),
    (["book", "show", "--json"], "Missing argument 'FILE'.", "Usage: magewars book show [OPTIONS] FILE"),
    (["duel", "beastmaster", "--json", "-"], "Missing argument 'BOOK_B'.", "Usage: magewars duel [OPTIONS] BOOK_A BOOK_B"),
])
def test_a_usage_error_with_json_is_json(runner, args, error, usage):
    """With --json (or duel's `--json -`), a usage error is reported as the command's other errors are:
    one JSON document on stdout, exit 2."""
    r = runner.invoke(main, args, prog_name="magewars")
    assert r.exit_code == 2, r.output
    assert json.loads(r.stdout) == {"error": error, "exit": 2, "usage": usage}
    assert r.stderr == ""


@pytest.mark.parametrize("args", [
    ["odds", "Timber Wolf", "Iron Golem", "--max-attacks", "0"],  # no --json
    ["duel", "beastmaster", "wizard", "--json", "out.json", "-n", "0"],  # the JSON goes to a file
    ["odds", "--max-attacks", "0", "--", "--json", "Iron Golem"],  # after --: an argument, not the option
])
def test_a_usage_error_without_json_is_clicks_text(runner, args):
    r = runner.invoke(main, args, prog_name="magewars")
    assert r.exit_code == 2, r.output
    assert r.stdout == "" and "Error:" in r.stderr and "Usage: magewars" in r.stderr
