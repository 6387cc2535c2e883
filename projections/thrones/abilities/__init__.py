"""Thrones card abilities as data (issue #30; the contract: docs/games/thrones-abilities.md).

`schema.py` types and validates the `abilities` of each card at load (edition.py reads it);
`registry.py` holds the named functions, registered by card id next to the data in one
module per starter deck (stark.py, lannister.py, baratheon.py, targaryen.py, neutral.py).
The engine that uses them is apply/abilities.py. This package imports nothing of apply/, so
the edition can load it first.
"""
