"""Bounds on everything a user's input can make the tools do.

One place for every limit, so that the parser, the scenario loader, the folder
walk and the CLI agree, and so that a test can name them.  Each limit is far
above what any shipped file needs (the largest card file is ~60 KB, the deepest
scenario nests 8 levels) and far below what would exhaust memory or time.
"""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Optional

# files
MAX_SOURCE_BYTES = 512_000        # a card (.mw) file
MAX_SCENARIO_BYTES = 1_000_000    # a scenario (.yaml) file
MAX_FILES_PER_WALK = 20_000       # .mw files gathered from the folders of one command
MAX_WALK_DIRS = 20_000            # folders visited by one walk
MAX_RESULTS_BYTES = 512_000_000  # a duel results file (`--games` up to MAX_CLI_NUMBER, ~250 bytes a game)
MAX_ID_TABLE_BYTES = 16_000_000  # an OCTGN id table (`magewars book --ids`)

# card language
MAX_INT_DIGITS = 9                # a number in a card file (stats, costs, die ranges)
MAX_NESTING = 64                  # brackets/braces/parentheses open at once
MAX_SYNTAX_ERRORS = 50            # reported per file before a summary line
MAX_RECOVERIES = 200              # tokens the parser skips per definition before it gives up

# scenarios
MAX_YAML_DEPTH = 32               # nested mappings/sequences
MAX_YAML_NODES = 20_000           # nodes after alias expansion (the "billion laughs" bound)
MAX_YAML_ALIASES = 1_000          # `*alias` uses in one file
MAX_DIAGNOSTICS = 50              # problems reported per scenario file before a summary
MAX_SCENARIO_NUMBER = 10_000      # any count, amount, mana... in a scenario
MAX_ARENA_SIDE = 26               # rows are letters A..Z
MAX_ACTIONS = 10_000

# the command line
MAX_CLI_NUMBER = 1_000_000


class LimitError(Exception):
    """An input exceeds one of the bounds above; the message says which."""


def read_bounded(path, limit: int) -> str:
    """Read a regular UTF-8 file of at most `limit` bytes.

    Refuses devices, FIFOs, sockets and folders *before* reading (so `/dev/zero`
    or a named pipe cannot hang or fill memory), and never reads more than
    `limit + 1` bytes.  Raises LimitError (too large, not a regular file) or
    OSError / UnicodeDecodeError.
    """
    p = Path(path)
    st = os.stat(p)
    if stat.S_ISDIR(st.st_mode):
        raise LimitError("is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise LimitError("not a regular file (device, pipe or socket): refused")
    if st.st_size > limit:
        raise too_large(st.st_size, limit)
    with open(p, "rb") as fh:
        # as much as the file holds and a byte more (asking for `limit + 1` bytes of a small file
        # makes a buffer of that size for each file: four times the time of reading a card file);
        # a file that grew since its size was read is read on, still to `limit + 1` bytes at most
        data = fh.read(st.st_size + 1)
        if len(data) > st.st_size:
            data += fh.read(limit + 1 - len(data))
    if len(data) > limit:
        raise LimitError(f"file too large: more than {limit} bytes")
    return data.decode("utf-8")


def too_large(size: int, limit: int) -> LimitError:
    """The error of a text of `size` bytes over `limit` (a file read_bounded refuses, a document the
    language server is sent)."""
    return LimitError(f"file too large: {size} bytes (the limit is {limit})")


def is_regular_file(path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


# a walk's note that loses nothing: the folder's files were taken at its first visit
ALREADY_VISITED = "folder already visited (symlink loop): skipped"


def losing(problems: list[str]) -> list[str]:
    """The problems of a walk (walk_sources) that leave a file out: all but a folder reached again."""
    return [m for m in problems if not m.endswith(ALREADY_VISITED)]


def walk_sources(root, suffix: str = ".mw") -> tuple[list[Path], list[str]]:
    """Files ending in `suffix` under `root`, sorted, following symlinks safely.

    A folder reached twice (a symlink loop, or two links to one folder) is
    walked once; broken links, unreadable folders and anything named like a
    source that is not a regular file (never opened) are reported, not raised.
    Returns (files, problems).
    """
    files: list[Path] = []
    problems: list[str] = []
    seen: set[tuple[int, int]] = set()
    stack = [Path(root)]
    visited = 0
    while stack:
        d = stack.pop()
        try:
            st = os.stat(d)
        except OSError as e:
            problems.append(f"{d}: cannot open folder ({e.strerror or e})")
            continue
        key = (st.st_dev, st.st_ino)
        if key in seen:
            problems.append(f"{d}: {ALREADY_VISITED}")
            continue
        seen.add(key)
        visited += 1
        if visited > MAX_WALK_DIRS:
            problems.append(f"{root}: more than {MAX_WALK_DIRS} folders: walk stopped")
            break
        try:
            entries = sorted(os.scandir(d), key=lambda e: e.name)
        except OSError as e:
            problems.append(f"{d}: cannot list folder ({e.strerror or e})")
            continue
        subdirs = []
        for e in entries:
            try:
                if e.is_dir():
                    subdirs.append(Path(e.path))
                elif e.name.endswith(suffix):
                    if e.is_file():
                        files.append(Path(e.path))
                    else:  # (never opened: a pipe would wait for a writer, a device never ends)
                        problems.append(f"{e.path}: not a regular file (a device, pipe, socket or broken link): "
                                        f"not read")
            except OSError as exc:  # e.g. ELOOP on a self-referencing link
                problems.append(f"{e.path}: {exc.strerror or exc}")
            if len(files) > MAX_FILES_PER_WALK:
                problems.append(f"{root}: more than {MAX_FILES_PER_WALK} source files: walk stopped")
                return sorted(files[:MAX_FILES_PER_WALK]), problems
        stack.extend(reversed(subdirs))
    return sorted(files), problems


def too_deep_at(text: str, tokens: re.Pattern, opens: str, closes: str, limit: int) -> Optional[int]:
    """The offset of the first opening bracket nested deeper than `limit`, or None.  `tokens` splits the
    text into strings, comments, single brackets and runs of anything else (a bracket inside a string or
    a comment is part of a longer token); one pass, linear in the text, so it can run before a parser
    whose cost grows with the nesting."""
    depth = 0
    for m in tokens.finditer(text):
        c = m.group()
        if len(c) != 1:
            continue
        if c in opens:
            depth += 1
            if depth > limit:
                return m.start()
        elif c in closes:
            depth = max(depth - 1, 0)
    return None


def line_col(text: str, pos: int) -> tuple[int, int]:
    """The 1-based line and column of an offset in a text."""
    return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1
