"""The web client and the vendored documentation assets, shipped as package data.

``static/`` is the page at ``/`` (plain HTML, CSS and JavaScript modules, no build step; a
client of the public HTTP API only). ``vendor/`` holds Swagger UI and Redoc at pinned versions
(see ``vendor/README.md``), so ``/docs`` and ``/redoc`` work with no request leaving the origin.
:mod:`api.pages.routes` serves both.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
STATIC_DIR = HERE / "static"
VENDOR_DIR = HERE / "vendor"
SWAGGER_UI_DIR = "swagger-ui-dist-5.35.0"
REDOC_DIR = "redoc-2.5.4"
