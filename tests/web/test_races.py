"""Races in the browser (`#/races`): two browser racers and the computer race one deal from
the lobby (its link copied, joined by the other) through the countdown, each at their own table
beside the others' progress, to the ranking and a rematch that reaches every page on the race's
stream (an onlooker's too), never by reading the race again; four browser racers see each
other's progress move; the computer's level is chosen and shown; a racer leaves the lobby and
the others see it go, down to a closed race; a racer who has finished is told how many racers
it waits for; on a phone your card and counts stay on the screen through a whole race; the
lobby, the countdown and the ranking fit a phone and are axe-clean. Every page is watched for
console errors, failed requests and error answers (conftest.Watcher).

The races run on a server of their own with a short countdown and a fast computer (its
settings, docs/operations.md), so that a race takes seconds; the browser racers play their
first legal cell each time, which ends a game (won or lost) in a few dozen clicks at most, but
for the phone's whole race, which follows a line found on the race's deal (its server's secret
is known) that lasts past sixteen placements."""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Request, expect

from engine.game import Game
from testkit import databases
from testkit.server import Server, running_server
from tests.web.conftest import DESKTOP, LAPTOP, PHONE, SERVER_ENV, Watcher, open_context
from tests.web.pages import assert_accessible, assert_fits_and_reachable
from tests.web.service import race_deck

pytestmark = pytest.mark.slow

SECRET = "web race tests"  # the server's shared deals' secret: a race's deal is known here
RACE_ENV = {
    **SERVER_ENV,
    # Long enough to be seen (and checked) on the page, short enough not to wait for.
    "FOURSQUARE_RACE_COUNTDOWN_SECONDS": "2",
    "FOURSQUARE_RACE_COMPUTER_SECONDS": "0.1",
    "FOURSQUARE_CHALLENGE_SECRET": SECRET,
}
OUTCOMES = re.compile(r"^(won|lost)$")
CLOSED = "This race is closed: everybody left its lobby."


