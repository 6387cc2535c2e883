"""The contract every game module satisfies, and the small pure helpers they share.

A game is a subclass of `GameRules` bound to one edition (its component data). The
binding happens once per edition, so a state never has to carry the edition and a
reducer reads every number from `self.edition`. See docs/design.md, "Reducers".

Nothing here does IO, reads the clock or draws a random number: chance arrives as data
on actions, or through the `Dealer` passed to `fill_chance` by the recorder.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from dataclasses import replace as dataclass_replace
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar

from marshmallow import INCLUDE, Schema, ValidationError

from .errors import ChronicleError, IllegalAction
from .messages import M, Message, Name, Ordinal, Seq

if TYPE_CHECKING:
    from .choices import ActionType

Seat = int
Actor = int | Literal["table", "server"]
CardId = str
#: a game's state: each game's own frozen dataclass (GameRules[S] is checked against it)
S = TypeVar("S")
T = TypeVar("T")
State = Any  # where any game's state will do (the fold, the service)
Viewer = int | None | Literal["all", "table"]
ALL: Literal["all"] = "all"
#: the recorder at a physical table: everything but what a seat sealed with its own token
#: (`GameRules.sealed_types`); only a game that has such moves is ever shown to it (#32)
TABLE: Literal["table"] = "table"

__all__ = ["ALL", "TABLE", "Action", "Bag", "ChronicleError", "Dealer", "FrozenDict", "GameRules",
           "IllegalAction", "freeze", "ordinal", "ordinal_of", "plural", "possessive", "replace",
           "require", "require_seat", "seat_name", "thaw", "with_item", "words_list"]


# ---------------------------------------------------------------------------
# Immutable data
# ---------------------------------------------------------------------------


class FrozenDict(dict[str, Any]):
    """A dict that refuses mutation, so action data cannot be changed by a reducer."""

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("FrozenDict is immutable")

    __setitem__ = _refuse
    __delitem__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]
    __ior__ = _refuse  # type: ignore[assignment]

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items())))

    def __reduce__(self) -> tuple[Any, ...]:
        """How `copy.deepcopy` rebuilds one (the purity tests copy every state they check):
        from a plain dict, never item by item (which this class refuses). Snapshots do not
        come this way; they are JSON (projections/snapshot.py)."""
        return (FrozenDict, (dict(self),))


#: the leaves of JSON data, returned as they are by `freeze` and `thaw` (checked first: every
#: event's data is frozen on its way into a reducer, and most of it is strings and numbers)
_SCALARS = frozenset({str, int, float, bool, type(None)})


def freeze(value: Any) -> Any:
    """Deep-freeze JSON data: lists become tuples, dicts become FrozenDicts."""
    if type(value) in _SCALARS:
        return value
    if isinstance(value, dict):
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple([freeze(v) for v in value])
    return value


def thaw(value: Any) -> Any:
    """The inverse of `freeze`: plain JSON-ready dicts and lists."""
    if type(value) in _SCALARS:
        return value
    if isinstance(value, dict):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, list | tuple | frozenset):
        return [thaw(v) for v in value]
    return value


Copier = Callable[[Any], Any]
#: dataclass -> (a copier of its fields, their names), or None when `replace` must run its
#: __init__
_COPIERS: dict[type, tuple[Copier, frozenset[str]] | None] = {}


def replace(obj: T, /, **changes: Any) -> T:
    """`dataclasses.replace` for the frozen dataclasses of the games, without re-running
    __init__: a state is rebuilt several times per event, and the stock replace (which
    re-reads the fields' specs and calls __init__ each time) was the fold's hot spot.

    Only for a class whose generated __init__ does nothing but store its fields (no
    __post_init__, no init=False field); any other class goes through
    `dataclasses.replace`.
    """
    cls = type(obj)
    shape = _COPIERS[cls] if cls in _COPIERS else _copier_of(cls)
    if shape is None:
        return dataclass_replace(obj, **changes)  # type: ignore[type-var]
    copy, known = shape
    if not known.issuperset(changes):
        unknown = sorted(set(changes) - known)
        raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
    new: T = copy(obj)
    setter = object.__setattr__
    for name, value in changes.items():
        setter(new, name, value)
    return new


def _copier_of(cls: type) -> tuple[Copier, frozenset[str]] | None:
    specs = fields(cls)
    generated_init = cls.__dataclass_params__.init  # type: ignore[attr-defined]
    plain = generated_init and not hasattr(cls, "__post_init__") and all(f.init for f in specs)
    names = tuple(f.name for f in specs)
    shape = (_field_copier(cls, names), frozenset(names)) if plain else None
    _COPIERS[cls] = shape
    return shape


def _field_copier(cls: type, names: tuple[str, ...]) -> Copier:
    """A function copying the fields of a `cls` into a new one, one line per field (as
    dataclasses writes its __init__): a third faster than a loop over the names. The names
    are the class's own field names, never data."""
    body = "".join(f"    store(new, {name!r}, obj.{name})\n" for name in names)
    source = f"def copy(obj):\n    new = make(cls)\n{body}    return new\n"
    namespace: dict[str, Any] = {"make": object.__new__, "store": object.__setattr__,
                                 "cls": cls}
    exec(compile(source, f"<copier of {cls.__module__}.{cls.__qualname__}>", "exec"), namespace)
    copier: Copier = namespace["copy"]
    return copier


@dataclass(frozen=True, slots=True)
class Action:
    """One player or table action as a reducer sees it: type, actor and deep-frozen data."""

    type: str
    actor: Actor
    data: Mapping[str, Any] = field(default_factory=FrozenDict)
    seq: int | None = None  # attached by the fold, only for messages

    @classmethod
    def of(cls, type_: str, actor: Actor, data: Mapping[str, Any] | None = None,
           seq: int | None = None) -> Action:
        # freeze copies a dict itself; any other mapping is read into one first
        return cls(type_, actor, freeze(data if type(data) is dict else dict(data or {})), seq)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "actor": self.actor, "data": thaw(self.data)}


