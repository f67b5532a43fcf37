"""Reading spellbook files: the plain text format (docs/spellbooks.md) and OCTGN's `.o8d` decks.

Both readers only read: they resolve names against the corpus and record what they could not read
as located diagnostics on the book; the rules of spellbook building live in `rules.py`.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

from ..dsl.ast import Span
from ..dsl.diagnostics import Diagnostic
from ..dsl.model import Corpus
from .model import MAGE_KINDS, MAX_COPIES, MAX_ENTRIES, MAX_FILE_BYTES, MAX_LINE_CHARS, MAX_NAME_CHARS, Entry, Spellbook
from .names import NameIndex, index_for
from .rules import mage_for, stats_for

_HEADING = re.compile(r"^(?P<key>[A-Za-z][A-Za-z ]*?)\s*:\s*(?P<value>.*)$")
_CARD = re.compile(r"^(?:(?P<count>\d+)\s*[xX×]?\s+)?(?P<name>\S.*?)$")
HEADINGS = ("mage", "stats")


def _span(path: str, line: int, col: int, length: int) -> Span:
    return Span(path, line, col, line, col + max(length, 1))


def _read_bytes(path: Path, book: Spellbook) -> Optional[bytes]:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            book.problems.append(Diagnostic(
                "B001", f"spellbook file is too large ({size} bytes; the limit is {MAX_FILE_BYTES})",
                _span(book.path, 1, 1, 1)))
            return None
        with path.open("rb") as fh:
            return fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        book.problems.append(Diagnostic("B001", f"spellbook file cannot be read: {exc.strerror or exc}",
                                        _span(book.path, 1, 1, 1)))
        return None


def _set_mage(book: Spellbook, index: NameIndex, name: str, span: Span, approximate: bool) -> None:
    """Resolve the mage line: a Mage card (its stats card found by name) or a stats card."""
    found = index.exact(name)
    if found is None and approximate:
        found = index.approximate(name)
        if found is not None:
            book.problems.append(Diagnostic("B005", f"'{name}' read as the card '{found}'", span,
                                            severity="warning"))
    if found is None:
        book.problems.append(Diagnostic("B004", f"unknown Mage '{name}'", span, hint=_mage_hint(index, name)))
        return
    card = book.corpus.cards[found]
    if card.kind == "mage":
        book.mage, book.mage_span = card, span
    elif card.kind == "magestats":
        book.stats, book.stats_span = card, span
    else:
        book.problems.append(Diagnostic("B004", f"'{found}' is a {card.kind}, not a Mage", span,
                                        hint=_mage_hint(index, name)))


def _mage_hint(index: NameIndex, name: str) -> Optional[str]:
    from ..dsl.diagnostics import did_you_mean
    mages = [n for n, c in index.corpus.cards.items() if c.kind == "mage"]
    return did_you_mean(name, mages) or "a Mage is one of: " + ", ".join(sorted(mages))


def _add_entry(book: Spellbook, index: NameIndex, name: str, count: int, span: Span,
               approximate: bool) -> None:
    found = index.exact(name)
    if found is None and approximate:
        found = index.approximate(name)
        if found is not None:
            book.problems.append(Diagnostic("B005", f"'{name}' read as the card '{found}'", span,
                                            severity="warning"))
    if found is None:
        book.problems.append(Diagnostic("B003", f"unknown card '{name}'", span, hint=index.suggest(name)))
        book.entries.append(Entry(name, count, span, None))
        return
    card = book.corpus.cards[found]
    if card.kind in MAGE_KINDS:
        book.problems.append(Diagnostic(
            "B007", f"'{found}' is a {card.kind} card, not a spell", span,
            hint="name the Mage on the 'mage:' line; its stats card comes with it"))
        book.entries.append(Entry(name, count, span, None))
        return
    e = book.entry_of(card)
    if e is not None:
        book.problems.append(Diagnostic(
            "B006", f"'{found}' is listed again (first at line {e.span.line}); the counts are added",
            span, severity="warning"))
        e.count += count
        return
    book.entries.append(Entry(name, count, span, card))


def _finish(book: Spellbook, first: Span) -> None:
    """The mage and its own stats card: both must be there and belong together."""
    if book.mage is None and book.stats is not None:
        book.mage = mage_for(book.corpus, book.stats)
        book.mage_span = book.stats_span
    if book.mage is None:
        if not any(d.code == "B004" for d in book.problems):
            book.problems.append(Diagnostic("B004", "the book names no Mage", first,
                                            hint="start the book with a line 'mage: <Mage name>'"))
        return
    if book.stats is None:
        book.stats = stats_for(book.corpus, book.mage)
        book.stats_span = book.mage_span
        if book.stats is None:
            book.problems.append(Diagnostic("B004", f"no stats card found for the Mage '{book.mage.name}'",
                                            book.mage_span or first,
                                            hint="name it on a 'stats:' line"))
    elif mage_for(book.corpus, book.stats) is not book.mage:
        book.problems.append(Diagnostic(
            "B008", f"'{book.stats.name}' is not the stats card of the Mage '{book.mage.name}'",
            book.stats_span or first))


# ---------------------------------------------------------------- plain text
def read_text(text: str, path: str, corpus: Corpus, index: Optional[NameIndex] = None) -> Spellbook:
    """Parse the plain spellbook format; every problem becomes a located diagnostic on the book."""
    index = index or index_for(corpus)
    book = Spellbook(path=path, format="text", corpus=corpus, text=text)
    first = _span(path, 1, 1, 1)
    seen = 0
    for lineno, raw in enumerate(text.splitlines(), start=1):
        body = raw.split("#", 1)[0].rstrip()
        stripped = body.lstrip()
        if not stripped:
            continue
        col = len(body) - len(stripped) + 1
        seen += 1
        if seen > MAX_ENTRIES:
            book.problems.append(Diagnostic("B002", f"too many lines (the limit is {MAX_ENTRIES} cards)",
                                            _span(path, lineno, col, len(stripped))))
            break
        if len(stripped) > MAX_LINE_CHARS:
            book.problems.append(Diagnostic("B002", f"line longer than {MAX_LINE_CHARS} characters",
                                            _span(path, lineno, col, 1)))
            continue
        m = _HEADING.match(stripped)
        if m:
            key, value = m["key"].strip().lower(), m["value"].strip()
            vcol = col + stripped.index(value) if value else col + len(stripped)
            vspan = _span(path, lineno, vcol, len(value))
            if key not in HEADINGS:
                book.problems.append(Diagnostic(
                    "B002", f"unknown heading '{m['key'].strip()}:'", _span(path, lineno, col, len(m["key"])),
                    hint="the headings are " + " and ".join(f"'{h}:'" for h in HEADINGS)))
            elif not value:
                book.problems.append(Diagnostic("B002", f"'{key}:' needs a card name", vspan))
            elif (key == "mage" and book.mage_span is not None) or (key == "stats" and book.stats_span):
                book.problems.append(Diagnostic("B002", f"a second '{key}:' line", vspan))
            else:
                if book.entries:
                    book.problems.append(Diagnostic(
                        "B002", f"the '{key}:' line must come before the spells", vspan))
                if key == "mage":  # a Mage card, or a stats card (its Mage is found from it)
                    _set_mage(book, index, value, vspan, approximate=False)
                else:
                    found = index.exact(value)
                    card = corpus.cards.get(found) if found else None
                    if card is None or card.kind != "magestats":
                        book.problems.append(Diagnostic(
                            "B004", f"'{value}' is not a Mage stats card", vspan,
                            hint=index.suggest(value)))
                    else:
                        book.stats, book.stats_span = card, vspan
            continue
        m = _CARD.match(stripped)
        name = m["name"].strip()
        nspan = _span(path, lineno, col + m.start("name"), len(name))
        if len(name) > MAX_NAME_CHARS:
            book.problems.append(Diagnostic("B002", f"card name longer than {MAX_NAME_CHARS} characters",
                                            nspan))
            continue
        count = 1
        if m["count"] is not None:
            count = int(m["count"][:6])
            if not 1 <= count <= MAX_COPIES:
                book.problems.append(Diagnostic(
                    "B002", f"a count must be from 1 to {MAX_COPIES}, not {m['count']}",
                    _span(path, lineno, col, len(m["count"]))))
                continue
        _add_entry(book, index, name, count, nspan, approximate=False)
    _finish(book, first)
    return book


# ---------------------------------------------------------------- OCTGN .o8d
def read_o8d(data: bytes, path: str, corpus: Corpus, index: Optional[NameIndex] = None,
             ids: Optional[dict[str, str]] = None) -> Spellbook:
    """Read an OCTGN Mage Wars deck: `<deck><section name=..><card qty=.. id=..>Name</card>`.

    The XML is parsed with defusedxml (no DTDs, no entity expansion).  Names follow OCTGN's
    spelling, so a name that matches no card exactly is read approximately, with a warning.
    `ids` (OCTGN GUID -> name) fills in cards whose name is missing from the file."""
    import xml.sax
    import defusedxml.sax
    from defusedxml import DefusedXmlException

    index = index or index_for(corpus)
    book = Spellbook(path=path, format="o8d", corpus=corpus)
    first = _span(path, 1, 1, 1)
    rows: list[tuple[str, str, str, str, int, int]] = []  # section, qty, id, name, line, col

    class Handler(xml.sax.ContentHandler):
        def __init__(self):
            super().__init__()
            self.section = ""
            self.current: Optional[list] = None
            self.locator = None
            self.root_seen = False

        def setDocumentLocator(self, locator):
            self.locator = locator

        def startElement(self, name, attrs):
            line = self.locator.getLineNumber() if self.locator else 1
            col = (self.locator.getColumnNumber() or 0) + 1 if self.locator else 1
            if not self.root_seen:
                self.root_seen = True
                if name != "deck":
                    raise ValueError(f"the root element is <{name}>, not <deck>")
            if name == "section":
                self.section = attrs.get("name", "")
            elif name == "card":
                if len(rows) >= MAX_ENTRIES:
                    raise ValueError(f"more than {MAX_ENTRIES} cards")
                self.current = [self.section, attrs.get("qty", ""), attrs.get("id", ""), "", line, col]

        def characters(self, content):
            if self.current is not None and len(self.current[3]) <= MAX_NAME_CHARS:
                self.current[3] += content

        def endElement(self, name):
            if name == "card" and self.current is not None:
                rows.append(tuple(self.current))
                self.current = None

    try:
        parser = defusedxml.sax.make_parser()
        parser.forbid_dtd = parser.forbid_entities = parser.forbid_external = True
        handler = Handler()
        parser.setContentHandler(handler)
        import io
        src = xml.sax.xmlreader.InputSource()
        src.setByteStream(io.BytesIO(data))
        parser.parse(src)
    except xml.sax.SAXParseException as exc:
        book.problems.append(Diagnostic("B001", f"not well-formed XML: {exc.getMessage()}",
                                        _span(path, exc.getLineNumber() or 1, (exc.getColumnNumber() or 0) + 1, 1)))
        return book
    except DefusedXmlException as exc:
        book.problems.append(Diagnostic("B001", f"refused XML: {exc}", first))
        return book
    except ValueError as exc:
        book.problems.append(Diagnostic("B001", f"not an OCTGN deck: {exc}", first))
        return book

    from .names import normalize
    for section, qty, gid, name, line, col in rows:
        name = " ".join(name.split())
        span = _span(path, line, col, len("<card"))
        by_id = ids.get(gid) if ids else None
        if by_id and index.exact(by_id):
            # OCTGN loads a deck's cards by id; the text beside the id is only a label
            if name and normalize(name) != normalize(by_id):
                book.problems.append(Diagnostic(
                    "B005", f"'{name}' is OCTGN card {gid}: read as the card '{index.exact(by_id)}'", span,
                    severity="warning"))
            name = by_id
        if not name:
            book.problems.append(Diagnostic("B003", f"a card with no name and an unknown OCTGN id ({gid or 'none'})",
                                            span, hint="give an OCTGN id table that has it (--ids FILE)"))
            continue
        if len(name) > MAX_NAME_CHARS:
            book.problems.append(Diagnostic("B002", f"card name longer than {MAX_NAME_CHARS} characters", span))
            continue
        if not qty.isdigit() or not 1 <= int(qty[:6]) <= MAX_COPIES:
            book.problems.append(Diagnostic("B002", f"qty must be a whole number from 1 to {MAX_COPIES}, "
                                                    f"not '{qty}'", span))
            continue
        count = int(qty)
        if section.lower() == "mage":
            found = index.exact(name) or index.approximate(name)
            card = corpus.cards.get(found) if found else None
            if card is not None and card.kind == "magestats":
                if found != name and index.exact(name) is None:
                    book.problems.append(Diagnostic("B005", f"'{name}' read as the card '{found}'", span,
                                                    severity="warning"))
                book.stats, book.stats_span = card, span
            else:
                _set_mage(book, index, name, span, approximate=True)
            continue
        _add_entry(book, index, name, count, span, approximate=True)
    _finish(book, first)
    return book


_IDS: dict[str, str] = {}


def octgn_ids() -> dict[str, str]:
    """The packaged table of OCTGN card ids (GUID -> OCTGN's name), read once."""
    if not _IDS:
        table = Path(__file__).resolve().parent.parent / "data" / "octgn-ids.tsv"
        for line in table.read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                gid, _, name = line.partition("\t")
                _IDS[gid] = name
    return _IDS


def read_file(path: Path, corpus: Corpus, ids: Optional[dict[str, str]] = None) -> Spellbook:
    """A spellbook file of either format (chosen by the `.o8d` suffix).  `.o8d` cards are read by
    their OCTGN id through `ids`, by default the packaged table; their names are the fallback."""
    fmt = "o8d" if path.suffix.lower() == ".o8d" else "text"
    book = Spellbook(path=str(path), format=fmt, corpus=corpus)
    data = _read_bytes(path, book)
    if data is None:
        return book
    if fmt == "o8d":
        return read_o8d(data, str(path), corpus, ids=octgn_ids() if ids is None else ids)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        book.problems.append(Diagnostic("B001", f"spellbook file is not UTF-8 text (byte {exc.start})",
                                        _span(str(path), 1, 1, 1)))
        return book
    return read_text(text, str(path), corpus)
