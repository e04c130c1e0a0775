"""Each table has one owner, and only its owner's code names it (issue 52): a feature reads or
writes another's tables through that feature's face, never in its own SQL.

A table's owner is the folder of ``api/`` whose ``tables.py`` declares it
(``name = Table("name", metadata, ...)``, on the one MetaData of ``api.core.models``); ``core``
owns the few every feature shares (:data:`CORE_TABLES`). A module names a table when it imports
another folder's ``tables`` module or a name declared there (``from api.games import games``
included), imports ``api.tables`` (every table at once: Alembic's), builds
``Table("name", ...)``/``table("name")`` itself, or writes the name after FROM, JOIN, UPDATE or
INTO in a string (docstrings left out: they may say where a figure comes from), or looks it
up on the MetaData (``metadata.tables["name"]``). A foreign key's ``"games.id"`` is the
schema's, not a query, and stays allowed. The declarations are found by parsing the code; the
test checks that they are every table of the MetaData, so a table declared some other way
cannot slip past.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import api.tables

ROOT = Path(__file__).resolve().parents[2]
API = ROOT / "api"

# What core keeps for good: the secrets every feature shares (api.core.store.service_secret).
CORE_TABLES = {"service_secrets"}

SQL_NAME = re.compile(r"\b(?:FROM|JOIN|UPDATE|INTO)\s+\"?(\w+)", re.IGNORECASE)


def folder_of(path: Path) -> str:
    """The folder of ``api/`` a file is in; ``top`` for the app, the CLI and ``api.tables``."""
    relative = path.relative_to(API)
    return relative.parts[0] if len(relative.parts) > 1 else "top"


@dataclass(frozen=True)
class Declaration:
    table: str
    symbol: str  # the class or variable that declares it
    path: Path


def declarations_in(tree: ast.Module, path: Path) -> list[Declaration]:
    """``name = Table("name", ...)`` and ORM classes' ``__tablename__ = "name"``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if (
                    isinstance(item, ast.Assign)
                    and any(getattr(target, "id", "") == "__tablename__" for target in item.targets)
                    and isinstance(item.value, ast.Constant)
                ):
                    found.append(Declaration(str(item.value.value), node.name, path))
        elif isinstance(node, ast.Assign) and (name := table_call(node.value)) is not None:
            found += [
                Declaration(name, target.id, path)
                for target in node.targets
                if isinstance(target, ast.Name)
            ]
    return found


