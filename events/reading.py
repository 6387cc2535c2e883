"""Reading a game as one caller may see it: the one door to every viewer-facing read.

A `GameReader` is built for one game and one caller (`Access`); it decides the viewer once
(the rules of events/access.py) and every representation it serves — the state document at
any step, the history in any page, the stream's events, the export, one stored event (an
idempotent replay, the answer to a write), the legal actions, the audit report, the records
that `compare` aligns — takes its events through `shown`, which is the rules' redaction
(projections/visibility.py) applied to the state before each event. There is no other way
from a reader to an event; nothing viewer-facing reads the store's events directly.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from projections.document import state_document
from projections.messages import M
from projections.replay import META_TYPES, Cursor, to_action
from projections.rules import ALL, TABLE, Action, GameRules, IllegalAction, seat_name, thaw
from projections.visibility import shown_event

from .access import Access, legal_actor, viewer_of
from .checks import meta_target
from .errors import InvalidEvent
from .folding import Folding, GameContext
from .model import Envelope
from .paging import Marks, marks_of_log, marks_of_page, stacked


class GameReader:
    """One game through one caller's eyes."""

    def __init__(self, folding: Folding, ctx: GameContext, access: Access,
                 latest: Cursor | None = None) -> None:
        self._folding = folding
        self.ctx = ctx
        self.access = access
        self.latest = latest if latest is not None else folding.cursor(ctx)
        self.finished = ctx.rules.result(self.latest.state) is not None
        self.viewer = viewer_of(access, ctx.mode, self.finished, bool(ctx.rules.sealed_types))

    @property
    def rules(self) -> GameRules[Any]:
        return self.ctx.rules

    @property
    def sees_all(self) -> bool:
        return self.viewer == ALL

    def sees_whole_record(self, at: int) -> bool:
        """Whether nothing of events 0..at is withheld from this caller (a table recorder
        of a game whose seats may seal moves: until one did, it sees the whole record)."""
        if self.sees_all:
            return True
        if self.viewer != TABLE or not 0 <= at <= self.ctx.last:
            return False
        events = self._folding.store.events(self.ctx.id, upto=at)
        return not any(run[1] for run in self._shown_run(events)) and \
            self.rules.view(self._folding.cursor(self.ctx, at).state, TABLE) == \
            self.rules.view(self._folding.cursor(self.ctx, at).state, ALL)

    # -- state ---------------------------------------------------------------------------
    def state(self, at: int | None = None) -> dict[str, Any]:
        """The state document (docs/design.md, "CLI and HTTP") at step `at` (default: now)."""
        cursor = self.latest if at is None or at == self.latest.seq else \
            self._folding.cursor(self.ctx, at)
        return self.state_of(cursor)

    def state_of(self, cursor: Cursor) -> dict[str, Any]:
        ctx = self.ctx
        return state_document(self.rules, cursor, self.viewer, game_id=ctx.id, mode=ctx.mode,
                              players=ctx.players, last_seq=self.latest.seq,
                              audit=self._folding.audit_of(ctx))

    # -- legal actions ---------------------------------------------------------------------
    def legal(self, seat: Any = None) -> list[dict[str, Any]]:
        """Legal actions now, ready to record: a seat's own, a digital recorder's table
        moves, nobody's for a spectator."""
        if self.access.role == "spectator":
            return []
        actor = legal_actor(self.access, self.ctx.mode, seat)
        return [{"type": a["type"], "actor": a["actor"], "data": thaw(a["data"])}
                for a in self.rules.legal_actions(self.latest.state, actor)]

    def default_actor(self, kind: str) -> Any:
        """Who would make a `kind` action now: the only actor the rules list for it, else
        the only one to act; with several, the caller must say (InvalidEvent). A log-level
        action (a note, a correction, a claimed result) is the table's by default."""
        if kind in META_TYPES:
            return "table"
        listed = {a["actor"] for a in self.rules.legal_actions(self.latest.state, None)
                  if a["type"] == kind}
        to_act = set(self.rules.to_act(self.latest.state))
        for candidates in (listed, to_act):
            if len(candidates) == 1:
                return next(iter(candidates))
        names = self.ctx.players
        who = sorted(seat_name(names, a) for a in (listed or to_act))
        raise InvalidEvent("actor_needed", f"say who makes this {kind.replace('_', ' ')}: "
                           f"{', '.join(who) or 'nobody may act now'} (--actor SEAT or table)")

    def legal_with_slots(self) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
        """The legal actions, and for a table-mode recorder the chance outcomes each still
        needs (`GameRules.chance_slots`, by the action's index), to be picked at the table."""
        actions = self.legal()
        if self.ctx.mode != "table" or not self.access.may_record:
            return actions, {}
        slots = {}
        for i, action in enumerate(actions):
            if self.rules.chance_fields.get(action["type"]):
                found = self.rules.chance_slots(self.latest.state, Action.of(
                    action["type"], action["actor"], action["data"]))
                if found is not None:  # [] too: nothing to enter, nothing to type
                    slots[str(i)] = [thaw(slot) for slot in found]
        return actions, slots

    # -- events ----------------------------------------------------------------------------
    def event(self, seq: int) -> Envelope:
        """One stored event as this caller may see it."""
        env = self._folding.store.event(self.ctx.id, seq)
        if env is None:
            raise IllegalAction("no_such_event", f"game {self.ctx.id} has no event {seq}")
        before = self._folding.cursor(self.ctx, seq - 1) if seq > 0 else None
        return self.shown(env, before)[0]

    def history(self, after: int = -1, limit: int | None = None
                ) -> tuple[list[Envelope], dict[int, dict[str, Any]]]:
        """Envelopes after `after` as this caller may see them, and annotations by seq. A
        page reads itself and the events aimed at it (events/paging.py) and one fold from
        the cursor before it (redaction, outcomes): O(page + K) however long the game."""
        store, ctx = self._folding.store, self.ctx
        envs = list(store.events(ctx.id, after=after, limit=limit))
        marks = None
        if limit is not None and envs:
            marks = marks_of_page(store, ctx.id, envs, self._target_before)
        if marks is None:
            whole = envs if after < 0 else list(store.events(ctx.id))
            marks = marks_of_log(whole)
        invalid = {seq: message for seq, _, message in self.latest.invalid}
        out: list[Envelope] = []
        notes: dict[int, dict[str, Any]] = {}
        shown_by_seq: dict[int, Envelope] = {}
        for env, withheld, shown, before in self._shown_run(envs, self.rules.outcome_types):
            shown_by_seq[env["seq"]] = shown
            notes[env["seq"]] = self._note(shown, withheld, marks, invalid, shown_by_seq,
                                           before)
            out.append(shown)
        return out, notes

    def _shown_run(self, envs: Iterable[Envelope], fold: frozenset[str] = frozenset()
                   ) -> Iterator[tuple[Envelope, bool, Envelope, Cursor | None]]:
        """(event, withheld?, as shown, cursor before it) by one fold from the cursor before
        the first: it redacts, and the `fold` types' outcomes read it (not a fold each)."""
        folder = None
        for env in envs:
            if self.sees_all and not fold:
                yield env, False, env, None
                continue
            if folder is None:
                folder = self._folding.folder(self.ctx)
                if env["seq"] > 0:
                    folder.resume(self._folding.cursor(self.ctx, env["seq"] - 1))
            before = folder.last
            shown, withheld = self.shown(env, before)
            yield env, withheld, shown, before
            folder.feed(env)

    def _target_before(self, env: Envelope) -> int | None:
        """What an undo or redo stored without its target aimed at: the cursor before it."""
        return meta_target(str(env["type"]), self._folding.cursor(self.ctx, env["seq"] - 1))

    def export(self) -> Iterator[str]:
        """The log as JSON Lines, as this caller may see it (whole for the full view),
        streamed: memory does not grow with the game."""
        return _lines(run[2] for run in self._shown_run(self._folding.store.events(self.ctx.id)))

    def envelopes(self) -> list[Envelope]:
        """The whole log as this caller may see it (for aligning two records)."""
        return [run[2] for run in self._shown_run(self._folding.store.events(self.ctx.id))]

    def shown(self, env: Envelope, before: Cursor | None) -> tuple[Envelope, bool]:
        """The one redaction: `env` as this caller may see it, given the cursor before it."""
        if self.sees_all:
            return env, False
        return shown_event(self.rules, env, self.viewer, None if before is None
                           else before.state)

    # -- annotations -----------------------------------------------------------------------
    def _note(self, shown: Envelope, withheld: bool, marks: Marks, invalid: dict[int, str],
              seen: dict[int, Envelope], before: Cursor | None) -> dict[str, Any]:
        seq = shown["seq"]
        note: dict[str, Any] = {}
        if withheld:
            note["redacted"] = True
        if stacked(shown):
            note["undone"] = seq in marks.undone
        if seq in marks.corrected:
            note["corrected_by"] = marks.corrected[seq]
        if seq in invalid:
            note["invalid"] = invalid[seq]
        note["description"] = self.sentence(shown, seen)
        if shown["type"] in self.rules.outcome_types and not withheld:
            said = self._outcome(shown, before)
            if said:
                note["description"] = M("{sentence}: {outcome}", sentence=note["description"],
                                        outcome=said)
        return note

    def _outcome(self, shown: Envelope, before: Cursor | None) -> str | None:
        """What the move decided (a challenge's winner), from the game as it stood before
        it; a move the rules no longer read on that state says nothing more."""
        try:  # `before`: the page's own fold (None only before event 0)
            state = (before or self._folding.cursor(self.ctx, shown["seq"] - 1)).state
            return self.rules.outcome(state, to_action(shown), self.ctx.players)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, IllegalAction):
            return None

    def sentence(self, shown: Envelope, seen: dict[int, Envelope] | None = None) -> str:
        """What a person reads for one event, from what this caller may see of it."""
        names, kind, data = self.ctx.players, shown["type"], shown.get("data") or {}
        who = seat_name(names, shown["actor"])
        if kind not in META_TYPES:
            return describe(self.rules, to_action(shown), names)
        if kind in ("undo", "redo"):
            target = data.get("target_seq")
            if not isinstance(target, int):
                return M("{player} undid the last move", player=who) if kind == "undo" else \
                    M("{player} redid the last move", player=who)
            before = self.sentence((seen or {}).get(target) or self.event(target))
            return M("{player} undid the move “{move}”", player=who, move=before) \
                if kind == "undo" else M("{player} redid the move “{move}”", player=who,
                                          move=before)
        if kind == "correction":
            fix = data.get("action") or {}
            what = describe(self.rules, Action.of(str(fix.get("type", "move")),
                                                  fix.get("actor", "table"),
                                                  fix.get("data") or {}), names)
            return M("{player} corrected event {seq}: now “{move}”", player=who,
                     seq=str(data.get("target_seq")), move=what)
        return _meta_sentence(kind, who, data, names)

