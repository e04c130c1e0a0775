"""The benchmarks run as commands, as a person runs them: the tests never import ``bench/``
(tests/api/test_layers.py keeps it so), so a benchmark's figures reach them through what it
prints or through its ``--json PATH`` file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from testkit.server import ROOT


def run_script(
    script: str, *args: str, timeout: float = 600, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``bench/<script>`` with ``args`` from the checkout's root; fail the test (after
    SIGTERM, on which the benchmarks stop their servers and drop their databases) if it runs
    longer than ``timeout`` seconds."""
    command = [sys.executable, str(ROOT / "bench" / script), *args]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.terminate()
        out, err = process.communicate(timeout=60)
        pytest.fail(f"{script} did not finish in {timeout:.0f} s:\n{out}\n{err[-4000:]}")
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def succeeded(result: subprocess.CompletedProcess[str]) -> str:
    """The command's output, once it is known to have exited 0."""
    assert result.returncode == 0, result.stdout + result.stderr[-4000:]
    return result.stdout


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))
