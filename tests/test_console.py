"""The command line's tables: laid out without rich where the layout is simple, and then exactly as rich
lays them out (magewars/console.py: `_plain_layout`); on random tables and on the pages the tools print."""
import random

import pytest
from click.testing import CliRunner

from magewars import console
from magewars.cli import main


def _by_rich(table, width=100) -> str:
    """What table_text gives when rich lays the table out (given rich's own table, it asks rich)."""
    return console.table_text(table.rich(), width)


WORDS = ["0", "7", "12", "100.00%", " 18.29%", "", "Burn", "2 Burn, Daze", ">10", "rules-text-missing",
         "Illusory Cloak, Rewind", "█" * 40, "██▌", "d12", "P(at least)", "refused loudly: cannot", "a b  c ",
         "tests/scenarios/x.yaml", "fail", "passed", "-", "(no effect)", "x" * 70]


def test_the_plain_layout_is_richs_on_random_tables():
    rng = random.Random(11)
    plain = 0
    for _ in range(600):
        n = rng.randint(1, 5)
        columns = tuple(rng.choice(WORDS[:20]) for _ in range(n))
        title = rng.choice([None, None, "Effect die (d12), if the defender survives", "t", "x" * 90])
        right = {c for c in columns if rng.random() < 0.5}
        t = console.make_table(*columns, title=title, right=right)
        for _ in range(rng.randint(0, 8)):
            t.add_row(*(rng.choice(WORDS) for _ in range(rng.randint(1, n))))
        width = rng.choice([20, 40, 80, 100, 160])
        got = console._plain_layout(t, width)
        if got is not None:
            plain += 1
            assert got == _by_rich(t, width), (columns, title, t.rows, width)
        assert console.table_text(t, width) == _by_rich(t, width)
    assert plain > 150  # a third and more are laid out without rich (the rest: too wide, a long title...)


@pytest.mark.parametrize("cell", ["[bold]x[/bold]", "a :smile: b", "tab\there", "line\nbreak", "漢字", "e\u0301"])
def test_what_rich_would_read_otherwise_is_left_to_rich(cell):
    t = console.make_table("a", "b")
    t.add_row(cell, "1")
    assert console._plain_layout(t, 100) is None
    assert console.table_text(t) == _by_rich(t)


@pytest.mark.parametrize("args", [
    ["odds", "Timber Wolf", "Iron Golem"],
    ["odds", "Steelclaw Grizzly", "Timber Wolf", "--defender-with", "Rhino Hide"],
    ["odds", "Lightning Bolt", "Timber Wolf"],
    ["odds", "Darkfenne Hydra", "Knight of Westlock", "--attack", "Triple Bite"],
    ["coverage"],
])
def test_the_pages_are_those_rich_lays_out(args, monkeypatch):
    runner = CliRunner()
    mine = runner.invoke(main, args)
    assert mine.exit_code == 0, mine.output
    monkeypatch.setattr(console, "_plain_layout", lambda table, width: None)  # every table through rich
    theirs = runner.invoke(main, args)
    assert mine.output == theirs.output
