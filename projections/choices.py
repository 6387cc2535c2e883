"""Actions declared once, and the choices that build their data (docs/design.md, "Actions
and choices").

Every action type of a game is one `ActionType` record: its data schema, its choices, its
chance fields, its apply, its redaction and its sentence. `GameRules` reads its tables from
these records, so a new action is one record in one place.

A move is built as a sequence of choices, the way a person makes it at the table: first a
portrait, then the cards that pay for it. A record's `steps` function says, for the data
chosen so far (`Made`), what is asked next: a `Choice` with its options, `DONE` when the
data is complete, or None when that actor cannot take this action now. The options a
choice offers are exactly those that can still complete a legal move (no dead ends,
nothing missing), each labelled in words. The walk (`walk`) replays a caller's picks
against the steps, refusing a pick that is not offered, and says what is asked next; a
complete walk is the move, ready to post.

Chance outcomes at a physical table are choices too: once a player's choices are made,
the outcomes the rules still need (`GameRules.chance_slots`) are asked one by one, each
offering what is still available (tap what was seen). In digital play the server fills
them, so the walk ends with the player's choices.

Pure: nothing here does IO or draws a random number; a random walk takes its `pick`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from marshmallow import Schema

from .errors import IllegalAction
from .messages import M, Seq, capitalised, lowered
from .rules import Action, Actor, GameRules, Viewer, seat_name

S = TypeVar("S")
C = TypeVar("C")

Kind = Literal["one", "subset", "sequence", "tally"]
#: a choice's place in the data: a top-level field, then keys or indexes inside it
Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Option:
    """One thing a person may pick: the JSON value it puts in the data and its words.

    `label` is what the button says (a card's printed name, a player's name, a tile);
    `detail` the printed values a player looks for beside it ("rank 7 · Moons, Suns");
    `group` the heading it is shown under where the component data groups the pieces
    (Palais Royal's nobles by their printed attributes); "" for none.
    """

    value: Any
    label: str
    detail: str = ""
    group: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value": self.value, "label": self.label}
        if self.detail:
            out["detail"] = self.detail
        if self.group:
            out["group"] = self.group
        return out


@dataclass(frozen=True, slots=True)
class Choice:
    """What is asked next, and what may be answered.

    - `kind` "one": a single value at `path`; "subset": a list built one pick at a time
      whose order does not matter to the rules (cards paid); "sequence": a list whose order
      matters (colours by seat, cards in the order turned up); "tally": a mapping of counts
      built one pick at a time, each pick adding one to its value's count (servants put on
      tiles: `{"gate": 2, "mint": 3}`), so a person taps a tile once per servant.
    - `can_end`: a subset, sequence or tally may stop here (what is picked so far completes it);
      a list also stops by itself when nothing more is offered.
    - `fewest`/`most`: how many picks the list takes, when the rules know it (for the words
      of a prompt; the options already say what may be picked).
    """

    path: Path
    prompt: str
    options: tuple[Option, ...]
    kind: Kind = "one"
    can_end: bool = False
    fewest: int | None = None
    most: int | None = None

    @property
    def id(self) -> str:
        """The choice's name on the wire: its path joined by dots ("spend", "draws.0.card")."""
        return ".".join(str(p) for p in self.path)

    def option_for(self, value: Any) -> Option | None:
        for option in self.options:
            if option.value == value and type(option.value) is type(value):
                return option
        return None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "prompt": self.prompt, "kind": self.kind,
                               "options": [o.to_json() for o in self.options]}
        if self.kind != "one":
            out["can_end"] = self.can_end
            out["fewest"] = self.fewest
            out["most"] = self.most
        return out


@dataclass(frozen=True, slots=True)
class Done:
    """The data is complete; `fixed` adds the fields no person chooses (a repeat of the
    player count, a constant the rules expect)."""

    fixed: Mapping[str, Any] = field(default_factory=dict)


DONE = Done()
Step = Choice | Done | None


