"""`magewars card NAME --compare`: a card's generated text beside its published text.

The published text is read at run time from the reference data (``cards/cards.json`` and
``cards/texts-supplement.json`` in the shared reference folder) and only shown, for an author's
eye while stating a card in the language; the project never stores it.  The folder is found from
an explicit path, the ``MAGEWARS_SHARED`` environment variable, or a ``shared`` folder beside the
checkout (the layout developers and CI use).
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional

from .resources import data_dir
from .dsl.frozen import light_dataclass  # @dataclass, made without compiling source text

# Reference files larger than this are refused rather than read (the real ones are < 2 MB).
MAX_BYTES = 64 * 1024 * 1024


class CompareError(Exception):
    """A located problem with the reference data: `path:line:col: CODE message`."""


@light_dataclass(frozen=True)
class Published:
    source: str      # "cards.json" or "texts-supplement.json"
    set: str
    card_id: str
    text: str        # rules text (mage abilities included), as the source has it
    bars: str        # the source's attack bar display, if any


def find_shared(explicit: Optional[Path] = None) -> Optional[Path]:
    """The reference folder: the given path, $MAGEWARS_SHARED, or `shared` beside the checkout."""
    if explicit is not None:
        return explicit
    env = os.environ.get("MAGEWARS_SHARED")
    if env:
        return Path(env)
    try:
        root = data_dir("spells").parent
    except FileNotFoundError:
        return None
    for cand in (root.parent / "shared", Path.cwd().parent / "shared", Path.cwd() / "shared"):
        if (cand / "cards" / "cards.json").is_file():
            return cand
    return None


def _load(path: Path):
    from .limits import LimitError, read_bounded
    try:  # (a device, pipe or socket is refused before it is read: `--shared` is the user's folder)
        text = read_bounded(path, MAX_BYTES)
    except LimitError as e:
        raise CompareError(f"{path}:1:1: E004 the published card data cannot be read: {e}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise CompareError(f"{path}:1:1: E004 cannot read the published card data: "
                           f"{getattr(e, 'strerror', None) or e}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise CompareError(f"{path}:{e.lineno}:{e.colno}: E004 the published card data is not valid JSON: {e.msg}") \
            from None


def published_texts(shared: Path, name: str) -> list[Published]:
    """Every published text of a card: one entry per cards.json printing, then texts-supplement records."""
    cards_path = shared / "cards" / "cards.json"
    data = _load(cards_path)
    recs = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(recs, list):
        raise CompareError(f"{cards_path}:1:1: E004 expected an object with a 'cards' list")
    out: list[Published] = []
    for r in recs:
        if not isinstance(r, dict) or r.get("name") != name or str(r.get("set", "")).startswith("Mage Wars Academy"):
            continue
        text = "\n".join(x for x in (str(r.get("text") or "").strip(), str(r.get("mage_abilities") or "").strip()) if x)
        out.append(Published("cards.json", str(r.get("set", "")), str(r.get("card_id") or ""),
                             text, str(r.get("attack_bar_display") or "").strip()))
    sup_path = shared / "cards" / "texts-supplement.json"
    if sup_path.is_file():
        sup = _load(sup_path)
        if not isinstance(sup, list):
            raise CompareError(f"{sup_path}:1:1: E004 expected a list of records")
        for r in sup:
            if isinstance(r, dict) and r.get("name") == name:
                out.append(Published("texts-supplement.json", str(r.get("set", "")), "",
                                     str(r.get("text") or "").strip(), ""))
    return out


def render_compare(name: str, generated: str, published: list[Published], width: Optional[int] = None) -> str:
    """Two columns: the text generated from the definition, and each published text."""
    import shutil

    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{name}: generated from the definition | published", show_lines=True,
                  expand=True, title_justify="left")
    table.add_column("generated (magewars card)", ratio=1, overflow="fold")
    table.add_column("published (read from the reference data, not stored)", ratio=1, overflow="fold")
    right = []
    for p in published:
        head = f"[{p.source}: {p.set}{' ' + p.card_id if p.card_id else ''}]"
        body = p.text.replace("\r", "") or "(no rules text)"
        if p.bars:
            body += "\n\nattack bars as displayed:\n" + p.bars.replace("\r", "")
        right.append(head + "\n" + body)
    table.add_row(generated, "\n\n".join(right) if right else "(no published record for this card)")
    console = Console(width=width or max(80, shutil.get_terminal_size((120, 40)).columns), record=True, file=open(os.devnull, "w"), color_system=None,
                      highlight=False, markup=False, emoji=False)
    console.print(table)
    return console.export_text().rstrip() + "\n"
