"""The one fuzzy matcher every command uses for "did you mean" and close-name searches.

Built on rapidfuzz.  Matching is case-insensitive and ignores punctuation; results
are ranked best first and cut to the best few, so no message lists dozens of names.

    from magewars.matching import closest, did_you_mean
    closest("bear strenght", card_names)        # -> the card named Bear Strength
    did_you_mean("armr", ["armor", "life"])     # -> "did you mean 'armor'?"
"""
from __future__ import annotations

from typing import Iterable, Optional


# Scores are 0..100.  A name must reach CUTOFF to be offered at all; names
# more than SPREAD points behind the best one are dropped (they only add noise).
CUTOFF = 60.0
SPREAD = 12.0
LIMIT = 3


def _scorer(query: str, choice: str, **kw) -> float:
    """Plain edit-distance similarity, or whole-word similarity for multi-word names,
    whichever is higher: "strenght bear" still finds the card named Bear Strength."""
    fuzz = _rapidfuzz()[0]
    return max(fuzz.ratio(query, choice, **kw), fuzz.token_sort_ratio(query, choice, **kw))


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
    """(choice, score) pairs for the choices closest to query, best first.

    Duplicate choices (same text ignoring case) count once; the original spelling is returned.
    """
    seen: dict[str, str] = {}
    for c in choices:
        seen.setdefault(c.lower(), c)
    if not seen or not query.strip():
        return []
    _, process, utils = _rapidfuzz()
    found = process.extract(query, list(seen.values()), scorer=_scorer, processor=utils.default_process,
                            limit=limit, score_cutoff=cutoff)
    if not found:
        return []
    best = found[0][1]
    return [(name, score) for name, score, _ in found if score >= best - spread]


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