@dataclass(frozen=True, slots=True)
class Made:
    """The data chosen so far: plain JSON (lists, dicts), the lists already ended, and, at a
    table, the chance outcomes tapped so far (by their place in the data), kept apart so a
    record's `steps` sees only what the player chose."""

    data: Mapping[str, Any] = field(default_factory=dict)
    ended: frozenset[str] = frozenset()
    outcomes: Mapping[Path, Any] = field(default_factory=dict)

    def has(self, name: str) -> bool:
        return name in self.data

    def get(self, name: str, default: Any = None) -> Any:
        return self.data.get(name, default)

    def picked(self, name: str) -> list[Any]:
        """The list chosen so far at field `name` (empty before the first pick)."""
        value = self.data.get(name)
        return list(value) if isinstance(value, list) else []

    def is_open(self, name: str) -> bool:
        """A list field still taking picks: not ended by the person."""
        return name not in self.ended

    def picking(self, choice: Choice, value: Any, *, outcome: bool = False) -> Made:
        if outcome:
            outcomes = dict(self.outcomes)
            outcomes[choice.path] = value if choice.kind == "one" else \
                [*outcomes.get(choice.path, ()), value]
            return Made(self.data, self.ended, outcomes)
        data = _copy(self.data)
        if choice.kind == "one":
            _set(data, choice.path, value)
        elif choice.kind == "tally":
            counts = _get(data, choice.path)
            counts = dict(counts) if isinstance(counts, Mapping) else {}
            counts[value] = counts.get(value, 0) + 1
            _set(data, choice.path, counts)
        else:
            current = _get(data, choice.path)
            _set(data, choice.path, [*(current if isinstance(current, list) else []), value])
        return Made(data, self.ended, self.outcomes)

    def ending(self, choice: Choice, *, outcome: bool = False) -> Made:
        if outcome:
            outcomes = dict(self.outcomes)
            outcomes.setdefault(choice.path, [])
            return Made(self.data, self.ended | {choice.id}, outcomes)
        data = _copy(self.data)
        empty: Any = {} if choice.kind == "tally" else []
        if not isinstance(_get(data, choice.path), type(empty)):
            _set(data, choice.path, empty)
        return Made(data, self.ended | {choice.id}, self.outcomes)

    def tally(self, name: str) -> dict[str, int]:
        """The counts chosen so far at field `name` (a "tally" choice; empty before)."""
        value = self.data.get(name)
        return dict(value) if isinstance(value, Mapping) else {}


def _copy(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(v) for v in value]
    return value


def _get(data: Any, path: Path) -> Any:
    for key in path:
        if isinstance(data, Mapping) and isinstance(key, str):
            data = data.get(key)
        elif isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
            data = data[key]
        else:
            return None
    return data


def _set(data: Any, path: Path, value: Any) -> None:
    """Put `value` at `path`, making the containers on the way that are not there yet (a
    list before an index, a dict before a key): a choice or an outcome inside a list of
    entries ("draws.0.kind", "refill.1") may be the first to name its entry."""
    *head, last = path
    for depth, key in enumerate(head):
        if isinstance(data, list) and isinstance(key, int):
            while len(data) <= key:
                data.append(None)
            missing = data[key] is None
        else:
            missing = data.get(key) is None
        if missing:
            data[key] = [] if isinstance(path[depth + 1], int) else {}
        data = data[key]
    if isinstance(data, list) and isinstance(last, int):
        while len(data) <= last:
            data.append(None)
    data[last] = value


#: steps(state, actor, made, components) -> the next choice, DONE, or None (not now)
Steps = Callable[[Any, Any, Made, Any], Step]
#: sentence(action, names, components) -> what a person reads for the action
Sentence = Callable[[Any, Sequence[str], Any], str]
#: redact(action, viewer, state_before, components) -> the data that viewer may see, or
#: None when it may see all of it
Redactor = Callable[[Any, Any, Any, Any], "dict[str, Any] | None"]
#: apply(state, action, components) -> the next state; IllegalAction naming the rule
Apply = Callable[[Any, Any, Any], Any]


def public(action: Action, seat: Viewer, state_before: Any, components: Any
           ) -> dict[str, Any] | None:
    """The redaction of an action everybody may see whole."""
    return None


@dataclass(frozen=True, slots=True)
class ActionType(Generic[S, C]):
    """One action type of one game, declared once (docs/design.md, "Actions and choices").

    Every part is required, so a missing one is a TypeError at import, and
    tests/projections/test_actions_declared.py checks that each part is a callable of the
    right game: `schema` checks the data's shape before `apply`; `steps` builds the data
    choice by choice; `chance` names the fields holding chance outcomes (empty: none);
    `apply` is the rule; `redact` what a viewer may see (`public`: all of it); `sentence`
    the words of the log; `label` what a button offering the action says ("Claim a noble").
    """

    name: str
    label: str
    schema: type[Schema]
    steps: Steps
    chance: tuple[str, ...]
    apply: Apply
    redact: Redactor
    sentence: Sentence
    #: a seat may never undo it in digital play, even when it revealed nothing
    never_undoable: bool = False


