"""The service's imports run one way: between folders, and inside each feature routes →
service → store → core, the engine below all.

Between folders, the contracts in ``pyproject.toml`` (``[tool.importlinter]``), which
``lint-imports`` checks (here and in ``.ci/run``): the CLI on the app, the app on the features,
the features on ``ops``, ``ops`` on ``core``; no two folders of ``api/`` import each other,
directly or in a loop; the games feature uses none of the features that keep figures of games
(they subscribe to its moments: :mod:`api.games.hooks`); a feature uses another only through
its package (its ``__all__``), never one of its modules; no route imports the database; the
engine imports nothing of ``api``. The tests below check that the contracts hold, that they
name every feature, and that they break where they must.

Inside a feature, which no contract type expresses (its service layer is any module not
named as another layer): every module of ``api/`` has a place (:func:`place_of`): the shared
``core``, the operations package ``ops``, or a layer of one feature's folder: its HTTP layer
(``routes``, ``render``), its service layer (``service`` and the other modules it is made
of), its models (``schemas``: the request and response models its service answers in), or its
store (``store`` and ``queries``, the SQL, and ``tables``, the declarations of the tables it
owns). A module imports its own feature's layers downward only.
"""

from __future__ import annotations

import ast
import importlib
import shutil
import subprocess
import sys
import tomllib
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
STORE_MODULES = {"store", "queries", "recount", "tables"}
RANK = {"http": 4, "service": 3, "models": 2, "store": 1}


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
    """Inside one feature, a module imports its own layers downward only. What crosses
    folders (the app, the features, ops, core, the engine) is the contracts' (below)."""
    if imported not in known:
        return None  # a name, not a module (``from api.games.service import deal``)
    mine, theirs = place_of(importer), place_of(imported)
    if mine.feature != theirs.feature or mine.layer in ("top", "core", "ops"):
        return None
    return None if RANK[theirs.layer] <= RANK[mine.layer] else "imports upward"


def test_inside_each_feature_imports_run_downward() -> None:
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


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("api.games.store", "api.games.service"),
        ("api.games.service", "api.games.routes"),
        ("api.games.schemas", "api.games.service"),
        ("api.games.store", "api.games.placing"),
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


@pytest.mark.parametrize("feature", FEATURES)
def test_every_feature_has_a_face_of_few_names(feature: str) -> None:
    package = importlib.import_module(f"api.{feature}")
    names = getattr(package, "__all__", None)
    assert names is not None, f"api/{feature}/__init__.py names no __all__"
    assert all(hasattr(package, name) for name in names)
    # The games' face is the one every feature uses: a handful of ways in (issue 41), its ids'
    # parsing (parse_game_id, existing_game, for the features whose routes take a game id),
    # and the reads the others make of the games' tables, each a function and the shape it
    # answers in (issue 52: only the games feature names its tables in SQL), and a daily
    # challenge's day as a request names it (parse_day and its pattern: issue 52 moved them
    # from core, for the challenges and the leaderboard's ?challenge=). A feature's
    # errors (which others raise or declare as theirs) and its settings class (which the one
    # Settings inherits) are declarations beside them, not counted.
    ways_in = [name for name in names if not declaration(getattr(package, name))]
    assert len(ways_in) <= (35 if feature == "games" else 20), ways_in


def declaration(thing: object) -> bool:
    return isinstance(thing, type) and issubclass(thing, ApiError | SettingsBase)


LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def contracts() -> dict[str, dict[str, object]]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        config = tomllib.load(file)["tool"]["importlinter"]
    return {contract["id"]: contract for contract in config["contracts"]}


def lint_imports(root: Path, *only: str) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the tree at ``root`` (its ``api``, ``engine`` and ``pyproject.toml``),
    limited to the contracts ``only`` if any are named."""
    command = [str(LINT_IMPORTS), "--no-cache", "--no-logo"]
    command += [f"--contract={contract}" for contract in only]
    return subprocess.run(
        command,
        cwd=root,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_import_contracts_hold() -> None:
    """The same check as .ci/run's, so that the suite alone also fails on a broken contract."""
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Contracts: {len(contracts())} kept, 0 broken." in result.stdout


def test_the_contracts_name_every_feature() -> None:
    """A feature added to api/ is under every contract of features, or this fails: a contract
    lists its modules, and one left out would go unchecked."""
    found = contracts()
    layers = found["layers"]["layers"]
    assert isinstance(layers, list)
    # The features side by side (the one layer of siblings), and under them identity
    # (accounts), which every feature, the games included, may use and which uses none of them.
    at = next(number for number, layer in enumerate(layers) if ":" in layer)
    features = layers[at]
    assert {name.strip() for name in features.split(":")} == {
        f"api.{f}" for f in FEATURES if f != "accounts"
    }
    assert layers[at + 1] == "api.accounts"
    assert {f"face-{feature}" for feature in FEATURES} <= set(found)
    games_first = found["games-first"]["forbidden_modules"]
    assert isinstance(games_first, list)
    assert set(games_first) == {f"api.{f}" for f in set(FEATURES) - GAMES_USE - {"games"}}


# What the games may use: features that keep no figures of games (idempotency: a replayed
# request; accounts, once it is a folder (issue 52): who a key belongs to).
GAMES_USE = {"idempotency", "accounts"}


# Imports planted in a copy of the tree, each breaking the contract it is named with.
PLANTED = {
    "layers": ("api/core/planted.py", "import api.games\n"),
    "no-loops": ("api/idempotency/planted.py", "import api.races\n"),  # races uses idempotency
    "games-first": ("api/games/planted.py", "import api.leaderboards\n"),
    "engine-alone": ("engine/planted.py", "import api.core.clock\n"),
    "routes-no-database": ("api/hints/routes.py", "import api.core.database\n"),
    "face-games": ("api/races/planted.py", "from api.games import store\n"),
}


def test_the_contracts_break_where_they_must(tmp_path: Path) -> None:
    """Each contract fails on a copy of the tree with one import that breaks it, so none of
    them can pass because it checks nothing (a wrong module name, a wildcard matching none)."""
    for folder in ("api", "engine"):
        shutil.copytree(
            ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    for path, line in PLANTED.values():
        with (tmp_path / path).open("a", encoding="utf-8") as file:
            file.write(line)
    broken = [
        contract for contract in contracts() if lint_imports(tmp_path, contract).returncode != 0
    ]
    assert broken == list(PLANTED)
