"""Compiled corpora stored record by record, so a command decodes only what it reads.

`magewars lookup aegis` needs every card's name and printing id, which cards carry Aegis, and
nothing else; `magewars card "bear strength"` needs one card; `magewars lint one.mw` needs the
diagnostics.  Decoding a whole compiled corpus (629 cards, tens of thousands of objects) cost
more than everything else such a command does, so every compilation (`compiled` entries of
magewars/cache.py, written by `magewars.dsl.compile_sources`) is stored as:

- the card names and codex names, in the corpus's own order, each definition encoded as its own
  msgpack record and decoded on first access (:class:`LazyRecords`);
- every compiled phrase selector, indexed by the words of its phrase, decoded when that phrase is
  looked up (:class:`LazySelectors`);
- a summary of every card for the read commands (:func:`printings`, :func:`terms`), made by the
  same functions (:func:`card_printing`, :func:`card_terms`) that read an eager corpus;
- the diagnostics, decoded at once by a codec of their own two classes (:func:`diagnostics_codec`),
  so that a command that only reports them (`magewars lint FILE`) never builds the language's
  codec, nor imports the syntax tree and the definitions it registers.

The entry is framed like every other (magic, a checksum over the whole payload, format, schema,
key: :func:`magewars.cache.loads_raw`) and keyed as before, by the content of every input and of
the compiler.  A damaged entry is a miss (removed, compiled again).  A record that still fails to
decode (a bug, since the checksum held) removes the entry, and the value comes from compiling
again: the caller gets the same answer, never a traceback.  Copied or pickled, the mappings become
the plain dicts they stand for.
"""
from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any, Callable, Iterator, Optional

from . import cache

_STORE_FORMAT = 2  # 2: the diagnostics in their own small codec


# ---------------------------------------------------------------- summaries of a card
def card_printing(card) -> str:
    """The card's first printed id, or its name: how `magewars lookup` names a card."""
    return next((cid for _, cid in card.printings if cid), "") or card.name


def card_terms(card) -> tuple[frozenset, bool]:
    """The codex keys a card carries (its traits, its attacks' traits and alternatives, the
    outcomes of its effect dice) and whether any of its attacks is a zone attack."""
    keys = {t.key for t in card.traits}
    zone = False
    for a in card.attacks:
        keys.update(t.key for t in a.traits)
        keys.update(t.key for g in a.alternatives for t in g)
        keys.update(k for r in a.effect_die for k, _ in r.outcomes)
        zone = zone or bool(a.is_zone)
    return frozenset(keys), zone


def printings(corpus) -> dict[str, str]:
    """Card name -> :func:`card_printing`, for every card (from the summaries when stored)."""
    s = getattr(corpus.cards, "summaries", None)
    if s is not None:
        return {v[0]: v[1] for v in s.values()}
    return {c.name: card_printing(c) for c in corpus.cards.values()}


def terms(corpus) -> Iterator[tuple[str, frozenset, bool]]:
    """(card name, codex keys it carries, has a zone attack) for every card, in corpus order."""
    s = getattr(corpus.cards, "summaries", None)
    if s is not None:
        for v in s.values():
            yield v[0], v[2], v[3]
        return
    for c in corpus.cards.values():
        keys, zone = card_terms(c)
        yield c.name, keys, zone


# ---------------------------------------------------------------- lazy mappings
_MISS = object()


class _Raw:
    """A value still encoded."""
    __slots__ = ("blob",)

    def __init__(self, blob: bytes):
        self.blob = blob


class _Source:
    """What the lazy mappings of one stored corpus share: the codec (built when the first record
    is decoded), and the way back to a compiled corpus if a record cannot be decoded."""

    def __init__(self, codec: Callable[[], cache.Codec], kind: str, key: str, rebuild: Callable[[], Any]):
        self.codec, self.kind, self.key, self._rebuild, self._full = codec, kind, key, rebuild, None

    def decode(self, blob: bytes) -> Any:
        return self.codec().loads_record(blob)

    def full(self):
        """The corpus compiled again (once), after removing the entry that failed."""
        if self._full is None:
            cache.remove(self.kind, self.key)
            self._full = self._rebuild()
        return self._full


