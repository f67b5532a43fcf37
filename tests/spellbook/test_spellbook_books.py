"""The shipped spellbooks and the official OCTGN decks they came from."""
import pytest

from magewars.spellbook import SpellbookNotFound, load_spellbook, shipped_books, validate
from magewars.spellbook.report import summary, to_text

OFFICIAL = "spellbooks/octgn-official"


def test_at_least_six_shipped_books_for_different_mages(corpus):
    books = shipped_books()
    mages = {load_spellbook(p, corpus=corpus).mage.name for p in books.values()}
    assert len(books) >= 6 and len(mages) >= 6, mages


@pytest.mark.parametrize("name", sorted(shipped_books()))
def test_every_shipped_book_is_legal_and_complete(corpus, name):
    book = load_spellbook(name, corpus=corpus)
    diags = validate(book)
    assert diags == [], [d.format(with_source=False) for d in diags]
    s = summary(book)
    assert 0 < s["points"] <= s["limit"]
    assert s["spells"] >= 40  # a real book, not a sketch
    # the API a game starts from: the mage, its stats card, definitions with counts
    assert book.mage.kind == "mage" and book.stats.kind == "magestats"
    assert all(card.schools and n >= 1 for card, n in book.cards)


def test_shipped_books_found_by_name_case_insensitively(corpus):
    assert load_spellbook("BeastMaster", corpus=corpus).mage.name == "Beastmaster"
    with pytest.raises(SpellbookNotFound) as exc:
        load_spellbook("beastmastr", corpus=corpus)
    assert "beastmaster" in str(exc.value)


def official(shared_dir):
    files = sorted((shared_dir / OFFICIAL).glob("*.o8d"))
    assert len(files) == 13
    return files


def ids_table(shared_dir):
    import json
    data = json.loads((shared_dir / "cards" / "octgn-ids.json").read_text(encoding="utf-8"))
    return {k: v["name"] for k, v in data["ids"].items()}


# What each official deck gives: the cards whose OCTGN label differs from the card its id names
# (warnings, located at the <card> tag; the one-line files have every tag on line 1).
EXPECTED = {
    "Beastmaster CoK Official.o8d": [("B005", 1, 128), ("B005", 1, 213)],
    "Warlock (Adramelech) Official.o8d": [("B005", 4, 5), ("B005", 5, 5)],
    "Warlock Official.o8d": [("B005", 1, 968)],
    "Warlord (Anvil Throne) Official.o8d": [("B005", 4, 5), ("B005", 5, 5)],
    "Warlord Official.o8d": [("B005", 1, 2454)],
    "Wizard Official.o8d": [("B005", 1, 128), ("B005", 1, 797)],
}
MAGES = {"Warlock (Adramelech) Official.o8d": "Adramelech Warlock",
         "Warlord (Anvil Throne) Official.o8d": "Anvil Throne Warlord",
         "Beastmaster CoK Official.o8d": "Johktari Beastmaster"}


def test_every_official_deck_imports_legal_with_the_expected_warnings(shared_dir, corpus):
    for f in official(shared_dir):
        book = load_spellbook(f, corpus=corpus)
        diags = validate(book)
        assert [(d.code, d.span.line, d.span.col) for d in diags] == EXPECTED.get(f.name, []), \
            (f.name, [d.format() for d in diags])
        assert all(d.severity == "warning" for d in diags)
        assert book.mage.name == MAGES.get(f.name, f.name.split()[0])
        assert summary(book)["points"] <= 120 and len(book.cards) > 20


def test_without_ids_the_labels_are_read_and_a_nameless_card_is_an_error(shared_dir, corpus):
    f = shared_dir / OFFICIAL / "Warlord Official.o8d"
    book = load_spellbook(f, corpus=corpus, ids={})
    diags = validate(book)
    assert [(d.code, d.span.col) for d in diags] == [("B003", 2048), ("B005", 2454)]
    assert "b705917e-892a-41b4-9d04-62058197083e" in diags[0].message
    # the labels alone name plain Warlock for the Adramelech deck: only the ids tell them apart
    f = shared_dir / OFFICIAL / "Warlock (Adramelech) Official.o8d"
    assert load_spellbook(f, corpus=corpus, ids={}).mage.name == "Warlock"


def test_packaged_id_table_is_the_reference_table(shared_dir):
    from magewars.spellbook.reader import octgn_ids
    assert octgn_ids() == ids_table(shared_dir)


def test_shipped_books_are_the_official_decks(shared_dir, corpus):
    """Each shipped book holds the same cards as the official deck it was converted from."""
    pairs = {"beastmaster": "Beastmaster Offical.o8d", "wizard": "Wizard Official.o8d",
             "warlord": "Warlord Official.o8d", "johktari-beastmaster": "Beastmaster CoK Official.o8d",
             "adramelech-warlock": "Warlock (Adramelech) Official.o8d"}
    for name, deck in pairs.items():
        a = load_spellbook(name, corpus=corpus)
        b = load_spellbook(shared_dir / OFFICIAL / deck, corpus=corpus)
        assert (a.mage, a.stats) == (b.mage, b.stats)
        assert sorted((c.name, n) for c, n in a.cards) == sorted((c.name, n) for c, n in b.cards)


def test_text_round_trip(tmp_path, corpus):
    book = load_spellbook("druid", corpus=corpus)
    p = tmp_path / "again.book"
    p.write_text(to_text(book, title="copy"), encoding="utf-8")
    again = load_spellbook(p, corpus=corpus)
    assert validate(again) == []
    assert again.cards == book.cards and again.mage is book.mage
