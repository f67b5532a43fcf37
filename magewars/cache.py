"""A content-keyed cache of compiled language results, in a safe data format.

What is cached (all under :func:`cache_dir`):

- ``ast/<key>``: one source file's parse result (its AST, its syntax diagnostics
  and the names it declares), keyed by the file's path and content;
- ``compiled/<key>``: a whole compilation (corpus + diagnostics), keyed by the
  content of every file that went into it;
- ``codex/<key>``: the codex's own part of a check of card files against it (its
  definitions, phrases and diagnostics: magewars/corpusstore.py), keyed by the codex's
  files and every name the check knew, so a card file just edited is checked without
  checking the codex again;
- ``names/<key>``: the names a file declares (and those of a set of context files).

Every key also covers the package version, the grammar text and the shape of
the dataclasses stored (their names and fields), so a change to any of them
misses the cache instead of loading stale data.

Nothing here executes what it reads: entries are msgpack documents made of
numbers, strings and lists.  Dataclasses are written as a list tagged with
the index of their class in a fixed registry (the dataclasses of the language
modules, and nothing else); the decoder checks every tag and every field
count, and a checksum covers the payload.  Any entry that fails to load is
reported as a miss (and removed), and the caller compiles instead.

Environment: ``MAGEWARS_CACHE_DIR`` chooses the folder (default: the
platform's user cache folder, via platformdirs); ``MAGEWARS_NO_CACHE=1``
(or ``MAGEWARS_CACHE_DIR=off``) turns the cache off.
"""
from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path
from collections.abc import Mapping
from typing import Any, Iterable, Optional

try:  # hashlib's own BLAKE2, without importing hashlib, whose OpenSSL module takes ~4 ms to start
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python whose hashlib has BLAKE2 from elsewhere
    from hashlib import blake2b

FORMAT = 2  # 2: a trait's `-X` parameter keeps its sign (XValue coef -1)
MAGIC = b"MWC1"
_DIGEST = 16

__all__ = ["cache_dir", "enabled", "Codec", "CacheError", "module_dataclasses", "get", "put", "remove", "key_of", "file_hash",
           "clear"]


class CacheError(ValueError):
    """A cache entry that cannot be decoded (corrupt, truncated or of another schema)."""


# ---------------------------------------------------------------- where
def enabled() -> bool:
    if os.environ.get("MAGEWARS_NO_CACHE", "").strip() not in ("", "0"):
        return False
    return os.environ.get("MAGEWARS_CACHE_DIR", "").strip().lower() not in ("off", "none", "0")


def cache_dir() -> Path:
    env = os.environ.get("MAGEWARS_CACHE_DIR", "").strip()
    if env:
        return Path(env).expanduser()
    import platformdirs
    return Path(platformdirs.user_cache_dir("magewars", appauthor=False))


# ---------------------------------------------------------------- codec
# Containers are lists whose first item says what they are: a class index
# (>= 0) for a registered dataclass, or one of these negative tags.
_TUPLE, _LIST, _DICT, _SET, _FROZENSET, _BIGINT = -1, -2, -3, -4, -5, -6
_INT_MIN, _INT_MAX = -(2 ** 63), 2 ** 63 - 1
_SCALARS = frozenset({type(None), bool, int, float, str})
_PLAIN_SCALARS = frozenset({type(None), bool, float, str})  # ints are range-checked when encoded