class Bag:
    """An immutable multiset of card ids; `take` refuses what is not there.

    Held as a dict of the non-zero counts in card-id order, so a count is one look-up and
    `counts()` one copy (a fold reads the piles of every state it passes).
    """

    __slots__ = ("_counts",)
    _counts: dict[str, int]

    def __init__(self, items: Iterable[str] | Mapping[str, int] = ()) -> None:
        counts = items if isinstance(items, Mapping) else Counter(items)
        object.__setattr__(self, "_counts", _sorted_counts(counts))

    def __setattr__(self, name: str, value: Any) -> None:
        raise TypeError("Bag is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        """How `copy.deepcopy` rebuilds one: from its counts, never by setting a slot
        (which this class refuses); see FrozenDict.__reduce__."""
        return (Bag, (self.counts(),))

    def counts(self) -> dict[str, int]:
        return self._counts.copy()

    def __len__(self) -> int:
        return sum(self._counts.values())

    def __contains__(self, item: object) -> bool:
        return item in self._counts

    def __iter__(self) -> Iterator[str]:
        for k, v in self._counts.items():
            yield from [k] * v

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Bag) and self._counts == other._counts

    def __hash__(self) -> int:
        return hash(tuple(self._counts.items()))

    def __repr__(self) -> str:
        return f"Bag({self._counts!r})"

    def count(self, item: str) -> int:
        return self._counts.get(item, 0)

    def add(self, items: Iterable[str]) -> Bag:
        counts = self.counts()
        if isinstance(items, Mapping):  # a Counter adds its counts, as Counter.update does
            for item, n in items.items():
                counts[item] = counts.get(item, 0) + n
        else:
            for item in items:
                counts[item] = counts.get(item, 0) + 1
        return _bag_of(counts)

    def take(self, items: Iterable[str], *, code: str = "not_available",
             where: str = "the pile") -> Bag:
        """Remove `items`; raise IllegalAction(code) naming the first one that is missing."""
        counts = self.counts()
        for item in items:
            held = counts.get(item, 0)
            if held <= 0:
                raise IllegalAction(code, M("{card} is not in {where}", card=repr(item),
                                            where=where), card=item)
            counts[item] = held - 1
        return _bag_of(counts)


def _sorted_counts(counts: Mapping[str, int]) -> dict[str, int]:
    """A Bag's counts: the non-zero ones, in card-id order."""
    return dict(sorted((k, v) for k, v in counts.items() if v))


def _bag_of(counts: Mapping[str, int]) -> Bag:
    """A Bag of counts already tallied: a plain dict needs no Counter around it (a Bag is
    built for every pile an event changes)."""
    bag = object.__new__(Bag)
    object.__setattr__(bag, "_counts", _sorted_counts(counts))
    return bag


def with_item(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """A copy of tuple `items` with position `index` replaced."""
    return (*items[:index], value, *items[index + 1:])


def require(condition: bool, code: str, message: str | Callable[[], str],
            **details: Any) -> None:
    """Raise IllegalAction(code, message) unless condition holds: one guard, one line.

    `message` may be a function that builds the sentence (`lambda: M(...)`): a fold checks
    thousands of guards that hold, and a sentence is then built only for a refusal."""
    if not condition:
        raise IllegalAction(code, message() if callable(message) else message, **details)


# ---------------------------------------------------------------------------
# Words a person reads: player names, counts, ordinals
# ---------------------------------------------------------------------------


def seat_name(names: Sequence[str], actor: Any) -> str:
    """How a sentence names an actor: the player's name, "the table", "the server".

    Machine fields keep seat indexes; every sentence a person reads names the player. A
    seat outside `names` (a message about a bad seat) keeps its number, since no player
    of that name exists.
    """
    if isinstance(actor, int) and not isinstance(actor, bool) and 0 <= actor < len(names):
        return str(names[actor])
    if actor == "table":
        return M("the table")
    if actor == "server":
        return M("the server")
    return M("seat {seat}", seat=str(actor))


def possessive(name: str) -> str:
    """ "Anna's", "Claus'" : the possessive of a name (a message: "Anna的" in Chinese)."""
    if name.endswith("s"):
        return M("{name}'", name=name)
    return M("{name}'s", name=name)


def plural(count: int, one: str, many: str | None = None) -> str:
    """ "1 card", "3 cards", "0 cards": grammar by count. English only: the legacy path of
    a game whose sentences are not messages yet; a converted game writes `Mn(...)`."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def ordinal_of(n: int) -> Ordinal:
    """1st, 2nd / 第1: a rank in a message."""
    return Ordinal(n)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd, 101st, 111th."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def words_list(items: Iterable[str], conjunction: str = "and") -> str:
    """ "a", "a and b", "a, b and c": a list in a sentence. Where an item is a message the
    list is one too (`Seq`), joined in the reader's language; plain strings stay English."""
    items = list(items)
    if any(isinstance(item, Message | Name) for item in items):
        return Seq(items, conjunction)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def require_seat(action: Action, seat: Seat, what: str = "act") -> None:
    """Refuse an action whose actor is not `seat` (code `not_your_turn`)."""
    if action.actor != seat:
        raise IllegalAction("not_your_turn",
                            M("it is seat {seat}'s turn to {what}, not {actor}'s", seat=seat,
                              what=what, actor=repr(action.actor)),
                            expected=seat, actor=action.actor)


# ---------------------------------------------------------------------------
# Chance: a small, documented, version-independent generator
# ---------------------------------------------------------------------------


class Dealer:
    """Derives every chance outcome of one event from the game's seed.

    Algorithm (so an auditor can re-derive deals in any language; README, "Deals"):
    the byte stream of one chance event is the concatenation of
    HMAC-SHA256(key = seed as UTF-8, message = f"{index}:{counter}") for counter = 0, 1, 2,
    ...; `index` is the event's place among the game's chance events (scheme 2: 0 for the
    first event of a chance-bearing type, 1 for the next, undone ones included) or, in the
    games recorded under scheme 1, the event's seq.
    `below(n)` reads 8 bytes as a big-endian unsigned integer x and accepts it when
    x < 2**64 - (2**64 % n), returning x % n (rejection sampling, so no bias);
    `shuffled(items)` sorts the items, then runs Fisher-Yates from the front:
    for i in 0..len-2, swap position i with i + below(len - i).
    """

    def __init__(self, seed: str, index: int) -> None:
        self._key = seed.encode("utf-8")
        self._seq = index
        self._counter = 0
        self._buffer = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            message = f"{self._seq}:{self._counter}".encode()
            self._buffer += hmac.new(self._key, message, hashlib.sha256).digest()
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = 2**64 - (2**64 % n)
        while True:
            x = int.from_bytes(self._bytes(8), "big")
            if x < limit:
                return x % n

    def shuffled(self, items: Iterable[str]) -> list[str]:
        """The items in sorted order, then Fisher-Yates shuffled from the front."""
        out = sorted(items)
        for i in range(len(out) - 1):
            j = i + self.below(len(out) - i)
            out[i], out[j] = out[j], out[i]
        return out

    def choice(self, items: Sequence[Any]) -> Any:
        """One of the items (in the order given)."""
        return items[self.below(len(items))]


# ---------------------------------------------------------------------------
# The Game protocol
# ---------------------------------------------------------------------------


ActionEntry = tuple[type[Schema], Callable[..., Any]]


class OpenSchema(Schema):
    """A marshmallow schema that keeps the fields it does not declare (component data and
    action data carry more than each check reads)."""

    class Meta:
        unknown = INCLUDE


def schema_problems(schema: Schema, content: Any, where: str = "") -> list[str]:
    """What `schema` finds wrong with `content`, one readable line per field (empty: fine)."""
    try:
        schema.load(content)
    except ValidationError as err:
        messages = err.normalized_messages()  # type: ignore[no-untyped-call]
        return [f"{where}{key}: {' '.join(map(str, v)) if isinstance(v, list) else v}"
                for key, v in sorted(messages.items(), key=lambda kv: str(kv[0]))]
    return []


#: apply_<type>(state, action, components) -> the next state (a game's apply.py)
Applier = Callable[[Any, Action, Any], Any]


C = TypeVar("C")


def _no_auto(state: Any, components: Any) -> dict[str, Any] | None:
    return None


def _no_slots(state: Any, action: Action, components: Any) -> list[dict[str, Any]] | None:
    return None


def _no_deal(state: Any, action: Action, dealer: Dealer, components: Any) -> dict[str, Any]:
    return dict(thaw(action.data))


def _no_labels(components: Any) -> dict[str, str]:
    return {}


def _over(state: Any, components: Any) -> str:
    return M("the game is over; only undo is possible now")


def _edition_ok(content: Mapping[str, Any]) -> list[str]:
    return []


@dataclass(frozen=True, slots=True)
class Parts(Generic[S, C]):
    """A game's functions beside its actions, each taking the edition's components `C`
    last: `GameRules` binds them to one edition, so a game package declares what it does
    once instead of forwarding each method by hand (docs/design.md, "Reducers").

    `load` turns the edition's JSON into the components (edition.py); `labels` adds the
    game's words for what has no printed name; `edition_problems` checks an edition's
    content beyond its slug."""

    load: Callable[[Mapping[str, Any]], C]
    initial_state: Callable[[Mapping[str, Any], C], S]
    to_act: Callable[[S, C], tuple[Actor, ...]]
    legal_actions: Callable[[S, Actor | None, C], list[dict[str, Any]]]
    result: Callable[[S, C], dict[str, Any] | None]
    view: Callable[[S, Viewer, C], dict[str, Any]]
    edition_problems: Callable[[Mapping[str, Any]], list[str]] = _edition_ok
    auto_action: Callable[[S, C], dict[str, Any] | None] = _no_auto
    fill_chance: Callable[[S, Action, Dealer, C], dict[str, Any]] = _no_deal
    chance_slots: Callable[[S, Action, C], list[dict[str, Any]] | None] = _no_slots
    labels: Callable[[C], dict[str, str]] = _no_labels
    over_words: Callable[[S, C], str] = _over


class GameRules(Generic[S]):
    """Base class of every game; one instance per edition (component data).

    A subclass sets the class attributes and implements the methods marked "must".
    Every method is pure: same inputs, same outputs, no mutation. `S` is the game's state
    type, so mypy checks each reducer against its own state.
    """

    slug: ClassVar[str]
    title: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    rules_version: ClassVar[str] = "1"
    #: action type -> marshmallow schema class of its `data` (checked before `apply`)
    action_schemas: ClassVar[Mapping[str, type[Schema]]] = {}
    #: action type -> the data fields that hold chance outcomes (cards drawn, a layout)
    chance_fields: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    #: options accepted in game_created, with their defaults
    default_options: ClassVar[Mapping[str, Any]] = {}
    #: what a person reads for each option's key (a nested option's keys too), as
    #: messages: the new-game form, `chronicle new --help` (issue #33)
    option_labels: ClassVar[Mapping[str, Any]] = {}
    #: an option with named values: key -> value -> what a person reads for that value
    #: (the new-game form's choice, `new --help`), so no typed value shows in a sentence
    option_values: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    #: action types a seat may seal with its own token at a table: chronicle marks them
    #: `"sealed": true`, and the table's recorder sees them (viewer TABLE) no more than any
    #: other seat does until the rules reveal them (issue #32). Empty: the table's
    #: recorder sees everything (viewer ALL), which is every game but one
    sealed_types: ClassVar[frozenset[str]] = frozenset()
    #: action types a seat may never undo in digital play, beyond those that reveal chance
    never_undoable: ClassVar[frozenset[str]] = frozenset()
    #: action type -> its apply function (a game's apply.py), dispatched by `apply`
    appliers: ClassVar[Mapping[str, Applier]] = {}
    #: every action type, declared once (projections/choices.py); a game that declares them
    #: gets the four tables above from them
    actions: ClassVar[tuple[ActionType[Any, Any], ...]] = ()
    #: the game's functions bound to an edition (None: the game overrides the methods)
    parts: ClassVar[Parts[Any, Any] | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared = cls.__dict__.get("actions")
        if declared:
            names = [a.name for a in declared]
            if len(set(names)) != len(names):
                raise TypeError(f"{cls.__name__} declares an action type twice: {names}")
            cls.action_schemas = {a.name: a.schema for a in declared}
            cls.chance_fields = {a.name: a.chance for a in declared if a.chance}
            cls.appliers = {a.name: a.apply for a in declared}
            cls.never_undoable = frozenset(a.name for a in declared if a.never_undoable)
            cls._records = {a.name: a for a in declared}

    _records: ClassVar[Mapping[str, ActionType[Any, Any]]] = {}

    def __init__(self, edition: Mapping[str, Any]) -> None:
        self.edition = edition
        self._bound: Any = self.parts.load(edition) if self.parts is not None else edition

    def action_type(self, name: str) -> ActionType[Any, Any]:
        """The declaration of action type `name`; IllegalAction(unknown_action) if none."""
        record = self._records.get(name)
        if record is None:
            raise IllegalAction("unknown_action", M("{game} has no move “{move}”",
                                                    game=self.title, move=name),
                                known=sorted(self._records))
        return record

    # -- dispatch -----------------------------------------------------------
    def admissible(self, state: S, action: Action) -> None:
        """Refuse what no rule of this game could allow: an action type it does not have,
        and any action once the game is over. The one place these two refusals live (the
        recorder asks here before it deals)."""
        if action.type not in self.action_schemas:
            # the type is quoted as sent: it is the caller's word, not one of ours; the
            # game's own types are in the details (`legal` lists what may be done now)
            raise IllegalAction("unknown_action", M("{game} has no move “{move}”",
                                                    game=self.title, move=action.type),
                                known=sorted(self.action_schemas))
        if self.result(state) is not None:
            raise IllegalAction("game_over", self.over_words(state))

    def over_words(self, state: S) -> str:
        """The refusal of a move after the end; a game may say how it ended."""
        if self.parts is not None:
            return self.parts.over_words(state, self.components())
        return M("the game is over; only undo is possible now")

    def components(self) -> Any:
        """The edition's components as the game's apply functions read them (edition.py);
        by default the edition's JSON itself."""
        return self._bound

    # -- must ---------------------------------------------------------------
    def initial_state(self, created: Mapping[str, Any]) -> S:
        """The state after game_created (players, mode, options); no randomness. Must."""
        return self._parts().initial_state(created, self.components())

    def apply(self, state: S, action: Action) -> S:
        """The next state, or IllegalAction naming the rule: the refusals of `admissible`,
        then the game's apply function for the action's type (`appliers`)."""
        self.admissible(state, action)
        applier = self.appliers.get(action.type)
        if applier is None:
            raise NotImplementedError(f"{self.slug} lists {action.type} but cannot apply it")
        result: S = applier(state, action, self.components())
        return result

    def view(self, state: S, seat: Viewer) -> dict[str, Any]:
        """JSON-ready state as `seat` may see it. Must.

        `seat` is a seat index, None for a spectator, or "all" for the auditor's view of
        everything (a finished game is fully public).
        """
        return self._parts().view(state, seat, self.components())

    def to_act(self, state: S) -> tuple[Actor, ...]:
        """The actors who may act now (seats and/or "table"); empty when over. Must."""
        return self._parts().to_act(state, self.components())

    def legal_actions(self, state: S, seat: Actor | None = None) -> list[dict[str, Any]]:
        """Enumerable legal actions `{"type","actor","data"}` for `seat` (None: all). Must.

        Actions that cause a chance outcome are listed without their outcome fields.
        Interfaces build moves from the declared choices instead (projections/choices.py):
        this list may be a sample where the space is large (random playouts use it).
        """
        return self._parts().legal_actions(state, seat, self.components())

    def result(self, state: S) -> dict[str, Any] | None:
        """Once over: {"scores", "winners", "reason", "breakdown"}; else None. Must."""
        return self._parts().result(state, self.components())

    # -- may ----------------------------------------------------------------
    def fill_chance(self, state: S, action: Action, dealer: Dealer) -> dict[str, Any]:
        """Digital mode: the action's data with its chance fields filled by `dealer`."""
        if self.parts is not None:
            return self.parts.fill_chance(state, action, dealer, self.components())
        return dict(thaw(action.data))

    def strip_chance(self, action: Action) -> dict[str, Any]:
        """The action's data without its chance outcomes: what a player chooses.

        By default the chance fields are dropped. A game whose chance field also carries a
        choice (a draw naming its source, with the card known only for a face-up source)
        overrides this to drop only the hidden outcome. In digital play a client must send
        exactly this much; the server fills the rest with `fill_chance`.
        """
        chance = self.chance_fields.get(action.type, ())
        return {k: thaw(v) for k, v in action.data.items() if k not in chance}

    def names_unseen(self, action: Action) -> bool:
        """Whether `action`, typed at a table by its actor's own token, names an outcome the
        actor may not see (a card turned up from a hidden pile, a layout, a start player):
        the rules' check of it against the hidden piles would answer the actor what they
        hide (issue #32). Such an action is the table recorder's to type, who sees the whole
        table (engine ruling 16). By default: whatever `strip_chance` leaves out. A game
        whose only seat sees everything, or whose other moves name hidden cards, says so."""
        try:
            return bool(self.strip_chance(action) != thaw(action.data))
        except Exception:  # data too malformed to separate: the schema check refuses it
            return False

    def chance_slots(self, state: S, action: Action) -> list[dict[str, Any]] | None:
        """Table mode: the chance outcomes `action` still needs, each to be picked at the
        table from what is still available (a tablet recorder taps them, nobody types ids).

        `action` is a legal action as `legal_actions` lists it, without its outcomes. Each
        slot is `{"field", "path", "options", "many", "count", "label"}`:
        - `field` a chance field of the action, `path` the keys inside its value where the
          outcome goes (`[]`: the field itself; `["1"]`: seat 1's entry of a per-seat
          mapping; `[0, "card"]`: the card of the first draw);
        - `options` every value still possible there (the cards still unseen, the seats...),
          as a multiset: a value listed k times is k copies; a pick in any slot of the action
          uses one up, so slots that draw from one pile share it. Where a pile runs out
          mid-draw, the earlier slots offer the pile and the later ones pile + discards: the
          slots are exact when filled in order;
        - `many`: an ordered list of picks (cards in the order turned up) rather than one
          value; `count` how many when the rules know it (None: the rules check);
        - `at_least` (optional, with `count` None): how many picks the rules need at the
          least, so a recorder does not offer to record a deal it already knows too short;
        - `label` a few words for the person at the table ("cards Bo drew");
        - `groups` (optional; a client may ignore it and offer `options`): the options
          arranged for two taps, `[{"label", "items": [{"label", "values"}]}]`: first a
          group, then an item. Every option is in the `values` of exactly one item, as many
          times as `options` lists it. An item's values are the same piece for the rules (one
          look, one button, shown with how many are left); a pick records the item's first
          value not yet used up by the picks of the action's slots.
        The rules still check whatever is recorded; slots only spare the typing. `[]` means
        the action needs no outcome now; the default, None, that this game offers no slots,
        so a client lets the recorder type the outcomes.
        """
        if self.parts is not None:
            return self.parts.chance_slots(state, action, self.components())
        return None

    def auto_action(self, state: S) -> dict[str, Any] | None:
        """A chance action the rules call for now, nobody's choice (a setup deal), or None:
        usually the table's; a game may name a seat whose move nobody chooses (Thrones: a
        forced ability that asks nothing but what chance deals, used for its owner).

        In digital mode the recorder appends it at once, filled by `fill_chance`.
        """
        if self.parts is not None:
            return self.parts.auto_action(state, self.components())
        return None

    def redact(self, action: Action, seat: Viewer, state_before: S) -> dict[str, Any] | None:
        """What `seat` may see of an action's data, or None when it may see all of it:
        the action type's own redaction (`ActionType.redact`)."""
        record = self._records.get(action.type)
        if record is None:
            return None
        return record.redact(action, seat, state_before, self.components())

    #: action types whose chance outcomes are a layout the table has not laid yet (tiles
    #: drawn blind to fill a board), which a recorder's tablet may deal for the table to
    #: lay as shown; never a card drawn from a deck, which is what it is
    dealable_types: ClassVar[frozenset[str]] = frozenset()

    #: action types whose sentence goes on with what the move decided on the table as it
    #: stood (a challenge's winner): `outcome` is asked for these with the state before
    outcome_types: ClassVar[frozenset[str]] = frozenset()

    def outcome(self, before: S, action: Action, names: Sequence[str] = ()) -> str | None:
        """What the move decided that its data does not say ("Anna won 5 to 3"), from the
        state before it, public to everyone; None when it says nothing more. The log
        appends it to the action's sentence (events/reading.py)."""
        return None

    def describe(self, action: Action, names: Sequence[str] = ()) -> str:
        """The sentence a player would say for this action, naming the actor and every
        seat by `names` (the players in seat order) and every component by its label:
        "Anna drew 2 cards from the deck". Shown verbatim in event lists and the viewer.
        The action type's own sentence (`ActionType.sentence`).
        """
        record = self._records.get(action.type)
        if record is None:
            return M("{actor}: {move}", actor=seat_name(names, action.actor),
                     move=action.type.replace("_", " "))
        return record.sentence(action, names, self.components())

    def labels(self) -> dict[str, str]:
        """Component id -> what a person reads for it ("Cersei Lannister", "Paris",
        "noble, 3 points, costs 5 gold"), from this edition's data.

        The default takes every top-level list of objects with an `id` and a `name`; a game
        adds labels for what has no printed name (from what a player can see on the
        piece). An edition's own `labels` mapping (id -> text) wins over both, so a club
        can name its pieces.
        """
        out: dict[str, str] = {}
        for value in self.edition.values():
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, Mapping) and isinstance(item.get("id"), str) and \
                            isinstance(item.get("name"), str):
                        out[item["id"]] = Name.of(item)
        own = self.edition.get("labels")
        if self.parts is not None:
            out = {**self.parts.labels(self.components()), **out}
        if isinstance(own, Mapping):
            out.update({str(k): str(v) for k, v in own.items()})
        return out

    def ruling(self, action: Action) -> str | None:
        """Whether `action` changes the game outside the text of its cards, as the table's
        ruling rather than a move the rules check (Thrones' free-form `effect`, issue #30):
        the reason it gives ("" when it gives none), else None. `verify` and `reaudit`
        count and list every such event (projections/audit.py, `rulings_in`); by default
        no move of a game is one."""
        return None

    def is_undoable_in_digital(self, action: Action) -> bool:
        """Digital undo policy: nothing that revealed hidden information."""
        if action.type in self.never_undoable:
            return False
        return not any(action.data.get(name) for name in self.chance_fields.get(action.type, ()))

    @classmethod
    def check_edition_content(cls, content: Mapping[str, Any]) -> list[str]:
        """Problems that make `content` unusable as an edition of this game (empty: fine).

        Subclasses extend this with a schema of every field their reducer reads.
        """
        if cls.parts is not None:  # the game's own schema checks the slug too
            return cls.parts.edition_problems(content)
        if content.get("slug") != cls.slug:
            return [f"edition's slug is {content.get('slug')!r}, not {cls.slug!r}"]
        return []

    def _parts(self) -> Parts[S, Any]:
        if self.parts is None:
            raise NotImplementedError(f"{self.slug} declares no Parts and overrides no method")
        return self.parts
