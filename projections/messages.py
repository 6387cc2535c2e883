"""Sentences as data: what the rules say is a message key with arguments, rendered in the
reader's language by the shells (issue #33; docs/design.md, "Sentences as data").

A `Message` is an English gettext msgid template with named placeholders ("{player} took
{card}"; plurals: msgid, msgid_plural and a `count` argument) and its arguments. Arguments
are typed so a renderer localises each one: a nested `Message`, a `Name` (a component's
printed name: its own name in the reader's language from the edition, else the catalog's,
else English), a `Seq` (a list, joined per language), an `Ordinal`, a number, or a plain
string (a person's name, a word the caller typed: never translated).

A Message is also a `str` whose text is its English rendering, so everything that keeps
or compares sentences as text (the fingerprint, the JSON documents, scripts) reads the
same English as before; a shell that knows the reader's language calls `render(value,
lang)`, which takes a Message or a legacy plain string alike (a game not converted yet
still returns plain English, and renders as it is).

The catalogs are gettext .po files under projections/locale/ (`pybabel extract` builds
messages.pot from the marker functions `M`, `Mn` and `N_`; babel.cfg). They are read here
with a small parser of our own, so the rules running in the browser (Pyodide, the offline
recorder) render offline with the same catalog and no extra package. Pure: no clock, no IO
beyond reading package data once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cache, lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "N_",
    "M",
    "Message",
    "Mn",
    "Name",
    "Ordinal",
    "Seq",
    "capitalised",
    "catalog",
    "language_of",
    "lowered",
    "render",
]

#: the languages chronicle speaks: code -> its own name (what a language switch shows)
LANGUAGES: dict[str, str] = {"en": "English", "zh_Hans": "简体中文"}
DEFAULT = "en"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def language_of(wanted: str | None) -> str:
    """The language we speak closest to `wanted` ("zh-CN", "zh_Hans", "zh-Hans-CN", "zh" ->
    zh_Hans; "en-GB" -> en); anything else, or nothing, is English."""
    if not wanted:
        return DEFAULT
    tag = wanted.strip().replace("-", "_").split(".")[0].split("@")[0].lower()
    if tag.startswith("zh"):
        return "zh_Hans"  # Traditional-script readers still read Simplified better than English
    return DEFAULT


class Message(str):
    """An immutable sentence as data: `key` (the English msgid), `plural` (msgid_plural, or
    None), `args` (name -> argument), `context` (msgctxt) and whether its first letter is a
    capital in languages that have capitals. Its `str` value is its English rendering."""

    key: str
    plural: str | None
    args: Mapping[str, Any]
    context: str | None
    cap: str | None

    def __new__(cls, key: str, args: Mapping[str, Any] | None = None, *,
                plural: str | None = None, context: str | None = None,
                cap: str | None = None) -> Message:
        frozen = dict(args) if args else {}
        text = _render(key, plural, frozen, context, cap, DEFAULT)
        self = super().__new__(cls, text)
        # one update of the instance dict, not five object.__setattr__ calls: the rules build
        # several messages an event, and __setattr__ is closed to everyone else
        self.__dict__.update(key=key, plural=plural, args=MappingProxyType(frozen),
                             context=context, cap=cap)
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise TypeError("Message is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.key, dict(self.args), self.plural, self.context, self.cap))

    def render(self, lang: str) -> str:
        """This sentence in `lang` (a code of LANGUAGES; unknown ones read English)."""
        if lang == DEFAULT:
            return str.__str__(self)
        return _render(self.key, self.plural, self.args, self.context, self.cap, lang)

    def capitalised(self) -> Message:
        """The same sentence starting with a capital (in a language that has them)."""
        return Message(self.key, self.args, plural=self.plural, context=self.context,
                       cap="upper")

    def lowered(self) -> Message:
        """The same words starting with a small letter, to go inside a sentence."""
        return Message(self.key, self.args, plural=self.plural, context=self.context,
                       cap="lower")


def _rebuild(key: str, args: dict[str, Any], plural: str | None, context: str | None,
             cap: str | None) -> Message:
    return Message(key, args, plural=plural, context=context, cap=cap)


def M(key: str, /, **args: Any) -> Message:
    """A sentence: `M("{player} took {card}", player=..., card=Name(...))`."""
    return Message(key, args)


def Mn(one: str, many: str, count: int, /, **args: Any) -> Message:
    """A sentence by count: `Mn("{count} card", "{count} cards", n)`."""
    return Message(one, {**args, "count": count}, plural=many)


def N_(key: str) -> str:
    """Marks a word for extraction where it is stored as a key and rendered later."""
    return key


class Name(str):
    """A component's printed name in every language the edition or the catalog knows: a
    `str` whose text is the English name, with `own`, the edition's own names by language
    (`name_zh` -> {"zh_Hans": ...}); the catalog (msgctxt "component") serves the rest."""

    own: Mapping[str, str]

    def __new__(cls, en: str, own: Mapping[str, str] | None = None) -> Name:
        self = super().__new__(cls, en)
        object.__setattr__(self, "own", MappingProxyType(dict(own or {})))
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise TypeError("Name is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Name, (str(self), dict(self.own)))

    @property
    def en(self) -> str:
        return str.__str__(self)

    def render(self, lang: str) -> str:
        if lang == DEFAULT:
            return self.en
        own = self.own.get(lang)
        if own:
            return own
        return translate(self.en, lang, context="component") or self.en

    @classmethod
    def of(cls, item: Mapping[str, Any], key: str = "name") -> Name:
        """The name of an edition's item, with its `name_zh` (etc.) where it has one."""
        own = {"zh_Hans": str(item[f"{key}_zh"])} if item.get(f"{key}_zh") else {}
        return cls(str(item[key]), own)


