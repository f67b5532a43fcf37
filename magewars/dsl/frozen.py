"""`@frozen_dataclass`: `@dataclass(frozen=True)`, made at a third of the cost.

The syntax tree has some seventy node classes, and creating them was most of the time a process
spent importing it (`magewars lint FILE` on a file just edited imports it): for each class
`dataclasses` writes six methods as source text and compiles each (`__init__`, `__repr__`,
`__eq__`, `__hash__`, `__setattr__`, `__delattr__`).  Here `dataclasses` still does the class's
bookkeeping (its fields, defaults, `__match_args__`, `fields()`, `replace()`) and writes
`__repr__` (`pprint` recognises a dataclass by it), `__init__` is compiled here, and the other four
are closures over the class's field names that do what the generated ones do (the same
comparisons, hash and FrozenInstanceError).  tests/dsl/test_frozen.py
compares the two decorators on classes of every shape used.

A class of a shape this does not make (keyword-only or init-only fields, `__post_init__`, a
method of those six written in the class) is made by `dataclass(frozen=True)` itself.
`__dataclass_params__` says what `dataclasses` made (no init, no eq, not frozen): the class
behaves as a frozen one all the same.
"""
from __future__ import annotations

import dataclasses
import inspect
from operator import attrgetter

_OWN = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__post_init__")


class _Factory:  # dataclasses' sentinel for a default made by a factory (shows as <factory>)
    def __repr__(self) -> str:
        return "<factory>"


_HAS_FACTORY = _Factory()


def _getter(names: tuple):
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda o: (one(o),)
    return lambda o: ()


def frozen_dataclass(cls):
    if any(n in cls.__dict__ for n in _OWN) or any(
            isinstance(a, dataclasses.InitVar) or a is dataclasses.KW_ONLY
            for a in cls.__dict__.get("__annotations__", {}).values()):
        return dataclasses.dataclass(frozen=True)(cls)
    documented = bool(cls.__dict__.get("__doc__"))
    if not documented:
        cls.__doc__ = "-"  # (written below, once __init__ is there: dataclasses would read object's)
    cls = dataclasses.dataclass(cls, init=False, eq=False)  # (its __repr__: pprint knows that one by name)
    fields = dataclasses.fields(cls)
    if any(f.kw_only for f in fields):  # (a KW_ONLY marker inherited or a field(kw_only=True))
        raise TypeError(f"{cls.__qualname__}: keyword-only fields are not made by frozen_dataclass")
    qual = cls.__qualname__

    # __init__: the one compiled method, as dataclasses writes a frozen class's
    names = {"__dataclass_builtins_object__": object, "_HAS_DEFAULT_FACTORY": _HAS_FACTORY}
    params, body = [], []
    for f in fields:
        dflt = f"__dataclass_dflt_{f.name}__"
        if f.init:
            if f.default is not dataclasses.MISSING:
                names[dflt] = f.default
                params.append(f"{f.name}={dflt}")
                value = f.name
            elif f.default_factory is not dataclasses.MISSING:
                names[dflt] = f.default_factory
                params.append(f"{f.name}=_HAS_DEFAULT_FACTORY")
                value = f"{dflt}() if {f.name} is _HAS_DEFAULT_FACTORY else {f.name}"
            else:
                if any("=" in p for p in params):
                    raise TypeError(f"non-default argument {f.name!r} follows default argument")
                params.append(f.name)
                value = f.name
        elif f.default is not dataclasses.MISSING:
            names[dflt] = f.default
            value = dflt
        elif f.default_factory is not dataclasses.MISSING:
            names[dflt] = f.default_factory
            value = f"{dflt}()"
        else:
            continue
        body.append(f"  __dataclass_builtins_object__.__setattr__(self,{f.name!r},{value})")
    src = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) or "  pass") + "\n"
    ns: dict = {}
    exec(src, names, ns)  # noqa: S102  (source made above from the class's own field names)
    init = ns["__init__"]
    init.__annotations__ = {**{f.name: f.type for f in fields if f.init}, "return": None}
    init.__qualname__ = f"{qual}.__init__"
    cls.__init__ = init

    every = tuple(f.name for f in fields)
    compared = _getter(tuple(f.name for f in fields if f.compare))
    hashed = _getter(tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash)))
    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return compared(self) == compared(other)
        return NotImplemented

    def __hash__(self):
        return hash(hashed(self))

    def __setattr__(self, name, value):
        if type(self) is cls or name in every:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in every:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    for fn in (__eq__, __hash__, __setattr__, __delattr__):
        fn.__qualname__ = f"{qual}.{fn.__name__}"
        setattr(cls, fn.__name__, fn)
    if not documented:  # dataclasses' own docstring: the class's name and signature
        cls.__doc__ = _signature_doc(cls, fields)
    return cls


def _signature_doc(cls, fields) -> str:
    """`cls.__name__ + str(inspect.signature(cls))` (less " -> None"), as dataclasses writes it, made
    from the fields when every annotation is a string (as `from __future__ import annotations`
    leaves them): inspect's own way costs more than the rest of making the class."""
    parts = []
    for f in fields:
        if not f.init:
            continue
        if type(f.type) is not str:
            parts = None
            break
        p = f"{f.name}: {f.type!r}"
        if f.default is not dataclasses.MISSING:
            p += f" = {f.default!r}"
        elif f.default_factory is not dataclasses.MISSING:
            p += " = <factory>"
        parts.append(p)
    if parts is not None:
        return (cls.__name__ + "(" + ", ".join(parts) + ")").replace(" -> None", "")
    try:
        return cls.__name__ + str(inspect.signature(cls)).replace(" -> None", "")
    except (TypeError, ValueError):
        return cls.__name__