class LazyRecords(MutableMapping):
    """A name -> definition mapping whose values are decoded from their own record on first access.
    Keys, order, `in` and `len` cost nothing; iterating the values decodes them all."""

    def __init__(self, items: dict, source: _Source, field: str, summaries: Optional[dict] = None):
        self._items = items  # name -> _Raw | decoded value, in the corpus's order
        self._blobs = {n: v.blob for n, v in items.items() if type(v) is _Raw}  # as stored (see blob())
        self._source = source
        self._field = field
        self.summaries = summaries  # key -> (card name, printing, codex keys, zone); None for codex
        self._decoded = False  # every value known to be decoded (copy)

    def get(self, name, default=None):  # one frame, not Mapping.get's two (the engine asks often)
        v = self._items.get(name, _MISS)
        if v is _MISS:
            return default
        return self[name] if type(v) is _Raw else v

    def __getitem__(self, name):
        v = self._items[name]
        if type(v) is _Raw:
            try:
                v = self._source.decode(v.blob)
            except cache.CacheError:
                self._failed()
                return self._items[name]
            self._items[name] = v
        return v

    def blob(self, name) -> Optional[bytes]:
        """The record a definition was read from (what encoding it again would give: definitions
        are immutable), or None once it was replaced."""
        return self._blobs.get(name)

    def _failed(self) -> None:
        self._items = dict(getattr(self._source.full(), self._field))
        self._blobs = {}
        self.summaries = None  # the compiled corpus is read directly from now on

    def __setitem__(self, name, value) -> None:
        self._items[name] = value
        self._blobs.pop(name, None)
        self.summaries = None

    def __delitem__(self, name) -> None:
        del self._items[name]
        self._blobs.pop(name, None)
        self.summaries = None

    def __contains__(self, name) -> bool:
        return name in self._items

    def __iter__(self):
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"<{len(self._items)} {self._field} definitions, decoded on use>"

    def __reduce__(self):  # copied or pickled as the plain dict it stands for
        return dict, (dict(self),)

    def copy(self) -> dict:
        """Every definition, decoded, as a plain dict: what `dict(self)` gives, but once all are
        decoded at the speed of a dict's copy (every game copies the codex: engine/game.py)."""
        items = self._items
        if not self._decoded:
            for name, v in list(items.items()):
                if type(v) is _Raw:
                    self[name]
            self._decoded = self._items is items  # (a failed record replaces the table: look again)
        return dict(self._items)


def phrase_key(phrase) -> Optional[str]:
    """The words of a phrase (text and kind: what phrases compare by), or None for anything else."""
    words = getattr(phrase, "words", None)
    if type(words) is not tuple:
        return None
    try:
        return "\x1f".join(f"{w.kind}\x1e{w.text}" for w in words)
    except (AttributeError, TypeError):
        return None


class LazySelectors(Mapping):
    """The corpus's compiled selectors (phrase -> selector), each pair decoded when its phrase is
    looked up.  A phrase is found by the words it compares by (:func:`phrase_key`); the decoded key
    is then compared with the phrase asked for, so every answer is the eager dict's."""

    def __init__(self, blobs: list, index: dict, source: _Source):
        self._blobs = blobs  # [_Raw (phrase, selector)] in the compiled dict's order
        self._index = index  # phrase key -> [positions in _blobs]
        self._source = source
        self._pairs: dict = {}  # position -> decoded (phrase, selector)
        self._data: dict = {}  # decoded phrase -> selector
        self._all: Optional[dict] = None  # everything, in order, once asked for
        self._missing: set = set()  # phrases asked for and not there
        self.get = self._get  # the engine's way in (phrases.selector_of); a dict's own get once all are decoded

    def _get(self, phrase, default=None):
        hit = self._data.get(phrase, _MISS)
        if hit is not _MISS:
            return hit
        if phrase in self._missing:
            return default
        try:
            return self[phrase]
        except (KeyError, TypeError):
            if self._all is None:
                self._missing.add(phrase)  # an engine-built phrase: asked again on every use
            return default

    def _decode(self, i: int) -> None:
        if i in self._pairs:
            return
        pair = self._source.decode(self._blobs[i].blob)
        if type(pair) is not tuple or len(pair) != 2:
            raise cache.CacheError("a selector record is not a (phrase, selector) pair")
        self._pairs[i] = pair
        self._data[pair[0]] = pair[1]
        if len(self._pairs) == len(self._blobs):  # all decoded: a plain dict from now on
            self._everything()

    def _everything(self) -> dict:
        if self._all is None:
            try:
                for i in range(len(self._blobs)):
                    self._decode(i)
                self._all = dict(self._pairs[i] for i in range(len(self._blobs)))
            except (cache.CacheError, TypeError):
                self._all = dict(self._source.full().selectors)
            self.get = self._all.get
        return self._all

    def __getitem__(self, phrase):
        if self._all is not None:
            return self._all[phrase]
        k = phrase_key(phrase)
        if k is None:  # not a phrase of words: looked up among all of them, as a dict would
            return self._everything()[phrase]
        hit = self._data.get(phrase)
        if hit is not None:
            return hit
        try:
            for i in self._index.get(k, ()):
                self._decode(i)
        except cache.CacheError:
            self._all = dict(self._source.full().selectors)
            self.get = self._all.get
            return self._all[phrase]
        return self._data[phrase]

    def __contains__(self, phrase) -> bool:
        try:
            self[phrase]
        except KeyError:
            return False
        return True

    def __iter__(self):
        return iter(self._everything())

    def __len__(self) -> int:
        return len(self._all) if self._all is not None else len(self._blobs)

    def __reduce__(self):
        return dict, (dict(self._everything()),)

    def records(self) -> Optional[list]:
        """[[phrase key, record]] as stored, in order; None once they were replaced."""
        if self._all is not None and len(self._pairs) != len(self._blobs):
            return None  # (read again from a compiled corpus after a failure)
        keys = [None] * len(self._blobs)
        for k, positions in self._index.items():
            for i in positions:
                keys[i] = k
        return [[k, r.blob] for k, r in zip(keys, self._blobs)]


