"""Folding a log into states: "state at step n", undo and redo (docs/design.md, "Undo and redo").

A `Cursor` is the fold after one seq: the game state, the most recent effective action
(`top`) and the redo stack. Undo and redo never re-run a reducer: undoing action k gives
back the cursor as it stood at seq k-1 (the state the action was recorded against), and
redoing k gives back the state right after k. That makes both exact by construction and
lets a fold resume from any snapshot, looking earlier cursors up only when an undo reaches
back past it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .messages import M
from .rules import Action, GameRules, IllegalAction, State, replace

#: log-level event types handled here; game modules never see them
META_TYPES = frozenset({"game_created", "undo", "redo", "seed_revealed", "note", "claim_result",
                        "correction"})
#: log-level types that take a place on the undo stack like an action
STACKED_META = frozenset({"correction"})

Invalid = tuple[int, str, str]  # (seq, code, message) of an event the rules now refuse

Envelope = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Cursor:
    """The fold of events 0..seq."""

    seq: int
    state: State
    top: int | None  # seq of the most recent effective action
    redo: tuple[int, ...] = ()  # undone action seqs, most recent last
    parent: int | None = None  # `top` of the cursor this action was applied on
    invalid: tuple[Invalid, ...] = ()  # events a correction made illegal, skipped in the fold
    #: events of a chance-bearing type folded so far, undone ones included: digital deals of
    #: scheme 2 are keyed by this counter, which no note or undo can move (README, "Deals")
    draws: int = 0

    @property
    def can_undo(self) -> bool:
        return self.top is not None

    @property
    def can_redo(self) -> bool:
        return bool(self.redo)


Lookup = Callable[[int], Cursor]


def created_data(envelopes: Iterable[Envelope]) -> Mapping[str, Any]:
    """The data of the game_created event (seq 0)."""
    for env in envelopes:
        if env["type"] != "game_created":
            break
        data: Mapping[str, Any] = env["data"]
        return data
    raise IllegalAction("no_game_created", M("a log must start with game_created at seq 0"))


def to_action(env: Envelope) -> Action:
    """The reducer's view of a stored event."""
    return Action.of(env["type"], env["actor"], env.get("data") or {}, env.get("seq"))


def start(rules: GameRules[Any], created: Envelope) -> Cursor:
    """The cursor at seq 0."""
    if created["type"] != "game_created" or created["seq"] != 0:
        raise IllegalAction("no_game_created", M("a log must start with game_created at seq 0"))
    return Cursor(seq=0, state=rules.initial_state(created["data"]), top=None)


def _with_seq(err: IllegalAction, env: Envelope) -> IllegalAction:
    err.details.setdefault("seq", env["seq"])
    err.details.setdefault("type", env["type"])
    return err


def check_undo(rules: GameRules[Any], mode: str, cursor: Cursor, actor: Any,
               target: Action) -> None:
    """The undo policy: table mode undoes anything; digital only one's own, unrevealing."""
    if mode != "digital":
        return
    if actor != target.actor:
        raise IllegalAction(
            "undo_not_yours",
            M("digital play: only seat {seat} may undo its own {move} (seq {seq}); "
              "{actor} may not", seat=repr(target.actor), move=repr(target.type),
              seq=target.seq, actor=repr(actor)),
            target_seq=target.seq,
        )
    if not rules.is_undoable_in_digital(target):
        raise IllegalAction(
            "undo_reveals_hidden",
            M("digital play: {move} at seq {seq} revealed hidden information "
              "(cards were turned up), so it cannot be undone", move=repr(target.type),
              seq=target.seq),
            target_seq=target.seq,
        )


History = Callable[[int], Sequence[Envelope]]


def step(rules: GameRules[Any], mode: str, cursor: Cursor, env: Envelope, lookup: Lookup,
         action_at: Callable[[int], Action], history: History | None = None) -> Cursor:
    """The cursor after event `env`, which must be seq cursor.seq + 1."""
    seq = env["seq"]
    if seq != cursor.seq + 1:
        raise IllegalAction("seq_gap", M("expected seq {expected}, got {seq}",
                                              expected=cursor.seq + 1, seq=seq), seq=seq)
    kind = env["type"]
    try:
        if kind == "undo":
            return _undo(rules, mode, cursor, env, lookup, action_at)
        if kind == "redo":
            return _redo(cursor, env, lookup)
        if kind == "correction":
            if history is None:
                raise IllegalAction("correction_unsupported", M("this fold cannot see the history"))
            return _correct(rules, mode, cursor, env, history)
        if kind in META_TYPES:
            if kind == "game_created":
                raise IllegalAction("duplicate_game_created", M("game_created may only be seq 0"))
            return replace(cursor, seq=seq)
        state = rules.apply(cursor.state, to_action(env))
    except IllegalAction as err:
        raise _with_seq(err, env) from None
    return Cursor(seq=seq, state=state, top=seq, redo=(), parent=cursor.top,
                  invalid=cursor.invalid,
                  draws=cursor.draws + (1 if rules.chance_fields.get(kind) else 0))


