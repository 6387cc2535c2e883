"""The recorder service: the one entry point of api/ and cli/, a thin facade.

The shells import nothing else of `events/` (an import-linter contract in pyproject.toml):
what they need besides the `Recorder` — the errors they translate, the request schemas the
API documents, opening a store, copying one into another — is re-exported here.

Each method is a few lines over the modules that do the work (README, "Layout"):
access.py (who is asking, what they see), editions.py (component data and the bound
reducers), folding.py (one context per call, cursors, snapshots), reading.py (everything a
caller reads, through the one redaction), writing.py (create, record, undo and redo, the
server's own turns, each one transaction), verifying.py (verify and import) and audit.py
(compare, re-audit, statistics).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

from projections.replay import Cursor
from projections.rules import GameRules

from . import audit, choosing, samples
from .access import Access, from_role, token_hash
from .dealer import Entropy, server_entropy
from .editions import Editions
from .errors import AccessDenied, ChronicleError, InvalidEvent, NotFound, Unauthorized
from .folding import CursorCache, Folding
from .forking import Forker
from .migrate import CopyReport, copy_games, game_ids
from .model import Envelope, now_iso
from .opening import open_store
from .parallel import default_jobs, in_shares, reaudit_games, stored_ids
from .reading import GameReader, audit_report
from .rendered import rendered_state
from .schemas import (
    MAX_DEPTH,
    MAX_INT,
    MAX_SEAT,
    ActionSchema,
    ActorField,
    NewGameSchema,
    check_depth,
)
from .schemas import load as load_request
from .store import GameFilter, Store
from .verifying import Verifier, parse_jsonl
from .writing import CreatedGame, Recorded, Writer


class Recorder:
    """The service over one store."""

    def __init__(self, store: Store, cache: CursorCache | None = None,
                 entropy: Entropy | None = None) -> None:
        self.store = store
        self.registry = Editions(store)
        self.folding = Folding(store, self.registry, cache if cache is not None
                               else CursorCache())
        self.writer = Writer(self.folding, self.registry, entropy or server_entropy)
        self.verifier = Verifier(self.folding, self.registry)
        self.forker = Forker(self.folding)

    # -- editions -----------------------------------------------------------------------
    def add_edition(self, slug: str, content: Any, name: str | None = None) -> dict[str, Any]:
        """Register an edition after checking it against the game's schema."""
        return self.registry.add(slug, content, name)

    def editions(self, slug: str | None = None) -> list[dict[str, Any]]:
        """Every edition known: the shipped defaults and those registered."""
        return self.registry.listed(slug)

    def rules_for(self, game: Mapping[str, Any]) -> GameRules[Any]:
        """The reducer bound to the exact edition the game was recorded with."""
        return self.registry.rules_for(game)

    # -- access and reading ---------------------------------------------------------------
    def access(self, game_id: str, token: str | None) -> Access:
        """Resolve a bearer token (None: spectator); an unknown token is refused."""
        if token is None:
            return Access("spectator")  # an unknown game is refused by the read that follows
        role = self.folding.cache.roles.role(game_id, token_hash(token), self.store.token_role)
        if role is None:
            self.game(game_id)  # an unknown game is a 404 before a bad token is a 401
        return from_role(role)

    def reader(self, game_id: str, access: Access | None = None) -> GameReader:
        """The game as `access` may see it, as stored. A read never writes (docs/design.md,
        "Stores"): a digital game an older version left owing server events is shown as it stands
        until `repair` completes it (the next action by anyone completes it too)."""
        ctx = self.folding.context(game_id)
        return GameReader(self.folding, ctx, access or Access.local(),
                          latest=self.folding.cursor(ctx))

    def game(self, game_id: str) -> dict[str, Any]:
        return self.folding.row(game_id)

    def audit_flag(self, game_id: str) -> str | None:
        """"ok" or "failed" after the game's last audit, None if never audited (a response
        header; read from what this request already loaded when it can)."""
        return self.folding.audit_flag(game_id)

    def list_games(self, flt: GameFilter) -> tuple[list[dict[str, Any]], int]:
        return self.store.list_games(flt)

    def wait_for_event(self, game_id: str, after: int, timeout: float) -> bool:
        """Block up to `timeout` seconds until the game has an event after `after` (the
        live stream; PostgreSQL wakes on NOTIFY from any worker)."""
        return self.store.wait_for_event(game_id, after, timeout)

    def stored_log(self, game_id: str) -> list[Envelope]:
        """The log exactly as stored, read even when it no longer folds (the local CLI's
        verify report names what it holds; a folding read would refuse)."""
        self.game(game_id)  # NotFound for an unknown game
        return list(self.store.events(game_id))

    def last_seq(self, game_id: str) -> int:
        last = self.store.last_seq(game_id)
        if last is None:
            self.game(game_id)  # NotFound for an unknown game
            raise NotFound("unknown_game", f"game {game_id!r} has no events")
        return last

    def cursor(self, game_id: str, at: int | None = None) -> tuple[GameRules[Any], Cursor]:
        """The fold of events 0..at (default: all), resumed from the nearest snapshot."""
        ctx = self.folding.context(game_id)
        return ctx.rules, self.folding.cursor(ctx, at)

    def state(self, game_id: str, at: int | None = None,
              access: Access | None = None) -> dict[str, Any]:
        """The state document (docs/design.md, "CLI and HTTP"): what `access` may see at
        step `at`."""
        return self.reader(game_id, access).state(at)

    def rendered_state(self, game_id: str, at: int | None, access: Access, form: str,
                       render: Callable[[dict[str, Any]], bytes]) -> tuple[bytes, int]:
        """The state document as `render` encodes it (`form` names the encoding), kept
        for the next caller of the same scope until the log grows (events/documents.py),
        and the log's last seq (the ETag)."""
        reader = self.reader(game_id, access)
        return rendered_state(reader, at, form, render), reader.latest.seq

    def legal(self, game_id: str, access: Access | None = None,
              seat: Any = None) -> list[dict[str, Any]]:
        """Legal actions now, ready to record; a seat token sees only its own."""
        return self.reader(game_id, access).legal(seat)

    def legal_with_slots(self, game_id: str, access: Access | None = None
                         ) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
        """The legal actions, and for a table-mode recorder the chance outcomes to pick."""
        return self.reader(game_id, access).legal_with_slots()

    def choices(self, game_id: str, access: Access | None = None, kind: str | None = None,
                actor: Any = None, picks: Iterable[Any] = ()) -> dict[str, Any]:
        """The moves open to `access` now, built choice by choice (GameReader.choices)."""
        return choosing.choices(self.reader(game_id, access), kind, actor, picks)

    def default_actor(self, game_id: str, kind: str) -> Any:
        """Who would make a `kind` action now, when a shell was not told (the only actor
        who may, else InvalidEvent asking for one)."""
        return self.reader(game_id).default_actor(kind)

    def history(self, game_id: str, after: int = -1, limit: int | None = None,
                access: Access | None = None) -> tuple[list[Envelope], dict[int, dict[str, Any]]]:
        """Envelopes after `after` as `access` may see them, and annotations by seq."""
        return self.reader(game_id, access).history(after, limit)

    def export(self, game_id: str, access: Access | None = None) -> Iterator[str]:
        """The log as JSON Lines (whole for the full view; redacted for anyone else)."""
        return self.reader(game_id, access).export()

    # -- writing ---------------------------------------------------------------------------
    def create_game(self, request: Mapping[str, Any], game_id: str | None = None) -> CreatedGame:
        """Create a game: event 0, tokens, and in digital mode the secret and the first deal."""
        return self.writer.create(request, game_id)

    def record(self, game_id: str, raw: Any, *, expected_seq: int | None = None,
               idempotency_key: str | None = None, access: Access | None = None,
               minimal: bool = False) -> Recorded:
        """Validate and append one action; in digital mode, fill its chance and deal on.
        `minimal`: answer the stored envelope alone, without the state document."""
        return self.writer.record(game_id, raw, expected_seq=expected_seq,
                                  idempotency_key=idempotency_key,
                                  access=access or Access.local(), minimal=minimal)

    def undo(self, game_id: str, actor: Any = "table", access: Access | None = None,
             expected_seq: int | None = None) -> Recorded:
        """Retract the most recent effective action (policy: docs/design.md, "Undo and redo")."""
        return self._meta(game_id, "undo", actor, access, expected_seq)

    def redo(self, game_id: str, actor: Any = "table", access: Access | None = None,
             expected_seq: int | None = None) -> Recorded:
        """Re-apply the most recently undone action."""
        return self._meta(game_id, "redo", actor, access, expected_seq)

    def _meta(self, game_id: str, kind: str, actor: Any, access: Access | None,
              expected_seq: int | None) -> Recorded:
        access = access or Access.local()
        action = self.writer.meta_action(game_id, kind, actor, access)
        return self.record(game_id, action, expected_seq=expected_seq, access=access)

    def fork(self, game_id: str, at: int, access: Access | None = None) -> CreatedGame:
        """A new table game that starts as this game's effective history up to step `at`."""
        return self.forker.fork(self.reader(game_id, access), at)

    def catch_up(self, game_id: str) -> list[Envelope]:
        """Write the server events a digital game owes (after a crash of an older version)."""
        ctx = self.folding.context(game_id)
        fresh, _ = self.writer.catch_up(ctx, self.folding.cursor(ctx, keep=True))
        return list(self.store.events(game_id, after=ctx.last, upto=fresh.last))

    def repair(self, game_id: str) -> dict[str, Any]:
        """The explicit write that completes what a read no longer does: the server events
        a digital game recorded by an older version still owes (its deal, its reveal), the
        snapshots of its log, and the audit mark of its row. {"written": [envelopes],
        "audit": the verify report}; the written events pass the rules like any other."""
        report = self.verifier.verify(game_id)
        game = self.game(game_id)
        self.folding.set_summary(game_id, game["status"], game["result"],
                                 audit="ok" if report["ok"] else "failed")
        if not report["ok"]:  # an altered log is marked, never written on
            return {"written": [], "audit": report}
        written = self.catch_up(game_id)
        return {"written": written, "audit": self.verifier.verify(game_id) if written
                else report}

    # -- verifying, importing, auditing ------------------------------------------------------
    def verify(self, game_id: str, access: Access | None = None) -> dict[str, Any]:
        """Verify a stored game: chain, every event through the reducer, deals, result."""
        report = self.verifier.verify(game_id)
        return audit_report(report, access or Access.local(), self.game(game_id)["mode"])

    def verify_envelopes(self, envelopes: list[Envelope]) -> dict[str, Any]:
        """The audit of a log: {"ok", "first_bad_seq", "problems", "result", ...}."""
        return self.verifier.verify_envelopes(envelopes)

    def import_lines(self, lines: Iterable[str]) -> CreatedGame:
        """Store an exported game after verifying it; refuses anything that does not verify."""
        return self.verifier.import_lines(lines)

    def load_samples(self, folder: Path | None = None) -> int:
        """Import every recorded sample game (fixtures/) if the store holds no game yet, so
        a newcomer sees games; returns how many."""
        return samples.load_samples(self, folder)

    def compare(self, game_a: str, game_b: str,
                access: tuple[Access, Access] | None = None) -> dict[str, Any]:
        """Two records of one table, each as its caller may see it: where they differ."""
        return audit.compare(self, game_a, game_b, access)

    def reaudit(self, slug: str | None = None, forks: bool = False) -> list[dict[str, Any]]:
        """Every stored game replayed under today's reducers: what changed (forks only when
        asked: they are explorations, not games played)."""
        return audit.reaudit(self, slug, forks)

    def statistics(self, slug: str | None = None, forks: bool = False) -> dict[str, Any]:
        """Games, win rate by seat, scores, lengths, frequent actions (forks left out unless
        asked)."""
        return audit.statistics(self, slug, forks)


