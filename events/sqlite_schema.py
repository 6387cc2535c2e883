"""The SQLite schema, as sqlite-utils migrations: applied in order, never edited once applied.

Immutability is the database's: triggers abort any UPDATE or DELETE on events.
"""

from __future__ import annotations

from sqlite_utils import Database, Migrations

migrations = Migrations("chronicle")


@migrations()
def m001_initial(db: Database) -> None:
    db.executescript(
        """
        CREATE TABLE games (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            rules_version TEXT NOT NULL,
            players TEXT NOT NULL,
            mode TEXT NOT NULL,
            edition_name TEXT NOT NULL,
            edition_sha256 TEXT NOT NULL,
            created_at TEXT NOT NULL,
            title TEXT,
            notes TEXT,
            status TEXT NOT NULL DEFAULT 'in_progress',
            result TEXT,
            audit TEXT
        ) STRICT;
        CREATE INDEX games_by_game ON games(game, created_at);
        CREATE TABLE events (
            game_id TEXT NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL CHECK (seq >= 0),
            type TEXT NOT NULL,
            actor TEXT NOT NULL,
            data TEXT NOT NULL,
            recorded_at TEXT NOT NULL,
            prev_hash TEXT NOT NULL,
            hash TEXT NOT NULL,
            salt TEXT NOT NULL,
            idempotency_key TEXT,
            PRIMARY KEY (game_id, seq)
        ) STRICT;
        CREATE UNIQUE INDEX events_idempotency ON events(game_id, idempotency_key)
            WHERE idempotency_key IS NOT NULL;
        CREATE TRIGGER events_no_update BEFORE UPDATE ON events
            BEGIN SELECT RAISE(ABORT, 'events are immutable: UPDATE refused'); END;
        CREATE TRIGGER events_no_delete BEFORE DELETE ON events
            BEGIN SELECT RAISE(ABORT, 'events are immutable: DELETE refused'); END;
        CREATE TABLE editions (
            sha256 TEXT PRIMARY KEY,
            slug TEXT NOT NULL,
            name TEXT NOT NULL,
            content TEXT NOT NULL,
            added_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        ) STRICT;
        CREATE TABLE tokens (
            token_hash TEXT PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games(id),
            role TEXT NOT NULL
        ) STRICT;
        CREATE TABLE seeds (
            game_id TEXT PRIMARY KEY REFERENCES games(id),
            seed TEXT NOT NULL
        ) STRICT;
        CREATE TABLE snapshots (
            game_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            key TEXT NOT NULL,
            blob BLOB NOT NULL,
            PRIMARY KEY (game_id, key, seq)
        ) STRICT;
        """
    )


@migrations()
def m002_digests(db: Database) -> None:
    db.executescript(
        """
        CREATE TABLE digests (
            game_id TEXT NOT NULL,
            key TEXT NOT NULL,
            seq INTEGER NOT NULL,
            digest TEXT NOT NULL,
            PRIMARY KEY (game_id, key, seq)
        ) STRICT;
        """
    )


@migrations()
def m003_seed_salt(db: Database) -> None:
    db.executescript("ALTER TABLE seeds ADD COLUMN salt TEXT;")


@migrations()
def m004_origin(db: Database) -> None:
    # a fork's origin {"game_id", "seq", "hash"} (JSON); null for every other game
    db.executescript("ALTER TABLE games ADD COLUMN origin TEXT;")