def table_call(node: ast.expr) -> str | None:
    """The table name of a ``Table("name", ...)`` or ``table("name")`` call, if it is one."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    func = node.func
    called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    first = node.args[0]
    if called in ("Table", "table") and isinstance(first, ast.Constant):
        return str(first.value)
    return None


def docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes of the module, its classes and its functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


@dataclass(frozen=True)
class Owners:
    tables: dict[str, str]  # table -> owning folder (core's own and the features')
    symbols: dict[str, dict[str, str]]  # folder -> {declaring name: table} of its tables module


def foreign_names(source: str, folder: str, owners: Owners) -> list[str]:
    """What the code ``source``, in ``folder`` of ``api/``, names of tables it does not own."""
    tree = ast.parse(source)
    found = []

    def owned_elsewhere(table: str) -> bool:
        owner = owners.tables.get(table)
        return owner is not None and owner != folder

    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            modules = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""] + [f"{node.module}.{alias.name}" for alias in node.names]
            )
            for module in modules:
                parts = module.split(".")
                if module == "api.tables":
                    found.append("imports api.tables (every table: Alembic's)")
                elif parts[0] == "api" and parts[2:3] == ["tables"] and parts[1] != folder:
                    found.append(f"imports {parts[1]}'s tables")
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                parts = node.module.split(".")
                theirs = parts[1] if parts[0] == "api" and len(parts) > 1 else None
                for alias in node.names:
                    if theirs and theirs != folder and alias.name in owners.symbols.get(theirs, {}):
                        found.append(f"imports {theirs}'s table {alias.name}")
        elif isinstance(node, ast.Call) and (table := table_call(node)) is not None:
            if owned_elsewhere(table):
                found.append(f"declares {owners.tables[table]}'s table {table} again")
        elif (
            isinstance(node, ast.Subscript)
            and getattr(node.value, "attr", "") == "tables"  # metadata.tables["name"]
            and isinstance(node.slice, ast.Constant)
            and owned_elsewhere(name := str(node.slice.value))
        ):
            found.append(f"looks up {owners.tables[name]}'s table {name} on the MetaData")
    skip = docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            for table in SQL_NAME.findall(node.value):
                if owned_elsewhere(table):
                    found.append(f"names {owners.tables[table]}'s table {table} in SQL")
    return found


def sources() -> dict[Path, str]:
    return {path: path.read_text(encoding="utf-8") for path in sorted(API.rglob("*.py"))}


def declarations() -> list[Declaration]:
    return [
        declaration
        for path, source in sources().items()
        for declaration in declarations_in(ast.parse(source), path)
    ]


def owners() -> Owners:
    tables: dict[str, str] = {}
    symbols: dict[str, dict[str, str]] = {}
    for declaration in declarations():
        folder = folder_of(declaration.path)
        tables[declaration.table] = folder
        symbols.setdefault(folder, {})[declaration.symbol] = declaration.table
    return Owners(tables, symbols)


def test_every_table_is_declared_once_where_its_owner_keeps_tables() -> None:
    found = declarations()
    assert sorted(d.table for d in found) == sorted(api.tables.metadata.tables)
    misplaced = [
        f"{d.table} in {d.path.relative_to(ROOT)}"
        for d in found
        if folder_of(d.path) != "core" and d.path.name != "tables.py"
    ]
    assert misplaced == []


def test_core_declares_only_the_tables_every_feature_shares() -> None:
    in_core = {d.table for d in declarations() if folder_of(d.path) == "core"}
    assert in_core == CORE_TABLES


def test_each_folder_names_only_its_own_tables() -> None:
    known = owners()
    found = [
        f"{path.relative_to(ROOT)}: {what}"
        for path, source in sources().items()
        if path != API / "tables.py"  # the aggregator: every table on Alembic's MetaData
        for what in foreign_names(source, folder_of(path), known)
    ]
    assert found == []


SYNTHETIC = Owners(
    tables={"games": "games", "placements": "games", "service_secrets": "core"},
    symbols={"games": {"games": "games", "placements": "placements"}},
)


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ('Q = text("SELECT id FROM games WHERE player = :p")', "names games's table games in SQL"),
        ('Q = "select 1 from x join placements on true"', "names games's table placements in SQL"),
        ('Q = f"UPDATE service_secrets SET value = {v}"', "names core's table service_secrets"),
        ("from api.games.tables import games", "imports games's tables"),
        ("from api.games import tables", "imports games's tables"),
        ("import api.games.tables as t", "imports games's tables"),
        ("from api.games import placements", "imports games's table placements"),
        ("from api.tables import metadata", "imports api.tables"),
        ('games = table("games", column("id"))', "declares games's table games again"),
        ('games = metadata.tables["games"]', "looks up games's table games"),
    ],
)
def test_the_checker_catches_a_reference_to_another_owners_table(source: str, caught: str) -> None:
    found = foreign_names(source, "races", SYNTHETIC)
    assert any(what.startswith(caught) for what in found), found


def test_the_checker_leaves_an_owner_its_own_tables_and_docstrings_alone() -> None:
    own = 'from api.games.tables import games\nQ = text("SELECT id FROM games")\n'
    assert foreign_names(own, "games", SYNTHETIC) == []
    said = '"""Counts the wins from games in progress."""\nfrom api.games import GameService\n'
    assert foreign_names(said, "races", SYNTHETIC) == []


# ---------------------------------------------------------------- one declaration of a row

# A shape that holds this share of a table's columns (by name) is a copy of the table's
# declaration, not what one use needs: a new column would then be added twice.
MIRROR_SHARE = 0.8
# A placement is the one row the code builds whole and writes (its record is the answer to
# the placement and the feed's event) and that every use reads whole (a replay, the feed, an
# analysis): its record is the placement, not a copy of a read.
# The bulk loader's entrant (bench/tournament_load.py) is a row it builds whole and writes.
WHOLE = {("api/games/store.py", "PlacementRecord"), ("api/tournaments/bulk.py", "LoadedEntrant")}


def row_shapes(tree: ast.Module) -> dict[str, set[str]]:
    """The NamedTuples and dataclasses of a module, with their fields' names."""
    shapes = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        named_tuple = any(
            getattr(base, "id", getattr(base, "attr", "")) == "NamedTuple" for base in node.bases
        )
        dataclass = any("dataclass" in ast.unparse(d) for d in node.decorator_list)
        if named_tuple or dataclass:
            shapes[node.name] = {
                item.target.id
                for item in node.body
                if isinstance(item, ast.AnnAssign)
                and isinstance(item.target, ast.Name)
                and "ClassVar" not in ast.unparse(item.annotation)  # a constant, not a field
            }
    return shapes


def mirrors(source: str, tables: dict[str, set[str]]) -> list[str]:
    """The shapes of ``source`` that repeat :data:`MIRROR_SHARE` of a table's columns."""
    return [
        f"{shape} repeats {len(fields & columns)} of {table}'s {len(columns)} columns"
        for shape, fields in row_shapes(ast.parse(source)).items()
        for table, columns in tables.items()
        if len(fields & columns) >= MIRROR_SHARE * len(columns)
    ]


def test_no_shape_repeats_a_tables_columns() -> None:
    tables = {
        name: {column.name for column in table.columns}
        for name, table in api.tables.metadata.tables.items()
    }
    found = {
        (str(path.relative_to(ROOT)), what.split()[0]): what
        for path, source in sources().items()
        for what in mirrors(source, tables)
    }
    assert sorted(f"{path}: {found[path, shape]}" for path, shape in found.keys() - WHOLE) == []
    assert sorted(WHOLE - found.keys()) == []


def test_the_mirror_check_catches_a_copied_row_and_leaves_a_use_alone() -> None:
    tables = {"analyses": {"game_id", "state", "reviewed", "total", "result", "error"}}
    copied = (
        "from dataclasses import dataclass\n"
        "@dataclass(frozen=True)\n"
        "class AnalysisRow:\n"
        "    game_id: int\n    state: str\n    reviewed: int\n    total: int\n    result: str\n"
        "class Progress(NamedTuple):\n    reviewed: int\n    total: int\n"
    )
    assert mirrors(copied, tables) == ["AnalysisRow repeats 5 of analyses's 6 columns"]
