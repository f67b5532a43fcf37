"""`@frozen_dataclass` (magewars/dsl/frozen.py) makes the classes `@dataclass(frozen=True)` makes.

Each module that uses it is executed a second time with `@dataclass(frozen=True)` in its place
(its "twin"); every class is compared with its twin (fields, defaults, docstring, signature,
`__match_args__`), and every node of the compiled corpus with its twin's copy (repr, equality,
hash, refusal to be changed)."""
from __future__ import annotations

import dataclasses
import importlib
import inspect
import sys
import types

import pytest

from magewars.dsl import _codec

MODULES = ["magewars.dsl.span", "magewars.dsl.diagnostics", "magewars.dsl.ast", "magewars.dsl.vocab",
           "magewars.dsl.model", "magewars.dsl.selectors"]


@pytest.fixture(scope="module")
def twins():
    out = {}
    for name in MODULES:
        mod = importlib.import_module(name)
        src = inspect.getsource(mod).replace("@frozen_dataclass\n", "@dataclass(frozen=True)\n")
        twin = types.ModuleType(name + "_twin")
        twin.__package__ = "magewars.dsl"
        twin.__file__ = mod.__file__
        twin.__dict__["dataclass"] = dataclasses.dataclass
        sys.modules[twin.__name__] = twin
        try:
            exec(compile(src, mod.__file__, "exec"), twin.__dict__)
        finally:
            del sys.modules[twin.__name__]
        out[name] = (mod, twin)
    return out


def _classes(mod):
    return {k: v for k, v in vars(mod).items()
            if isinstance(v, type) and dataclasses.is_dataclass(v) and v.__module__ == mod.__name__}


def _shape(f):
    same = lambda x: x.__qualname__ if isinstance(x, type) else x  # noqa: E731  (a twin's class: by name)
    return f.name, f.type, same(f.default), same(f.default_factory), f.init, f.repr, f.compare, f.hash


def test_every_class_equals_its_twin(twins):
    for mod, twin in twins.values():
        mine, theirs = _classes(mod), {k: v for k, v in vars(twin).items()
                                       if isinstance(v, type) and dataclasses.is_dataclass(v)}
        assert set(mine) <= set(theirs)
        for name, c in mine.items():
            t = theirs[name]
            assert [_shape(f) for f in dataclasses.fields(c)] == [_shape(f) for f in dataclasses.fields(t)], name
            assert c.__doc__ == t.__doc__, name
            assert str(inspect.signature(c)) == str(inspect.signature(t)), name
            assert getattr(c, "__match_args__", None) == getattr(t, "__match_args__", None), name


def test_every_node_behaves_as_its_twin(twins, corpus):
    by_class = {}
    for mod, twin in twins.values():
        for name, c in _classes(mod).items():
            by_class[c] = getattr(twin, name)

    def twin_of(v):
        t = type(v)
        if t in by_class:
            return by_class[t](**{f.name: twin_of(getattr(v, f.name)) for f in dataclasses.fields(v) if f.init})
        if t in (tuple, list):
            return t(twin_of(x) for x in v)
        if t is dict:
            return {twin_of(k): twin_of(x) for k, x in v.items()}
        if t in (set, frozenset):
            return t(twin_of(x) for x in v)
        return v

    seen = 0
    values = list(corpus.cards.values())[::7] + list(corpus.codex.values())[::5]
    for d in values:
        stack = [d]
        while stack:
            v = stack.pop()
            if type(v) in by_class:
                seen += 1
                w = twin_of(v)
                assert repr(v) == repr(w)
                assert hash(v) == hash(w)
                assert v == v and v == dataclasses.replace(v)
                assert (v == w) is False or v == w  # different classes: never equal (NotImplemented)
                field = dataclasses.fields(v)[0].name
                with pytest.raises(dataclasses.FrozenInstanceError):
                    setattr(v, field, None)
                with pytest.raises(dataclasses.FrozenInstanceError):
                    delattr(v, field)
                stack.extend(getattr(v, f.name) for f in dataclasses.fields(v))
            elif type(v) in (tuple, list):
                stack.extend(v)
    assert seen > 1000


def test_the_codec_round_trips_the_new_classes(corpus):
    c = _codec()
    some = list(corpus.cards.values())[:40]
    assert c.decode(c.encode(some)) == some


def test_init_is_compiled_at_the_first_instance():
    """The stand-in __init__ compiles the class's own at its first instance and steps aside; the
    class's signature, repr and the TypeError of a bad field order are those of dataclasses from the
    start."""
    from magewars.dsl.frozen import frozen_dataclass

    def make(decorator):
        class Node:
            name: str
            count: int = 2
            tags: list = dataclasses.field(default_factory=list)
        Node.__annotations__ = {"name": "str", "count": "int", "tags": "list"}
        return decorator(Node)

    mine, theirs = make(frozen_dataclass), make(dataclasses.dataclass(frozen=True))
    stand_in = mine.__init__
    assert str(inspect.signature(mine)) == str(inspect.signature(theirs)) == "(name: 'str', count: 'int' = 2, tags: 'list' = <factory>) -> None"
    a = mine("wolf")
    assert mine.__init__ is not stand_in  # compiled, and in its place
    b = mine("wolf", count=3, tags=["x"])
    assert (a.name, a.count, a.tags) == ("wolf", 2, [])
    assert repr(b) == repr(theirs("wolf", count=3, tags=["x"]))
    assert str(inspect.signature(mine)) == str(inspect.signature(theirs))
    with pytest.raises(TypeError):
        mine()
    with pytest.raises(TypeError, match="non-default argument 'late' follows default argument"):
        class Bad:
            early: int = 1
            late: int
        frozen_dataclass(Bad)


