"""Schemathesis hooks for fuzzing the running service.

Load them with ``SCHEMATHESIS_HOOKS=tests.integrity.fuzz_hooks`` (from the repository root):

* ``before_load_schema`` makes the OpenAPI links usable for stateful sequences, changing the
  served document only where it lacks something (see :func:`complete_links`): link targets
  named by a route's short name are resolved to the operation's real ``operationId``; every
  operation on a game that takes its token (placements, hints) is linked from the creation
  response with ``Authorization: Bearer <token>``; the placement link also carries the ETag as
  ``If-Match`` and the first legal placement as its body; and a placement links to the next
  placement, so that sequences play several cards.
* ``filter_failure`` drops exactly the failures that are documented, deliberate behaviour that
  no JSON schema can express (see :func:`deliberate`). Set ``FOURSQUARE_FUZZ_DROP_LOG=<file>``
  to have every dropped failure written there (JSON lines).
"""

from __future__ import annotations

import json
import os
from typing import Any

import schemathesis
from schemathesis import Case, HookContext, Response
from schemathesis.core.failures import Failure

DROP_LOG = os.environ.get("FOURSQUARE_FUZZ_DROP_LOG")  # a file to append dropped failures to

PLACEMENTS = "/games/{game_id}/placements"
# Refusals that depend on the game's state or on earlier requests, not on the request's shape.
RULE_CODES = frozenset({"not_origin", "not_adjacent", "grid_too_large", "pile_full"})
STATEFUL_CODES = frozenset({"idempotency_key_reused", "precondition_failed"})

REJECTED_POSITIVE_DATA = "ST202"  # positive_data_acceptance
ACCEPTED_INVALID_AUTH = "ST401"  # ignored_auth
ALLOW_HEADER_MISMATCH = "ST205"  # allow_header_conformance


# ----------------------------------------------------------------------------- the document


def _operation_ids(raw_schema: dict[str, Any]) -> dict[tuple[str, str], str]:
    return {
        (method, path): operation["operationId"]
        for path, item in raw_schema.get("paths", {}).items()
        for method, operation in item.items()
        if isinstance(operation, dict) and "operationId" in operation
    }


def _resolve(operation_id: str, known: set[str]) -> str:
    """A link target by its route's short name (``read_game``) resolved to the operationId
    FastAPI generated for it (``read_game_games__game_id__get``), if it does not exist."""
    if operation_id in known:
        return operation_id
    candidates = [name for name in known if name.startswith(f"{operation_id}_")]
    return candidates[0] if len(candidates) == 1 else operation_id


def _resolve_targets(paths: dict[str, Any], known: set[str]) -> list[str]:
    changes = []
    for path, item in paths.items():
        for method, operation in item.items():
            for status, response in operation.get("responses", {}).items():
                for name, link in response.get("links", {}).items():
                    target = link.get("operationId")
                    if target is not None and target not in known:
                        link["operationId"] = _resolve(target, known)
                        changes.append(
                            f"{method.upper()} {path} {status} link {name}: operationId "
                            f"{target!r} -> {link['operationId']!r}"
                        )
    return changes


def _needs_token(operation: dict[str, Any]) -> bool:
    """Whether an operation takes the game's token (its bearer security scheme)."""
    return bool(operation.get("security"))


def _authorise_links(paths: dict[str, Any]) -> list[str]:
    """Every operation on a game that takes the token is linked from the creation response,
    with ``Authorization: Bearer <token>``."""
    changes = []
    links = (
        paths.get("/games", {}).get("post", {}).get("responses", {}).get("201", {})
    ).setdefault("links", {})
    for path, item in paths.items():
        for operation in item.values():
            if "{game_id}" not in path or not _needs_token(operation):
                continue
            target = operation["operationId"]
            named = [name for name, link in links.items() if link.get("operationId") == target]
            if not named:
                named = [f"Authorised_{target}"]
                links[named[0]] = {
                    "operationId": target,
                    "parameters": {"game_id": "$response.body#/id"},
                }
                changes.append(f"POST /games 201 link {named[0]} added")
            for name in named:
                parameters = links[name].setdefault("parameters", {})
                if not any(key.lower().endswith("authorization") for key in parameters):
                    parameters["header.authorization"] = "Bearer {$response.body#/token}"
                    changes.append(f"POST /games 201 link {name}: Authorization from the token")
    return changes


