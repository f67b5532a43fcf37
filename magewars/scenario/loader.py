"""YAML loading with locations, bounded.

ruamel.yaml's round-trip loader records where every key and item sits
(`.lc`); this module turns its tree into plain mappings and lists that keep
those positions (`LDict.at(key)`, `LList.at(i)`), so any problem is reported as
`path:line:col: CODE message`.

Safety and bounds, in order:
1. the caller reads at most MAX_SCENARIO_BYTES of a regular file;
2. a first pass over the parser's *events* (no tree is built yet) refuses
   nesting deeper than MAX_YAML_DEPTH and more than MAX_YAML_ALIASES aliases;
3. the round-trip loader builds the tree (it never constructs arbitrary
   Python objects: no tags are executed);
4. converting the tree expands aliases under a budget of MAX_YAML_NODES nodes,
   so an alias bomb stops at a located error instead of filling memory.
"""
from __future__ import annotations

import datetime
import re
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import AliasEvent, CollectionEndEvent, CollectionStartEvent
from ruamel.yaml.scalarbool import ScalarBoolean

from ..dsl.ast import Span
from ..dsl.diagnostics import Diagnostic
from ..limits import MAX_YAML_ALIASES, MAX_YAML_DEPTH, MAX_YAML_NODES, line_col, too_deep_at


class LDict(dict):
    """A mapping that knows the location of itself and of each key's value."""
    where: tuple = (1, 1)
    marks: dict
    key_marks: dict

    def at(self, key) -> tuple:
        return self.marks.get(key, self.where)

    def key_at(self, key) -> tuple:
        return getattr(self, "key_marks", {}).get(key, self.at(key))


class LList(list):
    where: tuple = (1, 1)
    marks: list

    def at(self, i) -> tuple:
        return self.marks[i] if 0 <= i < len(self.marks) else self.where


def ScenarioDiagnostic(path: str, line: int, col: int, code: str, message: str) -> Diagnostic:
    """A located scenario problem: the same Diagnostic record the language tools use."""
    return Diagnostic(code, message, Span(str(path), line, col, line, col + 1))


class ScenarioError(Exception):
    def __init__(self, diags: list[Diagnostic]):
        self.diags = diags
        super().__init__("\n".join(d.format() for d in diags))


def _yaml() -> YAML:
    y = YAML(typ="rt", pure=True)
    y.allow_duplicate_keys = False
    return y


def _mark(m) -> tuple:
    return (m.line + 1, m.column + 1) if m is not None else (1, 1)


_FLOW = re.compile(r"""'(?:[^'\n]|'')*'|"(?:[^"\\\n]|\\.)*"|#[^\n]*|[\[\]{}]|[^\[\]{}'"#]+|.""", re.S)


def _check_flow_depth(text: str, path: str) -> None:
    """Bracket nesting, by a linear scan of the raw text (outside quotes and comments).

    ruamel's scanner looks ahead through a whole flow collection, so its cost grows with
    the square of the nesting: a deep `[[[[...` is refused before it reaches the scanner.
    """
    at = too_deep_at(text, _FLOW, "[{", "]}", MAX_YAML_DEPTH)
    if at is not None:
        line, col = line_col(text, at)
        raise ScenarioError([ScenarioDiagnostic(path, line, col, "S001",
                                                f"nesting too deep (more than {MAX_YAML_DEPTH} levels)")])


def _check_events(text: str, path: str) -> None:
    """Depth and alias bounds, from the event stream (constant memory)."""
    _check_flow_depth(text, path)
    depth = aliases = 0
    for ev in _yaml().parse(text):
        if isinstance(ev, CollectionStartEvent):
            depth += 1
            if depth > MAX_YAML_DEPTH:
                line, col = _mark(ev.start_mark)
                raise ScenarioError([ScenarioDiagnostic(path, line, col, "S001",
                                                        f"nesting too deep (more than {MAX_YAML_DEPTH} levels)")])
        elif isinstance(ev, CollectionEndEvent):
            depth -= 1
        elif isinstance(ev, AliasEvent):
            aliases += 1
            if aliases > MAX_YAML_ALIASES:
                line, col = _mark(ev.start_mark)
                raise ScenarioError([ScenarioDiagnostic(path, line, col, "S001",
                                                        f"too many aliases (more than {MAX_YAML_ALIASES})")])


