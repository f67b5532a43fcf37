"""YAML loading with locations: every mapping and sequence remembers where its
keys and items are, so a problem is reported as `path:line:col: CODE message`."""
from __future__ import annotations

from typing import Any, Optional

import yaml

from ..dsl.ast import Span
from ..dsl.diagnostics import Diagnostic


class LDict(dict):
    """A mapping that knows the location of itself and of each key's value."""
    where: tuple = (1, 1)
    marks: dict

    def at(self, key) -> tuple:
        return self.marks.get(key, self.where)


class LList(list):
    where: tuple = (1, 1)
    marks: list

    def at(self, i) -> tuple:
        return self.marks[i] if 0 <= i < len(self.marks) else self.where


class LineLoader(yaml.SafeLoader):
    """SafeLoader that records node marks (1-based line and column)."""

    def construct_mapping(self, node, deep=False):
        self.flatten_mapping(node)
        m = LDict()
        m.where = (node.start_mark.line + 1, node.start_mark.column + 1)
        m.marks = {}
        for knode, vnode in node.value:
            key = self.construct_object(knode, deep=True)
            try:
                hash(key)
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    None, None, "a mapping key must be a plain value", knode.start_mark)
            m[key] = self.construct_object(vnode, deep=True)
            m.marks[key] = (vnode.start_mark.line + 1, vnode.start_mark.column + 1)
        return m

    def construct_sequence(self, node, deep=False):
        lst = LList(self.construct_object(child, deep=True) for child in node.value)
        lst.where = (node.start_mark.line + 1, node.start_mark.column + 1)
        lst.marks = [(c.start_mark.line + 1, c.start_mark.column + 1) for c in node.value]
        return lst


LineLoader.add_constructor("tag:yaml.org,2002:map", LineLoader.construct_mapping)
LineLoader.add_constructor("tag:yaml.org,2002:seq", LineLoader.construct_sequence)


def ScenarioDiagnostic(path: str, line: int, col: int, code: str, message: str) -> Diagnostic:
    """A located scenario problem: the same Diagnostic record the language tools use."""
    return Diagnostic(code, message, Span(str(path), line, col, line, col + 1))


class ScenarioError(Exception):
    def __init__(self, diags: list[Diagnostic]):
        self.diags = diags
        super().__init__("\n".join(d.format() for d in diags))


def load_yaml(text: str, path: str) -> Any:
    try:
        return yaml.load(text, Loader=LineLoader)  # SafeLoader subclass: no arbitrary objects
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        msg = (e.problem or str(e)).strip()
        if e.context:
            msg = f"{msg} ({e.context.strip()})"
        raise ScenarioError([ScenarioDiagnostic(path, line, col, "S001", f"YAML syntax error: {msg}")])
    except yaml.YAMLError as e:
        raise ScenarioError([ScenarioDiagnostic(path, 1, 1, "S001", f"YAML error: {e}")])
