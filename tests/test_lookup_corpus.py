"""Every codex entry and every card of the shipped corpus resolves through `magewars lookup`."""
import pytest

from magewars.dsl import load_corpus
from magewars.lookup import load_rules


@pytest.fixture(scope="module")
def world():
    corpus = load_corpus()
    names = {c.name: (next((cid for _, cid in c.printings if cid), "") or c.name) for c in corpus.cards.values()}
    return corpus, load_rules(), names


def test_every_codex_entry_resolves(world):
    corpus, book, names = world
    missing = [d.name for d in corpus.codex.values()
               if book.lookup(d.display, names).kind == "none" and book.lookup(d.name, names).kind == "none"]
    assert not missing, missing


def test_every_card_resolves_to_itself(world):
    corpus, book, names = world
    wrong = []
    for name in corpus.cards:
        r = book.lookup(name, names)
        if not any(e.name == name for e in r.entries):
            wrong.append((name, r.kind))
    assert not wrong, wrong[:20]


def test_term_page_lists_cards_with_the_trait():
    from magewars.pages import lookup_page
    text, data, code = lookup_page("aegis", load_corpus())
    assert code == 0
    assert "Guardian Angel" in data["entries"][0]["cards"]
    assert "Cards with Aegis X" in text
