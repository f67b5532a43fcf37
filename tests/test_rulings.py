"""The rulings index (`magewars rulings`, docs/rulings.md): every ruling of the supplement's list,
the scenario or test citing it, its status.  Tests that read the list need ../shared."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from magewars.cli import main
from magewars.rulings import (RULING_ID, RulingsError, collect, default_dirs, load_rulings, render_markdown,
                              scenario_evidence)

DOC = Path(__file__).resolve().parents[1] / "docs" / "rulings.md"


def test_docs_rulings_is_fresh(shared_dir):
    scen, tests = default_dirs()
    rows, _ = collect(shared_dir, scen, tests, run=False, with_gist=False)
    assert DOC.read_text(encoding="utf-8") == render_markdown(rows), \
        "docs/rulings.md is stale: run `python -m magewars.rulings --write docs/rulings.md`"


def test_the_docs_carry_no_gist_of_the_reference(shared_dir):
    text = DOC.read_text(encoding="utf-8")
    copied = [r.id for r in load_rulings(shared_dir) if len(r.gist) > 30 and r.gist in text]
    assert not copied


def test_every_cited_id_is_in_the_list(shared_dir):
    scen, tests = default_dirs()
    _, unknown = collect(shared_dir, scen, tests, run=False)
    assert not unknown, [f"{e.where}: {e.ruling}" for e in unknown]


def test_cli_runs_the_scenarios_of_a_ruling(shared_dir):
    res = CliRunner().invoke(main, ["rulings", "R.move.traps-step6", "--json", "--shared", str(shared_dir)])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["scenarios_run"] is True
    [row] = doc["rulings"]
    assert row["status"] == "pass"
    assert any(e["kind"] == "scenario" and e["status"] == "pass" for e in row["evidence"])


def test_a_failing_scenario_fails_its_ruling(tmp_path):
    (tmp_path / "s.yaml").write_text(
        "cite: \"C.daze.example; Codex > Daze\"\n"
        "players: [{name: Alice}, {name: Bob}]\n"
        "objects:\n  - {id: wolf, card: Timber Wolf, controller: Alice, zone: B2}\n"
        "actions: []\n"
        "expect:\n  objects:\n    wolf: {damage: 3}\n")
    (tmp_path / "x.yaml").write_text(
        "cite: \"S.decoy\"\nxfail: the engine lacks it\n"
        "players: [{name: Alice}, {name: Bob}]\n"
        "objects:\n  - {id: wolf, card: Timber Wolf, controller: Alice, zone: B2}\n"
        "actions: []\n"
        "expect:\n  objects:\n    wolf: {damage: 3}\n")
    ev = {e.ruling: e for e in scenario_evidence(tmp_path, run=True)}
    assert ev["C.daze.example"].status == "fail" and "expected 3, got 0" in ev["C.daze.example"].reason
    assert ev["S.decoy"].status == "xfail" and ev["S.decoy"].reason == "the engine lacks it"
    ev = {e.ruling: e for e in scenario_evidence(tmp_path, run=False)}
    assert ev["S.decoy"].status == "xfail" and ev["C.daze.example"].status == "pass"


def test_a_malformed_list_is_located(tmp_path):
    (tmp_path / "reference").mkdir()
    (tmp_path / "reference" / "supplement-rulings.tsv").write_text(
        "id\tsection\tgist\tcategory\tkind\nR.a.b\tRules>X\tg\tc\truling\nnot an id\tx\n")
    with pytest.raises(RulingsError, match=r"supplement-rulings.tsv:3:1: R002"):
        load_rulings(tmp_path)
    res = CliRunner().invoke(main, ["rulings", "--shared", str(tmp_path), "--no-run"])
    assert res.exit_code == 1 and "R002" in res.output and "Traceback" not in res.output


def test_ids_are_read_from_citations_not_from_code():
    assert RULING_ID.findall("R.move.traps-step6 — Rules > Move; S.decoy.") == ["R.move.traps-step6", "S.decoy"]
    assert RULING_ID.findall("R.trigger_status(x); A.Call") == []
