"""One set of command-line conventions: -V, --json everywhere (errors too), many scenarios,
card-name completion, no hand-made tables."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from magewars.cli import main

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "tests" / "scenarios"


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_short_version_flag():
    r = run("-V")
    assert r.exit_code == 0 and r.output.startswith("magewars, version ")


@pytest.mark.parametrize("args", [
    ["card", "--json", "zzzzzzqqq"],
    ["rules", "--json", "99.9"],
    ["lookup", "--json", "xyzzy plugh"],
    ["odds", "--json", "zzzzzzqqq", "zzzzqqq"],
])
def test_errors_are_json_with_json(args):
    r = run(*args)
    assert r.exit_code in (1, 2)
    data = json.loads(r.stdout)
    assert data.get("error") or data.get("kind") == "none"


@pytest.mark.parametrize("args", [["coverage", "--json"], ["rules", "--json", "5.2"],
                                  ["lint", "--json", str(ROOT / "codex")], ["lookup", "--json", "burn"],
                                  ["card", "--json", "Timber Wolf"]])
def test_read_commands_take_json(args):
    r = run(*args)
    assert r.exit_code == 0, r.output
    json.loads(r.stdout)


def test_export_needs_no_flag():
    r = run("export")
    assert r.exit_code == 0
    assert json.loads(r.stdout)["cards"]


def test_simulate_many_files_and_folders():
    files = sorted(SCENARIOS.glob("*.yaml"))[:2]
    cards = str(SCENARIOS.parent / "engine" / "cards")  # the shared test cards some scenarios load
    r = run("simulate", "scenario", *map(str, files), "--cards-root", cards)
    assert r.exit_code == 0, r.output
    assert "2 scenarios" in r.output and all(str(f) in r.output for f in files)
    r = run("simulate", "scenario", "--json", str(SCENARIOS), str(SCENARIOS / "missing.yaml"), "--cards-root", cards)
    data = json.loads(r.stdout)
    assert r.exit_code == 2  # the missing file is an error; the rest ran
    assert len(data["scenarios"]) == len(list(SCENARIOS.rglob("*.yaml"))) + 1  # folders are walked
    assert data["summary"]["error"] == 1


def test_card_names_complete_in_the_shell():
    from magewars.dsl import load_corpus
    name = sorted(load_corpus().cards)[0]
    r = CliRunner().invoke(main, [], prog_name="magewars", env={
        "COMP_WORDS": f"magewars card {name[:4]}", "COMP_CWORD": "2", "_MAGEWARS_COMPLETE": "bash_complete"})
    assert f"plain,{name}" in r.output


def test_no_hand_made_tables_left():
    """Tables are rich tables (magewars/console.py): no column padding by format widths."""
    import re
    pad = re.compile(r"\{[^}]*:[<>]\{?\w*\}?\}")
    offenders = [str(p) for p in (ROOT / "magewars").rglob("*.py") if pad.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_ci_runs_exactly_the_readme_set_up_commands():
    """The README gives two set-up commands; .ci/run must run those very lines (no drift)."""
    import re
    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    setup = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n(.*?)\n```", setup, re.S)
    assert len(commands) == 2, "the README's Set up section gives exactly two commands"
    ci = (root / ".ci" / "run").read_text(encoding="utf-8")
    ci_lines = {line.strip() for line in ci.splitlines()}
    assert commands[0].strip() in ci_lines
    # the test command is run with a log tee and without the pytest cache; its install part is the same
    assert commands[1].split("&&")[0].strip() in ci
