"""ETags and conditional requests (RFC 9110): a game's ETag is derived from its version."""

from __future__ import annotations


def etag(version: int) -> str:
    """The strong entity tag of a game at ``version``, e.g. ``"v3"`` (quotes included)."""
    return f'"v{version}"'


def _tags(header: str) -> list[str]:
    return [tag.strip() for tag in header.split(",") if tag.strip()]


def if_match_allows(header: str | None, current: str) -> bool:
    """``If-Match``: strong comparison; ``*`` matches any existing game; no header allows."""
    if header is None:
        return True
    tags = _tags(header)
    return "*" in tags or current in tags


def if_none_match_hits(header: str | None, current: str) -> bool:
    """``If-None-Match``: weak comparison; True means answer ``304 Not Modified``."""
    if header is None:
        return False
    tags = _tags(header)
    return "*" in tags or current in {tag.removeprefix("W/") for tag in tags}
