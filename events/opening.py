"""Opening a store by its URL: the one place that knows both backends.

Kept apart from store.py, which both backends import, so neither backend is imported by
the interface it implements (no cycle, not even inside a function).
"""

from __future__ import annotations

from .postgres import PostgresStore
from .sqlite import SQLiteStore
from .store import Store


def open_store(url: str | None) -> Store:
    """A SQLite path or sqlite:/// URL, or a postgresql:// URL."""
    target = url or "chronicle.db"
    if target.startswith(("postgresql://", "postgres://")):
        return PostgresStore(target)
    return SQLiteStore(target.removeprefix("sqlite:///").removeprefix("sqlite://"))
