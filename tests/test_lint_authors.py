"""`magewars lint` for card authors: stdin, recovery that keeps checking, short grouped hints."""
import json

from click.testing import CliRunner

from magewars.cli import main
from magewars.dsl import compile_sources
from magewars.dsl.parser import MAX_REPAIRS, parse_text
from magewars.resources import data_dir


def lint(*args, input=None):
    return CliRunner().invoke(main, ["lint", "--no-source", *args], input=input)


def test_stdin_is_linted_and_located_as_dash():
    r = lint("-", input='creature "Bad" {\n  armor two\n  life 5\n}\n')
    assert r.exit_code == 1
    assert r.stdout.startswith("-:2:9: E001 unexpected 'two'")
    assert "E401" not in r.stdout  # `life 5` is there and is read after the bad line


def test_stdin_clean_card_exits_0():
    r = lint("-", input='creature "Good" {\n  armor 2\n  life 5\n  traits Flying\n}\n')
    assert r.exit_code == 0, r.output


def test_stdin_that_is_not_utf8_is_a_located_e004_like_a_file():
    r = lint("-", input=b'creature "Bad\xff" {\n  armor 1\n  life 5\n}\n')
    assert r.exit_code == 2, r.output
    assert r.stdout.startswith("-:1:1: E004 cannot read standard input: UnicodeDecodeError")
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_stdin_is_bounded_like_a_card_file():
    from magewars.limits import MAX_SOURCE_BYTES
    r = lint("-", input=b"#" * (MAX_SOURCE_BYTES + 10))
    assert r.exit_code == 2, r.output
    assert r.stdout.startswith(f"-:1:1: E004 cannot read standard input: more than {MAX_SOURCE_BYTES} bytes")


def test_recovery_keeps_checking_the_rest_of_the_card():
    src = ('creature "A" {\n  armor 1\n  lfie 5\n  attack "Bite" { quick melee range 0-0 dice three }\n'
           '  traits Flyng\n}\n')
    _, diags = compile_sources([("t.mw", src)], base=sorted(data_dir("codex").glob("*.mw")))
    got = [(d.code, d.span.line) for d in diags if d.span.path == "t.mw"]
    # the typo'd field, the bad die count and the unknown trait after them; no "needs 'life'"
    assert got == [("E001", 3), ("E001", 4), ("E101", 5)], got


def test_missing_brace_is_reported_and_the_card_still_checked():
    src = 'creature "A" {\n  armor 1\n  life 5\n  traits Flyng\n'
    _, diags = compile_sources([("t.mw", src)], base=sorted(data_dir("codex").glob("*.mw")))
    codes = [d.code for d in diags if d.span.path == "t.mw"]
    assert codes == ["E003", "E101"], codes
    assert "'}' is missing" in diags[0].hint


def test_duplicate_definition_is_still_checked():
    r = lint("-", input='creature "A" { armor 1 life 2 }\ncreature "A" { armor 1 life 2 traits Flyng }\n')
    assert "E501" in r.stdout and "E101" in r.stdout


def test_expected_lists_are_grouped_and_short():
    _, diags = parse_text('creature "A" {\n  armor 1\n  trigger 2\n}\n', "t.mw")
    (d,) = diags
    assert "a keyword such as" in d.hint and "in all" in d.hint
    assert d.hint.count("'") <= 2 * 12  # a handful of names, not the whole grammar
    _, diags = parse_text('creature "A" {\n  armor 1\n  lfie 2\n}\n', "t.mw")
    assert diags[0].hint.startswith("did you mean 'life'?")
    assert "such as 'life'" in diags[0].hint  # the closest keyword is listed first


def test_repairs_are_bounded_on_garbage():
    src = 'creature "A" {\n' + "  @@ ## !!\n  armor armor armor\n" * 200 + "}\n"
    _, diags = parse_text(src, "t.mw")
    assert 1 <= len(diags) <= MAX_REPAIRS + 1


def test_warnings_only_for_the_given_paths(tmp_path):
    f = tmp_path / "mine.mw"
    f.write_text('creature "Mine" {\n  armor 1\n  life 2\n  unsupported "not modelled yet"\n}\n')
    r = lint("--warnings", "--json", str(f))
    data = json.loads(r.stdout)
    paths = {d["path"] for d in data["diagnostics"]}
    assert paths == {str(f)}, paths
    assert [d["code"] for d in data["diagnostics"]] == ["W601"]