def _declared_target(env: Envelope, expected: int) -> None:
    declared = (env.get("data") or {}).get("target_seq")
    if declared is not None and declared != expected:
        raise IllegalAction("wrong_target",
                            M("{move} would act on seq {expected}, not {declared}",
                              move=env["type"], expected=expected, declared=declared),
                            target_seq=expected)


def _undo(rules: GameRules[Any], mode: str, cursor: Cursor, env: Envelope, lookup: Lookup,
          action_at: Callable[[int], Action]) -> Cursor:
    if cursor.top is None:
        raise IllegalAction("nothing_to_undo", M("there is no action left to undo"))
    target = cursor.top
    _declared_target(env, target)
    if mode == "digital":  # table mode undoes anything: no need to rebuild the action
        check_undo(rules, mode, cursor, env["actor"], action_at(target))
    before = lookup(target - 1)
    return Cursor(seq=env["seq"], state=before.state, top=before.top,
                  redo=(*cursor.redo, target), parent=before.parent, invalid=before.invalid,
                  draws=cursor.draws)


def _redo(cursor: Cursor, env: Envelope, lookup: Lookup) -> Cursor:
    if not cursor.redo:
        raise IllegalAction("nothing_to_redo", M("there is no undone action to redo"))
    target = cursor.redo[-1]
    _declared_target(env, target)
    after = lookup(target)
    return Cursor(seq=env["seq"], state=after.state, top=target, redo=cursor.redo[:-1],
                  parent=after.parent, invalid=after.invalid, draws=cursor.draws)


def _correct(rules: GameRules[Any], mode: str, cursor: Cursor, env: Envelope,
             history: History) -> Cursor:
    """A correction replaces the action of an earlier event and re-judges all that follows.

    The original stays in the log; the effective history uses the corrected action, and
    every later event is re-applied: those the rules now refuse are skipped and listed in
    `Cursor.invalid` until they are corrected in turn.
    """
    if mode == "digital":
        raise IllegalAction("corrections_table_only",
                            M("corrections fix a record typed at a table; digital play has "
                              "none"))
    target, replacement = _correction_of(env)
    envs = history(env["seq"] - 1)
    effective = effective_stack(envs)
    if target not in effective or envs[target]["type"] in META_TYPES:
        raise IllegalAction("not_correctable", M("seq {seq} is not an action in effect "
                            "(undone, a log event, or not recorded yet)", seq=target),
                            target_seq=target)
    corrections = {**corrections_in(envs, effective), target: replacement}
    state, invalid = refold(rules, envs, effective, corrections)
    for seq, code, message in invalid:
        if seq == target:
            raise IllegalAction(code, M("the corrected action is itself illegal at seq "
                                                  "{seq}: {reason}", seq=seq, reason=message),
                                target_seq=target)
    return Cursor(seq=env["seq"], state=state, top=env["seq"], redo=(), parent=cursor.top,
                  invalid=tuple(invalid), draws=cursor.draws)


def _correction_of(env: Envelope) -> tuple[int, Action]:
    data = env.get("data") or {}
    target, action = data.get("target_seq"), data.get("action")
    if not isinstance(target, int) or isinstance(target, bool) or target < 1:
        raise IllegalAction("bad_correction", M("a correction needs target_seq, the seq of "
                                                "the event it corrects"))
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str) or \
            not isinstance(action.get("data", {}), Mapping) or "actor" not in action:
        raise IllegalAction("bad_correction", M("a correction needs {shape}",
                                                shape='"action": {"type", "actor", "data"}'))
    if action["type"] in META_TYPES:
        raise IllegalAction("bad_correction", M("a correction replaces a game action, "
                                                "not {move}", move=repr(action["type"])))
    return target, Action.of(action["type"], action["actor"], action.get("data") or {}, target)


def corrections_in(envs: Sequence[Envelope], effective: list[int]) -> dict[int, Action]:
    """Target seq -> corrected action, for every correction in effect (later ones win)."""
    out: dict[int, Action] = {}
    for seq in effective:
        if envs[seq]["type"] == "correction":
            target, action = _correction_of(envs[seq])
            out[target] = action
    return out


