"""Every frame the server sends, held against the protocol's published JSON Schema.

``docs/protocol.schema.json`` (made from the models of ``ratgames.server.protocol``) says what a
``ServerMessage`` is.  The server builds its hot messages as plain dicts, so the tests check
what it really sends: :func:`check_frames` wraps the receiving end of every WebSocket client
connection (``websockets``' ``recv``, which ``TableClient`` reads through too: the end-to-end
tests, the remote bot and the terminal client, as well as the hostile tests' raw sockets) so
that each frame they receive is validated, and a test that saw a frame out of the schema
fails, naming the frame and what was wrong.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
from websockets.asyncio.client import ClientConnection

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json"


def server_validator() -> jsonschema.protocols.Validator:
    """A validator of one server message against the published schema's ``ServerMessage``."""
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    root = {**schema, "$ref": "#/$defs/ServerMessage"}
    cls = jsonschema.validators.validator_for(root)
    cls.check_schema(root)
    validator: jsonschema.protocols.Validator = cls(root)
    return validator


_VALIDATOR = server_validator()


def frame_problem(text: str) -> str | None:
    """What is wrong with a frame the server sent (None if it is a valid server message)."""
    try:
        message = json.loads(text)
    except ValueError as exc:
        return f"not JSON ({exc})"
    if isinstance(message, dict) and message.get("type") in _BRANCHES:
        # The branch of the union that the type names: its errors say what is wrong.
        errors = list(_BRANCHES[message["type"]].iter_errors(message))
    else:
        errors = list(_VALIDATOR.iter_errors(message))
    if not errors:
        return None
    best = jsonschema.exceptions.best_match(errors)
    where = "/".join(str(p) for p in best.absolute_path) or "(the message)"
    return f"{where}: {best.message}"


def _branches() -> dict[str, Any]:
    """A validator per server message type (the ``type`` of each branch of ServerMessage)."""
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    union = schema["$defs"]["ServerMessage"]
    out: dict[str, Any] = {}
    for kind, ref in union["discriminator"]["mapping"].items():
        root = {**schema, "$ref": ref}
        out[kind] = jsonschema.validators.validator_for(root)(root)
    return out


_BRANCHES = _branches()


class FrameLog:
    """The frames received during a test that the schema refuses."""

    def __init__(self) -> None:
        self.checked = 0
        self.bad: list[str] = []

    def check(self, raw: object) -> None:
        if isinstance(raw, bytes | bytearray | memoryview):
            raw = bytes(raw).decode("utf-8", "replace")
        if not isinstance(raw, str):
            return
        self.checked += 1
        problem = frame_problem(raw)
        if problem is not None:
            shown = raw if len(raw) <= 300 else raw[:297] + "..."
            self.bad.append(f"{problem}\n    frame: {shown}")

    def assert_clean(self) -> None:
        assert not self.bad, (
            f"{len(self.bad)} of {self.checked} frames the server sent are not what "
            f"{SCHEMA_FILE.name} says a ServerMessage is; the first:\n" + "\n".join(self.bad[:5])
        )


@contextlib.contextmanager
def check_frames() -> Iterator[FrameLog]:
    """Check every frame the test clients receive while the block runs (see the module)."""
    log = FrameLog()
    recv = ClientConnection.recv

    async def checked_recv(self: ClientConnection, *args: Any, **kw: Any) -> Any:
        raw = await recv(self, *args, **kw)
        log.check(raw)
        return raw

    ClientConnection.recv = checked_recv  # type: ignore[method-assign]
    try:
        yield log
    finally:
        ClientConnection.recv = recv  # type: ignore[method-assign]
