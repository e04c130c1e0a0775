"""The benchmarks run end to end, briefly, on both databases, and print every figure they
promise. Nothing here asserts a speed: only that the runs complete without a 5xx."""

from __future__ import annotations

import pytest

from bench import http_load, leaderboard_scale, request_cost

pytestmark = pytest.mark.slow


def test_http_load_plays_whole_games_and_reports_every_endpoint_against_its_floor(
    backend: str, capsys: pytest.CaptureFixture[str]
) -> None:
    exit_code = http_load.main(
        [
            "--backend", backend, "--clients", "4", "--seconds", "1", "--warmup", "0.2",
            "--games-for-memory", "60", "--seed-scores", "150",
        ]
    )  # fmt: skip
    # 60 games: more than the place phase ends, so that `play` ends games (each client reads
    # the history and the leaderboard after the first one it ends).
    out = capsys.readouterr().out
    assert exit_code == 0, out
    for phase in http_load.PHASES:
        assert f"[{backend}] phase {phase}:" in out
    for endpoint in (
        http_load.HEALTHZ,
        http_load.WRITE,
        http_load.CREATE,
        http_load.READ,
        http_load.PLACE,
        http_load.HISTORY,
        http_load.LEADERBOARD_100,
    ):
        assert endpoint in out
    for goal in (
        "placements/s vs write floor",
        "game creations/s vs write floor",
        "GET /games/{id}/s vs /healthz floor",
        "GET /leaderboard?limit=100/s vs /healthz floor",
        "placement p99, 4 concurrent clients",
        "server RSS after 6 -> 60 games",
        "errors by status (only 409 expected)",
    ):
        assert goal in out
    assert f"[{backend}] 5xx responses and broken connections: 0" in out


def test_leaderboard_scale_loads_won_games_and_times_first_and_deep_pages(
    backend: str, capsys: pytest.CaptureFixture[str]
) -> None:
    exit_code = leaderboard_scale.main(
        ["--backend", backend, "--sizes", "200,2000", "--requests", "20", "--depth", "1000"]
    )
    out = capsys.readouterr().out
    assert exit_code == 0, out
    assert f"[{backend}] 200 won games" in out
    assert f"[{backend}] 2000 won games" in out
    assert "page 20 (after 19 cursors)" in out  # 2,000 entries: the board ends at page 20
    assert "first page, 2000 vs 200" in out
    assert "deep page, 2000 vs 200" in out
    assert f"[{backend}] plan of the leaderboard query at 2000, deep page:" in out
    assert "ix_scores_leaderboard" in out
    assert "errors: none" in out


def test_request_cost_sends_every_kind_of_request(
    backend: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Without valgrind (counting takes minutes): the requests it counts all succeed.
    exit_code = request_cost.main(["--backend", backend, "--requests", "30", "--no-valgrind"])
    out = capsys.readouterr().out
    assert exit_code == 0, out
    for kind in request_cost.KINDS:
        assert f"[{backend}] {kind}: 80 requests answered" in out
