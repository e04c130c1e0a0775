"""The locks in requirements/ (written by ``bash requirements/compile``) against pyproject.toml,
each other, and the installs that use them.

Every dependency pyproject.toml declares must be pinned, at a version it allows, with the
hashes pip checks; the development lock must hold the service's pins unchanged (a package both
need has one version); and the Dockerfile, .ci/run and the README must install from them. A
dependency added to pyproject.toml without running the script fails here.
"""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
LOCKS = ROOT / "requirements"
_HASH = re.compile(r"sha256:[0-9a-f]{64}")


@dataclass(frozen=True)
class Pin:
    name: str  # canonical
    version: str
    marker: str  # "" when the pin applies everywhere
    hashes: tuple[str, ...]


def read_lock(name: str) -> list[Pin]:
    """The pins of ``requirements/<name>``: one logical line each (continuations joined), a
    requirement then its ``--hash`` options; comments dropped."""
    text = (LOCKS / name).read_text()
    pins = []
    for line in text.replace("\\\n", " ").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        requirement_text, *hashes = re.split(r"\s+--hash=", line)
        requirement = Requirement(requirement_text)
        specifiers = list(requirement.specifier)
        assert len(specifiers) == 1 and specifiers[0].operator == "==", line
        pins.append(
            Pin(
                canonicalize_name(requirement.name),
                specifiers[0].version,
                str(requirement.marker or ""),
                tuple(hashes),
            )
        )
    return pins


def by_name(pins: list[Pin]) -> dict[str, list[Pin]]:
    grouped: dict[str, list[Pin]] = defaultdict(list)
    for pin in pins:
        grouped[pin.name].append(pin)
    return grouped


def pyproject() -> dict[str, Any]:
    loaded: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return loaded


def extra_requirements(requirement: Requirement) -> list[Requirement]:
    """What ``requirement``'s extras add (``sqlalchemy[asyncio]``: greenlet), from the
    installed distribution's metadata."""
    added = []
    for extra in requirement.extras:
        for text in importlib.metadata.requires(requirement.name) or []:
            dependency = Requirement(text)
            marker = dependency.marker
            # Only what the extra brings: with no extra requested it is left out.
            if marker and marker.evaluate({"extra": extra}) and not marker.evaluate({"extra": ""}):
                added.append(dependency)
    assert added or not requirement.extras, f"{requirement} brings nothing: is it installed?"
    return added


def assert_pinned(requirements: list[Requirement], lock: str) -> None:
    pins = by_name(read_lock(lock))
    for requirement in requirements:
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement} is not in requirements/{lock}: run the script"
        for pin in pins[name]:
            assert requirement.specifier.contains(pin.version, prereleases=True), (
                f"requirements/{lock} pins {name}=={pin.version}, outside {requirement}"
            )


@pytest.mark.parametrize("lock", ["service.txt", "dev.txt", "build.txt"])
def test_every_pin_is_exact_and_hashed(lock: str) -> None:
    pins = read_lock(lock)
    assert pins
    for pin in pins:
        assert pin.hashes, f"{pin.name} has no hash in requirements/{lock}"
        assert all(_HASH.fullmatch(value) for value in pin.hashes), pin


def test_the_service_lock_pins_every_dependency_and_what_its_extras_bring() -> None:
    declared = [Requirement(text) for text in pyproject()["project"]["dependencies"]]
    assert_pinned(declared, "service.txt")
    brought = [added for requirement in declared for added in extra_requirements(requirement)]
    assert "greenlet" in {canonicalize_name(r.name) for r in brought}  # sqlalchemy[asyncio]
    assert_pinned(brought, "service.txt")
    # Imported by the service's own code, so declared rather than left to fastapi.
    assert {"anyio", "starlette"} <= {canonicalize_name(r.name) for r in declared}


def test_the_dev_lock_holds_the_service_pins_and_the_extras() -> None:
    service = set(read_lock("service.txt"))
    dev = set(read_lock("dev.txt"))
    assert service <= dev, f"pins that differ: {sorted(p.name for p in service - dev)}"
    project = pyproject()["project"]
    extras = project["optional-dependencies"]
    assert set(extras) == {"test", "dev"}
    assert {"ruff", "mypy"} <= {canonicalize_name(Requirement(t).name) for t in extras["dev"]}
    assert_pinned(
        [Requirement(text) for text in [*project["dependencies"], *extras["test"], *extras["dev"]]],
        "dev.txt",
    )
    # Nothing for the tests or the linters runs inside the service.
    assert not {"pytest", "ruff", "mypy", "hypothesis"} & {pin.name for pin in service}


def test_the_build_lock_pins_the_build_backend() -> None:
    requires = [Requirement(text) for text in pyproject()["build-system"]["requires"]]
    assert_pinned(requires, "build.txt")


def test_the_installs_use_the_locks() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "--require-hashes -r requirements/build.txt" in dockerfile
    assert "--require-hashes -r requirements/service.txt" in dockerfile
    ci = (ROOT / ".ci" / "run").read_text()
    assert "--require-hashes -r requirements/dev.txt" in ci
    assert "--no-deps -e ." in ci
    readme = (ROOT / "README.md").read_text()
    assert ".venv/bin/pip install -r requirements/service.txt" in readme
    assert ".venv/bin/pip install -r requirements/dev.txt" in readme