class Codec:
    """Encodes and decodes values built from scalars, containers and registered dataclasses."""

    def __init__(self, classes: Iterable[type]):
        self.classes = sorted(set(classes), key=lambda c: (c.__module__, c.__qualname__))
        self.index = {c: i for i, c in enumerate(self.classes)}
        self.fields = [tuple(f.name for f in dataclasses.fields(c)) for c in self.classes]
        self.plain = [not hasattr(c, "__post_init__") and "__slots__" not in c.__dict__ for c in self.classes]
        shape = repr([(c.__module__, c.__qualname__, fs) for c, fs in zip(self.classes, self.fields)])
        self.schema = blake2b(shape.encode(), digest_size=_DIGEST).hexdigest()

    # ---- encode
    def encode(self, value: Any) -> Any:
        """Plain data for msgpack; CacheError for anything outside the registry."""
        index, fields = self.index, self.fields
        plain = _PLAIN_SCALARS

        def enc(value):
            t = type(value)
            if t in plain:
                return value
            if t is int:
                return value if _INT_MIN <= value <= _INT_MAX else [_BIGINT, str(value)]
            # (a scalar inside a container is written in place, not through a call: most values are)
            i = index.get(t)
            if i is not None:
                d = value.__dict__
                out = [i]
                for name in fields[i]:
                    v = d[name]
                    tv = type(v)
                    out.append(v if tv in plain or (tv is int and _INT_MIN <= v <= _INT_MAX) else enc(v))
                return out
            if t is tuple or t is list:
                out = [_TUPLE if t is tuple else _LIST]
                for v in value:
                    tv = type(v)
                    out.append(v if tv in plain or (tv is int and _INT_MIN <= v <= _INT_MAX) else enc(v))
                return out
            if t is dict:
                out = [_DICT]
                for k, v in value.items():
                    out.append(enc(k))
                    out.append(enc(v))
                return out
            if t is set or t is frozenset:
                return [_SET if t is set else _FROZENSET, *map(enc, sorted(value, key=repr))]
            if isinstance(value, Mapping):  # a corpus's mappings decoded on use (corpusstore.py): as a dict
                return enc(dict(value))
            raise CacheError(f"cannot store a {t.__module__}.{t.__qualname__} in the cache")

        return enc(value)

    # ---- decode
    def decode(self, data: Any) -> Any:
        """Rebuild a value; CacheError on anything the encoder could not have written."""
        if type(data) in _SCALARS:
            return data
        return self._decoder()(data)

    def _decoder(self):
        classes, fields, plain = self.classes, self.fields, self.plain
        n_classes = len(classes)
        scalars = _SCALARS
        new = object.__new__

        def dec(data):
            if type(data) is not list:
                raise CacheError(f"unexpected {type(data).__name__} in a cache entry")
            if not data:
                raise CacheError("untagged list in a cache entry")
            tag = data[0]
            if type(tag) is not int:
                raise CacheError("untagged list in a cache entry")
            if tag >= 0:
                if tag >= n_classes:
                    raise CacheError(f"unknown class tag {tag}")
                names = fields[tag]
                if len(data) != len(names) + 1:
                    raise CacheError(f"{classes[tag].__name__}: {len(data) - 1} fields, expected {len(names)}")
                vals = [v if type(v) in scalars else dec(v) for v in data[1:]]
                if plain[tag]:
                    obj = new(classes[tag])
                    obj.__dict__.update(zip(names, vals))
                    return obj
                return classes[tag](*vals)
            if tag == _TUPLE:
                if len(data) == 1:
                    return ()
                return tuple([v if type(v) in scalars else dec(v) for v in data[1:]])
            if tag == _LIST:
                return [v if type(v) in scalars else dec(v) for v in data[1:]]
            if tag == _DICT:
                if len(data) % 2 != 1:
                    raise CacheError("odd dict in a cache entry")
                items = [v if type(v) in scalars else dec(v) for v in data[1:]]
                try:
                    return dict(zip(items[0::2], items[1::2]))
                except TypeError as exc:  # an unhashable key
                    raise CacheError(str(exc)) from None
            if tag == _SET or tag == _FROZENSET:
                items = [v if type(v) in scalars else dec(v) for v in data[1:]]
                try:
                    return set(items) if tag == _SET else frozenset(items)
                except TypeError as exc:
                    raise CacheError(str(exc)) from None
            if tag == _BIGINT and len(data) == 2 and type(data[1]) is str and len(data[1]) <= 64:
                try:
                    return int(data[1])
                except ValueError:
                    pass
            raise CacheError(f"unknown container tag {tag}")

        return dec

    # ---- bytes
    def dumps(self, value: Any, key: str = "") -> bytes:
        return dumps_raw(self.encode(value), key, self.schema)

    def dumps_record(self, value: Any) -> bytes:
        """One value as bare msgpack, to be framed inside a larger entry (magewars/corpusstore.py)."""
        return pack(self.encode(value))

    def loads_record(self, blob: bytes) -> Any:
        """A value written by :meth:`dumps_record`; CacheError if it cannot be."""
        import gc
        paused = gc.isenabled()
        gc.disable()
        try:
            return self.decode(unpack(blob, "record"))
        except RecursionError:
            raise CacheError("record nested too deeply") from None
        finally:
            if paused:
                gc.enable()

    def loads(self, blob: bytes, key: str = "") -> Any:
        import gc
        paused = gc.isenabled()
        gc.disable()  # tens of thousands of new objects, none of them garbage: skip the collector
        try:
            return self.decode(loads_raw(blob, key, self.schema))
        except RecursionError:
            raise CacheError("entry nested too deeply") from None
        finally:
            if paused:
                gc.enable()


