"""The benchmark harness runs (a quick engine run) and writes well-formed tables.

Structure only: benchmarks measure speed, tests never assert it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.__main__ import main
from benchmarks.report import begin_marker, end_marker


@pytest.mark.slow
def test_a_quick_engine_run_writes_its_block_and_keeps_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = tmp_path / "PERFORMANCE.md"
    document.write_text(
        "# Performance\n\nProse kept by hand.\n\n"
        f"{begin_marker('engine')}\nold numbers\n{end_marker('engine')}\n\nMore prose.\n"
    )
    assert main(["--quick", "--only", "engine", "--out", str(document)]) == 0
    text = document.read_text()
    assert "Prose kept by hand." in text and "More prose." in text
    assert "old numbers" not in text and text.count(begin_marker("engine")) == 1
    block = text.split(begin_marker("engine"))[1].split(end_marker("engine"))[0]
    assert "`python -m benchmarks --quick --only engine`" in block
    assert "| figure | median | floor | floor median | ratio | target | |" in block
    assert "apply, mid-game command, 4 players" in block
    assert "| complete random game, 2 players |" in block
    assert "| measurement | unit | n | median | p95 | p99 | max |" in block
    printed = capsys.readouterr().out
    assert "== Engine" in printed and "targets missed:" in printed


@pytest.mark.slow
def test_the_start_up_area_measures_a_small_database() -> None:
    from benchmarks import bench_startup

    result = bench_startup.measure([(6, 4)], repeats=1)
    names = [f.name for f in result.figures]
    assert names == [
        "start-up to ready, 6 stored games, 4 active",
        "CPU of the start-up, 6 stored games, 4 active",
        "integrity check (quick_check), 6 stored games, 4 active",
        "database file, 6 stored games, 4 active",
    ]
    assert result.figures[0].floor is not None and result.figures[0].target is None


@pytest.mark.slow
def test_the_start_up_database_holds_the_games_asked_for(tmp_path: Path) -> None:
    import asyncio

    from benchmarks import bench_startup
    from benchmarks.e2e_fixture import count_games
    from storage.sqlite import open_repository

    path = tmp_path / "startup.db"
    asyncio.run(bench_startup.build(path, 120, 100))
    assert count_games(path) == {"active": 100, "finished": 20}

    async def resumable() -> int:
        repo = await open_repository(path)
        try:
            return len(await repo.games_to_resume())
        finally:
            await repo.close()

    assert asyncio.run(resumable()) == 4  # 2 % of 100 with a computer seat, as many with orders


def test_the_capacity_line_is_the_most_a_run_sustained_within_both_bounds() -> None:
    """Three end-to-end runs (50, 200, 500 games): 8.5/s and 31.0/s kept the bounds, 40.2/s
    did not; the line is 31.0/s. A full run plans those three runs, --quick one."""
    from benchmarks.__main__ import _game_counts as game_counts
    from benchmarks.__main__ import capacity_summary, parse_args
    from benchmarks.report import AreaResult, Figure, Target

    def run(games: int, rate: float, kept: bool) -> AreaResult:
        line = Figure(
            f"capacity line, {games} games at once: interactions answered per second",
            "1/s",
            rate,
            target=Target("within", lambda f: kept),
            note="the CPU would allow about 45 per second",
        )
        return AreaResult(f"e2e-{games}", f"{games} games", [line])

    runs = [run(50, 8.5, True), run(200, 31.0, True), run(500, 40.2, False)]
    summary = capacity_summary(runs)
    assert summary is not None and summary.area == "capacity"
    assert "Capacity line: 31.0 interactions per second" in " ".join(summary.notes)
    assert [f.note.split(";")[0] for f in summary.figures] == [
        "both bounds kept",
        "both bounds kept",
        "a bound missed",
    ]
    assert all(f.target is None for f in summary.figures)  # misses are marked once
    assert capacity_summary(runs[:1]) is None
    missed = capacity_summary([run(200, 31.0, False), run(500, 40.2, False)])
    assert missed is not None and "less than the lightest run's 31.0" in " ".join(missed.notes)
    assert game_counts(parse_args(["--only", "e2e"])) == [None, 100, 150, 200, 300, 500]
    assert game_counts(parse_args(["--quick"])) == [None]
    assert game_counts(parse_args(["--games", "120"])) == [120]


def test_the_ai_area_in_a_tiny_configuration() -> None:
    """Issue 19's figures, structure only: one Hero Forge game per level (hard and
    normal against easy, one search iteration a decision), one timed decision (at an
    iteration budget: a time budget would depend on the machine)."""
    from benchmarks import bench_ai
    from engine.core.search import Budget

    result = bench_ai.run(
        True,
        games=1,
        iterations=1,
        workers=1,
        rulesets=("heroforge",),
        decision_budget=Budget(iterations=2, seconds=None),
    )
    names = [f.name for f in result.figures]
    assert names == [
        "hard against easy, heroforge: games won",
        "normal against easy, heroforge: games won",
        "games with a searching seat that failed or stuck",
        "hard decision at a budget of 2 iterations, heroforge",
    ]
    assert result.figures[2].value == 0
    assert "1 of 1 games" in result.figures[0].note or "0 of 1 games" in result.figures[0].note
    assert result.figures[3].floor is not None


def test_the_wilson_interval() -> None:
    """Wilson's score interval: 150 of 200 is 68.6-80.5 %; none of none is 0-100 %."""
    from benchmarks.bench_ai import wilson

    low, high = wilson(150, 200)
    assert round(low, 1) == 68.6 and round(high, 1) == 80.5
    assert wilson(0, 0) == (0.0, 100.0)
