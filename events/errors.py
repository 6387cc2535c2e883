"""The service's errors: one family with the rules' IllegalAction, under one base class
(projections/errors.py); each class carries its HTTP status."""

from __future__ import annotations

from projections.errors import ChronicleError, IllegalAction

__all__ = [
    "AccessDenied",
    "ChronicleError",
    "Conflict",
    "IllegalAction",
    "InvalidEvent",
    "NotFound",
    "StorageError",
    "Unauthorized",
]


class InvalidEvent(ChronicleError):
    """Raised when a request or event is not the documented shape (fields keyed in details)."""

    status = 400
    kind = "invalid"


class Unauthorized(ChronicleError):
    """Raised when a token is missing where one is required, or is not a token of this game."""

    status = 401
    kind = "unauthorized"


class AccessDenied(ChronicleError):
    """Raised when a valid token asks for something its role may not do (another seat)."""

    status = 403
    kind = "forbidden"


class NotFound(ChronicleError):
    """Raised for an unknown game id, edition or fixture."""

    status = 404
    kind = "not_found"


class Conflict(ChronicleError):
    """Raised when an append's expected seq is stale: someone appended first."""

    status = 409
    kind = "conflict"


class StorageError(ChronicleError):
    """Raised when the database cannot take a write (disk full, read-only); nothing stored."""

    status = 503
    kind = "storage"
