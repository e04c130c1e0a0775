"""The README's deal-verification recipe works against a real finished game, and its curl
samples show the fields a running service answers."""

from __future__ import annotations

import json
import random
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from api.core.database import create_database
from api.settings import Settings
from testkit.games import place_in, start_game
from testkit.server import running_server
from tests.api.conformance import won_vectors
from tests.support.fairplay import boarded

README = Path(__file__).resolve().parents[2] / "README.md"


def verify_function(client: TestClient) -> Any:
    text = README.read_text(encoding="utf-8")
    match = re.search(r"<!-- verify-deal -->\n```python\n(.*?)```", text, re.DOTALL)
    assert match, "the README lost its verification recipe"
    namespace: dict[str, Any] = {}
    exec(compile(match.group(1), "README.md", "exec"), namespace)
    # Point the recipe's HTTP client at the test app.
    namespace["httpx"] = type("H", (), {"get": staticmethod(lambda url: client.get(url))})
    return namespace["verify"]


def play_to_the_end(client: TestClient) -> str:
    rng = random.Random(5)
    created = client.post("/games").json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    game = created
    while game["status"] == "in_progress":
        target = rng.choice(game["legal_placements"])
        game = client.post(f"/games/{created['id']}/placements", json=target, headers=auth).json()[
            "game"
        ]
    return str(created["id"])


def test_the_readme_recipe_verifies_a_finished_game(client: TestClient) -> None:
    verify = verify_function(client)
    assert verify("", play_to_the_end(client)) is True


def test_the_readme_recipe_rejects_a_tampered_commitment(client: TestClient) -> None:
    verify = verify_function(client)
    game_id = play_to_the_end(client)
    real_get = client.get

    def tampered(url: str) -> httpx.Response:
        response: httpx.Response = real_get(url)
        if url.endswith(game_id):
            body = response.json()
            body["deck_commitment"] = "0" * 64
            return httpx.Response(200, json=body)
        return response

    namespace_get = verify.__globals__["httpx"]
    namespace_get.get = staticmethod(tampered)
    assert verify("", game_id) is False


# ---------------------------------------------------------------- the README's curl samples

# A bare "…" in a sample's object or array: fields or items left out (and "{…}" an object whose
# fields are all left out); "…" inside a string is a value cut short.
ELIDED = "…"
_JSON = json.JSONDecoder()


def parse_sample(text: str) -> Any:
    """A README sample: JSON in which a bare ``…`` may stand for fields or items left out (an
    object or array holding one has the key, or the item, ``ELIDED``)."""

    def skip(i: int) -> int:
        while i < len(text) and text[i] in " \n":
            i += 1
        return i

    def value(i: int) -> tuple[Any, int]:
        i = skip(i)
        if text.startswith(ELIDED, i):
            return ELIDED, i + 1
        if text[i] in "{[":
            closing, items, fields = "}" if text[i] == "{" else "]", [], {}
            i = skip(i + 1)
            while text[i] != closing:
                if closing == "]":
                    item, i = value(i)
                    items.append(item)
                elif text.startswith(ELIDED, i):
                    fields[ELIDED], i = ELIDED, i + 1
                else:
                    key, i = _JSON.raw_decode(text, i)
                    i = skip(i)
                    assert text[i] == ":", text[i:]
                    fields[key], i = value(i + 1)
                i = skip(i)
                if text[i] == ",":
                    i = skip(i + 1)
            return (fields if closing == "}" else items), i + 1
        scalar: tuple[Any, int] = _JSON.raw_decode(text, i)  # a string, number, boolean, null
        return scalar

    parsed, end = value(0)
    assert skip(end) == len(text), f"more after the sample: {text[end:]!r}"
    return parsed


def json_type(data: Any) -> str:
    if isinstance(data, bool):
        return "boolean"
    if isinstance(data, int | float):
        return "number"
    names: dict[type, str] = {dict: "object", list: "array", str: "string"}
    return names[type(data)]


def mismatches(sample: Any, answer: Any, where: str = "") -> list[str]:
    """Where ``sample`` does not show ``answer``: an object whose fields are not the answer's
    (all of them, unless it says some are left out), a value of another type (null shows any,
    and stands for any: a sample may show either)."""
    if sample is None or answer is None or sample == ELIDED:
        return []
    if json_type(sample) != json_type(answer):
        return [f"{where or 'the answer'}: {json_type(sample)} in the sample, {json_type(answer)}"]
    if isinstance(sample, dict):
        shown = set(sample) - {ELIDED}
        missing = [] if ELIDED in sample else sorted(set(answer) - shown)
        found = [f"{where}.{key}: not in the answer" for key in sorted(shown - set(answer))]
        found += [f"{where}.{key}: in the answer, not in the sample" for key in missing]
        for key in sorted(shown & set(answer)):
            found += mismatches(sample[key], answer[key], f"{where}.{key}")
        return found
    if isinstance(sample, list):
        items = [item for item in sample if item != ELIDED]
        if len(answer) < len(items):
            return [f"{where}: {len(items)} items in the sample, {len(answer)} in the answer"]
        return [
            m for i, item in enumerate(items) for m in mismatches(item, answer[i], f"{where}[{i}]")
        ]
    return []


@dataclass
class Command:
    """A curl command of the README and the sample of its answer below it, if any."""

    line: str
    sample: str | None = None


