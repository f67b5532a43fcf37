import pytest


@pytest.fixture
def check(tmp_path, corpus):
    """Write a small spellbook file and return (book, diagnostics)."""
    from magewars.spellbook import load_spellbook, validate

    def run(text, name="t.book", data=None):
        p = tmp_path / name
        if data is not None:
            p.write_bytes(data)
        else:
            p.write_text(text, encoding="utf-8")
        book = load_spellbook(p, corpus=corpus)
        return book, validate(book)
    return run