# ---------------------------------------------------------------------------
# Picks and the walk
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pick:
    """One answer: the value of an option of choice `choice`, or the end of a list."""

    choice: str
    value: Any = None
    end: bool = False

    @classmethod
    def of(cls, raw: Any) -> Pick:
        """A pick from its JSON form `{"choice", "value"}` or `{"choice", "end": true}`."""
        if not isinstance(raw, Mapping) or not isinstance(raw.get("choice"), str):
            raise IllegalAction("bad_pick", M("a pick names its choice: {shape} or {end}",
                                              shape='{"choice": …, "value": …}',
                                              end='{"choice": …, "end": true}'))
        if raw.get("end") is True:
            return cls(raw["choice"], end=True)
        if "value" not in raw:
            raise IllegalAction("bad_pick", M("the pick for “{choice}” has no value",
                                              choice=raw["choice"]))
        return cls(raw["choice"], raw["value"])

    def to_json(self) -> dict[str, Any]:
        return {"choice": self.choice, "end": True} if self.end else \
            {"choice": self.choice, "value": self.value}


@dataclass(frozen=True, slots=True)
class Walk:
    """Where a walk of picks stands: the data so far, what is asked next (None once
    complete) and, when the data is complete or the open list may end now, the move."""

    type: str
    actor: Any
    made: Made
    choice: Choice | None
    move: dict[str, Any] | None

    @property
    def complete(self) -> bool:
        return self.choice is None


