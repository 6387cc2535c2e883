"""Writing: creating a game, recording an action, undo and redo, the server's own turns.

Every write is one transaction (Store.append_all): the action, every server event it makes
due (a deal, the table's forced steps, the seed's reveal at the end) and the game's summary
and state digests commit together or not at all. So a response is 2xx if and only if its
action is stored, and a reader never sees a finished digital game without its reveal
(DESIGN.md, "Digital chance"). A write without If-Match that meets another writer is
re-validated against the new state and tried again; with If-Match it is refused (409).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from marshmallow import Schema

from projections import game_class
from projections.audit import correction_impact, digest_key, state_digest
from projections.chance import dealer_for, server_move
from projections.replay import META_TYPES, Cursor
from projections.rules import Action, GameRules, IllegalAction, seat_name, thaw

from . import schemas
from .access import RECORDER, Access, Tokens, may_replay, mint_tokens
from .dealer import Entropy, Secret, committed, draw_secret, reveal
from .editions import Editions
from .errors import AccessDenied, ChronicleError, Conflict, InvalidEvent, Unauthorized
from .folding import Folding, GameContext
from .model import GENESIS, Envelope, new_game_id, seal
from .reading import GameReader
from .store import Summary

log = logging.getLogger("chronicle.writing")

#: types a client may never send: the log writes them itself
RESERVED_TYPES = frozenset({"game_created", "seed_revealed"})
#: how often a write without If-Match is re-validated when another writer got there first
RETRIES = 8
#: server events one action may make due at most (a runaway loop is a bug, not a game)
MAX_SERVER_EVENTS = 1000


@dataclass(frozen=True, slots=True)
class CreatedGame:
    id: str
    recorder_token: str
    seat_tokens: list[str]
    events: list[Envelope] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Recorded:
    event: Envelope
    state: dict[str, Any]
    replayed: bool = False  # an idempotent retry: nothing new was stored
    #: after a correction: each later event now illegal or whose outcome changed
    correction_report: list[dict[str, Any]] | None = None


@cache
def _schema(cls: type[Schema]) -> Schema:
    """One instance per schema class: building a marshmallow Schema deep-copies its
    declared fields, which cost more than the load itself; loading is stateless."""
    return cls()


@dataclass
class _Plan:
    """Events to append in one transaction, the cursor after each, chained in memory."""

    ctx: GameContext
    prev_hash: str
    envelopes: list[Envelope] = field(default_factory=list)
    cursors: list[Cursor] = field(default_factory=list)

    def add(self, env: Envelope, cursor: Cursor) -> None:
        self.envelopes.append(env)
        self.cursors.append(cursor)
        self.prev_hash = env["hash"]


class Writer:
    """The one write path of one store."""

    def __init__(self, folding: Folding, editions: Editions, entropy: Entropy) -> None:
        self.folding = folding
        self.store = folding.store
        self.editions = editions
        self.entropy = entropy

    # -- creating ----------------------------------------------------------------------------
    def create(self, request: Mapping[str, Any], game_id: str | None = None) -> CreatedGame:
        """Event 0, the tokens, and in digital mode the secret and the first deal: one write."""
        schemas.check_json_text(request, "the new-game request")
        req = schemas.load(schemas.NewGameSchema(), request, "the new-game request")
        cls = game_class(req["game"])
        _check_new_game(cls, req)
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
        row = {"id": gid, "game": cls.slug, "rules_version": cls.rules_version,
               "players": req["players"], "mode": req["mode"], "edition_name": edition["name"],
               "edition_sha256": edition["sha256"], "created_at": env["recorded_at"],
               "title": req["title"], "status": "in_progress", "result": None, "audit": None}
        ctx = GameContext(row, rules, 0)
        plan = _Plan(ctx, env["hash"], [env], [self.folding.folder(ctx).feed(env)])
        self._server_turns(plan, secret)
        tokens = mint_tokens(len(req["players"]))
        self._store_new(plan, tokens, secret)
        log.info("created %s game %s (%s, %d players)", cls.slug, gid, req["mode"],
                 len(req["players"]))
        done = GameContext(row, rules, plan.cursors[-1].seq)
        reader = GameReader(self.folding, done, Access(RECORDER), latest=plan.cursors[-1])
        shown = [reader.shown(env, plan.cursors[i - 1] if i else None)[0]
                 for i, env in enumerate(plan.envelopes)]
        return CreatedGame(gid, tokens.recorder, tokens.seats, shown)

    def _store_new(self, plan: _Plan, tokens: Tokens, secret: Secret | None) -> None:
        summary = self._summary(plan)
        row = {**plan.ctx.row, "status": summary.status, "result": _json_or_none(summary.result)}
        self.store.import_game(row, plan.envelopes, tokens.hashes,
                               secret.seed if secret else None, secret.salt if secret else None)
        self.store.put_digests(plan.ctx.id, summary.digest_key, summary.digests)
        for env, cursor in zip(plan.envelopes, plan.cursors, strict=True):
            self.folding.remember(plan.ctx, cursor, env)

    # -- recording ---------------------------------------------------------------------------
    def record(self, game_id: str, raw: Any, *, expected_seq: int | None = None,
               idempotency_key: str | None = None, access: Access) -> Recorded:
        """Validate and append one action with the server events it makes due."""
        if access.role == "spectator":
            raise Unauthorized("token_required", "recording needs a recorder or seat token")
        for attempt in range(RETRIES):
            ctx = self.folding.context(game_id)
            if idempotency_key is not None:
                done = self.store.event_by_key(game_id, idempotency_key)
                if done is not None:
                    return self._replay(ctx, done, raw, access)
            try:
                return self._record_once(ctx, raw, expected_seq, idempotency_key, access)
            except Conflict as err:
                if err.code == "idempotency_key_taken" or (
                        expected_seq is None and attempt < RETRIES - 1):
                    continue  # the retry meets the stored key, or re-validates the action
                raise
        raise Conflict("stale_sequence", "other writers kept appending to this game; reload "
                       "and try again")

    def _record_once(self, ctx: GameContext, raw: Any, expected_seq: int | None,
                     key: str | None, access: Access) -> Recorded:
        schemas.check_json_text(raw, "the action")
        action = schemas.load(_schema(schemas.ActionSchema), raw, "the action")
        _check_actor(ctx, access, action)
        cursor = self.folding.cursor(ctx)
        if self.owed(ctx, cursor):  # a server killed mid-write by an older version
            ctx, cursor = self.catch_up(ctx, cursor)
        if expected_seq is not None and expected_seq != cursor.seq:
            raise Conflict("stale_sequence",
                           f"the game moved on: its last event is {cursor.seq}, you expected "
                           f"{expected_seq}; reload and try again", last_seq=cursor.seq)
        self._check_seat_meta(ctx, access, action["type"], cursor)
        _check_table_choice(ctx, cursor, action)
        secret = self._secret(ctx)
        data = self._prepare(ctx, cursor, action, secret)
        plan = self._plan(ctx, cursor)
        self._apply(plan, cursor, action["type"], action["actor"], data, key)
        self._server_turns(plan, secret)
        self.store.append_all(plan.envelopes, self._summary(plan))
        for env, after in zip(plan.envelopes, plan.cursors, strict=True):
            self.folding.remember(ctx, after, env)
        return self._answer(ctx, plan, access)

    def _answer(self, ctx: GameContext, plan: _Plan, access: Access) -> Recorded:
        env = plan.envelopes[0]
        report = None
        if env["type"] == "correction":
            report = correction_impact(ctx.rules, list(self.store.events(ctx.id,
                                                                          upto=env["seq"])))
        done = GameContext(ctx.row, ctx.rules, plan.cursors[-1].seq)
        reader = GameReader(self.folding, done, access, latest=plan.cursors[-1])
        before = self.folding.cursor(done, env["seq"] - 1)
        shown = reader.shown(env, before)[0]
        return Recorded(shown, reader.state_of(plan.cursors[0]), correction_report=report)

    def _replay(self, ctx: GameContext, done: Envelope, raw: Any, access: Access) -> Recorded:
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
        return Recorded(reader.event(done["seq"]), reader.state(done["seq"]), replayed=True)

    def meta_action(self, game_id: str, kind: str, actor: Any, access: Access) -> dict[str, Any]:
        """The undo or redo a caller asks for, aimed at the action it would retract."""
        if access.role == "seat":
            actor = access.seat
        ctx = self.folding.context(game_id)
        cursor = self.folding.cursor(ctx)
        target = cursor.top if kind == "undo" else (cursor.redo[-1] if cursor.redo else None)
        if ctx.mode == "digital" and actor == "table" and target is not None:
            # the recorder acts as the seat whose action it is, under that seat's policy
            env = self.store.event(game_id, target)
            actor = env["actor"] if env else actor
        return {"type": kind, "actor": actor,
                "data": {"target_seq": target} if target is not None else {}}

    # -- checks ------------------------------------------------------------------------------
    def _check_seat_meta(self, ctx: GameContext, access: Access, kind: str,
                         cursor: Cursor) -> None:
        """A seat token undoes or redoes only its own actions, in table mode too."""
        if access.role != "seat" or kind not in ("undo", "redo"):
            return
        target = cursor.top if kind == "undo" else (cursor.redo[-1] if cursor.redo else None)
        env = self.store.event(ctx.id, target) if target is not None else None
        if env is not None and env["actor"] != access.seat:
            names = ctx.players
            raise AccessDenied("not_your_seat", f"event {target} is "
                               f"{seat_name(names, env['actor'])}'s; "
                               f"{seat_name(names, access.seat)}'s token cannot {kind} it",
                               target_seq=target)

    def _prepare(self, ctx: GameContext, cursor: Cursor, action: Mapping[str, Any],
                 secret: Secret | None) -> dict[str, Any]:
        """Check what the log itself forbids and fill chance outcomes; returns the data."""
        rules, kind, data = ctx.rules, action["type"], dict(action["data"])
        if kind == "correction":
            return _check_correction(rules, action)
        if kind == "claim_result":
            if rules.result(cursor.state) is None:
                raise IllegalAction("game_not_over", "a claimed result is written down when "
                                    "the game is over; this one is still running")
            return schemas.load(schemas.ClaimSchema(), data, "the claimed result")
        if kind in META_TYPES:
            return data
        if rules.result(cursor.state) is not None:
            raise IllegalAction("game_over", "the game is over; only undo is possible now")
        if kind not in rules.action_schemas:
            raise IllegalAction("unknown_action", f"{rules.title} has no action "
                                f"“{kind.replace('_', ' ')}”; it knows "
                                f"{', '.join(sorted(rules.action_schemas))}")
        if ctx.mode == "digital" and rules.chance_fields.get(kind):
            data = self._dealt(ctx, cursor, kind, action["actor"], data, secret)
        return schemas.check_exact(_schema(rules.action_schemas[kind]), data, f"the {kind} data")

    def _dealt(self, ctx: GameContext, cursor: Cursor, kind: str, actor: Any,
               data: dict[str, Any], secret: Secret | None) -> dict[str, Any]:
        """Digital play: the client sends only its choice; the server deals the rest."""
        rules = ctx.rules
        probe = Action.of(kind, actor, data)
        try:
            choice = rules.strip_chance(probe)
        except Exception:  # data too malformed to even separate: the schema says why
            schemas.load(_schema(rules.action_schemas[kind]), data, f"the {kind} data")
            raise InvalidEvent("malformed", f"the {kind} data is malformed") from None
        if choice != thaw(probe.data):
            given = sorted(k for k in data if data.get(k) != choice.get(k))
            raise IllegalAction("server_deals", "in digital play the server deals: leave "
                                f"the chance outcome out of {', '.join(given)}")
        schemas.load(_schema(rules.action_schemas[kind]), data, f"the {kind} data",
                     partial=rules.chance_fields[kind])
        if secret is None:
            raise _no_seed(ctx.id)
        return _fill(ctx, cursor, Action.of(kind, actor, choice), secret)

    # -- the server's own turns -------------------------------------------------------------
    def owed(self, ctx: GameContext, cursor: Cursor) -> bool:
        """Does a digital game owe a server event that nobody wrote (an older version's
        crash between two writes; today's writes are one transaction)?"""
        if ctx.mode != "digital":
            return False
        if ctx.rules.result(cursor.state) is not None:
            last = self.store.event(ctx.id, cursor.seq)
            return last is not None and last["type"] != "seed_revealed" and \
                self.store.seed(ctx.id) is not None
        return server_move(ctx.rules, cursor.state) is not None and \
            self.store.seed(ctx.id) is not None

    def catch_up(self, ctx: GameContext, cursor: Cursor | None = None
                 ) -> tuple[GameContext, Cursor]:
        """Write the server events a digital game owes, in one transaction."""
        cursor = cursor or self.folding.cursor(ctx)
        plan = self._plan(ctx, cursor)
        self._server_turns(plan, self._secret(ctx), after=cursor)
        if plan.envelopes:
            try:
                self.store.append_all(plan.envelopes, self._summary(plan))
            except Conflict:  # another worker caught up first
                fresh = self.folding.context(ctx.id)
                return fresh, self.folding.cursor(fresh)
            for env, after in zip(plan.envelopes, plan.cursors, strict=True):
                self.folding.remember(ctx, after, env)
            log.info("game %s: caught up %d server event(s)", ctx.id, len(plan.envelopes))
            fresh = GameContext(ctx.row, ctx.rules, plan.cursors[-1].seq)
            return fresh, plan.cursors[-1]
        return ctx, cursor

    def _server_turns(self, plan: _Plan, secret: Secret | None,
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
                    self._apply(plan, cursor, "seed_revealed", "server", reveal(secret), None)
                return
            auto = server_move(rules, cursor.state)
            if auto is None:
                return
            if secret is None:
                raise _no_seed(ctx.id)
            probe = Action.of(auto["type"], auto["actor"], auto.get("data") or {})
            self._apply(plan, cursor, auto["type"], auto["actor"],
                        _fill(ctx, cursor, probe, secret), None)
        raise AssertionError("the server kept dealing: a rules bug")

    def _revealed(self, plan: _Plan, cursor: Cursor) -> bool:
        if plan.envelopes:
            return plan.envelopes[-1]["type"] == "seed_revealed"
        last = self.store.event(plan.ctx.id, cursor.seq)
        return last is not None and last["type"] == "seed_revealed"

    # -- the plan ----------------------------------------------------------------------------
    def _plan(self, ctx: GameContext, cursor: Cursor) -> _Plan:
        last = self.store.event(ctx.id, cursor.seq)
        assert last is not None
        return _Plan(ctx, last["hash"])

    def _apply(self, plan: _Plan, cursor: Cursor, kind: str, actor: Any,
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

    def _summary(self, plan: _Plan) -> Summary:
        rules = plan.ctx.rules
        result = rules.result(plan.cursors[-1].state)
        return Summary("finished" if result is not None else "in_progress", result,
                       digest_key(plan.ctx.row["game"], rules.rules_version),
                       {c.seq: state_digest(rules, c) for c in plan.cursors})

    def _secret(self, ctx: GameContext) -> Secret | None:
        if ctx.mode != "digital":
            return None
        seed = self.store.seed(ctx.id)
        return None if seed is None else Secret(seed, self.store.salt(ctx.id))


# -- checks that need no store ---------------------------------------------------------------
def _check_new_game(cls: type[GameRules], req: Mapping[str, Any]) -> None:
    players = req["players"]
    if len(players) not in cls.player_counts:
        raise IllegalAction("wrong_player_count",
                            f"{cls.title} is played by {_counts(cls.player_counts)} "
                            f"players, not {len(players)}", players=len(players))
    unknown = sorted(set(req["options"]) - set(cls.default_options))
    if unknown:
        raise IllegalAction("unknown_option", f"{cls.title} has no option "
                            f"{', '.join(unknown)}; it knows "
                            f"{', '.join(sorted(cls.default_options)) or 'none'}")


def _check_actor(ctx: GameContext, access: Access, action: Mapping[str, Any]) -> None:
    names = ctx.players
    if action["type"] in RESERVED_TYPES:
        raise IllegalAction("reserved_type",
                            f"{action['type'].replace('_', ' ')} is written by chronicle itself")
    actor = action["actor"]
    if isinstance(actor, int) and actor >= len(names):
        raise IllegalAction("no_such_seat", f"seat {actor} does not exist: this game has "
                            f"seats 0..{len(names) - 1} ({', '.join(names)})", actor=actor)
    if access.role == "seat" and actor != access.seat:
        raise AccessDenied("not_your_seat", f"this token is {seat_name(names, access.seat)}'s; "
                           f"it cannot act as {seat_name(names, actor)}")
    if actor == "server":
        raise IllegalAction("server_only", "only chronicle itself acts as the server")


def _check_table_choice(ctx: GameContext, cursor: Cursor, action: Mapping[str, Any]) -> None:
    """In digital play the table's only own moves are its choices (DESIGN.md, "Digital
    play": Thrones' start_game picks the houses); its deals and forced steps are the
    server's, which has already made any that is due."""
    if ctx.mode != "digital" or action["actor"] != "table" or action["type"] in META_TYPES:
        return
    if server_move(ctx.rules, cursor.state) is not None or \
            "table" not in ctx.rules.to_act(cursor.state):
        raise IllegalAction("server_deals", "in digital play the server makes the "
                            "table's moves (deals, layouts, forced steps) itself; the "
                            "recorder makes only the table's choices")


def _check_correction(rules: GameRules, action: Mapping[str, Any]) -> dict[str, Any]:
    """A correction's replacement action must be well-formed for this game."""
    if action["actor"] != "table":
        raise IllegalAction("corrections_by_recorder",
                            'a correction is the recorder\'s: its actor is "table"')
    data = dict(action["data"])
    inner = schemas.load(schemas.ActionSchema(), data.get("action"), "the corrected action")
    if inner["type"] not in rules.action_schemas:
        raise IllegalAction("unknown_action", f"{rules.title} has no action "
                            f"“{inner['type'].replace('_', ' ')}”")
    inner["data"] = schemas.check_exact(_schema(rules.action_schemas[inner["type"]]),
                                        inner["data"], f"the corrected {inner['type']} data")
    target = data.get("target_seq")
    if not isinstance(target, int) or isinstance(target, bool):
        raise InvalidEvent("malformed", "a correction needs an integer target_seq",
                           fields={"target_seq": ["an integer seq is required"]})
    return {"target_seq": target, "action": inner}


def _fill(ctx: GameContext, cursor: Cursor, action: Action, secret: Secret) -> dict[str, Any]:
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


def _no_seed(game_id: str) -> IllegalAction:
    return IllegalAction("no_seed", f"digital game {game_id} was imported without its secret "
                         "seed, so the server cannot deal for it; record the rest as a table "
                         "game instead")


def _counts(counts: tuple[int, ...]) -> str:
    if len(counts) == 1:
        return str(counts[0])
    if list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts))


def _json_or_none(value: Any) -> Any:
    return json.dumps(value) if value is not None else None


__all__ = ["CreatedGame", "Recorded", "Writer"]
