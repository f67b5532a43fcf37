"""One test per spellbook diagnostic code, each on a small file, checking code and location."""
import inspect
import sys

from magewars.dsl.diagnostics import CODES


def codes(diags):
    return [d.code for d in diags]


def only(diags, code):
    got = [d for d in diags if d.code == code]
    assert len(got) == 1, [d.format(with_source=False) for d in diags]
    others = [d for d in diags if d.code != code and d.severity == "error"]
    assert not others, [d.format(with_source=False) for d in others]
    return got[0]


def at(d, line, col):
    assert (d.span.line, d.span.col) == (line, col), d.format(with_source=False)


def test_every_spellbook_code_is_tested_here():
    text = inspect.getsource(sys.modules[__name__])
    for code in CODES:
        if code.startswith("B"):
            assert f'"{code}"' in text, f"no test for {code}"


def test_a_clean_small_book_has_no_diagnostics(check):
    book, diags = check("mage: Beastmaster\n3 Timber Wolf  # wolves\n\n2x Bear Strength\nDispel\n")
    assert diags == []
    assert [(c.name, n) for c, n in book.cards] == [("Timber Wolf", 3), ("Bear Strength", 2), ("Dispel", 1)]
    assert book.mage.name == "Beastmaster" and book.stats.name == "Beastmaster Stats"


def test_B001_unreadable_file(check):
    _, diags = check(None, data=b"mage: Beastmaster\n\xff\xfe bad bytes\n")
    d = only(diags, "B001")
    assert "UTF-8" in d.message


def test_B001_file_too_large(check):
    from magewars.spellbook.model import MAX_FILE_BYTES
    _, diags = check("#" * (MAX_FILE_BYTES + 10))
    assert "too large" in only(diags, "B001").message


def test_B001_malformed_xml_is_located(check):
    _, diags = check(None, name="t.o8d", data=b'<deck>\n  <section name="Mage">\n  <card qty="1">Druid</sect>\n</deck>')
    d = only(diags, "B001")
    assert d.span.line == 3


def test_B001_xml_entities_are_refused(check):
    bomb = (b'<?xml version="1.0"?>\n<!DOCTYPE deck [<!ENTITY a "aaaaaaaaaa">'
            b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n<deck><section name="Mage">'
            b'<card qty="1" id="x">&b;</card></section></deck>')
    _, diags = check(None, name="t.o8d", data=bomb)
    assert "B001" in codes(diags)


def test_B002_bad_count(check):
    _, diags = check("mage: Beastmaster\n0 Timber Wolf\n")
    at(only(diags, "B002"), 2, 1)


def test_B002_unknown_heading(check):
    _, diags = check("mage: Beastmaster\ntitle: wolves\n")
    d = only(diags, "B002")
    at(d, 2, 1)
    assert "'mage:'" in d.hint


def test_B002_mage_line_after_spells(check):
    _, diags = check("3 Timber Wolf\nmage: Beastmaster\n")
    d = only(diags, "B002")
    at(d, 2, 7)


def test_B003_unknown_card_with_did_you_mean(check):
    _, diags = check("mage: Beastmaster\n2 Timber Wolff\n")
    d = only(diags, "B003")
    at(d, 2, 3)
    assert (d.span.end_col - d.span.col) == len("Timber Wolff")
    assert "Timber Wolf" in d.hint


def test_B004_no_mage(check):
    _, diags = check("3 Timber Wolf\n")
    at(only(diags, "B004"), 1, 1)


def test_B004_heading_names_a_spell(check):
    _, diags = check("mage: Timber Wolf\n")
    d = only(diags, "B004")
    at(d, 1, 7)
    assert "not a Mage" in d.message


def test_B005_approximate_octgn_name_is_a_warning(check):
    data = (b'<deck><section name="Mage"><card qty="1" id="a">Wizard(Air)</card>'
            b'<card qty="1" id="b">Wizard stats</card></section><section name="Conjuration">'
            b'<card qty="1" id="c">Mana Syphon</card></section></deck>')
    book, diags = check(None, name="t.o8d", data=data)
    assert [d.code for d in diags] == ["B005", "B005"]
    assert all(d.severity == "warning" for d in diags)
    assert book.mage.name == "Wizard" and [c.name for c, _ in book.cards] == ["Mana Siphon"]
    assert diags[0].span.col == data.index(b"<card") + 1


def test_B006_card_listed_twice_counts_are_added(check):
    book, diags = check("mage: Beastmaster\n1 Timber Wolf\n2 Timber Wolf\n")
    d = only(diags, "B006")
    assert d.severity == "warning"
    at(d, 3, 3)
    assert book.cards[0][1] == 3


def test_B007_mage_card_among_spells(check):
    _, diags = check("mage: Beastmaster\n1 Wizard Stats\n")
    at(only(diags, "B007"), 2, 3)


def test_B008_stats_of_another_mage(check):
    _, diags = check("mage: Beastmaster\nstats: Wizard Stats\n")
    at(only(diags, "B008"), 2, 8)


def test_B101_over_the_points(check):
    # Timber Wolf: Nature 2, trained for the Beastmaster: 2 points a copy; 61 copies = 122 > 120
    _, diags = check("mage: Beastmaster\n61 Timber Wolf\n")
    d = only(diags, "B101")
    at(d, 1, 7)
    assert "122" in d.message and "120" in d.message
    _, diags = check("mage: Beastmaster\n60 Timber Wolf\n")
    assert diags == []


def test_B102_two_copies_of_an_epic_spell(check):
    _, diags = check("mage: Necromancer\n1 Deathlock\n2 Unholy Resurgence\n")
    d = only(diags, "B102")
    at(d, 3, 3)
    assert "Epic" in d.message


def test_B103_class_restriction(check):
    # supplement ruling R.equip.priestess-staff-of-beasts: the Priestess may not use Staff of Beasts
    _, diags = check("mage: Priestess\n1 Staff of Beasts\n")
    d = only(diags, "B103")
    at(d, 2, 3)
    assert "Beastmaster Only" in d.message


def test_B103_school_restriction(check):
    _, diags = check("mage: Priestess\n1 Drain Life\n")
    assert "Dark Mage Only" in only(diags, "B103").message
    _, diags = check("mage: Necromancer\n1 Drain Life\n")
    assert diags == []


def test_B104_unreadable_spellbook_rule_is_refused(tmp_path):
    from magewars.dsl import compile_paths
    from magewars.spellbook import load_spellbook, validate
    src = tmp_path / "tester.mw"
    src.write_text(
        'mage "Tester" {\n  printed "Mages"\n  subtypes Mage\n}\n'
        'magestats "Tester Stats" {\n  printed "Mages"\n  subtypes Mage\n  armor 0\n  life 20\n'
        '  channeling 9\n  spellbook 100\n  mana -10\n  training Nature\n  school cost Nature 1\n'
        '  static spellbook_cost(target creature spells, 1)\n}\n'
        'creature "Test Cub" {\n  printed "Core"\n  subtypes Animal\n  school Nature 1\n  cost 5\n'
        '  cast full\n  range 0-0\n  targets zone\n  armor 0\n  life 5\n}\n', encoding="utf-8")
    corpus, diags = compile_paths([src])
    assert not [d for d in diags if d.severity == "error"], [d.format() for d in diags]
    p = tmp_path / "t.book"
    p.write_text("mage: Tester\n2 Test Cub\n", encoding="utf-8")
    d = only(validate(load_spellbook(p, corpus=corpus)), "B104")
    assert "target" in d.message
    at(d, 2, 3)
