"""Tournaments in the browser (`#/tournaments`): an operator announces one through the API; an
account finds it from the home page, joins it and plays its deals in the ordinary Play view
(the first with the keyboard alone), going back to the tournament and on to the next deal from
a deal's end, while a guest in a second browser, who joined under a name, watches the
standings move on the tournament's stream without a reload; the tournament ends, the fair-play
review finalises it, both pages show the final standings and the winners, the deals verify in
the browser against the commitments announced, and the account's player page shows its trophy.
Another tournament, announced, is laid out on a phone, a tablet and a desktop: it fits, the
standings are reachable on the phone, and axe finds nothing on any of them. Every page is
watched for console errors, failed requests and error answers (conftest.Watcher).

The tournaments run on a server of their own, with an operator key; the one played is short (it
ends a minute or so after it is created), and the tests wait for its end on the page, with a
generous deadline, never a fixed sleep. The entrant plays the first legal cell each time, which
ends a deal (most often lost: no fair-play review to wait for) in a few dozen placements.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from testkit import databases
from testkit.server import Server, running_server
from tests.web.conftest import (
    DESKTOP,
    PHONE,
    SERVER_ENV,
    Watcher,
    errors_allowed,
    open_context,
)
from tests.web.pages import assert_accessible, assert_fits_and_reachable

pytestmark = pytest.mark.slow

TABLET = {"width": 768, "height": 1024}
OPERATOR_KEY = "web-tournament-tests-" + "k" * 32
ENV = {
    **SERVER_ENV,
    "FOURSQUARE_OPERATOR_KEYS": f"webtests:{OPERATOR_KEY}",
    "FOURSQUARE_CHALLENGE_SECRET": "web tournament tests",
}
OPERATOR = {"Authorization": f"Bearer {OPERATOR_KEY}"}
# How long the played tournament runs: room for two deals of a few dozen clicks each on a slow
# shared machine, and no more than that (the test waits for the end).
PLAYED_SECONDS = 75
# The end, then the final standings: the server's ticker ends it and the review finalises it.
END_DEADLINE_MS = 180_000


@pytest.fixture(scope="module")
def cup_server(
    _templates: databases.Templates, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("tournaments")
    with (
        _templates.database("sqlite", folder) as url,
        running_server(url, extra_env=ENV) as server,
    ):
        yield server


@pytest.fixture
def browsers(browser: Browser, cup_server: Server, request: pytest.FixtureRequest) -> Iterator[Any]:
    """Makes pages (each its own browser context: its own storage), all watched (a test
    marked ``provokes_errors`` may see error answers)."""
    opened: list[tuple[BrowserContext, Watcher]] = []
    allowed = errors_allowed(request)

    def make(viewport: dict[str, int], **options: Any) -> Page:
        context, watcher = open_context(
            browser, cup_server, viewport, allowed, reduced_motion="reduce", **options
        )
        opened.append((context, watcher))
        return context.new_page()

    yield make
    for context, _ in opened:
        context.close()
    for _, watcher in opened:
        watcher.check()


def announce(base: str, name: str, starts: datetime, ends: datetime, **fields: Any) -> str:
    """The operator announces a tournament; returns its id."""
    body = {
        "name": name,
        "starts_at": starts.isoformat(),
        "ends_at": ends.isoformat(),
        "deals": 2,
        **fields,
    }
    answer = httpx.post(f"{base}/tournaments", json=body, headers=OPERATOR, timeout=30)
    assert answer.status_code == 201, answer.text
    tournament_id: str = answer.json()["id"]
    return tournament_id


def register(base: str, name: str) -> str:
    answer = httpx.post(f"{base}/players", json={"name": name}, timeout=30)
    assert answer.status_code == 201, answer.text
    key: str = answer.json()["key"]
    return key


def sign_in(page: Page, base: str, name: str, key: str) -> None:
    """The page holds the account's key, as the Account page leaves it."""
    page.goto(base + "/#/rules")
    page.evaluate(
        "([name, key]) => {"
        " localStorage.setItem('foursquare.account', JSON.stringify({name, key}));"
        " localStorage.setItem('foursquare.rules-offer', 'done'); }",
        [name, key],
    )


