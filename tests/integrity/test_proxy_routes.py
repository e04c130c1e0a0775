"""The shipped HAProxy configuration (deploy/haproxy.cfg) sends every event stream the service
serves to its backend for streams, and nothing else.

That backend is what a stream needs: ``option http-no-delay`` (without it the kernel holds an
event's small write for up to 200 ms, or until the next one), the replica with the fewest
streams, and a server timeout past the replicas' heartbeat. A stream left on the replicas'
backend still works, only late and cut at its 30 s timeout when idle, so no functional test
notices; this one reads the ``event_stream`` ACL's patterns from the file and holds them to
the OpenAPI document: every path with a ``text/event-stream`` answer matches, no other does.
(That a stream is really served there: test_proxy_events.py, test_proxy_races.py and
test_proxy_tournaments.py read the proxy's log.)"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

from api.app import create_app

CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "haproxy.cfg"
PARAMETER = re.compile(r"\{[^}]+\}")


def _stream_patterns() -> list[re.Pattern[str]]:
    acl = [
        line.split()
        for line in CONFIG.read_text().splitlines()
        if line.split()[:2] == ["acl", "event_stream"]
    ]
    assert len(acl) == 1, "deploy/haproxy.cfg declares the event_stream ACL once"
    words = acl[0]
    assert words[2] == "path_reg", words
    return [re.compile(pattern) for pattern in words[3:]]


def _paths() -> dict[str, bool]:
    """Each path of the OpenAPI document, a parameter filled in as a client would (an id),
    and whether it answers with an event stream."""
    document = create_app().openapi()
    paths = {}
    for template, operations in document["paths"].items():
        streams = any(
            "text/event-stream" in answer.get("content", {})
            for operation in operations.values()
            for answer in operation.get("responses", {}).values()
        )
        paths[PARAMETER.sub(str(uuid.uuid4()), template)] = streams
    return paths


def test_every_event_stream_goes_to_the_streams_backend_and_nothing_else() -> None:
    patterns = _stream_patterns()
    paths = _paths()
    assert sum(paths.values()) >= 5, "the OpenAPI document names the service's streams"

    def routed(path: str) -> bool:
        return any(pattern.search(path) for pattern in patterns)

    assert [path for path, streams in paths.items() if streams and not routed(path)] == []
    assert [path for path, streams in paths.items() if routed(path) and not streams] == []


def test_the_check_sees_a_stream_left_out() -> None:
    """The check above fails for a stream the ACL misses: without its own pattern, the
    tournaments' stream (a stream in the OpenAPI document) matches none of the others."""
    patterns = [p for p in _stream_patterns() if "tournaments" not in p.pattern]
    left_out = [
        path
        for path, streams in _paths().items()
        if streams and not any(pattern.search(path) for pattern in patterns)
    ]
    assert len(left_out) == 1 and left_out[0].startswith("/tournaments/"), left_out
