"""One write, planned in memory: the caller's action and the server's own turns after it.

A `Plan` chains the envelopes of one transaction and keeps the cursor after each; `Turns`
applies events to it through the fold (refusing illegal ones), and in digital play adds
what the server owes — the chance events the rules call for, the table's forced steps and,
when the game ends, the seed's reveal — so that all of it commits together (writing.py).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from projections.audit import digest_key, state_digest
from projections.chance import dealer_for, server_move
from projections.replay import Cursor
from projections.rules import Action, IllegalAction

from .dealer import Secret, reveal
from .errors import ChronicleError, Conflict
from .folding import Folding, GameContext
from .model import Envelope, seal
from .store import Summary

log = logging.getLogger("chronicle.turns")

#: server events one action may make due at most (a runaway loop is a bug, not a game)
MAX_SERVER_EVENTS = 1000


@dataclass
class Plan:
    """Events to append in one transaction, the cursor after each, chained in memory."""

    ctx: GameContext
    prev_hash: str
    envelopes: list[Envelope] = field(default_factory=list)
    cursors: list[Cursor] = field(default_factory=list)
    #: (status, result) of the game after the event the plan follows, as the rules fold it:
    #: the seq check proves that event the true predecessor, while the game row read
    #: beside it may be another process's write behind (None: a new game, no row yet)
    before: tuple[str, Any] | None = None

    def add(self, env: Envelope, cursor: Cursor) -> None:
        self.envelopes.append(env)
        self.cursors.append(cursor)
        self.prev_hash = env["hash"]


class Turns:
    """Plans of writes to one store's games."""

    def __init__(self, folding: Folding) -> None:
        self.folding = folding
        self.store = folding.store

    def owed(self, ctx: GameContext, cursor: Cursor) -> bool:
        """Does a digital game owe a server event that nobody wrote (an older version's
        crash between two writes; today's writes are one transaction)?"""
        if ctx.mode != "digital":
            return False
        if ctx.rules.result(cursor.state) is not None:
            last = self._event(ctx, cursor.seq)
            return last is not None and last["type"] != "seed_revealed" and \
                self.store.secret(ctx.id) is not None
        return server_move(ctx.rules, cursor.state) is not None and \
            self.store.secret(ctx.id) is not None

    def _event(self, ctx: GameContext, seq: int) -> Envelope | None:
        """An event of the game; its latest comes with the context, read already."""
        return ctx.last_event if seq == ctx.last else self.store.event(ctx.id, seq)

    def catch_up(self, ctx: GameContext, cursor: Cursor | None = None
                 ) -> tuple[GameContext, Cursor]:
        """Write the server events a digital game owes, in one transaction."""
        cursor = cursor or self.folding.cursor(ctx)
        plan = self.plan(ctx, cursor)
        self.server_turns(plan, self.secret(ctx), after=cursor)
        if plan.envelopes:
            try:
                self.store.append_all(plan.envelopes, self.summary(plan))
            except Conflict:  # another worker caught up first
                fresh = self.folding.context(ctx.id)
                return fresh, self.folding.cursor(fresh)
            for env, after in zip(plan.envelopes, plan.cursors, strict=True):
                self.folding.remember(ctx, after, env)
            log.info("game %s: caught up %d server event(s)", ctx.id, len(plan.envelopes))
            fresh = GameContext(ctx.row, ctx.rules, plan.envelopes[-1])
            return fresh, plan.cursors[-1]
        return ctx, cursor

    def server_turns(self, plan: Plan, secret: Secret | None,
                      after: Cursor | None = None) -> None:
        """Digital mode: the chance events due now, and the seed's reveal at the end."""
        ctx = plan.ctx
        if ctx.mode != "digital":
            return
        rules = ctx.rules
        for _ in range(MAX_SERVER_EVENTS):
            cursor = plan.cursors[-1] if plan.cursors else after
            assert cursor is not None
            if rules.result(cursor.state) is not None:
                # a digital game imported unfinished arrives without its secret seed: there
                # is nothing true to reveal (verify then says the seed was never revealed)
                if secret is not None and not self._revealed(plan, cursor):
                    self.apply(plan, cursor, "seed_revealed", "server", reveal(secret), None)
                return
            auto = server_move(rules, cursor.state)
            if auto is None:
                return
            if secret is None:
                raise no_seed(ctx.id)
            probe = Action.of(auto["type"], auto["actor"], auto.get("data") or {})
            self.apply(plan, cursor, auto["type"], auto["actor"],
                        fill(ctx, cursor, probe, secret), None)
        raise AssertionError("the server kept dealing: a rules bug")

    def _revealed(self, plan: Plan, cursor: Cursor) -> bool:
        if plan.envelopes:
            return bool(plan.envelopes[-1]["type"] == "seed_revealed")
        last = self._event(plan.ctx, cursor.seq)
        return last is not None and bool(last["type"] == "seed_revealed")

    # -- the plan ----------------------------------------------------------------------------
    def plan(self, ctx: GameContext, cursor: Cursor) -> Plan:
        last = self._event(ctx, cursor.seq)
        assert last is not None
        return Plan(ctx, last["hash"], before=_status_of(ctx.rules.result(cursor.state)))

    def apply(self, plan: Plan, cursor: Cursor, kind: str, actor: Any,
               data: Mapping[str, Any], key: str | None) -> None:
        """Fold one more event onto `cursor` (refusing illegal ones) and chain it."""
        ctx, seq = plan.ctx, cursor.seq + 1
        folder = self.folding.folder(plan.ctx, keep=None)
        for earlier in plan.cursors:
            folder.cursors[earlier.seq] = earlier
        for env in plan.envelopes:
            folder.envelopes[env["seq"]] = env
        folder.resume(cursor)
        try:
            after = folder.feed({"seq": seq, "type": kind, "actor": actor, "data": data})
        except ChronicleError:
            raise
        except Exception:  # a reducer bug must never become a half-written event or a 500
            log.exception("reducer crashed on %s at seq %s", kind, seq)
            raise IllegalAction("rejected", f"the rules could not apply this "
                                f"{kind.replace('_', ' ')}; nothing was recorded (this is a "
                                "bug in chronicle: please report it)", seq=seq) from None
        plan.add(seal(ctx.id, seq, kind, actor, data, plan.prev_hash, key), after)

    def summary(self, plan: Plan, built: Mapping[int, tuple[Any, Any]] | None = None
                ) -> Summary:
        """The game row's status and result after the plan, and the digest after each of
        its events; `built`: (full view, result) by seq where the answer built them."""
        rules, row = plan.ctx.rules, plan.ctx.row
        built = built or {}
        last = plan.cursors[-1]
        result = built[last.seq][1] if last.seq in built else rules.result(last.state)
        after = _status_of(result)
        status = after[0]
        # written when the row read may be wrong or the plan changes it: an UPDATE skipped
        # on a stale row would leave a game listed as finished whose end was undone
        changed = after != (row.get("status"), row.get("result")) or after != plan.before
        return Summary(status, result, digest_key(row["game"], rules.rules_version),
                       {c.seq: state_digest(rules, c, built.get(c.seq)) for c in plan.cursors},
                       changed=changed)

    def secret(self, ctx: GameContext) -> Secret | None:
        if ctx.mode != "digital":
            return None
        found = self.store.secret(ctx.id)
        return None if found is None else Secret(*found)


