"""The base of every error chronicle reports to a person: a stable code, a message, details.

It lives here, in the bottom layer, so the rules' `IllegalAction` and the service's errors
(events/errors.py) are one family: the API has one handler for it and the CLI one path.
Each class carries its HTTP status and a `kind` for the error body.
"""

from __future__ import annotations

from typing import Any


class ChronicleError(Exception):
    """Base of every error chronicle reports to a user: a stable code, a message, details."""

    status = 500
    kind = "error"

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def __str__(self) -> str:
        return self.message


class IllegalAction(ChronicleError):
    """Raised when a well-formed action is against the rules now; the message names the rule."""

    status = 422
    kind = "illegal_action"
