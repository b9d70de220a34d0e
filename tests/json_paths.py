"""Walking JSON documents (snapshots, observations) by paths, for tests that damage them."""

from __future__ import annotations

from typing import Any


def json_paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value inside ``node`` (keys of objects, indexes of lists), parents
    before their children; the root's own path ``()`` is not listed."""
    items: list[tuple[Any, Any]] = []
    if isinstance(node, dict):
        items = list(node.items())
    elif isinstance(node, list):
        items = list(enumerate(node))
    out: list[tuple[Any, ...]] = []
    for key, value in items:
        path = (*prefix, key)
        out.append(path)
        out += json_paths(value, path)
    return out


def json_at(node: Any, path: tuple[Any, ...]) -> Any:
    """The value at ``path`` inside ``node``."""
    for key in path:
        node = node[key]
    return node
