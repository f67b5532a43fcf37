"""Golden tests: each grammar construct's source parses to the recorded AST.

Set UPDATE_GOLDEN=1 to rewrite the .ast files after an intended change, then
review the diff.
"""
import dataclasses
import os
import pprint
from pathlib import Path

import pytest

from magewars.dsl import ast as A
from magewars.dsl.parser import parse_text

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p.stem for p in GOLDEN.glob("*.mw"))


def _dump(tree) -> str:
    return pprint.pformat(tree.definitions, width=110)


@pytest.mark.parametrize("case", CASES)
def test_golden_ast(case):
    src = (GOLDEN / f"{case}.mw").read_text()
    tree, diags = parse_text(src, f"{case}.mw")
    assert diags == [], [d.format() for d in diags]
    got = _dump(tree)
    expected_path = GOLDEN / f"{case}.ast"
    if os.environ.get("UPDATE_GOLDEN") or not expected_path.exists():
        expected_path.write_text(got + "\n")
    assert got + "\n" == expected_path.read_text()


def _walk(node):
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        yield node
        for f in dataclasses.fields(node):
            yield from _walk(getattr(node, f.name))
    elif isinstance(node, tuple):
        for x in node:
            yield from _walk(x)


@pytest.mark.parametrize("case", CASES)
def test_every_node_has_a_real_span(case):
    src = (GOLDEN / f"{case}.mw").read_text()
    tree, _ = parse_text(src, f"{case}.mw")
    lines = src.splitlines()
    for node in _walk(tree.definitions):
        span = getattr(node, "span", None)
        if span is None or isinstance(node, A.Span):
            continue
        assert span.path == f"{case}.mw", node
        assert 1 <= span.line <= len(lines), node
        assert span.col >= 1, node


def test_no_lark_objects_escape():
    from lark import Token, Tree
    for case in CASES:
        tree, _ = parse_text((GOLDEN / f"{case}.mw").read_text(), case)
        for node in _walk(tree.definitions):
            for f in dataclasses.fields(node):
                v = getattr(node, f.name)
                assert not isinstance(v, (Tree, Token)), (case, node, f.name)
                if isinstance(v, tuple):
                    assert not any(isinstance(x, (Tree, Token)) for x in v), (case, node, f.name)


def test_specific_shapes():
    tree, _ = parse_text((GOLDEN / "attack_bars.mw").read_text(), "x")
    bar = tree.definitions[0].items[2]
    assert isinstance(bar, A.AttackBar) and bar.name == "Bite"
    die = next(i for i in bar.items if isinstance(i, A.EffectDie))
    assert [(r.low, r.high) for r in die.rows] == [(5, 9), (10, None)]
    assert die.rows[1].outcomes[0].count == 2
    traits = next(i for i in bar.items if isinstance(i, A.Traits))
    vs = traits.traits[1]
    assert vs.param.sign == "+" and vs.param.value == 2 and [n.text for n in vs.versus] == ["Flying", "Nonliving"]
    tree, _ = parse_text((GOLDEN / "card_header.mw").read_text(), "x")
    curse = tree.definitions[2]
    cost = next(i for i in curse.items if isinstance(i, A.Cost))
    assert cost.cast == 2 and cost.reveal == A.XValue(2)
