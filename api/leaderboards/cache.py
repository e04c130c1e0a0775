"""Rendered leaderboard pages, kept while the leaderboard does not change."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable


class PageCache:
    """Rendered leaderboard pages, kept while the leaderboard does not change.

    A 100-entry page costs more to fetch and encode than anything else the service serves,
    and every player asks for the same few pages. The database numbers each state of
    ``scores`` (``leaderboard_revision``, bumped by triggers in the same transaction as any
    change), so a request reads that one number and, if a page was rendered at the same
    revision, sends it as it is. Revisions are read before the rows they are stored with, so
    a page is never older than the revision it is filed under. The cache holds one revision
    at a time and at most ``capacity`` pages of it.
    """

    def __init__(self, capacity: int = 256) -> None:
        self.capacity = capacity
        self._revision: int | None = None
        self._pages: OrderedDict[Hashable, bytes] = OrderedDict()

    def get(self, revision: int, key: Hashable) -> bytes | None:
        if revision != self._revision:
            return None
        body = self._pages.get(key)
        if body is not None:
            self._pages.move_to_end(key)
        return body

    def put(self, revision: int, key: Hashable, body: bytes) -> None:
        if self.capacity == 0:
            return
        if self._revision is not None and revision < self._revision:
            return  # rendered from an older state than the pages held now
        if revision != self._revision:
            self._pages.clear()
            self._revision = revision
        self._pages[key] = body
        self._pages.move_to_end(key)
        while len(self._pages) > self.capacity:
            self._pages.popitem(last=False)

    def __len__(self) -> int:
        return len(self._pages)