class Walker:
    """Walks picks through one game's declared choices, adding the chance outcomes a
    table still has to tap (`table`: the game is recorded at a physical table)."""

    def __init__(self, rules: GameRules[Any], *, table: bool) -> None:
        self.rules = rules
        self.table = table
        self.components = rules.components()
        self._labels: dict[str, str] | None = None

    # -- what may be done now -----------------------------------------------------------
    def opening(self, state: Any, actor: Actor) -> list[ActionType[Any, Any]]:
        """The action types `actor` may take now, in the game's order."""
        return [record for record in self.rules.actions
                if record.steps(state, actor, Made(), self.components) is not None]

    # -- one walk -----------------------------------------------------------------------
    def walk(self, state: Any, type_: str, actor: Actor, picks: Sequence[Pick]) -> Walk:
        """Replay `picks` for an action of `type_` by `actor`; IllegalAction names the first
        pick that is not offered."""
        record = self.rules.action_type(type_)
        made = Made()
        if record.steps(state, actor, made, self.components) is None:
            raise IllegalAction("not_now", M("{who} cannot {move} now",
                                             who=self._who(state, actor),
                                             move=lowered(record.label)),
                                type=type_, actor=actor)
        for number, pick in enumerate(picks, 1):
            choice, outcome = self._next(state, record, actor, made)
            if choice is None:
                raise IllegalAction("move_complete", M(
                    "the move is complete after {made} picks; pick {number} is one too many",
                    made=number - 1, number=number))
            made = self._answer(choice, pick, made, number, outcome)
        return self._standing(state, record, actor, made)

    def _standing(self, state: Any, record: ActionType[Any, Any], actor: Actor, made: Made
                  ) -> Walk:
        choice, outcome = self._next(state, record, actor, made)
        move = None
        if choice is None:
            move = self._move(state, record, actor, made)
        elif choice.kind != "one" and choice.can_end:
            ended = made.ending(choice, outcome=outcome)
            if self._next(state, record, actor, ended)[0] is None:
                move = self._move(state, record, actor, ended)
        return Walk(record.name, actor, made, choice, move)

    def _answer(self, choice: Choice, pick: Pick, made: Made, number: int, outcome: bool
                ) -> Made:
        if pick.choice != choice.id:
            raise IllegalAction("not_this_choice", M(
                "pick {number} answers “{answered}”, but what is asked now is: {prompt}",
                number=number, answered=pick.choice, prompt=choice.prompt),
                                expected=choice.id)
        if pick.end:
            if choice.kind == "one" or not choice.can_end:
                raise IllegalAction("cannot_end_here", M(
                    "{prompt}: the move is not complete yet; pick one of the options offered",
                    prompt=choice.prompt),
                                    choice=choice.id)
            return made.ending(choice, outcome=outcome)
        if choice.option_for(pick.value) is None:
            raise IllegalAction("not_offered", M(
                "{prompt}: that is not one of the {count} options offered",
                prompt=choice.prompt, count=len(choice.options)), choice=choice.id,
                                value=pick.value)
        return made.picking(choice, pick.value, outcome=outcome)

    def _step(self, state: Any, record: ActionType[Any, Any], actor: Actor, made: Made
              ) -> Choice | Done:
        step = record.steps(state, actor, made, self.components)
        if step is None:
            raise AssertionError(f"{self.rules.slug} {record.name}: steps ended a walk "
                                 "it had begun (a dead end)")
        return step

    def _next(self, state: Any, record: ActionType[Any, Any], actor: Actor, made: Made
              ) -> tuple[Choice | None, bool]:
        """The choice asked now (and whether it asks for a chance outcome): the record's
        own, then, at a table, the outcomes it still needs."""
        step = self._step(state, record, actor, made)
        if isinstance(step, Choice):
            return step, False
        if not self.table or not record.chance:
            return None, False
        slots = self._slots(state, record, actor, made, step)
        return self._chance_choice(state, record, actor, slots, made), True

    def _chosen(self, record: ActionType[Any, Any], actor: Actor, made: Made, step: Done
                ) -> dict[str, Any]:
        data: dict[str, Any] = _copy(made.data)
        for key, value in step.fixed.items():
            data.setdefault(key, _copy(value))
        return data

    def _slots(self, state: Any, record: ActionType[Any, Any], actor: Actor, made: Made,
               step: Done) -> list[dict[str, Any]]:
        found = self.rules.chance_slots(
            state, Action.of(record.name, actor, self._chosen(record, actor, made, step)))
        return list(found or ())

    def _move(self, state: Any, record: ActionType[Any, Any], actor: Actor, made: Made
              ) -> dict[str, Any]:
        step = self._step(state, record, actor, made)
        assert isinstance(step, Done)
        data = self._chosen(record, actor, made, step)
        if self.table and record.chance:
            for slot in self._slots(state, record, actor, made, step):
                if slot.get("many"):
                    path: Path = (slot["field"], *slot.get("path", ()))
                    if _get(data, path) is None:
                        _set(data, path, [])
            for path, value in made.outcomes.items():
                _set(data, path, _copy(value))
        return {"type": record.name, "actor": actor, "data": data}

    # -- chance at the table ------------------------------------------------------------
    def _chance_choice(self, state: Any, record: ActionType[Any, Any], actor: Actor,
                       slots: Sequence[Mapping[str, Any]], made: Made) -> Choice | None:
        """The first chance slot not yet filled, as a choice over what is still available
        (slots share their piles: a pick in an earlier slot uses a copy up)."""
        used: Counter[str] = Counter()
        for number, slot in enumerate(slots):
            path: Path = (slot["field"], *slot.get("path", ()))
            filled = made.outcomes.get(path)
            # a slot of one outcome holds it whole, even a list (an intrigue card's pair)
            if slot.get("many"):
                picks = filled if isinstance(filled, list) else []
            else:
                picks = [] if filled is None else [filled]
            left = Counter(_key(o) for o in slot["options"])
            left.subtract(used)
            used.update(_key(p) for p in picks)
            prompt = self._slot_prompt(slot)
            if not slot.get("many"):
                if filled is None:
                    return Choice(path, prompt, self._slot_options(slot, left))
                continue
            count = slot.get("count")
            ended = ".".join(map(str, path)) in made.ended
            if ended or (count is not None and len(picks) >= count):
                continue
            left.subtract(_key(p) for p in picks)
            options = self._slot_options(slot, left)
            if count is None and number == len(slots) - 1:
                # an open-ended deal, last of the action: it stops where the rules say
                # (Adaman's routing), so the reducer itself says when the cards suffice
                if self._accepted(state, record, actor, made):
                    continue
                return Choice(path, prompt, options, kind="sequence",
                              fewest=slot.get("at_least") or None)
            least = count if count is not None else int(slot.get("at_least") or 0)
            enough = len(picks) >= least
            if not options and enough:
                continue
            return Choice(path, prompt, options, kind="sequence",
                          can_end=count is None and enough, fewest=least or None, most=count)
        return None

    def _accepted(self, state: Any, record: ActionType[Any, Any], actor: Actor, made: Made
                  ) -> bool:
        """Whether the move as tapped so far is accepted by the rules."""
        try:
            move = self._move(state, record, actor, made)
            self.rules.apply(state, Action.of(move["type"], move["actor"], move["data"]))
        except IllegalAction:
            return False
        return True

    def _slot_prompt(self, slot: Mapping[str, Any]) -> str:
        prompt: str = capitalised(slot.get("label") or M("what was seen"))
        return prompt

    def _slot_options(self, slot: Mapping[str, Any], left: Counter[str]) -> tuple[Option, ...]:
        """Each distinct value still available once, labelled from the slot's groups or the
        edition's labels."""
        words: dict[str, tuple[str, str]] = {}
        for group in slot.get("groups") or ():
            for item in group.get("items", ()):
                for value in item.get("values", ()):
                    words.setdefault(_key(value), (item["label"], group["label"]))
        out: list[Option] = []
        seen: set[str] = set()
        for value in slot["options"]:
            key = _key(value)
            if key in seen or left[key] <= 0:
                continue
            seen.add(key)
            label, group = words.get(key, (self._label_of(value), ""))
            out.append(Option(value, label, detail=M("{count} left", count=left[key])
                              if left[key] > 1 else "", group=group))
        return tuple(out)

    def _label_of(self, value: Any) -> str:
        if self._labels is None:
            self._labels = self.rules.labels()
        if isinstance(value, str):
            return self._labels.get(value, value)
        if isinstance(value, list):
            return Seq([self._label_of(v) for v in value], "/")
        return str(value)

    def _who(self, state: Any, actor: Actor) -> str:
        return seat_name(getattr(state, "names", ()) or (), actor)

    # -- every move (small spaces only) -------------------------------------------------
    def moves(self, state: Any, type_: str, actor: Actor, limit: int = 100_000
              ) -> Iterator[dict[str, Any]]:
        """Every complete move the choices reach, each once: a subset is walked in the
        order its options are offered, so one set is not reached twice. For the tests'
        brute-force comparisons and small spaces; `limit` bounds the walk."""
        record = self.rules.action_type(type_)
        if record.steps(state, actor, Made(), self.components) is None:
            return
        yield from self._moves(state, record, actor, Made(), {}, [limit])

    def _moves(self, state: Any, record: ActionType[Any, Any], actor: Actor, made: Made,
               barred: dict[str, frozenset[str]], budget: list[int]
               ) -> Iterator[dict[str, Any]]:
        """Depth first; within a subset, the options offered before a picked one are barred
        from its later picks (options are offered in one order throughout), so each set is
        reached by one order of picks only."""
        budget[0] -= 1
        if budget[0] < 0:
            raise OverflowError(f"{record.name}: more than the walk's limit of moves")
        choice, outcome = self._next(state, record, actor, made)
        if choice is None:
            yield self._move(state, record, actor, made)
            return
        if choice.kind != "one" and choice.can_end:
            yield from self._moves(state, record, actor, made.ending(choice, outcome=outcome),
                                   barred, budget)
        skip = barred.get(choice.id, frozenset())
        before: set[str] = set()
        for option in choice.options:
            key = _key(option.value)
            if key in skip:
                continue
            after = made.picking(choice, option.value, outcome=outcome)
            next_barred = {**barred, choice.id: skip | before} \
                if choice.kind in ("subset", "tally") \
                else barred
            yield from self._moves(state, record, actor, after, next_barred, budget)
            before.add(key)

    def random_move(self, state: Any, type_: str, actor: Actor, pick: Callable[[int], int]
                    ) -> tuple[list[Pick], dict[str, Any]]:
        """A random walk to a complete move: at each choice one of its options (or, where
        a list may end, the end) with `pick(n) -> index in [0, n)`."""
        picks: list[Pick] = []
        while True:
            walk = self.walk(state, type_, actor, picks)
            if walk.choice is None:
                assert walk.move is not None
                return picks, walk.move
            choice = walk.choice
            n = len(choice.options) + (1 if choice.kind != "one" and choice.can_end else 0)
            if n == 0:
                raise AssertionError(f"{self.rules.slug} {type_}: {choice.prompt} offers "
                                     "nothing (a dead end)")
            index = pick(n)
            picks.append(Pick(choice.id, end=True) if index == len(choice.options)
                         else Pick(choice.id, choice.options[index].value))


def _key(value: Any) -> str:
    """A value's identity in a multiset of outcomes (JSON text: a list or dict is a value)."""
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def menu(walker: Walker, state: Any, actors: Sequence[Actor]) -> list[dict[str, Any]]:
    """The action types open now to each of `actors`: what a first screen offers."""
    out = []
    for actor in actors:
        for record in walker.opening(state, actor):
            out.append({"type": record.name, "actor": actor, "label": record.label})
    return out
