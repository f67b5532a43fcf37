"""`magewars lookup` answers: rule numbers and summaries, plain-word questions, --search, colour."""
import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from magewars.cli import main
from magewars.lookup import load_rules


def run(*args, env=None):
    return CliRunner(env=env).invoke(main, list(args))


def test_every_entry_shows_its_rule_number_and_summary():
    from magewars.lookup import render_text
    for e in load_rules().entries:
        if e.category == "card":
            continue
        text = render_text(e)
        if e.rule:
            assert f"(rule {e.rule})" in text.splitlines()[0], e.name
        if e.summary:
            assert e.summary.split()[0] in text, e.name


def test_reveal_shows_rule_number_summary_and_section():
    r = run("lookup", "reveal")
    assert r.exit_code == 0, r.output
    entry = load_rules().lookup("reveal").entries[0]
    assert f"(rule {entry.rule})" in r.output
    assert entry.summary.split(",")[0] in r.output
    section = load_rules().section_map[entry.rule]
    assert section.title in r.output


def test_a_section_lists_its_steps():
    r = run("lookup", "5.2")
    assert r.exit_code == 0
    for child in load_rules().children("5.2"):
        assert f"{child.number} {child.title}" in r.output


@pytest.mark.parametrize("question,expected", [
    ("guard vs flying", ["Guarding", "Flying"]),
    ("what is aegis", ["Aegis X"]),
    ("can a guarding creature fly", ["Guarding", "Flying"]),
    ("does block stop an unavoidable attack", ["Block", "Unavoidable"]),
    ("finite life vs bull endurance", ["Finite Life", "Bull Endurance"]),
    ("is rooted the same as restrained", ["Rooted", "Restrained"]),
    ("wat is flyng", ["Flying"]),  # typos
    ("how does counterstrike work", ["Counterstrike"]),
])
def test_plain_word_questions_find_the_terms_they_name(question, expected):
    r = run("lookup", "--json", question)
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["kind"] == "question"
    assert [e["name"] for e in data["entries"]] == expected


def test_a_question_shows_the_rulings_that_mention_both_terms():
    r = run("lookup", "guard vs flying")
    assert r.exit_code == 0
    assert "Rulings that mention Guarding and Flying together:" in r.output
    data = json.loads(run("lookup", "--json", "guard vs flying").output)
    assert data["together"]
    for note in data["together"]:
        low = note["text"].lower()
        assert ("guard" in low or note["entry"] == "Guarding") and ("fly" in low or note["entry"] == "Flying")


def test_single_terms_still_resolve_as_before():
    book = load_rules()
    assert book.lookup("aegis").kind == "alias"
    assert book.lookup("passage").kind == "ambiguous"
    assert book.lookup("xyzzy plugh").kind == "none"


def test_search_finds_text_in_entries_rulings_and_card_text():
    r = run("lookup", "--json", "--search", "loses flying")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    cats = {x["category"] for x in data["results"]}
    assert "card" in cats and ({"trait", "condition", "term", "rule"} & cats)
    for x in data["results"]:
        assert "flying" in (x["name"] + x["snippet"]).lower() or "loses" in x["snippet"].lower()
    assert run("lookup", "--search", "qqqzzzxxx").exit_code == 1


def test_missing_query_is_a_usage_error_also_in_json():
    r = run("lookup", "--json")
    assert r.exit_code == 2
    assert "error" in json.loads(r.output)


def test_plain_when_piped_and_colour_on_a_terminal_unless_no_color():
    from magewars.console import echo_page
    import io
    from contextlib import redirect_stdout
    from unittest import mock

    buf = io.StringIO()
    with redirect_stdout(buf):
        echo_page("Aegis X  [trait]  (rule 5.7)\nClarifications:\n  - text")
    assert "\x1b[" not in buf.getvalue()  # not a terminal: plain
    env = {"FORCE_COLOR": "1", "TERM": "xterm-256color"}
    with mock.patch.dict(os.environ, env, clear=False):
        os.environ.pop("NO_COLOR", None)
        buf = io.StringIO()
        with redirect_stdout(buf):
            echo_page("Aegis X  [trait]  (rule 5.7)")
        assert "\x1b[1m" in buf.getvalue()  # bold name
        with mock.patch.dict(os.environ, {"NO_COLOR": "1"}):
            buf = io.StringIO()
            with redirect_stdout(buf):
                echo_page("Aegis X  [trait]  (rule 5.7)")
            assert "\x1b[3" not in buf.getvalue()  # no colour


def test_cp1252_console_does_not_crash():
    env = dict(os.environ, PYTHONIOENCODING="cp1252")
    env.pop("NO_COLOR", None)
    r = subprocess.run([sys.executable, "-m", "magewars", "odds", "Timber Wolf", "Iron Golem"],
                       capture_output=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr.decode("cp1252", "replace")
    assert b"Traceback" not in r.stderr
    assert b"Damage" in r.stdout
