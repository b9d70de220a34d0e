"""Search bots that work for every turn-based game through the public API."""

from .ismcts import IsmctsBot
from .pimc import PimcBot

__all__ = ["IsmctsBot", "PimcBot"]
