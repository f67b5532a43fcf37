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
    attack_row = next(line for line in text.splitlines() if line.startswith("| attack sequence"))
    assert re.findall(r"`(\w+)`", attack_row) == list(ATTACK_STEPS)


def test_attack_steps_of_language_and_engine_are_one_list():
    from magewars.engine.attack import STEPS
    assert set(ATTACK_STEPS) <= vocab.STEPS
    assert set(STEPS) == set(ATTACK_STEPS)


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
