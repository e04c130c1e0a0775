"""Player accounts in the browser: register (the key shown once and kept in localStorage),
play as the account, the player's page and games, key rotation, signing out and in again."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from testkit.server import Server
from tests.web.conftest import DESKTOP, open_context
from tests.web.pages import END_WORDS, assert_page_shows, place_by_click

pytestmark = [pytest.mark.slow, pytest.mark.provokes_errors]


@pytest.fixture
def desktop(browser: Browser, server: Server) -> Iterator[Page]:
    """A desktop page that may use the clipboard (to copy the key)."""
    context, watcher = open_context(
        browser, server, DESKTOP, errors_allowed=True, reduced_motion="reduce"
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base_url)
    page = context.new_page()
    yield page
    context.close()
    watcher.check()


def stored_account(page: Page) -> dict[str, str] | None:
    account: dict[str, str] | None = page.evaluate(
        "() => JSON.parse(localStorage.getItem('foursquare.account') || 'null')"
    )
    return account


def finish_through_api(api: httpx.Client, game_id: str, key: str) -> dict[str, Any]:
    """Play a game to its end with the account's key (the first legal placement each time)."""
    game: dict[str, Any] = api.get(f"/games/{game_id}").json()
    while game["status"] == "in_progress":
        placed = api.post(
            f"/games/{game_id}/placements",
            json=game["legal_placements"][0],
            headers={"Authorization": f"Bearer {key}"},
        )
        assert placed.status_code == 201, placed.text
        game = placed.json()["game"]
    return game


def test_register_play_as_the_account_and_see_the_player_page(
    desktop: Page, server: Server, api: httpx.Client
) -> None:
    page = desktop
    page.goto(server.base_url + "/#/account")
    form = page.get_by_role("form", name="Register a name")
    # A name outside the rule (the API's, read from its schema: api.core.names.NAME_PATTERN)
    # is said in words as it is typed, and keeps the form from being sent: nothing is stored.
    name_field = form.get_by_label("Name")
    name_field.fill("no spaces allowed")
    expect(page.locator("#register-name-check")).to_have_text(
        "A name may hold only letters A to Z, digits, _ and -: not a space."
    )
    form.get_by_role("button", name="Register").click()
    assert name_field.evaluate("field => field.validity.customError")
    assert stored_account(page) is None
    notice = page.get_by_role("alert")
    # A name already registered (in another case): 409 name_taken, said beside the name.
    assert api.post("/players", json={"name": "taken-web"}).status_code == 201
    form.get_by_label("Name").fill("Taken-Web")
    form.get_by_role("button", name="Register").click()
    expect(page.locator("#register-name-check")).to_contain_text("That name is taken")
    expect(page.locator("#register-name-check")).to_contain_text("Choose another")
    expect(notice).to_be_hidden()
    assert stored_account(page) is None

    with page.expect_response(lambda r: r.url.endswith("/players")) as answer:
        form.get_by_label("Name").fill("Ada_web")
        form.get_by_role("button", name="Register").click()
    created = answer.value.json()
    assert answer.value.status == 201
    expect(notice).to_be_hidden()
    expect(page.get_by_role("status")).to_contain_text("Registered as Ada_web")
    # The key is shown once, said so, and kept in localStorage.
    expect(page.get_by_text("only time the server shows this key")).to_be_visible()
    expect(page.get_by_label("Your key", exact=True)).to_have_value(created["key"])
    assert stored_account(page) == {"name": "Ada_web", "key": created["key"]}
    page.get_by_role("button", name="Copy the key").click()
    expect(page.get_by_role("status")).to_contain_text("copied")
    assert page.evaluate("() => navigator.clipboard.readText()") == created["key"]
    expect(page.get_by_role("link", name="Account (Ada_web)")).to_be_visible()

    # Play as the account: the game is created with the key, under the account's name.
    page.get_by_role("link", name="Play", exact=True).click()
    expect(page.get_by_label("Your name")).to_be_hidden()
    expect(page.locator("#account-start")).to_contain_text("Playing as Ada_web")
    with page.expect_request(lambda r: r.url.endswith("/games") and r.method == "POST") as sent:
        page.get_by_role("button", name="Start a game").click()
    assert sent.value.headers["authorization"] == f"Bearer {created['key']}"
    expect(page.locator("#game-player")).to_have_text("Ada_web")
    place_by_click(page, 0, 0)
    game_id = page.evaluate("() => JSON.parse(localStorage.getItem('foursquare.game')).id")

    # Another browser (no game token, only the key): the player page opens the unfinished
    # game in Play, and the key authorises its placements.
    page.evaluate("() => localStorage.removeItem('foursquare.game')")
    page.goto(f"{server.base_url}/#/players/Ada_web")
    page.reload()
    row = page.locator(f'#player-games-body tr[data-game-id="{game_id}"]')
    expect(row).to_contain_text("in progress")
    row.get_by_role("link", name=re.compile("^Open the game started")).click()
    expect(page).to_have_url(re.compile("#/play$"))
    game = api.get(f"/games/{game_id}").json()
    assert_page_shows(page, game)
    target = game["legal_placements"][0]
    with page.expect_request(lambda r: r.url.endswith("/placements")) as sent:
        place_by_click(page, target["row"], target["col"])
    assert sent.value.headers["authorization"] == f"Bearer {created['key']}"
    assert api.get(f"/games/{game_id}").json()["placements_count"] == 2
    game = finish_through_api(api, game_id, created["key"])

    # The player's page: the figures the API gives, and the game, which opens its replay.
    page.goto(server.base_url + "/#/account")
    page.get_by_role("link", name="Your player page and games").click()
    expect(page.get_by_role("heading", name="Player Ada_web")).to_be_visible()
    stats = api.get("/players/Ada_web").json()["stats"]
    assert stats["games_played"] == 1
    expect(page.locator("#stat-played")).to_have_text("1")
    expect(page.locator("#stat-won")).to_have_text(str(stats["games_won"]))
    expect(page.locator("#stat-lost")).to_have_text(str(stats["games_lost"]))
    rate = f"{round(stats['win_rate'] * 100)} %"
    expect(page.locator("#stat-win-rate")).to_have_text(rate)
    best = "\u2013" if stats["best_score"] is None else str(stats["best_score"])
    expect(page.locator("#stat-best")).to_have_text(best)
    expect(page.locator("#stat-longest")).to_have_text(str(stats["longest_streak"]))
    rows = page.locator("#player-games-body tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-game-id", game_id)
    result = game["status"]
    if result == "lost":
        result = f"lost ({END_WORDS[game['end_reason']]})"
    expect(rows.first).to_contain_text(result)
    # Filtered by status: the other status lists nothing.
    other = "lost" if game["status"] == "won" else "won"
    page.get_by_label("Show").select_option(other)
    expect(page.get_by_text("No games here.")).to_be_visible()
    expect(rows).to_have_count(0)
    page.get_by_label("Show").select_option(game["status"])
    expect(rows).to_have_count(1)
    rows.first.get_by_role("link", name=re.compile("^Replay the game started")).click()
    expect(page).to_have_url(re.compile(f"#/games/{game_id}$"))
    expect(page.get_by_role("heading", name="Game of Ada_web")).to_be_visible()


