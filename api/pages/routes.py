"""The web client at ``/`` and the API documentation pages, all served from the package.

Nothing here talks to the database: the page is a client of the public HTTP API like any
other. Every file comes from the :mod:`web` package (the client in ``web/static``, Swagger UI
and Redoc in ``web/vendor``), so no request leaves the origin, and each page carries a
``Content-Security-Policy`` that says so.
"""

from __future__ import annotations

import base64
import hashlib
import re

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

import web

STATIC_PATH = "/static"
VENDOR_PATH = "/vendor"

# The client: its own files only; no inline script or style (it styles through classes and
# the CSSOM, which a policy does not restrict); the API is same-origin.
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
# Redoc injects its styles as <style> elements (styled-components) and runs its search in a
# worker made from a blob; scripts still come only from the origin.
REDOC_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

_COMMON_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)


def swagger_policy(html: str) -> str:
    """The policy of the Swagger UI page: its one inline script (FastAPI's initialiser, which
    holds the configuration) allowed by its hash, no other inline script."""
    digests = (hashlib.sha256(body.encode()).digest() for body in _INLINE_SCRIPT.findall(html))
    hashes = " ".join(f"'sha256-{base64.b64encode(digest).decode()}'" for digest in digests)
    return (
        f"default-src 'self'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    )


class _StaticFiles(StaticFiles):
    """Static files with the page's headers; revalidated on each use (ETag), so a new
    release is picked up on the next load."""

    def __init__(self, directory: str, headers: dict[str, str]) -> None:
        super().__init__(directory=directory)
        self._headers = headers

    async def get_response(self, path: str, scope: Scope) -> Response:
        if scope["method"] not in ("GET", "HEAD"):
            # What does not exist is 404 whatever the method (Starlette answers 405 before it
            # looks): the file is looked up as for HEAD, and only one that exists is 405.
            await super().get_response(path, {**scope, "method": "HEAD"})
            raise HTTPException(status_code=405, headers={"Allow": "GET, HEAD"})
        response = await super().get_response(path, scope)
        response.headers.update(self._headers)
        return response


def install_web(app: FastAPI) -> None:
    """Serve the web client at ``/`` (files under ``/static``) and the documentation pages at
    ``/docs`` and ``/redoc`` (Swagger UI and Redoc under ``/vendor``). The app must be made
    with ``docs_url=None, redoc_url=None``."""
    page_headers = {
        **_COMMON_HEADERS,
        "Content-Security-Policy": PAGE_POLICY,
        "Cache-Control": "no-cache",
    }
    app.mount(
        STATIC_PATH,
        _StaticFiles(str(web.STATIC_DIR), page_headers),
        name="web-static",
    )
    app.mount(
        VENDOR_PATH,
        _StaticFiles(str(web.VENDOR_DIR), {**page_headers, "Cache-Control": "max-age=86400"}),
        name="web-vendor",
    )
    index = web.STATIC_DIR / "index.html"
    openapi_url = app.openapi_url or "/openapi.json"
    swagger = f"{VENDOR_PATH}/{web.SWAGGER_UI_DIR}"
    redoc = f"{VENDOR_PATH}/{web.REDOC_DIR}"
    favicon = f"{swagger}/favicon-32x32.png"

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def web_client() -> FileResponse:
        return FileResponse(index, media_type="text/html", headers=page_headers)

    # Both pages are fixed once the app is built: render them once.
    swagger_html = bytes(
        get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{app.title} - Swagger UI",
            swagger_js_url=f"{swagger}/swagger-ui-bundle.js",
            swagger_css_url=f"{swagger}/swagger-ui.css",
            swagger_favicon_url=favicon,
        ).body
    )
    swagger_headers = {
        **_COMMON_HEADERS,
        "Content-Security-Policy": swagger_policy(swagger_html.decode()),
    }
    redoc_html = bytes(
        get_redoc_html(
            openapi_url=openapi_url,
            title=f"{app.title} - ReDoc",
            redoc_js_url=f"{redoc}/redoc.standalone.js",
            redoc_favicon_url=favicon,
            with_google_fonts=False,
        ).body
    )
    redoc_headers = {**_COMMON_HEADERS, "Content-Security-Policy": REDOC_POLICY}

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return HTMLResponse(swagger_html, headers=swagger_headers)

    @app.get("/redoc", include_in_schema=False)
    async def redoc_ui() -> HTMLResponse:
        return HTMLResponse(redoc_html, headers=redoc_headers)
