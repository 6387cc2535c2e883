"""What a store is: three small protocols, the only way anything reads or writes a game
(docs/design.md, "Stores").

- `Log`: the record itself, kept for ever: each game's events (appended, read, chained),
  and what the record needs beside them to be verified and reached — editions by hash,
  token hashes, a digital game's seed.
- `ReadModel`: what is derived from the log and written in the same transaction, so it
  never disagrees with it: the games rows (listing, filters), their summaries (status,
  result, last audit) and the state digests after each event.
- `Caches`: what may be dropped at any time and is only ever a shortcut: folded snapshots.
  (The in-process cursor cache, events/folding.py, is the other one.)

`Store` is the three together; a module that needs only one part takes only that part.
Three backends implement it — SQLite (events/sqlite.py), PostgreSQL (events/postgres.py)
and one in memory (events/memory.py) — and one contract suite runs against each
(tests/events/test_store.py). Events are never updated or deleted.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .model import Envelope


@dataclass(frozen=True, slots=True)
class GameFilter:
    """Filters for listing games; every field optional."""

    game: str | None = None
    player: str | None = None
    status: str | None = None
    created_from: str | None = None
    created_to: str | None = None
    #: None: every game; False: leave forks out (statistics, re-audit); True: only forks
    forks: bool | None = None
    limit: int = 50
    offset: int = 0


@dataclass(frozen=True, slots=True)
class Summary:
    """What a write stores beside its events, in the same transaction: the game row's status
    and result, and the state digest after each event (read models that never disagree
    with the log, because they commit with it)."""

    status: str
    result: Mapping[str, Any] | None
    digest_key: str = ""
    digests: Mapping[int, str] = field(default_factory=dict)
    #: the status or result differs from the game row the writer read (else the row is
    #: left as it is: one statement less per record)
    changed: bool = True


#: environment variable naming a fault point where a test wants this process killed
FAULT_ENV = "CHRONICLE_FAULT"


def fault_point(name: str) -> None:
    """SIGKILL this process here when a test asks for it (CHRONICLE_FAULT=name).

    Read only by the crash tests, to die between two writes of one transaction on purpose.
    """
    if os.environ.get(FAULT_ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)


class Log(Protocol):
    """The record: events, and the editions, tokens and seeds a game needs to be replayed,
    verified and reached. Nothing of it is ever updated or deleted."""

    url: str

    def create_game(self, game: Mapping[str, Any], created: Envelope,
                    tokens: Mapping[str, str], seed: str | None, salt: str | None = None
                    ) -> None:
        """Store a new game row, its event 0, its token hashes (hash -> role) and secret."""
        self.import_game(game, [created], tokens, seed, salt)

    def import_game(self, game: Mapping[str, Any], envelopes: list[Envelope],
                    tokens: Mapping[str, str], seed: str | None = None,
                    salt: str | None = None) -> None:
        """Store a game row (the read model's), its events (a new game's first ones, or a
        verified import), its token hashes and its secret in one transaction.

        Conflict("game_exists") if the id is taken; nothing is stored then.
        """

    def append(self, envelope: Envelope) -> Envelope:
        """Append one event atomically; Conflict unless its seq is exactly last seq + 1."""
        self.append_all([envelope])
        return envelope

    def append_all(self, envelopes: Sequence[Envelope], summary: Summary | None = None) -> None:
        """Append consecutive events of one game and their summary (the read model's) in one
        transaction.

        The first must follow the game's last seq exactly; otherwise, or when an
        idempotency key is already taken, Conflict and nothing of it is stored
        (`stale_sequence`, `idempotency_key_taken`). A reader never sees part of it: an
        action and the server events it makes due (a deal, the reveal) appear together.
        """

    def events(self, game_id: str, after: int = -1, upto: int | None = None,
               limit: int | None = None) -> Iterator[Envelope]:
        """Envelopes with after < seq (<= upto), in seq order."""

    def last_event(self, game_id: str) -> Envelope | None:
        """The envelope with the highest seq."""

    def last_seq(self, game_id: str) -> int | None:
        """The highest seq of the game, or None (backends may answer without decoding)."""
        last = self.last_event(game_id)
        return None if last is None else int(last["seq"])

    def event(self, game_id: str, seq: int) -> Envelope | None:
        """One envelope."""
        return next(self.events(game_id, after=seq - 1, upto=seq), None)

    def aimed_at(self, game_id: str, targets: Sequence[int]) -> list[Envelope]:
        """The undo, redo and correction events whose `target_seq` is one of `targets`, in
        seq order (a history page's marks, events/paging.py; backends use an index)."""

    def unaimed(self, game_id: str) -> list[Envelope]:
        """The undo and redo events that name no numeric `target_seq`, in seq order."""

    def event_by_key(self, game_id: str, idempotency_key: str) -> Envelope | None:
        """The event stored with this idempotency key, if any."""

    def wait_for_event(self, game_id: str, after: int, timeout: float) -> bool:
        """Block up to `timeout` seconds until the game has an event after `after`.

        The default polls; PostgreSQL listens for NOTIFY, the memory store is notified.
        """
        deadline = time.monotonic() + timeout
        while True:
            last = self.last_event(game_id)
            if last is not None and last["seq"] > after:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(min(0.25, max(0.0, deadline - time.monotonic())))

    def put_edition(self, slug: str, name: str, sha256: str, content: str) -> None:
        """Keep an edition's canonical content by hash (idempotent)."""

    def edition(self, sha256: str) -> dict[str, Any] | None:
        """{slug, name, sha256, content} by hash."""

    def editions(self, slug: str | None = None) -> list[dict[str, Any]]:
        """Every stored edition (without content), by slug, then as added."""

    def token_role(self, game_id: str, token_hash: str) -> str | None:
        """"recorder" or "seat:N" for a token hash of this game."""

    def tokens(self, game_id: str) -> dict[str, str]:
        """Every token hash of this game -> its role (to copy a game between stores)."""

    def seed(self, game_id: str) -> str | None:
        """The digital game's secret seed (server side only)."""

    def salt(self, game_id: str) -> str | None:
        """The salt of the digital game's seed commitment (scheme 2; None for scheme 1)."""

    def secret(self, game_id: str) -> tuple[str, str | None] | None:
        """(seed, salt) of a digital game, or None (backends answer in one read)."""
        seed = self.seed(game_id)
        return None if seed is None else (seed, self.salt(game_id))


class ReadModel(Protocol):
    """Derived from the log, committed with it (Log.import_game, Log.append_all): the games
    rows, their summaries and the state digests."""

    def game(self, game_id: str) -> dict[str, Any] | None:
        """The game row, or None."""

    def list_games(self, flt: GameFilter) -> tuple[list[dict[str, Any]], int]:
        """(one page of game rows, newest first, then by id; total matching)."""

    def set_summary(self, game_id: str, status: str, result: Mapping[str, Any] | None,
                    audit: str | None = None) -> None:
        """Cache the game's status and result on its row (derived data, not the record);
        `audit` ("ok", "failed") is kept unless given."""

    def digests(self, game_id: str, digest_key: str) -> dict[int, str]:
        """seq -> state digest recorded under `digest_key` (a rules version).

        Digests let a re-audit under changed rules name the first event whose outcome
        differs.
        """

    def put_digests(self, game_id: str, digest_key: str, digests: Mapping[int, str]) -> None:
        """Store many digests at once (import, verify); a failure loses only derived data."""


class Caches(Protocol):
    """Shortcuts that may be dropped at any time; a miss is only slower."""

    def put_snapshot(self, game_id: str, seq: int, key: str, blob: bytes) -> None:
        """Cache a folded cursor (JSON data, never code); snapshots may be dropped at any
        time, and one that does not decode or match is ignored."""

    def snapshot(self, game_id: str, upto: int, key: str) -> tuple[int, bytes] | None:
        """The latest snapshot at or before `upto` for this rules key."""


class Store(Log, ReadModel, Caches, Protocol):
    """A whole backend: the log, its read model and its caches, over one connection."""

    def head(self, game_id: str) -> tuple[dict[str, Any], Envelope] | None:
        """The game row and its last event, or None: one read where the backend can (every
        request starts here, and under gunicorn's threads each read is a hand-off of the
        interpreter lock; issue #34)."""
        row, last = self.game(game_id), self.last_event(game_id)
        return None if row is None or last is None else (row, last)

    def close(self) -> None:
        """Release the connection."""
