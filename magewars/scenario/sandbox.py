"""Where a scenario may read card files from.

A scenario is data, possibly someone else's: the `.mw` files it names under
`cards:` must lie inside the scenario's own folder, or inside a folder the
person running it passed explicitly (`--cards-root`).  Anything else — an
absolute path elsewhere, `../` climbing out, a symlink pointing out, a file
that is not a `.mw` source, a device — is refused with a located error, and
the refused file is never opened, so no error can echo its content.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional

from ..limits import is_regular_file, losing, walk_sources

SUFFIX = ".mw"


@dataclass
class Sandbox:
    roots: list[Path]

    @classmethod
    def for_scenario(cls, scenario_path, extra_roots: Iterable = ()) -> "Sandbox":
        roots = []
        for r in [Path(scenario_path).parent, *extra_roots]:
            try:
                roots.append(Path(os.path.realpath(r)))
            except (OSError, ValueError):
                continue
        return cls(roots)

    def inside(self, p: Path) -> bool:
        try:
            real = Path(os.path.realpath(p))
        except (OSError, ValueError):
            return False
        return any(real == r or real.is_relative_to(r) for r in self.roots)

    def resolve(self, entry: str) -> tuple[list[Path], Optional[tuple[str, str]]]:
        """A `cards:` entry -> the `.mw` files it names, or (code, message) when refused."""
        if "\x00" in entry:
            return [], ("S009", "a card path cannot contain a NUL character")
        given = Path(entry)
        candidates = [given] if given.is_absolute() else [r / given for r in self.roots]
        found: Optional[Path] = None
        for c in candidates:
            try:
                if os.path.lexists(c):
                    found = c
                    break
            except (OSError, ValueError):
                continue
        if found is None:
            return [], ("S004", f"card file {_short(entry)!r} not found (paths are relative to the scenario's "
                                "folder or a --cards-root folder)")
        if not self.inside(found):
            return [], ("S009", f"card path {_short(entry)!r} is outside the scenario's folder"
                                + (" and the --cards-root folders" if len(self.roots) > 1 else "")
                                + ": refused (pass its folder with --cards-root to allow it)")
        try:
            is_dir = found.is_dir()
        except (OSError, ValueError):
            is_dir = False
        if is_dir:
            files, problems = walk_sources(found, SUFFIX)
            problems = losing(problems)  # (a folder reached twice through a link: its files were taken once)
            if problems:  # (a card source it could not read, or a folder it could not walk: never run without it)
                more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
                return [], ("S009", f"folder {_short(entry)!r} cannot be read whole: "
                                    f"{_short(_below(problems[0], found))}{more}: refused")
            kept = [f for f in files if self.inside(f) and is_regular_file(f)]
            if len(kept) < len(files):
                return [], ("S009", f"folder {_short(entry)!r} holds links to files outside the allowed folders: "
                                    "refused")
            return kept, None
        if not found.name.endswith(SUFFIX):
            return [], ("S009", f"card path {_short(entry)!r} is not a {SUFFIX} card file: refused")
        if not is_regular_file(found):
            return [], ("S009", f"card path {_short(entry)!r} is not a regular file: refused")
        return [found], None


def _below(problem: str, folder: Path) -> str:
    """A walk's problem with the folder's own path left out (the entry names it already)."""
    head = f"{folder}{os.sep}"
    return problem[len(head):] if problem.startswith(head) else problem


def _short(s: str, n: int = 120) -> str:
    return s if len(s) <= n else s[:n] + "…"
