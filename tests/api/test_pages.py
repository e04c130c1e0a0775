"""The cache of rendered leaderboard pages (api.pages), on its own."""

from __future__ import annotations

from api.leaderboards.cache import PageCache


def test_a_page_is_found_only_at_the_revision_it_was_stored_under() -> None:
    cache = PageCache()
    cache.put(3, "first", b"page at 3")
    assert cache.get(3, "first") == b"page at 3"
    assert cache.get(3, "other") is None
    assert cache.get(4, "first") is None


def test_a_newer_revision_drops_every_older_page() -> None:
    cache = PageCache()
    cache.put(3, "first", b"a")
    cache.put(3, "second", b"b")
    cache.put(4, "first", b"c")
    assert len(cache) == 1
    assert cache.get(4, "first") == b"c"
    assert cache.get(3, "second") is None


def test_a_page_rendered_from_an_older_revision_is_not_kept() -> None:
    cache = PageCache()
    cache.put(5, "first", b"new")
    cache.put(4, "second", b"old")  # a slow request that read revision 4 before the change
    assert cache.get(4, "second") is None
    assert cache.get(5, "first") == b"new"


def test_the_least_recently_used_page_goes_first() -> None:
    cache = PageCache(capacity=2)
    cache.put(1, "a", b"a")
    cache.put(1, "b", b"b")
    assert cache.get(1, "a") == b"a"  # "b" is now the least recently used
    cache.put(1, "c", b"c")
    assert cache.get(1, "b") is None
    assert cache.get(1, "a") == b"a"
    assert cache.get(1, "c") == b"c"


def test_a_cache_of_no_pages_keeps_nothing() -> None:
    cache = PageCache(capacity=0)
    cache.put(1, "a", b"a")
    assert cache.get(1, "a") is None
    assert len(cache) == 0
