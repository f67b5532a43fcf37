"""Property tests for the language.

1. Programs generated from the grammar parse, and parse -> print -> parse gives
   the same AST (printing is canonical).
2. Arbitrary text only ever produces our own diagnostics, never an exception.
"""
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark
from lark.lexer import PatternStr

from magewars.dsl import compile_sources, printer
from magewars.dsl.diagnostics import CODES
from magewars.dsl.parser import get_parser, parse_text
from magewars.resources import grammar_path

NAMES = ["Flying", "Burn", "Living", "Melee", "Holy", "Dark", "Mage", "Flame", "Non-Mage", "V'Tar", "Orb"]
LOWER = ["destroy", "heal", "push", "upkeep", "attacked", "rolled", "foo_bar", "z9"]


def _spaced(s):
    return st.just(f" {s} ")


def _explicit():
    """A strategy per terminal, each padded with spaces so adjacent tokens never merge."""
    out = {}
    for t in get_parser().terminals:
        if isinstance(t.pattern, PatternStr):
            out[t.name] = _spaced(t.pattern.value)
    out.update({
        "STRING": st.text(alphabet=string.ascii_letters + ' ,.-"\\', max_size=12).map(
            lambda s: ' "' + s.replace("\\", "\\\\").replace('"', '\\"') + '" '),
        "INT": st.integers(0, 30).map(lambda n: f" {n} "),
        "CNAME": st.sampled_from(NAMES).map(lambda s: f" {s} "),
        "LNAME": st.sampled_from(LOWER).map(lambda s: f" {s} "),
        "COMMENT": st.just(" # note\n"),
        "WS": st.just(" "),
    })
    return out


_GEN_PARSER = Lark(grammar_path().read_text(), parser="lalr", maybe_placeholders=True)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(from_lark(_GEN_PARSER, start="start", explicit=_explicit()))
def test_generated_programs_parse_and_round_trip(src):
    tree, diags = parse_text(src, "gen.mw")
    assert diags == [], (src, [d.format() for d in diags])
    printed = printer.source(tree)
    again, diags2 = parse_text(printed, "gen.mw")
    assert diags2 == [], (printed, [d.format() for d in diags2])
    assert again.definitions == tree.definitions, printed
    # printing is canonical: a second print gives the same text
    assert printer.source(again) == printed


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_only_gives_diagnostics(text):
    _, diags = compile_sources([("fuzz.mw", text)])
    for d in diags:
        assert d.code in CODES
        assert d.span.line >= 1
        d.format()  # formatting never fails


TOKENS = ['creature', '"A"', '{', '}', 'armor', 'life', '1', 'traits', 'Flying', ',', 'attack', 'd12', '5-9',
          'Burn', ';', 'when', 'destroyed(this)', ':', 'destroy(', ')', 'static', 'gains', '[', ']', 'X', '+', '-',
          'if', 'then', 'else', 'effect:', 'reveal', 'must', 'during', 'avoid_attack', '@', '\n', '"', '#c\n']


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=40))
def test_token_soup_only_gives_diagnostics(tokens):
    text = " ".join(tokens)
    _, diags = compile_sources([("soup.mw", text)])
    for d in diags:
        assert d.code in CODES