def refold(rules: GameRules[Any], envs: Sequence[Envelope], effective: list[int],
           corrections: Mapping[int, Action]) -> tuple[State, list[Invalid]]:
    """Fold the effective actions with corrections in place, skipping what is now illegal."""
    state = rules.initial_state(envs[0]["data"])
    invalid: list[Invalid] = []
    for seq in effective:
        if envs[seq]["type"] == "correction":
            continue
        action = corrections.get(seq) or to_action(envs[seq])
        try:
            state = rules.apply(state, action)
        except IllegalAction as err:
            invalid.append((seq, err.code, err.message))
    return state, invalid


class Folder:
    """Folds a run of envelopes, keeping every cursor so undo can look back."""

    def __init__(self, rules: GameRules[Any], mode: str,
                 fallback: Lookup | None = None,
                 event_at: Callable[[int], Envelope | None] | None = None,
                 events_upto: History | None = None,
                 keep: int | None = None) -> None:
        """`keep`: with a fallback and event_at, hold only the latest `keep` cursors and
        envelopes (older ones are looked up through them), so memory does not grow with
        the length of the fold."""
        self.rules = rules
        self._keep = keep if fallback is not None and event_at is not None else None
        self.mode = mode
        self._events_upto = events_upto
        self.cursors: dict[int, Cursor] = {}
        self.envelopes: dict[int, Envelope] = {}
        self._fallback = fallback
        self._event_at = event_at
        self.last: Cursor | None = None

    def lookup(self, seq: int) -> Cursor:
        if seq in self.cursors:
            return self.cursors[seq]
        if self._fallback is None:
            raise KeyError(seq)
        return self._fallback(seq)

    def action_at(self, seq: int) -> Action:
        env = self.envelopes.get(seq)
        if env is None and self._event_at is not None:
            env = self._event_at(seq)
        if env is None:
            raise KeyError(seq)
        return to_action(env)

    def history(self, upto: int) -> Sequence[Envelope]:
        """Envelopes 0..upto, from what this fold has seen or from the log."""
        if all(seq in self.envelopes for seq in range(upto + 1)):
            return [self.envelopes[seq] for seq in range(upto + 1)]
        if self._events_upto is not None:
            return self._events_upto(upto)
        if self._event_at is None:
            raise KeyError(upto)
        found = [self._event_at(seq) for seq in range(upto + 1)]
        return [env for env in found if env is not None]

    def resume(self, cursor: Cursor) -> None:
        self.cursors[cursor.seq] = cursor
        self.last = cursor

    def feed(self, env: Envelope) -> Cursor:
        if self.last is None:
            cursor = start(self.rules, env)
        else:
            cursor = step(self.rules, self.mode, self.last, env, self.lookup, self.action_at,
                          self.history)
        self.envelopes[env["seq"]] = env
        self.cursors[cursor.seq] = cursor
        self.last = cursor
        if self._keep is not None and len(self.cursors) > 2 * self._keep:
            self._prune(cursor.seq - self._keep)
        return cursor

    def _prune(self, below: int) -> None:
        self.cursors = {s: c for s, c in self.cursors.items() if s >= below}
        self.envelopes = {s: e for s, e in self.envelopes.items() if s >= below}


def mode_of(envelopes: Sequence[Envelope]) -> str:
    return str(created_data(envelopes).get("mode", "table"))


def fold(rules: GameRules[Any], envelopes: list[Envelope]) -> Cursor:
    """The final cursor; raises IllegalAction (with seq) at the first illegal event."""
    folder = Folder(rules, mode_of(envelopes))
    for env in envelopes:
        folder.feed(env)
    if folder.last is None:
        raise IllegalAction("empty_log", M("the log is empty"))
    return folder.last


def steps(rules: GameRules[Any], envelopes: list[Envelope]) -> Iterator[tuple[Envelope, Cursor]]:
    """(event, cursor after it) for every event, for step-through replays."""
    folder = Folder(rules, mode_of(envelopes))
    for env in envelopes:
        yield env, folder.feed(env)


def state_at(rules: GameRules[Any], envelopes: list[Envelope], seq: int) -> Cursor:
    """The fold of events 0..seq."""
    return fold(rules, [e for e in envelopes if e["seq"] <= seq])



def effective_stack(envelopes: Iterable[Envelope]) -> list[int]:
    """The seqs of the actions in effect after `envelopes`, from the log alone (no reducer).

    Undo always takes the top of the stack and redo the top of the redo stack, so this
    cheap pass agrees with the fold.
    """
    applied: list[int] = []
    undone: list[int] = []
    for env in envelopes:
        kind = env["type"]
        if kind == "undo" and applied:
            undone.append(applied.pop())
        elif kind == "redo" and undone:
            applied.append(undone.pop())
        elif kind not in META_TYPES or kind in STACKED_META:
            applied.append(env["seq"])
            undone.clear()
    return applied
