"""No module reads another module's underscored names (the project's rule, checked by parsing).

A module may use the underscored names it defines itself (on ``self``/``cls``, or on another
instance of its own class, as :meth:`engine.game.Game.copy` does); everything else must go
through public names. The check is syntactic, so it looks at:

* ``obj._name`` (read, written or deleted) where ``_name`` is not defined in the module, or where
  ``obj`` is a module the file imported (``grid._WIDTH``);
* ``getattr(obj, "_name")`` and friends with a literal name, on the same terms;
* ``from module import _name`` and imports of underscored modules (``from pkg._impl import``).

A private module belongs to its package, as Python's convention for a leading underscore has it:
the modules beside it (``pkg/game.py`` for ``pkg/_impl.py``) may import its public names; the
modules of a subpackage (``pkg/player/``), of other packages and the tests may not. That is how
the engine keeps its unchecked bitboard layer (``engine/_bitboard.py``) to itself: the computer
player in ``engine/player/`` goes through the public, checked ``engine.Board`` like anyone else.

A name counts as defined in a module when the module binds it at top level or in a class body,
lists it in ``__slots__``, or assigns it on ``self``/``cls``. Dunder names (``__init__``) are not
private, and neither are the documented methods of named tuples (``_replace``, ``_asdict``...),
which carry an underscore only so that they cannot clash with field names.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("api", "engine", "bench", "testkit", "tests")

# collections.namedtuple / typing.NamedTuple's public API: underscored to avoid field names.
NAMED_TUPLE_API = frozenset({"_asdict", "_field_defaults", "_fields", "_make", "_replace"})
# SQLAlchemy's Row is a named tuple too, and documents its mapping view the same way
# (``row._mapping``: the columns by name, underscored so as not to clash with one).
ROW_API = frozenset({"_mapping", "_tuple", "_t"})
# Underscored names that the standard library documents as public: os._exit ends a process
# without running its clean-up (a worker whose server died, api/hints/pool.py).
DOCUMENTED_STDLIB = frozenset({"_exit"})
ATTRIBUTE_FUNCTIONS = frozenset({"getattr", "setattr", "hasattr", "delattr"})


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


@dataclass(frozen=True)
class Violation:
    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def defined_names(tree: ast.Module) -> set[str]:
    """The underscored names a module defines for itself."""
    names: set[str] = set()

    def bind(target: ast.expr) -> None:
        if isinstance(target, ast.Name):
            names.add(target.id)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                bind(element)
        elif (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id in {"self", "cls"}
        ):
            names.add(target.attr)

    def body(statements: list[ast.stmt], in_class: bool) -> None:
        for node in statements:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            if isinstance(node, ast.ClassDef):
                body(node.body, in_class=True)
            elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    bind(target)
                    if (
                        in_class
                        and isinstance(target, ast.Name)
                        and target.id == "__slots__"
                        and node.value is not None
                    ):
                        names.update(
                            c.value
                            for c in ast.walk(node.value)
                            if isinstance(c, ast.Constant) and isinstance(c.value, str)
                        )
            elif isinstance(node, ast.If | ast.For | ast.While | ast.With | ast.Try):
                for field in ("body", "orelse", "finalbody"):
                    body(getattr(node, field, []), in_class)
                for handler in getattr(node, "handlers", []):
                    body(handler.body, in_class)

    body(tree.body, in_class=False)
    for node in ast.walk(tree):  # attributes assigned on self/cls inside methods
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute):
                    bind(target)
    return {name for name in names if is_private(name)}


def imported_modules(tree: ast.Module) -> set[str]:
    """Local names bound to modules by ``import x`` / ``import x.y as z``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names.add(alias.asname or alias.name.split(".")[0])
    return names


def package_of(path: str) -> str:
    """The dotted package a file belongs to: ``engine/player/search.py`` -> ``engine.player``."""
    return ".".join(Path(path).parent.parts)


def private_import(module: str, importer: str) -> bool:
    """Whether importing ``module`` from a module of package ``importer`` reaches into another
    package's private module (a private module's own package may import it)."""
    parts = module.split(".")
    if not any(is_private(part) for part in parts):
        return False
    return any(is_private(part) for part in parts[:-1]) or ".".join(parts[:-1]) != importer