class ChainedSelectors(MutableMapping):
    """The compiled selectors of a check that started from a stored codex's (:func:`load_codex`):
    those (decoded when looked up), then the ones the check added, as the one dict a whole check
    would have made (the same keys, values and order)."""

    def __init__(self, base: LazySelectors):
        self.base = base
        self.added: dict = {}

    def get(self, phrase, default=None):
        hit = self.added.get(phrase, _MISS)
        if hit is not _MISS:
            return hit
        return self.base.get(phrase, default)

    def __getitem__(self, phrase):
        hit = self.added.get(phrase, _MISS)
        return self.base[phrase] if hit is _MISS else hit

    def __contains__(self, phrase) -> bool:
        return phrase in self.added or phrase in self.base

    def __setitem__(self, phrase, value) -> None:
        self.added[phrase] = value  # (a phrase of the base keeps its place: read from `added` first)

    def __delitem__(self, phrase) -> None:
        raise TypeError("a check's selectors are never removed")

    def __iter__(self):
        yield from self.base
        for p in self.added:
            if p not in self.base:
                yield p

    def __len__(self) -> int:
        return len(self.base) + sum(1 for p in self.added if p not in self.base)

    def __reduce__(self):
        return dict, (dict(self),)


# ---------------------------------------------------------------- store and load
_DIAG_CODEC: list = []


def diagnostics_codec() -> cache.Codec:
    """The codec of a stored compilation's diagnostics: a Diagnostic and its Span, nothing else."""
    if not _DIAG_CODEC:
        from .dsl.diagnostics import Diagnostic
        from .dsl.span import Span
        _DIAG_CODEC.append(cache.Codec([Diagnostic, Span]))
    return _DIAG_CODEC[0]


def save(kind: str, key: str, corpus, diags: list, codec: Callable[[], cache.Codec]) -> bool:
    """Store a compilation (its corpus record by record, its diagnostics whole).  False if it
    cannot be stored: the caller just goes on.  `codec()` gives the language's codec."""
    if not cache.enabled():
        return False
    doc = document(corpus, diags, codec)
    return doc is not None and cache.put(kind, key, doc, None)


def document(corpus, diags: list, codec: Callable[[], cache.Codec]) -> Optional[list]:
    """A compilation as the plain data :func:`save` stores (and magewars/prebuilt.py ships);
    None if something in it cannot be stored."""
    try:
        enc = codec().dumps_record
        cards = [[name, enc(d)] for name, d in corpus.cards.items()]
        codex = _records(corpus.codex, enc)
        selectors = _selector_records(corpus.selectors, enc)
        if selectors is None:
            return None  # a key this store cannot index
        found = diagnostics_codec().dumps_record(list(diags))
        return compiled_document(cards, summaries(corpus.cards.values()), codex, selectors, found)
    except (cache.CacheError, RecursionError, TypeError, ValueError, AttributeError):
        return None


def summaries(cards) -> list:
    """[[name, printing, sorted codex keys, zone attack?]] of card definitions, stored beside their
    records (what `lookup` reads of every card without decoding it)."""
    out = []
    for d in cards:
        keys, zone = card_terms(d)
        out.append([d.name, card_printing(d), sorted(keys), zone])
    return out


def valid_summaries(doc: Any) -> bool:
    """Are `doc` card summaries as :func:`summaries` makes them?"""
    return (type(doc) is list
            and all(type(s) is list and len(s) == 4 and type(s[0]) is str and type(s[1]) is str
                    and type(s[2]) is list and all(type(k) is str for k in s[2]) and type(s[3]) is bool
                    for s in doc))


