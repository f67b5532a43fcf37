"""Card names as people and other tools write them -> the corpus's card definitions."""
from __future__ import annotations

from ..matching import closest, ranked
import re
from typing import Optional

from ..dsl.model import Corpus

_PAREN = re.compile(r"^(?P<base>.+?)\s*\((?P<qual>[^()]+)\)(?P<rest>.*)$")


def normalize(name: str) -> str:
    """Lower case, '&' read as 'and', everything but letters and digits dropped."""
    return re.sub(r"[^a-z0-9]", "", name.lower().replace("&", "and"))


class NameIndex:
    """Looks names up exactly, then loosely (case, punctuation), then approximately."""

    def __init__(self, corpus: Corpus):
        self.corpus = corpus
        self.by_norm: dict[str, str] = {}
        for n in corpus.cards:
            self.by_norm.setdefault(normalize(n), n)

    def exact(self, name: str) -> Optional[str]:
        """The card's name if `name` spells it up to case, spaces and punctuation."""
        if name in self.corpus.cards:
            return name
        return self.by_norm.get(normalize(name))

    def approximate(self, name: str) -> Optional[str]:
        """A loose reading for other tools' spellings: a parenthesised qualifier moved to the front
        (a class with its qualifier in brackets names the qualified Mage), then one clearly closest name."""
        m = _PAREN.match(name)
        if m:  # "Beastmaster (Johktari)" names the Johktari Beastmaster; "Wizard(Air)" the Wizard
            got = self.exact(f"{m['qual']} {m['base']}{m['rest']}") or self.exact(f"{m['base']}{m['rest']}")
            if got:
                return got
        key = normalize(name)
        if not key:
            return None
        close = ranked(key, list(self.by_norm), limit=2, cutoff=85.0)
        if len(close) == 1 or (len(close) == 2 and close[0][1] > close[1][1]):
            return self.by_norm[close[0][0]]
        return None

    def suggest(self, name: str) -> Optional[str]:
        close = closest(normalize(name), list(self.by_norm), limit=3)
        if not close:
            return None
        return "did you mean " + " or ".join(f"'{self.by_norm[c]}'" for c in close) + "?"


_INDEXES: dict[int, NameIndex] = {}


def index_for(corpus: Corpus) -> NameIndex:
    """The name index of a corpus, built once per corpus object."""
    idx = _INDEXES.get(id(corpus))
    if idx is None or idx.corpus is not corpus:
        if len(_INDEXES) > 8:
            _INDEXES.clear()
        idx = _INDEXES[id(corpus)] = NameIndex(corpus)
    return idx