def pack(value: Any) -> bytes:
    """Plain data (None, bools, ints of 64 bits, floats, str, bytes, lists, tuples, dicts) as msgpack;
    CacheError for anything else.  (msgpack: its C extension imports in a tenth of the time msgspec,
    used here before, took, and every command that reads the cache imports it.)"""
    import msgpack
    try:
        return msgpack.packb(value, use_bin_type=True)
    except (TypeError, ValueError, OverflowError) as exc:
        raise CacheError(f"cannot store: {exc}") from None


def unpack(blob: bytes, what: str = "entry") -> Any:
    """The data :func:`pack` wrote; CacheError for bytes it cannot have written (truncated, damaged, too
    deep, trailing bytes).  Lists come back as lists, maps as dicts with any hashable key."""
    import msgpack
    try:
        return msgpack.unpackb(blob, raw=False, strict_map_key=False, use_list=True)
    except (msgpack.UnpackException, ValueError, TypeError, OverflowError) as exc:
        raise CacheError(f"undecodable {what}: {exc.__class__.__name__}: {exc}") from None


def dumps_raw(doc: Any, key: str, schema: str = "") -> bytes:
    """Frame plain msgpack data: magic, checksum, then [format, schema, key, data]."""
    payload = pack([FORMAT, schema, key, doc])
    return MAGIC + blake2b(payload, digest_size=_DIGEST).digest() + payload


def loads_raw(blob: bytes, key: str, schema: str = "") -> Any:
    """The data of a framed entry; CacheError unless magic, checksum, format, schema and key match."""
    if len(blob) < len(MAGIC) + _DIGEST or not blob.startswith(MAGIC):
        raise CacheError("not a magewars cache entry")
    digest, payload = blob[len(MAGIC):len(MAGIC) + _DIGEST], blob[len(MAGIC) + _DIGEST:]
    if blake2b(payload, digest_size=_DIGEST).digest() != digest:
        raise CacheError("checksum mismatch")
    doc = unpack(payload)
    if type(doc) is not list or len(doc) != 4 or doc[0] != FORMAT or doc[1] != schema or doc[2] != key:
        raise CacheError("entry of another format, schema or key")
    return doc[3]


def module_dataclasses(*modules) -> list[type]:
    """The dataclasses defined in the given modules (a registry for :class:`Codec`)."""
    out = []
    for m in modules:
        for v in vars(m).values():
            if isinstance(v, type) and dataclasses.is_dataclass(v) and v.__module__ == m.__name__:
                out.append(v)
    return out


# ---------------------------------------------------------------- keys
def file_hash(data: bytes) -> str:
    return blake2b(data, digest_size=_DIGEST).hexdigest()


