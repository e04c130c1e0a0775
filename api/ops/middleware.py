"""ASGI middleware: body limits, JSON bodies only, HEAD wherever GET."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.core.problems import problem_response


class BodySizeLimit:
    """Refuse request bodies over ``max_bytes`` with 413, by header and while streaming."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    too_large = int(value) > self.max_bytes
                except ValueError:
                    too_large = False
                if too_large:
                    await self._refuse(scope, receive, send)
                    return
        received = 0
        refused = False
        response_started = False

        async def limited_receive() -> Message:
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    # Answer 413 now and tell the app the client went away.
                    refused = True
                    if not response_started:
                        await self._refuse(scope, receive, send)
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal response_started
            if refused:
                return  # the 413 has been sent; drop whatever the app answers
            if message["type"] == "http.response.start":
                response_started = True
            await send(message)

        await self.app(scope, limited_receive, guarded_send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = problem_response(
            413,
            "payload_too_large",
            "Payload too large",
            f"request bodies are limited to {self.max_bytes} bytes",
            instance=scope.get("path"),
        )
        await response(scope, receive, send)


_JSON_TYPES = (b"application/json", b"application/problem+json")


class JsonBodiesOnly:
    """Refuse a request body that is not JSON with 415 (FastAPI would read it as a string
    and answer a 422 about dictionaries). A request without a body passes."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", ()))
        media_type = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
        has_body = headers.get(b"content-length", b"0") != b"0" or b"transfer-encoding" in headers
        if has_body and media_type not in _JSON_TYPES and not media_type.endswith(b"+json"):
            response = problem_response(
                415,
                "unsupported_media_type",
                "Unsupported media type",
                "request bodies must be JSON (Content-Type: application/json)",
                instance=scope.get("path"),
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


# Set in a HEAD request's scope by HeadAsGet: a route whose answer never ends (an event
# stream) answers its headers alone instead.
HEAD_SCOPE_KEY = "foursquare.head"


class HeadAsGet:
    """Answer ``HEAD`` wherever ``GET`` is answered: the same status and headers, no body
    (RFC 9110 section 9.3.2). FastAPI routes declare GET alone."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET", HEAD_SCOPE_KEY: True}, receive, headers_only)
