"""A game's codex table (Game.codex): the corpus's entries, copied, knowing whether anything was written
into it since, so that what is worked out from a corpus's entries once (its codex listeners, the entries of
its abilities, its names by nature, what its statements are about) is shared only by the games whose
codex is still that copy."""
from __future__ import annotations


def copy_of(codex, source) -> bool:
    """Is a game's codex the unchanged copy of its corpus's (CodexTable.copy_of)?  A codex put in its
    place that is not a CodexTable is taken as changed."""
    # (CodexTable.copy_of, read here: the game's codex is asked at every shared reading, and a lookup of the
    # method and a second call cost more than the answer)
    return codex.__class__ is CodexTable and codex.source is source and not codex.written


class CodexTable(dict):
    """A game's codex: a copy of its corpus's entries (Game.__init__) that knows whether anything was
    written into it since.  Answers kept per corpus (its codex listeners, the entries of its abilities,
    its names by nature) are shared by the games whose codex is still that copy (`copy_of`); a game given
    another entry (a scenario's homebrew entry, a test's changed one) works out its own.  Reads are a
    dict's; every way of writing marks it written.  (The corpus's own table is not changed once its games
    are made: the compiler and the scenario loader fill it before.)"""
    __slots__ = ("source", "written")

    def __init__(self, entries, source) -> None:
        dict.__init__(self, entries)
        self.source = source
        self.written = False

    def copy_of(self, source) -> bool:
        """Is this, unchanged, the copy of `source` it was made as?"""
        return self.source is source and not self.written

    def __setitem__(self, key, value) -> None:
        self.written = True
        dict.__setitem__(self, key, value)

    def __delitem__(self, key) -> None:
        self.written = True
        dict.__delitem__(self, key)

    def __ior__(self, other):
        self.written = True
        return dict.__ior__(self, other)

    def pop(self, *args):
        self.written = True
        return dict.pop(self, *args)

    def popitem(self):
        self.written = True
        return dict.popitem(self)

    def setdefault(self, key, default=None):
        if key not in self:
            self.written = True
        return dict.setdefault(self, key, default)

    def update(self, *args, **kwargs) -> None:
        self.written = True
        dict.update(self, *args, **kwargs)

    def clear(self) -> None:
        self.written = True
        dict.clear(self)