@pytest.fixture(scope="module")
def race_server(
    _templates: databases.Templates, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("races")
    with (
        _templates.database("sqlite", folder) as url,
        running_server(url, extra_env=RACE_ENV) as server,
    ):
        yield server


@pytest.fixture
def racers(browser: Browser, race_server: Server) -> Iterator[Any]:
    """Makes racers' pages (each its own browser context: its own storage), all watched."""
    opened: list[tuple[BrowserContext, Watcher]] = []

    def make(viewport: dict[str, int], **options: Any) -> Page:
        context, watcher = open_context(
            browser,
            race_server,
            viewport,
            reduced_motion="reduce",
            permissions=["clipboard-read", "clipboard-write"],
            **options,
        )
        opened.append((context, watcher))
        return context.new_page()

    yield make
    for context, _ in opened:
        context.close()
    for _, watcher in opened:
        watcher.check()


def racer_line(page: Page, number: int) -> Any:
    return page.locator(f'#race-racers li[data-racer="{number}"]')


def open_race(page: Page, base_url: str, name: str, computer: bool) -> str:
    """From the home page's link, open a race as guest ``name`` (with the computer at the
    level the form offers first: best); returns its id."""
    page.goto(base_url + "/")
    page.get_by_role("link", name="open a race").click()
    expect(page).to_have_title("Races · Foursquare")
    form = page.get_by_role("form", name="Open a race")
    form.get_by_label("Name in the race (optional)").fill(name)
    if computer:
        form.get_by_label("Race the computer").check()
        expect(form.get_by_label("Best", exact=True)).to_be_checked()
    with page.expect_response(
        lambda r: r.url.endswith("/races") and r.request.method == "POST"
    ) as answer:
        form.get_by_role("button", name="Open a race").click()
    race_id: str = answer.value.json()["id"]
    expect(page).to_have_url(f"{base_url}/#/races/{race_id}")
    expect(page.get_by_role("heading", level=2)).to_have_text("Race lobby")
    return race_id


def join_race(page: Page, link: str, name: str) -> int:
    """Open the race's link and join it as guest ``name``; returns the racer's number."""
    page.goto(link)
    form = page.get_by_role("form", name="Join the race")
    form.get_by_label("Name in the race").fill(name)
    with page.expect_response(lambda r: r.url.endswith("/racers")) as answer:
        form.get_by_role("button", name="Join the race").click()
    you: int = answer.value.json()["you"]
    expect(form).to_be_hidden()
    expect(racer_line(page, you)).to_contain_text(name)
    return you


def place_first(page: Page) -> dict[str, Any]:
    """Place the card on the first legal cell of the racer's own table; returns the game."""
    with page.expect_response(
        lambda r: r.url.endswith("/placements") and r.request.method == "POST"
    ) as answer:
        page.locator("#race-board button.place").first.click()
    assert answer.value.status == 201
    game: dict[str, Any] = answer.value.json()["game"]
    expect(page.locator("#race-own")).to_have_attribute("data-version", str(game["version"]))
    return game


def play_out(page: Page) -> dict[str, Any]:
    """Play the racer's game to its end, the first legal cell each time."""
    game: dict[str, Any] = {}
    for _ in range(40):
        if page.locator("#race-own").get_attribute("data-status") != "in_progress":
            break
        game = place_first(page)
    expect(page.locator("#race-own")).to_have_attribute("data-status", OUTCOMES)
    # Over: either the race too, or the others still play.
    ended = re.compile(r"^(Your game is over: |You finished — waiting for )")
    expect(page.locator("#race-own-end")).to_have_text(ended)
    return game


def wait_for_table(page: Page) -> None:
    """The countdown is over and the racer's own table is dealt."""
    expect(page.locator("#race-own")).to_have_attribute("data-status", "in_progress")
    expect(page.locator("#race-board button.place").first).to_be_visible()


def stored_token(page: Page, race_id: str) -> bool:
    """Whether the page keeps a guest racer's token for the race."""
    return bool(
        page.evaluate(
            "(id) => (JSON.parse(localStorage.getItem('foursquare.races') || '[]'))"
            ".some((entry) => entry.race === id)",
            race_id,
        )
    )


def guest_joins(base: str, race_id: str, name: str) -> str:
    """A racer who races through the API only joins the race; returns their token."""
    answer = httpx.post(f"{base}/races/{race_id}/racers", json={"player": name})
    assert answer.status_code == 201, answer.text
    token: str = answer.json()["racer_token"]
    return token


def api_plays_out(base: str, race_id: str, token: str) -> str:
    """That racer plays their whole game, the first legal cell each time, once it is dealt;
    returns how it ended."""
    auth = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=base, headers=auth, timeout=30) as api:
        mine = None
        for _ in range(200):  # the deal comes at the countdown's end: 2 s, a 20 s deadline
            mine = api.get(f"/races/{race_id}").json()["your_game"]
            if mine:
                break
            time.sleep(0.1)
        assert mine, "the racer's game was never dealt"
        game = api.get(f"/games/{mine['id']}").json()
        while game["status"] == "in_progress":
            cell = game["legal_placements"][0]
            answer = api.post(f"/games/{mine['id']}/placements", json=cell)
            assert answer.status_code == 201, answer.text
            game = answer.json()["game"]
    status: str = game["status"]
    return status


def long_line(deck: list[str], length: int) -> list[tuple[int, int]]:
    """Placements of the deal that keep its game going past ``length`` and span four rows
    by then (what crowds a phone's screen): a search of the whole deal, fewest face-down
    piles first."""
    budget = [20_000]

    def search(game: Game, line: list[tuple[int, int]]) -> list[tuple[int, int]] | None:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if len(line) == length:
            rows = {pile.position.row for pile in game.piles}
            return line if max(rows) - min(rows) == 3 else None
        options = []
        for position in game.legal_placements():
            after = game.copy()
            after.place(position)
            if not after.is_over:  # neither lost nor won before ``length``
                options.append((after.face_down_count, (position.row, position.col), after))
        for _, cell, after in sorted(options, key=lambda option: option[0]):
            found = search(after, [*line, cell])
            if found:
                return found
        return None

    found = search(Game(deck), [])
    assert found, f"no line of {length} placements spanning four rows in the deal"
    return found


