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