def standing_row(page: Page, number: int) -> Any:
    return page.locator(f'#tournament-standings-body tr[data-number="{number}"]')


def play_deal_out(page: Page) -> dict[str, Any]:
    """Play the deal on the Play view to its end, the first legal cell each time."""
    game: dict[str, Any] = {}
    for _ in range(40):
        if page.locator("#game").get_attribute("data-status") != "in_progress":
            break
        with page.expect_response(
            lambda r: r.url.endswith("/placements") and r.request.method == "POST"
        ) as answer:
            page.locator("#board button.place").first.click()
        assert answer.value.status == 201, answer.value.text()
        game = answer.value.json()["game"]
        expect(page.locator("#game")).to_have_attribute("data-version", str(game["version"]))
    expect(page.locator("#game")).to_have_attribute("data-status", re.compile("^(won|lost)$"))
    return game


def test_an_account_plays_a_tournament_a_guest_watches_it_and_the_trophy_follows(
    browsers: Any, cup_server: Server
) -> None:
    base = cup_server.base_url
    now = datetime.now(UTC)
    cup = f"Sprint {secrets.token_hex(3)}"
    cup_id = announce(
        base, cup, now - timedelta(seconds=1), now + timedelta(seconds=PLAYED_SECONDS), guests=True
    )
    ada = f"ada-{secrets.token_hex(3)}"
    key = register(base, ada)
    player = browsers(DESKTOP)
    watcher = browsers(DESKTOP)

    # The home page shows the tournament (running: the soonest, and the only one so far).
    sign_in(player, base, ada, key)
    player.goto(base + "/")
    expect(player.locator("#home-tournament-text")).to_contain_text(f"{cup} is running until")
    player.get_by_role("link", name="Open the tournament").click()
    expect(player).to_have_url(f"{base}/#/tournaments/{cup_id}")
    expect(player.get_by_role("heading", level=2)).to_have_text(cup)
    expect(player.locator("#tournament-state")).to_contain_text("Running until")
    # Its commitments are there from the announcement; no deck yet.
    expect(player.locator("#tournament-commitments li")).to_have_count(2)
    expect(player.get_by_role("button", name="Verify the deals")).to_be_hidden()

    # The account joins (no name asked: it enters under its own).
    form = player.get_by_role("form", name="Join the tournament")
    expect(form.locator("#tournament-join-account")).to_contain_text(ada)
    with player.expect_response(lambda r: r.url.endswith("/entrants")) as joined:
        form.get_by_role("button", name="Join the tournament").click()
    assert joined.value.status == 201
    ada_number = joined.value.json()["entry"]["number"]
    expect(player.locator("#tournament-you-text")).to_contain_text(f"You are in as {ada}")
    expect(standing_row(player, ada_number)).to_contain_text(ada)
    assert_accessible(player, "tournament running, an entrant before its first deal")

    # A guest joins in a second browser under a name, and watches.
    bob = f"bob-{secrets.token_hex(3)}"
    watcher.goto(f"{base}/#/tournaments/{cup_id}")
    guest_form = watcher.get_by_role("form", name="Join the tournament")
    guest_form.get_by_label("Name in the tournament").fill(bob)
    with watcher.expect_response(lambda r: r.url.endswith("/entrants")) as guest_joined:
        guest_form.get_by_role("button", name="Join the tournament").click()
    assert guest_joined.value.status == 201
    assert guest_joined.value.json()["token"]
    expect(watcher.locator("#tournament-you-text")).to_contain_text(f"You are in as {bob}")
    # The player's page sees the guest come, on the stream.
    bob_number = guest_joined.value.json()["entry"]["number"]
    expect(standing_row(player, bob_number)).to_contain_text(bob)
    # The guest's entry survives a reload (its token is kept in the browser).
    watcher.reload()
    expect(watcher.locator("#tournament-you-text")).to_contain_text(f"You are in as {bob}")
    expect(standing_row(watcher, ada_number)).to_have_attribute("data-deals-played", "0")

    # Deal 1, played with the keyboard alone: the deal opens in the Play view with the focus
    # on the grid, as a new game does.
    player.get_by_role("button", name="Play deal 1 of 2").click()
    expect(player).to_have_url(f"{base}/#/play")
    expect(player.locator("#tournament-badge")).to_have_text(f"{cup}: deal 1 of 2")
    expect(player.get_by_role("button", name="Ask for a hint")).to_be_hidden()
    first_cell = player.locator('#board .cell[data-row="0"][data-col="0"] button')
    expect(first_cell).to_be_focused()
    with player.expect_response(lambda r: r.url.endswith("/placements")):
        player.keyboard.press("Enter")
    expect(player.locator("#game")).to_have_attribute("data-status", "in_progress")
    assert_accessible(player, "a tournament's deal in play")
    # The watcher sees the deal in progress as no score yet, and the entrant's deal count
    # moves when it ends: the standings follow the stream, without a reload.
    first = play_deal_out(player)
    expect(standing_row(watcher, ada_number)).to_have_attribute("data-deals-played", "1")
    expect(standing_row(watcher, ada_number)).to_have_attribute(
        "data-score", str(first["score"] or 0)
    )

    # The deal's end offers the next deal and the way back; the next deal is played here.
    expect(player.get_by_role("link", name="Back to the tournament")).to_be_visible()
    expect(player.get_by_role("button", name="Play again")).to_be_hidden()
    player.get_by_role("button", name="Play deal 2 of 2").click()
    expect(player.locator("#tournament-badge")).to_have_text(f"{cup}: deal 2 of 2")
    expect(player.locator("#game")).to_have_attribute("data-status", "in_progress")
    play_deal_out(player)
    expect(player.get_by_role("button", name=re.compile("Play deal"))).to_be_hidden()
    expect(standing_row(watcher, ada_number)).to_have_attribute("data-deals-played", "2")
    player.get_by_role("link", name="Back to the tournament").click()
    expect(player.locator("#tournament-you-text")).to_contain_text("2 of 2 deals played")
    expect(player.get_by_role("button", name=re.compile("Play deal"))).to_be_hidden()

    # The end, then the final standings, on both pages without a reload.
    for page in (player, watcher):
        expect(page.locator("#tournament-room")).to_have_attribute(
            "data-status", "finished", timeout=END_DEADLINE_MS
        )
        expect(page.locator("#tournament-standings-table")).to_have_attribute(
            "data-status", "final"
        )
        expect(page.locator("#tournament-winners li")).not_to_have_count(0)
    final = httpx.get(f"{base}/tournaments/{cup_id}", timeout=30).json()
    places = {w["name"]: w["place"] for w in final["winners"]}
    assert ada in places
    expect(player.locator("#tournament-you-text")).to_contain_text(
        f"You finished {['', '1st', '2nd', '3rd'][places[ada]]} of 2"
    )
    # The deals' replays are public now; and the deals verify against the commitments.
    expect(standing_row(watcher, ada_number).get_by_role("link")).not_to_have_count(0)
    watcher.get_by_role("button", name="Verify the deals").click()
    results = watcher.locator("#tournament-verify-results li")
    expect(results).to_have_count(4)
    expect(watcher.locator("#tournament-verify-results li.fail")).to_have_count(0)
    expect(watcher.locator("#tournament-verify-results li.ok")).to_have_count(4)
    assert_accessible(watcher, "tournament finished, its deals verified")

    # The archive lists it with its winners; the account's page shows its trophy.
    player.goto(f"{base}/#/tournaments")
    row = player.locator(f'#tournament-past-body tr[data-tournament-id="{cup_id}"]')
    expect(row).to_contain_text(ada)
    player.goto(f"{base}/#/players/{ada}")
    expect(player.locator("#stat-tournaments")).to_have_text("1")
    expect(player.locator("#stat-trophies")).to_contain_text(
        f"{['', '1st', '2nd', '3rd'][places[ada]]}: 1"
    )
    cup_row = player.locator(f'#player-tournaments-body tr[data-tournament-id="{cup_id}"]')
    expect(cup_row).to_contain_text("trophy")
    assert_accessible(player, "player page with a trophy")


