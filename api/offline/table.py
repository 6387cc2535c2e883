"""The table game as the offline recorder folds it, in the browser (README, "Recording
offline").

This module runs inside Pyodide on the tablet, next to the `projections` package that the
server runs and the server's own input checks (events/shape.py with the schemas it uses),
and imports nothing else of chronicle: every legal action, chance slot,
refusal, board view and sentence it returns is the rules' own, computed by the same code
as on the server. It only arranges their answers in the shapes of the API's documents
(docs/design.md, "CLI and HTTP": the state document, the legal actions with
`chance_slots`, a page of events), as the table's recorder sees them, so the page cannot
tell the two sources apart. What it records is not stored anywhere: the page queues it and
sends it to the server, which checks it again and alone writes the log.

Only the recorder of a table game records offline: it sees everything (events/access.py),
so the fold needs no redaction, and nothing is dealt, so no secret is needed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from events.shape import table_action
from projections import canonical_edition, get_rules
from projections.choices import Pick, Walker, menu
from projections.document import state_document
from projections.errors import ChronicleError
from projections.messages import M, language_of, localise, lowered, render
from projections.replay import META_TYPES, Cursor, Folder, effective_stack, to_action
from projections.rules import ALL, Action, GameRules, IllegalAction, seat_name, thaw

Envelope = dict[str, Any]


class Table:
    """One table game: the server's events as last fetched, then the moves made offline."""

    def __init__(self, game: Mapping[str, Any], envelopes: Sequence[Mapping[str, Any]],
                 edition: Mapping[str, Any] | None = None) -> None:
        if game.get("mode") != "table":
            raise IllegalAction("offline_table_only", M(
                "only a game recorded at the table can be recorded offline; in digital play "
                "the server deals"))
        self.game = dict(game)
        self.rules: GameRules[Any] = _rules(self.game, edition)
        self.folder = Folder(self.rules, "table")
        self.envelopes: list[Envelope] = []
        for env in envelopes:
            self._feed(dict(env))

    # -- reading -----------------------------------------------------------------------
    @property
    def cursor(self) -> Cursor:
        if self.folder.last is None:
            raise IllegalAction("empty_log", M("the log is empty"))
        return self.folder.last

    @property
    def names(self) -> list[str]:
        return list(self.game["players"])

    def state(self) -> dict[str, Any]:
        """The state document now, as the table's recorder sees it (all of it)."""
        cursor = self.cursor
        return state_document(self.rules, cursor, ALL, game_id=self.game["id"], mode="table",
                              players=self.names, last_seq=cursor.seq, audit=None)

    def legal(self) -> dict[str, Any]:
        """Every actor's legal actions now, and the chance outcomes each still needs (by the
        action's index), to be tapped at the table."""
        state = self.cursor.state
        actions = [{"type": a["type"], "actor": a["actor"], "data": thaw(a["data"])}
                   for a in self.rules.legal_actions(state, None)]
        slots: dict[str, list[dict[str, Any]]] = {}
        for i, action in enumerate(actions):
            if self.rules.chance_fields.get(action["type"]):
                found = self.rules.chance_slots(state, Action.of(
                    action["type"], action["actor"], action["data"]))
                if found is not None:
                    slots[str(i)] = [thaw(slot) for slot in found]
        return {"actions": actions, "chance_slots": slots}

    def choices(self, kind: str | None = None, actor: Any = None,
                picks: Sequence[Any] = ()) -> dict[str, Any]:
        """A move built choice by choice, as `GET /games/<id>/choices` answers the table's
        recorder (events/choosing.py): every seat's moves, the chance outcomes tapped as
        choices. The walk is the rules' own (projections.choices.Walker); only the shape of
        the answer is arranged here."""
        state, rules = self.cursor.state, self.rules
        walker = Walker(rules, table=True)
        actors = list(rules.to_act(state))
        if kind is None:
            return {"actions": menu(walker, state, actors)}
        answers = [Pick.of(p) for p in picks]
        record = rules.action_type(kind)
        what = lowered(record.label)
        open_to = [a for a in actors if any(r.name == kind for r in walker.opening(state, a))]
        if actor is not None and actor not in open_to:
            raise IllegalAction("not_now", M("{who} cannot {move} now",
                                             who=seat_name(self.names, actor), move=what),
                                type=kind, actor=actor)
        if actor is None:
            if len(open_to) != 1:
                raise IllegalAction("actor_needed" if open_to else "not_now",
                                    M("say who makes this move") if open_to
                                    else M("nobody can {move} now", move=what), type=kind)
            actor = open_to[0]
        walk = walker.walk(state, kind, actor, answers)
        move = walk.move
        sentence = None if move is None else rules.describe(
            Action.of(move["type"], move["actor"], move["data"]), self.names)
        return {"type": kind, "actor": actor, "label": record.label,
                "picks": [p.to_json() for p in answers],
                "choice": None if walk.choice is None else walk.choice.to_json(),
                "complete": walk.complete, "move": move, "sentence": sentence}

    def events(self, after: int = -1, limit: int | None = None) -> dict[str, Any]:
        """A page of the log with its annotations, as `GET /games/<id>/events` has it."""
        shown = [e for e in self.envelopes if e["seq"] > after][:limit]
        effective = set(effective_stack(self.envelopes))
        notes: dict[str, dict[str, Any]] = {}
        for env in shown:
            note: dict[str, Any] = {}
            if env["type"] not in META_TYPES:
                note["undone"] = env["seq"] not in effective
                note["description"] = self.describe(env)
                said = self.outcome(env)
                if said:
                    note["description"] = M("{sentence}: {outcome}",
                                                sentence=note["description"], outcome=said)
            notes[str(env["seq"])] = note
        return {"events": shown, "annotations": notes, "next": None}

    def describe(self, env: Mapping[str, Any]) -> str:
        """The rules' sentence for a game action (a log event is worded by the page)."""
        try:
            return self.rules.describe(to_action(env), self.names)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            return M("{actor}: {move}", actor=seat_name(self.names, env["actor"]),
                     move=env["type"].replace("_", " "))

    def outcome(self, env: Mapping[str, Any]) -> str | None:
        """What the move decided (a challenge's winner), as the server's log says it
        (events/reading.py): from the state before it, kept by the folder."""
        before = self.folder.cursors.get(env["seq"] - 1)
        if env["type"] not in self.rules.outcome_types or before is None:
            return None
        try:
            return self.rules.outcome(before.state, to_action(env), self.names)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, IllegalAction):
            return None

    # -- recording -----------------------------------------------------------------------
    def record(self, action: Mapping[str, Any]) -> dict[str, Any]:
        """Apply one action, checked first as the server checks it (its shape and what the
        log forbids: events/shape.py), then through the rules (a refusal, and nothing
        kept, if either refuses it); the event as it would be stored, and the state after."""
        checked = table_action(self.rules, self.names, self.cursor.state, action)
        env = {"game_id": self.game["id"], "seq": self.cursor.seq + 1, "type": checked["type"],
               "actor": checked["actor"], "data": thaw(checked["data"])}
        self._feed(env)
        return {"event": env, "state": self.state()}

    def undo(self) -> dict[str, Any]:
        """Take back the latest action in effect, as the table's recorder does."""
        return self.record(self.meta_action("undo"))

    def redo(self) -> dict[str, Any]:
        """Put back the action undone last."""
        return self.record(self.meta_action("redo"))

    def meta_action(self, kind: str) -> dict[str, Any]:
        """The undo or redo the recorder asks for, aimed at the action it would act on (the
        fold refuses it, naming the rule, when there is none)."""
        cursor = self.cursor
        target = cursor.top if kind == "undo" else (cursor.redo[-1] if cursor.redo else None)
        return {"type": kind, "actor": "table",
                "data": {"target_seq": target} if target is not None else {}}

    def _feed(self, env: Envelope) -> None:
        self.folder.feed(env)  # raises before anything is kept
        self.envelopes.append(env)


