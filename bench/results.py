"""``--json PATH``: a benchmark's figures as JSON beside its table, for scripts (and the test
suite, which runs the benchmarks as commands and never imports them) that must read them
without parsing a table meant for people."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def add_json_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json",
        type=Path,
        metavar="PATH",
        help="also write the figures to PATH as JSON (the table stays on stdout)",
    )


def write_json(path: Path | None, value: Any) -> None:
    """Write ``value`` to ``path`` (nothing when no path was asked for)."""
    if path is not None:
        path.write_text(json.dumps(value, indent=1, sort_keys=True) + "\n", encoding="utf-8")
