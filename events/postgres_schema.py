"""The PostgreSQL schema: numbered migrations, applied in order, never edited once applied.

Immutability and the chain are the database's: triggers refuse UPDATE, DELETE and TRUNCATE
on events, and any insert that would leave a gap in a game's seqs or break its chain.
"""

from __future__ import annotations

# Numbered migrations: (version, name, SQL). Append new ones; never edit an applied one.
MIGRATIONS: list[tuple[int, str, str]] = [
    (1, "initial", """
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        rules_version TEXT NOT NULL,
        players JSON NOT NULL,
        mode TEXT NOT NULL,
        edition_name TEXT NOT NULL,
        edition_sha256 TEXT NOT NULL,
        created_at TEXT NOT NULL,
        title TEXT,
        notes TEXT,
        status TEXT NOT NULL DEFAULT 'in_progress',
        result JSON,
        audit TEXT
    );
    CREATE INDEX games_by_game ON games (game, created_at);
    CREATE INDEX games_by_created ON games (created_at DESC, id);
    -- actor and data are JSON (not JSONB): the exact text that was hashed comes back
    CREATE TABLE events (
        game_id TEXT NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL CHECK (seq >= 0),
        type TEXT NOT NULL,
        actor JSON NOT NULL,
        data JSON NOT NULL,
        recorded_at TEXT NOT NULL,
        prev_hash TEXT NOT NULL CHECK (length(prev_hash) = 64),
        hash TEXT NOT NULL CHECK (length(hash) = 64),
        salt TEXT NOT NULL,
        idempotency_key TEXT,
        PRIMARY KEY (game_id, seq)
    );
    CREATE UNIQUE INDEX events_idempotency ON events (game_id, idempotency_key)
        WHERE idempotency_key IS NOT NULL;
    CREATE FUNCTION chronicle_events_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'events are immutable: % refused', TG_OP
            USING ERRCODE = 'restrict_violation';
    END $$;
    CREATE TRIGGER events_no_update BEFORE UPDATE OR DELETE ON events
        FOR EACH ROW EXECUTE FUNCTION chronicle_events_immutable();
    CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
        FOR EACH STATEMENT EXECUTE FUNCTION chronicle_events_immutable();
    CREATE FUNCTION chronicle_events_chain() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        last_seq INTEGER;
        last_hash TEXT;
    BEGIN
        SELECT seq, hash INTO last_seq, last_hash FROM events
            WHERE game_id = NEW.game_id ORDER BY seq DESC LIMIT 1;
        IF NEW.seq <> coalesce(last_seq + 1, 0) THEN
            RAISE EXCEPTION 'event % of game % cannot follow seq %', NEW.seq, NEW.game_id,
                coalesce(last_seq::text, 'none') USING ERRCODE = 'unique_violation';
        END IF;
        IF NEW.prev_hash <> coalesce(last_hash, repeat('0', 64)) THEN
            RAISE EXCEPTION 'event % of game % does not chain from the hash of seq %',
                NEW.seq, NEW.game_id, last_seq USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END $$;
    CREATE TRIGGER events_chain BEFORE INSERT ON events
        FOR EACH ROW EXECUTE FUNCTION chronicle_events_chain();
    CREATE TABLE editions (
        sha256 TEXT PRIMARY KEY,
        slug TEXT NOT NULL,
        name TEXT NOT NULL,
        content TEXT NOT NULL,
        added_at TEXT NOT NULL
            DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    );
    CREATE TABLE tokens (
        token_hash TEXT PRIMARY KEY,
        game_id TEXT NOT NULL REFERENCES games (id),
        role TEXT NOT NULL
    );
    CREATE INDEX tokens_by_game ON tokens (game_id);
    CREATE TABLE seeds (
        game_id TEXT PRIMARY KEY REFERENCES games (id),
        seed TEXT NOT NULL
    );
    CREATE TABLE snapshots (
        game_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        key TEXT NOT NULL,
        blob BYTEA NOT NULL,
        PRIMARY KEY (game_id, key, seq)
    );
    """),
    (2, "seed_salt_and_digests", """
    ALTER TABLE seeds ADD COLUMN salt TEXT;
    CREATE TABLE digests (
        game_id TEXT NOT NULL,
        key TEXT NOT NULL,
        seq INTEGER NOT NULL,
        digest TEXT NOT NULL,
        PRIMARY KEY (game_id, key, seq)
    );
    """),
    (3, "fork_origin", """
    ALTER TABLE games ADD COLUMN origin JSON;
    """),
]
