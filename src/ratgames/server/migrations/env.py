"""Alembic's environment: migrations run on the connection :func:`ratgames.server.store.upgrade`
hands over (``config.attributes["connection"]``), or on ``sqlalchemy.url``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from ratgames.server.store import metadata


def _run(connection: object) -> None:
    context.configure(connection=connection, target_metadata=metadata)  # type: ignore[arg-type]
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    """Run the migrations Alembic asks for."""
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = create_engine(str(config.get_main_option("sqlalchemy.url")))
    with engine.connect() as conn:
        _run(conn)


# Alembic runs this file as a script with its context set up; imported any other way (a
# doctest collector walking the package, say) it has nothing to do.
if hasattr(context, "config"):
    main()
