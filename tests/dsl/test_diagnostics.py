"""One test per diagnostic code, proving it fires at the right line and column."""
import pytest

from magewars.dsl import compile_sources
from magewars.dsl.diagnostics import CODES
from magewars.dsl.parser import parse_text

CODEX = '''
trait "Flying" { }
trait "Melee" { param bonus }
trait "Aegis" { param number }
trait "Tough" { param penalty }
trait "Flame" { param signed }
trait "Only" { param name }
trait "Living" { }
condition "Burn" { removal 2 }
condition "Daze" { removal 2 }
'''


def diags_for(src: str, codes=None):
    _, diags = compile_sources([("codex.mw", CODEX), ("t.mw", src)])
    got = [d for d in diags if d.span.path == "t.mw"]
    if codes is not None:
        got = [d for d in got if d.code in codes]
    return got


def one(src: str, code: str):
    got = diags_for(src)
    assert [d.code for d in got] == [code], [d.format() for d in got]
    return got[0]


def at(d, line, col):
    assert (d.span.line, d.span.col) == (line, col), d.format()


def test_every_code_is_tested_here():
    import inspect, sys
    text = inspect.getsource(sys.modules[__name__])
    for code in CODES:
        if code.startswith("B"):  # spellbook codes are tested in tests/spellbook/test_codes.py
            continue
        assert f'"{code}"' in text, f"no test for {code}"


def test_E001_unexpected_token_with_did_you_mean():
    d = one('creature "A" {\n  armor 1 life 2\n  lfie 3\n}', "E001")
    at(d, 3, 3)
    assert "life" in d.hint


def test_E002_unexpected_character():
    d = one('creature "A" {\n  armor 1 life @2\n}', "E002")
    at(d, 2, 16)


def test_E003_unexpected_end_of_file():
    d = one('creature "A" {\n  armor 1 life 2\n', "E003")
    assert d.span.line >= 2


def test_E004_unreadable_file(tmp_path):
    from magewars.dsl import compile_paths
    _, diags = compile_paths([tmp_path / "missing.mw"])
    assert [d.code for d in diags] == ["E004"]


def test_syntax_errors_do_not_stop_the_file():
    src = 'creature "A" {\n  armor 1 life 2\n  lfie 3\n}\ncreature "B" {\n  armor 1 life 2 @\n}\ncreature "C" { armor x life 1 }\n'
    tree, diags = parse_text(src, "t.mw")
    assert [(d.code, d.span.line) for d in diags] == [("E001", 3), ("E002", 6), ("E001", 8)]


def test_E101_unknown_trait_with_hint():
    d = one('creature "A" {\n  armor 1 life 2\n  traits Flyng\n}', "E101")
    at(d, 3, 10)
    assert "Flying" in d.hint


def test_E102_unknown_function():
    d = one('creature "A" {\n  armor 1 life 2\n  effect: destory(this)\n}', "E102")
    at(d, 3, 11)
    assert "destroy" in d.hint


def test_E102_unknown_step():
    d = one('enchantment "E" {\n  reveal must during avoid_atack\n}', "E102")
    assert "avoid_attack" in d.hint


def test_E103_unknown_word_in_phrase():
    d = one('creature "A" {\n  armor 1 life 2\n  effect: destroy(target Livng creature)\n}', "E103")
    at(d, 3, 26)
    assert "Living" in d.hint


def test_E106_phrase_word_not_understood_here():
    d = one('creature "A" {\n  armor 1 life 2\n  effect: destroy(each creature from this)\n}', "E106")
    at(d, 3, 33)
    assert "from" in d.message


def test_E104_unknown_school():
    d = one('incantation "I" {\n  school Fyre 2\n}', "E104")
    at(d, 2, 10)
    assert "Fire" in d.hint


def test_E105_undefined_card_and_attack():
    d = one('creature "A" {\n  armor 1 life 2\n  effect: summon("Nobody Here")\n}', "E105")
    at(d, 3, 18)
    d = one('creature "A" {\n  armor 1 life 2\n  attack "Bite" { quick melee dice 3 }\n'
            '  effect: make_attack(this, attack: "Bight")\n}', "E105")
    assert "Bite" in d.hint


def test_E201_wrong_parameter_kind():
    at(one('creature "A" {\n  armor 1 life 2\n  traits Melee 2\n}', "E201"), 3, 16)
    at(one('creature "A" {\n  armor 1 life 2\n  traits Aegis +1\n}', "E201"), 3, 16)
    at(one('creature "A" {\n  armor 1 life 2\n  traits Tough +1\n}', "E201"), 3, 16)
    at(one('creature "A" {\n  armor 1 life 2\n  traits Flying +1\n}', "E201"), 3, 17)
    one('creature "A" {\n  armor 1 life 2\n  traits Melee\n}', "E201")
    one('creature "A" {\n  armor 1 life none\n}', "E201")


