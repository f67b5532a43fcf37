"""Terminal output for every command: rich colour and tables, plain when piped or NO_COLOR,
and safe on any console encoding.

    from magewars.console import echo_page, make_table, echo_table
    echo_page(text)                  # a lookup page, with headings and rule numbers emphasised
    t = make_table("name", "value"); t.add_row("a", "1"); echo_table(t)
"""
from __future__ import annotations

import functools
import io
import os
import re
import sys
from typing import TYPE_CHECKING, Iterable, Optional

if TYPE_CHECKING:  # pragma: no cover - rich is imported when output needs it (a faster start)
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text


@functools.lru_cache(maxsize=1)
def _page_patterns() -> tuple[re.Pattern, re.Pattern, re.Pattern]:
    """The patterns of a page's structure (entry heads, numbered sections, labels), compiled when a page
    is first styled (only on a terminal): a command that prints no page does not compile them."""
    head = re.compile(r"^(\S.*?)  \[(\w+)\](?:  \((rule [\d.]+)\))?$", re.M)
    section = re.compile(r"^(\s*)(\d+(?:\.\d+)*\.?)( .*)$", re.M)
    label = re.compile(r"^(Clarifications|Errata|See also|Also|Cards with [^:]*|Rulings that mention [^:]*"
                       r"|Card id):", re.M)
    return head, section, label


def make_safe(stream) -> None:
    """Let a text stream replace characters its encoding cannot show instead of failing
    (a cp1252 console shows '?' for a character outside it, and the command still works)."""
    enc = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
    if enc in ("utf8", "utf16", "utf32"):
        return
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors="replace")
        except (ValueError, io.UnsupportedOperation):  # pragma: no cover - odd streams
            pass


def _shows(chars: str) -> bool:
    """Whether stdout's encoding can show these characters (a cp1252 console cannot show '─')."""
    try:
        chars.encode(getattr(sys.stdout, "encoding", None) or "utf-8")
        return True
    except (UnicodeEncodeError, LookupError):
        return False


def console(stderr: bool = False) -> Console:
    """A console on the current stdout/stderr.  rich turns colour off when the stream is not a
    terminal and when NO_COLOR is set; nothing is re-wrapped (soft_wrap) or read as markup."""
    from rich.console import Console
    stream = sys.stderr if stderr else sys.stdout
    return Console(file=stream, highlight=False, soft_wrap=True, markup=False, emoji=False)


def style_page(text: str, emphasise: Iterable[str] = ()) -> Text:
    """A page of plain text with its structure emphasised: entry names bold, categories dim,
    rule numbers cyan, section labels bold; words in `emphasise` highlighted."""
    from rich.text import Text
    head, section, label = _page_patterns()
    t = Text(text)
    for m in head.finditer(text):
        t.stylize("bold", m.start(1), m.end(1))
        t.stylize("dim", m.start(2) - 1, m.end(2) + 1)
        if m.group(3):
            t.stylize("cyan", m.start(3), m.end(3))
    for m in section.finditer(text):
        t.stylize("bold cyan", m.start(2), m.end(2))
    for m in label.finditer(text):
        t.stylize("bold yellow", m.start(), m.end())
    for word in emphasise:
        if word:
            t.highlight_words([word], "reverse", case_sensitive=False)
    return t


def _plain(stream) -> bool:
    """Output without any styling: not a terminal and no colour forced (rich then prints the text
    as it is, so it need not even be imported)."""
    isatty = getattr(stream, "isatty", None)
    return not (isatty and isatty()) and not os.environ.get("FORCE_COLOR") and not os.environ.get("TTY_COMPATIBLE")


def echo_page(text: str, err: bool = False, emphasise: Iterable[str] = ()) -> None:
    stream = sys.stderr if err else sys.stdout
    if _plain(stream) and "\t" not in text:
        stream.write(text.rstrip("\n") + "\n")
        return
    console(stderr=err).print(style_page(text.rstrip("\n"), emphasise))