def test_class_variables_init_variables_and_keyword_markers_are_read_as_dataclasses_reads_them(monkeypatch):
    """A text annotation naming ClassVar, InitVar or KW_ONLY, by those names or by another name its
    module binds to one of them, is read by dataclasses itself (frozen.py's placeholders are for the
    others): the fields and their types come out as `@dataclass` makes them."""
    import typing
    from magewars.dsl.frozen import frozen_dataclass, light_dataclass
    src = ("from __future__ import annotations\n"
           "import typing\nfrom typing import ClassVar\nfrom typing import ClassVar as Plain\n"
           "class A:\n    x: int\n    n: ClassVar[int] = 3\n"
           "class B:\n    x: int\n    n: typing.ClassVar[int] = 3\n"
           "class C:\n    x: int\n    n: Plain[int] = 3\n"
           "class D:\n    x: list[int]\n    y: typing.Optional[str] = None\n"
           "Counted = ClassVar[int]\n"
           "class E:\n    x: int\n    n: Counted = 3\n")

    def module(name):  # (dataclasses reads a name in the class's module: a real one, in sys.modules)
        mod = types.ModuleType(name)
        monkeypatch.setitem(sys.modules, name, mod)
        exec(compile(src, f"<{name}>", "exec"), mod.__dict__)
        return mod
    for decorate, twin in ((frozen_dataclass, dataclasses.dataclass(frozen=True)),
                           (light_dataclass, dataclasses.dataclass)):
        mine, theirs = module("frozen_test_mine"), module("frozen_test_theirs")
        for name in "ABCDE":
            a, b = decorate(getattr(mine, name)), twin(getattr(theirs, name))
            assert [_shape(f) for f in dataclasses.fields(a)] == [_shape(f) for f in dataclasses.fields(b)], name
            assert str(inspect.signature(a)) == str(inspect.signature(b)), name
            assert a.__annotations__ == b.__annotations__, name
            assert [f.name for f in dataclasses.fields(a)] == (["x", "y"] if name == "D" else ["x"])
    assert typing.ClassVar is mine.Plain


LIGHT = ["magewars.engine.actions", "magewars.engine.attack", "magewars.engine.casting", "magewars.engine.decisions",
         "magewars.engine.dice", "magewars.engine.effects", "magewars.engine.lingering", "magewars.engine.match",
         "magewars.engine.phrases", "magewars.engine.reanimation", "magewars.engine.round", "magewars.engine.state",
         "magewars.odds.exact", "magewars.odds.plan", "magewars.odds.probe", "magewars.spellbook.model",
         "magewars.spellbook.rules", "magewars.dsl.corpus", "magewars.dsl.checker", "magewars.dsl.walk",
         "magewars.lookup.model", "magewars.rulings", "magewars.compare", "magewars.coverage"]


def _light_classes():
    """(class, frozen, eq) of every class made by `@light_dataclass` in LIGHT, read from the source."""
    import re
    out = []
    for name in LIGHT:
        mod = importlib.import_module(name)
        src = inspect.getsource(mod)
        for m in re.finditer(r"^@light_dataclass(?:\((.*?)\))?[^\n]*\nclass (\w+)", src, re.M):
            params = dict(p.split("=") for p in (m.group(1) or "").replace(" ", "").split(",") if p)
            out.append((getattr(mod, m.group(2)), params.get("frozen") == "True", params.get("eq") != "False"))
    return out


def test_every_light_dataclass_equals_what_dataclasses_makes_of_its_fields():
    """Each `@light_dataclass` (the engine, odds, spellbooks, corpus, checker, lookup, rulings...) beside `@dataclass` with the same
    parameters made over the same fields: the fields, signature, docstring shape and __match_args__, and
    instances' __init__ (defaults and factories), repr, equality, hashability and refusal to change."""
    classes = _light_classes()
    assert len(classes) == 48
    for cls, frozen, eq in classes:
        spec = []
        for f in dataclasses.fields(cls):
            kw = {k: getattr(f, k) for k in ("init", "repr", "compare", "hash")}
            if f.default is not dataclasses.MISSING:
                kw["default"] = f.default
            if f.default_factory is not dataclasses.MISSING:
                kw["default_factory"] = f.default_factory
            spec.append((f.name, f.type, dataclasses.field(**kw)))
        twin = dataclasses.make_dataclass(cls.__name__, spec, bases=cls.__bases__, frozen=frozen, eq=eq)
        assert [_shape(f) for f in dataclasses.fields(cls)] == [_shape(f) for f in dataclasses.fields(twin)]
        assert str(inspect.signature(cls)) == str(inspect.signature(twin)), cls
        assert getattr(cls, "__match_args__", None) == getattr(twin, "__match_args__", None)
        if "(" in (cls.__doc__ or "") and cls.__doc__.startswith(cls.__name__ + "("):
            assert cls.__doc__ == twin.__doc__
        if "__post_init__" in vars(cls):
            continue  # (made by dataclasses itself: a shape light_dataclass leaves to it)
        args = {f.name: f"{f.name}-value" for f in dataclasses.fields(cls)
                if f.init and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
        a, b, t = cls(**args), cls(**args), twin(**args)
        assert repr(a) == repr(t).replace(twin.__qualname__, cls.__qualname__, 1), cls
        assert {f.name: getattr(a, f.name) for f in dataclasses.fields(cls)} == \
            {f.name: getattr(t, f.name) for f in dataclasses.fields(twin)}
        assert (a == b) is (twin(**args) == twin(**args)) is eq
        if frozen:
            assert hash(a) == hash(b)
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(a, dataclasses.fields(cls)[0].name, None)
        elif eq:
            assert cls.__hash__ is None and twin.__hash__ is None
        else:
            assert a != b and hash(a) != hash(b)  # an entity: compared by identity
