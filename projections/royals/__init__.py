"""Royals (slug `royals`): spec shared/games/royals.md; the reducer is `game.Royals`."""

from .game import Royals

__all__ = ["Royals"]