def place_at(page: Page, row: int, col: int) -> dict[str, Any]:
    """Place the card on the racer's own table at (row, col) (the API's coordinates)."""
    cell = page.locator(f'#race-board .cell[data-row="{row}"][data-col="{col}"] button.place')
    with page.expect_response(
        lambda r: r.url.endswith("/placements") and r.request.method == "POST"
    ) as answer:
        cell.click()
    assert answer.value.status == 201
    game: dict[str, Any] = answer.value.json()["game"]
    expect(page.locator("#race-own")).to_have_attribute("data-version", str(game["version"]))
    return game


def assert_on_screen(page: Page, selector: str, where: str) -> None:
    """The element's box lies inside the viewport as the page is scrolled now."""
    box = page.locator(selector).bounding_box()
    viewport = page.viewport_size
    assert box is not None and viewport is not None, (where, selector)
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], (where, selector, box)
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], (where, selector, box)


def test_two_browsers_and_the_computer_race_to_a_ranking_and_a_rematch(
    racers: Any, race_server: Server
) -> None:
    base = race_server.base_url
    ana, bob = f"ana-{secrets.token_hex(3)}", f"bob-{secrets.token_hex(3)}"
    first = racers(DESKTOP)
    second = racers(LAPTOP)
    # Every GET of the first page, and whether the ranking was shown when it was sent.
    reads: list[tuple[str, bool]] = []
    ranked_yet = [False]

    def on_request(request: Request) -> None:
        if request.method == "GET":
            reads.append((request.url, ranked_yet[0]))

    first.on("request", on_request)

    race_id = open_race(first, base, ana, computer=True)
    # The lobby: its link, copied; the opener and the computer in; Start (two racers are in).
    link = f"{base}/#/races/{race_id}"
    expect(first.get_by_label("Link to this race")).to_have_value(link)
    first.get_by_role("button", name="Copy the link").click()
    expect(first.locator("#race-copy-status")).to_contain_text("The link was copied")
    assert first.evaluate("() => navigator.clipboard.readText()") == link
    expect(racer_line(first, 1)).to_contain_text(ana)
    # The computer is named as such, with its level (best, the form's first choice).
    expect(racer_line(first, 2).locator(".racer-name")).to_have_text(
        re.compile(r"^The computer\s+computer\s·\sbest, level best$")
    )
    assert httpx.get(f"{base}/races/{race_id}").json()["level"] == "best"
    expect(first.get_by_role("form", name="Join the race")).to_be_hidden()
    expect(first.get_by_role("button", name="Leave the race")).to_be_visible()
    assert_accessible(first, "race lobby, the opener")

    # The friend opens the link: no Start button for them, nor Leave; they join under their
    # name, and the opener's lobby shows them as they come (the race's stream).
    second.goto(link)
    expect(second.get_by_role("button", name="Start the race")).to_be_hidden()
    expect(second.get_by_role("button", name="Leave the race")).to_be_hidden()
    assert_accessible(second, "race lobby, a visitor")
    assert join_race(second, link, bob) == 3
    expect(racer_line(first, 3)).to_contain_text(bob)
    expect(first.locator("#race-racers-heading")).to_have_text("Racers (3 of 4)")

    # The opener starts it: a countdown on both pages, then each racer's own table.
    first.get_by_role("button", name="Start the race").click()
    for page in (first, second):
        expect(page.locator("#race-countdown")).to_be_visible()
        expect(page.locator("#race-state")).to_contain_text("The race starts in")
    for page in (first, second):
        wait_for_table(page)
        expect(page.get_by_role("heading", level=2)).to_have_text("Race")

    # Each sees the others' progress move: the computer's on its own, the friend's as they
    # place.
    expect(racer_line(first, 2)).not_to_have_attribute("data-placements", "0")
    for count in (1, 2, 3):
        place_first(first)
        expect(racer_line(second, 1)).to_have_attribute("data-placements", str(count))
    expect(racer_line(second, 1)).to_contain_text("3 cards placed")
    # The guest racer's credential survives a reload: the same table comes back, playable.
    place_first(second)
    version = second.locator("#race-own").get_attribute("data-version")
    second.reload()
    expect(second.locator("#race-own")).to_have_attribute("data-version", str(version))
    wait_for_table(second)
    expect(racer_line(second, 1)).to_have_attribute("data-placements", "3")
    assert_accessible(second, "race running, the friend's table")

    # Both play to the end; each sees the other's end, and then the ranking.
    second_game = play_out(second)
    expect(racer_line(first, 3)).to_have_attribute("data-state", second_game["status"])
    # Said to screen readers as well, in the race's log.
    expect(first.locator("#race-news")).to_contain_text(f"{bob} finished: {second_game['status']}")
    play_out(first)
    for page in (first, second):
        result = page.get_by_role("region", name=re.compile("won the race|You finished"))
        expect(result).to_be_visible()
    ranked_yet[0] = True
    race = httpx.get(f"{base}/races/{race_id}").json()
    assert race["status"] == "finished"
    ranked = [
        re.compile(r"^The computer\s+computer\s·\sbest, level best$")
        if r["computer"]
        else r["name"]
        for r in race["racers"]
    ]
    for page in (first, second):
        rows = page.locator("#race-ranking-body tr")
        expect(rows).to_have_count(3)
        for i, name in enumerate(ranked):
            expect(rows.nth(i).locator("td").nth(1)).to_have_text(name)
        expect(rows.first.locator("td").first).to_have_text("1st")
        # Each racer's replay, public now that the race is over.
        for i, racer in enumerate(race["racers"]):
            replay = rows.nth(i).get_by_role("link", name=re.compile("^Replay "))
            expect(replay).to_have_attribute("href", f"#/games/{racer['game_id']}")
    mine = next(r for r in race["racers"] if r["name"] == ana)
    places = {1: "You won the race!", 2: "You finished 2nd", 3: "You finished 3rd"}
    expect(first.locator("#race-result-title")).to_have_text(places[mine["rank"]])
    assert_accessible(first, "race result")

    # An onlooker opens the finished race (on a phone): the ranking, no rematch to ask for;
    # its stream replays the race to its result and waits.
    onlooker = racers(PHONE, has_touch=True, is_mobile=True)
    onlooker.goto(link)
    expect(onlooker.locator("#race-ranking-body tr")).to_have_count(3)
    expect(onlooker.get_by_role("heading", level=2)).to_have_text("Race result")
    expect(onlooker.get_by_role("button", name="Rematch")).to_be_hidden()
    # The table says the rule it is in: a win before every loss, the longest loss first.
    rule = re.compile(r"^The ranking: a win before every loss, .*among\s+losses, the more cards")
    expect(onlooker.get_by_role("table", name=rule)).to_be_visible()
    assert_fits_and_reachable(onlooker, "race result, an onlooker on a phone")
    assert_accessible(onlooker, "race result, an onlooker on a phone")

    # The friend asks for the rematch and is in its lobby; the race's stream tells the
    # others at once, whose button then takes the opener to the same race (where they start
    # it again) and the onlooker to watch it.
    with second.expect_response(lambda r: r.url.endswith("/rematch")) as answer:
        second.get_by_role("button", name="Rematch").click()
    assert answer.value.status == 201
    rematch = answer.value.json()["id"]
    expect(second).to_have_url(f"{base}/#/races/{rematch}")
    expect(second.get_by_role("heading", level=2)).to_have_text("Race lobby")
    for page in (first, onlooker):
        expect(page.get_by_role("button", name="Go to the rematch")).to_be_visible()
    # Nothing asked the race for it: the first page read no race after its ranking came.
    race_url = f"{base}/races/{race_id}"
    assert [url for url, ranked_then in reads if ranked_then and url == race_url] == []
    assert any(url == race_url for url, _ in reads)  # (it read the race, before)
    assert_accessible(onlooker, "race result with its rematch, an onlooker on a phone")
    with first.expect_response(lambda r: r.url.endswith("/rematch")) as answer:
        first.get_by_role("button", name="Go to the rematch").click()
    assert answer.value.status == 200 and answer.value.json()["id"] == rematch
    expect(first).to_have_url(f"{base}/#/races/{rematch}")
    for page in (first, second):
        expect(page.locator("#race-racers li")).to_have_count(3)
    expect(first.get_by_role("button", name="Start the race")).to_be_enabled()
    expect(second.get_by_role("form", name="Join the race")).to_be_hidden()
    onlooker.get_by_role("button", name="Go to the rematch").click()
    expect(onlooker).to_have_url(f"{base}/#/races/{rematch}")
    expect(onlooker.get_by_role("form", name="Join the race")).to_be_visible()
    expect(onlooker.locator("#race-racers li")).to_have_count(3)
    # The computer's game, public now, is the computer's: labelled, never a person's name.
    computer = next(r for r in race["racers"] if r["computer"])
    onlooker.goto(f"{base}/#/games/{computer['game_id']}")
    heading = onlooker.get_by_role("heading", level=2)
    expect(heading).to_have_text(re.compile(r"^Game of the computer\s+computer$"))
    expect(onlooker.locator("#replay-summary")).to_contain_text("The computer: ")


