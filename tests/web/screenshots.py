"""Re-take the web client's screenshots in docs/screenshots/: the home page on a desktop
(1280 x 800) and on a phone (390 x 844), the table mid-game on both, the end of a won game,
a race under way on a desktop (two racers and the computer; a race's deal is its own, so
that picture changes from one run to the next) and a tournament under way on a desktop (its
deals are its own too).

    .venv/bin/python -m tests.web.screenshots

It starts its own ``foursquare serve`` on a new SQLite database in a temporary folder, deals
conformance games there (so the pictures are the same each time) and drives Debian's
chromium with Playwright, as the browser tests do.
"""

from __future__ import annotations

import json
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page, expect, sync_playwright

from testkit.server import running_server
from tests.api.conformance import won_vectors
from tests.web.conftest import CHROMIUM_ARGS, DESKTOP, PHONE, SERVER_ENV, chromium_path
from tests.web.pages import place_button, play_through_api
from tests.web.service import store_game

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def resume(page: Page, base: str, game_id: str, token: str, player: str) -> None:
    """Open the page holding the game (as if it had started it), its rules offer answered."""
    page.goto(base + "/#/play")
    page.evaluate(
        "([game, offer]) => { localStorage.setItem('foursquare.game', game);"
        " localStorage.setItem('foursquare.rules-offer', offer); }",
        [json.dumps({"id": game_id, "token": token, "player": player}), "done"],
    )
    page.reload()
    expect(page.locator("#game")).to_be_visible()


# A race starts a second after its start, and the computer places quickly (its settings).
RACE_ENV = {"FOURSQUARE_RACE_COUNTDOWN_SECONDS": "1", "FOURSQUARE_RACE_COMPUTER_SECONDS": "0.5"}
# An operator, to announce the tournament pictured.
OPERATOR_KEY = "screenshots-operator-" + "k" * 32
TOURNAMENT_ENV = {"FOURSQUARE_OPERATOR_KEYS": f"screenshots:{OPERATOR_KEY}"}


def place_first(page: Page) -> None:
    """Place on the first legal cell of a race's own table, once the answer is drawn."""
    version = page.locator("#race-own").get_attribute("data-version")
    page.locator("#race-board button.place").first.click()
    expect(page.locator("#race-own")).not_to_have_attribute("data-version", str(version))


def race_picture(browser: Browser, base: str) -> None:
    """Ada opens a race against the computer (at its level "good"), Grace joins by its link,
    both place a few cards."""
    contexts = [
        browser.new_context(viewport=DESKTOP, reduced_motion="reduce")  # type: ignore[arg-type]
        for _ in range(2)
    ]
    ada, grace = (context.new_page() for context in contexts)
    ada.goto(base + "/#/races")
    ada.get_by_label("Name in the race (optional)").fill("Ada")
    ada.get_by_label("Race the computer").check()
    ada.get_by_label("Good", exact=True).check()
    ada.get_by_role("button", name="Open a race").click()
    expect(ada.get_by_role("button", name="Start the race")).to_be_visible()
    grace.goto(ada.url)
    grace.get_by_label("Name in the race", exact=True).fill("Grace")
    grace.get_by_role("button", name="Join the race").click()
    expect(ada.locator("#race-racers li")).to_have_count(3)
    ada.get_by_role("button", name="Start the race").click()
    for page in (ada, grace):
        expect(page.locator("#race-own")).to_have_attribute("data-status", "in_progress")
    for page, placements in ((grace, 6), (ada, 4)):
        for _ in range(placements):
            if page.locator("#race-own").get_attribute("data-status") == "in_progress":
                place_first(page)
    ada.screenshot(path=OUT / "race-desktop.png")
    for context in contexts:
        context.close()


def play_deal(api: httpx.Client, tournament_id: str, token: str) -> None:
    """A guest entrant plays its next deal through the API, the first legal cell each time."""
    auth = {"Authorization": f"Bearer {token}"}
    dealt = api.post(f"/tournaments/{tournament_id}/games", headers=auth)
    assert dealt.status_code == 201, dealt.text
    game = dealt.json()["game"]
    while game["status"] == "in_progress":
        game = play_through_api(api, game["id"], token, [_first_legal(game)])


