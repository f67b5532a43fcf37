"""The `magewars` process: the console script and `python -m magewars` start here.

Most commands read, print and end: `lint`, `lookup`, `card`, `rules`, `odds`, `coverage`,
`completion`, and `--version` and `--help` (QUICK_COMMANDS).  Two things a process of theirs did
cost more than they were worth:

- **the cyclic garbage collector**, run about fifty times by the start-up's imports and cache reads
  (some 50,000 new objects, next to none of them garbage: 481 found in those runs), about 5% of the
  instructions of `lint` of a file just edited.  For these commands the youngest generation is
  collected after 50,000 new objects instead of 700: as much garbage as that is kept at most, and a
  start-up needs no collection;
- **the interpreter's teardown** (every module and object freed one by one, a last collection), about
  9%.  When such a command is done and its output flushed, the process ends at once (`os._exit`, as
  mypy ends its runs unless told not to).  Nothing is left undone by that: these commands start no process, thread or
  server, and close every file they write before they return.

Other commands (`duel`, `play`, `simulate`, `lsp`, `site`, `book`, `export`, ...) run as any Python
program does.  Called in-process (click's test runner calls `magewars.cli.main`), nothing here runs.
"""
from __future__ import annotations

import gc
import os
import sys

#: the commands whose process is made lighter (this module's docstring), and the options that print
#: the version or the help and end
QUICK_COMMANDS = frozenset({"lint", "lookup", "card", "rules", "odds", "coverage", "completion",
                            "-V", "--version", "-h", "--help"})
#: new objects before the youngest generation is collected, in a quick command (CPython's default: 700)
QUICK_GC_THRESHOLD = 50_000


def run(argv: list[str] | None = None) -> None:
    """Run the `magewars` command line as a process (never returns)."""
    args = sys.argv[1:] if argv is None else list(argv)
    quick = bool(args) and args[0] in QUICK_COMMANDS
    if quick:
        _, older, oldest = gc.get_threshold()
        gc.set_threshold(QUICK_GC_THRESHOLD, older, oldest)
    from .cli import main  # (after the threshold: importing click and the command is most of a start-up)
    try:
        main(args=args, prog_name="magewars")
    except SystemExit as exc:
        if quick and (exc.code is None or type(exc.code) is int):
            end_now(exc.code or 0)
        raise


def end_now(code: int) -> None:
    """End the process with `code` once standard output and error are flushed, without the
    interpreter's teardown; if they cannot be flushed (a closed pipe), return, and the caller
    ends the process as Python does (which reports it)."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code)
