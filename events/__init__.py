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
from .recorder import Access, CreatedGame, Recorded, Recorder
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
    "open_store",
]
