"""The service's imports run one way: between folders, and inside each feature routes →
service → store → core, the engine below all.

Folders: the features stand side by side on the core; no two folders of ``api/`` import each
other, directly or in a loop, and the games feature uses none of the features that keep
figures of games (they subscribe to its moments: :mod:`api.games.hooks`).

Inside: every module of ``api/`` has a place (:func:`place_of`): the shared ``core``, the
operations package ``ops``, or a layer of one feature's folder: its HTTP layer (``routes``,
``render``), its service layer (``service`` and the other modules it is made of), its
models (``schemas``: the request and response models its service answers in), or its store
(``store``, the SQL). A module may import downward only, and another
feature only through that feature's service layer (or, from the HTTP layer, its HTTP layer
too).
"""

from __future__ import annotations

import ast
import importlib
from dataclasses import dataclass
from pathlib import Path

import pytest

from api.core.errors import ApiError
from api.core.settings import SettingsBase

ROOT = Path(__file__).resolve().parents[2]
API = ROOT / "api"
ENGINE = ROOT / "engine"

HTTP_MODULES = {"routes", "render"}
# A feature's request and response models: the shape its service answers in, under it.
MODEL_MODULES = {"schemas"}
STORE_MODULES = {"store", "recount"}
RANK = {"http": 4, "service": 3, "models": 2, "store": 1, "core": 0}


@dataclass(frozen=True)
class Place:
    feature: str  # "core", "ops", "top" (the app factory and the CLI) or a feature's folder
    layer: str  # "http", "service", "store", "core", "ops" or "top"


def place_of(module: str) -> Place:
    parts = module.split(".")
    if len(parts) == 2:  # api.app, api.cli
        return Place("top", "top")
    feature, name = parts[1], parts[-1]
    if feature in ("core", "ops"):
        return Place(feature, feature)
    if name in HTTP_MODULES:
        return Place(feature, "http")
    if name in MODEL_MODULES:
        return Place(feature, "models")
    if name in STORE_MODULES:
        return Place(feature, "store")
    return Place(feature, "service")


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(API.rglob("*.py")):
        relative = path.relative_to(ROOT).with_suffix("")
        parts = list(relative.parts)
        if parts[-1] == "__init__":
            continue
        found[".".join(parts)] = path
    return found