def _status_of(result: Any) -> tuple[str, Any]:
    """(status, result as the store hands it back) of a game whose result is `result`."""
    return ("finished" if result is not None else "in_progress"), _as_json(result)


def _as_json(value: Any) -> Any:
    """`value` as the store hands it back (JSON decoded), to compare with a stored row."""
    return None if value is None else json.loads(json.dumps(value))


def fill(ctx: GameContext, cursor: Cursor, action: Action, secret: Secret) -> dict[str, Any]:
    """fill_chance, with any failure on a bad action reported as the rules see it."""
    rules = ctx.rules
    dealer = dealer_for(secret.scheme, secret.seed, cursor)
    try:
        return rules.fill_chance(cursor.state, action, dealer)
    except IllegalAction:
        raise
    except Exception:  # the action is bad in a way fill_chance did not check
        try:
            rules.apply(cursor.state, action)
        except IllegalAction:
            raise
        except Exception:
            log.exception("reducer failed on %s", action.type)
        raise IllegalAction("rejected", "the rules cannot apply this "
                            f"{action.type.replace('_', ' ')}: check its data against "
                            "`legal`") from None


def no_seed(game_id: str) -> IllegalAction:
    return IllegalAction("no_seed", f"digital game {game_id} was imported without its secret "
                         "seed, so the server cannot deal for it; record the rest as a table "
                         "game instead")


