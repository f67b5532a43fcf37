"""A malformed scenario gets `path:line:col: CODE message` and exit 2, never a traceback;
a failed expectation exits 1 and says what differed."""
import io
import re
from pathlib import Path

import pytest

from magewars.scenario import run_cli

CARDS = Path(__file__).resolve().parent / "cards"

GOOD = """\
name: t
players: [{name: Alice}, {name: Bob}]
objects:
  - {id: wolf, card: Timber Wolf, controller: Alice, zone: B2}
  - {id: fox, card: Bitterwood Fox, controller: Bob, zone: B2}
dice:
  attack: [[2, 2, 2, 2]]
choices:
  - {counterstrike: no counterstrike}
actions:
  - attack: {attacker: wolf, attack: Bite, target: fox}
expect:
  objects:
    fox: {damage: 8}
"""


def run(tmp_path, text, json_out=False):
    p = tmp_path / "s.yaml"
    p.write_text(text)
    out = io.StringIO()
    rc = run_cli(str(p), json_out, out=out)
    return rc, out.getvalue(), str(p)


def test_good(tmp_path):
    rc, out, _ = run(tmp_path, GOOD)
    assert rc == 0, out
    assert "RESULT: ok" in out


def test_json_output(tmp_path):
    import json
    rc, out, _ = run(tmp_path, GOOD, json_out=True)
    doc = json.loads(out)
    assert rc == 0 and doc["ok"]
    assert doc["final_state"]["objects"]["fox"]["damage"] == 8
    kinds = {e["kind"] for e in doc["events"]}
    assert {"step", "roll", "damage", "window"} <= kinds


def test_failed_expectation_exit_1(tmp_path):
    rc, out, _ = run(tmp_path, GOOD.replace("damage: 8", "damage: 5"))
    assert rc == 1
    assert "FAIL" in out and "expected 5, got 8" in out


@pytest.mark.parametrize("mutate,code,line", [
    (lambda s: s.replace("objects:\n  - {id: wolf", "objects:\n  - {id: wolf,, "), "S001", None),
    (lambda s: s.replace("name: t", "name: t\nplayerz: []"), "S003", 2),
    (lambda s: s.replace("Timber Wolf", "Timber Wolff"), "S004", 4),
    (lambda s: s.replace("zone: B2}\n  - {id: fox", "zone: Z9}\n  - {id: fox"), "S006", 4),
    (lambda s: s.replace("[[2, 2, 2, 2]]", "[[2, 7, 2, 2]]"), "S008", 7),
    (lambda s: s.replace("[[2, 2, 2, 2]]", "[[2, 2]]"), "S010", 11),
    (lambda s: s.replace("target: fox", "target: foxx"), "S005", 11),
    (lambda s: s.replace("attack: Bite", "attack: Bitee"), "S004", 11),
    (lambda s: s.replace("choices:\n  - {counterstrike: no counterstrike}\n", "unscripted: fail\n")
     .replace("zone: B2}\nd", "zone: B2, guard: true}\nd").replace("[[2, 2, 2, 2]]", "[[1, 0, 0, 0]]"),
     "S011", 10),
    (lambda s: "- just a list\n", "S002", 1),
    (lambda s: s.replace("fox: {damage: 8}", "fox: {damgae: 8}"), "S003", 14),
    (lambda s: s.replace("  - attack: {attacker: wolf", "  - move: {object: wolf, to: A4}\n  - attack: {attacker: wolf"),
     "S013", 11),
    (lambda s: s.replace("  - attack: {attacker: wolf", "  - push: {object: wolf, direction: up}\n  - attack: {attacker: wolf"),
     "S002", 11),
])
def test_malformed(tmp_path, mutate, code, line):
    rc, out, path = run(tmp_path, mutate(GOOD))
    assert rc == 2, out
    assert "Traceback" not in out
    m = re.search(rf"^{re.escape(path)}:(\d+):(\d+): {code} ", out, re.M)
    assert m, out
    if line is not None:
        assert int(m.group(1)) == line, out


