"""`@frozen_dataclass`: `@dataclass(frozen=True)`, made without compiling source text.

The syntax tree, the definitions and the selectors have about a hundred classes, and creating them
was most of the time a process spent importing them (`magewars lint FILE` on a file just edited
imports them all): for each class `dataclasses` writes six methods as source text and compiles each
(`__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__`, `__delattr__`), some 400,000 machine
instructions apiece.  Here `dataclasses` still does the class's bookkeeping (its fields, defaults,
`__match_args__`, `fields()`, `replace()`) and writes no method.  `__repr__`, `__eq__`, `__hash__`,
`__setattr__` and `__delattr__` are closures over the class's field names that do what the generated
ones do (the same text, comparisons, hash and FrozenInstanceError; the repr is laid out by `pprint`
as a dataclass's).  `__init__`, which must be fast, is the source dataclasses writes, compiled when
the class's first instance is made (until then a stand-in does that and steps aside; inspect reads
the signature from `__signature__`).  A process makes instances of few of the classes it imports:
the cache's decoder makes objects without `__init__`.  tests/dsl/test_frozen.py compares the two
decorators on classes of every shape used.

A class of a shape this does not make (keyword-only or init-only fields, `__post_init__`, a
method of those six written in the class) is made by `dataclass(frozen=True)` itself.
`__dataclass_params__` says what `dataclasses` made (a repr; no init, no eq, not frozen): the class
behaves as a frozen one all the same.
"""
from __future__ import annotations

import _thread
import dataclasses
import inspect
import re
import sys
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


def __create_fn__(names: tuple):
    """The __repr__ dataclasses writes, as a closure (named so that pprint, which looks for this
    name in the qualified name of what the repr wraps, lays the class out as a dataclass)."""
    def __repr__(self):
        return self.__class__.__qualname__ + "(" + ", ".join([f"{n}={getattr(self, n)!r}" for n in names]) + ")"
    return __repr__


def _recursive_repr(user_function):
    """dataclasses' guard: "..." for an object met again inside its own repr."""
    running = set()

    def wrapper(self):
        key = id(self), _thread.get_ident()
        if key in running:
            return "..."
        running.add(key)
        try:
            return user_function(self)
        finally:
            running.discard(key)
    wrapper.__name__ = "__repr__"
    wrapper.__wrapped__ = user_function  # (what pprint looks through: functools.wraps sets it too)
    return wrapper


def _init_source(fields, frozen: bool = True) -> tuple[str, dict]:
    """The source of the __init__ dataclasses writes for a class (frozen or not), and the names it reads
    (written at the class's first instance: the order of its fields was checked when it was made,
    _check_order)."""
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
        body.append(f"  __dataclass_builtins_object__.__setattr__(self,{f.name!r},{value})" if frozen
                    else f"  self.{f.name}={value}")
    return f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) or "  pass") + "\n", names


def _check_order(fields) -> None:
    """dataclasses' TypeError, when the class is made: a parameter without a default after one with."""
    defaulted = False
    for f in fields:
        if f.init:
            if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
                defaulted = True
            elif defaulted:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")


def _lazy_init(cls, fields, frozen: bool = True):
    """A stand-in __init__ that compiles the class's own at its first instance and puts it in its
    place.  A process makes instances of few of the classes it imports (`magewars lint FILE` parses
    one file, and the cache's decoder makes objects without __init__), and compiling source text was
    most of what making a class cost; the source is written then too."""
    _check_order(fields)
    qual = cls.__qualname__

    def __init__(self, *args, **kwargs):
        src, names = _init_source(fields, frozen)
        ns: dict = {}
        exec(src, names, ns)  # noqa: S102  (source made from the class's own field names)
        init = ns["__init__"]
        init.__annotations__ = {**{f.name: f.type for f in fields if f.init}, "return": None}
        init.__qualname__ = f"{qual}.__init__"
        cls.__init__ = init
        init(self, *args, **kwargs)

    __init__.__qualname__ = f"{qual}.__init__"
    return __init__


class _Signature:
    """`cls.__signature__`: what inspect.signature(cls) gives for the compiled __init__, made when it
    is asked for (inspect reads this before it looks at __init__, which may still be the stand-in)."""

    def __init__(self, fields):
        self.fields = fields
        self.made = None

    def __get__(self, obj, owner=None):
        if self.made is None:
            P = inspect.Parameter
            params = []
            for f in self.fields:
                if f.init:
                    default = _shown_default(f)
                    params.append(P(f.name, P.POSITIONAL_OR_KEYWORD, annotation=f.type,
                                    default=P.empty if default is dataclasses.MISSING else default))
            self.made = inspect.Signature(params, return_annotation=None)
        return self.made


def _shown_default(f):
    """The default a field's __init__ parameter shows: its value, `<factory>` for a factory, or MISSING."""
    if f.default is not dataclasses.MISSING:
        return f.default
    return _HAS_FACTORY if f.default_factory is not dataclasses.MISSING else dataclasses.MISSING


