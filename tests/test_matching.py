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


def _ranked_one_by_one(query, choices, *, limit=3, cutoff=60.0, spread=12.0):
    """The score asked of rapidfuzz a choice at a time through a Python scorer (the matcher as it was
    first written): ranked must give exactly this, its own two native passes notwithstanding."""
    from rapidfuzz import fuzz, process, utils

    def scorer(q, c, **kw):
        return max(fuzz.ratio(q, c, **kw), fuzz.token_sort_ratio(q, c, **kw))
    seen = {}
    for c in choices:
        seen.setdefault(c.lower(), c)
    if not seen or not query.strip():
        return []
    found = process.extract(query, list(seen.values()), scorer=scorer, processor=utils.default_process,
                            limit=limit, score_cutoff=cutoff)
    if not found:
        return []
    best = found[0][1]
    return [(name, score) for name, score, _ in found if score >= best - spread]


def test_ranked_equals_the_one_choice_at_a_time_scorer_on_the_shipped_names():
    import random
    from magewars.lookup import load_rules
    rng = random.Random(12)
    names = list(load_corpus().cards)
    labels = list(load_rules()._labels(None))
    queries = []
    for n in rng.sample(names, 25) + rng.sample(labels, 25):
        w = n.lower()
        i = rng.randrange(len(w))
        queries += [w, w[:i] + w[i + 1:], w[:i] + "x" + w[i:], " ".join(reversed(w.split())), w[: max(3, len(w) // 2)]]
    queries += ["guard", "flying", "bear strenght", "strenght bear", "burn", "", "  ", "?!", "zzzz"]
    for choices in (names, labels, names + labels + [n.upper() for n in names[:50]]):
        for q in queries:
            for kw in ({}, {"limit": 2, "cutoff": 85, "spread": 0}, {"limit": 6, "cutoff": 50}):
                assert ranked(q, choices, **kw) == _ranked_one_by_one(q, choices, **kw), (q, kw)
