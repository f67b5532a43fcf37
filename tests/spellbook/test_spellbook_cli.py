"""`magewars book ...` end to end through click."""
import json

from click.testing import CliRunner

from magewars.cli import main


def run(*args):
    r = CliRunner().invoke(main, ["book", *args])
    return r.exit_code, r.output


def test_check_shipped_books_by_name_exit_0():
    code, out = run("check", "beastmaster", "priestess", "wizard")
    assert code == 0, out
    assert out.count(": legal (0 error(s), 0 warning(s))") == 3


def test_check_illegal_book_exit_1_with_located_errors(tmp_path):
    p = tmp_path / "bad.book"
    p.write_text("mage: Priestess\n1 Staff of Beasts\n30 Timber Wolf\n", encoding="utf-8")
    code, out = run("check", str(p))
    assert code == 1
    assert f"{p}:2:3: B103 " in out
    assert f"{p}:1:7: B101 " in out
    assert "    1 Staff of Beasts\n      ^^^^^^^^^^^^^^^" in out  # the source line and a caret under the name
    assert out.rstrip().endswith("illegal (2 error(s), 0 warning(s))")


def test_check_json(tmp_path):
    p = tmp_path / "bad.book"
    p.write_text("mage: Priestess\n1 Staff of Beasts\n", encoding="utf-8")
    code, out = run("check", "--json", str(p), "druid")
    assert code == 1
    data = json.loads(out)
    assert [b["legal"] for b in data] == [False, True]
    d = data[0]["diagnostics"][0]
    assert (d["code"], d["line"], d["column"], d["severity"]) == ("B103", 2, 3, "error")
    assert data[1]["mage"] == "Druid"


def test_usage_errors_exit_2(tmp_path):
    code, out = run("check", str(tmp_path / "missing.book"))
    assert code == 2 and "no spellbook file or shipped spellbook" in out
    code, out = run("check", "druidd")
    assert code == 2 and "'druid'" in out
    code, _ = run("check")
    assert code == 2
    bad = tmp_path / "ids.json"
    bad.write_text("[1, 2", encoding="utf-8")
    code, out = run("check", "--ids", str(bad), "druid")
    assert code == 2 and "id table" in out


def test_show_points_per_school_and_curve():
    code, out = run("show", "beastmaster")
    assert code == 0, out
    assert "Beastmaster (Beastmaster Stats)" in out and "120 of 120 spellbook points" in out
    for title in ("Points per school", "Level curve", "Spell types", "Spells"):
        assert title in out
    code, out = run("show", "--json", "beastmaster")
    data = json.loads(out)
    assert data["points"] == 120 and data["limit"] == 120
    assert sum(r["points"] for r in data["schools"].values()) == 120
    assert sum(data["levels"].values()) == data["spells"] == sum(data["types"].values())


def test_import_o8d_to_text_and_back(tmp_path):
    deck = tmp_path / "deck.o8d"
    deck.write_bytes(b'<?xml version="1.0" encoding="utf-8"?><deck game="x"><section name="Mage">'
                     b'<card qty="1" id="1">Druid</card><card qty="1" id="2">Druid stats</card></section>'
                     b'<section name="Creature"><card qty="2" id="3">Timber Wolf</card></section></deck>')
    out_file = tmp_path / "deck.book"
    code, out = run("import", str(deck), "-o", str(out_file))
    assert code == 0, out
    text = out_file.read_text(encoding="utf-8")
    assert "mage: Druid\n" in text and "2 Timber Wolf\n" in text
    code, out = run("check", str(out_file))
    assert code == 0, out


def test_list_names_every_shipped_book():
    from magewars.spellbook import shipped_books
    code, out = run("list")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == list(shipped_books())