def _first_legal(game: dict[str, object]) -> tuple[int, int]:
    cells = game["legal_placements"]
    assert isinstance(cells, list)
    return (cells[0]["row"], cells[0]["col"])


def tournament_picture(browser: Browser, base: str, api: httpx.Client) -> None:
    """A tournament of three deals under way: three guests have played some of them through
    the API; Ada joins on the page, before her first deal."""
    now = datetime.now(UTC)
    body = {
        "name": "Friday cup",
        "starts_at": (now - timedelta(seconds=1)).isoformat(),
        "ends_at": (now + timedelta(hours=1)).isoformat(),
        "deals": 3,
        "guests": True,
        "max_entrants": 64,
    }
    answer = api.post(
        "/tournaments", json=body, headers={"Authorization": f"Bearer {OPERATOR_KEY}"}
    )
    assert answer.status_code == 201, answer.text
    tournament_id = answer.json()["id"]
    for name, deals in (("Grace", 2), ("Linus", 1), ("Margaret", 3)):
        joined = api.post(f"/tournaments/{tournament_id}/entrants", json={"name": name})
        assert joined.status_code == 201, joined.text
        for _ in range(deals):
            play_deal(api, tournament_id, joined.json()["token"])
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(f"{base}/#/tournaments/{tournament_id}")
    page.get_by_label("Name in the tournament").fill("Ada")
    page.get_by_role("button", name="Join the tournament").click()
    expect(page.get_by_role("button", name="Play deal 1 of 3")).to_be_visible()
    expect(page.locator("#tournament-standings-body tr")).to_have_count(4)
    page.screenshot(path=OUT / "tournament-desktop.png", full_page=True)
    context.close()


def main() -> None:
    path = chromium_path()
    assert path, "chromium is not installed (apt-get install -y chromium)"
    OUT.mkdir(parents=True, exist_ok=True)
    vector = won_vectors()[0]
    steps = [(s["row"], s["col"]) for s in vector["steps"]]
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/screenshots.db"
        with (
            running_server(url, extra_env={**SERVER_ENV, **RACE_ENV, **TOURNAMENT_ENV}) as server,
            httpx.Client(base_url=server.base_url, timeout=30) as api,
            sync_playwright() as driver,
        ):
            browser = driver.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
            # First: the home pages show it as the next tournament.
            tournament_picture(browser, server.base_url, api)
            # The home page with something on it: a game being played, a win of the day.
            won_id, won_token = store_game(url, vector["deck"], "Grace")
            play_through_api(api, won_id, won_token, steps)
            playing = api.post("/games", json={"player": "Linus"}).json()
            play_through_api(api, playing["id"], playing["token"], steps[:5])
            for name, viewport, mobile in (("desktop", DESKTOP, False), ("phone", PHONE, True)):
                game_id, token = store_game(url, vector["deck"], "Ada")
                play_through_api(api, game_id, token, steps[:8])
                context = browser.new_context(
                    viewport=viewport,  # type: ignore[arg-type]
                    reduced_motion="reduce",
                    is_mobile=mobile,
                    has_touch=mobile,
                )
                page = context.new_page()
                page.goto(server.base_url + "/")
                expect(page.locator("#home-best-list li").first).to_be_visible()
                expect(page.locator("#home-live-list li").first).to_be_visible()
                page.screenshot(path=OUT / f"home-{name}.png", full_page=True)
                resume(page, server.base_url, game_id, token, "Ada")
                with page.expect_response(lambda r: r.url.endswith("/placements")):
                    place_button(page, *steps[8]).click()
                page.screenshot(path=OUT / f"table-{name}.png")
                if not mobile:
                    play_through_api(api, game_id, token, steps[9:-1])
                    page.reload()
                    with page.expect_response(lambda r: r.url.endswith("/placements")):
                        place_button(page, *steps[-1]).click()
                    expect(page.get_by_role("region", name="You won!")).to_be_visible()
                    page.screenshot(path=OUT / "won.png")
                context.close()
            race_picture(browser, server.base_url)
            browser.close()
    pictures = ("home-desktop.png", "home-phone.png", "table-desktop.png", "table-phone.png")
    for picture in (*pictures, "won.png", "race-desktop.png", "tournament-desktop.png"):
        print(OUT / picture)


if __name__ == "__main__":
    main()
