"""The recorder service: the one write path, used by both the CLI and the API.

Every action is validated against the folded state before anything is written; chance
outcomes are filled from the seeded dealer in digital mode; the envelope is chained and
appended with the expected seq. Reads (state at step n, history, export, verify) fold
the log, resuming from snapshots so "state at step n" costs O(K).
"""

from __future__ import annotations

import hashlib
import json
import logging
import pickle
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from marshmallow import Schema

from projections import (
    DEFAULT_EDITION_NAME,
    canonical_edition,
    default_edition,
    edition_problems,
    game_class,
    get_rules,
)
from projections.replay import META_TYPES, Cursor, Folder, effective_stack, to_action
from projections.rules import ALL, Action, Dealer, GameRules, IllegalAction, State, Viewer, thaw

from . import schemas
from .errors import (
    AccessDenied,
    ChronicleError,
    Conflict,
    InvalidEvent,
    NotFound,
    StorageError,
    Unauthorized,
)
from .model import GENESIS, Envelope, chain_problems, event_hash, now_iso, seal
from .store import GameFilter, Store

log = logging.getLogger("chronicle.recorder")

SNAPSHOT_EVERY = 64
#: types a client may never send: the log writes them itself
RESERVED_TYPES = frozenset({"game_created", "seed_revealed"})
#: meta types that stay legal after the game has ended
AFTER_END_TYPES = frozenset({"undo", "redo", "note", "claim_result"})
RECORDER = "recorder"
#: reducers bound to an edition, by (game slug, edition sha256): content-addressed, so safe
_BOUND_RULES: dict[tuple[str, str], GameRules] = {}


@dataclass(frozen=True, slots=True)
class Access:
    """Who is asking: the recorder, one seat, or a spectator (no token)."""

    role: str  # "recorder" | "seat" | "spectator" | "local"
    seat: int | None = None

    @classmethod
    def local(cls) -> Access:
        """The CLI on the machine that holds the database: full recorder rights."""
        return cls("local")

    @property
    def may_record(self) -> bool:
        return self.role in ("recorder", "local")


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


def token_hash(token: str) -> str:
    """The only form a token is stored or looked up in (RELIABILITY.md, "Secrets")."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_game_id() -> str:
    return secrets.token_urlsafe(8).replace("-", "x").replace("_", "y")


def seed_commitment(seed: str) -> str:
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class CursorCache:
    """Folded cursors of recently used games; shared by threads, so locked.

    Per game it keeps the latest cursor and a small window of recent ones by seq: a cursor
    at a seq never changes (the log is append-only), and an undo needs the cursor just
    before the action it retracts, which is almost always in that window.
    """

    def __init__(self, size: int = 256, window: int = 16) -> None:
        self._items: OrderedDict[str, Cursor] = OrderedDict()
        self._recent: dict[str, OrderedDict[int, Cursor]] = {}
        self._lock = threading.Lock()
        self._size = size
        self._window = window

    def get(self, game_id: str) -> Cursor | None:
        with self._lock:
            return self._items.get(game_id)

    def at(self, game_id: str, seq: int) -> Cursor | None:
        """The cursor at `seq` if it is in the game's recent window."""
        with self._lock:
            recent = self._recent.get(game_id)
            return None if recent is None else recent.get(seq)

    def put(self, game_id: str, cursor: Cursor) -> None:
        with self._lock:
            recent = self._recent.setdefault(game_id, OrderedDict())
            recent[cursor.seq] = cursor
            recent.move_to_end(cursor.seq)
            while len(recent) > self._window:
                recent.popitem(last=False)
            current = self._items.get(game_id)
            if current is None or current.seq <= cursor.seq:
                self._items[game_id] = cursor
            self._items.move_to_end(game_id)
            while len(self._items) > self._size:
                gone, _ = self._items.popitem(last=False)
                self._recent.pop(gone, None)


