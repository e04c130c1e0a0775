"""A refusal said once, beside its field, in words, and gone when the field changes: the
account's name and key, and a guest's name on the home page, at the three sizes a newcomer
tried (1280 x 800, 1366 x 768, a 390 x 844 phone). Never in the notice at the top of the page,
never in the browser's own pop-up (which comes with an ``invalid`` event), never a name cut
short without a word."""

from __future__ import annotations

import secrets

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from testkit.server import Server
from tests.web.conftest import DESKTOP, LAPTOP, PHONE, errors_allowed, open_context
from tests.web.pages import assert_accessible, assert_fits_and_reachable, assert_in_view

pytestmark = [pytest.mark.slow, pytest.mark.provokes_errors]  # refusals, on purpose

SIZES = [DESKTOP, LAPTOP, PHONE]
SIZE_IDS = ["1280x800", "1366x768", "390x844"]

# Counts the browser's own validation of a form (its pop-up comes with an `invalid` event on
# the field) from now on.
COUNT_INVALID = """() => {
  window.invalidEvents = 0;
  document.addEventListener("invalid", () => { window.invalidEvents += 1; }, true);
}"""


def assert_beside(page: Page, field: str, message: str) -> None:
    """The ``message`` is shown just under the ``field``, both in view."""
    assert_in_view(page, field)
    assert_in_view(page, message)
    below = page.evaluate(
        "([f, m]) => document.querySelector(m).getBoundingClientRect().top"
        " - document.querySelector(f).getBoundingClientRect().bottom",
        [field, message],
    )
    assert 0 <= below <= 16, (field, message, below)


def stored_account(page: Page) -> object:
    return page.evaluate("() => JSON.parse(localStorage.getItem('foursquare.account'))")


@pytest.mark.parametrize("viewport", SIZES, ids=SIZE_IDS)
def test_refusals_are_said_once_beside_their_field_and_go_when_it_changes(
    browser: Browser,
    server: Server,
    api: httpx.Client,
    viewport: dict[str, int],
    request: pytest.FixtureRequest,
) -> None:
    mobile = viewport == PHONE
    name = f"alice-{secrets.token_hex(3)}"
    assert api.post("/players", json={"name": name}).status_code == 201
    context, watcher = open_context(
        browser,
        server,
        viewport,
        errors_allowed(request),
        reduced_motion="reduce",
        has_touch=mobile,
        is_mobile=mobile,
    )
    page = context.new_page()
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    page.goto(server.base_url + "/#/account")
    page.evaluate(COUNT_INVALID)
    notice = page.locator("#notice")
    form = page.get_by_role("form", name="Register a name")
    field = form.get_by_label("Name")
    check = page.locator("#register-name-check")
    register = form.get_by_role("button", name="Register")

    # The name in capitals is the account's: refused beside the field, once, in the words of
    # this page (its key is used right here, not "on the Account page").
    field.fill(name.upper())
    register.click()
    expect(check).to_contain_text("That name is taken")
    expect(check).to_contain_text("“Use an existing key”")
    expect(check).not_to_contain_text("Account page")
    expect(notice).to_be_hidden()
    expect(page.get_by_text("That name is taken")).to_have_count(1)
    expect(field).to_be_focused()
    expect(field).to_have_attribute("aria-invalid", "true")
    assert_beside(page, "#register-name", "#register-name-check")
    assert_accessible(page, "account, a name refused")
    # Changed, the field's words go.
    field.press("End")
    field.press("1")
    expect(check).to_be_hidden()
    expect(field).to_have_attribute("aria-invalid", "false")

    # A name too long is kept whole and refused in words before anything is sent, by the
    # button and by Enter alike; then a character outside the rule, then nothing at all.
    posts = len(sent)
    long_name = "n" * 60
    field.fill(long_name)
    expect(field).to_have_value(long_name)
    expect(check).to_have_text("A name has at most 24 characters.")
    register.click()
    field.press("Enter")
    expect(check).to_have_text("A name has at most 24 characters.")
    expect(field).to_be_focused()
    field.fill("two words")
    expect(check).to_have_text("A name may hold only letters A to Z, digits, _ and -: not a space.")
    register.click()
    field.fill("")
    register.click()
    expect(check).to_have_text("Type the name to register first.")
    expect(page.get_by_text("Type the name to register first.")).to_have_count(1)
    assert len(sent) == posts, "a name the page refuses was sent"
    assert stored_account(page) is None

    # A key that is no player's: said beside the key, and gone once the key is changed.
    key_form = page.get_by_role("form", name="Use an existing key")
    key_field = key_form.get_by_label("Key")
    key_field.fill("fsp.not-a-key")
    key_form.get_by_role("button", name="Use this key").click()
    key_check = page.locator("#existing-key-check")
    expect(key_check).to_contain_text("That key is not accepted")
    expect(key_check).not_to_contain_text("Account page")
    expect(notice).to_be_hidden()
    assert_beside(page, "#existing-key", "#existing-key-check")
    key_field.press("Backspace")
    expect(key_check).to_be_hidden()
    assert stored_account(page) is None

    # A guest's name on the home page that is the account's: said beside that field.
    page.goto(server.base_url + "/#/")
    home_field = page.get_by_label("Name (optional)")
    home_field.fill(name)
    page.get_by_role("button", name="Start a game").click()
    home_check = page.locator("#home-name-check")
    expect(home_check).to_contain_text("That name belongs to a registered player")
    expect(notice).to_be_hidden()
    expect(home_field).to_be_focused()
    assert_beside(page, "#home-name", "#home-name-check")
    if mobile:
        assert_fits_and_reachable(page, "home, a name refused")
    assert_accessible(page, "home, a name refused")
    home_field.press("End")
    home_field.press("x")
    expect(home_check).to_be_hidden()
    # The browser's own pop-up never came: the page said it all.
    assert page.evaluate("() => window.invalidEvents") == 0
    context.close()
    watcher.check()