def describe(rules: GameRules[Any], action: Action, names: list[str]) -> str:
    """The rules' sentence for an action; a shape the sentence cannot read (data withheld
    from this viewer, an altered record) still reads as who did what."""
    try:
        return rules.describe(action, names)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return M("{actor}: {move}", actor=seat_name(names, action.actor),
                 move=action.type.replace("_", " "))


def _meta_sentence(kind: str, who: str, data: dict[str, Any], names: list[str]) -> str:
    if kind == "game_created":
        players = ", ".join(data.get("players") or names)
        if data.get("mode") == "digital":
            return M("a digital game of {players} began", players=players)
        return M("a table game of {players} began", players=players)
    if kind == "seed_revealed":
        return M("the server revealed the seed it dealt from")
    if kind == "note":
        text = data.get("text")
        return M("{player} noted: {text}", player=who, text=str(text)) if text else \
            M("{player} added a note", player=who)
    if kind == "claim_result":
        scores = data.get("scores") or []
        written = ", ".join(f"{seat_name(names, i)} {s}" for i, s in enumerate(scores)
                            if s is not None)
        return M("{player} wrote down the result: {claimed}", player=who, claimed=written) \
            if written else M("{player} wrote down the result", player=who)
    return M("{actor}: {move}", actor=who, move=kind.replace("_", " "))


