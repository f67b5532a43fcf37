"""Terminal output for every command: rich colour and tables, plain when piped or NO_COLOR,
and safe on any console encoding.

    from magewars.console import echo_page, make_table, echo_table
    echo_page(text)                  # a lookup page, with headings and rule numbers emphasised
    t = make_table("name", "value"); t.add_row("a", "1"); echo_table(t)
"""
from __future__ import annotations

import io
import os
import re
import sys
from typing import TYPE_CHECKING, Iterable, Optional

if TYPE_CHECKING:  # pragma: no cover - rich is imported when output needs it (a faster start)
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

_HEAD = re.compile(r"^(\S.*?)  \[(\w+)\](?:  \((rule [\d.]+)\))?$", re.M)
_SECTION = re.compile(r"^(\s*)(\d+(?:\.\d+)*\.?)( .*)$", re.M)
_LABEL = re.compile(r"^(Clarifications|Errata|See also|Also|Cards with [^:]*|Rulings that mention [^:]*"
                    r"|Card id):", re.M)


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
    t = Text(text)
    for m in _HEAD.finditer(text):
        t.stylize("bold", m.start(1), m.end(1))
        t.stylize("dim", m.start(2) - 1, m.end(2) + 1)
        if m.group(3):
            t.stylize("cyan", m.start(3), m.end(3))
    for m in _SECTION.finditer(text):
        t.stylize("bold cyan", m.start(2), m.end(2))
    for m in _LABEL.finditer(text):
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


def make_table(*columns: str, title: Optional[str] = None, right: Iterable[str] = ()) -> Table:
    """The one table style of the command line (rich; plain characters when piped)."""
    from rich import box
    from rich.table import Table
    right = set(right)
    table = Table(title=title, box=box.SIMPLE_HEAD if _shows("─") else box.ASCII2, show_edge=False, pad_edge=False,
                  title_justify="left", title_style="bold", header_style="bold")
    for c in columns:
        table.add_column(c, justify="right" if c in right else "left", overflow="fold")
    return table


def table_text(table: Table, width: int = 100) -> str:
    """A rich table rendered to plain text (for pages assembled as text, and for tests)."""
    from rich.console import Console
    buf = io.StringIO()
    Console(file=buf, width=width, color_system=None, force_terminal=False, legacy_windows=False,
            safe_box=True).print(table)
    return "\n".join(line.rstrip() for line in buf.getvalue().rstrip("\n").splitlines())


def echo_table(table: Table, err: bool = False) -> None:
    con = console(stderr=err)
    if con.is_terminal:
        con.print(table)
    else:  # piped: plain text without the padding rich adds for a terminal
        print(table_text(table), file=sys.stderr if err else sys.stdout)
