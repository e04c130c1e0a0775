"""Players' names on the boards and lists (issue 55: "hinterdeskto p" on a phone): a name is
drawn on one line, whole where it fits and otherwise cut at its end with an ellipsis, never
broken inside a word; the table never makes the page scroll sideways; the link still reads the
whole name, and its title shows it. At 390 x 844, 768 x 1024 and 1280 x 800, on the boards of
a day, of the daily challenge and of a race, and on the lists of games being played."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator, Set
from dataclasses import dataclass

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.api.conformance import won_vectors
from tests.support.fairplay import boarded
from tests.web.conftest import DESKTOP, PHONE, Site, open_context
from tests.web.pages import assert_accessible, name_lines, play_through_api
from tests.web.service import store_game

pytestmark = pytest.mark.slow

TABLET = {"width": 768, "height": 1024}
# Names of one word and 24 characters (the longest there are): the one a phone's board was
# seen to break ("hinterdeskto" / "p..."), and one of the widest letters, too wide for a
# phone's name column; and a short one.
LONG_PREFIX = "hinterdesktopplayer"
WIDE_PREFIX = "W" * 19


@dataclass(frozen=True)
class Names:
    """Two accounts, each with a won game on today's board, a won daily challenge and a
    place in one finished race between them."""

    long: str
    wide: str
    short: str
    keys: dict[str, str]
    wins: dict[str, str]  # name -> game id
    daily: dict[str, str]  # name -> game id
    race: str


def race_out(base: str, key: str, race_id: str) -> None:
    """The racer of ``key`` plays their game of the race to its end, the first legal cell
    each time, once the countdown has dealt it."""
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=30) as api:
        until = time.monotonic() + 60
        while not (mine := api.get(f"/races/{race_id}").json().get("your_game")):
            assert time.monotonic() < until, "the racer's game was never dealt"
            time.sleep(0.2)
        game = api.get(f"/games/{mine['id']}").json()
        while game["status"] == "in_progress":
            answer = api.post(f"/games/{mine['id']}/placements", json=game["legal_placements"][0])
            assert answer.status_code == 201, answer.text
            game = answer.json()["game"]


@pytest.fixture(scope="module")
def names(site: Site) -> Names:
    base = site.server.base_url
    long = f"{LONG_PREFIX}{secrets.randbelow(10**5):05d}"
    wide = f"{WIDE_PREFIX}{secrets.randbelow(10**5):05d}"
    short = f"kim{secrets.randbelow(10**4):04d}"
    everyone = (long, wide, short)
    assert len(long) == len(wide) == 24
    keys, wins, daily = {}, {}, {}
    vector = won_vectors()[10]
    steps = [(s["row"], s["col"]) for s in vector["steps"]]
    with httpx.Client(base_url=base, timeout=30) as api:
        for name in everyone:
            answer = api.post("/players", json={"name": name})
            assert answer.status_code == 201, answer.text
            keys[name] = answer.json()["key"]
            auth = {"Authorization": f"Bearer {keys[name]}"}
            game_id, token = store_game(site.server.database_url, vector["deck"], name, True)
            play_through_api(api, game_id, token, steps)
            wins[name] = game_id
            created = api.post("/games", json={"challenge": "daily"}, headers=auth).json()
            play_through_api(api, created["id"], created["token"], list(site.line))
            daily[name] = created["id"]
        for name in everyone:
            boarded(api, wins[name])
            boarded(api, daily[name], {"Authorization": f"Bearer {keys[name]}"}, clear=True)
        # A race of the three: full with its third racer, it starts by itself.
        opened = api.post(
            "/races", json={"seats": 3}, headers={"Authorization": f"Bearer {keys[long]}"}
        )
        assert opened.status_code == 201, opened.text
        race = opened.json()["id"]
        for name in (wide, short):
            joined = api.post(
                f"/races/{race}/racers", json={}, headers={"Authorization": f"Bearer {keys[name]}"}
            )
            assert joined.status_code == 201, joined.text
    for name in everyone:
        race_out(base, keys[name], race)
    return Names(long, wide, short, keys, wins, daily, race)


# Each name a selector finds, as drawn: its characters' lines ("|" where a line ends), whether
# its box shows less than its text (cut, with an ellipsis), its title and its box's right edge.
_DRAWN = """(found) => found.map((name) => {
  const text = document.createRange();
  text.selectNodeContents(name);
  const box = name.getBoundingClientRect();
  const shown = document.createTreeWalker(name, NodeFilter.SHOW_TEXT).nextNode().parentElement;
  return {
    cut: text.getBoundingClientRect().width > box.width + 0.5,
    ellipsis: getComputedStyle(shown).textOverflow,
    title: name.title,
    right: box.right,
  };
})"""


def check_names(
    page: Page, rows: dict[str, str], where: str, whole: Set[str], cut: Set[str] = frozenset()
) -> None:
    """Each name of ``rows`` (name -> the selector of its row) is drawn on one line, cut only
    at its end (an ellipsis), its link named by the whole name and titled with it; those of
    ``whole`` shown whole, those of ``cut`` cut; and the page no wider than the screen."""
    viewport = page.viewport_size
    assert viewport is not None
    for name, row in rows.items():
        link = page.locator(row).get_by_role("link", name=name, exact=True)
        expect(link).to_have_count(1)
        expect(link).to_have_text(name)
        selector = f"{row} .name"
        [lines] = name_lines(page, selector)
        assert lines == name, f"{where}: {name} is drawn as {lines!r}"
        [drawn] = page.locator(selector).evaluate_all(_DRAWN)
        assert drawn["title"] == name, (where, drawn)
        assert drawn["right"] <= viewport["width"] + 0.5, (where, name, drawn)
        if drawn["cut"]:
            assert drawn["ellipsis"] == "ellipsis", (where, name, drawn)
        if name in whole:
            assert not drawn["cut"], f"{where}: {name} is cut where it fits"
        if name in cut:
            assert drawn["cut"], f"{where}: {name} is not cut: is the page too wide?"
    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth, window.innerWidth,"
        " ...[...document.querySelectorAll('table')].filter((t) => t.offsetParent)"
        ".map((t) => t.getBoundingClientRect().right)]"
    )
    assert all(width <= widths[1] + 0.5 for width in widths), f"{where}: too wide ({widths})"
    assert_accessible(page, where)


@pytest.fixture(params=[PHONE, TABLET, DESKTOP], ids=["390x844", "768x1024", "1280x800"])
def page(browser: Browser, site: Site, request: pytest.FixtureRequest) -> Iterator[Page]:
    viewport: dict[str, int] = request.param
    mobile = viewport == PHONE
    context, watcher = open_context(
        browser,
        site.server,
        viewport,
        reduced_motion="reduce",
        has_touch=mobile,
        is_mobile=mobile,
    )
    yield context.new_page()
    context.close()
    watcher.check()


def test_names_are_drawn_on_one_line_and_cut_rather_than_broken(
    page: Page, site: Site, names: Names
) -> None:
    base = site.server.base_url
    size = page.viewport_size
    # What fits: on a phone the short name only (the long ones are cut, the widest always);
    # on a tablet the long name of narrow letters too (the widest is a few letters too wide
    # beside a board's times); on a desktop every name.
    whole = {names.short}
    if size != PHONE:
        whole.add(names.long)
    if size == DESKTOP:
        whole.add(names.wide)
    cut = {names.wide} if size == PHONE else set()
    everyone = (names.long, names.wide, names.short)

    page.goto(base + "/#/leaderboard?period=day&limit=100")
    rows = {n: f'#leaderboard-body tr[data-game-id="{names.wins[n]}"]' for n in everyone}
    check_names(page, rows, "the day's board", whole, cut)

    page.goto(f"{base}/#/daily/{site.today.isoformat()}")
    rows = {n: f'#daily-board-body tr[data-game-id="{names.daily[n]}"]' for n in everyone}
    check_names(page, rows, "the daily board", whole, cut)

    page.goto(f"{base}/#/races/{names.race}")
    expect(page.locator("#race-ranking-body tr")).to_have_count(3)
    rows = {n: f'#race-ranking-body tr:has(a[href="#/players/{n}"])' for n in everyone}
    check_names(page, rows, "the race's ranking", whole, cut)

    # A game being played (started now: the latest on the lists).
    playing, _ = store_game(site.server.database_url, won_vectors()[0]["deck"], names.long, True)
    page.goto(base + "/#/live")
    rows = {names.long: f'#live-body tr[data-game-id="{playing}"]'}
    check_names(page, rows, "the games being played", whole)
    # On the home page's list a name has the list's whole width.
    page.goto(base + "/")
    rows = {names.long: f'#home-live-list li[data-game-id="{playing}"]'}
    check_names(page, rows, "the home page's games being played", {names.long})