def compiled_document(cards: list, card_summaries: list, codex: list, selectors: list, found: bytes) -> list:
    """The stored form of a compilation: its cards' records ([[name, record]]) and summaries, its
    codex's records, its selectors' ([[phrase key, record]], in order) and its diagnostics (one record);
    :func:`document` makes it from a corpus, magewars/dsl/__init__.py also from each file's own check."""
    return [_STORE_FORMAT, cards, card_summaries, codex, selectors, found]


def _records(defs, enc) -> list:
    """[[name, record]] of a name -> definition mapping, records read from the cache kept as read."""
    blob = getattr(defs, "blob", None)
    out = []
    for name in defs:
        b = blob(name) if blob is not None else None
        out.append([name, b if b is not None else enc(defs[name])])
    return out


def _selector_records(selectors, enc) -> Optional[list]:
    """[[phrase key, record of (phrase, selector)]] in order; None if a phrase has no key."""
    out, added = [], selectors
    if type(selectors) is ChainedSelectors:
        base = selectors.base.records()
        # (a stored phrase given another selector since: encode them all)
        if base is not None and not any(p in selectors.base for p in selectors.added):
            out, added = base, selectors.added
    for phrase, sel in added.items():
        k = phrase_key(phrase)
        if k is None:
            return None
        out.append([k, enc((phrase, sel))])
    return out


def valid_pairs(doc: Any) -> bool:
    """Is `doc` records as stored, by name or phrase key ([[str, bytes]])?"""
    return (type(doc) is list
            and all(type(p) is list and len(p) == 2 and type(p[0]) is str and type(p[1]) is bytes for p in doc))


def load(kind: str, key: str, codec: Callable[[], cache.Codec], rebuild: Callable[[], Any]):
    """(corpus, diagnostics) of a stored compilation, the corpus's definitions decoded on use (by
    `codec()`, asked for when the first one is); None on a miss (or a damaged entry, which is
    removed).  `rebuild()` compiles the corpus again if one of its records later fails to decode."""
    doc = cache.get(kind, key, None)
    if doc is None:
        return None
    return from_document(doc, kind, key, codec, rebuild)


def from_document(doc: Any, kind: str, key: str, codec: Callable[[], cache.Codec], rebuild: Callable[[], Any]):
    """:func:`load` of a document already read (the cache entry `kind/key`, which is removed if the
    document is not one :func:`document` could have made)."""
    ok = (type(doc) is list and len(doc) == 6 and doc[0] == _STORE_FORMAT
          and valid_pairs(doc[1]) and valid_pairs(doc[3]) and valid_pairs(doc[4]) and type(doc[5]) is bytes
          and type(doc[2]) is list and len(doc[2]) == len(doc[1]) and valid_summaries(doc[2]))
    diags = None
    if ok:
        try:
            diags = diagnostics_codec().loads_record(doc[5])
        except cache.CacheError:
            diags = None
    if type(diags) is not list:
        cache.remove(kind, key)
        return None
    _, cards, summaries, codex, selectors, _ = doc
    source = _Source(codec, kind, key, rebuild)
    index: dict = {}
    for i, (k, _) in enumerate(selectors):
        index.setdefault(k, []).append(i)
    from .dsl.corpus import Corpus
    corpus = Corpus(
        cards=LazyRecords({n: _Raw(b) for n, b in cards}, source, "cards",
                          {n: (s[0], s[1], frozenset(s[2]), s[3]) for (n, _), s in zip(cards, summaries)}),
        codex=LazyRecords({n: _Raw(b) for n, b in codex}, source, "codex"),
        selectors=LazySelectors([_Raw(b) for _, b in selectors], index, source))
    return corpus, diags


# ---------------------------------------------------------------- a codex's own check
# `magewars lint cards.mw` checks the file together with the shipped codex.  The codex's part of that
# check (its compiled definitions, the phrases it compiled, its diagnostics) depends only on the
# codex's files and on the names the check knows, so it is stored apart (`codex` entries, keyed by
# both: magewars/dsl/__init__.py) and a card file just edited is checked against it.
_CODEX_FORMAT = 2  # 2: each definition's header