def _verify_share(db: str, ids: Sequence[str]) -> list[dict[str, Any]]:
    with closing(open_store(db)) as store:
        rec = Recorder(store)
        return [{"game_id": game_id, **rec.verify(game_id)} for game_id in ids]


def verify_games(db: str, ids: Sequence[str], jobs: int = 1) -> list[dict[str, Any]]:
    """The audit report of each stored game (`Recorder.verify`), `jobs` processes at once
    (events/parallel.py), each over its own connection to the store at URL `db`."""
    return in_shares(_verify_share, db, list(ids), jobs)


def migrate_store(source: str, target: str, *, audit: bool = False,
                  counted: Callable[[int], None] | None = None,
                  progress: Callable[[str, str], None] | None = None) -> CopyReport:
    """Copy every game of the store at URL `source` into the one at `target`, each game's
    chain checked (with `audit`, every move re-applied) before it is committed;
    `counted(total)` before the first game, `progress(game_id, outcome)` after each."""
    src, dst = open_store(source), open_store(target)
    try:
        if counted is not None:
            counted(sum(1 for _ in game_ids(src)))
        return copy_games(src, dst, progress,
                          audit=Recorder(src).verify_envelopes if audit else None)
    finally:
        src.close()
        dst.close()


__all__ = ["MAX_DEPTH", "MAX_INT", "MAX_SEAT", "Access", "AccessDenied", "ActionSchema",
           "ActorField", "ChronicleError", "CopyReport", "CreatedGame", "CursorCache",
           "GameFilter", "InvalidEvent", "NewGameSchema", "NotFound", "Recorded", "Recorder",
           "Unauthorized", "check_depth", "default_jobs", "load_request", "migrate_store",
           "now_iso", "open_store", "parse_jsonl", "reaudit_games", "stored_ids", "token_hash",
           "verify_games"]
