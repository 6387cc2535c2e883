"""Who is asking, and what they may see and do (docs/design.md, "Access and tokens").

Roles: the recorder token (the table), a seat token (one player), no token (a spectator),
and the local CLI on the machine that holds the database. Tokens are minted and hashed
here and nowhere else; only their SHA-256 is ever stored or looked up.

What each sees:
- a seat: its own view, in state and in history; the other seats' secrets never;
- a spectator: what is public;
- the recorder of a **table** game: everything (it types every card at the table), but a
  move a seat sealed with its own token (In the Shadow of the Emperor's ballots) until the
  rules reveal it;
- the recorder of a **digital** game: exactly the spectator's view, plus the table's own
  legal actions (the table's choices, such as Thrones' houses); it deals nothing and sees
  no hand — the server deals;
- anyone, once the game is over: everything (a finished game is public for audit).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from projections.rules import ALL, TABLE, Viewer

from .errors import AccessDenied, Unauthorized

Role = Literal["recorder", "seat", "spectator", "local"]
RECORDER: Literal["recorder"] = "recorder"


@dataclass(frozen=True, slots=True)
class Access:
    """Who is asking: the recorder, one seat, a spectator (no token), or the local CLI."""

    role: Role
    seat: int | None = None

    @classmethod
    def local(cls) -> Access:
        """The CLI on the machine that holds the database: full recorder rights."""
        return cls("local")

    @property
    def may_record(self) -> bool:
        return self.role in (RECORDER, "local")


@dataclass(frozen=True, slots=True)
class Tokens:
    """Freshly minted tokens of one game: shown once, stored only as `hashes`."""

    recorder: str
    seats: list[str]
    hashes: dict[str, str]  # token hash -> stored role ("recorder", "seat:N")


def token_hash(token: str) -> str:
    """The only form a token is stored or looked up in (RELIABILITY.md, "Secrets")."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def mint_tokens(seats: int) -> Tokens:
    """A recorder token and one token per seat, 192 random bits each."""
    recorder = secrets.token_urlsafe(24)
    seat_tokens = [secrets.token_urlsafe(24) for _ in range(seats)]
    hashes: dict[str, str] = {token_hash(recorder): RECORDER}
    hashes |= {token_hash(t): f"seat:{i}" for i, t in enumerate(seat_tokens)}
    return Tokens(recorder, seat_tokens, hashes)


def from_role(stored: str | None) -> Access:
    """The Access of a stored role; an unknown token (None) is refused."""
    if stored is None:
        raise Unauthorized("bad_token", "this token is not valid for this game")
    if stored == RECORDER:
        return Access(RECORDER)
    return Access("seat", int(stored.split(":", 1)[1]))


def viewer_of(access: Access, mode: str, finished: bool, seals: bool = False) -> Viewer:
    """Whose eyes a request sees through: finished games are public to all. `seals`: the
    game lets a seat seal a move from the table's recorder (`GameRules.sealed_types`),
    who then sees the table as TABLE, not ALL (issue #32)."""
    if finished or access.role == "local":
        return ALL
    if access.role == RECORDER:
        if mode != "table":
            return None
        return TABLE if seals else ALL
    if access.role == "seat":
        return access.seat
    return None


def legal_actor(access: Access, mode: str, asked: Any = None) -> Any | None:
    """Whose legal actions a caller may list: None means every actor's.

    A seat lists only its own; a digital recorder only the table's; a spectator nobody's
    (the caller answers with an empty list).
    """
    if access.role == "seat":
        if asked is not None and asked != access.seat:
            raise AccessDenied("not_your_seat", f"this token is seat {access.seat}'s")
        return access.seat
    if access.role == RECORDER and mode == "digital":
        return "table"
    return asked


def may_replay(access: Access, mode: str, env: Mapping[str, Any]) -> bool:
    """May this caller receive the stored answer of an idempotent retry of `env`?

    Only the token that made it, or one that sees everything it saw: its seat, the
    table recorder (which sees all of a table game), the local CLI.
    """
    if access.role == "local" or (access.role == RECORDER and mode == "table"):
        return True
    if access.role == RECORDER:
        return bool(env["actor"] == "table")
    return access.role == "seat" and bool(env["actor"] == access.seat)
