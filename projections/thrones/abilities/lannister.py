"""Named ability functions of the Lannister cards (docs/games/thrones-abilities.md, "Named
functions"): where a card's data cannot say what it does."""

from __future__ import annotations
