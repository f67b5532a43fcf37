"""The compiled corpus stored record by record (magewars/corpusstore.py).

Every test runs on the shipped codex and cards: the corpus read back from the store, decoded
on use, must be the compiled corpus, answer every read command as the compiled one does, and
never turn a damaged entry into a traceback.
"""
from __future__ import annotations

import pytest

from magewars import cache, corpusstore
from magewars.dsl import _codec, compile_paths
from magewars.resources import shipped_sources


@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    """(compiled corpus, the same read back from the store), the cache in a folder of its own."""
    mp = pytest.MonkeyPatch()
    mp.setenv("MAGEWARS_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    mp.delenv("MAGEWARS_NO_CACHE", raising=False)
    try:
        eager, d1 = compile_paths(shipped_sources(), with_codex=False)  # compiled and stored
        stored, d2 = compile_paths(shipped_sources(), with_codex=False)  # read back
    finally:
        mp.undo()
    assert isinstance(stored.cards, corpusstore.LazyRecords)  # the test below tests the store
    assert not isinstance(eager.cards, corpusstore.LazyRecords)
    assert [d.format() for d in d2] == [d.format() for d in d1]
    return eager, stored


def _raw_left(m) -> int:
    return sum(type(v) is corpusstore._Raw for v in m._items.values())


def test_the_stored_corpus_is_the_compiled_one(corpora):
    eager, stored = corpora
    assert list(stored.cards) == list(eager.cards) and list(stored.codex) == list(eager.codex)
    assert len(stored.cards) == len(eager.cards) and len(stored.selectors) == len(eager.selectors)
    for name in eager.codex:
        assert stored.codex[name] == eager.codex[name]
    for name in eager.cards:
        assert name in stored.cards
        assert stored.cards[name] == eager.cards[name]
    assert "no such card" not in stored.cards and stored.cards.get("no such card") is None


def test_a_card_read_decodes_that_card_only(tmp_path, monkeypatch):
    monkeypatch.setenv("MAGEWARS_CACHE_DIR", str(tmp_path))
    compile_paths(shipped_sources(), with_codex=False)
    stored, _ = compile_paths(shipped_sources(), with_codex=False)
    total = len(stored.cards)
    assert _raw_left(stored.cards) == total
    name = list(stored.cards)[total // 2]
    first = stored.cards[name]
    assert stored.cards[name] is first  # decoded once
    assert _raw_left(stored.cards) == total - 1
    list(stored.cards.values())
    assert _raw_left(stored.cards) == 0


def test_selectors_answer_as_the_compiled_dict(corpora):
    eager, stored = corpora
    for phrase, sel in eager.selectors.items():
        assert stored.selectors.get(phrase) == sel
        assert phrase in stored.selectors
    some = next(iter(eager.selectors))
    other = type(some)(some.words[:-1] + some.words[:1] * 3)  # words no phrase of the corpus has
    if other not in eager.selectors:
        assert stored.selectors.get(other) is None and other not in stored.selectors
    assert stored.selectors.get("not a phrase") is None
    assert dict(stored.selectors) == eager.selectors
    assert list(stored.selectors) == list(eager.selectors)


def test_card_summaries_are_what_the_definitions_give(corpora):
    eager, stored = corpora
    assert corpusstore.printings(stored) == corpusstore.printings(eager)
    assert list(corpusstore.terms(stored)) == list(corpusstore.terms(eager))
    assert corpusstore.printings(eager) == {c.name: corpusstore.card_printing(c) for c in eager.cards.values()}


def test_read_pages_are_the_same_from_the_store(corpora):
    """lookup and card pages (text and JSON) from the stored corpus equal the compiled corpus's,
    for every codex entry and a spread of cards."""
    from magewars.pages import lookup_page, search_page
    from magewars.render import card_to_json, render_card
    eager, stored = corpora
    queries = list(eager.codex) + list(eager.cards)[::25]
    for q in queries:
        assert lookup_page(q, stored) == lookup_page(q, eager), q
    for name in list(eager.cards)[::25]:
        assert render_card(stored.cards[name], stored) == render_card(eager.cards[name], eager)
        assert card_to_json(stored.cards[name]) == card_to_json(eager.cards[name])
    word = next(iter(eager.codex)).split()[0].lower()
    assert search_page(word, stored) == search_page(word, eager)


def test_odds_are_the_same_from_the_store(corpora):
    from magewars.odds import OddsError, odds, render_json
    eager, stored = corpora

    def report(corpus, a, d):
        try:
            return render_json(odds(corpus, a, d))
        except OddsError as e:  # a refused attack is refused the same way
            return str(e)

    creatures = [n for n, c in eager.cards.items() if c.kind == "creature" and c.attacks][::40]
    assert len(creatures) >= 4
    answered = 0
    for a, d in zip(creatures, reversed(creatures)):
        got = report(stored, a, d)
        assert got == report(eager, a, d)
        answered += isinstance(got, dict)
    assert answered  # some of them were real odds


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "empty"])
def test_a_damaged_store_is_compiled_again(tmp_path, monkeypatch, damage):
    monkeypatch.setenv("MAGEWARS_CACHE_DIR", str(tmp_path))
    first, d1 = compile_paths(shipped_sources(), with_codex=False)
    entries = list((tmp_path / f"v{cache.FORMAT}" / "compiled").iterdir())
    assert entries
    for e in entries:
        blob = e.read_bytes()
        if damage == "truncate":
            blob = blob[: len(blob) // 3]
        elif damage == "flip":
            blob = blob[:-100] + bytes([blob[-100] ^ 0xFF]) + blob[-99:]
        elif damage == "garbage":
            blob = b"MWC1" + b"\x07" * 500
        else:
            blob = b""
        e.write_bytes(blob)
    again, d2 = compile_paths(shipped_sources(), with_codex=False)
    assert not isinstance(again.cards, corpusstore.LazyRecords)  # compiled, not read
    assert again.cards == first.cards and [d.format() for d in d2] == [d.format() for d in d1]
    third, _ = compile_paths(shipped_sources(), with_codex=False)  # and stored again, whole
    assert isinstance(third.cards, corpusstore.LazyRecords) and third.cards == first.cards


def test_a_record_that_cannot_be_decoded_gives_the_compiled_value(tmp_path, monkeypatch):
    """A record that passed the entry's checksum but does not decode (a bug, not damage) removes
    the entry; the value comes from compiling again, and so does every later read."""
    monkeypatch.setenv("MAGEWARS_CACHE_DIR", str(tmp_path))
    first, _ = compile_paths(shipped_sources(), with_codex=False)
    stored, _ = compile_paths(shipped_sources(), with_codex=False)
    names = list(stored.cards)
    stored.cards._items[names[0]] = corpusstore._Raw(b"\xc1")  # never valid msgpack
    stored.codex._items[next(iter(stored.codex))] = corpusstore._Raw(b"\x93\x01")  # an untagged list
    assert stored.cards[names[0]] == first.cards[names[0]]
    assert not list((tmp_path / f"v{cache.FORMAT}" / "compiled").iterdir())  # the entry is gone
    assert stored.cards[names[1]] == first.cards[names[1]]
    assert dict(stored.codex) == first.codex
    assert stored.cards.summaries is None and list(corpusstore.terms(stored)) == list(corpusstore.terms(first))


def test_entries_of_another_shape_are_misses(tmp_path, monkeypatch):
    monkeypatch.setenv("MAGEWARS_CACHE_DIR", str(tmp_path))
    fmt = corpusstore._STORE_FORMAT
    for doc in ([], [99, [], [], [], [], b""], [fmt, [["a", "not bytes"]], [], [], [], b""],
                [fmt, [], [], [], [], b"\xc1"], [fmt - 1, [], [], [], [], corpusstore.diagnostics_codec().dumps_record([])]):
        assert cache.put("compiled", "k", doc, None)
        assert corpusstore.load("compiled", "k", _codec, lambda: None) is None
        assert not list((tmp_path / f"v{cache.FORMAT}" / "compiled").iterdir())


def test_a_stored_corpus_pickles_and_copies_as_plain_dicts(corpora):
    import copy
    import pickle
    eager, stored = corpora
    back = pickle.loads(pickle.dumps(stored))
    assert type(back.cards) is dict and back.cards == eager.cards and back.selectors == eager.selectors
    assert copy.deepcopy(stored).codex == eager.codex
    blob = _codec().dumps(stored, "k")  # the codec writes it as the corpus it stands for
    assert _codec().loads(blob, "k").cards == eager.cards