def test_E202_impossible_ranges():
    at(one('incantation "I" {\n  range 3-1\n}', "E202"), 2, 3)
    at(one('creature "A" {\n  armor 1 life 2\n  defense 13+ 1x\n}', "E202"), 3, 3)
    at(one('creature "A" {\n  armor 1 life 2\n  attack "B" { quick melee dice 2 d12 9-5 Burn }\n}', "E202"), 3, 39)


def test_E203_wrong_arguments():
    at(one('creature "A" {\n  armor 1 life 2\n  effect: heal(this)\n}', "E203"), 3, 11)
    at(one('creature "A" {\n  armor 1 life 2\n  effect: place(this, Burn)\n}', "E203"), 3, 23)
    at(one('creature "A" {\n  armor 1 life 2\n  effect: heal(this, 2, amout: 3)\n}', "E203"), 3, 25)


def test_E204_event_argument_the_engine_does_not_match():
    # `pays(who, amount)`: nothing compares the amount with the payment, so the ability would fire
    # on any payment; the argument is refused where it stands, by position or by keyword
    d = one('creature "A" {\n  armor 1 life 2\n  when pays(this, 2): heal(this, 1)\n}', "E204")
    at(d, 3, 12)  # a bare number is located at its argument list
    assert "amount" in d.message
    at(one('creature "A" {\n  armor 1 life 2\n  when pays(this, amount: 2): heal(this, 1)\n}', "E204"), 3, 19)
    # arguments every event matches are accepted: the object damaged by a deals_damage
    assert diags_for('creature "A" {\n  armor 1 life 2\n  when deals_damage(this, to: Living creature): heal(this, 1)\n}') == []


def test_E301_overlapping_effect_rows():
    d = one('creature "A" {\n  armor 1 life 2\n  attack "B" { quick melee dice 2 d12 4-8 Burn; 7+ 2 Burn }\n}', "E301")
    at(d, 3, 49)


def test_E302_gapped_effect_rows():
    d = one('creature "A" {\n  armor 1 life 2\n  attack "B" { quick melee dice 2 d12 4-6 Burn; 9+ 2 Burn }\n}', "E302")
    at(d, 3, 49)


def test_E401_missing_required_stat():
    d = one('creature "A" {\n  armor 1\n}', "E401")
    at(d, 1, 10)
    assert "life" in d.message


def test_E402_item_not_allowed():
    at(one('creature "A" {\n  armor 1 life 2\n  cost 5+2\n}', "E402"), 3, 3)
    at(one('creature "A" {\n  armor 1 life 2\n  traits Flying OR Living\n}', "E402"), 3, 3)


def test_E403_item_given_twice():
    at(one('creature "A" {\n  armor 1 life 2\n  life 3\n}', "E403"), 3, 3)


def test_E501_duplicate_definition():
    d = one('creature "A" { armor 1 life 2 }\ncreature "A" { armor 1 life 2 }', "E501")
    at(d, 2, 10)
    assert "t.mw:1:10" in d.hint


def test_W601_unsupported_is_reported_as_warning():
    from magewars.lint import collect_warnings
    corpus, diags = compile_sources([("codex.mw", CODEX),
                                     ("t.mw", 'creature "A" {\n  armor 1 life 2\n  unsupported "odd-rule" "x"\n}')])
    assert not [d for d in diags if d.severity == "error"]
    w = collect_warnings(corpus)
    assert [(d.code, d.span.line, d.span.col) for d in w] == [("W601", 3, 3)]
    assert not corpus.cards["A"].fully_expressed


def test_diagnostic_format_has_caret_and_hint():
    _, diags = compile_sources([("codex.mw", CODEX), ("t.mw", 'creature "A" {\n  armor 1 life 2\n  traits Flyng\n}')])
    text = [d for d in diags if d.span.path == "t.mw"][0].format()
    lines = text.splitlines()
    assert lines[0] == "t.mw:3:10: E101 unknown trait/condition 'Flyng'"
    assert lines[1].strip() == "traits Flyng"
    assert lines[2].index("^") == lines[1].index("Flyng")
    assert lines[3].strip().startswith("hint: did you mean 'Flying'")


def test_reference_documents_every_code():
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "docs" / "dsl.md").read_text()
    for code in CODES:
        assert f"| {code} |" in doc, f"docs/dsl.md lacks {code}"
