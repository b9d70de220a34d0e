"""The online game server: tables with seats for people and bots, a WebSocket protocol, stored
games, and fair races in real-time games.

* :mod:`.protocol`: every message (pydantic models) and the REST bodies; the JSON Schema.
* :mod:`.app`: the ASGI application (FastAPI): the lobby's REST API and the WebSocket endpoint.
* :mod:`.connections`: a client connection, what it may do and its outgoing queue.
* :mod:`.tables`: tables in play, their seats, bots and timeouts.
* :mod:`.lobby`: every table of the process: creating, finding, listing, expiring them.
* :mod:`.fairness`: clock estimates and how real-time races are settled.
* :mod:`.store`: the database (SQLAlchemy Core; SQLite by default, PostgreSQL as an option) and
  its Alembic migrations (``migrations/``).
* :mod:`.client`: a WebSocket client used by ``ratgames join``, ``ratgames bot``, the tests and
  the benchmark.
* :mod:`.cli`: the commands ``serve``, ``db upgrade``, ``export``, ``join`` and ``bot``.

``docs/protocol.md`` documents the protocol, ``docs/server.md`` the server.
"""
