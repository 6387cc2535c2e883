"""The log: envelopes and the hash chain, stores, and the recorder service."""

from .errors import (
    AccessDenied,
    ChronicleError,
    Conflict,
    IllegalAction,
    InvalidEvent,
    NotFound,
    StorageError,
    Unauthorized,
)
from .opening import open_store
from .parallel import default_jobs, reaudit_games, stored_ids
from .recorder import Access, CreatedGame, Recorded, Recorder, verify_games
from .store import GameFilter, Store

__all__ = [
    "Access",
    "AccessDenied",
    "ChronicleError",
    "Conflict",
    "CreatedGame",
    "GameFilter",
    "IllegalAction",
    "InvalidEvent",
    "NotFound",
    "Recorded",
    "Recorder",
    "StorageError",
    "Store",
    "Unauthorized",
    "default_jobs",
    "open_store",
    "reaudit_games",
    "stored_ids",
    "verify_games",
]