class Recorder:
    """The service over one store."""

    def __init__(self, store: Store, cache: CursorCache | None = None) -> None:
        self.store = store
        self._latest = cache if cache is not None else CursorCache()

    # -- editions ---------------------------------------------------------------
    def add_edition(self, slug: str, content: Any, name: str | None = None) -> dict[str, Any]:
        """Register an edition after checking it against the game's schema."""
        game_class(slug)
        problems = edition_problems(slug, content)
        if problems:
            raise InvalidEvent("invalid_edition",
                               f"this is not a usable {slug} edition: {'; '.join(problems)}",
                               problems=problems)
        text, sha = canonical_edition(content)
        label = name or str(content.get("edition_name") or content.get("edition") or sha[:12])
        self.store.put_edition(slug, label, sha, text)
        return {"slug": slug, "name": label, "sha256": sha}

    def editions(self, slug: str | None = None) -> list[dict[str, Any]]:
        """Every edition known: the shipped defaults and those registered."""
        for known in sorted(_all_slugs()) if slug is None else [slug]:
            self._ensure_default_edition(known)
        return self.store.editions(slug)

    def _ensure_default_edition(self, slug: str) -> dict[str, Any]:
        text, sha = _default_identity(slug)
        if self.store.edition(sha) is None:
            self.store.put_edition(slug, DEFAULT_EDITION_NAME, sha, text)
        return {"name": DEFAULT_EDITION_NAME, "sha256": sha}

    def _pick_edition(self, slug: str, wanted: str | None) -> dict[str, Any]:
        default = self._ensure_default_edition(slug)
        if wanted in (None, DEFAULT_EDITION_NAME, default["sha256"]):
            return default
        for row in self.store.editions(slug):
            if wanted in (row["name"], row["sha256"]):
                return {"name": row["name"], "sha256": row["sha256"]}
        raise NotFound("unknown_edition", f"no {slug} edition named {wanted!r}; "
                       "see `chronicle editions` or add one with `chronicle editions add`")

    def rules_for(self, game: Mapping[str, Any]) -> GameRules:
        """The reducer bound to the exact edition the game was recorded with.

        Editions are stored by the sha256 of their content, so the bound reducer is cached
        by (game, sha256): parsing and re-hashing the edition on every call cost more than
        the rest of a state request.
        """
        key = (game["game"], game["edition_sha256"])
        rules = _BOUND_RULES.get(key)
        if rules is not None:
            return rules
        row = self.store.edition(game["edition_sha256"])
        if row is None:
            raise NotFound("unknown_edition",
                           f"edition {game['edition_sha256'][:12]} of game {game['id']} is not "
                           "stored; add it with `chronicle editions add`")
        rules = get_rules(game["game"], json.loads(row["content"]))
        if len(_BOUND_RULES) >= 256:
            _BOUND_RULES.clear()
        _BOUND_RULES[key] = rules
        return rules

    # -- creating -----------------------------------------------------------------
    def create_game(self, request: Mapping[str, Any], game_id: str | None = None) -> CreatedGame:
        """Create a game: event 0, tokens, and in digital mode the seed and the first deal."""
        schemas.check_json_text(request, "the new-game request")
        req = schemas.load(schemas.NewGameSchema(), request, "the new-game request")
        cls = game_class(req["game"])
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
        edition = self._pick_edition(cls.slug, req["edition"])
        seed = None
        if req["mode"] == "digital":
            seed = req["seed"] if req["seed"] is not None else secrets.token_hex(16)
        created = {
            "game": cls.slug, "players": players, "mode": req["mode"],
            "options": {**cls.default_options, **req["options"]}, "edition": edition,
            "seed_commitment": seed_commitment(seed) if seed is not None else None,
            "rules_version": cls.rules_version,
        }
        gid = game_id or new_game_id()
        env = seal(gid, 0, "game_created", "table", created, GENESIS)
        rules = self.rules_for({"id": gid, "game": cls.slug, "edition_sha256": edition["sha256"]})
        try:
            rules.initial_state(created)
        except (KeyError, TypeError, ValueError) as err:
            raise IllegalAction("bad_options", f"the options do not fit {cls.title}: {err}"
                                ) from None
        recorder_token = secrets.token_urlsafe(24)
        seat_tokens = [secrets.token_urlsafe(24) for _ in players]
        tokens = {token_hash(recorder_token): RECORDER}
        tokens |= {token_hash(t): f"seat:{i}" for i, t in enumerate(seat_tokens)}
        row = {"id": gid, "game": cls.slug, "rules_version": cls.rules_version,
               "players": players, "mode": req["mode"], "edition_name": edition["name"],
               "edition_sha256": edition["sha256"], "created_at": env["recorded_at"],
               "title": req["title"], "status": "in_progress"}
        self.store.create_game(row, env, tokens, seed)
        log.info("created %s game %s (%s, %d players)", cls.slug, gid, req["mode"], len(players))
        events = [env, *self._server_turns(self.store.game(gid) or row)]
        return CreatedGame(gid, recorder_token, seat_tokens, events)

    # -- access -------------------------------------------------------------------
    def access(self, game_id: str, token: str | None) -> Access:
        """Resolve a bearer token (None: spectator); an unknown token is refused."""
        self.game(game_id)
        if token is None:
            return Access("spectator")
        role = self.store.token_role(game_id, token_hash(token))
        if role is None:
            raise Unauthorized("bad_token", "this token is not valid for this game")
        if role == RECORDER:
            return Access(RECORDER)
        return Access("seat", int(role.split(":", 1)[1]))

    def viewer(self, game: Mapping[str, Any], access: Access, finished: bool) -> Viewer:
        """Whose eyes a request sees through: finished games are public to all."""
        if finished or access.role == "local":
            return ALL
        if access.role == RECORDER:
            # designed: at a physical table the recorder enters every card, so sees all;
            # in digital play the recorder is a spectator until the end.
            return ALL if game["mode"] == "table" else None
        return access.seat

    # -- reading --------------------------------------------------------------------
    def game(self, game_id: str) -> dict[str, Any]:
        row = self.store.game(game_id)
        if row is None:
            raise NotFound("unknown_game", f"there is no game {game_id!r}")
        return row

    def list_games(self, flt: GameFilter) -> tuple[list[dict[str, Any]], int]:
        return self.store.list_games(flt)

    def last_seq(self, game_id: str) -> int:
        last = self.store.last_seq(game_id)
        if last is None:
            raise NotFound("unknown_game", f"there is no game {game_id!r}")
        return last

    def cursor(self, game_id: str, at: int | None = None) -> tuple[GameRules, Cursor]:
        """The fold of events 0..at (default: all), resumed from the nearest snapshot."""
        game = self.game(game_id)
        rules = self.rules_for(game)
        return rules, self._cursor(game, rules, self.last_seq(game_id), at)

    def _cursor(self, game: Mapping[str, Any], rules: GameRules, last: int,
                at: int | None) -> Cursor:
        target = last if at is None else at
        if not 0 <= target <= last:
            raise NotFound("no_such_step", f"game {game['id']} has steps 0..{last}, not {at}")
        cached = self._latest.at(game["id"], target)
        if cached is not None:
            return cached
        cursor = self._fold_to(game, rules, target)
        self._remember(game["id"], cursor)
        return cursor

    def _remember(self, game_id: str, cursor: Cursor) -> None:
        self._latest.put(game_id, cursor)

    def _events_upto(self, game_id: str) -> Any:
        return lambda upto: list(self.store.events(game_id, upto=upto))

    def _snapshot_key(self, game: Mapping[str, Any], rules: GameRules) -> str:
        return f"{game['game']}:{rules.rules_version}:{game['edition_sha256']}"

    def _fold_to(self, game: Mapping[str, Any], rules: GameRules, target: int,
                 memo: dict[int, Cursor] | None = None) -> Cursor:
        # memo: every cursor any nested fold computed, so an undo reaching back before the
        # snapshot folds that step once, not once per undo (a cold fold of an undo-heavy
        # log was exponential: minutes for 1400 events)
        memo = {} if memo is None else memo
        if target in memo:
            return memo[target]
        key = self._snapshot_key(game, rules)
        folder = Folder(rules, game["mode"],
                        fallback=lambda seq: (self._latest.at(game["id"], seq)
                                              or self._fold_to(game, rules, seq, memo)),
                        event_at=lambda seq: self.store.event(game["id"], seq),
                        events_upto=self._events_upto(game["id"]),
                        keep=SNAPSHOT_EVERY)
        after = -1
        snap = self.store.snapshot(game["id"], target, key)
        if snap is not None:
            try:
                folder.resume(pickle.loads(snap[1]))
                after = snap[0]
            except Exception:  # a stale or foreign snapshot is only a cache miss
                after = -1
        prev_hash: str | None = None
        for env in self.store.events(game["id"], after=after, upto=target):
            if event_hash(env) != env["hash"] or prev_hash not in (None, env["prev_hash"]):
                self._mark_failed(game, env["seq"], "its hash does not match its content")
            prev_hash = env["hash"]
            try:
                cursor = folder.feed(env)
            except Exception as err:  # a stored event that no longer folds: the log was altered
                self._mark_failed(game, env["seq"], "it no longer folds")
                raise StorageError("log_corrupt", f"game {game['id']}'s stored event "
                                   f"{env['seq']} cannot be replayed, so the log fails its "
                                   "audit (run verify for the report)",
                                   first_bad_seq=env["seq"]) from err
            memo[cursor.seq] = cursor
            if cursor.seq % SNAPSHOT_EVERY == 0 and cursor.seq > after:
                self.store.put_snapshot(game["id"], cursor.seq, key, pickle.dumps(cursor))
        assert folder.last is not None
        memo[folder.last.seq] = folder.last
        return folder.last

    def _mark_failed(self, game: Mapping[str, Any], seq: int, why: str) -> None:
        log.warning("game %s fails its audit at seq %s: %s", game["id"], seq, why)
        self._set_summary(game["id"], game["status"], game["result"], audit="failed")

    def state(self, game_id: str, at: int | None = None,
              access: Access | None = None) -> dict[str, Any]:
        """The state document of DESIGN.md: what `access` may see at step `at`."""
        access = access or Access.local()
        game = self.game(game_id)
        rules = self.rules_for(game)
        last = self.last_seq(game_id)
        cursor = self._cursor(game, rules, last, at)
        latest = cursor if cursor.seq == last else self._cursor(game, rules, last, None)
        return self._state_doc(game, rules, cursor, access, latest)

    def _state_doc(self, game: Mapping[str, Any], rules: GameRules, cursor: Cursor,
                   access: Access, latest: Cursor) -> dict[str, Any]:
        result = rules.result(cursor.state)
        over_now = rules.result(latest.state) is not None
        viewer = self.viewer(game, access, over_now)
        return {
            "game_id": game["id"], "game": game["game"], "seq": cursor.seq,
            "status": "finished" if result is not None else "in_progress",
            "view": rules.view(cursor.state, viewer), "result": result,
            "to_act": list(rules.to_act(cursor.state)), "mode": game["mode"],
            "players": game["players"], "can_undo": cursor.can_undo,
            "can_redo": cursor.can_redo, "last_seq": latest.seq,
            "audit": self.game(game["id"]).get("audit"),
        }

    def legal(self, game_id: str, access: Access | None = None,
              seat: Any = None) -> list[dict[str, Any]]:
        """Legal actions now, ready to record; a seat token sees only its own."""
        access = access or Access.local()
        rules, cursor = self.cursor(game_id)
        return self._listed(rules, cursor, access, seat)

    def legal_with_slots(self, game_id: str, access: Access | None = None
                         ) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
        """The legal actions, and for a table-mode recorder the chance outcomes each still
        needs (`GameRules.chance_slots`, by the action's index), to be picked at the table."""
        access = access or Access.local()
        rules, cursor = self.cursor(game_id)
        actions = self._listed(rules, cursor, access, None)
        if self.game(game_id)["mode"] != "table" or not access.may_record:
            return actions, {}
        slots = {}
        for i, action in enumerate(actions):
            if rules.chance_fields.get(action["type"]):
                found = rules.chance_slots(cursor.state, Action.of(
                    action["type"], action["actor"], action["data"]))
                if found is not None:  # [] too: nothing to enter, nothing to type
                    slots[str(i)] = [thaw(slot) for slot in found]
        return actions, slots

    @staticmethod
    def _listed(rules: GameRules, cursor: Cursor, access: Access,
                seat: Any) -> list[dict[str, Any]]:
        if access.role == "seat":
            if seat is not None and seat != access.seat:
                raise AccessDenied("not_your_seat", f"this token is seat {access.seat}'s")
            seat = access.seat
        elif access.role == "spectator":
            return []
        return [{"type": a["type"], "actor": a["actor"], "data": thaw(a["data"])}
                for a in rules.legal_actions(cursor.state, seat)]

    # -- recording -----------------------------------------------------------------
    def record(self, game_id: str, raw: Any, *, expected_seq: int | None = None,
               idempotency_key: str | None = None, access: Access | None = None) -> Recorded:
        """Validate and append one action; in digital mode, fill its chance and deal on."""
        access = access or Access.local()
        game = self.game(game_id)
        if idempotency_key is not None:
            done = self.store.event_by_key(game_id, idempotency_key)
            if done is not None:
                return Recorded(done, self.state(game_id, done["seq"], access), replayed=True)
        schemas.check_json_text(raw, "the action")
        action = schemas.load(_schema(schemas.ActionSchema), raw, "the action")
        self._check_actor(game, access, action)
        # a server that died between two of its own appends catches up before anyone acts
        self._server_turns(game)
        rules = self.rules_for(game)
        cursor = self._cursor(game, rules, self.last_seq(game_id), None)
        if expected_seq is not None and expected_seq != cursor.seq:
            raise Conflict("stale_sequence",
                           f"the game moved on: its last seq is {cursor.seq}, you expected "
                           f"{expected_seq}; reload and try again", last_seq=cursor.seq)
        self._check_seat_meta(game_id, access, action["type"], cursor)
        self._check_table_choice(game, rules, cursor, action)
        data = self._prepare(game, rules, cursor, action)
        env = self._append(game, rules, cursor, action["type"], action["actor"], data,
                           idempotency_key)
        served = self._server_turns(game)
        report = None
        if env["type"] == "correction":
            from .audit import correction_impact

            report = correction_impact(rules, list(self.store.events(game_id, upto=env["seq"])))
        elif not served:
            after = self._latest.at(game_id, env["seq"])
            if after is not None and self.last_seq(game_id) == env["seq"]:
                # nothing appended since: the folded cursor is the answer, no re-read
                return Recorded(env, self._state_doc(game, rules, after, access, after))
        return Recorded(env, self.state(game_id, env["seq"], access), correction_report=report)

    def _check_actor(self, game: Mapping[str, Any], access: Access,
                     action: Mapping[str, Any]) -> None:
        if access.role == "spectator":
            raise Unauthorized("token_required", "recording needs a recorder or seat token")
        if action["type"] in RESERVED_TYPES:
            raise IllegalAction("reserved_type",
                                f"{action['type']!r} is written by chronicle itself")
        actor = action["actor"]
        if isinstance(actor, int) and actor >= len(game["players"]):
            raise IllegalAction("no_such_seat", f"seat {actor} does not exist: this game has "
                                f"seats 0..{len(game['players']) - 1}", actor=actor)
        if access.role == "seat" and actor != access.seat:
            raise AccessDenied("not_your_seat",
                               f"this token is seat {access.seat}'s; it cannot act as {actor!r}")
        if actor == "server":
            raise IllegalAction("server_only", "only chronicle itself acts as the server")

    @staticmethod
    def _check_table_choice(game: Mapping[str, Any], rules: GameRules, cursor: Cursor,
                            action: Mapping[str, Any]) -> None:
        """In digital play the table's only own moves are its choices (DESIGN.md, "Digital
        play": Thrones' start_game picks the houses); its deals and forced steps are the
        server's, which has already made any that is due."""
        if game["mode"] != "digital" or action["actor"] != "table" or \
                action["type"] in META_TYPES:
            return
        if server_move(rules, cursor.state) is not None or \
                "table" not in rules.to_act(cursor.state):
            raise IllegalAction("server_deals", "in digital play the server makes the "
                                "table's moves (deals, layouts, forced steps) itself; the "
                                "recorder makes only the table's choices")

    def _check_seat_meta(self, game_id: str, access: Access, kind: str, cursor: Cursor) -> None:
        """A seat token undoes or redoes only its own actions, in table mode too."""
        if access.role != "seat" or kind not in ("undo", "redo"):
            return
        target = cursor.top if kind == "undo" else (cursor.redo[-1] if cursor.redo else None)
        env = self.store.event(game_id, target) if target is not None else None
        if env is not None and env["actor"] != access.seat:
            raise AccessDenied("not_your_seat", f"seq {target} is {env['actor']!r}'s action; "
                               f"seat {access.seat}'s token cannot {kind} it",
                               target_seq=target)

    def _prepare(self, game: Mapping[str, Any], rules: GameRules, cursor: Cursor,
                 action: Mapping[str, Any]) -> dict[str, Any]:
        """Check what the log itself forbids and fill chance outcomes; returns the data."""
        kind, data = action["type"], dict(action["data"])
        if kind == "correction":
            return self._check_correction(game, rules, action)
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
            raise IllegalAction("unknown_action", f"{rules.title} has no action {kind!r}; "
                                f"it knows {', '.join(sorted(rules.action_schemas))}")
        chance = rules.chance_fields.get(kind, ())
        if game["mode"] == "digital" and chance:
            probe = Action.of(kind, action["actor"], data)
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
                         partial=chance)
            seed = self.store.seed(game["id"])
            if seed is None:
                raise _no_seed(game["id"])
            data = self._fill(rules, cursor, Action.of(kind, action["actor"], choice), seed)
        return schemas.check_exact(_schema(rules.action_schemas[kind]), data, f"the {kind} data")

    @staticmethod
    def _check_correction(game: Mapping[str, Any], rules: GameRules,
                          action: Mapping[str, Any]) -> dict[str, Any]:
        """A correction's replacement action must be well-formed for this game."""
        if action["actor"] != "table":
            raise IllegalAction("corrections_by_recorder",
                                'a correction is the recorder\'s: its actor is "table"')
        data = dict(action["data"])
        inner = schemas.load(schemas.ActionSchema(), data.get("action"), "the corrected action")
        if inner["type"] not in rules.action_schemas:
            raise IllegalAction("unknown_action", f"{rules.title} has no action "
                                f"{inner['type']!r}")
        inner["data"] = schemas.check_exact(_schema(rules.action_schemas[inner["type"]]),
                                            inner["data"], f"the corrected {inner['type']} data")
        target = data.get("target_seq")
        if not isinstance(target, int) or isinstance(target, bool):
            raise InvalidEvent("malformed", "a correction needs an integer target_seq",
                               fields={"target_seq": ["an integer seq is required"]})
        return {"target_seq": target, "action": inner}

    @staticmethod
    def _fill(rules: GameRules, cursor: Cursor, action: Action, seed: str) -> dict[str, Any]:
        """fill_chance, with any failure on a bad action reported as the rules see it."""
        try:
            return rules.fill_chance(cursor.state, action, Dealer(seed, cursor.seq + 1))
        except IllegalAction:
            raise
        except Exception:  # the action is bad in a way fill_chance did not check
            try:
                rules.apply(cursor.state, action)
            except IllegalAction:
                raise
            except Exception:
                log.exception("reducer failed on %s", action.type)
            raise IllegalAction("rejected", f"the rules cannot apply this {action.type}: "
                                "check its data against `legal`") from None

    def _append(self, game: Mapping[str, Any], rules: GameRules, cursor: Cursor, kind: str,
                actor: Any, data: Mapping[str, Any], idempotency_key: str | None) -> Envelope:
        """Apply through the fold (refusing illegal actions) and append atomically."""
        seq = cursor.seq + 1
        env_probe = {"seq": seq, "type": kind, "actor": actor, "data": data}
        folder = Folder(rules, game["mode"],
                        fallback=lambda s: self._cursor(game, rules, cursor.seq, s),
                        event_at=lambda s: self.store.event(game["id"], s),
                        events_upto=self._events_upto(game["id"]))
        folder.resume(cursor)
        try:
            after = folder.feed(env_probe)
        except (IllegalAction, ChronicleError):
            raise
        except Exception:  # a reducer bug must never become a half-written event or a 500
            log.exception("reducer crashed on %s at seq %s", kind, seq)
            raise IllegalAction("rejected", f"the rules could not apply this {kind}; nothing "
                                "was recorded (this is a bug in chronicle: please report it)",
                                seq=seq) from None
        last = self.store.last_event(game["id"])
        assert last is not None
        if last["seq"] != cursor.seq:
            raise Conflict("stale_sequence", f"another writer appended seq {last['seq']}; "
                           "reload and try again", last_seq=last["seq"])
        env = seal(game["id"], seq, kind, actor, data, last["hash"], idempotency_key)
        self.store.append(env)
        self._remember(game["id"], after)
        if after.seq % SNAPSHOT_EVERY == 0:
            self.store.put_snapshot(game["id"], after.seq, self._snapshot_key(game, rules),
                                    pickle.dumps(after))
        result = rules.result(after.state)
        try:
            self.store.note_appended(game["id"], seq, "finished" if result else "in_progress",
                                     result, digest_key(game["game"], rules),
                                     state_digest(rules, after),
                                     result_changed=result != rules.result(cursor.state))
        except ChronicleError as err:  # read models: the event itself is stored
            log.warning("game %s: summary not updated (%s)", game["id"], err.code)
        return env

    def _set_summary(self, game_id: str, status: str, result: Mapping[str, Any] | None,
                     audit: str | None = None) -> None:
        """Cache derived facts on the game row; a failure here loses nothing of the log."""
        try:
            self.store.set_summary(game_id, status, result, audit=audit)
        except ChronicleError as err:  # the event is stored; the next write refreshes this
            log.warning("game %s: summary not updated (%s)", game_id, err.code)

    def _server_turns(self, game: Mapping[str, Any]) -> list[Envelope]:
        """Digital mode: the table's chance events as soon as due; the seed at the end."""
        if game["mode"] != "digital":
            return []
        written: list[Envelope] = []
        rules = self.rules_for(game)
        seed = self.store.seed(game["id"])
        for _ in range(1000):
            _, cursor = self.cursor(game["id"])
            if rules.result(cursor.state) is not None:
                # a digital game imported unfinished arrives without its secret seed: there
                # is nothing true to reveal (verify then says the seed was never revealed)
                if seed is not None and not self._seed_revealed(game["id"]):
                    written.append(self._append(game, rules, cursor, "seed_revealed", "server",
                                                {"seed": seed}, None))
                break
            auto = server_move(rules, cursor.state)
            if auto is None:
                break
            if seed is None:
                raise _no_seed(game["id"])
            probe = Action.of(auto["type"], auto["actor"], auto.get("data") or {})
            data = self._fill(rules, cursor, probe, seed)
            written.append(self._append(game, rules, cursor, auto["type"], auto["actor"], data,
                                        None))
        return written

    def _seed_revealed(self, game_id: str) -> bool:
        last = self.store.last_event(game_id)
        return last is not None and last["type"] == "seed_revealed"

    def undo(self, game_id: str, actor: Any = "table", access: Access | None = None,
             expected_seq: int | None = None) -> Recorded:
        """Retract the most recent effective action (policy: DESIGN.md, "Undo and redo")."""
        return self._meta(game_id, "undo", actor, access, expected_seq)

    def redo(self, game_id: str, actor: Any = "table", access: Access | None = None,
             expected_seq: int | None = None) -> Recorded:
        """Re-apply the most recently undone action."""
        return self._meta(game_id, "redo", actor, access, expected_seq)

    def _meta(self, game_id: str, kind: str, actor: Any, access: Access | None,
              expected_seq: int | None) -> Recorded:
        access = access or Access.local()
        if access.role == "seat":
            actor = access.seat
        _rules, cursor = self.cursor(game_id)
        target = cursor.top if kind == "undo" else (cursor.redo[-1] if cursor.redo else None)
        data = {"target_seq": target} if target is not None else {}
        game = self.game(game_id)
        if game["mode"] == "digital" and actor == "table" and target is not None:
            # the recorder acts as the seat whose action it is, under that seat's policy
            env = self.store.event(game_id, target)
            actor = env["actor"] if env else actor
        return self.record(game_id, {"type": kind, "actor": actor, "data": data},
                           expected_seq=expected_seq, access=access)

    # -- history, export, import ------------------------------------------------------
    def history(self, game_id: str, after: int = -1, limit: int | None = None,
                access: Access | None = None) -> tuple[list[Envelope], dict[int, dict[str, Any]]]:
        """Envelopes after `after` as `access` may see them, and annotations by seq."""
        access = access or Access.local()
        game = self.game(game_id)
        rules, last = self.cursor(game_id)
        viewer = self.viewer(game, access, rules.result(last.state) is not None)
        all_events = list(self.store.events(game_id))
        effective = set(effective_stack(all_events))
        corrected = {e["data"].get("target_seq"): e["seq"] for e in all_events
                     if e["type"] == "correction" and e["seq"] in effective}
        invalid = {seq: message for seq, _, message in last.invalid}
        envs = list(self.store.events(game_id, after=after, limit=limit))
        folder: Folder | None = None
        if viewer != ALL and envs and envs[0]["seq"] > 0:
            folder = Folder(rules, game["mode"],
                            fallback=lambda s: self.cursor(game_id, s)[1],
                            event_at=lambda s: self.store.event(game_id, s),
                            events_upto=self._events_upto(game_id))
            folder.resume(self.cursor(game_id, envs[0]["seq"] - 1)[1])
        notes: dict[int, dict[str, Any]] = {}
        out: list[Envelope] = []
        for env in envs:
            note: dict[str, Any] = {}
            shown = env
            if env["type"] not in META_TYPES:
                action = to_action(env)
                note["description"] = rules.describe(action, game["players"])
                note["undone"] = env["seq"] not in effective
                if env["seq"] in corrected:
                    note["corrected_by"] = corrected[env["seq"]]
                if env["seq"] in invalid:
                    note["invalid"] = invalid[env["seq"]]
                hidden = None if folder is None or folder.last is None else rules.redact(
                    action, viewer, folder.last.state)
                if hidden is not None:
                    shown = {k: v for k, v in env.items() if k != "salt"}
                    shown["data"] = hidden
                    note["redacted"] = True
            elif env["type"] == "correction":
                fix = env["data"].get("action") or {}
                note["undone"] = env["seq"] not in effective
                note["description"] = f"corrected seq {env['data'].get('target_seq')}: " + \
                    rules.describe(Action.of(fix.get("type", "?"), fix.get("actor"),
                                             fix.get("data") or {}), game["players"])
            elif env["type"] == "seed_revealed" and viewer != ALL:
                shown = {k: v for k, v in env.items() if k != "salt"}
                shown["data"] = {}
                note["redacted"] = True
            notes[env["seq"]] = note
            out.append(shown)
            if folder is not None:
                folder.feed(env)
        return out, notes

    def export(self, game_id: str, access: Access | None = None) -> Iterator[str]:
        """The log as JSON Lines (streamed for the full view; redacted for a seat)."""
        access = access or Access.local()
        game = self.game(game_id)
        # everything that can refuse runs now, before a caller starts streaming the lines
        rules, last = self.cursor(game_id)
        if self.viewer(game, access, rules.result(last.state) is not None) == ALL:
            return _lines(self.store.events(game_id))
        return _lines(self.history(game_id, access=access)[0])

    def import_lines(self, lines: Iterable[str]) -> CreatedGame:
        """Store an exported game after verifying it; refuses anything that does not verify."""
        envelopes = parse_jsonl(lines)
        report = self.verify_envelopes(envelopes)
        if not report["ok"]:
            first = report["problems"][0]
            raise IllegalAction("import_refused",
                                f"the file does not verify (seq {report['first_bad_seq']}: "
                                f"{first['message']})", report=report)
        created = envelopes[0]["data"]
        game_id = envelopes[0]["game_id"]
        rules = self._rules_of(created)
        final = rules.result(_fold_all(rules, envelopes).state)
        recorder_token = secrets.token_urlsafe(24)
        seat_tokens = [secrets.token_urlsafe(24) for _ in created["players"]]
        tokens = {token_hash(recorder_token): RECORDER}
        tokens |= {token_hash(t): f"seat:{i}" for i, t in enumerate(seat_tokens)}
        row = {"id": game_id, "game": created["game"],
               "rules_version": str(created.get("rules_version", rules.rules_version)),
               "players": created["players"], "mode": created.get("mode", "table"),
               "edition_name": created["edition"]["name"],
               "edition_sha256": created["edition"]["sha256"],
               "created_at": envelopes[0]["recorded_at"],
               "status": "finished" if final is not None else "in_progress",
               "result": json.dumps(final) if final is not None else None}
        self.store.import_game(row, envelopes, tokens)
        self.cursor(game_id)  # one fold now leaves snapshots every K events behind
        return CreatedGame(game_id, recorder_token, seat_tokens, [])

    def _rules_of(self, created: Mapping[str, Any]) -> GameRules:
        """The reducer a game_created names (its game and edition), cached by edition hash."""
        key = (str(created["game"]), str(created["edition"]["sha256"]))
        if key not in _BOUND_RULES:
            _BOUND_RULES[key] = get_rules(created["game"], self._edition_content(created))
        else:
            self._edition_content(created)  # still refuse an edition this store lacks
        return _BOUND_RULES[key]

    def _edition_content(self, created: Mapping[str, Any]) -> dict[str, Any]:
        slug = created["game"]
        self._ensure_default_edition(slug)
        row = self.store.edition(created["edition"]["sha256"])
        if row is None:
            raise NotFound("unknown_edition",
                           f"edition {created['edition'].get('name')!r} "
                           f"({created['edition']['sha256'][:12]}) is not known here; add it "
                           "with `chronicle editions add` first")
        content: dict[str, Any] = json.loads(row["content"])
        return content

    # -- verifying ---------------------------------------------------------------------
    def verify(self, game_id: str) -> dict[str, Any]:
        """Verify a stored game: chain, every event through the reducer, deals, result."""
        game = self.game(game_id)
        report = self.verify_envelopes(list(self.store.events(game_id)))
        self._set_summary(game_id, game["status"], game["result"],
                          audit="ok" if report["ok"] else "failed")
        return report

    def verify_envelopes(self, envelopes: list[Envelope]) -> dict[str, Any]:
        """The audit of a log: {"ok", "first_bad_seq", "problems", "result", ...}."""
        problems = chain_problems(envelopes)
        result = None
        checked = 0
        if envelopes and envelopes[0].get("type") == "game_created":
            try:
                result, checked, more = self._audit_fold(envelopes)
                problems += more
            except (ChronicleError, IllegalAction) as err:
                problems.append({"seq": 0, "code": err.code, "message": err.message})
            except (KeyError, TypeError, ValueError, AttributeError, IndexError):
                problems.append({"seq": 0, "code": "malformed_log",
                                 "message": "the log's events are not the documented shape"})
        elif envelopes:
            problems.append({"seq": envelopes[0].get("seq"), "code": "no_game_created",
                             "message": "a log must start with game_created"})
        else:
            problems.append({"seq": None, "code": "empty_log", "message": "the log is empty"})
        seqs = [p["seq"] for p in problems if isinstance(p.get("seq"), int)]
        return {"ok": not problems, "first_bad_seq": min(seqs) if seqs else None,
                "problems": sorted(problems, key=lambda p: (p.get("seq") is None,
                                                            p.get("seq") or 0)),
                "events": len(envelopes), "checked": checked, "result": result}

    def _audit_fold(self, envelopes: list[Envelope]
                    ) -> tuple[dict[str, Any] | None, int, list[dict[str, Any]]]:
        created = envelopes[0]["data"]
        game_class(created.get("game", ""))
        rules = self._rules_of(created)
        problems: list[dict[str, Any]] = []
        seed = next((e["data"].get("seed") for e in envelopes if e["type"] == "seed_revealed"),
                    None)
        digital = created.get("mode") == "digital"
        if digital and seed is not None and seed_commitment(str(seed)) != created.get(
                "seed_commitment"):
            problems.append({"seq": next(e["seq"] for e in envelopes
                                         if e["type"] == "seed_revealed"),
                             "code": "seed_mismatch",
                             "message": "the revealed seed does not match its commitment"})
            seed = None
        folder = Folder(rules, created.get("mode", "table"))
        checked = 0
        for env in envelopes:
            before = folder.last
            try:
                folder.feed(env)
            except IllegalAction as err:
                problems.append({"seq": env["seq"], "code": err.code,
                                 "message": f"illegal at seq {env['seq']}: {err.message}"})
                return None, checked, problems
            except Exception:  # altered data the reducer cannot even read
                problems.append({"seq": env["seq"], "code": "unreadable_event",
                                 "message": f"event {env['seq']}'s data is not the shape "
                                 f"of a {env.get('type')!r} action"})
                return None, checked, problems
            checked += 1
            if digital and seed is not None and before is not None:
                problem = _deal_problem(rules, before, env, str(seed))
                if problem:
                    problems.append(problem)
        final_cursor = folder.last
        if final_cursor is not None:
            from .audit import claim_problems

            problems += [{"seq": seq, "code": "invalidated_by_correction",
                          "message": f"seq {seq} is illegal after the corrections ({code}): "
                          f"{message}"} for seq, code, message in final_cursor.invalid]
            problems += claim_problems(envelopes, rules.result(final_cursor.state))
        if digital and seed is None and folder.last is not None and \
                rules.result(folder.last.state) is not None:
            problems.append({"seq": None, "code": "seed_not_revealed",
                             "message": "a finished digital game must reveal its seed"})
        final = folder.last
        return (rules.result(final.state) if final else None), checked, problems