@pytest.mark.parametrize("size", [PHONE, TABLET, DESKTOP], ids=["phone", "tablet", "desktop"])
def test_a_tournament_page_fits_each_screen_and_keeps_its_standings_reachable(
    browsers: Any, cup_server: Server, size: dict[str, int]
) -> None:
    base = cup_server.base_url
    now = datetime.now(UTC)
    cup = f"Weekly cup with a long name {secrets.token_hex(3)}"
    cup_id = announce(
        base, cup, now + timedelta(hours=1), now + timedelta(hours=2), guests=True, max_entrants=50
    )
    # A few entrants, one with a long name, through the API.
    for name in (f"hinterdeskton-{secrets.token_hex(4)}", f"cy-{secrets.token_hex(2)}"):
        answer = httpx.post(f"{base}/tournaments/{cup_id}/entrants", json={"name": name})
        assert answer.status_code == 201, answer.text
    mobile = {"has_touch": True, "is_mobile": True} if size is PHONE else {}
    page = browsers(size, **mobile)
    page.goto(f"{base}/#/tournaments")
    item = page.locator(f'#tournament-current li[data-tournament-id="{cup_id}"]')
    expect(item).to_contain_text("Starts")
    assert_fits_and_reachable(page, f"tournaments index, {size['width']} px")
    assert_accessible(page, f"tournaments index, {size['width']} px")
    item.get_by_role("link", name=cup).click()
    expect(page.get_by_role("heading", level=2)).to_have_text(cup)
    expect(page.locator("#tournament-state")).to_contain_text("Starts")
    expect(page.locator("#tournament-entrants")).to_have_text("2 of 50")
    expect(page.locator("#tournament-standings-body tr")).to_have_count(2)
    assert_fits_and_reachable(page, f"tournament announced, {size['width']} px")
    assert_accessible(page, f"tournament announced, {size['width']} px")
    # The standings are reachable: scrolled to, the table and its last row are wholly on the
    # screen (its rows are redrawn as the stream's news comes: the table is what is scrolled).
    table = page.locator("#tournament-standings-table")
    table.scroll_into_view_if_needed()
    expect(page.locator("#tournament-standings-body tr").last).to_be_in_viewport(ratio=1)
    box = table.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box