def _complete_placement_links(paths: dict[str, Any], place_id: str) -> list[str]:
    """The first placement guarded by the creation's ETag, on the first legal cell; and a
    link from each placement to the next, so that sequences play several cards."""
    changes = []
    created = paths["/games"]["post"]["responses"]["201"]
    for name, link in created.get("links", {}).items():
        if link.get("operationId") != place_id:
            continue
        parameters = link.setdefault("parameters", {})
        if not any(key.lower().endswith("if-match") for key in parameters):
            parameters["header.if-match"] = "$response.header.ETag"
            changes.append(f"POST /games 201 link {name}: If-Match from the ETag")
        if "requestBody" not in link:
            link["requestBody"] = "$response.body#/legal_placements/0"
            changes.append(f"POST /games 201 link {name}: body from legal_placements")
    placed = paths[PLACEMENTS]["post"]["responses"].setdefault("201", {})
    if not placed.get("links"):
        placed["links"] = {
            "PlaceNextCard": {
                "operationId": place_id,
                "parameters": {
                    "game_id": "$request.path.game_id",
                    "header.if-match": "$response.header.ETag",
                },
                "requestBody": "$response.body#/game/legal_placements/0",
            },
        }
        changes.append(f"POST {PLACEMENTS} 201 link PlaceNextCard added")
    return changes


def complete_links(raw_schema: dict[str, Any]) -> list[str]:
    """Make the document's links usable for stateful testing; return what was changed."""
    ids = _operation_ids(raw_schema)
    paths: dict[str, Any] = raw_schema.get("paths", {})
    changes = _resolve_targets(paths, set(ids.values()))
    if ("post", "/games") not in ids:
        return changes
    changes += _authorise_links(paths)
    place_id = ids.get(("post", PLACEMENTS))
    if place_id is not None:
        changes += _complete_placement_links(paths, place_id)
    return changes


@schemathesis.hook
def before_load_schema(context: HookContext, raw_schema: dict[str, Any]) -> None:
    complete_links(raw_schema)


# ----------------------------------------------------------------------------- the failures


def _problem(response: Response) -> dict[str, Any]:
    try:
        body = json.loads(response.content)
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _path_of(case: Case[Any]) -> str:
    return str(case.operation.path)


def deliberate(failure: Failure, case: Case[Any], response: Response) -> str | None:
    """Documented refusals of schema-valid requests that a JSON schema cannot express.

    * A placement the rules forbid (``not_origin``, ``not_adjacent``, ``grid_too_large``,
      ``pile_full``: 422): whether a cell is legal depends on the game, not on the request's
      shape.
    * ``idempotency_key_reused`` (422): the generator sends one key with two bodies.
    * ``precondition_failed`` (412): a generated ``If-Match`` that is not the game's ETag.
    * ``invalid_cursor`` (422): cursors are opaque and signed; only those the service made
      (``next_cursor``) are valid.
    * ``invalid_window`` (422) on ``/leaderboard``: whether a window exists depends on today
      (no ``date`` after it) and on the other parameters together (no ``date`` with
      ``period=all``, no window with ``challenge``), which a schema of each parameter on its
      own cannot say.
    * ``invalid_request`` on ``POST /tournament-schedules`` naming the ``cron`` or the whole
      body: whether a cron expression is one croniter reads, and whether its tournaments
      would overlap (its shortest gap against the duration), are not a JSON schema's to say.
    * ``ignored_auth`` on a 2xx whose token schemathesis counts as generated: in the stateful
      phase the token comes from the creation response through the document's links, and a
      token the service accepted cannot have been generated (256 random bits). Its probes
      without a token and with a made-up one still run and still fail the test.
    """
    if failure.code == ACCEPTED_INVALID_AUTH:
        generated = "generated auth likely invalid" in failure.message
        headers = {name.lower(): value for name, value in (case.headers or {}).items()}
        token = str(headers.get("authorization", ""))
        if generated and 200 <= response.status_code < 300 and token.startswith("Bearer "):
            return "deliberate: the token came from a link"
        return None
    if failure.code != REJECTED_POSITIVE_DATA:
        return None
    problem = _problem(response)
    code = problem.get("code")
    if code in STATEFUL_CODES or (code in RULE_CODES and _path_of(case) == PLACEMENTS):
        return f"deliberate: {code}"
    if code == "invalid_cursor" and _path_of(case) in {
        "/leaderboard",
        "/players/{name}/games",
        "/games",
        "/races/open",
        "/tournaments",
        "/tournaments/{tournament_id}/standings",
        "/players/{name}/tournaments",
    }:
        return "deliberate: opaque cursor"
    if (
        code == "invalid_request"
        and _path_of(case) == "/tournament-schedules"
        and problem.get("errors")
        and all(
            list(error.get("loc", []))[:2] in (["body", "cron"], ["body"])
            for error in problem["errors"]
        )
    ):
        return "deliberate: a cron expression and its overlap are croniter's to judge"
    if code == "invalid_window" and _path_of(case) == "/leaderboard":
        return "deliberate: a window depends on today and on the parameters together"
    return None


@schemathesis.hook
def filter_failure(
    context: HookContext, failure: Failure, case: Case[Any], response: Response
) -> bool:
    reason = deliberate(failure, case, response)
    if reason is None:
        return True
    if DROP_LOG:
        with open(DROP_LOG, "a") as log:
            entry = {"reason": reason, "failure": failure.code, "operation": failure.operation}
            log.write(json.dumps(entry) + "\n")
    return False
