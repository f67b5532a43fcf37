"""Hostile input: every problem located and bounded, no file read outside its folder.

(Speed is measured in benchmarks/bench_hardening.py, never here.)
"""
import io
import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from magewars import limits
from magewars.cli import main
from magewars.dsl import compile_paths, expand_paths
from magewars.dsl.parser import parse_text
from magewars.scenario import run_cli

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "tests" / "engine" / "cards"
OK_SCENARIO = """\
players: [{name: Alice}, {name: Bob}]
objects:
  - {id: wolf, card: Timber Wolf, controller: Alice, zone: B2}
actions: []
"""
LOC = re.compile(r"^(?P<path>\S+):(?P<line>\d+):(?P<col>\d+): (?P<code>[A-Z]\d{3}) ", re.M)


def run(path: Path, *roots, json_out=False, viewer=None) -> tuple[int, str]:
    out = io.StringIO()
    rc = run_cli(str(path), json_out, out=out, cards_roots=tuple(roots), viewer=viewer)
    return rc, out.getvalue()


def write(tmp_path, text, name="s.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def codes(out: str) -> list[tuple[str, int, int]]:
    return [(m["code"], int(m["line"]), int(m["col"])) for m in LOC.finditer(out)]


# ---------------------------------------------------------------- sandbox
@pytest.mark.parametrize("entry", ["/etc/passwd", "../outside/secret.mw", "/", "link/secret.mw", "linkdir"])
def test_card_paths_outside_the_scenario_folder_are_refused(tmp_path, entry):
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.mw"
    secret.write_text("THE-SECRET-CONTENT\n")
    scen = tmp_path / "scen"
    scen.mkdir()
    (scen / "link").symlink_to(outside)
    (scen / "linkdir").symlink_to(outside)
    p = write(scen, f"cards: [{json.dumps(entry)}]\n" + OK_SCENARIO)
    rc, out = run(p)
    assert rc == 2
    assert codes(out) == [("S009", 1, 9)], out
    assert "SECRET" not in out and "root:" not in out


def test_a_folder_given_on_the_command_line_is_allowed(tmp_path):
    scen = tmp_path / "scen"
    scen.mkdir()
    p = write(scen, f"cards: [{json.dumps(str(CARDS / 'homebrew.mw'))}]\n" + OK_SCENARIO)
    assert run(p)[0] == 2
    rc, out = run(p, CARDS)
    assert rc == 0, out


def test_a_non_card_file_inside_the_folder_is_not_read(tmp_path):
    (tmp_path / "notes.txt").write_text("PRIVATE-NOTES\n")
    p = write(tmp_path, "cards: [notes.txt]\n" + OK_SCENARIO)
    rc, out = run(p)
    assert rc == 2 and codes(out) == [("S009", 1, 9)] and "PRIVATE" not in out


def test_card_errors_in_an_allowed_file_are_located(tmp_path):
    (tmp_path / "mine.mw").write_text('creature "Zz" {\n  life 12345678901234567890\n}\n')
    p = write(tmp_path, "cards: [mine.mw]\n" + OK_SCENARIO)
    rc, out = run(p)
    assert rc == 2
    assert ("E202", 2, 8) in codes(out), out


def test_simulate_cli_has_cards_root_and_as(tmp_path):
    p = write(tmp_path, OK_SCENARIO)
    r = CliRunner().invoke(main, ["simulate", "scenario", str(p), "--as", "bob", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["viewer"] == "Bob" and all("visible_to" in e for e in doc["events"])
    r = CliRunner().invoke(main, ["simulate", "scenario", str(p), "--as", "Carol"])
    assert r.exit_code == 2 and "no player 'Carol'" in r.output


# ---------------------------------------------------------------- schema
BAD = """\
arena: {rows: x, cols: 99}
players:
  - {name: Alice, mana: ten}
  - {name: Bob, mana: -3, chanelling: 2}
objects:
  - {id: wolf, card: Timber Wolf, controller: Alice, zone: B2, damage: -50}
  - {id: fox, card: Bitterwood Fox, controller: Bob, zone: B2, damage: [1, 2]}
dice: {d12: [13]}
actions:
  - attack: {attacker: wolf, attack: 5, target: fox}
  - remove: {object: fox, condition: Corrode, count: -2}
  - explode: wolf
expect:
  attacks: 5
  log_contains: true
"""


def test_schema_reports_every_problem_at_once(tmp_path):
    rc, out = run(write(tmp_path, BAD))
    assert rc == 2
    assert codes(out) == [("S002", 1, 15), ("S007", 1, 24), ("S002", 3, 25), ("S007", 4, 23), ("S003", 4, 27),
                          ("S007", 6, 72), ("S002", 7, 72), ("S008", 8, 14), ("S002", 10, 38), ("S007", 11, 54),
                          ("S003", 12, 5), ("S002", 14, 12), ("S002", 15, 17)], out
    assert "did you mean 'channeling'" in out


def test_every_shipped_scenario_passes_the_schema():
    from magewars.scenario.loader import load_yaml
    from magewars.scenario.schema import validate
    for p in sorted((ROOT / "tests" / "scenarios").rglob("*.yaml")):
        assert validate(load_yaml(p.read_text(), str(p)), str(p)) == [], p


def test_too_many_problems_end_in_a_summary(tmp_path):
    objs = "".join(f"  - {{id: o{i}, card: Timber Wolf, zone: B2, damage: -1}}\n" for i in range(80))
    rc, out = run(write(tmp_path, "objects:\n" + objs + "actions: []\n"))
    found = codes(out)
    assert rc == 2 and len(found) == limits.MAX_DIAGNOSTICS + 1
    assert "30 more problem(s)" in out


# ---------------------------------------------------------------- YAML bounds
def test_alias_bomb_is_stopped(tmp_path):
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for prev, cur in zip("abcdefg", "bcdefgh"):
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    rc, out = run(write(tmp_path, "\n".join(lines) + "\n"))
    assert rc == 2 and codes(out)[0][0] == "S001" and "expands to more than" in out


def test_deep_nesting_is_stopped(tmp_path):
    rc, out = run(write(tmp_path, "a: " + "[" * 1000 + "]" * 1000 + "\n"))
    assert rc == 2 and codes(out) == [("S001", 1, 36)] and "nesting too deep" in out


def test_unsafe_tags_never_run(tmp_path):
    p = write(tmp_path, OK_SCENARIO + "name: !!python/object/apply:os.system ['touch PWNED']\n")
    run(p)
    assert not (tmp_path / "PWNED").exists() and not Path("PWNED").exists()


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero on this system")
def test_devices_are_refused_before_reading():
    rc, out = run(Path("/dev/zero"))
    assert rc == 2 and codes(out) == [("S000", 1, 1)] and "not a regular file" in out
    r = CliRunner().invoke(main, ["lint", "/dev/zero"])
    assert "not a regular file" in r.output and r.exit_code != 0


def test_oversized_files_are_refused(tmp_path):
    p = write(tmp_path, "# " + "x" * limits.MAX_SCENARIO_BYTES + "\n")
    rc, out = run(p)
    assert rc == 2 and "file too large" in out
    big = tmp_path / "big.mw"
    big.write_text("# " + "x" * limits.MAX_SOURCE_BYTES + "\n")
    _, diags = compile_paths([big], with_codex=False)
    assert any(d.code == "E004" and "too large" in d.message for d in diags)


def test_a_file_that_grows_after_its_size_is_read_is_read_whole_and_still_bounded(tmp_path, monkeypatch):
    # read_bounded reads as many bytes as the file's size said and one more: a file written to in
    # between is read on to its end, and one that grew past the limit is refused all the same
    small, big = tmp_path / "small.mw", tmp_path / "big.mw"
    small.write_text("# a card file\n" * 3)
    big.write_text("#" * (limits.MAX_SOURCE_BYTES + 10))
    real_stat = os.stat

    class Stale:  # the file's size as it was before the last write
        def __init__(self, st):
            self.st_mode, self.st_size = st.st_mode, 4

    monkeypatch.setattr(limits.os, "stat", lambda p: Stale(real_stat(p)))
    assert limits.read_bounded(small, limits.MAX_SOURCE_BYTES) == "# a card file\n" * 3
    with pytest.raises(limits.LimitError, match="more than"):
        limits.read_bounded(big, limits.MAX_SOURCE_BYTES)


# ---------------------------------------------------------------- card language bounds
def test_a_huge_number_is_a_located_error():
    _, diags = parse_text('creature "X" {\n  life 1' + "9" * 5000 + "\n}\n", "x.mw")
    assert [(d.code, d.span.line, d.span.col) for d in diags] == [("E202", 2, 8)]


def test_deep_brackets_are_refused_where_they_start():
    _, diags = parse_text("x\n" + "[" * 2000, "x.mw")
    assert any(d.code == "E001" and "nesting too deep" in d.message and d.span.line == 2 for d in diags)


def test_syntax_errors_are_capped_with_a_summary():
    text = "".join(f'trait "T{i}" {{ @ }}\n' for i in range(200))
    _, diags = parse_text(text, "x.mw")
    assert len(diags) == limits.MAX_SYNTAX_ERRORS + 1
    assert "more syntax error(s)" in diags[-1].message


def test_a_junk_run_gives_up_after_a_bounded_number_of_tokens():
    """50,000 junk tokens: a bounded number of repairs (parser.MAX_REPAIRS per definition), so a
    few located reports, not one per token (the time is measured in benchmarks/bench_hardening.py)."""
    _, diags = parse_text("] " * 50_000, "x.mw")
    assert 1 <= len(diags) <= 3 and all(d.span.line == 1 and d.span.col >= 1 for d in diags)


# ---------------------------------------------------------------- folder walk
def test_symlink_loops_are_walked_once(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "t.mw").write_text('trait "Tt" { }\n')
    (tmp_path / "a" / "self").symlink_to(tmp_path / "a")
    (tmp_path / "l1").symlink_to(tmp_path / "l2")
    (tmp_path / "l2").symlink_to(tmp_path / "l1")
    files, diags = expand_paths([tmp_path])
    assert files == [tmp_path / "a" / "t.mw"]
    assert any("symlink loop" in d.message for d in diags)
    r = CliRunner().invoke(main, ["lint", str(tmp_path)])
    assert "Traceback" not in r.output and r.exception is None or isinstance(r.exception, SystemExit)


def test_long_and_odd_paths_are_located(tmp_path):
    rc, out = run(tmp_path / ("x" * 5000 + ".yaml"))
    assert rc == 2 and codes(out)[0][0] == "S000" and len(out) < 1000
    _, diags = expand_paths(["a\x00b"])
    assert diags and diags[0].code == "E004"


def test_lint_never_reads_a_file_that_is_not_a_card_source(tmp_path):
    secret = tmp_path / "passwd"
    secret.write_text("root:x:0:0:SECRET-LINE\n")
    r = CliRunner().invoke(main, ["lint", str(secret)])
    assert "SECRET" not in r.output and "not a .mw card file" in r.output


def test_a_very_long_operator_chain_is_a_located_error():
    # found by scripts/fuzz.py: a chain of hundreds of `-` built a tree too deep to transform
    text = (ROOT / "tests" / "fuzz" / "crash_operator_chain.mw").read_text()
    _, diags = parse_text(text, "x.mw")
    assert diags and all(d.span.line >= 1 for d in diags)


# ---------------------------------------------------------------- every file a command reads is bounded
# Each command that reads a file the user names (or a file inside a folder the user names) refuses a device
# or a named pipe before reading it: /dev/zero would fill memory, and opening a pipe waits for a writer that
# never comes.  Each case runs in its own process with a time limit, so a regression fails instead of hanging.
def _bounded(argv: list, timeout: float = 120) -> tuple[int, str]:
    """Run argv (a python command line) in a process of at most 4 GB of address space and `timeout` seconds:
    reading /dev/zero unbounded ends in a MemoryError there, not in this test process."""
    import subprocess
    import sys

    def cap():
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    done = subprocess.run([sys.executable, *map(str, argv)], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, stdin=subprocess.DEVNULL, preexec_fn=cap)
    return done.returncode, done.stdout + done.stderr


def _command(args: list) -> tuple[int, str]:
    return _bounded(["-m", "magewars", *args])


def _not_regular(tmp_path, kind: str, name: str) -> Path:
    """A file named `name` that is not a regular file: a link to /dev/zero, or a named pipe."""
    p = tmp_path / kind / name
    p.parent.mkdir(parents=True, exist_ok=True)
    if kind == "device":
        p.symlink_to("/dev/zero")
    else:
        os.mkfifo(p)
    return p


KINDS = [pytest.param("device", marks=pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")),
         pytest.param("pipe", marks=pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes"))]


@pytest.mark.parametrize("kind", KINDS)
def test_replay_refuses_a_results_file_that_is_not_a_file(tmp_path, kind):
    p = _not_regular(tmp_path, kind, "results.json")
    rc, out = _command(["replay", p, "--game", "0"])
    assert (rc, out.strip()) == (2, f"magewars: {p}: cannot read: not a regular file (device, pipe or socket): "
                                    f"refused")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", [["duel", "{p}", "wizard", "--games", "1"], ["play", "wizard", "{p}"],
                                     ["book", "check", "{p}"]])
def test_a_spellbook_that_is_not_a_file_is_refused(tmp_path, kind, command):
    p = _not_regular(tmp_path, kind, "book.o8d")
    rc, out = _command([a.format(p=p) for a in command])
    assert rc == 2 and out.rstrip().endswith(f"no spellbook file or shipped spellbook named '{p}'; that is not a "
                                             f"regular file (a device, pipe or socket): refused"), out


@pytest.mark.parametrize("kind", KINDS)
def test_book_refuses_an_id_table_that_is_not_a_file(tmp_path, kind):
    p = _not_regular(tmp_path, kind, "ids.json")
    rc, out = _command(["book", "check", "beastmaster", "--ids", p])
    assert rc == 2 and f"{p}: cannot read the OCTGN id table: not a regular file" in out


@pytest.mark.parametrize("kind", KINDS)
def test_card_compare_refuses_published_data_that_is_not_a_file(tmp_path, kind):
    p = _not_regular(tmp_path, kind, "cards/cards.json")
    rc, out = _command(["card", "bear strength", "--compare", "--shared", p.parents[1]])
    assert rc == 2 and f"{p}:1:1: E004 the published card data cannot be read: not a regular file" in out


@pytest.mark.parametrize("kind", KINDS)
def test_rulings_list_that_is_not_a_file_is_refused(tmp_path, kind):
    p = _not_regular(tmp_path, kind, "reference/supplement-rulings.tsv")
    rc, out = _bounded(["-c", "from pathlib import Path; from magewars.rulings import load_rulings; "
                              f"load_rulings(Path({str(p.parents[1])!r}))"])
    assert rc == 1 and f"RulingsError: {p}:1:1: R001 cannot read the rulings list: not a regular file" in out


@pytest.mark.parametrize("kind", KINDS)
def test_scenario_folders_never_open_what_is_not_a_file(tmp_path, kind):
    """`magewars rulings --scenarios` and `magewars site build --scenarios` walk a folder of the user's: a
    device or pipe named *.yaml is never opened.  The rulings index refuses the folder (it would be missing
    what that file holds), the site leaves the file out with a warning."""
    p = _not_regular(tmp_path, kind, "s.yaml")
    (p.parent / "ok.yaml").write_text('name: ok\ncite: "R.move.traps-step6"\nobjects: [{card: "Bear Strength"}]\n')
    code = ("from pathlib import Path; from magewars.rulings import RulingsError, scenario_evidence;"
            "from magewars.site.collect import load_scenarios; w = [];"
            f"f = Path({str(p.parent)!r}); s = load_scenarios(f, w);"
            "print([(x.file, x.cards) for x in s]); print([d.format() for d in w])\n"
            "try:\n    scenario_evidence(f, run=False)\nexcept RulingsError as e:\n    print(e)")
    rc, out = _bounded(["-c", code])
    assert rc == 0, out[-2000:]
    assert out.splitlines() == [
        "[('ok.yaml', ['Bear Strength'])]",
        str([f"{p}:1:1: W901 scenario not read: not a regular file (device, pipe or socket): refused"]),
        f"{p.parent}:1:1: R004 the scenario folder cannot be indexed whole: {p}: not a regular file (a device, "
        f"pipe, socket or broken link): not read"]


def test_a_scenario_folder_reached_again_through_a_link_is_indexed_whole(tmp_path):
    """A link back to a folder above it (a loop) loses no scenario: the rulings index takes each file once,
    as lint and the scenario runner do; a broken link named *.yaml still refuses the folder."""
    from magewars.rulings import RulingsError, scenario_evidence
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "ok.yaml").write_text('name: ok\ncite: "R.move.traps-step6"\nobjects: []\n')
    (tmp_path / "sub" / "up").symlink_to(tmp_path, target_is_directory=True)
    found = scenario_evidence(tmp_path, run=False)
    assert [(e.ruling, e.where, e.status) for e in found] == [("R.move.traps-step6", "sub/ok.yaml", "pass")]
    (tmp_path / "gone.yaml").symlink_to(tmp_path / "nothing-here.yaml")
    with pytest.raises(RulingsError, match=r"R004 the scenario folder cannot be indexed whole: .*gone.yaml"):
        scenario_evidence(tmp_path, run=False)


def test_a_scenario_of_nested_aliases_is_read_in_bounded_time(tmp_path):
    """The web codex lists the cards a scenario uses: a "billion laughs" file (each list ten aliases of the
    one before, nine levels deep: 2 x 10^9 card entries when expanded) is walked once per distinct node."""
    lines = ["name: bomb", 'a0: &a0 [{card: "Bear Strength"}, {card: "Rhino Hide"}]']
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]")
    lines.append(f"objects: [{', '.join(['*a9'] * 10)}]")
    (tmp_path / "bomb.yaml").write_text("\n".join(lines) + "\n")
    code = ("from pathlib import Path; from magewars.site.collect import load_scenarios; w = [];"
            f"print([(s.file, s.cards) for s in load_scenarios(Path({str(tmp_path)!r}), w)], w)")
    rc, out = _bounded(["-c", code])
    assert (rc, out.strip()) == (0, "[('bomb.yaml', ['Bear Strength', 'Rhino Hide'])] []")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_scenario_folder_reports_what_it_cannot_read(tmp_path):
    """`simulate scenario FOLDER` never opens a pipe or device named like a scenario, and does not skip it
    silently either: it and a broken link are located errors in the summary, beside the scenario that ran."""
    good = ROOT / "tests" / "scenarios" / "rulings" / "force_hold_stops_push.yaml"
    (tmp_path / good.name).write_text(good.read_text())
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "broken.yaml").symlink_to(tmp_path / "nowhere")
    rc, out = _command(["simulate", "scenario", tmp_path])
    assert rc == 2
    assert f"{tmp_path / 'pipe.yaml'}:1:1: S000 cannot read the file: not a regular file (device, pipe or socket): " \
           f"refused" in out
    assert f"{tmp_path / 'broken.yaml'}:1:1: S000 cannot read the file: No such file or directory" in out
    rows = [ln.split() for ln in out.splitlines() if ln.startswith(str(tmp_path)) and ln.split()[-1] in
            ("ok", "error", "failed")]
    assert rows == [[str(tmp_path / "broken.yaml"), "error"], [str(tmp_path / good.name), "ok"],
                    [str(tmp_path / "pipe.yaml"), "error"]], out


@pytest.mark.parametrize("kind", KINDS)
def test_lint_of_a_folder_warns_of_what_it_does_not_read(tmp_path, kind):
    """A card folder holding a pipe or device named *.mw: lint never opens it, and says so (a warning at the
    folder) instead of leaving it out silently; the real card file beside it is read."""
    p = _not_regular(tmp_path, kind, "odd.mw")
    (p.parent / "card.mw").write_text('trait "Tt" { }\n')
    files, diags = expand_paths([p.parent])
    assert files == [p.parent / "card.mw"]
    assert [(d.code, d.severity, d.span.path, d.message) for d in diags] == [
        ("E004", "warning", str(p.parent),
         f"{p}: not a regular file (a device, pipe, socket or broken link): not read")]


@pytest.mark.parametrize("bad", ["pipe", "broken link"])
def test_a_cards_folder_that_cannot_be_read_whole_is_refused(tmp_path, bad):
    """A `cards:` folder with a source it cannot read is refused (S009), never run without that file;
    a folder reached twice through a link loses nothing and is kept."""
    cards = tmp_path / "cards"
    (cards / "sub").mkdir(parents=True)
    (cards / "good.mw").write_text((CARDS / "homebrew.mw").read_text())
    if bad == "pipe":
        os.mkfifo(cards / "sub" / "waits.mw")
    else:
        (cards / "sub" / "gone.mw").symlink_to(tmp_path / "nowhere.mw")
    p = write(tmp_path, "cards: [cards]\n" + OK_SCENARIO)
    rc, out = run(p)
    assert rc == 2 and codes(out) == [("S009", 1, 9)], out
    assert "cannot be read whole: sub" in out, out


def test_a_cards_folder_reached_twice_through_a_link_is_kept(tmp_path):
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "good.mw").write_text((CARDS / "homebrew.mw").read_text())
    (cards / "again").symlink_to(cards)  # a loop: the folder's files are taken once
    p = write(tmp_path, "cards: [cards]\n" + OK_SCENARIO)
    rc, out = run(p)
    assert rc == 0, out
