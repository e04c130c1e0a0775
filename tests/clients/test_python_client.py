"""The Python client (clients/python) as its users get it: `pip install clients/python` into a
fresh virtualenv, then its README's example and clients/python/tests/play.py against a real
`foursquare serve`, on SQLite and on PostgreSQL, and both checked with `mypy --strict` against
the installed package (which passes only if it ships py.typed).

The install fetches httpx and attrs from PyPI, as the README's command does, and httpx-sse,
which docs/clients.md names for the event streams and play.py reads one with (about 20 s, once
for the module).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from testkit.server import running_server

pytestmark = pytest.mark.slow

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "python"


@pytest.fixture(scope="module")
def client_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The interpreter of a fresh virtualenv that holds the installed client, its dependencies
    and httpx-sse only (installed by this environment's pip: the virtualenv is made without
    one of its own, which saves a download-free but slow ensurepip)."""
    root = tmp_path_factory.mktemp("python-client")
    # A copy: building from the checkout would write build/ and an .egg-info into it.
    source = str(
        shutil.copytree(CLIENT, root / "source", ignore=shutil.ignore_patterns("__pycache__"))
    )
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python)]
    subprocess.run([*pip, "install", "--quiet", source, "httpx-sse"], check=True, timeout=300)
    return python


def readme_example(directory: Path) -> Path:
    text = (CLIENT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- example -->\n```python\n(.*?)```", text, re.DOTALL)
    assert match, "the client's README lost its example"
    example = directory / "readme_example.py"
    example.write_text(match.group(1), encoding="utf-8")
    return example


def run(python: Path, script: Path, base_url: str) -> str:
    # Outside the checkout, so that nothing but the installed package can be imported.
    done = subprocess.run(
        [python, script],
        cwd=script.parent,
        env={**os.environ, "FOURSQUARE_URL": base_url, "PYTHONPATH": ""},
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_installed_client_plays_against_a_real_server(
    database_url: str, client_python: Path, tmp_path: Path
) -> None:
    example = readme_example(tmp_path)
    play = Path(shutil.copy(CLIENT / "tests" / "play.py", tmp_path))
    with running_server(database_url) as server:
        printed = run(client_python, example, server.base_url)
        assert run(client_python, play, server.base_url).startswith("played ")
        # What the README's example did, read back over plain HTTP.
        guest_line, board_line, account_line = printed.splitlines()
        name = account_line.split(":")[0]
        with httpx.Client(base_url=server.base_url) as http:
            # The race's game is dealt when its countdown ends, maybe between two reads, and
            # counts in the stats from then on; it is sealed until the race ends, so the games
            # page lists it only then (newest first: the race's game, then the one played).
            games = http.get(f"/players/{name}/games").json()["games"]
            played = http.get(f"/players/{name}").json()["stats"]["games_played"]
            assert 1 <= len(games) <= played <= 2
            assert games[-1]["status"] == account_line.split()[1].rstrip(";")
            races = http.get(f"/players/{name}/races").json()["races"]
            assert [race["racers"] for race in races] == [2], races
    assert re.fullmatch(r"(won|lost) after \d+ placements, score (\d+|None)", guest_line)
    assert board_line.startswith("leaderboard: [")
    assert account_line.endswith(f"[{name!r}, 'computer']")


def test_the_example_and_the_checks_pass_mypy_strict_against_the_installed_package(
    client_python: Path, tmp_path: Path
) -> None:
    example = readme_example(tmp_path)
    play = shutil.copy(CLIENT / "tests" / "play.py", tmp_path)
    mypy = [sys.executable, "-m", "mypy", "--strict", "--no-incremental"]
    checked = subprocess.run(
        [*mypy, "--python-executable", client_python, example, play],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Success: no issues found in 2 source files" in checked.stdout
