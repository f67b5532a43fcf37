"""The shared fuzzy matcher: ranked, cut to the best few, and the only one in the package."""
from pathlib import Path

from magewars.dsl import load_corpus
from magewars.matching import closest, did_you_mean, ranked

PKG = Path(__file__).resolve().parents[1] / "magewars"


def test_typo_in_a_shipped_card_name_finds_it_first():
    names = list(load_corpus().cards)
    name = next(n for n in names if len(n) > 10)
    typo = name[:3] + name[4] + name[3] + name[5:]  # swap two letters
    assert closest(typo, names)[0] == name


def test_results_are_cut_to_the_best_few():
    words = [f"target{i}" for i in range(100)] + ["target"]
    got = ranked("targte", words)
    assert 1 <= len(got) <= 3
    assert got == sorted(got, key=lambda p: -p[1])


def test_nothing_close_gives_no_hint():
    assert did_you_mean("zzzzqqq", ["armor", "life"]) is None
    assert did_you_mean("armr", ["armor", "life"]) == "did you mean 'armor'?"


def test_no_difflib_anywhere_in_the_package():
    users = [p for p in PKG.rglob("*.py") if "difflib" in p.read_text(encoding="utf-8")]
    assert users == []
