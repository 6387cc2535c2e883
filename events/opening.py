"""Opening a store by its URL: the one place that knows every backend.

Kept apart from store.py, which both backends import, so neither backend is imported by
the interface it implements (no cycle, not even inside a function).
"""

from __future__ import annotations

from .memory import MemoryStore
from .postgres import PostgresStore
from .sqlite import SQLiteStore
from .store import Store


def open_store(url: str | None) -> Store:
    """A SQLite path or sqlite:/// URL, a postgresql:// URL, or memory:NAME (this
    process only, kept in memory: for tests and trying chronicle out)."""
    target = url or "chronicle.db"
    if target.startswith(("postgresql://", "postgres://")):
        return PostgresStore(target)
    if target.startswith("memory:"):
        return MemoryStore(target.removeprefix("memory:"))
    return SQLiteStore(target.removeprefix("sqlite:///").removeprefix("sqlite://"))