def test_rotate_the_key_sign_out_and_use_an_existing_key(
    desktop: Page, server: Server, api: httpx.Client
) -> None:
    page = desktop
    registered = api.post("/players", json={"name": "Rota"}).json()
    old_key = registered["key"]
    page.goto(server.base_url + "/#/account")
    form = page.get_by_role("form", name="Use an existing key")
    # A key that is no player's is refused (403), beside the key, and nothing is stored.
    form.get_by_label("Key").fill(old_key + "x")
    form.get_by_role("button", name="Use this key").click()
    expect(page.locator("#existing-key-check")).to_contain_text("That key is not accepted")
    assert stored_account(page) is None
    # The API names the key's account: no name to type.
    form.get_by_label("Key").fill(old_key)
    form.get_by_role("button", name="Use this key").click()
    expect(page.get_by_role("status")).to_contain_text("Signed in as Rota")
    assert stored_account(page) == {"name": "Rota", "key": old_key}

    # Replace the key: asked first, then the new key is stored and the old one refused.
    page.get_by_role("button", name="Replace the key").click()
    dialog = page.get_by_role("dialog", name="Replace your key?")
    with page.expect_response(lambda r: r.url.endswith("/players/Rota/key")) as answer:
        dialog.get_by_role("button", name="Replace the key").click()
    new_key = answer.value.json()["key"]
    assert new_key != old_key
    expect(page.get_by_role("status")).to_contain_text("A new key was made")
    assert stored_account(page) == {"name": "Rota", "key": new_key}
    expect(page.get_by_label("Your key", exact=True)).to_have_value(new_key)
    refused = api.post("/players/Rota/key", headers={"Authorization": f"Bearer {old_key}"})
    assert refused.status_code == 403

    # Sign out: asked first, then the key is forgotten and games are a guest's again.
    page.get_by_role("button", name="Sign out").click()
    page.get_by_role("dialog", name="Sign out?").get_by_role("button", name="Forget").click()
    expect(page.get_by_role("status")).to_contain_text("Signed out")
    assert stored_account(page) is None
    expect(page.get_by_role("form", name="Register a name")).to_be_visible()
    page.get_by_role("link", name="Play", exact=True).click()
    expect(page.get_by_label("Your name")).to_be_visible()

    # A guest may not play under the account's name: the API's 409 is said beside the name.
    page.get_by_label("Your name").fill("Rota")
    page.get_by_role("button", name="Start a game").click()
    expect(page.locator("#player-name-check")).to_contain_text(
        "That name belongs to a registered player"
    )
