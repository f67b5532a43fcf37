"""Fuzzing on a small CI budget: card text from the grammar and mutated from the corpus,
mutated scenarios, odd command lines.  Every input ends in output or located
diagnostics, never a crash.  `python scripts/fuzz.py` runs the same harness on a big budget.
"""
import random
import re

from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings, strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from magewars.cli import main
from magewars.resources import grammar_path

from .harness import card_input, run_card, run_scenario_text, scenario_input

FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                      HealthCheck.filter_too_much])
GRAMMAR = Lark(grammar_path().read_text(encoding="utf-8"), parser="lalr", lexer="contextual")


def assert_clean(rec):
    assert rec["crash"] is None, rec["crash"] + "\n--- input:\n" + rec["input"][:2000]
    assert rec["unlocated"] == [], (rec["unlocated"], rec["input"][:2000])


@settings(FAST, max_examples=60)
@given(from_lark(GRAMMAR, start="start"))
def test_text_from_the_grammar(text):
    assert_clean(run_card(text, with_codex=False))


@settings(FAST, max_examples=120)
@given(st.integers(0, 2**32))
def test_mutated_card_definitions(seed):
    assert_clean(run_card(card_input(random.Random(seed)), with_codex=seed % 10 == 0))


@settings(FAST, max_examples=40)
@given(st.integers(0, 2**32))
def test_mutated_scenarios(tmp_path_factory, seed):
    folder = tmp_path_factory.mktemp("fz")
    assert_clean(run_scenario_text(scenario_input(random.Random(seed)), folder))


NUMBERS = st.one_of(st.integers(-10**30, 10**30), st.sampled_from(["-1", "0", "1e9", "nan", "", "9" * 5000]))
INTERNAL = re.compile(r'(:\d+:\d+: S099 |"code": "S099")')
NAMES = st.one_of(st.text(max_size=30), st.sampled_from(["Timber Wolf", "Iron Golem", "Fireball", "zzz", "\x00"]))
# folders of scenarios run every file in them: the small ones keep the CI budget small
# ("" is the current folder for click: the whole repository, too slow for this budget)
PATHS = st.sampled_from(["/dev/null", "/nonexistent/x.yaml", "x" * 5000, "tests/engine/cards",
                         "tests/dsl", "tests/scenarios/block_avoids.yaml"])


@st.composite
def command_lines(draw):
    cmd = draw(st.sampled_from(["odds", "simulate", "lint", "card", "lookup"]))
    if cmd == "odds":
        args = ["odds", draw(NAMES), draw(NAMES)]
        for opt in draw(st.lists(st.sampled_from(["--defender-damage", "--max-attacks"]), max_size=2)):
            args += [opt, str(draw(NUMBERS))]
        return args
    if cmd == "simulate":
        args = ["simulate", "scenario", draw(PATHS)]
        if draw(st.booleans()):
            args += ["--as", draw(NAMES)]
        if draw(st.booleans()):
            args += ["--cards-root", draw(PATHS)]
        return args + draw(st.lists(st.sampled_from(["--json"]), max_size=1))
    if cmd == "lint":
        return ["lint", draw(st.sampled_from(["/dev/null", "/nonexistent", "x" * 5000, "tests/engine/cards"])),
                "--format", draw(st.sampled_from(["text", "json", "sarif", "bogus"]))]
    return [cmd, draw(NAMES)]


@settings(FAST, max_examples=40)
@given(command_lines())
@example(["odds", "S099", "Timber Wolf"])  # a name that spells the internal error's code, repeated back
def test_odd_command_lines(args):
    r = CliRunner().invoke(main, args, catch_exceptions=True)
    assert r.exception is None or isinstance(r.exception, SystemExit), (args, repr(r.exception))
    assert r.exit_code in (0, 1, 2), (args, r.exit_code, r.output[-500:])
    # an internal error is the located S099 diagnostic (text or JSON), not the letters S099 anywhere:
    # a drawn name may be "S099", and a command repeats the name it could not find
    said = r.output
    for a in args:
        if a:
            said = said.replace(a, "")
    assert "Traceback" not in said and not INTERNAL.search(said), (args, r.output[-2000:])
    for line in r.output.splitlines():
        m = re.match(r"^(\S+):(\d+):(\d+): ([A-Z]\d{3}) ", line)
        if m:
            assert int(m.group(2)) >= 1 and int(m.group(3)) >= 1, line
