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


def test_the_frame_check_refuses_what_the_schema_does_not_allow() -> None:
    """The check every server test applies to the frames it receives (``wire.py``) names what
    is wrong: a missing field, an unknown one, a value of the wrong kind, an unknown type."""
    from .wire import frame_problem

    ack = {"type": "ack", "v": 1, "id": 3, "seq": 7}
    assert frame_problem(json.dumps(ack)) is None
    missing = frame_problem(json.dumps({"type": "ack", "v": 1, "id": 3}))
    assert missing is not None and "'seq' is a required property" in missing
    extra = frame_problem(json.dumps({**ack, "slap": 1}))
    assert extra is not None and "slap" in extra
    kind = frame_problem(json.dumps({**ack, "seq": "7"}))
    assert kind is not None and kind.startswith("seq:")
    code = frame_problem(
        json.dumps({"type": "error", "v": 1, "code": "oops", "message": "x", "ref": None})
    )
    assert code is not None and code.startswith("code:")
    assert frame_problem(json.dumps({"type": "nonsense", "v": 1})) is not None
    assert frame_problem("not json") is not None


def test_a_state_may_leave_out_events_kept_and_nothing_else() -> None:
    """The one field a server message may lack is the state's ``events_kept`` (sent only when
    the events list is abbreviated); every other field of every message is always there."""
    from .wire import frame_problem

    state = {
        "type": "state",
        "v": 1,
        "seq": 1,
        "seat": None,
        "observation": None,
        "view": {"events": []},
        "legal": [],
        "to_act": [0],
        "events": [],
        "time": 0.0,
        "outcome": None,
        "record_id": None,
        "race_version": None,
    }
    assert frame_problem(json.dumps(state)) is None
    assert frame_problem(json.dumps({**state, "events_kept": 4})) is None
    for field in state:
        if field != "type":
            short = {k: v for k, v in state.items() if k != field}
            assert frame_problem(json.dumps(short)) is not None, field


def test_the_browser_types_are_generated_from_the_schema() -> None:
    """web/src/protocol.ts is what web/scripts/protocol.mjs makes from the schema now (run
    ``npm run protocol`` in web/ after the models change)."""
    import shutil
    import subprocess

    web = DOCS.parent / "web"
    node = shutil.which("node")
    if node is None or not (web / "node_modules" / "json-schema-to-typescript").is_dir():
        pytest.skip("node and the web client's dev dependencies (npm ci in web/) are needed")
    done = subprocess.run(
        [node, "scripts/protocol.mjs", "--check"],
        cwd=web,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
