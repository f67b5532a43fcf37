"""The one fuzzy matcher every command uses for "did you mean" and close-name searches.

Built on rapidfuzz.  Matching is case-insensitive and ignores punctuation; results
are ranked best first and cut to the best few, so no message lists dozens of names.

    from magewars.matching import closest, did_you_mean
    closest("bear strenght", card_names)        # -> the card named Bear Strength
    did_you_mean("armr", ["armor", "life"])     # -> "did you mean 'armor'?"
"""
from __future__ import annotations

import functools
from typing import Iterable, Optional


# Scores are 0..100.  A name must reach CUTOFF to be offered at all; names
# more than SPREAD points behind the best one are dropped (they only add noise).
CUTOFF = 60.0
SPREAD = 12.0
LIMIT = 3


_RF: tuple = ()


def _rapidfuzz() -> tuple:
    """rapidfuzz's modules, imported when a match is first asked for (commands start faster)."""
    global _RF
    if not _RF:
        from rapidfuzz import fuzz, process, utils
        _RF = (fuzz, process, utils)
    return _RF


def ranked(query: str, choices: Iterable[str], *, limit: int = LIMIT, cutoff: float = CUTOFF,
           spread: float = SPREAD) -> list[tuple[str, float]]:
    """(choice, score) pairs for the choices closest to query, best first (ties in the choices' order).

    A choice's score is its plain edit-distance similarity to the query or its whole-word similarity
    (the words sorted), whichever is higher: "strenght bear" still finds the card named Bear Strength.
    Both are rapidfuzz's own loops over the choices, each choice prepared once for a list met again.
    Duplicate choices (same text ignoring case) count once; the original spelling is returned.
    """
    names, prepared = _prepared(tuple(choices))
    if not names or not query.strip():
        return []
    fuzz, process, utils = _rapidfuzz()
    q = utils.default_process(query)
    best: dict[int, float] = {}
    for scorer in (fuzz.ratio, fuzz.token_sort_ratio):
        for _, score, i in process.extract(q, prepared, scorer=scorer, processor=None, limit=None,
                                           score_cutoff=cutoff):
            if score > best.get(i, -1.0):
                best[i] = score
    if not best:
        return []
    found = sorted(best.items(), key=lambda item: (-item[1], item[0]))[:limit]
    top = found[0][1]
    return [(names[i], score) for i, score in found if score >= top - spread]


@functools.lru_cache(maxsize=16)
def _prepared(choices: tuple) -> tuple[list[str], list[str]]:
    """The choices without case duplicates (the first spelling kept), and each as the matcher reads
    it (lower case, punctuation as spaces): made once for a list of names asked about again (a
    question's every group of words is matched against the same 1,300 names)."""
    seen: dict[str, str] = {}
    for c in choices:
        seen.setdefault(c.lower(), c)
    names = list(seen.values())
    if not names:
        return [], []
    utils = _rapidfuzz()[2]
    return names, [utils.default_process(c) for c in names]


def closest(query: str, choices: Iterable[str], *, limit: int = LIMIT, cutoff: float = CUTOFF) -> list[str]:
    """The names closest to query, best first, at most `limit` of them."""
    return [name for name, _ in ranked(query, choices, limit=limit, cutoff=cutoff)]


def did_you_mean(word: str, choices: Iterable[str], *, limit: int = LIMIT,
                 cutoff: float = CUTOFF) -> Optional[str]:
    """A 'did you mean' hint naming the best few choices, or None."""
    got = closest(word, choices, limit=limit, cutoff=cutoff)
    if not got:
        return None
    return "did you mean " + " or ".join(f"'{g}'" for g in got) + "?"
