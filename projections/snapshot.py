"""Folded cursors as plain JSON data, so a snapshot store can never hand back code.

A snapshot used to be a pickle: whoever could write the snapshots table (a shared
PostgreSQL, a SQLite file received from someone) could run code in every worker. This
codec writes a cursor as tagged JSON and reads it back by constructing only the frozen
dataclasses and enums of this package (plus `Bag` and `FrozenDict`), never calling a
constructor, a `__reduce__` or an import: a class is found among the modules of
`projections` already loaded, and must be a dataclass or an enum. Anything else — an
unknown tag, a class from elsewhere, a missing field — is a `SnapshotError`, and the fold
treats the snapshot as a cache miss.

Tags: `{"t": [...]}` tuple, `{"l": [...]}` list, `{"d": [[k, v], ...]}` dict (any key
type), `{"fd": [[k, v], ...]}` FrozenDict, `{"fs": [...]}` frozenset, `{"bag": [[id, n],
...]}` Bag, `{"e": "module:Class", "v": value}` enum member, `{"dc": "module:Class",
"f": {field: value}}` dataclass; strings, numbers, booleans and null stand for themselves.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import sys
from typing import Any

from .rules import Bag, FrozenDict

FORMAT = 1
_PACKAGE = __name__.rsplit(".", 1)[0]


class SnapshotError(ValueError):
    """A snapshot that is not this codec's data, or names a class it may not build."""


def dumps(value: Any) -> str:
    """The JSON text of a cursor (or any state value)."""
    return json.dumps({"format": FORMAT, "value": encode(value)}, separators=(",", ":"),
                      sort_keys=True)


def loads(text: str | bytes) -> Any:
    """The value `dumps` wrote; SnapshotError for anything else."""
    try:
        doc = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError) as err:
        raise SnapshotError(f"not JSON: {err}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or "value" not in doc:
        raise SnapshotError("not a snapshot of this format")
    try:
        return decode(doc["value"])
    except SnapshotError:
        raise
    except (RecursionError, TypeError, ValueError, AttributeError) as err:
        raise SnapshotError(f"not a snapshot this codec wrote ({type(err).__name__})") from None


def encode(value: Any) -> Any:
    """Tagged JSON of a value made of the types listed in the module docstring."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, enum.Enum):
        return {"e": _name(type(value)), "v": encode(value.value)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"dc": _name(type(value)),
                "f": {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    if isinstance(value, Bag):
        return {"bag": [[k, n] for k, n in sorted(value.counts().items())]}
    if isinstance(value, FrozenDict):
        return {"fd": [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, dict):
        return {"d": [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, tuple):
        return {"t": [encode(v) for v in value]}
    if isinstance(value, list):
        return {"l": [encode(v) for v in value]}
    if isinstance(value, frozenset):
        items = [encode(v) for v in value]
        return {"fs": sorted(items, key=lambda x: json.dumps(x, sort_keys=True))}
    raise TypeError(f"a snapshot cannot hold a {type(value).__name__}")


def _name(cls: type) -> str:
    if not cls.__module__.startswith(_PACKAGE + ".") and cls.__module__ != _PACKAGE:
        raise TypeError(f"{cls.__module__}.{cls.__qualname__} is not a projections type")
    return f"{cls.__module__}:{cls.__qualname__}"


def decode(value: Any) -> Any:
    """The inverse of `encode`; builds nothing but the types listed above."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if not isinstance(value, dict) or len(value) not in (1, 2):
        raise SnapshotError("an untagged object")
    if "e" in value and "v" in value:
        return _enum(_class(value["e"]), value["v"])
    if "dc" in value and "f" in value:
        return _dataclass(_class(value["dc"]), value["f"])
    (tag, body), = value.items() if len(value) == 1 else [(None, None)]
    decoder = _DECODERS.get(tag) if isinstance(tag, str) else None
    if decoder is None:
        raise SnapshotError(f"unknown tag {sorted(value)}")
    return decoder(body)


def _bag(body: Any) -> Bag:
    counts = {str(k): n for k, n in _pairs(body)}
    if not all(isinstance(n, int) and not isinstance(n, bool) and n > 0
               for n in counts.values()):
        raise SnapshotError("a bag count is not a positive integer")
    return Bag(counts)


_DECODERS: dict[str, Any] = {
    "t": lambda body: tuple(decode(v) for v in _list(body)),
    "l": lambda body: [decode(v) for v in _list(body)],
    "d": lambda body: {decode(k): decode(v) for k, v in _pairs(body)},
    "fd": lambda body: FrozenDict({decode(k): decode(v) for k, v in _pairs(body)}),
    "fs": lambda body: frozenset(decode(v) for v in _list(body)),
    "bag": _bag,
}


def _enum(cls: type, raw: Any) -> Any:
    if not issubclass(cls, enum.Enum):
        raise SnapshotError(f"{cls.__qualname__} is not an enum")
    try:
        return cls(decode(raw))
    except ValueError:
        raise SnapshotError(f"{cls.__qualname__} has no member {raw!r}") from None


def _dataclass(cls: type, fields_in: Any) -> Any:
    if not dataclasses.is_dataclass(cls) or not isinstance(fields_in, dict):
        raise SnapshotError(f"{cls.__qualname__} is not a dataclass")
    names = [f.name for f in dataclasses.fields(cls)]
    if sorted(names) != sorted(fields_in):
        raise SnapshotError(f"{cls.__qualname__} fields do not match the snapshot")
    obj = object.__new__(cls)  # no __init__, no __post_init__: data only
    for name in names:
        object.__setattr__(obj, name, decode(fields_in[name]))
    return obj


def _class(name: Any) -> type:
    """A class already defined in a loaded module of this package; never imports."""
    if not isinstance(name, str) or ":" not in name:
        raise SnapshotError("a class name must be 'module:Class'")
    module_name, _, qualname = name.partition(":")
    if module_name != _PACKAGE and not module_name.startswith(_PACKAGE + "."):
        raise SnapshotError(f"{module_name} is outside {_PACKAGE}")
    module = sys.modules.get(module_name)
    found: Any = module
    for part in qualname.split("."):
        found = getattr(found, part, None) if found is not None else None
    if not isinstance(found, type) or found.__module__ != module_name:
        raise SnapshotError(f"{name} is not a class of {module_name}")
    return found


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise SnapshotError("a tagged sequence must hold a list")
    return value


def _pairs(value: Any) -> list[tuple[Any, Any]]:
    items = _list(value)
    if not all(isinstance(p, list) and len(p) == 2 for p in items):
        raise SnapshotError("a mapping must hold [key, value] pairs")
    return [(p[0], p[1]) for p in items]