def test_missing_file(tmp_path):
    out = io.StringIO()
    assert run_cli(str(tmp_path / "nope.yaml"), False, out=out) == 2
    assert ": S000 " in out.getvalue()


def test_bad_card_file_is_located(tmp_path):
    bad = tmp_path / "bad.mw"
    bad.write_text('creature "X" {\n  armor 1 life\n}\n')
    rc, out, _ = run(tmp_path, "cards: [bad.mw]\n" + GOOD)
    assert rc == 2
    assert re.search(r"bad\.mw:\d+:\d+: E\d{3} ", out), out


def test_homebrew_card_file(tmp_path):
    (tmp_path / "mine.mw").write_text(
        'creature "Paper Tiger" { school Nature 1 cost 1 cast full range 0-0 targets zone armor 0 life 3 '
        'attack "Swipe" { quick melee range 0-0 dice 2 } }\n')
    text = "cards: [mine.mw]\n" + GOOD.replace("Bitterwood Fox", "Paper Tiger").replace("damage: 8", "destroyed: true")
    rc, out, _ = run(tmp_path, text)
    assert rc == 0, out


def test_an_illegal_move_names_its_rule(tmp_path):
    text = GOOD.replace("  - attack: {attacker: wolf", "  - move: {object: wolf, to: A4}\n  - attack: {attacker: wolf")
    rc, out, _ = run(tmp_path, text)
    assert rc == 2 and "S013" in out and "Rules: Move Action" in out and "3 zones away" in out


TWO_BITES = """\
name: two bites
players: [{name: Alice}, {name: Bob}]
objects:
  - {id: wolf, card: Timber Wolf, controller: Alice, zone: B2}
  - {id: golem, card: Iron Golem, controller: Bob, zone: B2}
dice:
  attack: [[2, 2, 2, 2], [0, 0, 0, 0]]
actions:
  - attack: {attacker: wolf, attack: Bite, target: golem}
  - attack: {attacker: wolf, attack: Bite, target: golem}
expect:
  attacks:
    - {attacker: wolf, damage: 3, steps: [declare_attack, pay_costs, roll_to_miss, avoid_attack, roll_dice,
                                          damage_and_effects, damage_barrier, counterstrike, attack_ends]}
"""


def test_an_attack_left_out_of_the_list_fails(tmp_path):
    """`attacks:` is the whole record: the second Bite is not listed, so the scenario fails."""
    rc, out, _ = run(tmp_path, TWO_BITES)
    assert rc == 1
    assert "[FAIL] number of attacks made: expected 1, got 2" in out
    assert "[ok ] attack #1.steps" in out
    full = TWO_BITES + "    - {attacker: wolf, damage: 0, skipped: [additional_strikes]}\n"
    rc, out, _ = run(tmp_path, full)
    assert rc == 0, out


def test_a_step_that_ran_fails_skipped(tmp_path):
    text = TWO_BITES + "    - {attacker: wolf, skipped: [roll_dice, additional_strikes]}\n"
    rc, out, _ = run(tmp_path, text)
    assert rc == 1
    assert "[FAIL] attack #2.skipped: expected [], got ['roll_dice']" in out


def test_an_unknown_step_is_located(tmp_path):
    text = TWO_BITES + "    - {attacker: wolf, skipped: [roll_too_miss]}\n"
    rc, out, p = run(tmp_path, text)
    assert re.search(rf"{re.escape(p)}:15:\d+: S014 unknown attack step 'roll_too_miss'", out), out


def test_xfail_marks_a_ruling_not_reached_and_goes_stale_when_it_passes(tmp_path):
    failing = TWO_BITES.replace("name: two bites", "name: two bites\nxfail: the engine lacks X")
    rc, out, _ = run(tmp_path, failing)
    assert rc == 0 and "Expected to fail: the engine lacks X" in out
    assert "(expected: the scenario is marked xfail)" in out
    passing = failing + "    - {attacker: wolf, damage: 0}\n"
    rc, out, _ = run(tmp_path, passing)
    assert rc == 1 and "remove the mark" in out
