"""Logging: one handler on stderr, JSON lines or plain text, for the service and uvicorn.

The standard ``logging`` module with two small formatters of our own (a JSON line is a few
lines of code; no dependency earns its place for it). A record's structured fields travel in
``extra={"fields": {...}}``; both formatters print them.

Exceptions are printed as their type and stack only, never their message: messages of
library exceptions may quote the input that caused them (Pydantic's ``input_value``, a
driver's statement parameters), and a request's token, key or deck must never reach a log.

uvicorn's own access log is switched off: it writes each request's whole URL, query string
included. api.ops.observer writes the request line instead.
"""

from __future__ import annotations

import json
import logging
import logging.config
import sys
import traceback
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

from api.ops.settings import OpsSettings

_ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None]


def _exception_text(exc_info: _ExcInfo | tuple[None, None, None]) -> str:
    exc_type, _, tb = exc_info
    if exc_type is None:
        return ""
    stack = "".join(traceback.format_tb(tb))
    return (
        f"Traceback (most recent call last):\n{stack}{exc_type.__module__}.{exc_type.__qualname__}"
        " (message withheld: it may quote request data)"
    )


def _timestamp(record: logging.LogRecord) -> str:
    return datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, pid, message, then the record's fields."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": _timestamp(record),
            "level": record.levelname.lower(),
            "logger": record.name,
            "pid": record.process,  # which worker, when several serve
            "message": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if fields:
            line.update(fields)
        if record.exc_info:
            line["exception"] = _exception_text(record.exc_info)
        return json.dumps(line, default=str, separators=(",", ":"))


class TextFormatter(logging.Formatter):
    """For a terminal: ``time level logger message key=value ...``."""

    def format(self, record: logging.LogRecord) -> str:
        text = f"{_timestamp(record)} {record.levelname:<7} {record.name}: {record.getMessage()}"
        fields = getattr(record, "fields", None)
        if fields:
            text += " " + " ".join(f"{key}={value}" for key, value in fields.items())
        if record.exc_info:
            text += "\n" + _exception_text(record.exc_info)
        return text


def formatter_class(log_format: str) -> type[logging.Formatter]:
    """JSON, text, or (``auto``) text when stderr is a terminal and JSON when it is not."""
    if log_format == "auto":
        log_format = "text" if sys.stderr.isatty() else "json"
    return JsonFormatter if log_format == "json" else TextFormatter


def logging_config(settings: OpsSettings) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` document (also what ``uvicorn.run(log_config=...)``
    takes, so that its supervisor process logs the same way)."""
    level = settings.log_level.upper()
    propagate = {"handlers": [], "propagate": True}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"default": {"()": formatter_class(settings.log_format)}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "default",
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["stderr"], "level": level},
        "loggers": {
            "uvicorn": {**propagate, "level": level},
            "uvicorn.error": {**propagate, "level": level},
            # Alembic says which plugins it loaded, at info, whenever it is imported.
            "alembic.runtime.plugins": {**propagate, "level": "WARNING"},
            # Replaced by api.ops.observer's request line (this one prints query strings).
            "uvicorn.access": {"handlers": [], "propagate": False, "level": "CRITICAL"},
        },
    }


def configure_logging(settings: OpsSettings) -> None:
    logging.config.dictConfig(logging_config(settings))
    # uvicorn sets the access logger's level again from its own options after loading the
    # config; disabled, it writes nothing whatever its level.
    logging.getLogger("uvicorn.access").disabled = True


# ---------------------------------------------------------------- refused below the app
# The access log's line for what the HTTP protocol refuses before the app sees it
# (api/ops/http_limits.py): the same logger and fields as api.ops.observer's request line, so
# that a refusal reads, and is searched for, like any other answer.

ACCESS_LOGGER = "foursquare.access"


def log_refusal(request_id: str, method: str, route: str, status: int, code: str) -> None:
    log = logging.getLogger(ACCESS_LOGGER)
    if log.isEnabledFor(logging.INFO):
        fields = {
            "request_id": request_id,
            "method": method,
            "route": route,
            "status": status,
            "code": code,
        }
        log.info("%s %s %s", method, route, status, extra={"fields": fields})