#: the first name of an annotation written as text, read as dataclasses reads it (a module's name may
#: come before it: `typing.ClassVar[int]`)
_FIRST_NAME = re.compile(r"^(?:\s*(\w+)\s*\.)?\s*(\w+)")
_SPECIAL_NAMES = frozenset({"ClassVar", "InitVar", "KW_ONLY"})


def _plain(cls, own):
    """Placeholders for the class's own annotations when each is text naming no ClassVar, InitVar or
    KW_ONLY (by those names, or by a name of its module bound to one of them); else None.

    dataclasses reads a text annotation three times over (a pattern and a look-up in the class's module
    each time, for ClassVar, InitVar and KW_ONLY): about a fifth of what making a class cost here.
    With `from __future__ import annotations` every annotation is text, and the classes made here name
    none of the three; a class that may is given to dataclasses as it is."""
    if not own:
        return None
    module = sys.modules.get(cls.__module__)
    names = vars(module) if module is not None else {}
    typing = sys.modules.get("typing")  # (no module can have bound ClassVar if typing was never imported)
    class_var = typing.ClassVar if typing is not None else None
    for text in own.values():
        if type(text) is not str:
            return None
        m = _FIRST_NAME.match(text)
        if m is not None:
            first = m.group(2)
            bound = names.get(first)
            if (first in _SPECIAL_NAMES or bound is dataclasses.InitVar or bound is dataclasses.KW_ONLY
                    or type(bound) is dataclasses.InitVar
                    or (class_var is not None and (bound is class_var  # (or ClassVar[...] bound to a name)
                                                   or getattr(bound, "__origin__", None) is class_var))):
                return None
    return {name: object for name in own}


def frozen_dataclass(cls):
    """`@dataclass(frozen=True)`, made without compiling source text (this module's docstring)."""
    return _make(cls, frozen=True, eq=True)


def light_dataclass(cls=None, /, *, frozen: bool = False, eq: bool = True):
    """`@dataclass`, `@dataclass(frozen=True)` or `@dataclass(eq=False)`, made as frozen_dataclass makes
    a class: no source text compiled but the __init__, at the class's first instance.  Any other
    parameter is dataclasses' own to take (`@dataclass(slots=True)` and the like stay as they are)."""
    def wrap(c):
        return _make(c, frozen=frozen, eq=eq)
    return wrap if cls is None else wrap(cls)


def _make(cls, frozen: bool, eq: bool):
    if (frozen and not eq) or any(n in cls.__dict__ for n in _OWN) or any(
            isinstance(a, dataclasses.InitVar) or a is dataclasses.KW_ONLY
            for a in cls.__dict__.get("__annotations__", {}).values()):
        return dataclasses.dataclass(frozen=frozen, eq=eq)(cls)
    documented = bool(cls.__dict__.get("__doc__"))
    if not documented:
        cls.__doc__ = "-"  # (written below: dataclasses would read object's)
    # dataclasses does the bookkeeping and writes no method (writing one means compiling source text)
    own = cls.__dict__.get("__annotations__")
    plain = _plain(cls, own)
    if plain is not None:  # (it is shown each field's type as a placeholder, then the field is given its own)
        cls.__annotations__ = plain
    try:
        cls = dataclasses.dataclass(cls, init=False, repr=False, eq=False)
    finally:
        if plain is not None:
            cls.__annotations__ = own
    if plain is not None:
        for name, f in cls.__dataclass_fields__.items():
            if name in own:
                f.type = own[name]
    fields = dataclasses.fields(cls)
    if any(f.kw_only for f in fields):  # (a KW_ONLY marker inherited or a field(kw_only=True))
        raise TypeError(f"{cls.__qualname__}: keyword-only fields are not made by frozen_dataclass or light_dataclass")
    qual = cls.__qualname__
    try:  # (a repr of dataclasses' making, as pprint asks before it lays a dataclass out field by field)
        cls.__dataclass_params__.repr = True
    except AttributeError:  # pragma: no cover - a dataclasses whose parameters cannot be changed
        pass
    repr_fn = _recursive_repr(__create_fn__(tuple(f.name for f in fields if f.repr)))
    repr_fn.__qualname__ = f"{qual}.__repr__"
    cls.__repr__ = repr_fn
    cls.__init__ = _lazy_init(cls, fields, frozen)
    cls.__signature__ = _Signature(fields)

    made = []
    if eq:
        compared = _getter(tuple(f.name for f in fields if f.compare))

        def __eq__(self, other):
            if other.__class__ is self.__class__:
                return compared(self) == compared(other)
            return NotImplemented
        made.append(__eq__)
        if not frozen:
            cls.__hash__ = None  # (dataclasses': a mutable class compared by value is not hashable)
    if frozen:
        every = tuple(f.name for f in fields)
        hashed = _getter(tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash)))

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
        made += [__hash__, __setattr__, __delattr__]
    for fn in made:
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
        default = _shown_default(f)
        if default is not dataclasses.MISSING:
            p += f" = {default!r}"
        parts.append(p)
    if parts is not None:
        return (cls.__name__ + "(" + ", ".join(parts) + ")").replace(" -> None", "")
    try:
        return cls.__name__ + str(inspect.signature(cls)).replace(" -> None", "")
    except (TypeError, ValueError):
        return cls.__name__