class PlainTable:
    """The one table style of the command line, as data: columns, an optional title, rows of text.
    Rendered as plain text without importing rich where the layout is a simple one (every cell fits on
    one line of the width given; :func:`table_text`), else, and on a terminal, by rich (:meth:`rich`)."""

    def __init__(self, columns: tuple, title: Optional[str], right: set):
        self.columns = columns
        self.title = title
        self.right = right
        self.rows: list[tuple[str, ...]] = []

    def add_row(self, *cells: str) -> None:
        if len(cells) > len(self.columns):
            raise ValueError(f"{len(cells)} cells for {len(self.columns)} columns")
        self.rows.append(tuple(cells) + ("",) * (len(self.columns) - len(cells)))

    @property
    def row_count(self) -> int:
        return len(self.rows)

    def rich(self) -> Table:
        """The same table as a rich Table (bold title and header on a terminal; plain characters when
        the console cannot show box-drawing ones)."""
        from rich import box
        from rich.table import Table
        table = Table(title=self.title, box=box.SIMPLE_HEAD if _shows("─") else box.ASCII2, show_edge=False,
                      pad_edge=False, title_justify="left", title_style="bold", header_style="bold")
        for c in self.columns:
            table.add_column(c, justify="right" if c in self.right else "left", overflow="fold")
        for row in self.rows:
            table.add_row(*row)
        return table


def make_table(*columns: str, title: Optional[str] = None, right: Iterable[str] = ()) -> PlainTable:
    """The one table style of the command line (rich on a terminal; plain characters when piped)."""
    return PlainTable(columns, title, set(right))


@functools.lru_cache(maxsize=1)
def _rich_only() -> re.Pattern:
    """What the plain layout leaves to rich: a cell rich would read as markup ([bold]) or an emoji code
    (:smile:), a character that is not one column wide, a line break or a control character.  (Compiled
    when a table is first laid out: its ranges take a few milliseconds, which a command printing no
    table, such as lint, does not pay.)"""
    return re.compile(r"[\[\x00-\x1f\x7f-\x9f\u0300-\u036f\u1100-\u115f\u200b-\u200f\u2e80-\ua4cf"
                      r"\uac00-\ud7a3\uf900-\ufaff\ufe00-\ufe6f\uff00-\uff60\uffe0-\uffe6\U00010000-\U0010ffff]"
                      r"|:\S*?:")


def _plain_layout(table: PlainTable, width: int) -> Optional[str]:
    """The text rich prints for the table (box SIMPLE_HEAD, no edge, padding of one column between
    columns), or None where rich's layout is not this simple one: a cell or title rich would change or
    measure otherwise (_rich_only), a right-justified cell ending in a space, a table wider than
    `width`, a title longer than the table (rich wraps it).  tests/test_console.py compares the two on
    every table the tools print and on random ones."""
    cells = [table.columns, *table.rows]
    rich_only = _rich_only().search
    if any(rich_only(c) for row in cells for c in row) or (table.title and rich_only(table.title)):
        return None
    n = len(table.columns)
    if any(row[i] != row[i].rstrip() for row in cells for i in range(n) if table.columns[i] in table.right):
        return None  # (rich strips what ends a cell it justifies to the right, after measuring it)
    widths = [max(len(row[i]) for row in cells) for i in range(n)]
    pads = [(0 if i == 0 else 1, 0 if i == n - 1 else 1) for i in range(n)]
    total = sum(w + a + b for w, (a, b) in zip(widths, pads)) + n - 1
    if total > width or (table.title and len(table.title) > total) or not _shows("─"):
        return None

    def line(row) -> str:
        parts = []
        for i, c in enumerate(row):
            text = c.rjust(widths[i]) if table.columns[i] in table.right else c.ljust(widths[i])
            parts.append(" " * pads[i][0] + text + " " * pads[i][1])
        return " ".join(parts).rstrip()

    out = [table.title] if table.title else []
    out += [line(table.columns), "─" * total]
    out += [line(r) for r in table.rows]
    return "\n".join(out)


def table_text(table, width: int = 100) -> str:
    """A table rendered to plain text (for pages assembled as text, and for tests)."""
    if isinstance(table, PlainTable):
        got = _plain_layout(table, width)
        if got is not None:
            return got
        table = table.rich()
    from rich.console import Console
    buf = io.StringIO()
    Console(file=buf, width=width, color_system=None, force_terminal=False, legacy_windows=False,
            safe_box=True).print(table)
    return "\n".join(line.rstrip() for line in buf.getvalue().rstrip("\n").splitlines())


def echo_table(table, err: bool = False) -> None:
    if not _plain(sys.stderr if err else sys.stdout):
        con = console(stderr=err)
        if con.is_terminal:
            con.print(table.rich() if isinstance(table, PlainTable) else table)
            return
    # piped: plain text without the padding rich adds for a terminal
    print(table_text(table), file=sys.stderr if err else sys.stdout)
