"""Writing: creating a game, recording an action, undo and redo.

Every write is one transaction (Store.append_all): the action, every server event it makes
due (turns.py: a deal, the table's forced steps, the seed's reveal at the end) and the
game's summary and state digests commit together or not at all. So a response is 2xx if
and only if its action is stored, and a reader never sees a finished digital game without
its reveal (docs/design.md, "Deals and fair seeds"). A write without If-Match that meets another
writer is re-validated against the new state and tried again; with If-Match it is refused
(409). What the log itself forbids is checked first (checks.py), then the rules.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from projections import game_class
from projections.audit import correction_impact
from projections.replay import META_TYPES, Cursor
from projections.rules import Action, IllegalAction, thaw

from . import schemas
from .access import RECORDER, Access, Tokens, may_replay, mint_tokens
from .checks import (
    aimed,
    check_actor,
    check_new_game,
    check_seat_meta,
    check_table_choice,
    check_typist,
    meta_target,
    schema_of,
    sealed_by_typist,
)
from .dealer import Entropy, Secret, committed, draw_secret
from .editions import Editions
from .errors import Conflict, InvalidEvent, Unauthorized
from .folding import Folding, GameContext
from .model import GENESIS, Envelope, new_game_id, seal
from .reading import GameReader
from .rows import game_row
from .shape import check_data
from .turns import Plan, Turns, fill, no_seed

log = logging.getLogger("chronicle.writing")

#: how often a write without If-Match is re-validated when another writer got there first
RETRIES = 8


@dataclass(frozen=True, slots=True)
class CreatedGame:
    id: str
    recorder_token: str
    seat_tokens: list[str]
    events: list[Envelope] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Recorded:
    event: Envelope
    #: the state document after the event; empty when the caller asked for the envelope
    #: alone (`minimal`: HTTP's `Prefer: return=minimal`), which spares building it
    state: dict[str, Any]
    last_seq: int
    replayed: bool = False  # an idempotent retry: nothing new was stored
    #: after a correction: each later event now illegal or whose outcome changed
    correction_report: list[dict[str, Any]] | None = None


class Writer:
    """The one write path of one store."""

    def __init__(self, folding: Folding, editions: Editions, entropy: Entropy) -> None:
        self.folding = folding
        self.store = folding.store
        self.editions = editions
        self.entropy = entropy
        self.turns = Turns(folding)

    # -- creating ----------------------------------------------------------------------------
    def create(self, request: Mapping[str, Any], game_id: str | None = None) -> CreatedGame:
        """Event 0, the tokens, and in digital mode the secret and the first deal: one write."""
        schemas.check_json_text(request, "the new-game request")
        req = schemas.load(schemas.NewGameSchema(), request, "the new-game request")
        cls = game_class(req["game"])
        check_new_game(cls, req)
        edition = self.editions.pick(cls.slug, req["edition"])
        secret = draw_secret(req["seed"], self.entropy) if req["mode"] == "digital" else None
        created = {
            "game": cls.slug, "players": req["players"], "mode": req["mode"],
            "options": {**cls.default_options, **req["options"]}, "edition": edition,
            "seed_commitment": None, "rules_version": cls.rules_version,
            **(committed(secret) if secret is not None else {}),
        }
        gid = game_id or new_game_id()
        env = seal(gid, 0, "game_created", "table", created, GENESIS)
        rules = self.editions.rules(cls.slug, edition)
        try:
            rules.initial_state(created)
        except (KeyError, TypeError, ValueError) as err:
            raise IllegalAction("bad_options", f"the options do not fit {cls.title}: {err}"
                                ) from None
        row = game_row(env, cls.rules_version, title=req["title"])
        ctx = GameContext(row, rules, env)
        plan = Plan(ctx, env["hash"], [env], [self.folding.folder(ctx).feed(env)])
        self.turns.server_turns(plan, secret)
        tokens = mint_tokens(len(req["players"]))
        self._store_new(plan, tokens, secret)
        log.info("created %s game %s (%s, %d players)", cls.slug, gid, req["mode"],
                 len(req["players"]))
        done = GameContext(row, rules, plan.envelopes[-1])
        reader = GameReader(self.folding, done, Access(RECORDER), latest=plan.cursors[-1])
        shown = [reader.shown(env, plan.cursors[i - 1] if i else None)[0]
                 for i, env in enumerate(plan.envelopes)]
        return CreatedGame(gid, tokens.recorder, tokens.seats, shown)

    def _store_new(self, plan: Plan, tokens: Tokens, secret: Secret | None) -> None:
        summary = self.turns.summary(plan)
        row = {**plan.ctx.row, "status": summary.status, "result": summary.result}
        self.store.import_game(row, plan.envelopes, tokens.hashes,
                               secret.seed if secret else None, secret.salt if secret else None)
        self.store.put_digests(plan.ctx.id, summary.digest_key, summary.digests)
        for env, cursor in zip(plan.envelopes, plan.cursors, strict=True):
            self.folding.remember(plan.ctx, cursor, env)

    # -- recording ---------------------------------------------------------------------------
    def record(self, game_id: str, raw: Any, *, expected_seq: int | None = None,
               idempotency_key: str | None = None, access: Access,
               minimal: bool = False) -> Recorded:
        """Validate and append one action with the server events it makes due."""
        for attempt in range(RETRIES):
            ctx = self.folding.context(game_id)
            if access.role == "spectator":  # before anything of the game is read
                raise Unauthorized("token_required", "recording needs a recorder or seat token")
            if idempotency_key is not None:
                done = self.store.event_by_key(game_id, idempotency_key)
                if done is not None:
                    return self._replay(ctx, done, raw, access, minimal)
            try:
                return self._record_once(ctx, raw, expected_seq, idempotency_key, access,
                                         minimal)
            except Conflict as err:
                if err.code == "idempotency_key_taken" or (
                        expected_seq is None and attempt < RETRIES - 1):
                    continue  # the retry meets the stored key, or re-validates the action
                raise
        raise Conflict("stale_sequence", "other writers kept appending to this game; reload "
                       "and try again")

    def _record_once(self, ctx: GameContext, raw: Any, expected_seq: int | None,
                     key: str | None, access: Access, minimal: bool = False) -> Recorded:
        schemas.check_json_text(raw, "the action")
        action = schemas.load_action(raw)
        check_actor(ctx, access, action)
        check_typist(ctx, access, action)
        action = sealed_by_typist(ctx, access, action)
        cursor = self.folding.cursor(ctx, keep=True)
        if self.turns.owed(ctx, cursor):  # a server killed mid-write by an older version
            ctx, cursor = self.turns.catch_up(ctx, cursor)
        if expected_seq is not None and expected_seq != cursor.seq:
            raise Conflict("stale_sequence",
                           f"the game moved on: its last event is {cursor.seq}, you expected "
                           f"{expected_seq}; reload and try again", last_seq=cursor.seq)
        target = meta_target(action["type"], cursor)
        if access.role == "seat" and target is not None:  # a seat undoes only its own
            check_seat_meta(ctx, access, action["type"], cursor, self.store.event(ctx.id, target))
        check_table_choice(ctx, cursor, action)
        secret = self.turns.secret(ctx)
        data = self._prepare(ctx, cursor, action, secret)
        plan = self.turns.plan(ctx, cursor)
        self.turns.apply(plan, cursor, action["type"], action["actor"], data, key)
        self.turns.server_turns(plan, secret)
        answer, built = self._answer(ctx, plan, cursor, access, minimal)
        self.store.append_all(plan.envelopes, self.turns.summary(plan, built))
        for env, after in zip(plan.envelopes, plan.cursors, strict=True):
            self.folding.remember(ctx, after, env)
        if answer.event["type"] == "correction":
            return Recorded(answer.event, answer.state, answer.last_seq,
                            correction_report=correction_impact(
                ctx.rules, list(self.store.events(ctx.id, upto=answer.event["seq"]))))
        return answer

    def _answer(self, ctx: GameContext, plan: Plan, before: Cursor, access: Access,
                minimal: bool = False) -> tuple[Recorded, dict[int, tuple[Any, Any]]]:
        """The answer to the caller (its event as it may see it, the state after it), built
        before the append so that the write's digest reuses its view when the caller sees
        everything: (answer, {seq: (full view, result)})."""
        env, last = plan.envelopes[0], plan.envelopes[-1]["seq"]
        done = GameContext(ctx.row, ctx.rules, plan.envelopes[-1])
        reader = GameReader(self.folding, done, access, latest=plan.cursors[-1])
        if minimal:
            return Recorded(reader.shown(env, before)[0], {}, last), {}
        state = reader.state_of(plan.cursors[0])
        built = {env["seq"]: (state["view"], state["result"])} if reader.sees_all else {}
        return Recorded(reader.shown(env, before)[0], state, last), built

    def _replay(self, ctx: GameContext, done: Envelope, raw: Any, access: Access,
                minimal: bool = False) -> Recorded:
        """An idempotent retry: the stored answer, only to the token that made it."""
        if not may_replay(access, ctx.mode, done):
            raise Conflict("idempotency_key_reused", "this Idempotency-Key belongs to another "
                           "caller's action; send each new action with a fresh key")
        if isinstance(raw, Mapping) and (raw.get("type") != done["type"] or (
                "actor" in raw and raw.get("actor") != done["actor"])):
            raise Conflict("idempotency_key_reused", "this Idempotency-Key was used for a "
                           f"different action ({done['type'].replace('_', ' ')}); send each "
                           "new action with a fresh key")
        reader = GameReader(self.folding, ctx, access)
        return Recorded(reader.event(done["seq"]), {} if minimal else reader.state(done["seq"]),
                        reader.latest.seq, replayed=True)

    def meta_action(self, game_id: str, kind: str, actor: Any, access: Access) -> dict[str, Any]:
        """The undo or redo a caller asks for, aimed at the action it would retract."""
        if access.role == "seat":
            actor = access.seat
        ctx = self.folding.context(game_id)
        cursor = self.folding.cursor(ctx)
        target = meta_target(kind, cursor)
        if ctx.mode == "digital" and actor == "table" and target is not None:
            # the recorder acts as the seat whose action it is, under that seat's policy
            env = self.store.event(game_id, target)
            actor = env["actor"] if env else actor
        return {"type": kind, "actor": actor,
                "data": {"target_seq": target} if target is not None else {}}

    # -- checks ------------------------------------------------------------------------------
    def _prepare(self, ctx: GameContext, cursor: Cursor, action: Mapping[str, Any],
                 secret: Secret | None) -> dict[str, Any]:
        """Check what the log itself forbids and fill chance outcomes; returns the data."""
        rules, kind, data = ctx.rules, action["type"], dict(action["data"])
        if kind in ("undo", "redo"):
            return aimed(kind, data, cursor)
        if ctx.mode == "digital" and kind not in META_TYPES and rules.chance_fields.get(kind):
            # the rules' own refusals of an unknown type and of a game over, before any deal
            rules.admissible(cursor.state, Action.of(kind, action["actor"], data))
            data = self._dealt(ctx, cursor, kind, action["actor"], data, secret)
            return schemas.check_exact(schema_of(rules.action_schemas[kind]), data,
                                       f"the {kind} data")
        # everything else as the offline recorder checks it too (shape.py)
        return check_data(rules, cursor.state, action)

    def _dealt(self, ctx: GameContext, cursor: Cursor, kind: str, actor: Any,
               data: dict[str, Any], secret: Secret | None) -> dict[str, Any]:
        """Digital play: the client sends only its choice; the server deals the rest."""
        rules = ctx.rules
        probe = Action.of(kind, actor, data)
        try:
            choice = rules.strip_chance(probe)
        except Exception:  # data too malformed to even separate: the schema says why
            schemas.load(schema_of(rules.action_schemas[kind]), data, f"the {kind} data")
            raise InvalidEvent("malformed", f"the {kind} data is malformed") from None
        if choice != thaw(probe.data):
            given = sorted(k for k in data if data.get(k) != choice.get(k))
            raise IllegalAction("server_deals", "in digital play the server deals: leave "
                                f"the chance outcome out of {', '.join(given)}")
        schemas.load(schema_of(rules.action_schemas[kind]), data, f"the {kind} data",
                     partial=rules.chance_fields[kind])
        if secret is None:
            raise no_seed(ctx.id)
        return fill(ctx, cursor, Action.of(kind, actor, choice), secret)

    # -- catching up ----------------------------------------------------------------------
    def owed(self, ctx: GameContext, cursor: Cursor) -> bool:
        """Does a digital game owe server events nobody wrote (turns.py)?"""
        return self.turns.owed(ctx, cursor)

    def catch_up(self, ctx: GameContext, cursor: Cursor | None = None
                 ) -> tuple[GameContext, Cursor]:
        """Write the server events a digital game owes, in one transaction."""
        return self.turns.catch_up(ctx, cursor)



__all__ = ["CreatedGame", "Recorded", "Writer"]