def key_of(*parts: Any) -> str:
    """A cache key over the format, the package version and the given parts."""
    from . import __version__
    h = blake2b(digest_size=_DIGEST)
    for p in (FORMAT, __version__, *parts):
        h.update(repr(p).encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


# ---------------------------------------------------------------- store
def _path(kind: str, key: str) -> Path:
    return cache_dir() / f"v{FORMAT}" / kind / f"{key}.mwc"


def get(kind: str, key: str, c: Optional[Codec]) -> Any:
    """The entry's value, or None on a miss.  A corrupt entry is removed and counts as a miss.

    With no codec, the entry is plain msgpack data (see :func:`dumps_raw`)."""
    if not enabled():
        return None
    p = _path(kind, key)
    try:
        blob = p.read_bytes()
    except OSError:
        return None
    try:
        return c.loads(blob, key) if c is not None else loads_raw(blob, key)
    except CacheError:
        try:
            p.unlink()
        except OSError:
            pass
        return None


def remove(kind: str, key: str) -> None:
    """Remove an entry (one found damaged after it was read)."""
    try:
        _path(kind, key).unlink()
    except OSError:
        pass


def put(kind: str, key: str, value: Any, c: Optional[Codec]) -> bool:
    """Store an entry (atomically: written aside, then renamed).  False if it could not be stored."""
    if not enabled():
        return False
    p = _path(kind, key)
    try:
        blob = c.dumps(value, key) if c is not None else dumps_raw(value, key)
    except (CacheError, RecursionError, TypeError, ValueError, OverflowError):
        return False
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = _new_file(p.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(blob)
            os.replace(tmp, p)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError:
        return False
    _prune(p.parent)
    return True


def _new_file(folder: Path) -> tuple[int, str]:
    """A new file of a name no other writer has, open for writing (tempfile.mkstemp's way, without
    importing tempfile and what it imports: a lint of a file just edited writes to the cache)."""
    for _ in range(100):
        name = os.path.join(folder, f".tmp-{os.urandom(8).hex()}")
        try:
            return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(f"no new file name found in {folder}")


_KEEP = {"compiled": 24, "codex": 24, "ast": 1500, "names": 1500, "declared": 1500, "checks": 1500, "parser": 4,
         "yaml": 200}


def _prune(folder: Path) -> None:
    """Keep each kind of entry to a bounded number of files (oldest go first)."""
    limit = _KEEP.get(folder.name, 1000)
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    if len(entries) <= limit:
        return
    def age(e) -> int:
        try:  # another process may prune the same folder at the same time
            return e.stat().st_mtime_ns if e.is_file() else 0
        except OSError:
            return 0

    entries.sort(key=age)
    for e in entries[:len(entries) - limit]:
        try:
            os.unlink(e.path)
        except OSError:
            pass


def clear() -> None:
    """Remove this format's entries."""
    import shutil
    shutil.rmtree(cache_dir() / f"v{FORMAT}", ignore_errors=True)


if __name__ == "__main__":  # pragma: no cover
    print(cache_dir() if enabled() else "cache disabled", file=sys.stdout)


# ---------------------------------------------------------------- YAML data
def _yaml_plain(value: Any) -> bool:
    t = type(value)
    if t in _SCALARS:
        return True
    if t is list:
        return all(_yaml_plain(v) for v in value)
    if t is dict:
        return all(type(k) in _SCALARS and _yaml_plain(v) for k, v in value.items())
    return False


def load_yaml(text: str) -> Any:
    """`yaml.safe_load(text)`, through the cache: the parsed document is stored as plain msgpack,
    keyed by the text.  Documents holding anything but scalars, lists and mappings (dates...)
    are parsed every time.  Parse errors propagate as `yaml.YAMLError`."""
    key = key_of("yaml", file_hash(text.encode("utf-8")))
    hit = get("yaml", key, None)
    if hit is not None and type(hit) is list and len(hit) == 1:
        return hit[0]
    import yaml
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: same result, faster
    doc = yaml.load(text, Loader=loader)
    if _yaml_plain(doc):
        put("yaml", key, [doc], None)
    return doc
