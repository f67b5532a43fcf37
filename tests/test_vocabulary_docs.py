"""One vocabulary: the reference tables of docs/dsl.md are generated from magewars/dsl/vocab.py and
magewars/dsl/diagnostics.py CODES (python -m magewars.docs), and stay so."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from magewars import docs as D
from magewars.dsl import vocab
from magewars.dsl.diagnostics import CODES
from magewars.dsl.model import ATTACK_STEPS

DSL_MD = Path(__file__).resolve().parents[1] / "docs" / "dsl.md"


def _block(name: str, text: str) -> str:
    m = re.search(rf"<!-- BEGIN GENERATED: {name}\b[^>]*-->\n(.*?)<!-- END GENERATED: {name} -->", text, re.S)
    assert m, f"docs/dsl.md has no generated '{name}' block"
    return m.group(1)


def _rows(block: str) -> list[list[str]]:
    out = []
    for line in block.splitlines()[2:]:
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        out.append([c.replace("\\|", "|") for c in cells])
    return out


def test_docs_tables_are_fresh():
    assert D.stale_blocks(DSL_MD) == [], "docs/dsl.md is stale: run `python -m magewars.docs`"


def test_lint_code_table_equals_codes():
    rows = _rows(_block("codes", DSL_MD.read_text(encoding="utf-8")))
    assert {code: meaning for code, meaning in rows} == CODES


@pytest.mark.parametrize("block,table", [("effects", vocab.EFFECT_FUNCS), ("values", vocab.VALUE_FUNCS),
                                         ("events", vocab.EVENT_FUNCS), ("timings", vocab.TIMING_FUNCS)])
def test_every_vocabulary_entry_is_documented_with_its_signature(block, table):
    rows = _rows(_block(block, DSL_MD.read_text(encoding="utf-8")))
    documented = {sig.strip("`"): doc for sig, doc in rows}
    assert documented == {s.render(): s.doc for s in table.values()}


def test_steps_and_durations_are_documented():
    text = _block("steps", DSL_MD.read_text(encoding="utf-8"))
    names = set(re.findall(r"`(\w+)`", text))
    assert names == vocab.STEPS | vocab.DURATIONS
    for label, steps in (("attack", ATTACK_STEPS), ("casting", vocab.CAST_STEPS), ("move", vocab.MOVE_STEPS)):
        row = next(line for line in text.splitlines() if line.startswith(f"| {label} sequence"))
        assert re.findall(r"`(\w+)` \(([^)]+)\)", row) == [(s, vocab.STEP_TITLES[s]) for s in steps]


def test_the_engine_runs_the_vocabularys_sequences_under_its_names():
    from magewars.engine import attack, casting, movement
    assert ATTACK_STEPS is vocab.ATTACK_STEPS and set(attack.STEPS) == set(ATTACK_STEPS)
    assert attack.STEP_ORDER["melee"].steps == ATTACK_STEPS  # the chart's full column
    assert all(attack.STEPS[k].title == vocab.STEP_TITLES[k] for k in ATTACK_STEPS)
    assert casting.CAST_STEPS == vocab.CAST_STEPS and tuple(casting.STEPS) == vocab.CAST_STEPS
    assert movement.MOVE_STEPS == vocab.MOVE_STEPS and tuple(movement.STEP_WORK) == vocab.MOVE_STEPS
    assert set(vocab.STEP_TITLES) == {*ATTACK_STEPS, *vocab.CAST_STEPS, *vocab.MOVE_STEPS} <= vocab.STEPS


def test_the_log_titles_each_step_as_the_vocabulary_does(corpus):
    """A cast, a move and an attack of shipped cards: every step line the log writes is the step's
    title in the vocabulary (the move's and the attack's Pay Costs alike)."""
    from magewars.engine import Game, movement
    from magewars.engine.casting import cast_spell
    g = Game(corpus)
    g.state.add_player("Ann", mana=20)
    g.state.add_player("Bob", mana=20)
    g.state.order = ["Ann", "Bob"]
    g.create("Wizard", "wiz", "Ann", zone="B2")
    assert cast_spell(g, g.state.get("wiz"), "Timber Wolf", zone="B2") is not None
    wolf = g.create("Timber Wolf", "fang", "Ann", zone="B2")  # (the wolf just cast has had its action)
    assert movement.move(g, wolf, "B3") is True
    g.create("Iron Golem", "golem", "Bob", zone="B3")
    g.attacks.make_attack(wolf, "Bite", [g.state.get("golem")])
    lines = [(e.data["step"], e.text) for e in g.log.events if e.kind == "step"]
    ran = {step for step, _ in lines}
    assert set(vocab.CAST_STEPS) <= ran and set(vocab.MOVE_STEPS) <= ran and {"declare_attack", "attack_ends"} <= ran
    assert all(text == vocab.STEP_TITLES[step] for step, text in lines)


def test_generator_refreshes_a_stale_table_and_keeps_the_prose(tmp_path):
    fresh = DSL_MD.read_text(encoding="utf-8")
    stale = fresh.replace("| E101 | unknown trait or condition |", "| E101 | something else |")
    stale = stale.replace("## Lexical rules", "## Lexical rules\n\nA sentence of prose an author added.")
    p = tmp_path / "dsl.md"
    p.write_text(stale, encoding="utf-8")
    assert D.stale_blocks(p) == ["codes"]
    assert D.main(["--check", str(p)]) == 1
    assert D.main([str(p)]) == 0
    out = p.read_text(encoding="utf-8")
    assert "| E101 | unknown trait or condition |" in out and "A sentence of prose an author added." in out
    assert D.main(["--check", str(p)]) == 0


def test_generator_refuses_an_unknown_block_and_reports_missing_ones(tmp_path, capsys):
    p = tmp_path / "dsl.md"
    p.write_text("<!-- BEGIN GENERATED: nonsense -->\nx\n<!-- END GENERATED: nonsense -->\n", encoding="utf-8")
    assert D.main([str(p)]) == 2
    assert "unknown generated block 'nonsense'" in capsys.readouterr().err
    p.write_text("no markers at all\n", encoding="utf-8")
    assert D.main(["--check", str(p)]) == 1
    assert "generated table 'effects' is missing" in capsys.readouterr().err
    assert D.main([str(tmp_path / "absent.md")]) == 2


@pytest.mark.parametrize("label,words", [("pronouns", vocab.PRONOUNS), ("quantifiers", vocab.QUANTIFIERS),
                                         ("adjectives", vocab.ADJECTIVES), ("nouns", vocab.NOUNS),
                                         ("relations", vocab.RELATIONS)])
def test_phrase_words_in_the_docs_are_the_vocabulary(label, words):
    """The Phrases section is prose (not generated), so it is tested against vocab.py instead:
    `creature(s)` stands for creature and creatures."""
    text = DSL_MD.read_text(encoding="utf-8")
    section = text[text.index("## Phrases"):text.index("## Trait references")]
    m = re.search(rf"^- {label}: (.*)$", section, re.M)
    assert m, f"docs/dsl.md no longer lists the phrase {label}"
    documented = set()
    for w in (x.strip() for x in m.group(1).split(",")):
        plural = re.fullmatch(r"(\w+)\((\w+)\)", w)
        documented |= {plural.group(1), plural.group(1) + plural.group(2)} if plural else {w}
    assert documented == words


def test_grammar_phrase_keywords_are_the_vocabulary_words():
    from magewars.resources import grammar_path
    grammar = grammar_path().read_text(encoding="utf-8")
    m = re.search(r"^!pword:(.*?)(?=^\S)", grammar, re.M | re.S)
    assert m, "the grammar no longer has a `!pword` rule: update this test to where phrase words live"
    words = set(re.findall(r'"(\w+)"', m.group(1)))
    assert words == set(vocab.PHRASE_WORDS)
