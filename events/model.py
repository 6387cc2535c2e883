"""The stored event envelope, canonical JSON and the hash chain (docs/design.md, "The event").

Anyone can re-verify a record with a few lines: for each envelope in seq order,
`hash == sha256(prev_hash + canonical_json(envelope without "hash"))`, and seq 0 chains
from 64 zeros.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from projections.messages import M

GENESIS = "0" * 64
ENVELOPE_FIELDS = ("game_id", "seq", "type", "actor", "data", "recorded_at", "prev_hash",
                   "hash", "salt", "idempotency_key")
Envelope = dict[str, Any]


def canonical_json(value: Any) -> str:
    """Sorted keys, no insignificant whitespace; UTF-8 when encoded."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def event_hash(envelope: Mapping[str, Any]) -> str:
    """sha256(prev_hash + canonical JSON of every envelope field but `hash`)."""
    body = {k: envelope.get(k) for k in ENVELOPE_FIELDS if k != "hash"}
    text = str(envelope["prev_hash"]) + canonical_json(body)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def now_iso() -> str:
    """The current UTC time as ISO 8601 with a Z (frozen by freezegun in tests)."""
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def new_game_id() -> str:
    """A short, URL-safe game id (64 random bits, letters and digits only)."""
    return secrets.token_urlsafe(8).replace("-", "x").replace("_", "y")


def new_salt() -> str:
    """128 random bits, hex: hidden data cannot be tested against the public hash."""
    return secrets.token_hex(16)


def seal(game_id: str, seq: int, type_: str, actor: Any, data: Mapping[str, Any],
         prev_hash: str, idempotency_key: str | None = None,
         recorded_at: str | None = None, salt: str | None = None) -> Envelope:
    """A complete envelope with its hash."""
    env: Envelope = {
        "game_id": game_id, "seq": seq, "type": type_, "actor": actor, "data": dict(data),
        "recorded_at": recorded_at or now_iso(), "prev_hash": prev_hash,
        "salt": salt or new_salt(), "idempotency_key": idempotency_key,
    }
    env["hash"] = event_hash(env)
    return {k: env[k] for k in ENVELOPE_FIELDS}


def chain_problems(envelopes: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every break in the chain: wrong seq, wrong prev_hash, or a hash that does not match."""
    problems: list[dict[str, Any]] = []
    prev, expected_seq, game_id = GENESIS, 0, None
    for env in envelopes:
        seq = env.get("seq")
        if any(k not in env for k in ENVELOPE_FIELDS):
            missing = [k for k in ENVELOPE_FIELDS if k not in env]
            problems.append({"seq": seq, "code": "missing_fields",
                             "message": M("event {seq} lacks {fields}", seq=seq,
                                          fields=", ".join(missing))})
            return problems
        game_id = game_id or env["game_id"]
        # the messages are built only for a failed check: most logs have none
        if seq != expected_seq:
            problems.append({"seq": seq, "code": "seq_gap",
                             "message": M("expected step {expected}, found {seq}",
                                          expected=expected_seq, seq=seq)})
        if env["game_id"] != game_id:
            problems.append({"seq": seq, "code": "wrong_game",
                             "message": M("event {seq} belongs to the game {game_id}",
                                          seq=seq, game_id=env["game_id"])})
        if env["prev_hash"] != prev:
            problems.append({"seq": seq, "code": "broken_chain", "message": M(
                "event {seq}'s link to the event before does not match the hash of event "
                "{before}", seq=seq, before=expected_seq - 1)})
        if event_hash(env) != env["hash"]:
            problems.append({"seq": seq, "code": "hash_mismatch", "message": M(
                "event {seq}'s content does not match its hash: it was altered", seq=seq)})
        prev = env["hash"]
        expected_seq = (seq if isinstance(seq, int) else expected_seq) + 1
    return problems


def to_jsonl(envelope: Mapping[str, Any]) -> str:
    """One export line: the envelope's fields in their documented order."""
    return json.dumps({k: envelope[k] for k in ENVELOPE_FIELDS}, ensure_ascii=False)