def _rules(game: Mapping[str, Any], edition: Mapping[str, Any] | None) -> GameRules[Any]:
    """The game's rules bound to its edition; an edition that is not the one the game was
    recorded with is refused rather than folded (its sha256 is the game's)."""
    rules = get_rules(game["game"], dict(edition) if edition is not None else None)
    wanted = game.get("edition_sha256")
    if wanted and canonical_edition(dict(rules.edition))[1] != wanted:
        raise IllegalAction("edition_unknown", M(
            "this tablet does not have the edition this game is recorded with; open the game "
            "once while online"))
    return rules


# -- the page's door: JSON text in, JSON text out ---------------------------------------
_tables: dict[str, Table] = {}


def call(method: str, args_json: str) -> str:
    """Run one request of the page: `{"ok": answer}`, or `{"error": {code, message}}` for a
    refusal (the rules' message, shown as the server would show it)."""
    args = json.loads(args_json)
    # the page's language (`lang`): the sentences are rendered in it, as the server's JSON
    # renders them for the page's request
    lang = language_of(str(args.pop("lang", "") or "")) if isinstance(args, dict) else "en"
    try:
        answer = _dispatch(method, args)
    except ChronicleError as err:
        return json.dumps({"error": {"code": err.code, "message": render(err.message, lang),
                                     "kind": err.kind}})
    except Exception:  # a sentence for the table, never a traceback
        return json.dumps({"error": {"code": "offline_rules_failed", "kind": "invalid",
                                     "message": render(M(
                                         "the rules on this tablet could not check this move; "
                                         "nothing was recorded"), lang)}})
    # keys sorted as the server's JSON has them (Flask sorts): a board that draws a mapping
    # in its order looks the same offline
    return json.dumps({"ok": localise(answer, lang)}, sort_keys=True)


def _dispatch(method: str, args: dict[str, Any]) -> Any:
    if method == "open":
        table = Table(args["game"], args["events"], args.get("edition"))
        _tables[table.game["id"]] = table
        return {"state": table.state(), "legal": table.legal()}
    table = _tables[args["game_id"]]
    if method == "state":
        return table.state()
    if method == "legal":
        return table.legal()
    if method == "choices":
        return table.choices(args.get("type"), args.get("actor"), args.get("picks") or [])
    if method == "events":
        return table.events(args.get("after", -1), args.get("limit"))
    if method == "record":
        return table.record(args["action"])
    if method in ("undo", "redo"):
        return table.undo() if method == "undo" else table.redo()
    if method == "meta_action":
        return table.meta_action(args["kind"])
    raise IllegalAction("unknown_request", M("the offline table has no request {request}",
                                             request=repr(method)))
