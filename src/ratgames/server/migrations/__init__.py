"""Alembic migrations of the server's database (run by :func:`ratgames.server.store.upgrade`)."""
