"""A minimal HTTP/1.1 keep-alive client on asyncio streams, for the benchmarks' load
generator (``bench/loadgen.py``) and the tests that need a server to see many requests at once.

A request is one ``write`` of prebuilt bytes; a response is its head (status,
``Content-Length``) and its body, parsed no further unless the caller asks. Per request it
costs a small part of what the server spends, where httpx costs more: 32 httpx clients in one
process keep the server waiting for them, not them for it, and never have many requests at
the server at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

KEEP_ALIVE_SECONDS = 4.0  # reconnect before uvicorn's 5 s keep-alive timeout closes the socket


class ConnectionLost(Exception):
    """The connection broke before a whole response arrived."""


@dataclass(frozen=True)
class Response:
    status: int
    body: bytes

    def json(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.body)
        return data


class HttpConnection:
    """One keep-alive HTTP/1.1 connection to ``host:port``, reopened when needed."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self._prefix = f"Host: {host}:{port}\r\n".encode()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._last_used = 0.0

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        await self.close()
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        return self._reader, self._writer

    async def close(self) -> None:
        writer, self._reader, self._writer = self._writer, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    async def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: Iterable[tuple[str, str]] = (),
    ) -> Response:
        """Send one request and read its whole response."""
        head = [f"{method} {path} HTTP/1.1\r\n".encode(), self._prefix]
        head.extend(f"{name}: {value}\r\n".encode() for name, value in headers)
        if body is not None:
            head.append(
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n".encode()
            )
        head.append(b"\r\n")
        if body is not None:
            head.append(body)
        now = time.monotonic()
        if self._writer is None or now - self._last_used > KEEP_ALIVE_SECONDS:
            reader, writer = await self._open()
        else:
            assert self._reader is not None
            reader, writer = self._reader, self._writer
        try:
            writer.write(b"".join(head))
            response, keep_alive = await _read_response(reader)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as e:
            await self.close()
            raise ConnectionLost(f"{method} {path}: {e!r}") from e
        if keep_alive:
            self._last_used = time.monotonic()
        else:
            await self.close()
        return response


async def _read_response(reader: asyncio.StreamReader) -> tuple[Response, bool]:
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    length = -1
    chunked = False
    keep_alive = True
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"transfer-encoding":
            chunked = b"chunked" in value.lower()
        elif name == b"connection":
            keep_alive = b"close" not in value.lower()
    if chunked:
        parts = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await reader.readuntil(b"\r\n")
                break
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)
        return Response(status, b"".join(parts)), keep_alive
    if length < 0:
        raise ValueError("a response without Content-Length or chunked encoding")
    return Response(status, await reader.readexactly(length)), keep_alive