def test_a_tournament_without_guests_asks_for_an_account(browsers: Any, cup_server: Server) -> None:
    base = cup_server.base_url
    now = datetime.now(UTC)
    cup_id = announce(
        base, f"Members {secrets.token_hex(3)}", now + timedelta(hours=1), now + timedelta(hours=2)
    )
    page = browsers(PHONE, has_touch=True, is_mobile=True)
    page.goto(f"{base}/#/tournaments/{cup_id}")
    expect(page.locator("#tournament-account-needed")).to_be_visible()
    expect(page.get_by_role("form", name="Join the tournament")).to_be_hidden()
    expect(page.locator("#tournament-guests")).to_have_text("accounts only")
    assert_accessible(page, "tournament for accounts, a guest, phone")


def test_a_guest_finds_its_place_comes_back_to_its_deal_and_leaves(
    browsers: Any, cup_server: Server
) -> None:
    base = cup_server.base_url
    now = datetime.now(UTC)
    cup = f"Crowded {secrets.token_hex(3)}"
    cup_id = announce(base, cup, now - timedelta(seconds=1), now + timedelta(hours=1), guests=True)
    # More entrants than a page of standings shows (20), all before the guest.
    for number in range(25):
        answer = httpx.post(
            f"{base}/tournaments/{cup_id}/entrants", json={"name": f"early-{number}"}
        )
        assert answer.status_code == 201, answer.text
    page = browsers(PHONE, has_touch=True, is_mobile=True)
    page.goto(f"{base}/#/tournaments/{cup_id}")
    zed = f"zed-{secrets.token_hex(3)}"
    page.get_by_label("Name in the tournament").fill(zed)
    page.get_by_role("button", name="Join the tournament").click()
    expect(page.locator("#tournament-you-text")).to_contain_text(f"You are in as {zed}")
    assert_fits_and_reachable(page, "tournament running, an entrant, phone")
    # Its line is past the first page; "Show my place" reads the page around it.
    expect(page.locator("#tournament-standings-body tr")).to_have_count(20)
    expect(page.locator("#tournament-standings-body tr.mine")).to_have_count(0)
    page.get_by_role("button", name="Show my place").click()
    expect(page.locator("#tournament-standings-body tr.mine")).to_contain_text(zed)
    page.get_by_role("button", name="Show the top").click()
    expect(page.locator("#tournament-standings-body tr").first).to_contain_text("early-0")

    # A deal begun, left for the tournament's page (the badge links there), is found again.
    page.get_by_role("button", name="Play deal 1 of 2").click()
    with page.expect_response(lambda r: r.url.endswith("/placements")) as placed:
        page.locator("#board button.place").first.click()
    version = str(placed.value.json()["game"]["version"])
    expect(page.locator("#game")).to_have_attribute("data-version", version)
    assert_fits_and_reachable(page, "a tournament's deal in play, phone")
    page.get_by_role("link", name=f"{cup}: deal 1 of 2").click()
    expect(page.locator("#tournament-you-text")).to_contain_text("Your deal is in progress")
    expect(page.get_by_role("button", name=re.compile("Play deal"))).to_be_hidden()
    page.get_by_role("button", name="Back to your deal").click()
    expect(page).to_have_url(f"{base}/#/play")
    expect(page.locator("#game")).to_have_attribute("data-version", version)
    expect(page.locator("#game")).to_have_attribute("data-status", "in_progress")

    # Leaving while it runs is asked first, and for good: the entry stays, marked left.
    page.get_by_role("link", name=f"{cup}: deal 1 of 2").click()
    page.get_by_role("button", name="Leave the tournament").click()
    dialog = page.get_by_role("dialog", name="Leave the tournament?")
    expect(dialog).to_contain_text("leaving is for good")
    with page.expect_response(lambda r: r.url.endswith("/entrants/me")) as left:
        dialog.get_by_role("button", name="Leave it").click()
    assert left.value.status == 204
    expect(page.locator("#tournament-you-text")).to_contain_text("You left the tournament")
    expect(page.get_by_role("button", name="Leave the tournament")).to_be_hidden()
    expect(page.get_by_role("button", name="Back to your deal")).to_be_hidden()
    page.get_by_role("button", name="Show my place").click()
    expect(page.locator("#tournament-standings-body tr.mine")).to_contain_text("left")
    assert_accessible(page, "tournament, an entrant who left, phone")