def curl_commands() -> list[Command]:
    """The curl commands of every shell block of the README that shows an answer, in order,
    each with the sample below it (its ``# {``… comment lines)."""
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)
    commands: list[Command] = []
    for block in blocks:
        found: list[Command] = []
        lines = iter(block.replace("\\\n", " ").splitlines())
        for line in lines:
            if line.startswith("curl "):
                found.append(Command(line.split("   #")[0]))
            elif line.startswith("# {") and found:
                text = line[2:]
                while text.count("{") + text.count("[") > text.count("}") + text.count("]"):
                    text += "\n" + next(lines)[2:]
                found[-1].sample = text
        if any(command.sample for command in found):
            commands += found
    return commands


def run_curl(client: httpx.Client, line: str, names: dict[str, str]) -> httpx.Response:
    """What ``curl`` would send for ``line``, its ``$NAMES`` replaced, sent with ``client``."""
    for name, value in names.items():
        line = line.replace(f"${name}", value)
    words = shlex.split(line)
    method, headers, body, url = "GET", {}, None, ""
    options = iter(words[1:])
    for word in options:
        if word == "-X":
            method = next(options)
        elif word == "-H":
            name, _, value = next(options).partition(":")
            headers[name] = value.strip()
        elif word == "-d":
            body = next(options)
            method = "POST" if method == "GET" else method
        elif not word.startswith("-"):
            url = word.removeprefix("localhost:8000")
    return client.request(method, url, headers=headers, content=body)


@pytest.mark.slow
def test_the_readme_samples_show_every_field_the_running_service_answers(
    sqlite_url: str,
) -> None:
    """Each curl command of the README's blocks that show answers is sent to a real server,
    in order (``$GAME``, ``$TOKEN`` and ``$KEY`` are what the commands before it answered);
    each answers as its sample shows (a problem's status if it shows one, else success), and
    each sample names the answer's fields, every one unless it says some are left out."""
    won = won_vectors()[0]
    database = create_database(Settings(database_url=sqlite_url, migrate_on_start=False))
    with database.transaction() as session:
        created = start_game(session, "winner", deck=won["deck"])
    for step in won["steps"]:
        with database.transaction() as session:
            place_in(session, created.id, created.token, (step["row"], step["col"]))
    database.dispose()
    commands = curl_commands()
    assert [c for c in commands if c.sample and "/leaderboard" in c.line], "no board sample"
    env = {"FOURSQUARE_HINT_PLACEMENTS": "200", "FOURSQUARE_HINT_MAX_MS": "500"}
    names: dict[str, str] = {}
    problems: list[str] = []
    with (
        running_server(sqlite_url, extra_env=env) as server,
        httpx.Client(base_url=server.base_url, timeout=60) as client,
    ):
        boarded(client, str(created.id))  # on the board once its fair-play review is done
        for command in commands:
            if " -sN " in command.line:
                continue  # an event stream: it never ends
            answer = run_curl(client, command.line, names)
            sample = parse_sample(command.sample) if command.sample else None
            expected = sample.get("status") if isinstance(sample, dict) else None
            if isinstance(expected, int):
                assert answer.status_code == expected, (command.line, answer.text)
            else:
                assert answer.is_success, (command.line, answer.text)
            body = answer.json()
            if "/games" in command.line and "token" in body:
                names.setdefault("GAME", body["id"])
                names.setdefault("TOKEN", body["token"])
            if "/players" in command.line and "key" in body:
                names["KEY"] = body["key"]
            if sample is not None:
                problems += [f"{command.line}: {m}" for m in mismatches(sample, body)]
    assert problems == []


# ---------------------------------------------------------------- what the suite skips without

# Every module of the suite that skips, and what the README must name for it: what the machine
# lacks (each word also in the module, where the skip says it), or None for a skip about the
# test's own data, not about the machine.
SKIPS: dict[str, tuple[str, ...] | None] = {
    "tests/conftest.py": ("PostgreSQL",),
    "tests/integrity/test_rate_limits_shared.py": ("Redis",),
    "tests/web/conftest.py": ("chromium",),
    "tests/integrity/conftest.py": ("haproxy",),
    "tests/bench/test_events_load.py": ("haproxy",),
    "tests/web/test_types.py": ("node", "npm"),
    "tests/clients/test_typescript_client.py": ("node", "npm"),
    "tests/clients/test_typescript_first_program.py": ("node", "npm"),
    "tests/integrity/test_image.py": ("podman", "mmdebstrap"),
    "tests/engine/test_conformance.py": ("../shared/conformance.json",),
    "tests/support/raw_http.py": ("open-file limit",),
    "tests/web/test_welcome.py": None,  # a game whose every move was the computer's choice
    "tests/api/test_live_events.py": None,  # a best score recorded first by another test
}
TESTS = README.parent / "tests"
_SKIP = re.compile(r"pytest\.skip\(|\.skipif\(")


def test_the_readme_names_everything_the_suite_skips_without() -> None:
    text = README.read_text(encoding="utf-8")
    start = text.index("Some tests need")
    said = text[start : text.index("\n\n", start)]
    skipping = {
        path.relative_to(README.parent).as_posix()
        for path in TESTS.rglob("*.py")
        if _SKIP.search(path.read_text(encoding="utf-8"))
    }
    assert skipping == set(SKIPS), "a module skips (or no longer does): classify it in SKIPS"
    for module, needs in SKIPS.items():
        source = (README.parent / module).read_text(encoding="utf-8").lower()
        for need in needs or ():
            assert need in said, f"the README does not say that {module} skips without {need}"
            assert need.lower().replace("postgresql", "postgres") in source, (module, need)