def audit_report(report: dict[str, Any], access: Access, mode: str) -> dict[str, Any]:
    """A verify report as this caller may read it: a running game's problems keep their seq
    and code, but their messages may quote hidden data, so a viewer who does not see
    everything reads a sentence without it. Whether the game is over comes from the report
    itself: a log that fails to fold must still be reported, never folded again."""
    if viewer_of(access, mode, report.get("result") is not None) == ALL:
        return report
    problems = [{"seq": p.get("seq"), "code": p.get("code"),
                 "message": _hidden_problem(p)} for p in report["problems"]]
    # a ruling's reason is the recorder's words, which may name a hidden card (ruling 17)
    rulings = [{"seq": r["seq"], "actor": r["actor"], "reason": None}
               for r in report.get("rulings") or ()]
    return {**report, "problems": problems, "rulings": rulings}


def _hidden_problem(problem: dict[str, Any]) -> Any:
    seq, code = problem.get("seq"), str(problem.get("code")).replace("_", " ")
    return M("a problem in this game ({code}); its details are shown once the game is "
             "over", code=code) if seq is None else \
        M("a problem at event {seq} ({code}); its details are shown once the game is over",
          seq=seq, code=code)


def _lines(envelopes: Any) -> Iterator[str]:
    for env in envelopes:
        yield json.dumps(env, ensure_ascii=False) + "\n"
