"""Wheel build hook: ship the compiled corpus inside the wheel (magewars/prebuilt.py).

`python -m pip install .` builds a wheel; this hook compiles the shipped codex and spells from
this source tree (the magewars package beside this file, which needs lark, msgpack and rapidfuzz: the
build requirements in pyproject.toml) and adds the result as magewars/_data/corpus.mwc, so the
first read command of the installation reads it instead of compiling every card file.  A
corpus that cannot be compiled stops the build with the reason.  An editable install
(`pip install -e .`) ships nothing: it reads the checkout, which changes.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

TARGET = "magewars/_data/corpus.mwc"


class PrebuiltCorpusHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        root = Path(self.root).resolve()
        sys.path.insert(0, str(root))
        os.environ["MAGEWARS_NO_CACHE"] = "1"  # compile from the sources, never from a user cache
        try:
            import magewars
            from magewars.dsl import prebuild
        finally:
            sys.path.remove(str(root))
        here = Path(magewars.__file__).resolve().parent
        if here != root / "magewars":
            raise RuntimeError(f"the build imported magewars from {here}, not from {root / 'magewars'}")
        self._tmp = tempfile.TemporaryDirectory(prefix="magewars-build-")
        out = Path(self._tmp.name) / "corpus.mwc"
        out.write_bytes(prebuild(root))
        build_data["force_include"][str(out)] = TARGET

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        tmp = getattr(self, "_tmp", None)
        if tmp is not None:
            tmp.cleanup()
