"""The ``>>>`` examples in the engine's docstrings are run, so they stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import engine

MODULE_NAMES = ["engine"] + [
    info.name for info in pkgutil.walk_packages(engine.__path__, prefix="engine.")
]


def run_doctests(module: ModuleType) -> doctest.TestResults:
    return doctest.testmod(module, verbose=False, report=False)


def test_engine_modules_are_found() -> None:
    assert {"engine.cards", "engine.game", "engine.grid"} <= set(MODULE_NAMES)


def test_doctests_of_every_engine_module_pass() -> None:
    failed = attempted = 0
    failures = []
    for name in MODULE_NAMES:
        results = run_doctests(importlib.import_module(name))
        failed += results.failed
        attempted += results.attempted
        if results.failed:
            failures.append(name)

    assert failed == 0, f"doctests failed in {failures} (run python -m doctest -v on them)"
    assert attempted > 0