def save_codex(key: str, codex: dict, selectors: list, parse_diags: list, body_diags: list,
               codec: Callable[[], cache.Codec]) -> bool:
    """Store a codex's own check: its definitions (in order), its selectors ([(phrase, selector)] in
    the order the check made them), the diagnostics of its parse and of its check."""
    if not cache.enabled():
        return False
    try:
        enc = codec().dumps_record
        recs = _selector_records(dict(selectors), enc)
        if recs is None:
            return False
        heads = [[d.name, d.kind, d.param, list(d.categories)] for d in codex.values()]
        doc = [_CODEX_FORMAT, _records(codex, enc), recs,
               diagnostics_codec().dumps_record(list(parse_diags)),
               diagnostics_codec().dumps_record(list(body_diags)), heads]
    except (cache.CacheError, RecursionError, TypeError, ValueError, AttributeError):
        return False
    return cache.put("codex", key, doc, None)


class StoredCodex:
    """A codex's own check read back (:func:`load_codex`): `codex` (name -> definition, decoded on
    use), `view` (the same for a check: :class:`CodexView`), `selectors` (decoded when looked up),
    `parse_diags`, `body_diags`."""

    def __init__(self, codex: LazyRecords, heads: dict, selectors: LazySelectors, parse_diags: list,
                 body_diags: list):
        self.codex, self.view, self.selectors = codex, CodexView(codex, heads), selectors
        self.parse_diags, self.body_diags = parse_diags, body_diags

    def codex_records(self) -> Optional[list]:
        """[[name, record]] of the codex's definitions as stored, in order; None if one was replaced
        (a record that failed to decode: the definitions were compiled again)."""
        out = []
        for name in self.codex:
            b = self.codex.blob(name)
            if b is None:
                return None
            out.append([name, b])
        return out


class CodexHeader:
    """A codex definition as a check sees it while it looks through them all (the damage types, the
    entry declared `param versus`, a trait named with its parameter): its name, kind, parameter
    and categories, stored beside it.  Anything else is read from the definition, decoded then."""

    __slots__ = ("name", "kind", "param", "categories", "_records")

    def __init__(self, records: LazyRecords, name: str, kind: str, param: Optional[str], categories: tuple):
        self._records, self.name, self.kind, self.param, self.categories = records, name, kind, param, categories

    def __getattr__(self, attr):
        return getattr(self._records[self.name], attr)


class CodexView(Mapping):
    """The stored codex as a check reads it: a definition looked up by name is the definition
    (decoded then); looking through them all (`values()`, `items()`) gives their headers, so a
    card with an attack (its damage type is one of the codex's damage types) decodes no more."""

    def __init__(self, records: LazyRecords, heads: dict):
        self._records, self._heads = records, heads

    def __getitem__(self, name):
        return self._records[name]

    def get(self, name, default=None):
        return self._records.get(name, default)

    def __contains__(self, name) -> bool:
        return name in self._records

    def __iter__(self):
        return iter(self._records)

    def __len__(self) -> int:
        return len(self._records)

    def values(self):
        return self._heads.values()

    def items(self):
        return self._heads.items()


def load_codex(key: str, codec: Callable[[], cache.Codec], rebuild: Callable[[], Any]) -> Optional[StoredCodex]:
    """The stored codex check of `key`, or None (a damaged entry is removed).  `rebuild()` gives a
    corpus compiled again, for a record that later fails to decode."""
    doc = cache.get("codex", key, None)
    if doc is None:
        return None
    ok = (type(doc) is list and len(doc) == 6 and doc[0] == _CODEX_FORMAT
          and valid_pairs(doc[1]) and valid_pairs(doc[2])
          and type(doc[3]) is bytes and type(doc[4]) is bytes and type(doc[5]) is list
          and [h[0] if type(h) is list and len(h) == 4 else None for h in doc[5]] == [n for n, _ in doc[1]]
          and all(type(h[1]) is str and (h[2] is None or type(h[2]) is str) and type(h[3]) is list
                  and all(type(c) is str for c in h[3]) for h in doc[5]))
    diags = []
    if ok:
        for blob in doc[3:5]:
            try:
                d = diagnostics_codec().loads_record(blob)
            except cache.CacheError:
                d = None
            if type(d) is not list:
                ok = False
                break
            diags.append(d)
    if not ok:
        cache.remove("codex", key)
        return None
    source = _Source(codec, "codex", key, rebuild)
    index: dict = {}
    for i, (k, _) in enumerate(doc[2]):
        index.setdefault(k, []).append(i)
    records = LazyRecords({n: _Raw(b) for n, b in doc[1]}, source, "codex")
    heads = {n: CodexHeader(records, n, kind, param, tuple(cats)) for n, kind, param, cats in doc[5]}
    return StoredCodex(records, heads, LazySelectors([_Raw(b) for _, b in doc[2]], index, source),
                       diags[0], diags[1])