class _Budget:
    def __init__(self, path: str):
        self.left = MAX_YAML_NODES
        self.path = path

    def spend(self, where: tuple):
        self.left -= 1
        if self.left < 0:
            raise ScenarioError([ScenarioDiagnostic(
                self.path, where[0], where[1], "S001",
                f"the document expands to more than {MAX_YAML_NODES} values (aliases repeating aliases?)")])


def _lc(node, fallback: tuple) -> tuple:
    lc = getattr(node, "lc", None)
    if lc is None or lc.line is None:
        return fallback
    return (lc.line + 1, lc.col + 1)


def _plain(v, where: tuple, budget: _Budget, path: str):
    """ruamel's round-trip values -> dict/list/str/int/float/bool/None with positions."""
    budget.spend(where)
    if isinstance(v, dict):
        m = LDict()
        m.where = _lc(v, where)
        m.marks, m.key_marks = {}, {}
        for k, x in v.items():
            try:
                kpos = v.lc.key(k)
                vpos = v.lc.value(k)
                kw, vw = (kpos[0] + 1, kpos[1] + 1), (vpos[0] + 1, vpos[1] + 1)
            except (AttributeError, KeyError, TypeError, IndexError):
                kw = vw = m.where  # e.g. a key that came in through a `<<` merge
            key = _plain_scalar(k)
            try:
                hash(key)
            except TypeError:
                raise ScenarioError([ScenarioDiagnostic(path, kw[0], kw[1], "S002",
                                                        "a mapping key must be a plain value")])
            if isinstance(key, (dict, list)):
                raise ScenarioError([ScenarioDiagnostic(path, kw[0], kw[1], "S002",
                                                        "a mapping key must be a plain value")])
            m[key] = _plain(x, vw, budget, path)
            m.marks[key], m.key_marks[key] = vw, kw
        return m
    if isinstance(v, list):
        lst = LList()
        lst.where = _lc(v, where)
        lst.marks = []
        for i, x in enumerate(v):
            try:
                p = v.lc.item(i)
                w = (p[0] + 1, p[1] + 1)
            except (AttributeError, KeyError, TypeError, IndexError):
                w = lst.where
            lst.append(_plain(x, w, budget, path))
            lst.marks.append(w)
        return lst
    return _plain_scalar(v)


def _plain_scalar(v):
    if v is None or type(v) in (str, int, float, bool):
        return v
    if isinstance(v, (bool, ScalarBoolean)):  # an anchored true/false is a ScalarBoolean (an int)
        return bool(v)
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        return float(v)
    if isinstance(v, str):
        return str(v)
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat()
    if hasattr(v, "value") and hasattr(v, "tag"):  # a scalar with an unknown tag: its text
        return str(v.value)
    if isinstance(v, (tuple, frozenset)):  # complex keys
        return tuple(v)
    return str(v)


def load_yaml(text: str, path: str) -> Any:
    """Safe, bounded YAML -> LDict/LList tree; errors are ScenarioError with located S001."""
    try:
        _check_events(text, path)
        data = _yaml().load(text)
    except ScenarioError:
        raise
    except MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = _mark(mark)
        msg = (e.problem or str(e)).strip().splitlines()[0]
        if e.context:
            msg = f"{msg} ({str(e.context).strip().splitlines()[0]})"
        raise ScenarioError([ScenarioDiagnostic(path, line, col, "S001", f"YAML syntax error: {msg}")])
    except (YAMLError, ValueError, TypeError, RecursionError) as e:
        first = (str(e).strip().splitlines() or [type(e).__name__])[0][:200]
        raise ScenarioError([ScenarioDiagnostic(path, 1, 1, "S001", f"YAML error: {first}")])
    return _plain(data, (1, 1), _Budget(path), path)
