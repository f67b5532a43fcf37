"""Highlighting: the Pygments lexer (found through its entry point) and the TextMate grammar."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error

from magewars.highlight import MageWarsLexer, grammar_keywords
from magewars.resources import shipped_sources

ROOT = Path(__file__).resolve().parents[1]
TM = ROOT / "editors" / "vscode" / "syntaxes" / "magewars.tmLanguage.json"


def test_lexer_is_registered_by_entry_point():
    assert isinstance(get_lexer_by_name("magewars"), MageWarsLexer)
    assert isinstance(get_lexer_for_filename("my-cards.mw"), MageWarsLexer)


def test_every_shipped_file_lexes_without_error_tokens():
    lexer = get_lexer_by_name("magewars")
    files = shipped_sources()
    assert len(files) > 50
    for path in files:
        text = path.read_text(encoding="utf-8")
        bad = [v for t, v in lexer.get_tokens(text) if t in Error]
        assert bad == [], f"{path}: {bad[:5]}"


def test_pygmentize_command_highlights_a_card_file():
    path = next(p for p in shipped_sources() if p.name == "creatures.mw")
    r = subprocess.run([sys.executable, "-m", "pygments", "-l", "magewars", "-f", "raw", str(path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "Token.Keyword.Declaration\t'creature'" in r.stdout
    assert "Token.Error" not in r.stdout


def test_garbage_is_an_error_token():
    toks = list(MageWarsLexer().get_tokens('creature "A" { armor 1 @ }'))
    assert (Error, "@") in toks


def test_textmate_grammar_knows_every_grammar_keyword():
    g = json.loads(TM.read_text(encoding="utf-8"))
    listed = {"attack", "spell"}  # the two-word declaration has its own pattern
    for rule in ("keyword", "declaration"):
        for alt in re.findall(r"\(\?:([^)]*)\)", json.dumps(g["repository"][rule])):
            listed |= set(alt.split("|"))
    missing = set(grammar_keywords()) - listed
    assert not missing, f"regenerate editors/vscode/syntaxes (missing {sorted(missing)})"


@pytest.mark.parametrize("rule", ["comment", "string", "call", "keyword", "name", "number", "operator",
                                  "punctuation"])
def test_textmate_patterns_are_valid_regexes(rule):
    g = json.loads(TM.read_text(encoding="utf-8"))
    re.compile(g["repository"][rule]["match"])


def test_editor_manifest_points_at_the_grammar():
    pkg = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text(encoding="utf-8"))
    path = pkg["contributes"]["grammars"][0]["path"]
    assert (ROOT / "editors" / "vscode" / path).resolve() == TM.resolve()
    assert ".mw" in pkg["contributes"]["languages"][0]["extensions"]


def test_magewars_blocks_in_the_docs_highlight_cleanly():
    lexer = get_lexer_by_name("magewars")
    blocks = []
    for doc in sorted((ROOT / "docs").glob("*.md")):
        blocks += [(doc.name, b) for b in re.findall(r"```magewars\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)]
    assert len(blocks) >= 3
    for name, block in blocks:
        bad = [v for t, v in lexer.get_tokens(block) if t in Error]
        assert bad == [], f"{name}: {bad[:5]}"
