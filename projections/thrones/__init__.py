"""A Game of Thrones: The Card Game, first edition (slug `thrones`); see game.py."""

from .game import Thrones

__all__ = ["Thrones"]