def imports_of(path: Path) -> list[str]:
    """Every module ``path`` imports, at any depth of its code (function bodies too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            # ``from api.games import store``: the submodule is what is used.
            names += [f"{node.module}.{alias.name}" for alias in node.names]
    return names


def violation(importer: str, imported: str, known: set[str]) -> str | None:
    if imported not in known:
        return None  # a name, not a module (``from api.games.service import deal``)
    mine, theirs = place_of(importer), place_of(imported)
    if mine.layer == "top":
        return None
    if theirs.layer == "top":
        return "imports the app factory or the CLI"
    if mine.layer == "core":
        return None if theirs.layer == "core" else "core imports beyond core"
    if mine.layer == "ops":
        return None if theirs.layer in ("core", "ops") else "ops imports a feature"
    if theirs.layer in ("core", "ops"):
        return None
    if mine.feature == theirs.feature:
        return None if RANK[theirs.layer] <= RANK[mine.layer] else "imports upward"
    # Another feature: through its service or its models (the HTTP layer may also use its
    # HTTP layer).
    if theirs.layer in ("service", "models") and mine.layer in ("http", "service", "models"):
        return None
    if theirs.layer == "http" and mine.layer == "http":
        return None
    return f"reaches into {theirs.feature}'s {theirs.layer}"


def test_every_module_has_a_place_and_imports_run_one_way() -> None:
    known = modules()
    assert len(known) > 40
    problems = [
        f"{importer} -> {imported}: {why}"
        for importer, path in known.items()
        for imported in imports_of(path)
        if imported.startswith("api.")
        and (why := violation(importer, imported, set(known))) is not None
    ]
    assert problems == []


def folder_imports() -> dict[str, set[str]]:
    """Which folder of ``api/`` imports which (the app factory and the CLI are folders of
    their own, as ``../shared/tools/house.py`` counts them)."""
    graph: dict[str, set[str]] = {}
    for module, path in modules().items():
        mine = module.split(".")[1]
        graph.setdefault(mine, set())
        for name in imports_of(path):
            parts = name.split(".")
            if parts[0] == "api" and len(parts) > 1 and parts[1] != mine:
                graph[mine].add(parts[1])
    return graph


def loop_through(graph: dict[str, set[str]], start: str) -> list[str] | None:
    """A chain of imports from ``start`` back to itself, if there is one."""
    stack = [(start, [start])]
    seen: set[str] = set()
    while stack:
        here, path = stack.pop()
        for there in sorted(graph.get(here, ())):
            if there == start:
                return [*path, start]
            if there not in seen:
                seen.add(there)
                stack.append((there, [*path, there]))
    return None


def test_no_two_folders_import_each_other_even_in_a_loop() -> None:
    graph = folder_imports()
    assert {"games", "players", "leaderboards", "challenges", "events"} <= set(graph)
    assert [chain for folder in graph if (chain := loop_through(graph, folder))] == []


def test_the_games_use_none_of_the_features_that_count_them() -> None:
    assert folder_imports()["games"] <= {"core", "ops", "idempotency"}


def test_the_loop_check_sees_a_loop() -> None:
    graph = folder_imports()
    graph["core"] = graph["core"] | {"games"}  # games imports core: a loop
    assert loop_through(graph, "core") is not None


def test_the_engine_imports_nothing_of_the_service() -> None:
    for path in ENGINE.rglob("*.py"):
        assert not [name for name in imports_of(path) if name.split(".")[0] == "api"], path


def test_the_tests_and_the_benchmarks_import_nothing_of_each_other() -> None:
    """No module under tests/ imports bench/ (the benchmarks' smoke runs in tests/bench run
    them as commands and read what they print or their ``--json`` file); bench/ never imports
    tests/. The helpers both need (processes, servers, databases) are testkit/'s, which
    imports neither, so that neither breaks when the other changes."""
    tests, bench, testkit = ROOT / "tests", ROOT / "bench", ROOT / "testkit"
    wrong = [
        str(path.relative_to(ROOT))
        for folder, others in (
            (tests, {"bench"}),
            (bench, {"tests"}),
            (testkit, {"tests", "bench"}),
        )
        for path in folder.rglob("*.py")
        if any(name.split(".")[0] in others for name in imports_of(path))
    ]
    assert wrong == []


def test_no_route_touches_the_database() -> None:
    known = modules()
    for module, path in known.items():
        if place_of(module).layer == "http":
            assert "api.core.database" not in imports_of(path), module


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("api.games.store", "api.games.service"),
        ("api.games.service", "api.games.routes"),
        ("api.games.schemas", "api.games.service"),
        ("api.core.database", "api.games.store"),
        ("api.ops.metrics", "api.games.service"),
        ("api.challenges.service", "api.leaderboards.store"),
        ("api.games.routes", "api.players.store"),
    ],
)
def test_the_rule_refuses_what_it_must(importer: str, imported: str) -> None:
    assert violation(importer, imported, set(modules())) is not None


def test_no_module_is_longer_than_about_five_hundred_lines() -> None:
    for module, path in modules().items():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= 520, f"{module} has {lines} lines"


FEATURES = sorted(
    path.name
    for path in API.iterdir()
    if path.is_dir() and path.name not in ("core", "ops", "__pycache__")
)


def reaches_into(importer: str, imported: str) -> bool:
    """Whether ``importer`` uses a module of another feature rather than its face (its
    package: ``from api.games import GameService``)."""
    parts = imported.split(".")
    return (
        len(parts) > 2
        and parts[0] == "api"
        and parts[1] in FEATURES
        and parts[1] != importer.split(".")[1]
        and imported in modules()
    )


def test_a_feature_uses_another_only_through_its_face() -> None:
    """The app, the CLI and every feature import another feature's package, never one of its
    modules: each package's ``__all__`` is all that others may use."""
    reaching = [
        f"{importer} -> {imported}"
        for importer, path in modules().items()
        for imported in imports_of(path)
        if reaches_into(importer, imported)
    ]
    assert reaching == []


def test_the_face_check_sees_a_reach() -> None:
    assert reaches_into("api.races.service", "api.games.store")
    assert reaches_into("api.app", "api.games.service")
    assert not reaches_into("api.races.service", "api.games")
    assert not reaches_into("api.games.service", "api.games.store")


@pytest.mark.parametrize("feature", FEATURES)
def test_every_feature_has_a_face_of_few_names(feature: str) -> None:
    package = importlib.import_module(f"api.{feature}")
    names = getattr(package, "__all__", None)
    assert names is not None, f"api/{feature}/__init__.py names no __all__"
    assert all(hasattr(package, name) for name in names)
    # The games' face is the one every feature uses: a handful of ways in (issue 41). A
    # feature's errors (which others raise or declare as theirs) and its settings class
    # (which the one Settings inherits) are declarations beside them, not counted.
    # The games' 17: its ids' parsing (parse_game_id, existing_game) left core with
    # GameNotFound (issue 52), for the features whose routes take a game id.
    ways_in = [name for name in names if not declaration(getattr(package, name))]
    assert len(ways_in) <= (17 if feature == "games" else 20), ways_in


def declaration(thing: object) -> bool:
    return isinstance(thing, type) and issubclass(thing, ApiError | SettingsBase)
