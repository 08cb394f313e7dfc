"""`heroes-table simulate --ruleset homm3`: Skirmish and Adventure through the CLI."""

from __future__ import annotations

import argparse
import json

import pytest

from engine import simulate


@pytest.mark.rule("homm3bf:skirmish-mode.victory-condition")
@pytest.mark.parametrize("options", ['{"size": "short"}', '{"mode": "adventure"}'])
@pytest.mark.slow
def test_simulate_homm3(options: str, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    simulate.add_arguments(parser)
    args = parser.parse_args(
        ["--ruleset", "homm3", "--players", "2", "--games", "3", "--options", options]
    )
    assert simulate.main(args) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["finished"] == 3 and summary["errors"] == 0 and summary["mean_turns"] > 0