def violations(source: str, path: str) -> list[Violation]:
    """Every place where the module at ``path`` uses another module's underscored name."""
    tree = ast.parse(source, filename=path)
    importer = package_of(path)
    own = defined_names(tree)
    modules = imported_modules(tree)
    found: list[Violation] = []

    def check(obj: ast.expr, name: str, line: int, how: str) -> None:
        if not is_private(name) or name in NAMED_TUPLE_API | ROW_API | DOCUMENTED_STDLIB:
            return
        if isinstance(obj, ast.Name):
            if obj.id in modules:
                found.append(Violation(path, line, f"{how} {obj.id}.{name} of another module"))
                return
            if obj.id in {"self", "cls"}:
                return
        if name not in own:
            found.append(Violation(path, line, f"{how} {ast.unparse(obj)}.{name}"))

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            check(node.value, node.attr, node.lineno, "uses")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ATTRIBUTE_FUNCTIONS
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            check(node.args[0], node.args[1].value, node.lineno, f"{node.func.id}s")
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:  # relative: from the importer's package, one level up per extra dot
                base = importer.split(".")[: len(importer.split(".")) - (node.level - 1)]
                module = ".".join([*base, module] if module else base)
            if private_import(module, importer):
                found.append(Violation(path, node.lineno, f"imports from private {module}"))
            for alias in node.names:
                if is_private(alias.name):
                    found.append(
                        Violation(path, node.lineno, f"imports {alias.name} from {module}")
                    )
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if private_import(alias.name, importer):
                    found.append(Violation(path, node.lineno, f"imports private {alias.name}"))
    return sorted(found, key=lambda v: v.line)


def modules() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))


def test_no_module_uses_another_modules_underscored_names() -> None:
    paths = modules()
    assert len(paths) > 50  # the packages were found
    found = [
        str(v)
        for path in paths
        for v in violations(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    "source",
    [
        "game._apply(3)",
        "child._deck = deck",
        "del game._cache",
        "x = getattr(game, '_status')",
        "from engine.search import _line",
        "from engine._impl import Game",
        "import engine._impl",
        # A module's own name does not excuse reading it from another module.
        "import engine.grid as grid\n_WIDTH = 7\nprint(grid._WIDTH)",
    ],
)
def test_the_check_catches(source: str) -> None:
    assert violations(source, "example.py"), source


@pytest.mark.parametrize(
    ("source", "path"),
    [
        # A private module is its package's: not a subpackage's, another package's or a test's.
        ("from engine._bitboard import Bitboard", "engine/player/search.py"),
        ("import engine._bitboard", "engine/player/policies.py"),
        ("from engine._bitboard import Bitboard", "api/games/service.py"),
        ("from engine._bitboard import Bitboard", "tests/engine/test_board.py"),
        ("from . import _bitboard", "engine/player/search.py"),
        ("from .._bitboard import Bitboard", "engine/player/search.py"),
        # ... and even its own package may not take its underscored names.
        ("from engine._bitboard import _helper", "engine/game.py"),
        ("from engine._private.rules import flipped", "engine/game.py"),
    ],
)
def test_the_check_keeps_a_private_module_to_its_package(source: str, path: str) -> None:
    assert violations(source, path), (source, path)


@pytest.mark.parametrize(
    ("source", "path"),
    [
        ("from engine._bitboard import Bitboard", "engine/game.py"),
        ("import engine._bitboard", "engine/solver.py"),
        ("from ._bitboard import flipped", "engine/board.py"),
    ],
)
def test_the_check_lets_a_package_use_its_private_module(source: str, path: str) -> None:
    assert not violations(source, path), (source, path)


@pytest.mark.parametrize(
    "source",
    [
        "class A:\n    __slots__ = ('_x',)\n    def copy(self, other):\n        other._x = self._x",
        "class A:\n    def __init__(self):\n        self._y = 1\ndef f(a):\n    return a._y",
        "row._replace(version=2)._asdict()",
        "class A:\n    def __init__(self):\n        super().__init__()",
        "class A:\n    @classmethod\n    def make(cls):\n        return cls._build()",
    ],
)
def test_the_check_allows(source: str) -> None:
    assert not violations(source, "example.py"), source
