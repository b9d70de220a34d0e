"""Search bots that work for every turn-based game through the public API.

Importing this package registers them (``ismcts``, ``pimc``); ratgames imports it as a plugin
(see :data:`ratgames.core.registry.PLUGIN_GROUP`)."""

from .ismcts import IsmctsBot
from .pimc import PimcBot

__all__ = ["IsmctsBot", "PimcBot"]