@pytest.mark.provokes_errors
def test_a_taken_name_is_said_by_its_field_and_a_cancellation_comes_live(
    browsers: Any, cup_server: Server
) -> None:
    base = cup_server.base_url
    now = datetime.now(UTC)
    cup_id = announce(
        base,
        f"Doomed {secrets.token_hex(3)}",
        now + timedelta(hours=1),
        now + timedelta(hours=2),
        guests=True,
    )
    taken = f"owner-{secrets.token_hex(3)}"
    register(base, taken)
    page = browsers(PHONE, has_touch=True, is_mobile=True)
    page.goto(f"{base}/#/tournaments/{cup_id}")
    expect(page.locator("#tournament-state")).to_contain_text("Starts")
    # A registered player's name is refused to a guest: said beside the name, in words.
    page.get_by_label("Name in the tournament").fill(taken)
    with page.expect_response(lambda r: r.url.endswith("/entrants")) as refused:
        page.get_by_role("button", name="Join the tournament").click()
    assert refused.value.status == 409
    expect(page.locator("#tournament-join-name-check")).to_contain_text(
        "That name is taken in this tournament"
    )
    expect(page.locator("#notice")).to_be_hidden()
    assert_accessible(page, "tournament, a taken name refused, phone")
    # The operator cancels it: the page says so at once (its stream), and takes no entrant.
    answer = httpx.post(f"{base}/tournaments/{cup_id}/cancel", headers=OPERATOR, timeout=30)
    assert answer.status_code == 200, answer.text
    expect(page.locator("#tournament-state")).to_have_text(
        "Cancelled: this tournament will not be played."
    )
    expect(page.get_by_role("form", name="Join the tournament")).to_be_hidden()
    assert_fits_and_reachable(page, "tournament cancelled, phone")
