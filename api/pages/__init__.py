"""The web client's pages and the API's docs, served by the app."""

from api.pages.routes import install_web

__all__ = ["install_web"]
