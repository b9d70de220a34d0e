"""The protocol's models, its published schema and the examples in docs/protocol.md."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from ratgames.server import protocol as p
from ratgames.server.schema_file import schema_text

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_schema_file_matches_the_models() -> None:
    """docs/protocol.schema.json is what the code publishes (regenerate it with
    ``python -m ratgames.server.schema_file``)."""
    assert (DOCS / "protocol.schema.json").read_text(encoding="utf-8") == schema_text()


def test_schema_names_every_message() -> None:
    schema = p.json_schema()
    client = json.dumps(schema["$defs"]["ClientMessage"])
    for name in ("Hello", "ActionMsg", "Pong", "ChatMsg", "Start", "SeatChange", "FillBots"):
        assert name in client
    server = json.dumps(schema["$defs"]["ServerMessage"])
    for name in ("Welcome", "StateMsg", "Ack", "ErrorMsg", "Ping", "ChatOut", "RematchOut"):
        assert name in server
    assert set(p.CLIENT_TYPES) == {
        m["properties"]["type"]["const"]
        for m in (
            schema["$defs"][r["$ref"].rsplit("/", 1)[1]]
            for r in schema["$defs"]["ClientMessage"]["oneOf"]
        )
    }


def _doc_examples() -> list[dict[str, object]]:
    text = (DOCS / "protocol.md").read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"```json\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            line = line.strip()
            if line.startswith('{"type"'):
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError:
                    continue  # examples with "..." placeholders
    return out


def test_documented_examples_are_valid_messages() -> None:
    examples = _doc_examples()
    assert len(examples) >= 12
    for message in examples:
        try:
            p.client_message.validate_python(message)
        except ValidationError:
            p.server_message.validate_python(message)


@pytest.mark.parametrize(
    "raw",
    [
        {"type": "action", "v": 2, "id": 1, "action": "draw"},
        {"type": "action", "v": 1, "id": -1, "action": "draw"},
        {"type": "action", "v": 1, "id": 1, "action": ""},
        {"type": "action", "v": 1, "id": 1, "action": "x" * 65},
        {"type": "action", "v": 1, "id": 1, "action": "draw", "seat": 2},
        {"type": "action", "v": 1, "id": "1", "action": "draw"},
        {"type": "chat", "v": 1, "text": "x" * 301},
        {"type": "hello", "v": 1},
        {"type": "pong", "v": 1, "id": 1, "client_time": float("nan")},
        {"type": "nope", "v": 1},
    ],
)
def test_malformed_client_messages_are_refused(raw: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        p.client_message.validate_python(raw)


@pytest.mark.parametrize("name", ["", "   ", "x" * 33, "a\x00b", "tab\u200bzero"])
def test_bad_display_names(name: str) -> None:
    with pytest.raises(ValidationError):
        p.JoinTable(name=name)


def test_display_names_are_tidied() -> None:
    assert p.JoinTable(name="  Ann   Lee ").name == "Ann Lee"