class Seq(str):
    """A list in a sentence: "a, b and c" / "a、b和c"; `conjunction` is "and", "or", "/",
    "slash" ("a/b"), "comma" ("a, b" / "a、b"), "dot" ("a · b"), or ";" and "," (clauses
    joined by that mark alone).
    A `str` whose text is the English list."""

    items: tuple[Any, ...]
    conjunction: str

    def __new__(cls, items: Iterable[Any], conjunction: str = "and") -> Seq:
        kept = tuple(items)
        self = super().__new__(cls, _joined([render(i) for i in kept], conjunction, DEFAULT))
        object.__setattr__(self, "items", kept)
        object.__setattr__(self, "conjunction", conjunction)
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise TypeError("Seq is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Seq, (self.items, self.conjunction))

    def render(self, lang: str) -> str:
        if lang == DEFAULT:
            return str.__str__(self)
        return _joined([render(item, lang) for item in self.items], self.conjunction, lang)


def _joined(items: list[str], conjunction: str, lang: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    if conjunction == "/":
        return " / ".join(items)
    if conjunction == "slash":  # "Britain/Spain": the two countries of an intrigue card
        return "/".join(items)
    if conjunction == "·":  # the parts of an option's detail: "2 thalers · blue · 3 left"
        return " · ".join(items)
    if conjunction in (";", ","):  # clauses of their own: "Anna for the Emperor; Bo for..."
        zh = "\uff1b" if conjunction == ";" else "\uff0c"  # the full-width ; and ,
        return (zh if lang == "zh_Hans" else f"{conjunction} ").join(items)
    if conjunction == "dot":  # "cost 3 · STR 4": the printed values beside a name
        return " · ".join(items)
    if conjunction == "comma":  # "military, power": a plain list, no conjunction
        return ("、" if lang == "zh_Hans" else ", ").join(items)
    if lang == "zh_Hans":
        joiner = "或" if conjunction == "or" else "和"
        return f"{'、'.join(items[:-1])}{joiner}{items[-1]}"
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


class Ordinal:
    """1st, 2nd, 3rd, 11th / 第1: a rank in a sentence."""

    __slots__ = ("n",)
    n: int

    def __init__(self, n: int) -> None:
        object.__setattr__(self, "n", n)

    def __setattr__(self, name: str, value: Any) -> None:
        raise TypeError("Ordinal is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Ordinal, (self.n,))

    def render(self, lang: str) -> str:
        n = self.n
        if lang == "zh_Hans":
            return f"第{n}"
        if 10 <= n % 100 <= 20:
            return f"{n}th"
        return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def render(value: Any, lang: str = DEFAULT) -> str:
    """Any sentence or argument in `lang`: a Message, a Name, a Seq, an Ordinal, or a
    legacy plain string (returned as it is: English until its game is converted)."""
    kind = type(value)
    if kind is str:  # a player's name, a word typed: most arguments, so asked first
        text: str = value
        return text
    if kind is int:
        return str(value)
    if isinstance(value, Message):
        return value.render(lang)
    if isinstance(value, Name | Seq | Ordinal):
        return value.render(lang)
    if isinstance(value, str):
        return str.__str__(value)
    return str(value)


def capitalised(value: Any) -> Any:
    """A sentence whose first letter is a capital (English); a plain string capitalised."""
    if isinstance(value, Message):
        return value.capitalised()
    text = str(value)
    return text[:1].upper() + text[1:]


def lowered(value: Any) -> Any:
    """Words whose first letter is small, to go inside a sentence (a label of a move)."""
    if isinstance(value, Message):
        return value.lowered()
    text = str(value)
    return text[:1].lower() + text[1:]


def _render(key: str, plural: str | None, args: Mapping[str, Any], context: str | None,
            cap: str | None, lang: str) -> str:
    count = args.get("count")
    template = None
    if lang != DEFAULT:
        template = translate(key, lang, context=context, plural=plural,
                             count=count if isinstance(count, int) else None)
    if template is None:
        template = plural if plural is not None and count != 1 else key
    pieces = _pieces(template)
    if len(pieces) == 1:
        text = template
    else:
        text = "".join([piece if i % 2 == 0 else
                        render(args[piece], lang) if piece in args else f"{{{piece}}}"
                        for i, piece in enumerate(pieces)])
    if cap == "upper":
        return text[:1].upper() + text[1:]
    if cap == "lower":
        return text[:1].lower() + text[1:]
    return text


@lru_cache(maxsize=4096)
def _pieces(template: str) -> tuple[str, ...]:
    """A template split once at its placeholders: text, name, text, name, ..., text (an
    unknown name stays as written: "{name}"). Templates are a fixed set of msgids and
    catalog entries; the bound keeps a caller that builds keys from growing it."""
    return tuple(_PLACEHOLDER.split(template))


# ---------------------------------------------------------------------------
# Catalogs: gettext .po files, read by a parser small enough to run in the browser too
# ---------------------------------------------------------------------------


Entry = tuple[str | None, str]  # (msgctxt, msgid)


def translate(key: str, lang: str, *, context: str | None = None, plural: str | None = None,
              count: int | None = None) -> str | None:
    """The catalog's text of `key` in `lang`, or None when it has none (fuzzy ones count as
    none: a translator has not confirmed them)."""
    found = catalog(lang).get((context, key))
    if found is None:
        return None
    forms = found if isinstance(found, tuple) else (found,)
    index = 0 if lang == "zh_Hans" else (0 if count == 1 else 1)
    text = forms[min(index, len(forms) - 1)]
    return text or None


@cache
def catalog(lang: str) -> dict[Entry, str | tuple[str, ...]]:
    """Every translated entry of `lang`'s catalog (empty for English: the msgids are it)."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return {}
    try:
        text = resources.files(__package__).joinpath(
            f"locale/{lang}/LC_MESSAGES/messages.po").read_text("utf-8")
    except FileNotFoundError:
        return {}
    return {(e["msgctxt"], e["msgid"]): (tuple(e["msgstr"]) if e["msgid_plural"] is not None
                                         else e["msgstr"][0])
            for e in parse_po(text) if e["msgid"] and not e["fuzzy"]}


_PO_LINE = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+"(.*)"\s*$')


def parse_po(text: str) -> list[dict[str, Any]]:
    """The entries of a .po file: msgctxt, msgid, msgid_plural, msgstr (a list of forms),
    fuzzy. Obsolete (#~) entries are left out."""
    entries: list[dict[str, Any]] = []
    current: dict[str, Any] = _blank()
    field: tuple[str, int] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#~"):
            if not line and current["msgid"] is not None:
                entries.append(current)
                current, field = _blank(), None
            continue
        if line.startswith("#"):
            _comment(current, line)
            continue
        found = _PO_LINE.match(line)
        if found:
            kind, index, value = found.group(1), found.group(2), _unquote(found.group(3))
            if kind == "msgctxt" and current["msgid"] is not None:
                entries.append(current)
                current = _blank()
            name = "msgstr" if kind.startswith("msgstr") else kind
            field = (name, int(index or 0))
            _store(current, field, value)
        elif line.startswith('"') and field is not None:
            _store(current, field, _unquote(line[1:-1]), append=True)
    if current["msgid"] is not None:
        entries.append(current)
    return entries


def _comment(entry: dict[str, Any], line: str) -> None:
    """A flag line ("#, fuzzy") or a reference line ("#: api/static/app.js:12")."""
    if line.startswith("#,"):
        entry["fuzzy"] = "fuzzy" in line
    elif line.startswith("#:"):
        entry["refs"] += line[2:].split()


def _blank() -> dict[str, Any]:
    return {"msgctxt": None, "msgid": None, "msgid_plural": None, "msgstr": [], "fuzzy": False,
            "refs": []}


def _store(entry: dict[str, Any], field: tuple[str, int], value: str, append: bool = False) -> None:
    name, index = field
    if name != "msgstr":
        entry[name] = (entry[name] or "") + value if append else value
        return
    forms: list[str] = entry["msgstr"]
    while len(forms) <= index:
        forms.append("")
    forms[index] = forms[index] + value if append else value


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), text)


_PERCENT = re.compile(r"%\((\w+)\)s")


def placeholders(template: str) -> set[str]:
    """The names of a template's placeholders, "{name}" (the rules, the pages' JS) or
    "%(name)s" (the page templates): the catalog test compares them."""
    return set(_PLACEHOLDER.findall(template)) | set(_PERCENT.findall(template))


def extract_edition(fileobj: Any, keywords: Any, comment_tags: Any, options: Any
                    ) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """`pybabel extract` of an edition's JSON (babel.cfg, [edition: ...]): every printed
    name a label is made of (a top-level list of objects with an id and a name, as
    `GameRules.labels` reads them) that has no name of its own in Chinese (`name_zh`), as
    msgctxt "component"; the catalog then holds its translation."""
    import json  # noqa: PLC0415 - only pybabel calls this, never the rules

    content = json.loads(fileobj.read().decode("utf-8"))
    seen: set[str] = set()
    for value in content.values():
        for item in value if isinstance(value, list) else ():
            if isinstance(item, dict) and isinstance(item.get("id"), str) and \
                    isinstance(item.get("name"), str) and not item.get("name_zh") and \
                    item["name"] not in seen:
                seen.add(item["name"])
                yield 1, "pgettext", ("component", item["name"]), []


def localise(value: Any, lang: str) -> Any:
    """A JSON-ready document with every sentence in it rendered in `lang`: machine fields
    (codes, ids, numbers) stay as they are, and in English the document is returned as it
    is (a Message's text is already its English)."""
    if lang == DEFAULT:
        return value
    if isinstance(value, Message | Name | Seq):
        return value.render(lang)
    if isinstance(value, dict):
        return {k: localise(v, lang) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [localise(v, lang) for v in value]
    return value