def test_four_browser_racers_see_each_others_progress(racers: Any, race_server: Server) -> None:
    base = race_server.base_url
    names = [f"r{n}-{secrets.token_hex(3)}" for n in range(1, 5)]
    pages = [racers(DESKTOP) for _ in names]
    race_id = open_race(pages[0], base, names[0], computer=False)
    link = f"{base}/#/races/{race_id}"
    for number, (page, name) in enumerate(zip(pages[1:], names[1:], strict=True), start=2):
        assert join_race(page, link, name) == number
    # The fourth filled the race: it starts by itself, on every page.
    for page in pages:
        wait_for_table(page)
    for page in pages:
        place_first(page)
    place_first(pages[2])
    for page in pages:
        for number in (1, 2, 4):
            expect(racer_line(page, number)).to_have_attribute("data-placements", "1")
        expect(racer_line(page, 3)).to_have_attribute("data-placements", "2")
        expect(page.locator("#race-racers progress")).to_have_count(4)
    bars = (
        pages[0]
        .locator("#race-racers progress")
        .evaluate_all("bars => bars.map((bar) => bar.value)")
    )
    assert bars == [1, 1, 2, 1]


def test_an_account_races_the_computer_on_a_phone_and_its_page_counts_the_race(
    racers: Any, race_server: Server
) -> None:
    """The computer's level chosen in the form is the race's; the card to place, the stock
    and the face-down count stay on the phone's screen through a whole race."""
    base = race_server.base_url
    name = f"Pho-{secrets.token_hex(3)}"
    key = httpx.post(f"{base}/players", json={"name": name}).json()["key"]
    page = racers(PHONE, has_touch=True, is_mobile=True)
    page.goto(base + "/#/races")
    page.evaluate(
        "([name, key]) => localStorage.setItem('foursquare.account', JSON.stringify({name, key}))",
        [name, key],
    )
    page.reload()
    form = page.get_by_role("form", name="Open a race")
    expect(form).to_contain_text(f"Racing as {name}.")
    expect(form.get_by_label("Name in the race (optional)")).to_be_hidden()
    # The level is chosen once the computer races.
    levels = form.get_by_role("group", name="The computer's level")
    for level in ("Beginner", "Good", "Best"):
        expect(levels.get_by_label(level, exact=True)).to_be_disabled()
    expect(levels).to_contain_text("wins about 5 deals in 6")
    form.get_by_label("Race the computer").check()
    levels.get_by_label("Good", exact=True).check()
    assert_fits_and_reachable(page, "race opening form, phone")
    assert_accessible(page, "race opening form with the computer's level, phone")
    with page.expect_response(lambda r: r.url.endswith("/races")) as answer:
        form.get_by_role("button", name="Open a race").click()
    sent = answer.value.request.post_data_json
    assert sent["computer"] is True and sent["level"] == "good"
    opened = answer.value.json()
    assert opened["racer_token"] is None and opened["racers"][0]["name"] == name
    assert opened["level"] == "good"
    assert httpx.get(f"{base}/races/{opened['id']}").json()["level"] == "good"
    expect(racer_line(page, 2).locator(".racer-name")).to_have_text(
        re.compile(r"^The computer\s+computer\s·\sgood, level good$")
    )
    expect(page.get_by_role("button", name="Start the race")).to_be_enabled()
    # The menu keeps to one line with its Races link.
    tops = page.locator("nav[aria-label=Main] li").evaluate_all(
        "items => items.map((item) => Math.round(item.getBoundingClientRect().top))"
    )
    assert len(set(tops)) == 1, tops
    expect(page.get_by_role("link", name="Races")).to_have_attribute("aria-current", "page")
    assert_fits_and_reachable(page, "race lobby, phone")
    assert_accessible(page, "race lobby, phone")

    page.get_by_role("button", name="Start the race").click()
    expect(page.locator("#race-countdown")).to_be_visible()
    assert_fits_and_reachable(page, "race countdown, phone")
    assert_accessible(page, "race countdown, phone")
    wait_for_table(page)
    assert_fits_and_reachable(page, "race running, phone")
    # A line of the deal that lasts past sixteen placements, its grid four rows tall by then:
    # after each placement (the page scrolled as a player's taps scroll it, no further), the
    # card to place, the stock and the face-down count are on the screen.
    line = long_line(race_deck(SECRET, opened["id"]), 17)
    for number, (row, col) in enumerate(line, start=1):
        game = place_at(page, row, col)
        assert game["placements_count"] == number
        if number >= 12:
            for box in ("#race-current-card", "#race-stock", "#race-face-down"):
                assert_on_screen(page, box, f"after placement {number}")
    assert int(page.locator("#race-board").get_attribute("aria-rowcount") or 0) >= 4
    card = page.locator("#race-current-card")
    expect(card).to_have_attribute("aria-label", re.compile("^Your card: "))
    assert_fits_and_reachable(page, "race running, a tall grid, phone")
    play_out(page)
    expect(page.locator("#race-result-title")).to_be_visible()
    expect(page.locator("#race-ranking-body tr")).to_have_count(2)
    assert_fits_and_reachable(page, "race result, phone")
    assert_accessible(page, "race result, phone")

    # The account's page counts the race, and lists it with its place.
    figures = httpx.get(f"{base}/players/{name}/races").json()
    assert figures["races_played"] == 1
    page.locator("#race-ranking-body").get_by_role("link", name=name).click()
    expect(page.locator("#stat-races")).to_have_text("1")
    expect(page.locator("#stat-races-won")).to_have_text(str(figures["races_won"]))
    row = page.locator(f'#player-races-body tr[data-race-id="{opened["id"]}"]')
    expect(row.locator("td").nth(1)).to_have_text("2")
    expect(row.locator("td").nth(2)).to_have_text(f"{figures['races'][0]['rank']} of 2")
    assert_accessible(page, "player page with races, phone")
    row.get_by_role("link").click()
    expect(page.locator("#race-result-title")).to_be_visible()


