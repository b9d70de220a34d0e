"""The server's log lines: events with fields, as text or as JSON (``serve --log-format``).

:func:`event` logs one event that matters (a table created, a worker restarted) with a name and
fields.  As text it is an ordinary line (``table created: code=ABCD players=2 public=true``); with
:class:`JsonFormatter` every line (uvicorn's and the libraries' as well) is one JSON object:
``{"time": ..., "level": ..., "logger": ..., "event": ..., "message": ..., FIELDS}``.
"""

from __future__ import annotations

import datetime
import json
import logging
from typing import Any

LOG_FORMATS = ("text", "json")

RESERVED = frozenset(("time", "level", "logger", "event", "message", "error"))
"""Keys of a JSON line that fields cannot take (a field of that name gets a ``field_`` prefix)."""


def _words(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return json.dumps(text) if not text or any(c.isspace() or c in '"=' for c in text) else text


def event(
    logger: logging.Logger, name: str, message: str, level: int = logging.INFO, **fields: Any
) -> None:
    """Log the event ``name`` (``table_created``) with ``fields``: as text, ``message``
    followed by ``key=value`` pairs."""
    if not logger.isEnabledFor(level):
        return
    pairs = " ".join(f"{k}={_words(v)}" for k, v in fields.items() if v is not None)
    # The format is the same for every line of an event (limits.RepeatFilter goes by it).
    fmt = message.replace("%", "%%") + (": %s" if pairs else "")
    logger.log(level, fmt, *((pairs,) if pairs else ()), extra={"event": name, "fields": fields})


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601 with milliseconds), level, logger,
    event (the event's name; ``log`` for a line that is not an event), message, the event's
    fields, and ``error`` (the traceback) when an exception is logged."""

    def format(self, record: logging.LogRecord) -> str:
        fields: dict[str, Any] = getattr(record, "fields", None) or {}
        name = getattr(record, "event", None)
        message = record.getMessage()
        line: dict[str, Any] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": name or "log",
            "message": message,
        }
        for key, value in fields.items():
            line[f"field_{key}" if key in RESERVED else key] = value
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["error"] = record.exc_text
        return json.dumps(line, default=str, ensure_ascii=False)


def configure(level: int, fmt: str = "text") -> None:
    """Log to stderr at ``level``: as ``text`` (Python's default format) or ``json``.  Every
    logger (uvicorn's too, which :func:`uvicorn_log_config` sends here) shares the handler."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    handler = logging.StreamHandler()
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter(logging.BASIC_FORMAT))
    root.addHandler(handler)
    root.setLevel(level)


def uvicorn_log_config(fmt: str) -> dict[str, Any]:
    """uvicorn's ``log_config``: its own (coloured text) for ``text``; for ``json`` its
    loggers pass their lines on to the root logger's JSON handler."""
    if fmt != "json":
        from uvicorn.config import LOGGING_CONFIG

        return LOGGING_CONFIG
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "loggers": {
            name: {"handlers": [], "propagate": True}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
        },
    }
