"""The benchmarks run end to end, briefly, on both databases, and measure what they promise:
every phase and endpoint measured, no 5xx. Nothing here asserts a speed, so the sizes are the
smallest that still reach every phase, page and endpoint."""

from __future__ import annotations

import pytest

from bench import hint_isolation, http_load, leaderboard_repair, leaderboard_scale, request_cost

pytestmark = pytest.mark.slow


def test_http_load_plays_whole_games_and_measures_every_endpoint_against_its_floor(
    backend: str,
) -> None:
    args = http_load.parse_args(
        [
            "--backend", backend, "--clients", "4", "--seconds", "0.5", "--warmup", "0.1",
            "--games-for-memory", "30", "--seed-scores", "50",
        ]
    )  # fmt: skip
    report = http_load.run_backend(backend, args)
    # 30 games: more than the place phase ends, so that `play` ends games (each client reads
    # the history and the leaderboard after the first one it ends).
    expected = {
        "healthz": [http_load.HEALTHZ],
        "write": [http_load.WRITE],
        "create": [http_load.CREATE],
        "place": [http_load.PLACE],
        "read": [http_load.READ],
        "leaderboard": [http_load.LEADERBOARD_100],
        "play": [http_load.CREATE, http_load.READ, http_load.PLACE],
    }
    for phase, endpoints in expected.items():
        for endpoint in endpoints:
            assert report.phases[phase].recorder.endpoints[endpoint].count > 0, (phase, endpoint)
    # After the games they end, players read the history and the leaderboard (in `play`, or
    # in `memory` if `play` ended too few games).
    for endpoint in (http_load.HISTORY, http_load.LEADERBOARD_20):
        asked = sum(
            phase.recorder.endpoints[endpoint].count
            for phase in report.phases.values()
            if endpoint in phase.recorder.endpoints
        )
        assert asked > 0, endpoint
    for endpoint in expected["healthz"] + expected["write"]:
        assert http_load.floor_of(report, endpoint) > 0
    assert report.serious_errors() == 0
    assert set(report.errors()) <= {"409"}  # lost races only
    assert report.games_finished >= 30
    assert [games for games, _ in report.memory] == [3, 30]
    assert all(rss > 10 * 2**20 for _, rss in report.memory)


def test_leaderboard_scale_loads_won_games_and_walks_to_the_deep_page(backend: str) -> None:
    args = leaderboard_scale.parse_args(
        ["--backend", backend, "--sizes", "100,1000", "--requests", "10", "--depth", "1000"]
    )
    small, large = leaderboard_scale.run_backend(backend, args)
    assert (small.size, large.size) == (100, 1000)
    assert large.deep_page == 10  # 1,000 entries at 100 a page: the board ends at page 10
    for result in (small, large):
        assert result.errors() == {}
        assert result.first.count == result.deep.count == result.healthz.count == 10
    # The deep page is one range scan of the leaderboard index, as the first page is.
    assert any("ix_scores_leaderboard" in line for line in large.plans["deep page"])


def test_leaderboard_repair_times_a_check_and_a_repair_that_sets_one_damage_right(
    backend: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # measure() itself asserts what each step found: nothing, nothing, the damage, nothing.
    assert leaderboard_repair.main(["--backend", backend, "--sizes", "100"]) == 0
    out = capsys.readouterr().out
    assert f"[{backend}] 100 won games: check " in out and "the rebuild (wins wait) " in out


def test_request_cost_sends_every_kind_of_request(
    backend: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Without valgrind (counting takes minutes): the requests it counts all succeed.
    exit_code = request_cost.main(["--backend", backend, "--requests", "10", "--no-valgrind"])
    out = capsys.readouterr().out
    assert exit_code == 0, out
    for kind in request_cost.KINDS:
        assert f"[{backend}] {kind}: 60 requests answered" in out


def test_hint_isolation_times_placements_with_and_without_hints(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # SQLite only: what it measures is the server process's CPU, not the database. Small
    # hints, so that some start within the short recorded window even on a loaded machine.
    monkeypatch.setenv("FOURSQUARE_HINT_PLACEMENTS", "300")
    args = hint_isolation.parse_args(
        ["--seconds", "1.5", "--warmup", "0.5", "--rounds", "1", "--placers", "2", "--hinters", "2"]
    )
    quiet, hinted = hint_isolation.run(args)
    assert quiet.placements_ns and hinted.placements_ns
    assert not quiet.hints and hinted.hints > 0
    assert quiet.placement_errors == hinted.placement_errors == hinted.hint_errors == 0