def test_racers_leave_the_lobby_and_the_others_see_them_go(
    racers: Any, race_server: Server
) -> None:
    """The opener leaves (the next person to have joined may start the race now), comes back
    as a new racer, and both leave: the race is closed, and every page says so."""
    base = race_server.base_url
    ana, bob = f"ana-{secrets.token_hex(3)}", f"bob-{secrets.token_hex(3)}"
    first = racers(DESKTOP)
    second = racers(PHONE, has_touch=True, is_mobile=True)
    race_id = open_race(first, base, ana, computer=False)
    link = f"{base}/#/races/{race_id}"
    assert join_race(second, link, bob) == 2
    expect(first.get_by_role("button", name="Start the race")).to_be_enabled()
    expect(second.get_by_role("button", name="Start the race")).to_be_hidden()
    expect(second.locator("#race-waiting")).to_contain_text(f"its opener, {ana},")
    assert stored_token(first, race_id)

    # The opener leaves: an onlooker now, its token forgotten; the friend sees them go and
    # is the opener (no Start yet: a race needs two racers).
    with first.expect_response(lambda r: r.url.endswith("/leave")) as answer:
        first.get_by_role("button", name="Leave the race").click()
    assert answer.value.status == 200
    expect(first.get_by_role("form", name="Join the race")).to_be_visible()
    expect(first.get_by_role("button", name="Leave the race")).to_be_hidden()
    expect(first.get_by_role("button", name="Start the race")).to_be_hidden()
    expect(racer_line(first, 1)).to_have_count(0)
    assert not stored_token(first, race_id)
    expect(racer_line(second, 1)).to_have_count(0)
    expect(second.locator("#race-racers-heading")).to_have_text("Racers (1 of 4)")
    expect(racer_line(second, 2).locator(".badge.opener")).to_be_visible()
    expect(second.get_by_role("button", name="Start the race")).to_be_disabled()
    expect(second.locator("#race-waiting")).to_have_text(
        "Send the link to a friend: a race needs two racers."
    )
    assert_accessible(second, "race lobby, the opener gone, phone")
    assert_accessible(first, "race lobby, having left")

    # They come back, as racer 3: the friend keeps the start, and may now start the race.
    assert join_race(first, link, ana) == 3
    expect(racer_line(second, 3)).to_contain_text(ana)
    expect(second.get_by_role("button", name="Start the race")).to_be_enabled()
    expect(first.get_by_role("button", name="Start the race")).to_be_hidden()
    expect(first.locator("#race-waiting")).to_contain_text(f"its opener, {bob},")

    # Both leave: the race is closed, on both pages and after a reload.
    first.get_by_role("button", name="Leave the race").click()
    expect(racer_line(second, 3)).to_have_count(0)
    second.get_by_role("button", name="Leave the race").click()
    for page in (first, second):
        expect(page.locator("#race-state")).to_have_text(CLOSED)
        expect(page.get_by_role("heading", level=2)).to_have_text("Race closed")
        expect(page.get_by_role("form", name="Join the race")).to_be_hidden()
        expect(page.get_by_role("link", name="Open a new race")).to_be_visible()
    assert httpx.get(f"{base}/races/{race_id}").json()["status"] == "closed"
    assert not stored_token(second, race_id)
    assert_accessible(first, "race closed")
    second.reload()
    expect(second.locator("#race-state")).to_have_text(CLOSED)
    assert_fits_and_reachable(second, "race closed, phone")
    assert_accessible(second, "race closed, phone")


