"""Bad input gives diagnostics, never an exception, in bounded time."""
from hypothesis import HealthCheck, given, settings, strategies as st

from magewars.dsl.diagnostics import CODES
from magewars.spellbook import validate
from magewars.spellbook.reader import read_o8d, read_text

LINES = st.lists(st.one_of(
    st.text(max_size=40),
    st.sampled_from(["mage: Druid", "stats: Druid Stats", "mage:", "3 Timber Wolf", "0 Dispel",
                     "999999999999 Heal", "x Timber Wolf", "# note", "Druid", "2x Druid Stats"]),
), max_size=12)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(LINES)
def test_any_text_gives_only_located_diagnostics(corpus, lines):
    book = read_text("\n".join(lines), "f.book", corpus)
    for d in validate(book):
        assert d.code in CODES and d.span.path == "f.book" and d.span.line >= 1 and d.span.col >= 1


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.binary(max_size=300), st.text(max_size=300).map(lambda s: s.encode()),
                 st.lists(st.sampled_from(['<deck>', '</deck>', '<section name="Mage">', '</section>',
                                           '<card qty="1" id="z">Druid</card>', '<card qty="-1">Heal</card>',
                                           '<card>', '&amp;', '<!DOCTYPE x>', '<?xml version="1.0"?>']),
                          max_size=10).map(lambda xs: "".join(xs).encode())))
def test_any_bytes_as_o8d_give_only_located_diagnostics(corpus, data):
    book = read_o8d(data, "f.o8d", corpus, ids={})
    for d in validate(book):
        assert d.code in CODES and d.span.path == "f.o8d"


def test_mage_line_may_name_the_stats_card(check):
    book, diags = check("mage: Johktari Beastmaster Stats\n1 Staff of Beasts\n")
    assert diags == [] and book.mage.name == "Johktari Beastmaster"


def test_too_many_lines_is_bounded(check):
    from magewars.spellbook.model import MAX_ENTRIES
    _, diags = check("mage: Druid\n" + "1 Timber Wolf\n" * (MAX_ENTRIES + 5))
    # the repeats are merged (warnings), so the book stays small; the line limit is still enforced
    assert any(d.code == "B002" and "too many" in d.message for d in diags)


def test_long_lines_are_refused_before_any_pattern_runs(check):
    _, diags = check("mage: Druid\n" + "a" + " " * 250_000 + "b\n" + "1" * 200_000 + "\n")
    assert [(d.code, d.span.line) for d in diags] == [("B002", 2), ("B002", 3)]
