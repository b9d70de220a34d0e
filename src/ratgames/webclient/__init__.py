"""The browser client, built from ``web/`` (TypeScript, Vite) into :data:`STATIC_DIR`.

The built files ship inside the package, so ``ratgames serve`` serves the client without
Node.js: :func:`mount` adds the page (at ``/`` and at the client's own paths such as ``/t/CODE``),
its assets, and the replay steps the client's replay page reads (:mod:`.replay`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The folder of the built client (``index.html`` and ``assets/``)."""

PAGE_PATHS = ("/", "/t/{code}", "/replays", "/replays/{record_id}")
"""The client's own paths: each answers with the page, which then shows what the path names."""

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The page's Content-Security-Policy: nothing is loaded from anywhere but this server."""


def built() -> bool:
    """True if the client is built (its page is in :data:`STATIC_DIR`)."""
    return (STATIC_DIR / "index.html").is_file()


def mount(app: FastAPI) -> None:
    """Serve the client from ``app``: the page, its assets and the replay steps."""
    from fastapi.responses import FileResponse, PlainTextResponse, Response
    from fastapi.staticfiles import StaticFiles
    from starlette.middleware.gzip import GZipMiddleware

    from .replay import router

    app.include_router(router)
    page = STATIC_DIR / "index.html"

    async def serve_page() -> Response:
        if not page.is_file():
            return PlainTextResponse(
                "The browser client is not built: run `npm ci && npm run build` in web/.",
                status_code=503,
            )
        return FileResponse(
            page,
            media_type="text/html",
            headers={"Cache-Control": "no-cache", "Content-Security-Policy": CSP},
        )

    for path in PAGE_PATHS:
        app.add_api_route(path, serve_page, methods=["GET"], include_in_schema=False)
    # The assets (about 90 kB, a fifth of it gzipped) go compressed to a browser that takes
    # gzip; only they: the API's answers and the WebSocket's messages are small.
    app.mount(
        "/assets",
        GZipMiddleware(StaticFiles(directory=STATIC_DIR / "assets", check_dir=False)),
        name="client-assets",
    )


def __getattr__(name: str) -> Any:  # pragma: no cover - a clear message for a typo
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
