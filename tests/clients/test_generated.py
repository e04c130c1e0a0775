"""The committed clients (clients/) were generated from the service's current OpenAPI document.

.ci/run regenerates them and fails on any difference; these checks say the same sooner, in the
quick tier and without npm: a route, a body or an error changed without `bash clients/generate`
fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from api.app import create_app

CLIENTS = Path(__file__).resolve().parents[2] / "clients"
REGENERATE = "the API changed: regenerate the clients with `bash clients/generate`"


def operations(document: dict[str, Any]) -> dict[str, str]:
    """operationId: "METHOD /path", of every operation of the document."""
    return {
        operation["operationId"]: f"{method.upper()} {path}"
        for path, item in document["paths"].items()
        for method, operation in item.items()
    }


def test_the_committed_document_is_the_services() -> None:
    committed = json.loads((CLIENTS / "openapi.json").read_text(encoding="utf-8"))
    assert committed == create_app().openapi(), REGENERATE


def test_the_python_client_has_a_module_for_each_operation_and_no_other() -> None:
    package = CLIENTS / "python" / "foursquare_client"
    modules = {p.stem for p in (package / "api").glob("*/*.py") if p.stem != "__init__"}
    document = json.loads((CLIENTS / "openapi.json").read_text(encoding="utf-8"))
    assert modules == set(operations(document)), REGENERATE
    assert (package / "py.typed").is_file()


def test_the_typescript_types_have_each_operation_and_no_other() -> None:
    schema = (CLIENTS / "typescript" / "src" / "schema.ts").read_text(encoding="utf-8")
    document = json.loads((CLIENTS / "openapi.json").read_text(encoding="utf-8"))
    listed = schema.split("export interface operations {")[1]
    declared = re.findall(r"^    (\w+): \{$", listed, re.MULTILINE)
    assert sorted(declared) == sorted(operations(document)), REGENERATE