def test_a_racer_who_has_finished_is_told_how_many_racers_it_waits_for(
    racers: Any, race_server: Server
) -> None:
    base = race_server.base_url
    ana = f"ana-{secrets.token_hex(3)}"
    page = racers(DESKTOP)
    race_id = open_race(page, base, ana, computer=False)
    tokens = [guest_joins(base, race_id, f"api{n}-{secrets.token_hex(3)}") for n in (2, 3)]
    expect(page.locator("#race-racers li")).to_have_count(3)
    page.get_by_role("button", name="Start the race").click()
    wait_for_table(page)

    # Ana is through while the two others have not placed a card: no rank yet (the race
    # ranks at its end), the number of racers still playing.
    game = play_out(page)
    waiting = f"You finished — waiting for 2 racers. Your game: {game['status']}"
    expect(page.locator("#race-own-end")).to_contain_text(waiting)
    expect(racer_line(page, 1)).to_have_attribute("data-state", game["status"])
    expect(racer_line(page, 1)).not_to_contain_text("1st")
    assert_accessible(page, "race, your game over while others play")
    assert api_plays_out(base, race_id, tokens[0]) in ("won", "lost")
    expect(page.locator("#race-own-end")).to_contain_text("You finished — waiting for 1 racer.")
    assert api_plays_out(base, race_id, tokens[1]) in ("won", "lost")
    expect(page.locator("#race-ranking-body tr")).to_have_count(3)
    expect(page.locator("#race-own-end")).to_contain_text("Your game is over:")
    expect(page.locator("#race-own-end")).not_to_contain_text("waiting")


@pytest.mark.provokes_errors
def test_a_race_refusal_is_said_in_words(desktop: Page, server: Server) -> None:
    page = desktop
    # A race link cut short: no such race.
    page.goto(f"{server.base_url}/#/races/00000000-0000-4000-8000-000000000000")
    notice = page.get_by_role("alert")
    expect(notice).to_contain_text("This race could not be found")
    expect(notice).not_to_contain_text("404")
    expect(notice).not_to_contain_text("race_not_found")
    # Joining under a name already racing in it.
    taken = f"ana-{secrets.token_hex(3)}"
    opened = httpx.post(f"{server.base_url}/races", json={"player": taken}).json()
    page.goto(f"{server.base_url}/#/races/{opened['id']}")
    form = page.get_by_role("form", name="Join the race")
    form.get_by_label("Name in the race").fill(taken)
    form.get_by_role("button", name="Join the race").click()
    # Said under the name's field, as every refused name is (fields.js), not at the top.
    said = page.locator("#race-join-name-check")
    expect(said).to_contain_text("That name is taken in this race")
    expect(said).not_to_contain_text("409")
    expect(notice).to_be_hidden()
    expect(form).to_be_visible()
    assert_accessible(page, "race, a refusal")