def _no_seed(game_id: str) -> IllegalAction:
    return IllegalAction("no_seed", f"digital game {game_id} was imported without its secret "
                         "seed, so the server cannot deal for it; record the rest as a table "
                         "game instead")


def digest_key(slug: str, rules: GameRules) -> str:
    """Digests are comparable only under one reducer version."""
    return f"{slug}:{rules.rules_version}"


def server_move(rules: GameRules, state: State) -> dict[str, Any] | None:
    """The table move the server makes itself in digital play, or None.

    A chance event the rules call for (`auto_action`), or the table's only legal move when
    the table alone is to act: a step nobody chooses (Thrones' `resolve_dominance` and
    `end_round`) must not wait for a recorder while the seats play on their phones. A table
    move with more than one option (Thrones' `start_game`: the houses) is the recorder's
    choice; the server still fills its chance fields.
    """
    auto = rules.auto_action(state)
    if auto is not None:
        return auto
    if tuple(rules.to_act(state)) != ("table",):
        return None
    options = rules.legal_actions(state, "table")
    return dict(options[0]) if len(options) == 1 else None


def state_digest(rules: GameRules, cursor: Cursor) -> str:
    """sha256 of the full view and result after an event: what the rules made of it."""
    text = json.dumps([rules.view(cursor.state, ALL), rules.result(cursor.state),
                       [list(i) for i in cursor.invalid]], sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _deal_problem(rules: GameRules, before: Cursor, env: Envelope,
                  seed: str) -> dict[str, Any] | None:
    """Re-derive an event's chance outcome from the seed; a mismatch names the seq."""
    chance = rules.chance_fields.get(env["type"], ())
    if not chance or env["type"] in META_TYPES:
        return None
    data = env["data"]
    probe = Action.of(env["type"], env["actor"], rules.strip_chance(to_action(env)))
    try:
        expected = rules.fill_chance(before.state, probe, Dealer(seed, env["seq"]))
    except IllegalAction:
        return {"seq": env["seq"], "code": "deal_mismatch",
                "message": f"seq {env['seq']}: the seed cannot re-derive this deal"}
    for name in chance:
        if thaw(expected.get(name)) != thaw(data.get(name)):
            return {"seq": env["seq"], "code": "deal_mismatch",
                    "message": f"seq {env['seq']}: {name} is {data.get(name)!r} but the "
                    f"revealed seed deals {expected.get(name)!r}"}
    return None


def _lines(envelopes: Iterable[Envelope]) -> Iterator[str]:
    for env in envelopes:
        yield json.dumps(env, ensure_ascii=False) + "\n"


def _fold_all(rules: GameRules, envelopes: list[Envelope]) -> Cursor:
    folder = Folder(rules, envelopes[0]["data"].get("mode", "table"))
    for env in envelopes:
        folder.feed(env)
    assert folder.last is not None
    return folder.last


def parse_jsonl(lines: Iterable[str]) -> list[Envelope]:
    """Envelopes from JSON Lines; a line that is not a JSON object is an InvalidEvent."""
    out: list[Envelope] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            env = json.loads(line)
        except json.JSONDecodeError as err:
            raise InvalidEvent("malformed", f"line {number} is not JSON: {err.msg}") from None
        except (ValueError, RecursionError):  # a 5000-digit number, nesting past the stack
            raise InvalidEvent("malformed", f"line {number} is not JSON chronicle can read "
                               "(a number too long or nesting too deep)") from None
        if not isinstance(env, dict):
            raise InvalidEvent("malformed", f"line {number} is not a JSON object")
        schemas.check_json_text(env, f"line {number}")
        out.append(env)
    if not out:
        raise InvalidEvent("malformed", "the file holds no events")
    return out


def _counts(counts: tuple[int, ...]) -> str:
    if len(counts) == 1:
        return str(counts[0])
    if list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts))


@cache
def _default_identity(slug: str) -> tuple[str, str]:
    """(canonical text, sha256) of the shipped edition, computed once per process."""
    return canonical_edition(default_edition(slug))


def _all_slugs() -> list[str]:
    from projections import GAMES

    return list(GAMES)


__all__ = ["Access", "CreatedGame", "Recorded", "Recorder", "now_iso", "parse_jsonl"]
