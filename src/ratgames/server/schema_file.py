"""Write the protocol's JSON Schema to ``docs/protocol.schema.json``:
``python -m ratgames.server.schema_file [PATH]``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .protocol import json_schema


def schema_text() -> str:
    """The schema as the file holds it (sorted keys, two-space indent, final newline)."""
    return json.dumps(json_schema(), indent=2, sort_keys=True) + "\n"


def main(argv: list[str]) -> None:
    """Write the schema to the path given, or to docs/protocol.schema.json."""
    path = Path(argv[0]) if argv else Path("docs/protocol.schema.json")
    path.write_text(schema_text(), encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
