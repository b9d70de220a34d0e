"""Search bots that work for every turn-based game through the public API."""

from .ismcts import IsmctsBot

__all__ = ["IsmctsBot"]
